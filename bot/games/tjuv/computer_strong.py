"""The strong computer for Tjuv och Polis: the normal planner, with the escape played for.

Between normal computers the first thief to get out of town wins most games, and the police win
the games where nobody gets out. So the strong level plays both sides around the escape:

- The police keep two policemen as sentries where, whatever the die shows after a thief boards,
  one of them is likely to land on a telegraph: two squares by the telegraph with two doors (C8)
  cover four rolls of six between them (a walk is exact and never crosses itself, so a square
  there reaches the telegraph with two rolls). They do not stand on a telegraph while nobody
  escapes: a policeman on a telegraph only keeps a thief waiting (and must leave after two
  turns), one a roll away stops the escape and arrests the thief with all he carries. The radio
  car and the third policeman chase as the normal police do.
- A thief boards a train, boat or plane only when the police are unlikely to stop him: the share
  of die rolls with which a free policeman could end his walk on a telegraph at the police's next
  turn (every policeman's walks searched, not distances) must be at most a third; otherwise he
  keeps out of reach and tries again.

It decides from the public table and the thief's own stashes only (what ``observe`` shows), with
randomness from the stream it is given.
"""
from __future__ import annotations

import itertools
import random
from functools import cache

from bot.engine.rng import Rng

from . import computer_normal as normal
from .actions import Action, Arrest, ChooseNest, Move, PlaceCar, Ride, Roll
from .board import board
from .computer import FAR, distances
from .moves import landings_by_roll
from .state import CAR, ESCAPING, FREE, HOUSE, Police, TjuvState
from .view import role_of

SENTRIES = 2  # policemen kept where they can reach a telegraph on most rolls
COVER_WEIGHT = 4500.0  # police score per share of rolls the policemen cover (a telegraph within a roll)
SENTRY_STEP = 250.0  # police score per step the sentries still have to walk to their posts
BOARD_RISK = 0.34  # a thief boards only if the police stop him with at most this chance
ARREST = 10000.0  # normal's score of a move that arrests (plus the money): kept as it is
LATE_ROB = 2  # rounds before the limit until which a thief whom leaving cannot put first robs on


def choose(state: TjuvState, seat: int, legal: list[Action], rng: Rng) -> Action:
    if any(isinstance(a, Arrest | ChooseNest | PlaceCar) for a in legal):
        return normal.choose(state, seat, legal, rng)
    role = role_of(state, seat)
    rand = random.Random(rng.randint(0, 2**62))
    jitter = {a: rand.random() * 0.5 for a in legal}
    if role == 0:
        return _police(state, legal, jitter)
    return _thief(state, role, legal, jitter)


# ------------------------------------------------------------------------------ telegraph reach
@cache
def telegraph_rolls(square: str) -> frozenset[int]:
    """The die rolls with which a policeman on ``square`` can end his walk on a telegraph, on an
    otherwise empty map."""
    b = board()
    man = Police("P1", square)
    town = TjuvState(players=2, rng=Rng("telegraph"), max_rounds=0, police=[man], thieves=[])
    return frozenset(r for r, squares in landings_by_roll(town, man, 6).items() if squares & b.telegraphs)


@cache
def sentry_posts(sentries: int) -> tuple[tuple[str, ...], ...]:
    """Sets of ``sentries`` street squares, each reaching a telegraph with the most rolls (two),
    that together cover the most rolls."""
    b = board()
    most = max(len(telegraph_rolls(sq)) for sq, kind in b.kind.items() if kind == "street")
    squares = [sq for sq, kind in b.kind.items() if kind == "street" and len(telegraph_rolls(sq)) == most]

    def cover(posts: tuple[str, ...]) -> int:
        return len(set().union(*(telegraph_rolls(sq) for sq in posts)))
    best = max(cover(posts) for posts in itertools.combinations(squares, sentries))
    return tuple(posts for posts in itertools.combinations(squares, sentries) if cover(posts) == best)


def stop_chance(state: TjuvState) -> float:
    """The share of die rolls with which a free policeman can end his walk on a telegraph at the
    police's next turn, walking around the pieces as they stand (the radio car stops nobody); 1
    when one stands on a telegraph already (an escape then fails at once)."""
    b = board()
    rolls: set[int] = set()
    for piece in state.police:
        if piece.id == CAR or piece.status != FREE or piece.at is None:
            continue
        if piece.at in b.telegraphs:
            return 1.0
        for roll, squares in landings_by_roll(state, piece, 6).items():
            if squares & b.telegraphs:
                rolls.add(roll)
    return len(rolls) / 6


# ------------------------------------------------------------------------------------ police
def guard_value(squares: list[str]) -> float:
    """How well policemen on ``squares`` watch the telegraphs: the share of rolls with which one
    of them reaches a telegraph, less the steps the best placed two still have to walk to a pair
    of sentry posts."""
    covered = set().union(*(telegraph_rolls(sq) for sq in squares)) if squares else set()
    value = COVER_WEIGHT * len(covered) / 6
    sentries = min(SENTRIES, len(squares))
    if sentries:
        here = [sq if sq != HOUSE else board().gate for sq in squares]
        steps = min(sum(distances(post).get(at, FAR) for at, post in zip(men, posts, strict=True))
                    for posts in sentry_posts(sentries) for men in itertools.permutations(here, sentries))
        value -= SENTRY_STEP * steps
    return value


def _police(state: TjuvState, legal: list[Action], jitter: dict[Action, float]) -> Action:
    b = board()
    action, scores = normal._police(state, legal, jitter)
    if not scores:
        return action
    escaping = any(t.status == ESCAPING for t in state.thieves)
    men = {p.id: p.at for p in state.police if p.id != CAR and p.status == FREE and p.at is not None}
    before = guard_value(list(men.values()))

    def score(move: Move | Ride) -> float:
        value = scores[move]
        if escaping or value >= ARREST or move.piece == CAR:  # stop the escape, arrest, chase: as normal
            return value
        if move.to in b.telegraphs:
            value -= 3000.0  # no standing on a telegraph (normal's guard): one a roll away catches him
        after = [move.to if pid == move.piece else at for pid, at in men.items()]
        return value + guard_value(after) - before
    moving = [a for a in legal if isinstance(a, Move | Ride)]
    rides = [a for a in moving if isinstance(a, Ride)]
    if rides and isinstance(action, Ride):
        return max(rides, key=score)
    if any(isinstance(a, Roll) for a in legal):
        return Roll()
    return max(moving, key=score) if moving else action


# ------------------------------------------------------------------------------------ thieves
def leaving(state: TjuvState, role: int) -> bool:
    """Normal's rule for leaving town (rich enough, or the round limit near), except that a thief
    not yet rich enough who would leave no richer than the police or the other thief carry robs on
    while ``LATE_ROB`` rounds remain: leaving then cannot win (docs/bench/tjuv.md, session 7)."""
    thief = state.thief(role)
    wealth = thief.money + sum(thief.stashes.values())
    enough = wealth >= normal._enough(state, role)
    if enough or not normal._time_short(state):
        return enough
    return not (state.round <= state.max_rounds - LATE_ROB and wealth <= normal.best_rival(state, role))


def _thief(state: TjuvState, role: int, legal: list[Action], jitter: dict[Action, float]) -> Action:
    b = board()
    action, scores = normal._thief(state, role, legal, jitter, leave=leaving(state, role))
    if not scores or not isinstance(action, Move | Ride) or b.kind.get(action.to) != "escape":
        return action
    if stop_chance(state) <= BOARD_RISK:
        return action
    # the police would likely stop him: wait for a better moment, out of their reach
    others = [a for a in scores if b.kind.get(a.to) != "escape"]
    if not others:
        return action
    best = max(others, key=scores.__getitem__)
    return best if scores[best] > -FAR else action
