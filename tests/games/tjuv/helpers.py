"""Test helpers for Tjuv och Polis: positions built by hand, rigged dice, money audits."""
from __future__ import annotations

from typing import Any

from bot.engine.rng import Rng
from bot.games.tjuv.engine import TjuvGame
from bot.games.tjuv.state import Police, TjuvState

GAME = TjuvGame()


def position(players: int = 2, *, police: dict[str, Any] | None = None,
             thieves: dict[int, dict[str, Any]] | None = None, turn: int = 0, roll: int = 0) -> TjuvState:
    """A fresh game with pieces placed by hand; ``roll`` skips straight to the move phase."""
    state = set_up(GAME.new(players, {}, "test"))
    for pid, square in (police or {}).items():
        piece = state.piece(pid)
        assert isinstance(piece, Police)
        # the radio car: "G7" puts it on one square (as stored before it covered two), a tuple
        # ("G7", "H7") puts its front and its tail
        piece.at, piece.tail = (square, "") if isinstance(square, str) else square
    for seat, fields in (thieves or {}).items():
        for name, value in fields.items():
            setattr(state.thief(seat), name, value)
    state.turn = turn
    if roll:
        state.phase, state.roll = "move", roll
    return state


def set_up(state: TjuvState, car: str = "car Q11 P11") -> TjuvState:
    """Play the setup: the thieves choose nests spread around the town in seat order, then the
    police place the radio car (by default its front on P11 and its tail on Q11, facing west)."""
    nests = GAME.legal_actions(state, state.turn)
    step = len(nests) / (state.players - 1)
    while state.phase == "nests":
        GAME.apply(state, state.turn, nests[int((state.turn - 1) * step)])
    GAME.apply(state, 0, GAME.parse_action(car))
    return state


def rigged(*values: int) -> Rng:
    """An Rng whose next dice show ``values`` in order."""
    for start in range(100000):
        probe = Rng("rig", start)
        if all(probe.die() == v for v in values):
            return Rng("rig", start)
    raise AssertionError("no such dice")


def act(state: TjuvState, seat: int, text: str) -> list[str]:
    return [e.key for e in GAME.apply(state, seat, GAME.parse_action(text))]


def money_in_play(state: TjuvState) -> int:
    carried = state.police_money + sum(t.money for t in state.thieves)
    return carried + sum(sum(t.stashes.values()) for t in state.thieves) + state.agency


def assert_audited(state: TjuvState) -> None:
    """Every krona in play came from the bank and was not yet paid back."""
    assert money_in_play(state) == state.bank_paid - state.bank_received
