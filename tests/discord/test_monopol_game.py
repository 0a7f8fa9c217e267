"""A whole four-player Monopol game through the real bot and the fake Discord, lobby to winner.

Every move reaches the bot as a slash command or a button click. A small policy decides the
moves: buy what you can, decline the first deed to start an auction (bids by button and by
/monopol bid), assemble a colour set by a trade once two players share one (a stranger's and a
third player's Accept are refused, the partner accepts), build with /monopol build (street
autocomplete lists only the caller's streets), show a deed card, and play until max_rounds.
The seed is fixed so the game is the same every run.
"""
from __future__ import annotations

import copy
from dataclasses import dataclass, field
from typing import Any

import pytest

from bot.engine import registry
from bot.games.monopol import rules
from bot.games.monopol.board import GROUPS, SQUARES
from bot.games.monopol.state import MonopolState
from tests.discord.conftest import BotFactory
from tests.discord.helpers import assert_living_table, assert_moved, board_posts, decoded, latest_board
from tests.discord.news_checks import assert_news_first, assert_pictures_described
from tests.fakediscord import FakeDiscord

SEED = "monopol-discord-99"
MAX_ROUNDS = 3
GAME = registry.get("monopol")


@dataclass
class Progress:
    """What the script has done so far (the policy below reads it)."""

    auctions: int = 0
    button_bid: bool = False
    slash_bid: bool = False
    traded: bool = False
    built: bool = False
    jail_paid: bool = False
    trade_plan: tuple[int, int, int, tuple[int, ...]] | None = None  # proposer, partner, cash, squares
    seen: set[str] = field(default_factory=set)


@dataclass(frozen=True)
class Step:
    seat: int
    action: str
    how: str  # "button" or "slash"


def set_opportunity(s: MonopolState) -> tuple[int, int, int, tuple[int, ...]] | None:
    """A colour set owned completely by two players, which one trade would give to one of them."""
    for squares in GROUPS.values():
        if SQUARES[squares[0]].kind != "street":
            continue
        owners = [s.owner[sq] for sq in squares]
        if min(owners) < 0 or len(set(owners)) != 2 or any(s.mortgaged[sq] for sq in squares):
            continue
        proposer = max(set(owners), key=lambda p: (owners.count(p), -p))
        partner = next(p for p in owners if p != proposer)
        wanted = tuple(sq for sq in squares if s.owner[sq] == partner)
        cash = sum(SQUARES[sq].price for sq in wanted) + 20
        if s.cash[proposer] >= cash + 100:
            return proposer, partner, cash, wanted
    return None


def plan(s: MonopolState, progress: Progress) -> Step:
    """The next move of the script (the same on every run for the same seed)."""
    if s.debts:
        debtor = s.debts[0].debtor
        for sq in range(40):
            if s.owner[sq] == debtor and GAME.is_legal(s, debtor, GAME.parse_action(f"mortgage {sq}")):
                return Step(debtor, f"mortgage {sq}", "slash")
        legal = [str(a) for a in GAME.legal_actions(s, debtor)]
        return Step(debtor, next(a for a in legal if a != "bankrupt") if len(legal) > 1 else "bankrupt", "slash")
    if s.trade:
        return Step(rules.trade_of(s).target, "accept", "button")
    if s.placement:
        seat = int(s.placement["seat"])
        return Step(seat, str(next(a for a in GAME.legal_actions(s, seat) if str(a).startswith("build"))), "slash")
    if s.choices:
        return Step(s.choices[0].seat, f"keep-mortgage {s.choices[0].square}", "button")
    if s.auction:
        bidders = rules.bidders(s)
        if progress.auctions == 1 and not progress.button_bid:
            return Step(bidders[0], f"bid {max(10, s.auction.high + 10)}", "button")
        if progress.auctions == 1 and not progress.slash_bid:
            return Step(bidders[0], f"bid {s.auction.high + 15}", "slash")
        return Step(bidders[0], "pass", "button" if bidders[0] % 2 else "slash")
    if not progress.traded and progress.trade_plan is None:
        progress.trade_plan = set_opportunity(s)
    if progress.trade_plan and not progress.traded:
        proposer, partner, cash, wanted = progress.trade_plan
        return Step(proposer, f"trade {partner} give:c{cash} get:{','.join(map(str, wanted))}", "slash")
    if progress.traded and not progress.built and progress.trade_plan:
        proposer, _, _, wanted = progress.trade_plan
        group = GROUPS[SQUARES[wanted[0]].group]
        for sq in group:
            if GAME.is_legal(s, proposer, GAME.parse_action(f"build {sq} 2")):
                return Step(proposer, f"build {sq} 2", "slash")
    seat = s.turn
    if s.phase == "roll":
        if s.in_jail[seat] and not progress.jail_paid and s.cash[seat] >= 50:
            return Step(seat, "jail pay", "button")
        return Step(seat, "roll", "button" if len(progress.seen) % 3 else "slash")
    if s.phase == "buy":
        price = SQUARES[s.position[seat]].price
        if progress.auctions == 0 or s.cash[seat] < price:
            return Step(seat, "decline", "button")
        return Step(seat, "buy", "button" if seat % 2 else "slash")
    return Step(seat, "end", "button" if seat != 1 else "slash")


def note(step: Step, s: MonopolState, progress: Progress) -> None:
    """Book-keeping after a move went through."""
    progress.seen.add(step.action)
    verb = step.action.split(" ")[0]
    if verb == "decline" and step.action == "decline":
        progress.auctions += 1
    if verb == "bid" and progress.auctions == 1:
        if step.how == "button":
            progress.button_bid = True
        else:
            progress.slash_bid = True
    if verb == "accept":
        progress.traded = True
    if verb == "build" and progress.traded:
        progress.built = True
    if step.action == "jail pay":
        progress.jail_paid = True


def slash_options(action: str, record: Any, fake: FakeDiscord, users: dict[int, dict]) -> tuple[str, dict]:
    """The /monopol command and options a player types for ``action``."""
    verb, *rest = action.split(" ")

    def name(square: str) -> str:
        return SQUARES[int(square)].name
    if verb == "bid":
        return "monopol bid", {"amount": int(rest[0])}
    if verb in ("build", "sell"):
        return f"monopol {verb}", {"street": name(rest[0]), "count": int(rest[1])}
    if verb in ("mortgage", "unmortgage", "lift"):
        return f"monopol {verb}", {"street": name(rest[0])}
    if verb == "keep-mortgage":
        return "monopol keep", {"street": name(rest[0])}
    if verb == "jail":
        return "monopol jail", {"how": rest[0]}
    if verb == "trade":
        partner = users[int(rest[0])]
        give = rest[1][5:]
        get = rest[2][4:]

        def words(items: str) -> str:
            return ", ".join(f"{item[1:]} kr" if item.startswith("c") else name(item)
                             for item in items.split(",") if item != "-")
        return "monopol trade", {"partner": partner, "give": words(give), "get": words(get)}
    if action == "decline trade":
        return "monopol reject", {}
    return f"monopol {verb}", {}




async def test_four_players_play_monopol_to_the_winner(fake: FakeDiscord, make_bot: BotFactory,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("bot.services.lobby.new_seed", lambda: SEED)
    bot = await make_bot()
    members = fake.add_members(4)
    stranger = fake.add_member("stranger")

    r = await fake.interact(bot, fake.slash(members[0], "game new", game="monopol",
                                            options=f"max_rounds={MAX_ROUNDS}"))
    assert r.ok and "Monopol" in r.content
    for member in members[1:]:
        assert (await fake.interact(bot, fake.click(member, r.original, label="Join"))).ok
    await fake.interact(bot, fake.click(members[0], r.original, label="Start"))
    record = await bot.service.current(fake.channel_id)
    assert record is not None and record.status == "active"
    users = {record.seat_of(m["id"]): m for m in members}
    game_id = record.id
    board = latest_board(fake)
    assert decoded(board.files[0].data).width >= 1000
    first = GAME.load(record.state).turn  # the opening roll decides who starts
    assert board.component(label="Roll") is not None and f"<@{users[first]['id']}>" in board.content

    # a deed card, with no owner yet, for anyone
    deed = await fake.interact(bot, fake.autocomplete(stranger, "monopol deed", focused="street", street="råd"))
    assert [c["value"] for c in deed.choices] == ["Rådhusplassen"]
    deed = await fake.interact(bot, fake.slash(stranger, "monopol deed", street="radhusplassen"))
    assert deed.ephemeral and "Rådhusplassen" in deed.text and "bank" in deed.text
    assert decoded(deed.files[0].data).height > decoded(deed.files[0].data).width
    unknown = await fake.interact(bot, fake.slash(stranger, "monopol deed", street="Karl Marx gate"))
    assert unknown.ephemeral and "no deed called" in unknown.text

    progress = Progress()
    checks: set[str] = set()
    moves = turn_changes = 0
    while True:
        record = await bot.service.current(fake.channel_id)
        if record is None or record.status != "active":
            break
        state = GAME.load(record.state)
        step = plan(state, progress)
        user = users[step.seat]
        board = copy.deepcopy(latest_board(fake))  # as the player's client shows it
        before = record.version

        if step.action.startswith("trade") and "trade" not in checks:
            cmd, options = slash_options(step.action, record, fake, users)
            # the give/get autocomplete offers the caller's and the partner's deeds by name
            offered = await fake.interact(bot, fake.autocomplete(user, cmd, focused="get", **options))
            assert options["get"] in [c["value"] for c in offered.choices]
            r = await fake.interact(bot, fake.slash(user, cmd, options))
            assert r.ok and not r.text.startswith("I cannot"), r.text
            offer = latest_board(fake)
            offered_version = (await bot.service.current(fake.channel_id)).version
            assert offered_version > record.version
            partner = users[options_partner_seat(step.action)]
            assert f"<@{partner['id']}>" in offer.content and "offers" in offer.content
            refused = await fake.interact(bot, fake.click(stranger, offer, label="Accept trade"))
            assert refused.ephemeral and "not a player" in refused.text
            third = next(u for seat, u in users.items() if seat not in (step.seat, options_partner_seat(step.action)))
            refused = await fake.interact(bot, fake.click(third, offer, label="Accept trade"))
            assert refused.ephemeral and "Only the player the offer is made to" in refused.text
            assert (await bot.service.current(fake.channel_id)).version == offered_version
            checks.add("trade")
            note(step, state, progress)
            turn_changes += 1  # the offer waits for the partner
            moves += 1
            continue

        if step.action.startswith("build") and "build" not in checks:
            # street autocomplete: only the builder's own streets, the buildable ones first
            choices = await fake.interact(bot, fake.autocomplete(user, "monopol build", focused="street", street=""))
            names = [c["value"] for c in choices.choices]
            owned = {SQUARES[sq].name for sq in range(40) if state.owner[sq] == step.seat
                     and SQUARES[sq].kind == "street"}
            assert names and set(names) == owned
            assert SQUARES[int(step.action.split()[1])].name in names[:3]
            counts = await fake.interact(bot, fake.autocomplete(
                user, "monopol build", focused="count", street=SQUARES[int(step.action.split()[1])].name, count=""))
            assert 2 in [c["value"] for c in counts.choices]
            other = users[(step.seat + 1) % 4]
            foreign = await fake.interact(bot, fake.autocomplete(other, "monopol build", focused="street", street=""))
            assert not set(c["value"] for c in foreign.choices) & set(names)
            checks.add("build")

        if step.action.startswith("bid") and step.how == "slash" and "bid_ac" not in checks:
            suggested = await fake.interact(bot, fake.autocomplete(user, "monopol bid", focused="amount", amount=""))
            low = state.auction.high + 1 if state.auction else 0
            assert suggested.choices and all(c["value"] >= low for c in suggested.choices)
            checks.add("bid_ac")

        if step.how == "button":
            custom_id = f"gm:a:{game_id}:{record.ply}:{step.action}"
            r = await fake.interact(bot, fake.click(user, board, custom_id=custom_id))
        else:
            cmd, options = slash_options(step.action, record, fake, users)
            r = await fake.interact(bot, fake.slash(user, cmd, options))
        assert_moved(r)
        after = await bot.service.get(game_id)
        assert after.version > before, (step, r.text)
        if bot.service.to_act(after) != bot.service.to_act(record):
            turn_changes += 1
        note(step, state, progress)
        if step.action.startswith("bid") and step.how == "button" and "stale" not in checks:
            # the same quick-bid button again: the board moved on, nothing changes
            stale = await fake.interact(bot, fake.click(users[step.seat], board, custom_id=custom_id))
            assert stale.ephemeral and "moved on" in stale.text
            assert (await bot.service.get(game_id)).version == after.version
            checks.add("stale")
        moves += 1
        assert moves < 400

    assert progress.button_bid and progress.slash_bid and progress.traded and progress.built
    assert progress.jail_paid
    assert checks >= {"trade", "build", "bid_ac", "stale"}
    final = fake.channel_messages()[-1]
    assert final.content.startswith("🏆") and f"{MAX_ROUNDS} rounds are played" in final.content
    assert f"seed was `{SEED}`" in final.content
    decoded(final.files[0].data)
    record = await bot.service.get(game_id)
    assert record.status == "finished" and record.outcome["reason"] == "monopol.end.rounds"
    # the trade gave the proposer the whole set and the build put two houses on it
    assert progress.trade_plan is not None
    proposer, _, _, wanted = progress.trade_plan
    end = GAME.load(record.state)
    group = GROUPS[SQUARES[wanted[0]].group]
    assert all(end.owner[sq] == proposer for sq in group) and sum(end.level[sq] for sq in group) >= 2
    said = "\n".join(m.content for m in fake.channel_messages())
    assert "at auction for" in said and "accepts the trade" in said and "builds 2 buildings in the set of" in said
    assert_living_table(fake, turn_changes)
    # board and focus view: each picture in an embed of its own (stacked full width on a phone,
    # not two half-width attachments side by side); the result: its standings picture alone
    *played, current = board_posts(fake)
    assert any(len(m.history[0].get("embeds") or []) == 2 for m in played if m.history)
    names = [f.filename for f in current.files]
    assert len(names) == 1 and names[0].endswith("-result.png") and not current.embeds, names
    assert decoded(current.files[0].data).width >= 800
    assert_news_first(fake, members)  # every ping and DM leads with its reader's news
    assert_pictures_described(fake)  # every image with its alt text
    fake.assert_clean()


def options_partner_seat(action: str) -> int:
    return int(action.split(" ")[1])


@pytest.mark.parametrize(("text", "items"), [
    ("100 kr, Kongens gate, jail card", "c100,6,j1"),
    ("c100,6,j1", "c100,6,j1"),
    ("kr 250 og øvre slottsgate", "c250,9"),
    ("Rådhus, 2 jail cards", "39,j2"),
    ("", "-"),
    ("-", "-"),
])
def test_trade_sides_in_words_become_the_engine_grammar(text: str, items: str) -> None:
    from cogs.monopol_input import parse_bundle

    assert parse_bundle(text) == items


def test_unknown_or_ambiguous_street_names_are_refused() -> None:
    from bot.errors import InvalidAction
    from cogs.monopol_input import parse_bundle, square_of

    assert square_of("ovre slottsgate") == 9 and square_of("Oslo S") == 5
    for text in ("Karl Marx gate", "gate"):  # unknown; "gate" fits several streets
        with pytest.raises(InvalidAction, match="unknown_street"):
            square_of(text)
    with pytest.raises(InvalidAction, match="trade_twice"):
        parse_bundle("Parkveien, parkveien")


def test_auction_buttons_carry_the_absolute_amounts() -> None:
    from cogs.monopol import board_buttons

    s = GAME.new(3, GAME.resolve_options({}), "buttons")
    s.turn, s.position[0], s.phase = 0, 3, "buy"
    GAME.apply(s, 0, GAME.parse_action("decline"))
    assert [b.action for b in board_buttons(GAME.observe(s, None))] == ["bid 10", "bid 50", "pass"]
    GAME.apply(s, 1, GAME.parse_action("bid 35"))
    GAME.apply(s, 2, GAME.parse_action("trade 0 give:c20 get:-"))
    actions = [b.action for b in board_buttons(GAME.observe(s, None))]
    assert actions == ["bid 45", "pass", "accept", "decline trade"]  # at most four: +50 makes room


async def test_a_monopol_player_can_zoom_in_on_the_board(fake: FakeDiscord, make_bot: BotFactory) -> None:
    bot = await make_bot()
    anna, bo = fake.add_members(2)
    stranger = fake.add_member("stranger")
    await fake.interact(bot, fake.slash(anna, "game new", game="monopol"))
    await fake.interact(bot, fake.slash(bo, "game join"))
    await fake.interact(bot, fake.slash(anna, "game start"))
    own = await fake.interact(bot, fake.slash(anna, "monopol zoom"))
    assert own.ephemeral and "Start" in own.text  # both tokens stand on Start
    assert decoded(own.files[0].data).width == 1000
    named = await fake.interact(bot, fake.slash(stranger, "monopol zoom", street="skøyen"))
    assert named.ephemeral and "Skøyen stasjon" in named.text
    assert decoded(named.files[0].data).height == 1200  # a side column: tall, and each square large
    nowhere = await fake.interact(bot, fake.slash(stranger, "monopol zoom"))
    assert nowhere.ephemeral and "Name a street" in nowhere.text
    choices = await fake.interact(bot, fake.autocomplete(anna, "monopol zoom", focused="street", street="sjan"))
    assert [c["value"] for c in choices.choices] == ["Sjanse"]
    fake.assert_clean()
