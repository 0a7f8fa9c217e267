"""A whole three-player Zloděj game through the real bot and the fake Discord: slash commands and
clicks on the private hand menus (DM and the ephemeral "Show my hand"), lobby to final scores."""
from __future__ import annotations

import re
from typing import Any

import pytest

from bot.engine import registry
from bot.engine.cards import parse_card
from bot.engine.registry import computer_action
from bot.services import lobby
from bot.services.text import pretty_cards
from cogs.news import addressed
from tests.discord.conftest import BotFactory
from tests.discord.helpers import assert_living_table, assert_moved, decoded, latest_board, own_view
from tests.discord.news_checks import assert_news_first, assert_pictures_described, dms_by_turn
from tests.fakediscord import FakeDiscord, StoredMessage

SEED = "zlodej-discord-0"  # a deal in which piles get locked and steals and takes happen
GAME = registry.get("zlodej")




def selects(message: StoredMessage) -> list[dict[str, Any]]:
    return [c for row in message.components for c in row.get("components", []) if c.get("type") == 3]


def offered_values(message: StoredMessage) -> list[str]:
    return [option["value"] for select in selects(message) for option in select["options"]]


def offered_cards(message: StoredMessage) -> set[str]:
    """Every card named by the menus (the victim's seat number of a steal is not a card)."""
    cards: set[str] = set()
    for value in offered_values(message):
        words = value.split()
        if words[0] in ("new", "add", "take"):
            words = words[1:]
        elif words[0] == "steal":
            words = words[2:]
        cards.update(str(parse_card(word)) for word in words)
    return cards


def menu_for(message: StoredMessage, action: str) -> tuple[str, str] | None:
    """(select custom_id, value) that performs ``action`` in a private view, if it offers it."""
    verb, _, rest = action.partition(" ")
    for select in selects(message):
        prefix = select["custom_id"].split(":", 5)[5]
        wanted = rest if prefix == "discard" and verb == "discard" else action
        if prefix in ("", "discard") and any(o["value"] == wanted for o in select["options"]):
            return select["custom_id"], wanted
    return None


def made_for_ply(message: StoredMessage, ply: int) -> bool:
    return any(cid.split(":")[2] == str(ply) for cid in message.custom_ids if cid.startswith("gms:"))


async def test_three_players_play_zlodej_by_commands_and_clicks(fake: FakeDiscord, make_bot: BotFactory,
                                                                monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(lobby, "new_seed", lambda: SEED)
    bot = await make_bot()
    users = fake.add_members(3)
    stranger = fake.add_member("stranger")
    by_id = {u["id"]: u for u in users}

    r = await fake.interact(bot, fake.slash(users[0], "game new", game="zlodej", options="first_player=creator"))
    assert r.ok and "Zloděj" in r.content
    for user in users[1:]:
        assert (await fake.interact(bot, fake.slash(user, "game join"))).ok
    await fake.interact(bot, fake.click(users[0], r.original, label="Start"))
    record = await bot.service.current(fake.channel_id)
    assert record is not None and record.status == "active" and record.seed == SEED
    names, game_id = record.names, record.id
    board = latest_board(fake)
    assert f"<@{record.user_of(0)}>" in board.content and decoded(board.files[0].data).width >= 1000

    # refused: ending the turn before laying anything, and a player acting out of turn
    first = by_id[record.user_of(0)]
    refused = await fake.interact(bot, fake.slash(first, "zlodej end"))
    assert refused.ephemeral and "must lay at least once" in refused.text
    other = by_id[record.user_of(1)]
    hand1 = bot.service.observe(record, 1)["private"]["hand"]
    wrong = await fake.interact(bot, fake.slash(other, "zlodej discard", card=hand1[0]))
    assert wrong.ephemeral and "turn" in wrong.text.lower()
    assert (await bot.service.current(fake.channel_id)).ply == 0

    # autocomplete offers each player only their own cards; a stranger gets nothing
    for user in users:
        seat = record.seat_of(user["id"])
        hand = set(bot.service.observe(record, seat)["private"]["hand"])
        for verb, option in (("discard", "card"), ("new", "cards")):
            choices = (await fake.interact(bot, fake.autocomplete(user, f"zlodej {verb}", focused=option,
                                                                  **{option: ""}))).choices
            assert all({str(parse_card(c)) for c in ch["value"].split()} <= hand for ch in choices)
            if seat == 0 and verb == "discard":
                assert {ch["value"] for ch in choices} == hand
            if seat != 0:
                assert choices == []  # not their turn: nothing is legal
    strange = await fake.interact(bot, fake.autocomplete(stranger, "zlodej discard", focused="card", card=""))
    assert strange.choices == []

    seen: dict[str, int] = {}
    locked_refused = stale_checked = ephemeral_used = target_checked = False
    old_menu: StoredMessage | None = None
    old_owner: dict | None = None
    moves = turn_changes = 0
    # (victim, the thief's turn: its board message) -> the steals as told to the victim
    stolen: dict[tuple[int, str], list[str]] = {}
    while True:
        record = await bot.service.current(fake.channel_id)
        if record is None:
            break
        seat = next(iter(bot.service.to_act(record)))
        user = by_id[record.user_of(seat)]
        state = GAME.load(record.state)
        hand = bot.service.observe(record, seat)["private"]["hand"]

        # the player to act has a private view for exactly this position (by DM, or as the answer
        # to their own previous move), showing only their own cards
        dm = own_view(fake, user)
        assert made_for_ply(dm, record.ply), (moves, dm)
        assert f"Your hand: {pretty_cards(' '.join(hand))}" in dm.content
        assert offered_cards(dm) <= set(hand)
        assert dm.files and decoded(dm.files[0].data).width >= 1000
        # it says where it belongs: the game, the server, the channel, a link to the current board
        assert "Zloděj" in dm.content and fake.guild_name in dm.content and f"<#{fake.channel_id}>" in dm.content
        assert f"/{fake.guild_id}/{fake.channel_id}/{latest_board(fake).id}" in dm.content

        if not locked_refused:
            victim = next((o for o in range(3) if o != seat and state.locked[o] and not state.open_piles[o]), None)
            if victim is not None:
                no = await fake.interact(bot, fake.slash(user, "zlodej steal", target=names[victim], cards=hand[0]))
                assert no.ephemeral and "locked under jokers" in no.text and names[victim] in no.text
                locked_refused = True

        if old_menu is not None and old_owner is not None and not stale_checked:
            # another player's menu is refused; its owner's own old menu is stale after their move
            foreign = await fake.interact(bot, fake.click(user if user is not old_owner else stranger, old_menu,
                                                          label="End turn"))
            assert foreign.ephemeral and ("someone else" in foreign.text or "not a player" in foreign.text)
            stale = await fake.interact(bot, fake.click(old_owner, old_menu, label="End turn"))
            assert stale.ephemeral and "moved on" in stale.text
            stale_checked = True

        action = str(computer_action(GAME, state, seat))
        verb, _, rest = action.partition(" ")
        seen[verb] = seen.get(verb, 0) + 1
        if moves % 2 == 0:
            # by clicking: the DM menus, or now and then the ephemeral "Show my hand" view
            menu = dm
            if moves % 10 == 4:
                shown = await fake.interact(bot, fake.click(user, latest_board(fake), label="Show my hand"))
                menu = [m for m in shown.messages if m.custom_ids][-1]
                assert menu.ephemeral and made_for_ply(menu, record.ply)
                ephemeral_used = True
            if verb == "end":
                if old_menu is None:
                    old_menu, old_owner = menu, user
                r = await fake.interact(bot, fake.click(user, menu, label="End turn"))
            else:
                found = menu_for(menu, action)
                assert found is not None, (action, offered_values(menu))
                r = await fake.interact(bot, fake.select(user, menu, found[0], [found[1]]))
        elif verb == "steal":
            victim_seat, _, cards = rest.partition(" ")
            targets = await fake.interact(bot, fake.autocomplete(user, "zlodej steal", focused="target", target=""))
            values = [c["value"] for c in targets.choices]
            assert f"#{int(victim_seat) + 1}" in values
            legal = bot.service.legal_texts(record, seat, limit=2000)
            assert all(any(t.startswith(f"steal {int(v[1:]) - 1} ") for t in legal) for v in values)
            assert any(names[int(victim_seat)] in c["name"] for c in targets.choices)
            picks = await fake.interact(bot, fake.autocomplete(user, "zlodej steal", focused="cards",
                                                               target=f"#{int(victim_seat) + 1}", cards=""))
            assert cards in [c["value"] for c in picks.choices]
            # the target may be typed as the name, the board's number or a mention
            victim = int(victim_seat)
            typed = [names[victim], f"#{victim + 1}", f"<@{record.user_of(victim)}>"][seen["steal"] % 3]
            target_checked = True
            r = await fake.interact(bot, fake.slash(user, "zlodej steal", target=typed, cards=cards))
        elif verb == "end":
            r = await fake.interact(bot, fake.slash(user, "zlodej end"))
        else:
            option = "card" if verb == "discard" else "cards"
            r = await fake.interact(bot, fake.slash(user, f"zlodej {verb}", **{option: rest}))
        assert_moved(r)
        if verb == "steal":
            victim = int(rest.split()[0])
            made = GAME.apply(GAME.copy(state), seat, GAME.parse_action(action))
            told = [addressed(e, victim, names, "en") for e in made if e.key == "zlodej.event.steal"]
            stolen.setdefault((victim, latest_board(fake).id), []).extend(told)
        after = await bot.service.current(fake.channel_id)
        if after is not None and bot.service.to_act(after) != bot.service.to_act(record):
            turn_changes += 1
        assert after is None or after.ply == record.ply + 1, action
        moves += 1
        assert moves < 300

    assert seen.get("steal") and seen.get("take") and seen.get("new") and seen.get("discard")
    assert locked_refused and stale_checked and ephemeral_used and target_checked

    finished = await bot.service.get(game_id)
    assert finished.status == "finished" and finished.ply == moves
    final = fake.channel_messages()[-1]
    assert final.content.startswith("🏆") and "piles are counted" in final.content
    scores = finished.outcome["scores"]
    for seat, name in enumerate(names):
        assert f"{name}: {scores[str(seat)]} points." in final.content
    best = max(scores.values())
    winners = ", ".join(names[s] for s in range(3) if scores[str(s)] == best)
    assert f"1. {winners}" in final.content
    assert re.search(r"seed was `[0-9a-z-]+`", final.content)
    decoded(final.files[0].data)

    assert_living_table(fake, turn_changes)

    # private views only ever went to their owners' DM channels
    dm_channels = {fake.dm_channel(u)["id"] for u in users}
    assert {m.channel_id for m in fake.messages.values() if m.kind == "dm"} <= dm_channels
    assert_news_first(fake, users)  # every ping and DM leads with its reader's news

    # one DM per player per turn: the DMs of an opponent's turn fold into one, edited, whose first
    # line names every steal from its reader in that turn
    folded = 0
    for seat in range(3):
        turns = dms_by_turn(fake, by_id[finished.user_of(seat)])
        assert all(len(dms) == 1 for dms in turns.values()), {b: len(d) for b, d in turns.items()}
        for (victim, board_id), steals in stolen.items():
            if victim != seat:
                continue
            first = turns[board_id][0].content.splitlines()[0]
            assert first.startswith(f"{names[seat]} — Zloděj: ") and all(s in first for s in steals), (first, steals)
            folded += len(steals) > 1
    assert folded, "no turn stole twice from one player: the seed no longer shows a fold"
    assert_pictures_described(fake)  # every image with its alt text
    fake.assert_clean()
