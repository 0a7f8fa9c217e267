"""Zloděj rules: checking and laying cards, discarding, ending a turn, drawing and turning the discard.

Every ``check_*`` raises IllegalAction before anything changes; the ``do_*`` functions then mutate.
"""
from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

from bot.engine.cards import JOKER_RANK, Card, cards_text, rank_text
from bot.engine.core import Event
from bot.errors import IllegalAction

from .actions import AddToGroup, Discard, Lay, NewGroup, Steal, TakeDiscard
from .state import HAND_SIZE, ZlodejState, card_value, group_rank


def top_rank(state: ZlodejState, seat: int) -> int | None:
    """The rank of a seat's open top group, or None when its open pile is empty."""
    pile = state.open_piles[seat]
    return pile[-1][0].rank if pile else None


def matches(cards: Iterable[Card], rank: int) -> bool:
    """Whether laid cards (jokers wild) may join a group of ``rank``; a discarded joker takes a joker."""
    naturals = {c.rank for c in cards if not c.is_joker}
    return not naturals if rank == JOKER_RANK else naturals <= {rank}


def check_lay(state: ZlodejState, seat: int, action: Lay) -> None:
    cards = list(action.cards)
    missing = Counter(cards) - Counter(state.hands[seat])
    if missing:
        raise IllegalAction("zlodej.error.not_in_hand", topic="laying",
                            card=cards_text(sorted(missing.elements())))
    if len({c.rank for c in cards if not c.is_joker}) > 1:
        raise IllegalAction("zlodej.error.mixed_ranks", topic="laying", cards=cards_text(cards))
    if isinstance(action, NewGroup):
        if len(cards) < 2:
            raise IllegalAction("zlodej.error.group_too_small", topic="laying")
    elif isinstance(action, AddToGroup):
        rank = top_rank(state, seat)
        if rank is None:
            raise IllegalAction("zlodej.error.no_open_group", topic="laying")
        _check_rank(cards, rank)
    elif isinstance(action, Steal):
        _check_steal(state, seat, action)
    elif isinstance(action, TakeDiscard):
        if not state.discard:
            raise IllegalAction("zlodej.error.discard_empty", topic="laying")
        _check_rank(cards, state.discard[-1].rank)


def _check_rank(cards: list[Card], rank: int) -> None:
    if not matches(cards, rank):
        raise IllegalAction("zlodej.error.rank_mismatch", topic="laying", rank=rank_text(rank))


def _check_steal(state: ZlodejState, seat: int, action: Steal) -> None:
    target = action.target
    if not 0 <= target < state.players:
        raise IllegalAction("zlodej.error.no_such_seat", topic="stealing", number=target)
    if target == seat:
        raise IllegalAction("zlodej.error.steal_from_self", topic="stealing")
    rank = top_rank(state, target)
    if rank is None:
        code = "pile_locked" if state.locked[target] else "nothing_to_steal"
        raise IllegalAction(f"zlodej.error.{code}", topic="stealing", target=target)
    _check_rank(list(action.cards), rank)


def do_lay(state: ZlodejState, seat: int, action: Lay) -> list[Event]:
    """Move the cards (and what they win) onto the seat's pile; a joker locks the pile."""
    cards = list(action.cards)
    for card in cards:
        state.hands[seat].remove(card)
        forget_public(state, seat, card)
    laid = cards_text(cards)
    gained: list[Card] = []
    if isinstance(action, NewGroup):
        event = Event("zlodej.event.new", {"seat": seat, "cards": laid})
    elif isinstance(action, AddToGroup):
        event = Event("zlodej.event.add", {"seat": seat, "cards": laid})
    elif isinstance(action, Steal):
        gained = state.open_piles[action.target].pop()
        event = Event("zlodej.event.steal", {"seat": seat, "target": action.target, "cards": laid,
                                             "rank": rank_text(gained[0].rank), "count": len(gained)})
    else:
        gained = [state.discard.pop()]
        event = Event("zlodej.event.take", {"seat": seat, "cards": laid, "card": str(gained[0])})
    events = [event]
    group = gained + [c for c in cards if not c.is_joker]
    jokers = [c for c in cards if c.is_joker]
    pile = state.open_piles[seat]
    if jokers:
        # The joker goes on top and the whole pile so far is bundled up, safe from thieves.
        locked = [c for g in pile for c in g] + group + jokers
        state.locked[seat].append(locked)
        pile.clear()
        events.append(Event("zlodej.event.locked", {"seat": seat, "count": len(locked)}))
    elif pile and pile[-1][0].rank == group_rank(group):
        pile[-1].extend(group)  # the same rank is not laid crosswise: it joins the top group
    else:
        pile.append(group)
    state.laid = True
    if not state.hands[seat]:
        events += end_turn(state, seat)
    return events


def check_end(state: ZlodejState) -> None:
    if not state.laid:
        raise IllegalAction("zlodej.error.end_without_lay", topic="turn")


def do_discard(state: ZlodejState, seat: int, card: Card) -> list[Event]:
    if card not in state.hands[seat]:
        raise IllegalAction("zlodej.error.not_in_hand", topic="discard", card=str(card))
    state.hands[seat].remove(card)
    forget_public(state, seat, card)
    record_end(state, seat)
    state.discard.append(card)
    return [Event("zlodej.event.discard", {"seat": seat, "card": str(card)}), *end_turn(state, seat, recorded=True)]


def forget_public(state: ZlodejState, seat: int, card: Card) -> None:
    """A card leaves the seat's hand: if it was one drawn from the public stock, it no longer counts
    as known (an equal card drawn hidden may have gone instead; the hand still holds one alike)."""
    if card in state.public_draws[seat]:
        state.public_draws[seat].remove(card)


def record_end(state: ZlodejState, seat: int) -> None:
    """Note what everyone saw at the seat's turn end (``ZlodejState.kept``, ``passed`` and ``offered``):
    the cards it keeps, every rank it could have laid on (the open tops and the discard top before a
    throw), and the points of the richest top group of another seat (what a joker could have stolen)."""
    ranks = {top_rank(state, o) for o in range(state.players)}
    if state.discard:
        ranks.add(state.discard[-1].rank)
    state.kept[seat] = len(state.hands[seat])
    state.passed[seat] = sorted(r for r in ranks if r is not None)
    state.offered[seat] = max((sum(card_value(c) for c in state.open_piles[o][-1]) for o in range(state.players)
                               if o != seat and state.open_piles[o]), default=0)


def end_turn(state: ZlodejState, seat: int, recorded: bool = False) -> list[Event]:
    """Draw up to a full hand (while drawing lasts), then pass to the next seat holding cards."""
    if not recorded:
        record_end(state, seat)
    events = [Event("zlodej.event.turn_end", {"seat": seat})]
    if not state.drawing_over:
        events += draw(state, seat)
    return events + pass_turn(state, seat)


def pass_turn(state: ZlodejState, seat: int) -> list[Event]:
    state.laid = False
    events: list[Event] = []
    for step in range(1, state.players + 1):
        nxt = (seat + step) % state.players
        # A seat with an empty hand (only once drawing is over) has nothing to do and is skipped.
        if state.hands[nxt] and not state.resigned[nxt]:
            state.turn = nxt
            events.append(Event("zlodej.event.turn", {"seat": nxt}))
            return events
    state.finished = True
    return events + final_scores(state)


def standings(state: ZlodejState) -> list[tuple[int, ...]]:
    """The places at the end: the players still in the game by pile total, highest first (equal
    totals share a place), then everyone who resigned."""
    playing = [s for s in range(state.players) if not state.resigned[s]]
    places = [tuple(s for s in playing if state.pile_points(s) == points)
              for points in sorted({state.pile_points(s) for s in playing}, reverse=True)]
    gave_up = tuple(s for s in range(state.players) if state.resigned[s])
    return places + [gave_up] if gave_up else places


def final_scores(state: ZlodejState) -> list[Event]:
    """The end: every pile is turned up and counted, in the order of the places."""
    playing = [s for s in range(state.players) if not state.resigned[s]]
    if len(playing) < 2:
        events = [Event("zlodej.event.game_over_resigned", {"seat": playing[0]} if playing else {})]
    else:
        events = [Event("zlodej.event.game_over", {})]
    for place in standings(state):
        for s in place:
            key = "zlodej.event.score_resigned" if state.resigned[s] else "zlodej.event.score"
            events.append(Event(key, {"seat": s, "points": state.pile_points(s)}))
    return events


def draw(state: ZlodejState, seat: int) -> list[Event]:
    hand = state.hands[seat]
    need = HAND_SIZE - len(hand)
    drawn: list[Card] = []
    events: list[Event] = []
    while len(drawn) < need:
        if not state.stock:
            if len(state.discard) < 2:
                break
            # The top card stays as the new discard base; the rest is turned over, not shuffled.
            rest = state.discard[:-1]
            state.discard = state.discard[-1:]
            state.stock = rest[::-1]
            state.stock_public = True
            events.append(Event("zlodej.event.turned", {"count": len(rest)}))
            continue
        card = state.stock.pop()
        if state.stock_public:
            state.public_draws[seat].append(card)
        drawn.append(card)
    hand.extend(drawn)
    if drawn:
        events.append(Event("zlodej.event.drew", {"seat": seat, "count": len(drawn)}))
        events.append(Event("zlodej.event.drew_cards", {"cards": cards_text(sorted(drawn))},
                            visible_to=frozenset({seat})))
    if len(drawn) < need:
        state.drawing_over = True
        events.append(Event("zlodej.event.no_more_drawing", {"seat": seat}))
    return events


def cheapest_discard(state: ZlodejState, seat: int) -> Discard:
    """The least useful card of the hand (a skipped turn's discard, the computers' throw)."""
    hand = state.hands[seat]
    counts = Counter(c.rank for c in hand)
    # Keep pairs (future groups) and jokers; throw the lowest single card.
    return Discard(min(hand, key=lambda c: (c.is_joker, counts[c.rank] > 1, card_value(c), c)))
