"""Games begun in rules format 1 (before the setup choices, the two-square radio car and the
police's choice of arrester) replay from their seed and play on by their own rules.

data/format1_game.json was played with the engine of commit 6162584^ (see its "about")."""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from bot.engine.registry import computer_action
from bot.engine.rng import Rng
from bot.errors import GameMasterError, IllegalAction
from bot.games.tjuv.engine import FORMAT_OPTION, TjuvGame
from bot.games.tjuv.state import CAR, Police
from bot.services.movelog import replay

GAME = TjuvGame()
OLD = json.loads((Path(__file__).parent / "data" / "format1_game.json").read_text())
# what migration 0013 adds to the stored options of such a game
OPTIONS = {**OLD["options"], FORMAT_OPTION: 1}


def canonical(data: Any) -> str:
    return json.dumps(data, sort_keys=True)


def moves(count: int | None = None) -> list[tuple[int, str]]:
    return [(seat, action) for seat, action in OLD["moves"][:count]]


def test_a_format1_move_log_replays_to_the_snapshots_it_stored() -> None:
    midway = OLD["midway"]
    assert canonical(GAME.dump(replay(GAME, OLD["players"], OPTIONS, OLD["seed"], moves(midway["ply"])))) == \
        canonical(midway["state"])
    assert canonical(GAME.dump(replay(GAME, OLD["players"], OPTIONS, OLD["seed"], moves()))) == canonical(OLD["state"])


def test_new_games_begin_in_format2_so_an_old_log_needs_its_format() -> None:
    state = GAME.new(OLD["players"], OLD["options"], OLD["seed"])
    assert state.format == 2 and state.phase == "nests" and GAME.dump(state)["pending"] == []
    with pytest.raises(GameMasterError):
        replay(GAME, OLD["players"], OLD["options"], OLD["seed"], moves())


def test_a_format1_snapshot_loads_in_format1_and_round_trips_unchanged() -> None:
    for snapshot in (OLD["midway"]["state"], OLD["state"]):
        state = GAME.load(snapshot)
        assert state.format == 1
        assert canonical(GAME.dump(state)) == canonical(snapshot)


def test_a_format1_game_plays_on_to_its_end_and_still_replays() -> None:
    state = GAME.load(OLD["midway"]["state"])
    played = moves(OLD["midway"]["ply"])
    chooser = Rng("play on")
    while GAME.outcome(state) is None:
        assert len(played) < 3000
        (seat,) = GAME.to_act(state)
        legal = GAME.legal_actions(state, seat)
        assert legal and all(str(a).split()[0] not in ("nest", "car", "arrest") for a in legal)
        action = chooser.choice(legal) if chooser.die() <= 2 else computer_action(GAME, state, seat)
        state = GAME.copy(state)  # as the service applies it: from the stored snapshot
        GAME.apply(state, seat, action)
        played.append((seat, str(action)))
    car = state.piece(CAR)
    assert isinstance(car, Police) and car.tail == "" and "pending" not in GAME.dump(state)
    assert canonical(GAME.dump(replay(GAME, OLD["players"], OPTIONS, OLD["seed"], played))) == \
        canonical(GAME.dump(state))


def test_format1_rules_differ_where_format2_changed_them() -> None:
    """The log leans on format-1 rules: some moves in it end differently under format 2's rules
    (a nest as no refuge, the police naming the arresting piece), so replaying by the right
    format is what makes it match."""
    state = GAME.new(OLD["players"], OPTIONS, OLD["seed"])
    differ = 0
    for seat, action in moves():
        other = GAME.copy(state)
        other.format = 2
        GAME.apply(state, seat, GAME.parse_action(action))
        try:
            GAME.apply(other, seat, GAME.parse_action(action))
        except GameMasterError:
            differ += 1
            continue
        other.format = 1
        differ += canonical(GAME.dump(other)) != canonical(GAME.dump(state))
    assert differ > 0


def test_setup_choices_after_the_start_are_refused_and_change_nothing() -> None:
    state = GAME.load(OLD["midway"]["state"])
    (seat,) = GAME.to_act(state)
    before = canonical(GAME.dump(state))
    for text in ("nest A5", "car Q11 P11"):
        with pytest.raises(IllegalAction) as refused:
            GAME.apply(state, seat, GAME.parse_action(text))
        assert refused.value.key == "tjuv.error.setup_over"
    assert canonical(GAME.dump(state)) == before
