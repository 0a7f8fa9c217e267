"""Tjuv och Polis observations, and scrambling of what a viewer cannot see.

Public (as on the table): every piece's square, wanted marks, the money each player carries, how
many stashes each thief keeps, jail sentences and arrests, the travel agency's fares, the rolls,
the last move and whose turn it is. Private: only the viewer's own stashes (nest and amount).
Seats in views are table seats (see ``seat_of``); piece ids ("T2") name roles.
"""
from __future__ import annotations

from typing import Any

from bot.engine.rng import Rng

from .board import board
from .state import TjuvState, dump_state, load_state


def seat_of(state: TjuvState, role: int) -> int:
    """The table seat playing ``role`` (0 the police, n the thief T<n>)."""
    return (role + state.police_seat) % state.players


def role_of(state: TjuvState, seat: int) -> int:
    return (seat - state.police_seat) % state.players


def public_view(state: TjuvState) -> dict[str, Any]:
    view: dict[str, Any] = {
        "to_act": [] if state.finished else [seat_of(state, 0 if state.pending else state.turn)],
        "turn": None if state.finished else seat_of(state, state.turn),
        "police_seat": state.police_seat,
        "phase": state.phase,
        "roll": state.roll,
        "last_roll": state.last_roll,
        "round": state.round,
        "max_rounds": state.max_rounds,
        "police": [{"id": p.id, "at": p.at, "status": p.status, "stay": p.stay, "heading": p.heading,
                    "tail": p.tail} for p in state.police],
        # encircled thieves waiting for the police player to name the arresting piece
        "pending": [{"seat": seat_of(state, int(p["thief"])), "piece": f"T{p['thief']}", "pieces": list(p["pieces"])}
                    for p in state.pending],
        "thieves": [{"seat": seat_of(state, t.seat), "id": t.id, "at": t.at, "status": t.status, "wanted": t.wanted,
                     "money": t.money, "stashes": len(t.stashes), "sentence": t.sentence,
                     "arrests": t.arrests, "guard": t.guard} for t in state.thieves],
        "police_money": state.police_money,
        "agency": state.agency,
        "tram": {str(seat_of(state, int(role))): piece for role, piece in sorted(state.tram.items())},
        "last_piece": state.last_piece,
        "last_path": list(state.last_path),
        "finished": state.finished,
        "reason": state.reason,
    }
    return view


def private_view(state: TjuvState, role: int) -> dict[str, Any]:
    prompt = state.prompts[role] if role < len(state.prompts) else 0
    if role == 0:
        return {"role": "police", "piece": "", "stashes": {}, "prompt": prompt}
    return {"role": "thief", "piece": state.thief(role).id, "stashes": dict(sorted(state.thief(role).stashes.items())),
            "prompt": prompt}


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
