"""Tölp standings: places by Kung titles, and whether the chosen scoring ends the game.

Endless games never end by themselves (the table closes them); "rounds" ends after the agreed
number of rounds unless most Kung titles are tied; "three" ends when one player is Kung three
rounds in a row.
"""
from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from .state import TolpState


def by_kungs(state: TolpState, seats: Iterable[int]) -> list[list[int]]:
    """``seats`` grouped by their number of Kung titles, most first (a group shares a place)."""
    groups: dict[int, list[int]] = {}
    for seat in seats:
        groups.setdefault(state.kungs[seat], []).append(seat)
    return [sorted(groups[k]) for k in sorted(groups, reverse=True)]


def final_result(state: TolpState) -> dict[str, Any] | None:
    """The game's result once a round has ended, or None when another round is played."""
    scoring = state.options["scoring"]
    if scoring == "rounds" and state.round >= int(state.options["rounds"]):
        places = by_kungs(state, range(state.players))
        if len(places[0]) == 1:  # a tie for most Kung titles plays another round
            return {"places": places, "reason": "tolp.end.rounds"}
    if scoring == "three" and state.streak[1] >= 3:
        winner = state.streak[0]
        rest = by_kungs(state, (s for s in range(state.players) if s != winner))
        return {"places": [[winner], *rest], "reason": "tolp.end.three"}
    return None
