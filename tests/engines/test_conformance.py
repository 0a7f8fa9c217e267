"""One conformance suite for every registered game (DESIGN §8.1, OpenSpiel's random_sim_test).

Seeded random playouts to the end for every player count; at every step every seat in ``to_act``
has a legal action, actions round-trip through their canonical text, replaying the move log from
the seed reproduces the state, dump/load round-trips, illegal actions leave the state
byte-identical, and scrambling what a viewer cannot see does not change that viewer's observation.
"""
from __future__ import annotations

import json
import random
from typing import Any

import pytest

from bot.engine import registry
from bot.engine.registry import computer_action
from bot.engine.rng import Rng
from bot.errors import GameMasterError, NotYourTurn

registry.load_all()
GAMES = registry.names()

CASES = [(name, players) for name in GAMES
         for players in range(registry.get(name).min_players, registry.get(name).max_players + 1)]


def snapshot(game: Any, state: Any) -> str:
    return json.dumps(game.dump(state), sort_keys=True)


def playout(name: str, players: int, seed: str, check_every: int = 1):
    game = registry.get(name)
    options = game.resolve_options(game.playout_options)
    state = game.new(players, options, seed)
    chooser = random.Random(f"{name}/{players}/{seed}")  # a local instance, never the global one
    log: list[tuple[int, str]] = []
    for step in range(game.max_playout_actions):
        if game.outcome(state) is not None:
            break
        seats = sorted(game.to_act(state))
        assert seats, f"{name}: no seat to act but no outcome"
        seat = chooser.choice(seats)
        actions = list(game.legal_actions(state, seat))
        assert actions, f"{name}: seat {seat} must act but has no legal action"
        action = chooser.choice(actions)
        text = str(action)
        assert game.parse_action(text) == action, f"{name}: {text!r} does not round-trip"
        assert len(text) <= 60
        game.apply(state, seat, action)
        log.append((seat, text))
        if step % check_every == 0:
            yield game, state, log
    yield game, state, log


@pytest.mark.parametrize(("name", "players"), CASES)
def test_random_playout_finishes_and_replays(name: str, players: int) -> None:
    *_, (game, state, log) = playout(name, players, f"seed-{players}", check_every=10**9)
    assert game.outcome(state) is not None, f"{name} with {players} players did not finish"
    options = game.resolve_options(game.playout_options)
    replay = game.new(players, options, f"seed-{players}")
    for seat, text in log:
        game.apply(replay, seat, game.parse_action(text))
    assert snapshot(game, replay) == snapshot(game, state)
    assert game.to_act(state) == frozenset()


@pytest.mark.parametrize("name", GAMES)
def test_dump_load_round_trip_and_json(name: str) -> None:
    game = registry.get(name)
    for _, state, _ in playout(name, game.min_players, "roundtrip", check_every=7):
        data = game.dump(state)
        text = json.dumps(data, sort_keys=True)
        assert json.dumps(game.dump(game.load(json.loads(text))), sort_keys=True) == text
        for seat in [None, *range(state.players)]:
            json.dumps(game.observe(state, seat))


@pytest.mark.parametrize("name", GAMES)
def test_illegal_actions_change_nothing(name: str) -> None:
    game = registry.get(name)
    seen: list[str] = []
    refused = 0
    for _, state, log in playout(name, game.max_players, "illegal", check_every=5):
        if game.outcome(state) is not None:
            break
        seen.extend(text for _, text in log[-3:])
        before = snapshot(game, state)
        for seat in range(state.players):
            for text in seen[-6:] + ["", "nonsense", "x" * 70]:
                try:
                    action = game.parse_action(text)
                except GameMasterError:
                    continue  # unreadable: there is nothing to apply
                probe = game.copy(state)
                try:
                    game.apply(probe, seat, action)
                except GameMasterError as exc:
                    refused += 1
                    assert snapshot(game, probe) == before, f"{name}: {exc!r} changed the state"
        assert snapshot(game, state) == before
    assert refused > 0, f"{name}: no action was refused, so nothing was checked"


@pytest.mark.parametrize("name", GAMES)
def test_a_seat_not_to_act_cannot_act(name: str) -> None:
    """Another seat's move is refused for a seat outside ``to_act`` (and changes nothing), while
    the actions legal out of turn (Monopol trades, rent claims) are accepted."""
    game = registry.get(name)
    refused = 0
    for _, state, _ in playout(name, game.min_players, "turns", check_every=9):
        if game.outcome(state) is not None:
            break
        acting = game.to_act(state)
        theirs = [action for seat in sorted(acting) for action in list(game.legal_actions(state, seat))[:3]]
        before = snapshot(game, state)
        for seat in set(range(state.players)) - acting:
            own = game.legal_actions(state, seat)
            for action in list(own)[:3]:
                copy = game.copy(state)
                try:
                    game.apply(copy, seat, action)
                except NotYourTurn:
                    pytest.fail(f"{name}: legal_actions offered {action} to seat {seat} out of turn")
            for action in theirs:
                if action in own:
                    continue
                probe = game.copy(state)
                with pytest.raises(GameMasterError):
                    game.apply(probe, seat, action)
                assert snapshot(game, probe) == before, f"{name}: seat {seat} playing {action} changed the state"
                refused += 1
    assert refused > 0, f"{name}: no seat was ever out of turn"


@pytest.mark.parametrize("name", GAMES)
def test_observations_leak_nothing_hidden(name: str) -> None:
    game = registry.get(name)
    rng = Rng("scramble")
    checked = 0
    for _, state, _ in playout(name, max(game.min_players, min(game.max_players, 4)), "leak",
                               check_every=3):
        public = game.observe(state, None)
        assert public["private"] is None
        for viewer in [None, *range(state.players)]:
            obs = game.observe(state, viewer)
            assert obs["public"] == public["public"], f"{name}: public part differs for {viewer}"
            scrambled = game.scramble_hidden(state, viewer, rng)
            if scrambled is None:
                continue
            checked += 1
            assert game.observe(scrambled, viewer) == obs, f"{name}: seat {viewer} sees hidden info"
    assert checked or game.scramble_hidden(game.new(game.min_players, game.resolve_options({}), "s"),
                                           None, rng) is None


@pytest.mark.parametrize("name", GAMES)
def test_computer_players_finish_a_seeded_game_without_an_illegal_move(name: str) -> None:
    game = registry.get(name)
    players = min(game.max_players, max(game.min_players, 3))
    state = game.new(players, game.resolve_options(game.playout_options), "computers")
    for _ in range(game.max_playout_actions):
        if game.outcome(state) is not None:
            break
        seat = min(game.to_act(state))
        action = computer_action(game, state, seat)
        assert game.parse_action(str(action)) == action
        game.apply(state, seat, action)  # raises on an illegal move
    assert game.outcome(state) is not None, f"{name}: computer players did not finish"
