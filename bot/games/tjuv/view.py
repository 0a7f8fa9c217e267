"""Tjuv och Polis observations, and scrambling of what a viewer cannot see.

Public (as on the table): every piece's square, wanted marks, the money each player carries, how
many stashes each thief keeps, jail sentences and arrests, the travel agency's fares, the rolls,
the last move and whose turn it is. Private: only the viewer's own stashes (nest and amount).
"""
from __future__ import annotations

from typing import Any

from bot.engine.rng import Rng

from .board import board
from .state import TjuvState, dump_state, load_state


def public_view(state: TjuvState) -> dict[str, Any]:
    view: dict[str, Any] = {
        "to_act": [] if state.finished else [state.turn],
        "turn": None if state.finished else state.turn,
        "phase": state.phase,
        "roll": state.roll,
        "last_roll": state.last_roll,
        "round": state.round,
        "max_rounds": state.max_rounds,
        "police": [{"id": p.id, "at": p.at, "status": p.status, "stay": p.stay, "heading": p.heading}
                   for p in state.police],
        "thieves": [{"seat": t.seat, "id": t.id, "at": t.at, "status": t.status, "wanted": t.wanted,
                     "money": t.money, "stashes": len(t.stashes), "sentence": t.sentence,
                     "arrests": t.arrests, "guard": t.guard} for t in state.thieves],
        "police_money": state.police_money,
        "agency": state.agency,
        "tram": dict(state.tram),
        "last_piece": state.last_piece,
        "last_path": list(state.last_path),
        "finished": state.finished,
        "reason": state.reason,
    }
    return view


def private_view(state: TjuvState, seat: int) -> dict[str, Any]:
    if seat == 0:
        return {"role": "police", "stashes": {}}
    return {"role": "thief", "stashes": dict(sorted(state.thief(seat).stashes.items()))}


def scramble(state: TjuvState, viewer: int | None, rng: Rng) -> TjuvState:
    """A copy in which every other thief's stashes lie in random nests with random amounts (the
    number of stashes stays: it is public)."""
    copy = load_state(dump_state(state))
    for thief in copy.thieves:
        if thief.seat == viewer or not thief.stashes:
            continue
        nests = list(board().nests)
        rng.shuffle(nests)
        thief.stashes = {nest: 1000 * rng.randint(1, 20) for nest in nests[:len(thief.stashes)]}
    return copy
