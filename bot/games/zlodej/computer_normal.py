"""The Zloděj computer at level normal: it plans its whole turn and knows what it leaves exposed.

At each decision it looks at every way to finish its turn (the lays it can chain: steal a group,
then cover it with a pair, or lock the pile with a joker; then end, or throw a card) on a model of
the table that holds only what the seat may know (``knowledge``). Each finished turn is judged by

- the points it moves onto the seat's pile, with a bonus for points taken from a rival (most from
  the one who looks to lead),
- minus the points the open pile is expected to lose before the seat's next turn: each opponent
  in turn may hold a card of the top group's rank or a joker, and a stolen top bares the group
  beneath (``Knowledge.expected_loss``, from the unseen cards only),
- minus a share of everything left open (it stays at risk turn after turn until a joker locks it),
- plus what the cards kept in hand are worth later (a pair more than a single, a joker most) and
  the fresh cards a refill brings while drawing lasts,
- minus the chance that the next player picks up the thrown card.

The first action of the best turn is played; the next decision plans again from what it then sees.
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Any

from bot.engine.cards import JOKER_RANK, Card
from bot.engine.rng import Rng

from .actions import Action, AddToGroup, Discard, EndTurn, NewGroup, Steal, TakeDiscard
from .knowledge import VALUE, Knowledge, know
from .state import HAND_SIZE, ZlodejState, card_value
from .view import VISIBLE_GROUPS

JK = JOKER_RANK


@dataclass(frozen=True)
class Weights:
    """How a finished turn is judged (see the module's docstring)."""
    pair: float = 1.0  # a card kept in hand with another of its rank, share of its points
    single: float = 0.25  # a lone card kept in hand
    joker: float = 100.0  # a joker kept in hand while drawing lasts (its points, a later haul and lock)
    draw: float = 10.0  # each card the refill brings
    open_risk: float = 0.2  # share of the open pile lost in later rounds (until a lock)
    deny: float = 0.35  # worth of a point taken from a rival, beside its worth to the seat
    leader: float = 0.25  # more for a point taken from the rival who looks to lead
    feed: float = 0.3  # the thrown card's points, times the chance the next player takes it
    pair_end: float = 0.9  # once nobody draws
    single_end: float = 0.35
    joker_end: float = 55.0


WEIGHTS = Weights()
HIDDEN_CARD = 7.7  # the average points of a natural card (for the others' unseen cards)
LOW_CIRCULATION = 15  # cards in the stock and the discard pile together from which every turn lays if it can

Group = tuple[int, int]  # (rank, points)
# ("new", r, k, j) ("add", r, k, j) ("steal", o, r, k, j) ("take", r, k, j) ("end",) ("discard", r):
# k natural cards of rank r and j jokers
Step = tuple[Any, ...]


@dataclass(frozen=True)
class Node:
    hand: tuple[int, ...]  # ranks, sorted
    mine: tuple[Group, ...]  # the seat's open pile, bottom first
    tops: tuple[tuple[Group, ...], ...]  # per seat its visible groups, top first
    discard: tuple[int, ...]  # ranks, top last
    gain: int  # points moved onto the seat's pile this turn
    taken: tuple[int, ...]  # per seat, points taken from it this turn
    laid: bool


def group_of(cards: list[Card]) -> Group:
    return cards[0].rank, sum(card_value(c) for c in cards)


def root(state: ZlodejState, seat: int) -> Node:
    tops = tuple(() if o == seat else tuple(group_of(g) for g in reversed(state.open_piles[o][-VISIBLE_GROUPS:]))
                 for o in range(state.players))
    return Node(hand=tuple(sorted(c.rank for c in state.hands[seat])),
                mine=tuple(group_of(g) for g in state.open_piles[seat]), tops=tops,
                discard=tuple(c.rank for c in state.discard), gain=0, taken=(0,) * state.players,
                laid=state.laid)


def estimated_points(state: ZlodejState, seat: int) -> float:
    """A seat's pile total as the others see it: visible groups and locked jokers, the rest averaged."""
    pile = state.open_piles[seat]
    visible = pile[-VISIBLE_GROUPS:]
    points = float(sum(card_value(c) for g in visible for c in g))
    points += HIDDEN_CARD * sum(len(g) for g in pile[:-VISIBLE_GROUPS])
    for locked in state.locked[seat]:
        points += card_value(locked[-1]) + HIDDEN_CARD * (len(locked) - 1)
    return points


def lays(node: Node, seat: int) -> list[Step]:
    """The lays the seat can make in ``node`` (card counts per rank; jokers one at a time)."""
    counts = Counter(node.hand)
    jokers = counts.pop(JK, 0)
    own = node.mine[-1][0] if node.mine else None
    steps: list[Step] = []
    targets = [(o, t[0][0]) for o, t in enumerate(node.tops) if o != seat and t]
    top = node.discard[-1] if node.discard else None
    for rank, n in sorted(counts.items()):
        for k in range(1, n + 1):
            if k >= 2:
                steps.append(("new", rank, k, 0))
            if rank == own:
                steps.append(("add", rank, k, 0))
            steps += [("steal", o, rank, k, 0) for o, r in targets if r == rank]
            if rank == top:
                steps.append(("take", rank, k, 0))
        if jokers:
            steps.append(("new", rank, n, 1))
            if rank == own:
                steps.append(("add", rank, n, 1))
            steps += [("steal", o, rank, n, 1) for o, r in targets if r == rank]
            if rank == top:
                steps.append(("take", rank, n, 1))
    if jokers:
        if own is not None:
            steps.append(("add", own, 0, 1))
        steps += [("steal", o, r, 0, 1) for o, r in targets]
        if top is not None:
            steps.append(("take", top, 0, 1))
        if jokers >= 2 and own is None and top is None and not targets:
            steps.append(("new", JK, 0, 2))
    return steps


def after(node: Node, step: Step) -> Node:
    """The node after a lay (the engine's rules on ranks and points)."""
    kind = step[0]
    rank, k, j = step[-3], step[-2], step[-1]
    hand = list(node.hand)
    for _ in range(k):
        hand.remove(rank)
    for _ in range(j):
        hand.remove(JK)
    points = k * VALUE[rank] + j * VALUE[JK]
    gain = points
    tops, discard, taken = node.tops, node.discard, node.taken
    if kind == "steal":
        target = step[1]
        stolen = tops[target][0][1]
        gain += stolen
        tops = tops[:target] + (tops[target][1:],) + tops[target + 1:]
        taken = taken[:target] + (taken[target] + stolen,) + taken[target + 1:]
        points += stolen
    elif kind == "take":
        gain += VALUE[discard[-1]]
        points += VALUE[discard[-1]]
        discard = discard[:-1]
    mine = node.mine
    if j:
        mine = ()  # the joker locks the whole pile
    elif mine and mine[-1][0] == rank:
        mine = mine[:-1] + ((rank, mine[-1][1] + points),)
    else:
        mine = (*mine, (rank, points))
    return Node(hand=tuple(hand), mine=mine, tops=tops, discard=discard, gain=node.gain + gain,
                taken=taken, laid=True)


class Planner:
    """Judges every way the seat can finish its turn; see the module's docstring."""

    def __init__(self, state: ZlodejState, seat: int, weights: Weights = WEIGHTS,
                 knowledge: Knowledge | None = None) -> None:
        self.seat = seat
        self.w = weights
        self.k = knowledge or know(state, seat)
        self.drawing_over = state.drawing_over
        estimates = {o: estimated_points(state, o) for o in range(state.players)
                     if o != seat and not state.resigned[o]}
        leader = max(estimates, key=lambda o: (estimates[o], -o)) if estimates else None
        self.deny = [0.0 if o == seat else weights.deny + (weights.leader if o == leader else 0.0)
                     for o in range(state.players)]
        self.next_seat = next((o for o in self.k.order if self.k.hands[o] > 0), None)
        self._memo: dict[Node, tuple[float, tuple[Step, ...]]] = {}
        self._keep: dict[tuple[int, ...], float] = {}
        self._standing: dict[tuple[int, tuple[int, ...], tuple[Group, ...]], float] = {}

    def keep(self, hand: list[int]) -> float:
        key = tuple(hand)
        if key not in self._keep:
            self._keep[key] = self._kept(hand)
        return self._keep[key]

    def _kept(self, hand: list[int]) -> float:
        counts = Counter(hand)
        w = self.w
        if self.drawing_over:
            pair, single, joker, draw = w.pair_end, w.single_end, w.joker_end, 0.0
        else:
            pair, single, joker, draw = w.pair, w.single, w.joker, w.draw
        value = draw * max(0, HAND_SIZE - len(hand))
        for rank, n in counts.items():
            if rank == JK:
                value += joker * n
            else:
                value += VALUE[rank] * n * (pair if n >= 2 else single)
        return value

    def judge(self, node: Node, last: Step) -> float:
        """A finished turn's worth (``last`` is the end, the throw, or the lay that emptied the hand)."""
        hand = list(node.hand)
        feed = 0.0
        if last[0] == "discard":
            hand.remove(last[1])
            if self.next_seat is not None:
                feed = self.w.feed * self.k.holds(self.next_seat, last[1]) * VALUE[last[1]]
        return self.standing(node) + self.keep(hand) - feed

    def standing(self, node: Node) -> float:
        """The part of a finished turn's worth that does not depend on the hand kept."""
        key = (node.gain, node.taken, node.mine)
        if key not in self._standing:
            deny = sum(t * d for t, d in zip(node.taken, self.deny, strict=True))
            open_points = sum(p for _, p in node.mine)
            loss = self.k.expected_loss(node.mine)
            self._standing[key] = node.gain + deny - loss - self.w.open_risk * open_points
        return self._standing[key]

    def best(self, node: Node) -> tuple[float, tuple[Step, ...]]:
        """The best way to finish the turn from ``node``: (worth, steps)."""
        if node in self._memo:
            return self._memo[node]
        options: list[tuple[float, tuple[Step, ...]]] = []
        if not node.hand:
            options.append((self.judge(node, ("end",)), ()))
        else:
            if node.laid:
                options.append((self.judge(node, ("end",)), (("end",),)))
            for rank in sorted(set(node.hand)):
                options.append((self.judge(node, ("discard", rank)), (("discard", rank),)))
            for step in lays(node, self.seat):
                value, rest = self.best(after(node, step))
                options.append((value, (step, *rest)))
        result = max(options, key=lambda o: o[0])  # the first of equals: the options come in a fixed order
        self._memo[node] = result
        return result

    def first_steps(self, node: Node) -> list[tuple[float, tuple[Step, ...]]]:
        """Every first step with the best turn that starts with it, best first."""
        options: list[tuple[float, tuple[Step, ...]]] = []
        if node.hand:
            if node.laid:
                options.append((self.judge(node, ("end",)), (("end",),)))
            for rank in sorted(set(node.hand)):
                options.append((self.judge(node, ("discard", rank)), (("discard", rank),)))
            for step in lays(node, self.seat):
                value, rest = self.best(after(node, step))
                options.append((value, (step, *rest)))
        options.sort(key=lambda o: -o[0])  # stable: equals keep their fixed order
        return options


def to_action(hand: list[Card], step: Step) -> Action:
    """The engine action of a planned step, with cards picked from ``hand`` (lowest first)."""
    kind = step[0]
    if kind == "end":
        return EndTurn()
    if kind == "discard":
        return Discard(min(c for c in hand if c.rank == step[1]))
    rank, k, j = step[-3], step[-2], step[-1]
    naturals = sorted(c for c in hand if c.rank == rank and not c.is_joker)[:k] if rank != JK else []
    cards = tuple(naturals + sorted(c for c in hand if c.is_joker)[:j])
    if kind == "new":
        return NewGroup(cards)
    if kind == "add":
        return AddToGroup(cards)
    if kind == "steal":
        return Steal(step[1], cards)
    return TakeDiscard(cards)


def must_lay(state: ZlodejState) -> bool:
    """Whether the turn must start with a lay when it can: nearly every card lies in the piles and
    the few left only go round (stock, hands, discard). A table where nobody lays what it could
    would throw and draw the same cards for ever; a lay brings the end nearer."""
    return not state.laid and not state.drawing_over and len(state.stock) + len(state.discard) <= LOW_CIRCULATION


def plan(state: ZlodejState, seat: int, weights: Weights = WEIGHTS) -> tuple[float, tuple[Step, ...]]:
    planner = Planner(state, seat, weights)
    node = root(state, seat)
    if must_lay(state):
        laying = [option for option in planner.first_steps(node) if option[1][0][0] not in ("discard", "end")]
        if laying:
            return laying[0]
    return planner.best(node)


def choose(state: ZlodejState, seat: int, legal: list[Action], rng: Rng) -> Action:
    _, steps = plan(state, seat)
    if steps:
        action = to_action(state.hands[seat], steps[0])
        if action in legal:
            return action
    # not reached with the engine's rules; a safe fallback all the same
    return EndTurn() if EndTurn() in legal else min((a for a in legal if isinstance(a, Discard)),
                                                     key=lambda d: (card_value(d.card), d.card))
