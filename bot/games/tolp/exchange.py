"""The Tölp exchange between rounds: each pair's higher player lays cards down for the lower one,
then says "högt" (the partner's highest cards) or asks how many of a rank the partner holds and
claims ranks; the partner hands those over and picks up what was laid down. Wild cards never
change hands. When every pair is done, the round's play begins.
"""
from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Sequence

from bot.engine.cards import Card, cards_text, rank_text
from bot.engine.core import Event, Seat

from .actions import Action, Ask, Claim, Give, High, Pass, Play
from .combos import is_wild
from .rounds import begin_play, event, illegal
from .state import Exchange, TolpState


def exchange_of(state: TolpState, seat: Seat) -> Exchange | None:
    """The exchange ``seat`` takes part in this round, as the higher or the lower player."""
    for ex in state.exchanges:
        if seat in (ex.high, ex.low):
            return ex
    return None


def legal_exchange(state: TolpState, seat: Seat) -> list[Action]:
    """What the higher player ``seat`` may do: lay down cards, then say "högt", ask or claim."""
    ex = exchange_of(state, seat)
    assert ex is not None
    wild = state.wild()
    hand = state.hands[seat]
    if not ex.laid:
        natural = sorted(c for c in hand if not is_wild(c, wild))
        gives = {tuple(combo) for combo in itertools.combinations(natural, ex.count)}
        return [Give(cards) for cards in sorted(gives)]
    actions: list[Action] = [High()]
    asked = {rank for rank, _ in ex.asked}
    held = sorted({c.rank for c in hand if not is_wild(c, wild)} - asked)
    actions.extend(Ask(rank) for rank in held)
    ranges = [range(answer + 1) for _, answer in ex.asked]
    for counts in itertools.product(*ranges):
        if 0 < sum(counts) <= ex.count:
            ranks = tuple(r for (r, _), n in zip(ex.asked, counts, strict=True) for _ in range(n))
            actions.append(Claim(ranks))
    return actions


def act(state: TolpState, seat: Seat, action: Action, events: list[Event]) -> None:
    """``seat``'s action in the exchange phase (no play or pass until every pair is done)."""
    if isinstance(action, (Play, Pass)):
        raise illegal("exchanging", "exchange")
    ex = exchange_of(state, seat)
    assert ex is not None and ex.high == seat
    if isinstance(action, Give):
        _give(state, ex, action, events)
    elif isinstance(action, High):
        _check_laid(ex)
        events.append(event("said_high", (ex.high, ex.low), seat=ex.high, target=ex.low))
        _finish(state, ex, [], events)
    elif isinstance(action, Ask):
        _ask(state, ex, action, events)
    else:
        _claim(state, ex, action, events)


def _check_laid(ex: Exchange) -> None:
    if not ex.laid:
        raise illegal("lay_down_first", "exchange", count=ex.count)


def _give(state: TolpState, ex: Exchange, action: Give, events: list[Event]) -> None:
    if ex.laid:
        raise illegal("already_laid", "exchange")
    cards = list(action.cards)
    if len(cards) != ex.count:
        raise illegal("give_count", "exchange", count=ex.count)
    hand = state.hands[ex.high]
    if Counter(cards) - Counter(hand):
        raise illegal("not_in_hand", "exchange", cards=cards_text(cards))
    if any(is_wild(c, state.wild()) for c in cards):
        raise illegal("give_wild", "wild")
    state.hands[ex.high] = sorted((Counter(hand) - Counter(cards)).elements())
    ex.laid = sorted(cards)
    events.append(event("laid_down", seat=ex.high, target=ex.low, count=ex.count))
    events.append(event("you_laid", (ex.high,), seat=ex.high, target=ex.low,
                        cards=cards_text(ex.laid)))


def _ask(state: TolpState, ex: Exchange, action: Ask, events: list[Event]) -> None:
    _check_laid(ex)
    rank = action.rank
    if rank in state.wild():
        raise illegal("ask_wild", "wild", rank=rank_text(rank))
    if not any(c.rank == rank for c in state.hands[ex.high]):
        raise illegal("ask_not_held", "exchange", rank=rank_text(rank))
    if any(r == rank for r, _ in ex.asked):
        raise illegal("already_asked", "exchange", rank=rank_text(rank))
    answer = sum(1 for c in state.hands[ex.low] if c.rank == rank)
    ex.asked.append((rank, answer))
    events.append(event("asked", (ex.high, ex.low), seat=ex.high, target=ex.low,
                        rank=rank_text(rank), count=answer))


def _claim(state: TolpState, ex: Exchange, action: Claim, events: list[Event]) -> None:
    _check_laid(ex)
    if len(action.ranks) > ex.count:
        raise illegal("claim_over_limit", "exchange", count=ex.count)
    answers = dict(ex.asked)
    for rank, wanted in Counter(action.ranks).items():
        if rank not in answers:
            raise illegal("claim_not_asked", "exchange", rank=rank_text(rank))
        if wanted > answers[rank]:
            raise illegal("claim_too_many", "exchange", rank=rank_text(rank), count=answers[rank])
    events.append(event("claimed", (ex.high, ex.low), seat=ex.high, target=ex.low,
                        ranks=" ".join(rank_text(r) for r in action.ranks)))
    _finish(state, ex, list(action.ranks), events)


def _cards_of_rank_high_first(hand: Sequence[Card], rank: int) -> list[Card]:
    return sorted((c for c in hand if c.rank == rank), reverse=True)


def _finish(state: TolpState, ex: Exchange, ranks: list[int], events: list[Event]) -> None:
    """The low player hands over the claimed ranks plus their highest natural cards for any
    shortfall, then picks up what was laid down for them."""
    wild = state.wild()
    low_hand = list(state.hands[ex.low])
    taken: list[Card] = []
    for rank in ranks:
        card = _cards_of_rank_high_first(low_hand, rank)[0]
        low_hand.remove(card)
        taken.append(card)
    highest = sorted((c for c in low_hand if not is_wild(c, wild)), reverse=True)
    for card in highest[:ex.count - len(taken)]:
        low_hand.remove(card)
        taken.append(card)
    state.hands[ex.low] = sorted(low_hand + ex.laid)
    state.hands[ex.high] = sorted(state.hands[ex.high] + taken)
    ex.taken = sorted(taken)
    ex.done = True
    events.append(event("exchange_done", seat=ex.high, target=ex.low, count=ex.count))
    events.append(event("you_received", (ex.high,), seat=ex.high, cards=cards_text(ex.taken)))
    events.append(event("you_received", (ex.low,), seat=ex.low, cards=cards_text(ex.laid)))
    if all(e.done for e in state.exchanges):
        begin_play(state, events)
