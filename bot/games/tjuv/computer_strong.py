"""The strong computer for Tjuv och Polis: the normal planner, checked by short rollouts.

Whenever the planner weighs moves, its best few are each played out a few turns ahead: every
seat then plays as the normal planner, with dice from a stream of our own (never the game's, whose
future rolls nobody may know) and the other thieves' stashes re-dealt at random (only their number
is public). A rollout ends in the money each player could claim — carried money, less for a
wanted thief in reach of the police, hidden money at a discount, nothing for a thief in jail —
or in the outcome if the game ended. The candidate with the best average wins; the planner's own
order breaks ties. Counts are fixed (no clock), so a replay repeats every decision.
"""
from __future__ import annotations

import random

from bot.engine.rng import Rng

from .actions import Action, Move, Ride
from .board import board
from .computer_normal import Scores, plan
from .engine import TjuvGame
from .state import ESCAPED, FREE, JAIL, TjuvState
from .view import role_of, seat_of

CANDIDATES = 3  # the planner's best moves, played out
ROLLOUTS = 3  # playouts per candidate (the same dice and stashes for every candidate)
PLIES = 10  # actions per playout
TRUST = 1.0  # the planner's head start, in thousands of kronor
GAME = TjuvGame()


def _world(state: TjuvState, role: int, rand: random.Random) -> TjuvState:
    """A copy with our own dice and the other thieves' stashes guessed anew."""
    world = GAME.load(GAME.dump(state))
    world.rng = Rng(f"rollout/{rand.getrandbits(64)}")
    nests = list(board().nests)
    for thief in world.thieves:
        if thief.seat != role and thief.stashes:
            rand.shuffle(nests)
            thief.stashes = {nest: 1000 * rand.randint(1, 8) for nest in nests[:len(thief.stashes)]}
    return world


def _claim(state: TjuvState, role: int) -> float:
    """What a role could call its own now, in thousands."""
    if role == 0:
        return state.police_money / 1000
    thief = state.thief(role)
    hidden = sum(thief.stashes.values())
    if thief.status == ESCAPED:
        return thief.money / 1000
    if thief.status == JAIL:
        return 0.3 * hidden / 1000
    if thief.status != FREE:
        return 0.0
    carried = thief.money * (0.7 if thief.wanted else 1.0)
    return (carried + 0.6 * hidden) / 1000


def _value(state: TjuvState, role: int) -> float:
    outcome = GAME.outcome(state)
    seat = seat_of(state, role)
    if outcome is not None:
        first = outcome.places[0] if outcome.places else ()
        return 20.0 if first == (seat,) else (8.0 if seat in first else -5.0)
    mine = _claim(state, role)
    rivals = [_claim(state, r) for r in range(state.players) if r != role]
    # a thief's move seldom changes what the others take (their dice do): count them less
    return mine - (0.5 if role == 0 else 0.25) * max(rivals, default=0.0)


def _rollout(world: TjuvState, seat: int, action: Action, rand: random.Random) -> float:
    role = role_of(world, seat)
    GAME.apply(world, seat, action)
    for _ in range(PLIES):
        if GAME.outcome(world) is not None:
            break
        actor = next(iter(GAME.to_act(world)))
        legal = GAME.legal_actions(world, actor)
        choice, _ = plan(world, role_of(world, actor), legal, Rng(f"p/{rand.getrandbits(32)}"))
        GAME.apply(world, actor, choice)
    return _value(world, role)


def choose(state: TjuvState, seat: int, legal: list[Action], rng: Rng) -> Action:
    role = role_of(state, seat)
    action, scores = plan(state, role, legal, rng)
    if len(scores) < 2 or not isinstance(action, Move | Ride):
        return action
    ranked: list[Move | Ride] = sorted(scores, key=lambda a: -scores[a])[:CANDIDATES]
    return _check(state, seat, ranked, scores, random.Random(rng.randint(0, 2**62) ^ 0x7A7))


def _check(state: TjuvState, seat: int, ranked: list[Move | Ride], scores: Scores,
           rand: random.Random) -> Action:
    totals = dict.fromkeys(ranked, 0.0)
    role = role_of(state, seat)
    for _ in range(ROLLOUTS):
        world = _world(state, role, rand)
        seed = rand.getrandbits(64)
        for candidate in ranked:
            copy = GAME.load(GAME.dump(world))
            copy.rng = Rng(f"rollout/{seed}")
            totals[candidate] += _rollout(copy, seat, candidate, random.Random(seed))
    # the planner's choice keeps a head start: a rollout must show it clearly worse
    totals[ranked[0]] += TRUST * ROLLOUTS
    order = {a: i for i, a in enumerate(ranked)}
    return max(ranked, key=lambda a: (totals[a] / ROLLOUTS, -order[a]))
