"""What a Zloděj seat may know, and how exposed a pile is to the cards the others may hold.

A seat sees its own hand and piles, the top two groups of every other open pile, the joker on
top of every locked pile and (from the public log: every discard and every take is announced)
the whole discard pile. Every other card (the others' hands, the stock, the others' deeper groups
and the insides of their locked piles) is "unseen": as far as the seat knows, any unseen card is
as likely as any other to be in a given opponent's hand. Nothing here reads a hidden card: the
unseen cards are only counted, from the public counts.

Only an open pile's top group can be stolen, by a card of its rank or a joker; when it is, the
group beneath becomes the top. ``expected_loss`` follows that chain through the opponents' turns
before the seat's next one.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from bot.engine.cards import JOKER_RANK

from .state import JOKERS_PER_DECK, ZlodejState
from .view import VISIBLE_GROUPS

RANKS = range(2, JOKER_RANK + 1)
NATURALS_PER_DECK = 4  # cards of each rank in one deck
# A joker is played where its holder gains the most, which is often not on a given pile: an
# unseen joker counts as this much of a thief.
JOKER_THREAT = 0.7
# An opponent that ends its turn keeping cards while another seat's top group of at least this many
# points could be stolen kept no joker (``Inferred``).
JOKER_TEMPTATION = 30
CHAIN_DEPTH = 3  # groups of one pile followed down a chain of thefts


def rank_value(rank: int) -> int:
    """Points of a card of this rank (the deck's values: joker 50, ace 20, 10–K 10, 2–9 5)."""
    if rank == JOKER_RANK:
        return 50
    if rank == 14:
        return 20
    return 10 if rank >= 10 else 5


VALUE = {rank: rank_value(rank) for rank in RANKS}


@dataclass
class Knowledge:
    seat: int
    players: int
    unseen: dict[int, int]  # rank -> unseen cards of that rank
    pool: int  # unseen cards in all
    hands: list[int]  # cards in each seat's hand (public)
    drawing_over: bool
    order: list[int]  # the other seats, in the order they act before the seat's next turn
    _miss: dict[tuple[int, int], float] = field(default_factory=dict)
    _holds: dict[tuple[int, int], float] = field(default_factory=dict)
    _loss: dict[tuple[tuple[int, int], ...], float] = field(default_factory=dict)

    def miss(self, thieves: int, hand: int) -> float:
        """The chance that ``hand`` unseen cards hold none of ``thieves`` given unseen cards."""
        key = (thieves, hand)
        if key not in self._miss:
            chance = 1.0
            for i in range(min(hand, self.pool)):
                chance *= max(0.0, (self.pool - thieves - i) / (self.pool - i))
            self._miss[key] = chance
        return self._miss[key]

    def holds(self, seat: int, rank: int) -> float:
        """The chance that ``seat`` holds a card of ``rank`` or (weighted) a joker."""
        key = (seat, rank)
        if key not in self._holds:
            hand = self.hands[seat]
            self._holds[key] = 0.0 if hand <= 0 or self.pool <= 0 else self._chance(seat, rank, hand)
        return self._holds[key]

    def _chance(self, seat: int, rank: int, hand: int) -> float:
        """``holds`` for a seat with ``hand`` cards, every unseen card alike."""
        naturals = self.unseen[rank] if rank != JOKER_RANK else 0
        no_natural = self.miss(naturals, hand)
        no_joker = self.miss(self.unseen[JOKER_RANK], hand)
        return 1.0 - no_natural * (1.0 - JOKER_THREAT * (1.0 - no_joker))

    def expected_loss(self, groups: tuple[tuple[int, int], ...]) -> float:
        """Points of an open pile (groups bottom first as (rank, points)) expected to be stolen
        before the seat's next turn: each opponent in turn may take the top group and, holding
        the next rank too, the one beneath."""
        if not groups:
            return 0.0
        if groups in self._loss:
            return self._loss[groups]
        top_first = groups[::-1][:CHAIN_DEPTH]
        # dist[i]: the chance that exactly i groups have gone so far
        dist = [1.0] + [0.0] * len(top_first)
        for opponent in self.order:
            new = [0.0] * len(dist)
            for gone, p in enumerate(dist):
                if p == 0.0:
                    continue
                depth = gone
                while depth < len(top_first):
                    q = self.holds(opponent, top_first[depth][0])
                    new[depth] += p * (1 - q)
                    p *= q
                    depth += 1
                new[depth] += p
            dist = new
        loss = 0.0
        for depth, (_, points) in enumerate(top_first):
            loss += points * sum(dist[depth + 1:])
        self._loss[groups] = loss
        return loss


def know(state: ZlodejState, seat: int) -> Knowledge:
    """The seat's knowledge of the position (public facts, its own cards and the discard pile)."""
    seen = dict.fromkeys(RANKS, 0)

    def see(cards: list) -> None:  # type: ignore[type-arg]
        for card in cards:
            seen[card.rank] += 1

    see(state.hands[seat])
    for group in state.open_piles[seat]:
        see(group)
    for pile in state.locked[seat]:
        see(pile)
    for other in range(state.players):
        if other == seat:
            continue
        for group in state.open_piles[other][-VISIBLE_GROUPS:]:
            see(group)
        see([pile[-1] for pile in state.locked[other]])
    see(state.discard)
    unseen = {rank: max(0, NATURALS_PER_DECK * state.decks - seen[rank]) for rank in RANKS}
    unseen[JOKER_RANK] = max(0, JOKERS_PER_DECK * state.decks - seen[JOKER_RANK])
    order = [(seat + step) % state.players for step in range(1, state.players)]
    order = [o for o in order if not state.resigned[o]]
    return Knowledge(seat=seat, players=state.players, unseen=unseen, pool=sum(unseen.values()),
                     hands=[len(h) for h in state.hands], drawing_over=state.drawing_over, order=order)


def miss_among(pool: int, thieves: int, hand: int) -> float:
    """The chance that ``hand`` cards drawn from ``pool`` unseen cards hold none of ``thieves``."""
    chance = 1.0
    for i in range(min(hand, pool)):
        chance *= max(0.0, (pool - thieves - i) / (pool - i))
    return chance


@dataclass
class Inferred(Knowledge):
    """Knowledge sharpened by what each opponent passed by (the public log, ``ZlodejState.passed``).

    A player who ended a turn while an open top group or the discard top was of rank r, keeping
    cards in hand, almost surely kept no natural card of rank r (laying it would have stolen the
    group or taken the card: level normal never keeps one). So an opponent's hand is its kept cards,
    of ranks it passed by never, and the fresh cards it drew since, any unseen card alike.

    Jokers alike: level normal never keeps a joker when another seat's top group of
    ``JOKER_TEMPTATION`` points or more is there to steal with it (0 of 719 such turn ends kept one,
    80 seeded games), so such a turn end counts the joker among the ranks passed by."""
    kept: list[int] = field(default_factory=list)  # per seat: cards of its hand known to avoid ``passed``
    passed: list[frozenset[int]] = field(default_factory=list)
    known: list[tuple[int, ...]] = field(default_factory=list)  # per seat: ranks of its public draws

    def holds(self, seat: int, rank: int) -> float:
        key = (seat, rank)
        if key not in self._holds:
            hand = self.hands[seat]
            self._holds[key] = 0.0 if hand <= 0 else self._chance(seat, rank, hand)
        return self._holds[key]

    def _misses(self, seat: int, rank: int, hand: int) -> tuple[float, float]:
        """The chances that the seat's hand holds no natural of ``rank``, and no joker (a card it
        drew from the public stock is known; the rest are unseen cards)."""
        known = self.known[seat] if self.known else ()
        if rank != JOKER_RANK and rank in known:
            return 0.0, 0.0 if JOKER_RANK in known else 1.0
        hand -= len(known)
        old = max(0, min(self.kept[seat] - len(known), hand))
        fresh = hand - old
        avoided = self.passed[seat]
        # the kept cards come from the unseen cards of the ranks not passed by (jokers included)
        narrow = self.pool - sum(self.unseen[r] for r in avoided)
        naturals = self.unseen[rank] if rank != JOKER_RANK else 0
        no_natural = miss_among(self.pool, naturals, fresh)
        if rank not in avoided:
            no_natural *= miss_among(narrow, naturals, old)
        jokers = self.unseen[JOKER_RANK]
        no_joker = miss_among(self.pool, jokers, fresh)
        if JOKER_RANK not in avoided:
            no_joker *= miss_among(narrow, jokers, old)
        if JOKER_RANK in known:
            no_joker = 0.0
        return no_natural, no_joker

    def _chance(self, seat: int, rank: int, hand: int) -> float:
        no_natural, no_joker = self._misses(seat, rank, hand)
        return 1.0 - no_natural * (1.0 - JOKER_THREAT * (1.0 - no_joker))

    def avoids(self, seat: int) -> tuple[int, frozenset[int]]:
        """How many of the seat's unknown cards (beside its public draws) are known to avoid which
        ranks (for consistent re-deals)."""
        known = len(self.known[seat]) if self.known else 0
        return max(0, min(self.kept[seat] - known, self.hands[seat] - known)), self.passed[seat]


def infer(state: ZlodejState, seat: int) -> Inferred:
    """``know`` with each opponent's passes (what it kept at its last turn end) taken into account."""
    base = know(state, seat)
    unseen = dict(base.unseen)
    # the stock turned over from the discard pile, and what the others drew from it, are public
    public = [c for o in range(state.players) if o != seat for c in state.public_draws[o]]
    if state.stock_public:
        public += state.stock
    for card in public:
        unseen[card.rank] = max(0, unseen[card.rank] - 1)
    known = [() if o == seat else tuple(c.rank for c in state.public_draws[o]) for o in range(state.players)]
    kept = [0 if o == seat else max(0, state.kept[o]) for o in range(state.players)]
    passed = [frozenset() if o == seat else
              frozenset(state.passed[o]) | ({JOKER_RANK} if state.offered[o] >= JOKER_TEMPTATION else set())
              for o in range(state.players)]
    return Inferred(seat=base.seat, players=base.players, unseen=unseen, pool=sum(unseen.values()),
                    hands=base.hands, drawing_over=base.drawing_over, order=base.order, kept=kept, passed=passed,
                    known=known)
