"""A whole Tjuv och Polis game through the real bot and the fake Discord: a police player and two
thieves play from the lobby to the final ranking with slash commands, board buttons and the move,
hide and jail menus of their DMs. The seed is fixed (``new_seed`` patched), so the dice are known:
the thieves choose their nests and the police place the radio car, thieves rob and hide loot in a
nest, a jailed thief tries to break out, and the round limit ends the game."""
from __future__ import annotations

import json
from typing import Any

import pytest

from bot.engine import registry
from bot.engine.registry import computer_action
from bot.i18n import money
from rendering.tjuv import render_public
from tests.discord.conftest import BotFactory
from tests.discord.helpers import PNG, assert_moved, decoded, latest_board, own_view
from tests.discord.news_checks import assert_news_first, assert_pictures_described
from tests.fakediscord import FakeDiscord, StoredMessage

SEED = "tjuv-discord-0"  # 3 players, max_rounds=6: setup choices, robbery, arrest, break-out tries, a stash



def selects(message: StoredMessage) -> list[dict[str, Any]]:
    return [c for row in message.payload.get("components", []) for c in row.get("components", [])
            if c.get("type") == 3]


def menu_for(message: StoredMessage, action: str) -> tuple[str, str] | None:
    """(select custom_id, value) of a private menu that performs ``action``, if one offers it."""
    verb, _, rest = action.partition(" ")
    for select in selects(message):
        prefix = select["custom_id"].rsplit(":", 1)[1]
        if prefix == verb and any(o["value"] == rest for o in select["options"]):
            return select["custom_id"], rest
    return None


async def test_police_and_two_thieves_play_to_the_final_ranking(
        fake: FakeDiscord, make_bot: BotFactory, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("bot.services.lobby.new_seed", lambda: SEED)
    game = registry.get("tjuv")
    bot = await make_bot()
    users = fake.add_members(3)
    stranger = fake.add_member("stranger")
    by_id = {u["id"]: u for u in users}

    r = await fake.interact(bot, fake.slash(users[0], "game new", game="tjuv", options="max_rounds=6"))
    assert r.ok and "Tjuv och Polis" in r.content
    for user in users[1:]:
        assert (await fake.interact(bot, fake.slash(user, "game join"))).ok
    await fake.interact(bot, fake.slash(users[0], "game start"))
    record = await bot.service.current(fake.channel_id)
    assert record is not None and record.status == "active" and record.seed == SEED
    board = latest_board(fake)
    assert decoded(board.files[0].data).width >= 1000
    # setup first: thief T1 (the first seat after the police) chooses his starting nest
    assert not any(b.get("label") == "Roll" for b in board.buttons) and f"<@{users[1]['id']}>" in board.content
    # the police player (the creator: police=first) is told so; the thieves get their piece
    # (by DM, or under their own interaction: the starter's Start, the seat on turn's join)
    assert "You play the police" in own_view(fake, users[0]).content
    assert "You play the thief T1" in own_view(fake, users[1]).content
    assert "You play the thief T2" in own_view(fake, users[2]).content

    done: list[str] = []
    used = {"board": 0, "slash": 0, "menu": 0}
    checked_wrong_turn = checked_autocomplete = checked_hide = False
    stashed: dict[str, str] = {}  # nest -> the user who hid money there
    while True:
        record = await bot.service.current(fake.channel_id)
        if record is None:
            break
        seat = min(bot.service.to_act(record))
        user = by_id[record.user_of(seat)]
        state = game.load(record.state or {})
        action = str(computer_action(game, state, seat))
        verb, _, rest = action.partition(" ")
        board = latest_board(fake)
        dm = own_view(fake, user)

        if verb == "move" and seat == 0 and not checked_autocomplete:
            # the police may move only its own pieces, to squares the roll reaches; thieves get nothing
            legal = bot.service.legal_texts(record, 0, limit=2000)
            pieces = await fake.interact(bot, fake.autocomplete(user, "tjuv move", focused="piece", piece="", to=""))
            assert {c["value"] for c in pieces.choices} == {a.split()[1] for a in legal}
            squares = await fake.interact(bot, fake.autocomplete(user, "tjuv move", focused="to", piece="C", to=""))
            assert squares.choices and {f"move C {c['value']}" for c in squares.choices} <= set(legal)
            other = await fake.interact(bot, fake.autocomplete(by_id[record.user_of(1)], "tjuv move",
                                                               focused="piece", piece="", to=""))
            assert other.choices == []
            checked_autocomplete = True
        if verb == "move" and seat == 1 and not checked_wrong_turn:
            # thief 2 tries to move while thief 1 is moving: refused, nothing changes
            before = record.version
            wrong = await fake.interact(bot, fake.slash(by_id[record.user_of(2)], "tjuv move", piece="T2", to="Y15"))
            assert wrong.ephemeral and "not your turn" in wrong.text.lower()
            stranger_try = await fake.interact(bot, fake.slash(stranger, "tjuv roll"))
            assert stranger_try.ephemeral and "not a player" in stranger_try.text
            assert (await bot.service.current(fake.channel_id)).version == before
            checked_wrong_turn = True

        menu = menu_for(dm, action)
        label = {"roll": "Roll", "end": "End turn", "breakout": "Try to break out", "wait": "Sit out a turn"}.get(verb)
        if label and board.buttons and any(b.get("label") == label for b in board.buttons) and len(done) % 2 == 0:
            r = await fake.interact(bot, fake.click(user, board, label=label))
            used["board"] += 1
        elif menu is not None:
            r = await fake.interact(bot, fake.select(user, dm, menu[0], [menu[1]]))
            used["menu"] += 1
        else:
            options: dict[str, Any] = {}
            if verb in ("move", "ride"):
                options = {"piece": rest.split()[0], "to": rest.split()[1]}
            elif verb == "hide":
                options = {"amount": int(rest)}
            elif verb in ("nest", "arrest"):
                options = {"square" if verb == "nest" else "piece": rest}
            elif verb == "car":
                options = {"tail": rest.split()[0], "front": rest.split()[1]}
            r = await fake.interact(bot, fake.slash(user, f"tjuv {verb}", options))
            used["slash"] += 1
        assert_moved(r)
        done.append(action)

        if verb == "hide":
            # the hidden sum and its nest: in the thief's own DM only, never in the channel or image
            record = await bot.service.current(fake.channel_id)
            nest = state.thief(seat).at
            stashed[nest] = user["id"]
            private = own_view(fake, user).content  # the private answer to the hiding move
            kroner = money(int(rest), "en")
            assert f"You hid {kroner} in the nest at {nest}" in private
            assert f"{nest}: {kroner}" in private
            shown = await fake.interact(bot, fake.click(user, latest_board(fake), label="Show my hand"))
            assert shown.ephemeral and f"{nest}: {kroner}" in shown.text and shown.files
            for other in users:
                if other is not user:
                    assert f"{nest}: {kroner}" not in own_view(fake, other).content
            posted = latest_board(fake)
            assert "hides money in a nest" in posted.content and rest not in posted.content.split("hides")[1]
            public = bot.service.observe(record, None)["public"]
            assert public["thieves"][seat - 1]["stashes"] == 1 and "stashes\": {" not in json.dumps(public)
            live = game.load(record.state or {})
            scrambled = game.scramble_hidden(live, None, live.rng)
            assert scrambled.thief(seat).stashes != live.thief(seat).stashes
            same = render_public(game.observe(scrambled, None), names=record.names, locale="en")
            assert posted.files[0].data == same  # the picture does not depend on the hidden sum
            checked_hide = True
        assert len(done) < 80

    assert checked_wrong_turn and checked_autocomplete and checked_hide
    assert min(used.values()) >= 2, used
    assert any(a.startswith("hide") for a in done) and any(a.startswith("breakout") for a in done)
    said = "\n".join(m.content for m in fake.channel_messages())
    assert done[0].startswith("nest ") and done[1].startswith("nest ") and done[2].startswith("car ")
    assert " robs the " in said and "goes to jail" in said
    assert "You hid" not in said and "A5: " not in said

    final = fake.channel_messages()[-1]
    assert final.content.startswith("🏆") and "round limit" in final.content
    assert "1. player" in final.content
    assert final.files[0].data.startswith(PNG) and [b.get("label") for b in final.buttons] == ["Rematch", "Replay"]
    # stash views (the private line naming each nest's hidden sum) only ever went to their owners:
    # by DM, or privately through the owner's own interaction (a turn's view riding their last move)
    owner_of = {fake.dm_channel(u)["id"]: u["id"] for u in users}
    private = [(owner_of.get(m.channel_id), m) for m in fake.messages.values() if m.kind == "dm"]
    private += [(u["id"], m) for u in users for m in fake.ephemerals_for(u)]
    stash_dms = [(recipient, line) for recipient, m in private
                 for line in m.content.splitlines() if line.startswith("Your hidden money:")]
    assert stash_dms
    for recipient, line in stash_dms:
        assert {nest for nest in stashed if f" {nest}: " in line} <= {n for n, u in stashed.items() if u == recipient}
        assert any(f" {nest}: " in line for nest in stashed), line
    assert_news_first(fake, users)  # every ping and DM leads with its reader's news
    assert_pictures_described(fake)  # every image with its alt text
    fake.assert_clean()


def test_the_police_move_menu_lists_every_piece_grouped_in_map_order() -> None:
    from bot.games.tjuv.board import board, square_xy
    from cogs.tjuv import private_selects, private_text
    from tests.games.tjuv.helpers import position

    state = position(7, police={"P1": "N2", "P2": "G7", "P3": "S16", "P4": "B16"}, roll=2)
    legal = [str(a) for a in game_actions(state)]
    obs = registry.get("tjuv").observe(state, 0)
    private_text(obs, "en")
    menu = next(s for s in private_selects(obs, legal) if s.prefix == "move")
    values = [value for _, value in menu.options]
    assert len(values) == 25 and len(legal) > 25
    pieces = [v.split()[0] for v in values]
    order = [p.id for p in state.police if p.id in pieces]
    assert set(order) == {a.split()[1] for a in legal}  # every piece that can move is offered
    assert pieces == sorted(pieces, key=order.index)  # grouped piece by piece
    for piece in order:
        squares = [v.split()[1] for v in values if v.startswith(piece + " ")]
        assert squares == sorted(squares, key=square_xy)
    b = board()
    telegraphs = {a.split()[2] for a in legal if a.split()[2] in b.telegraphs}
    assert telegraphs and telegraphs <= {v.split()[1] for v in values}  # watched squares before bare streets


def test_a_tram_menu_does_not_say_tram_stop_after_every_stop() -> None:
    from cogs.tjuv import private_selects, private_text
    from tests.games.tjuv.helpers import position

    state = position(thieves={1: {"at": "M16"}}, turn=1)
    state.tram["1"] = "T1"
    obs = registry.get("tjuv").observe(state, 1)
    private_text(obs, "en")
    menu = next(s for s in private_selects(obs, [str(a) for a in game_actions(state, 1)]) if s.prefix == "ride")
    labels = [label for label, _ in menu.options]
    assert "T1 → M21 (tram)" in labels and not any("tram stop" in label for label in labels)


def game_actions(state: Any, seat: int = 0) -> list[Any]:
    return registry.get("tjuv").legal_actions(state, seat)


async def test_a_tjuv_player_can_zoom_in_on_the_city(fake: FakeDiscord, make_bot: BotFactory) -> None:
    bot = await make_bot()
    police, thief = fake.add_members(2)
    await fake.interact(bot, fake.slash(police, "game new", game="tjuv"))
    await fake.interact(bot, fake.slash(thief, "game join"))
    await fake.interact(bot, fake.slash(police, "game start"))
    assert (await fake.interact(bot, fake.slash(thief, "tjuv nest", square="A5"))).ok  # setup: his nest
    record = await bot.service.current(fake.channel_id)
    public = bot.service.observe(record, None)["public"]
    own = await fake.interact(bot, fake.slash(thief, "tjuv zoom"))
    where = next(t["at"] for t in public["thieves"] if t["seat"] == record.seat_of(thief["id"]))
    assert own.ephemeral and where in own.text
    assert decoded(own.files[0].data).size == (1000, 1000)
    named = await fake.interact(bot, fake.slash(police, "tjuv zoom", square="k14"))
    assert named.ephemeral and "K14" in named.text and named.files
    bad = await fake.interact(bot, fake.slash(police, "tjuv zoom", square="Q99"))
    assert bad.ephemeral and "not a square" in bad.text
    fake.assert_clean()
