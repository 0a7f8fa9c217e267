"""Undo by consent in the service, for every game: against computer seats (which always agree)
the move is taken back at once, unless it revealed chance or hidden information; the log keeps
the undone moves behind an ``!undo`` marker and still replays to the stored state."""
from __future__ import annotations

import pytest

from bot.engine import registry
from bot.engine.reveal import CHANCE, revealed
from bot.errors import IllegalAction
from bot.services.movelog import in_force, replay, undone_plies
from bot.services.table import GameService
from bot.services.undo import Undo

GAMES = ["tolp", "zlodej", "stratego", "monopol", "tjuv"]


def test_markers_take_back_the_moves_before_them() -> None:
    moves = [(0, "a"), (1, "b"), (0, "c"), (0, "!undo 2"), (0, "d")]
    assert in_force(moves) == [(0, "a"), (0, "d")]
    rows = [(n + 1, s, a, "") for n, (s, a) in enumerate(moves)]
    assert undone_plies(rows) == {2, 3, 4}


def test_a_die_roll_is_chance() -> None:
    game = registry.get("monopol")
    state = game.new(2, game.resolve_options({}), "seed")
    seat = min(game.to_act(state))
    assert "roll" in [str(a) for a in game.legal_actions(state, seat)]
    assert revealed(game, state, seat, "roll", 2) == CHANCE


@pytest.mark.parametrize("name", GAMES)
async def test_undo_against_computers_in_every_game(service: GameService, name: str) -> None:
    game = registry.get(name)
    await service.create(guild_id="g", channel_id="c", game=name, user_id="u0", name="Ann",
                         computers=game.min_players - 1 if game.min_players > 1 else 1)
    update = await service.start("c", "u0")
    record = update.record
    refusals: list[str] = []
    taken_back = False
    for _ in range(200):  # the human's moves until one can be taken back (or refused for a reason)
        if record.status != "active" or 0 not in service.to_act(record):
            break
        before = record.state
        action = service.legal_texts(record, 0)[0]
        record = (await service.act(user_id="u0", action=action, game_id=record.id)).record
        if record.status != "active":
            break
        try:
            request = await Undo(service).ask(user_id="u0", game_id=record.id)
        except IllegalAction as refusal:
            assert refusal.key in ("undo.error.chance", "undo.error.hidden"), refusal.key
            refusals.append(refusal.key)
            continue
        assert request.update is not None and request.needed == 0
        record = request.update.record
        assert record.state == before and 0 in service.to_act(record)
        taken_back = True
        break
    assert taken_back, f"{name}: no move was taken back (refused: {refusals})"
    moves = await service.moves(record.id)
    state = replay(game, len(record.seats), record.options, record.seed, [(s, a) for _, s, a, _ in moves])
    assert game.dump(state) == record.state
