"""The Tölp computer player: give the lowest cards and say "högt"; play the lowest natural
combination that fits, keeping wild cards for the end of the hand; pass otherwise."""
from __future__ import annotations

from bot.engine.core import Seat
from bot.engine.rng import Rng

from .actions import Action, Give, High, Pass, Play
from .combos import combination_of, is_wild
from .exchange import exchange_of
from .state import TolpState


def choose(state: TolpState, seat: Seat, legal: list[Action], rng: Rng) -> Action:
    """The computer's action for ``seat`` among its (non-empty) ``legal`` actions."""
    if state.phase == "exchange":
        ex = exchange_of(state, seat)
        assert ex is not None
        if not ex.laid:
            wild = state.wild()
            lowest = sorted(c for c in state.hands[seat] if not is_wild(c, wild))
            return Give(tuple(lowest[:ex.count]))
        return High()
    wild = state.wild()
    plays = [a for a in legal if isinstance(a, Play)]
    natural = [p for p in plays if not combination_of(p.cards, wild).wilds]
    leading = not state.table

    def key(play: Play) -> tuple[int, int]:
        combo = combination_of(play.cards, wild)
        # leading: keep equal cards together; following: spend as few as the table needs
        return combo.rank, (-combo.size if leading else combo.size)

    if natural:
        return min(natural, key=key)
    if plays and len(state.hands[seat]) <= 4:
        return min(plays, key=lambda p: (combination_of(p.cards, wild).wilds, key(p)))
    return Pass() if state.table else plays[0]
