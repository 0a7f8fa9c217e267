"""The Zloděj computer player: grab the most points now, keep jokers for big hauls, discard cheaply.

Only public facts and the seat's own hand are used (top groups' counts are public).
"""
from __future__ import annotations

from bot.engine.cards import JOKER, Card
from bot.engine.rng import Rng

from .actions import Action, AddToGroup, EndTurn, NewGroup, Steal, TakeDiscard
from .play import cheapest_discard
from .state import ZlodejState, card_value

# A joker is worth spending on a steal or a lock only when it secures at least this many points.
JOKER_WORTH = 40


def _gain(state: ZlodejState, action: Action) -> int:
    """Points the action moves onto the seat's pile (cards from hand count too: they stay scored)."""
    cards: tuple[Card, ...] = getattr(action, "cards", ())
    points = sum(card_value(c) for c in cards)
    if isinstance(action, Steal):
        points += sum(card_value(c) for c in state.open_piles[action.target][-1])
    elif isinstance(action, TakeDiscard):
        points += card_value(state.discard[-1])
    return points


def _jokers(action: Action) -> int:
    return sum(c.is_joker for c in getattr(action, "cards", ()))


def choose(state: ZlodejState, seat: int, legal: list[Action], rng: Rng) -> Action:
    lays = [a for a in legal if isinstance(a, NewGroup | AddToGroup | Steal | TakeDiscard)]
    natural = [a for a in lays if not _jokers(a)]
    if natural:
        # Winning cards from others first (steals and the discard), then the biggest own group.
        return max(natural, key=lambda a: (isinstance(a, Steal | TakeDiscard), _gain(state, a)))
    if lays:
        # Only joker lays remain: spend as few jokers as possible on the richest haul.
        best = max(lays, key=lambda a: (-_jokers(a), _gain(state, a)))
        own_pile = sum(card_value(c) for g in state.open_piles[seat] for c in g)
        secured = own_pile + _gain(state, best) - _jokers(best) * card_value(JOKER)
        # Once nobody draws, a joker kept in hand would only end up discarded.
        if secured >= JOKER_WORTH or state.drawing_over:
            return best
    if any(isinstance(a, EndTurn) for a in legal):
        return EndTurn()
    return cheapest_discard(state, seat)
