"""Where a piece may go: walks of an exact length (a roll) and tram rides.

A walk is a simple path (never the same square twice) over the map graph, enumerated exactly by
depth-first search. That stays cheap because streets are one square wide: paths only branch at
crossings, so even the radio car's 12 steps give a few hundred paths. Who may pass whom:
thieves pass thieves; police pieces pass police pieces; police pieces pass a thief except on a
tram stop; a thief passes police pieces only while not wanted. Pieces inside the police house
never block. Nests and the airport end a thief's walk early (no exact roll needed); banks, post
offices, the travel agency, telegraphs and the railway and harbour squares need the exact roll.
The radio car keeps to the streets and covers two of them: its front leads, its tail follows
on the square the front left last, so it drives forward only (never into its own tail, never over a
square twice) and both squares it ends on must be free.
"""
from __future__ import annotations

from collections.abc import Callable
from functools import cache

from .board import DEAD_ENDS, OPPOSITE, board
from .state import CAR, FREE, HOUSE, Police, Thief, TjuvState

Piece = Police | Thief


def can_land(state: TjuvState, piece: Piece, square: str,
             occupants: dict[str, list[Piece]]) -> bool:
    """Whether ``piece`` may end a walk or ride on ``square`` (a wanted thief there is arrested)."""
    b = board()
    there = occupants.get(square)
    others = [o for o in there if o is not piece] if there else []
    if isinstance(piece, Thief):
        kind = b.kind[square]
        if kind == "nest":
            return True
        if kind == "escape" and piece.money < b.escapes[square].fare:
            return False
        return not others
    return all(isinstance(o, Thief) and o.wanted and o.status == FREE for o in others)


def _enters(car: bool, thief: bool, before: str, square: str) -> bool:
    kind = board().kind[square]
    if car:
        return kind == "street"
    if kind == "house":  # the house is left, never entered from the street
        return before == HOUSE or board().kind[before] == "house"
    if kind in ("nest", "escape"):
        return thief
    return True


@cache
def _entries(car: bool, thief: bool) -> dict[str, tuple[str, ...]]:
    """Square -> its neighbours (in the board's order) that a piece of this kind (the radio car,
    a thief, or else a policeman) may step onto from it, worked out once."""
    b = board()
    return {sq: tuple(n for n in near if _enters(car, thief, sq, n)) for sq, near in b.neighbours.items()}


def _can_pass(piece: Piece, square: str, occupants: dict[str, list[Piece]]) -> bool:
    b = board()
    if b.kind[square] == "house":
        return True
    for other in occupants.get(square, []):
        if isinstance(piece, Thief):
            if isinstance(other, Police) and piece.wanted:
                return False
        elif isinstance(other, Thief) and square in b.stop_lines:
            return False
    return True


def walks(state: TjuvState, piece: Piece, steps: int) -> dict[str, list[str]]:
    """Every square ``piece`` can reach with a walk of ``steps`` -> one such path (without the start).

    A piece inside the police house off the grid (a thief let out of jail, a guard set free) stands
    on whichever free house square suits it: its walk starts there at no cost, and that square
    leads its path. No walk ends inside the house: a piece there moves out of it."""
    b = board()
    start = piece.at
    if start is None:
        return {}
    occupants = state.occupants()
    found: dict[str, list[str]] = {}
    path: list[str] = []
    visited = {start}

    def visit(square: str) -> None:
        depth = len(path)
        kind = b.kind[square]
        if kind in DEAD_ENDS:
            early = kind == "nest" or (kind == "escape" and not b.escapes[square].exact)
            if (depth == steps or early) and square not in found and can_land(state, piece, square, occupants):
                found[square] = [*lead, *path]
            return
        if depth == steps:
            if kind != "house" and square not in found and can_land(state, piece, square, occupants) and \
                    (not car or can_land(state, piece, car_tail(start, path), occupants)):
                found[square] = [*lead, *path]
            return
        if square in occupants and not _can_pass(piece, square, occupants):
            return
        for nxt in entries[square]:  # _walk_on inlined (no backwards): a fifth less time per search
            if nxt not in visited:
                path.append(nxt)
                visited.add(nxt)
                visit(nxt)
                visited.discard(nxt)
                path.pop()

    lead: list[str] = []
    car = isinstance(piece, Police) and piece.id == CAR and bool(piece.tail)
    entries = _entries(piece.id == CAR, isinstance(piece, Thief))
    _set_out(piece, start, car, occupants, path, visited, visit, lead)
    return found


def landings_by_roll(state: TjuvState, piece: Piece, most: int) -> dict[int, set[str]]:
    """Roll -> the squares a police piece can end a walk on with that roll, for every roll up to
    ``most`` at once: what ``walks`` finds roll by roll (the radio car going twice the roll), in
    one search. Only for police pieces (no nest or airport ends their walk early)."""
    b = board()
    start = piece.at
    if start is None or isinstance(piece, Thief):
        return {}
    occupants = state.occupants()
    car = piece.id == CAR and bool(piece.tail)
    per_step = 2 if piece.id == CAR else 1
    deepest = most * per_step
    found: dict[int, set[str]] = {}
    path: list[str] = []
    visited = {start}

    entries = _entries(piece.id == CAR, False)

    def land(depth: int, square: str) -> None:
        # (a police piece may land on a square nobody stands on: can_land asked only otherwise)
        if (square not in occupants or can_land(state, piece, square, occupants)) and \
                (not car or b.kind[square] in DEAD_ENDS or can_land(state, piece, car_tail(start, path), occupants)):
            found.setdefault(depth // per_step, set()).add(square)

    def visit(square: str) -> None:
        depth = len(path)
        kind = b.kind[square]
        if kind in DEAD_ENDS:
            if depth % per_step == 0 and depth:
                land(depth, square)
            return
        if kind != "house" and depth % per_step == 0 and depth:
            land(depth, square)
        if depth == deepest or (square in occupants and not _can_pass(piece, square, occupants)):
            return
        for nxt in entries[square]:  # _walk_on inlined (no backwards): a fifth less time per search
            if nxt not in visited:
                path.append(nxt)
                visited.add(nxt)
                visit(nxt)
                visited.discard(nxt)
                path.pop()

    _set_out(piece, start, car, occupants, path, visited, visit)
    return found


def _set_out(piece: Piece, start: str, car: bool, occupants: dict[str, list[Piece]], path: list[str],
             visited: set[str], visit: Callable[[str], None], lead: list[str] | None = None) -> None:
    """Start a walk's depth-first search (``visit`` goes on from each first step, ``path`` and
    ``visited`` kept as it walks): from the piece's square, or, for a piece inside the police house
    off the grid, from every free house square (each then leads the path in ``lead``)."""
    b = board()
    if car and isinstance(piece, Police):
        visited.add(piece.tail)  # forward only: never into its own tail
    if start == HOUSE:  # off the grid inside the house: set out from any free house square
        for origin in b.house:
            if origin not in occupants:
                if lead is not None:
                    lead[:] = [origin]
                visited.clear()
                visited.add(origin)
                visit(origin)
        return
    # a car without a tail (stored before it covered two squares) keeps its old rule: no U-turn
    backwards = OPPOSITE.get(piece.heading, "") if isinstance(piece, Police) and not car else ""
    _walk_on(piece, start, path, visited, visit, backwards)


def _walk_on(piece: Piece, square: str, path: list[str], visited: set[str], visit: Callable[[str], None],
             backwards: str = "") -> None:
    """One step further from ``square`` to each neighbour the walk may enter (not yet visited, not
    in the ``backwards`` direction), and ``visit`` from there."""
    for nxt in _entries(piece.id == CAR, isinstance(piece, Thief))[square]:
        if nxt in visited:
            continue
        if backwards and board().direction(square, nxt) == backwards:
            continue
        path.append(nxt)
        visited.add(nxt)
        visit(nxt)
        visited.discard(nxt)
        path.pop()


def car_tail(start: str, path: list[str]) -> str:
    """Where the radio car's tail stands after its front drove ``path`` from ``start``."""
    return path[-2] if len(path) > 1 else start


def rides(state: TjuvState, piece: Piece) -> dict[str, list[str]]:
    """Stops reachable by tram from the piece's stop, with at most one change -> [change stop?, stop]."""
    b = board()
    here = piece.at
    if here is None or here not in b.stop_lines or piece.id == CAR:
        return {}
    occupants = state.occupants()
    found: dict[str, list[str]] = {}
    for line in b.stop_lines[here]:
        for stop in b.lines[line]:
            found.setdefault(stop, [stop])
    for line in b.stop_lines[here]:
        for change in b.lines[line]:
            for other in b.stop_lines[change]:
                for stop in b.lines[other]:
                    found.setdefault(stop, [change, stop])
    found.pop(here, None)
    return {stop: route for stop, route in found.items() if can_land(state, piece, stop, occupants)}
