"""The Tölp trick play: which combinations may go on the table, laying one, and passing.

A play must beat every combination on the table (``combos.check_beats``); nobody may go out on a
combination holding a wild card. When everyone still in the round has passed on the top
combination, its player clears the table and leads again.
"""
from __future__ import annotations

from collections import Counter

from bot.engine.cards import cards_text, rank_text
from bot.engine.core import Event, Seat

from .actions import MAX_PLAY_CARDS, Action, Pass, Play
from .combos import Combination, candidate_plays, check_beats, combination_of, is_wild
from .rounds import event, illegal, leave_after_play
from .state import TolpState


def table_combos(state: TolpState) -> list[Combination]:
    """The combinations of the trick on the table, in the order they were laid."""
    wild = state.wild()
    return [combination_of(cards, wild) for _, cards in state.table]


def legal_plays(state: TolpState, seat: Seat) -> list[Action]:
    """Every combination ``seat`` may lay now, then passing when there is something to pass on."""
    hand = state.hands[seat]
    wild = state.wild()
    must = state.must_include if not state.table else None
    table = table_combos(state)
    actions: list[Action] = []
    for cards in candidate_plays(hand, wild, max_cards=MAX_PLAY_CARDS, must_include=must):
        combo = combination_of(cards, wild)
        if table and (combo.rank <= max(c.rank for c in table)
                      or combo.size < max(c.size for c in table)):
            continue
        if len(cards) == len(hand) and combo.wilds:
            continue
        actions.append(Play(cards))
    if state.table:
        actions.append(Pass())
    return actions


def act(state: TolpState, seat: Seat, action: Action, events: list[Event]) -> None:
    """``seat``'s action in the play phase: a play or a pass (nothing of the exchange)."""
    if isinstance(action, Play):
        play(state, seat, action, events)
    elif isinstance(action, Pass):
        pass_turn(state, seat, events)
    else:
        raise illegal("not_exchanging", "exchange")


def play(state: TolpState, seat: Seat, action: Play, events: list[Event]) -> None:
    """Lay ``action``'s cards on the table (checked first: a refusal changes nothing)."""
    hand = state.hands[seat]
    cards = list(action.cards)
    if Counter(cards) - Counter(hand):
        raise illegal("not_in_hand", "play", cards=cards_text(cards))
    wild = state.wild()
    combo = combination_of(cards, wild)
    if not state.table and state.must_include is not None and state.must_include not in cards:
        raise illegal("must_include", "start", card=str(state.must_include))
    check_beats(combo, table_combos(state))
    if len(cards) == len(hand) and combo.wilds:
        raise illegal("out_on_wild", "wild")
    # valid: mutate from here on
    remaining = Counter(hand) - Counter(cards)
    state.hands[seat] = sorted(remaining.elements())
    state.table.append((seat, sorted(cards)))
    state.passed = []
    state.must_include = None
    events.append(event("played", seat=seat, cards=cards_text(sorted(cards)), count=len(cards),
                        rank=rank_text(combo.rank)))
    if not state.hands[seat]:
        leave_after_play(state, seat, events, stuck=False)
    elif all(is_wild(c, wild) for c in state.hands[seat]):
        leave_after_play(state, seat, events, stuck=True)
    else:
        state.turn = state.next_active(seat)


def pass_turn(state: TolpState, seat: Seat, events: list[Event]) -> None:
    """``seat`` passes on the top combination; the table clears once everyone else has."""
    if not state.table:
        raise illegal("must_lead", "pass")
    state.passed.append(seat)
    events.append(event("passed", seat=seat))
    top_seat = state.table[-1][0]
    others = set(state.active()) - {top_seat}
    if others <= set(state.passed):
        state.table, state.passed = [], []
        state.turn = top_seat
        events.append(event("cleared", seat=top_seat))
    else:
        state.turn = state.next_active(seat)
