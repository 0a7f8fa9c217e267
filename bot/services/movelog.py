"""The move log: its markers and rebuilding a game's state from the seed and the log.

Besides the engines' canonical action texts the log holds three markers: a resignation
(``!resign``), the table ending an open-ended game with its standings (``!close``) and an undo
(``!undo N``: the N moves still in force before it were taken back). Replaying the moves in force
from the seed reproduces the stored state.
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bot.engine.core import Game

RESIGN = "!resign"  # move-log marker for a resignation (not an engine action)
CLOSE = "!close"  # move-log marker: the table ended an open-ended game with its standings
UNDO = "!undo"  # move-log marker "!undo N": the N moves still in force before it were taken back


def replay(game: Game[Any], players: int, options: Mapping[str, Any], seed: str,
           moves: list[tuple[int, str]]) -> Any:
    """Rebuild a state from the seed and the move log (moves taken back by an undo left out)."""
    state = game.new(players, options, seed)
    for seat, action in in_force(moves):
        apply_logged(game, state, seat, action)
    return state


def apply_logged(game: Game[Any], state: Any, seat: int, action: str) -> None:
    """Apply one move as the log holds it: a resignation, the table's close, or an action."""
    if action == RESIGN:
        game.resign(state, seat)
    elif action == CLOSE:
        game.close(state)
    else:
        game.apply(state, seat, game.parse_action(action))


def in_force(moves: list[tuple[int, str]]) -> list[tuple[int, str]]:
    """The (seat, action) moves that count: an ``!undo N`` marker drops the N moves before it."""
    kept: list[tuple[int, str]] = []
    for seat, action in moves:
        if action.startswith(UNDO + " "):
            del kept[len(kept) - int(action.split()[1]):]
        else:
            kept.append((seat, action))
    return kept


def undone_plies(rows: list[tuple[int, int, str, str]]) -> set[int]:
    """Plies of the stored (ply, seat, action, time) rows that an undo took back, and the markers."""
    kept: list[int] = []
    out: set[int] = set()
    for ply, _, action, _ in rows:
        if action.startswith(UNDO + " "):
            count = int(action.split()[1])
            out.update(kept[len(kept) - count:])
            del kept[len(kept) - count:]
            out.add(ply)
        else:
            kept.append(ply)
    return out
