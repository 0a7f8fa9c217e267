"""The computer player for both sides of Tjuv och Polis.

Police: arrest when a wanted thief can be landed on, race to a telegraph while a thief escapes,
otherwise bring the piece closest to a wanted thief (or any thief) closer. Thieves: rob the best
bank or post office within reach, carry loot to the nearest nest and hide it, and once the
takings are large enough fetch them and head for the nearest way out of town.
"""
from __future__ import annotations

from collections import deque
from functools import cache

from bot.engine.rng import Rng

from .actions import Action, Arrest, Breakout, ChooseNest, EndTurn, Fetch, Hide, Move, PlaceCar, Ride, Roll, Wait
from .board import board
from .state import ESCAPING, FREE, HOUSE, TjuvState
from .view import role_of

RICH = 12000  # a thief with this much (carried plus hidden) tries to leave town
FAR = 99


@cache
def distances(start: str) -> dict[str, int]:
    """Steps from ``start`` to every square over the map graph, ignoring pieces."""
    b = board()
    seen = {start: 0}
    queue = deque([start])
    while queue:
        square = queue.popleft()
        for nxt in b.neighbours[square]:
            if nxt not in seen:
                seen[nxt] = seen[square] + 1
                queue.append(nxt)
    return seen


def distance(square: str, goals: list[str]) -> int:
    if square == HOUSE:
        square = board().gate
    if not goals:
        return FAR
    return min([distances(goal).get(square, FAR) for goal in goals])  # (a list: quicker than a generator)


def choose(state: TjuvState, seat: int, legal: list[Action], rng: Rng) -> Action:
    """The computer's action for ``seat`` (its role decides: the police or a thief)."""
    return _choose(state, role_of(state, seat), legal)


def _choose(state: TjuvState, seat: int, legal: list[Action]) -> Action:
    arrests = [a for a in legal if isinstance(a, Arrest)]
    if arrests:  # the radio car arrests when it can: it needs no guard duty and is never removed
        return next((a for a in arrests if a.piece == "C"), arrests[0])
    nests = [a for a in legal if isinstance(a, ChooseNest)]
    if nests:  # the nest with the most banks and post offices close by, away from other thieves
        taken = {t.at for t in state.thieves if t.at}
        return min(nests, key=lambda a: (a.square in taken, sum(sorted(distances(a.square).get(sq, FAR)
                                                                        for sq in board().values)[:3])))
    cars = [a for a in legal if isinstance(a, PlaceCar)]
    if cars:
        return cars[0]
    if seat == 0:
        return _police(state, legal)
    return _thief(state, seat, legal)


def _police(state: TjuvState, legal: list[Action]) -> Action:
    b = board()
    wanted = [t.at for t in state.thieves if t.status == FREE and t.wanted and t.at not in (None, HOUSE)]
    others = [t.at for t in state.thieves if t.status == FREE and t.at not in (None, HOUSE)]
    escaping = any(t.status == ESCAPING for t in state.thieves)
    targets = [sq for sq in wanted if sq is not None] or [sq for sq in others if sq is not None]

    def score(action: Action) -> float:
        if not isinstance(action, Move | Ride):
            return -FAR
        if action.to in wanted:
            return 1000
        if escaping and action.piece != "C" and action.to in b.telegraphs:
            return 500
        return -distance(action.to, targets) if targets else -distance(action.to, list(b.values))
    moving = [a for a in legal if isinstance(a, Move | Ride)]
    rides = [a for a in moving if isinstance(a, Ride)]
    if rides and max(score(a) for a in rides) >= 500:
        return max(rides, key=score)
    if any(isinstance(a, Roll) for a in legal):
        return Roll()
    return max(moving, key=score) if moving else legal[0]


def _thief(state: TjuvState, seat: int, legal: list[Action]) -> Action:
    b = board()
    thief = state.thief(seat)
    wealth = thief.money + sum(thief.stashes.values())
    if any(isinstance(a, Breakout) for a in legal):
        return Breakout() if thief.sentence >= 3 else Wait()
    fetch = next((a for a in legal if isinstance(a, Fetch)), None)
    if fetch is not None and wealth >= RICH:
        return fetch
    hides = [a for a in legal if isinstance(a, Hide)]
    if hides and wealth < RICH:
        return max(hides, key=lambda a: a.amount)
    if any(isinstance(a, EndTurn) for a in legal):
        return EndTurn()
    if thief.money >= RICH:
        goals = [sq for sq, e in b.escapes.items() if thief.money >= e.fare]
    elif wealth >= RICH:
        goals = [n for n in thief.stashes]
    elif thief.money > 0:
        goals = list(b.nests)
    else:
        goals = list(b.values)

    def score(action: Action) -> float:
        if not isinstance(action, Move | Ride):
            return -FAR
        kind = b.kind[action.to]
        if kind == "escape":
            return 2000 if thief.money >= RICH else -FAR
        if kind in ("bank", "post") and thief.money < RICH:
            return b.values[action.to] / 10
        if kind == "agency" and state.agency and thief.money < RICH:
            return state.agency / 10
        if kind == "nest" and thief.money and wealth < RICH:
            return 900
        if kind == "nest" and action.to in thief.stashes and wealth >= RICH:
            return 950
        return -distance(action.to, goals)
    moving = [a for a in legal if isinstance(a, Move | Ride)]
    rides = [a for a in moving if isinstance(a, Ride)]
    if rides and thief.at is not None and max(score(a) for a in rides) > -distance(thief.at, goals) + 6:
        return max(rides, key=score)
    if any(isinstance(a, Roll) for a in legal):
        return Roll()
    return max(moving, key=score) if moving else legal[0]
