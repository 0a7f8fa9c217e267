"""The Zloděj computer at level normal: it knows which of its groups are exposed to theft.

Only an open pile's top group can be stolen, by anyone holding a card of its rank or a joker.
From what the seat has seen (its hand, its own piles, the open top groups, the locked jokers and
the discard top) it counts the cards of each rank still unseen and estimates the chance that one
of the others holds a thief for its top group. Each lay is judged by the points it brings minus
the points it leaves exposed (a new group laid over a rich one hides it; a joker locks the pile),
and a joker is spent where it secures the most, or once nobody draws any more."""
from __future__ import annotations

from collections import Counter

from bot.engine.cards import JOKER_RANK
from bot.engine.rng import Rng

from .actions import Action, AddToGroup, Discard, EndTurn, NewGroup, Steal, TakeDiscard
from .engine import ZlodejGame
from .play import cheapest_discard
from .state import JOKERS_PER_DECK, ZlodejState, card_value
from .view import VISIBLE_GROUPS

RULES = ZlodejGame()
RANKS_PER_DECK = 4  # each rank's cards in one deck
JOKER_KEPT = 10.0  # what a joker in hand is worth while others still draw (a later lock or haul)
LOCK_WORTH = 80  # points a joker lay must secure while others still draw
STEAL_WEIGHT = 1.3  # a theft also takes the points from a rival


def unseen_counts(state: ZlodejState, seat: int) -> tuple[Counter[int], int]:
    """Cards of each rank the seat has not seen (ranks only), and how many there are in all."""
    seen: Counter[int] = Counter(c.rank for c in state.hands[seat])
    seen.update(c.rank for g in state.open_piles[seat] for c in g)
    seen.update(c.rank for p in state.locked[seat] for c in p)
    for other in range(state.players):
        if other == seat:
            continue
        seen.update(c.rank for g in state.open_piles[other][-VISIBLE_GROUPS:] for c in g)
        seen.update(p[-1].rank for p in state.locked[other])
    if state.discard:
        seen[state.discard[-1].rank] += 1
    total: Counter[int] = Counter({rank: RANKS_PER_DECK * state.decks for rank in range(2, 15)})
    total[JOKER_RANK] = JOKERS_PER_DECK * state.decks
    unseen = Counter({rank: max(0, n - seen[rank]) for rank, n in total.items()})
    return unseen, sum(unseen.values())


def theft_chance(state: ZlodejState, seat: int, rank: int, unseen: Counter[int], pool: int) -> float:
    """The chance that some other seat holds a card of ``rank`` or a joker before our next turn."""
    if pool <= 0:
        return 0.0
    held = sum(max(len(state.hands[o]), 0 if state.drawing_over else 5)
               for o in range(state.players) if o != seat and not state.resigned[o])
    thieves = unseen[rank] + unseen[JOKER_RANK]
    miss = 1.0
    for i in range(min(held, pool)):
        miss *= max(0.0, (pool - thieves - i) / (pool - i))
    return 1.0 - miss


def exposed(state: ZlodejState, seat: int, unseen: Counter[int], pool: int) -> float:
    """Points of the seat's open pile expected to be stolen before its next turn (the top group;
    the one beneath it too when the same thieves could take both)."""
    pile = state.open_piles[seat]
    if not pile:
        return 0.0
    top = pile[-1]
    risk = theft_chance(state, seat, top[0].rank, unseen, pool) * sum(card_value(c) for c in top)
    if len(pile) > 1:
        below = pile[-2]
        risk += 0.3 * theft_chance(state, seat, below[0].rank, unseen, pool) * sum(card_value(c) for c in below)
    return risk


def _jokers(action: Action) -> int:
    return sum(c.is_joker for c in getattr(action, "cards", ()))


def judge(state: ZlodejState, seat: int, action: Action, unseen: Counter[int], pool: int) -> float:
    """Points the lay brings, minus what it leaves exposed, minus jokers spent while others draw."""
    after = RULES.copy(state)
    bonus = 0.0
    if isinstance(action, Steal):
        bonus = (STEAL_WEIGHT - 1) * sum(card_value(c) for c in state.open_piles[action.target][-1])
    RULES.apply(after, seat, action)
    gain = after.pile_points(seat) - state.pile_points(seat) + bonus
    kept = 0.0 if state.drawing_over else JOKER_KEPT * _jokers(action)
    if _jokers(action) and not state.drawing_over:
        secured = sum(card_value(c) for p in after.locked[seat][-1:] for c in p if not c.is_joker)
        if secured < LOCK_WORTH:
            kept += 1000.0  # a joker is not wasted on locking a small pile
    return gain - exposed(after, seat, unseen, pool) - kept


def choose(state: ZlodejState, seat: int, legal: list[Action], rng: Rng) -> Action:
    unseen, pool = unseen_counts(state, seat)
    lays = [a for a in legal if isinstance(a, NewGroup | AddToGroup | Steal | TakeDiscard)]
    standing = -exposed(state, seat, unseen, pool)
    if lays:
        best = max(lays, key=lambda a: (judge(state, seat, a, unseen, pool), -_jokers(a), str(a)))
        value = judge(state, seat, best, unseen, pool)
        if value > standing or (not state.laid and value > standing - 5):
            return best
    if EndTurn() in legal:
        return EndTurn()
    return discard(state, seat, unseen)


def discard(state: ZlodejState, seat: int, unseen: Counter[int]) -> Discard:
    """The least useful card, preferring ranks the others are unlikely to pick up with."""
    hand = state.hands[seat]
    counts = Counter(c.rank for c in hand)
    if all(c.is_joker or counts[c.rank] > 1 for c in hand):
        return cheapest_discard(state, seat)
    return Discard(min(hand, key=lambda c: (c.is_joker, counts[c.rank] > 1, card_value(c), unseen[c.rank], c)))
