"""Computer players of every game and level decide from what their seat may know, and alike at
every replay (DESIGN §2, §8.1).

- Re-dealing everything the deciding seat cannot see (``Game.scramble_hidden``) never changes its
  decision: no level reads another seat's hand, the stock or hidden ranks. Every game × every
  level (easy, normal, strong), from the opening and from a position deep in the game (the first
  plies played by easy computers: captures made, ranks shown, cards gone, what the strong levels'
  inference reads from the public log).
- Replaying the move log from the seed and asking each computer again at each of its plies, with
  the stream seeded from the game and that ply, gives the move the log holds.
"""
from __future__ import annotations

from typing import Any

import pytest

from bot.engine import registry
from bot.engine.rng import Rng

registry.load_all()
GAMES = registry.names()
CASES = [(name, level) for name in GAMES for level in registry.LEVELS]
# plies the easy computers play for every seat before the checked level decides (Stratego's games are longer)
PHASES = ("opening", "late")
LATE, LATE_OF = 40, {"stratego": 100}
# how far a game is followed, and how often a decision is checked (strong levels search: fewer)
PLIES = {"easy": 400, "normal": 400, "strong": 48}
EVERY = {"easy": 3, "normal": 3, "strong": 3}  # of the checked seat's decisions


def seats_for(name: str) -> int:
    game = registry.get(name)
    return max(game.min_players, min(game.max_players, 4 if name != "tjuv" else 3))


def acting_seat(game: Any, state: Any) -> int:
    return sorted(game.watchers(state) | game.to_act(state))[0]


def legal_of(game: Any, state: Any, seat: int) -> list[Any]:
    return list(game.legal_actions(state, seat))


def computer_game(name: str, level: str, seed: str, skip: int = 0):  # type: ignore[no-untyped-def]
    """A game of computers: ``level`` in seat 0 and easy computers elsewhere (the checked level
    meets positions it would not reach against itself); the first ``skip`` plies easy computers
    play every seat. Yields (state, ply, seat, legal) before each of the checked level's
    decisions; the caller's answer is applied."""
    game = registry.get(name)
    state = game.new(seats_for(name), game.resolve_options(game.playout_options), seed)
    for ply in range(skip + PLIES[level]):
        if game.outcome(state) is not None:
            return
        seat = acting_seat(game, state)
        legal = legal_of(game, state, seat)
        if not legal:
            seat = sorted(game.to_act(state))[0]
            legal = legal_of(game, state, seat)
        rng = registry.computer_rng(seed, ply, seat)
        if seat == 0 and ply >= skip:
            action = yield state, ply, seat, legal
        else:
            action = registry.computer(name, "easy")(state, seat, legal, rng)
        game.apply(state, seat, action)


@pytest.mark.parametrize("phase", PHASES)
@pytest.mark.parametrize(("name", "level"), CASES)
def test_a_decision_is_unchanged_when_the_hidden_parts_are_redealt(name: str, level: str, phase: str) -> None:
    game = registry.get(name)
    choose = registry.computer(name, level)
    seed = f"redeal/{level}/{phase}"
    playing = computer_game(name, level, seed, LATE_OF.get(name, LATE) if phase == "late" else 0)
    checked = decisions = 0
    try:
        state, ply, seat, legal = next(playing)
        while True:
            action = choose(state, seat, legal, registry.computer_rng(seed, ply, seat))
            decisions += 1
            if decisions % EVERY[level] == 1:
                for n in range(2):
                    world = game.scramble_hidden(state, seat, Rng(f"world/{ply}/{n}"))
                    if world is None:
                        break
                    again = choose(world, seat, legal_of(game, world, seat), registry.computer_rng(seed, ply, seat))
                    assert again == action, f"{name}/{level} ply {ply}: {action} became {again} after a re-deal"
                    checked += 1
            state, ply, seat, legal = playing.send(action)
    except StopIteration:
        pass
    # every game here hides something (hands, the stock, ranks): a case that checked nothing proves nothing
    hides = game.scramble_hidden(game.new(seats_for(name), game.resolve_options({}), "s"), 0, Rng("s")) is not None
    assert checked >= 6 or not hides, f"{name}/{level}/{phase}: only {checked} re-deals checked"


@pytest.mark.parametrize(("name", "level"), CASES)
def test_computer_decisions_replay_identically_from_the_log(name: str, level: str) -> None:
    game = registry.get(name)
    choose = registry.computer(name, level)
    seed = f"replay/{level}"
    log: list[tuple[int, int, str]] = []
    playing = computer_game(name, level, seed)
    try:
        state, ply, seat, legal = next(playing)
        while True:
            action = choose(state, seat, legal, registry.computer_rng(seed, ply, seat))
            log.append((ply, seat, str(action)))
            state, ply, seat, legal = playing.send(action)
    except StopIteration:
        pass
    assert log
    replaying = computer_game(name, level, seed)
    state, ply, seat, legal = next(replaying)
    for logged_ply, logged_seat, text in log:
        assert (ply, seat) == (logged_ply, logged_seat)
        action = choose(state, seat, legal, registry.computer_rng(seed, ply, seat))
        assert str(action) == text, f"{name}/{level} ply {ply}: the replay chose {action}, the log {text}"
        try:
            state, ply, seat, legal = replaying.send(game.parse_action(text))
        except StopIteration:
            break
