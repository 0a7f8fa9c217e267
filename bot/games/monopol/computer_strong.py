"""The Monopol computer at level strong: the normal computer's plans, checked by short rollouts.

At the decisions that shape a game of Monopol (buy or let the bank auction a deed, how far to
bid, which trade to offer, whether to accept one, how far to build, whether to leave jail) it
takes a few candidates from the normal computer's heuristics and plays each out in the same
WORLDS worlds: the card decks re-shuffled and the dice drawn from the computer's own stream (the
game's dice to come and the decks' order are never read), every seat played by the normal
computer for ROUNDS rounds (the seat itself by the building plan being tried, where that is the
question). A world is judged by each player's net worth plus the rent its deeds can be expected
to bring, less the rent it can be expected to pay, over the rounds left; a candidate scores the
seat's value minus the best other player's, averaged over the worlds, and the best candidate is
played when it beats the normal computer's own choice by more than MARGIN. Every other decision
(claiming rent, raising money, placing a building won at auction) is the normal computer's.

The budget is counted in worlds and rounds, never in time, so a replay decides the same. Trade
offers are only ones the normal computer would accept in the receiver's seat and never one a
receiver has already declined; it never accepts a trade that hands the proposer a colour set
unless it gets one itself."""
from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from itertools import combinations

from bot.engine.rng import Rng
from bot.games.monopol import computer_normal as normal
from bot.games.monopol import rules
from bot.games.monopol.actions import Action, Bid, Buildings, Bundle, OnSquare, Simple, Trade
from bot.games.monopol.board import (
    AUCTION_START,
    DEEDS,
    GROUPS,
    SQUARES,
    STATION_RENTS,
    UTILITY_MULTIPLIERS,
)
from bot.games.monopol.computer import RULES
from bot.games.monopol.state import (
    BUY,
    END,
    ROLL,
    Auction,
    Claim,
    Debt,
    MonopolState,
    MortgageChoice,
    PendingTrade,
)

WORLDS = 8  # rollouts per candidate (the same worlds for every candidate)
ROUNDS = 4  # rounds each rollout plays ahead
LOOK = 12  # rounds of expected rent counted at a rollout's end (fewer when the game ends sooner)
MARGIN = 15.0  # what a candidate must gain over the normal choice to be played instead (kroner)
SAFE_BUY = 400  # cash left after buying above which buying needs no check
SPARE = 100  # cash an owner keeps when a rollout's end counts its sets as built up
PLIES_PER_ROUND = 60  # a rollout's action cap per round and player

# building plans: (cash kept, houses per street), the normal computer's first
PLANS: tuple[tuple[int, int], ...] = ((normal.RESERVE, normal.MAX_HOUSES), (60, normal.MAX_HOUSES),
                                      (60, 5), (350, normal.MAX_HOUSES))
CASH_STEPS = (0, 50, 100, 200, 300, 500)  # cash added to a swap of deeds, either way


@dataclass(frozen=True)
class Plan:
    """How the seat builds in a rollout: kept cash and the most houses per street."""

    reserve: int
    houses: int


Policy = Callable[[MonopolState, int], list[Action]]


def choose(s: MonopolState, seat: int, legal: list[Action], rng: Rng) -> Action:
    favourite = normal.choose(s, seat, legal, rng)
    search = Search(s, seat, rng.seed)
    action = _decide(s, seat, favourite, search)
    if action is not None and RULES.is_legal(s, seat, action):
        return action
    return favourite


def _decide(s: MonopolState, seat: int, favourite: Action, search: Search) -> Action | None:
    if any(claim.owner == seat for claim in s.claims) or (s.debts and s.debts[0].debtor == seat):
        return None
    if s.trade and rules.trade_of(s).target == seat:
        return _answer(s, seat, search)
    if s.placement or s.choices:
        return None
    if s.auction:
        return _bid(s, seat, search) if seat in rules.bidders(s) else None
    if s.turn != seat:
        return None
    if s.phase == BUY:
        return _buy(s, seat, favourite, search)
    if s.phase == ROLL and s.in_jail[seat]:
        return _jail(s, seat, favourite, search)
    if s.phase in (ROLL, END):
        built = _build(s, seat, search)
        if built is not None:
            return built
        if s.phase == END:
            return _offer(s, seat, search)
        return Simple("roll")
    return None


# ------------------------------------------------------------------ rollouts
def clone(s: MonopolState) -> MonopolState:
    """A copy to play out (the engine's own ``copy`` goes through JSON: too slow for rollouts)."""
    auction = s.auction
    return MonopolState(
        players=s.players, options=dict(s.options), rng=Rng(s.rng.seed, s.rng.draws), cash=list(s.cash),
        position=list(s.position), bank=s.bank, pot=s.pot, in_jail=list(s.in_jail), jail_tries=list(s.jail_tries),
        jail_cards=[list(c) for c in s.jail_cards], bankrupt=list(s.bankrupt), out_order=list(s.out_order),
        owner=list(s.owner), level=list(s.level), mortgaged=list(s.mortgaged),
        decks={k: list(v) for k, v in s.decks.items()}, bank_houses=s.bank_houses, bank_hotels=s.bank_hotels,
        turn=s.turn, first=s.first, phase=s.phase, doubles=s.doubles, round=s.round, last_roll=list(s.last_roll),
        auction=Auction(auction.lot, auction.square, list(auction.eligible), auction.high, auction.bidder,
                        list(auction.passed)) if auction else None,
        auction_queue=list(s.auction_queue), debts=[Debt(d.debtor, d.creditor, d.amount) for d in s.debts],
        choices=[MortgageChoice(c.seat, c.square) for c in s.choices],
        placement=dict(s.placement) if s.placement else None,
        claims=[Claim(c.payer, c.owner, c.square, c.amount) for c in s.claims],
        trade=PendingTrade(s.trade.proposer, s.trade.text) if s.trade else None,
        offered=list(s.offered), declined=list(s.declined), finished=s.finished, recent=[])


def world(s: MonopolState, seed: str, n: int) -> MonopolState:
    """The ``n``-th world: the position with the decks re-shuffled from their sorted contents
    (their order is hidden) and dice of its own (the game's dice to come are hidden too)."""
    w = clone(s)
    for name in sorted(w.decks):
        cards = sorted(w.decks[name])
        Rng(f"{seed}/deck/{name}/{n}").shuffle(cards)
        w.decks[name] = cards
    w.rng = Rng(f"{seed}/dice/{n}")
    return w


def step(w: MonopolState, seat: int, wishes: list[Action]) -> bool:
    """Apply the first legal of ``wishes`` (else the first listed legal action) for ``seat``."""
    for action in wishes:
        if RULES.is_legal(w, seat, action):
            RULES.apply(w, seat, action)
            return True
    legal = RULES.legal_actions(w, seat)
    if not legal:
        return False
    RULES.apply(w, seat, legal[0])
    return True


def own_turn(w: MonopolState, seat: int) -> bool:
    """Whether ``seat`` acts now only because it is its turn (nothing else waits on it)."""
    return (w.turn == seat and not (w.debts or w.placement or w.choices or w.auction)
            and not any(c.owner == seat for c in w.claims)
            and not (w.trade and rules.trade_of(w).target == seat))


def usual(w: MonopolState, seat: int) -> list[Action]:
    """The normal computer in a rollout. It leaves out the normal computer's offers: cash for the
    street that completes its set, which the normal computer always declines (so playing them
    changes nothing but time)."""
    if w.phase == END and own_turn(w, seat):
        return [*normal.improve(w, seat), Simple("end")]
    return normal.wishes(w, seat)


def play_out(w: MonopolState, me: int, mine: Policy, rounds: int) -> None:
    """Play ``rounds`` rounds on: the normal computer everywhere, ``mine`` in seat ``me``."""
    end = w.round + rounds
    for _ in range(rounds * w.players * PLIES_PER_ROUND):
        if w.finished or w.round >= end:
            return
        acting = sorted(RULES.watchers(w) | RULES.to_act(w))
        if not acting:
            return
        seat = acting[0]
        if not step(w, seat, mine(w, seat) if seat == me else usual(w, seat)):
            seat = min(RULES.to_act(w))
            if not step(w, seat, mine(w, seat) if seat == me else usual(w, seat)):
                return


def values(w: MonopolState) -> list[float]:
    """Each player's net worth plus the rent its deeds should bring, less what it should pay, in
    the rounds left (at most LOOK); a bankrupt is worth nothing. An unbuilt or part-built set is
    counted as built up as far as its owner's spare cash goes (up to three houses a street)."""
    limit = int(w.options.get("max_rounds") or 0)
    left = max(0, min(LOOK, limit - w.round)) if limit else LOOK
    alive = w.solvent()
    per_round = [0.0] * w.players  # what one opponent pays each player per round
    if left and not w.finished:
        levels = built_up(w)
        for sq in DEEDS:
            holder = w.owner[sq]
            if holder >= 0 and not w.mortgaged[sq] and not w.bankrupt[holder]:
                per_round[holder] += expected_rent(w, sq, holder, levels) * normal.LANDING
    total = sum(per_round)
    out = []
    for p in range(w.players):
        if w.bankrupt[p]:
            out.append(0.0)
            continue
        flow = per_round[p] * (len(alive) - 1) - (total - per_round[p])
        out.append(rules.net_worth(w, p) + flow * left)
    return out


def built_up(w: MonopolState) -> list[int]:
    """The levels the streets would have if every owner spent its cash above SPARE on houses for
    its sets (the best-paying set first, evenly, up to three a street)."""
    levels = list(w.level)
    for p in w.solvent():
        spare = w.cash[p] - SPARE
        groups = sorted(normal.sets_of(w.owner, p), key=lambda g: -SQUARES[GROUPS[g][0]].rents[3])
        for group in groups:
            squares = GROUPS[group]
            if any(w.mortgaged[x] for x in squares):
                continue
            cost = SQUARES[squares[0]].house_cost * len(squares)
            while spare >= cost and min(levels[x] for x in squares) < normal.MAX_HOUSES:
                for x in squares:
                    levels[x] += 1 if levels[x] < normal.MAX_HOUSES else 0
                spare -= cost
    return levels


def expected_rent(w: MonopolState, square: int, holder: int, levels: list[int]) -> float:
    sq = SQUARES[square]
    count = rules.count_owned(w, sq.group, holder)
    if sq.kind == "station":
        return float(STATION_RENTS[count - 1])
    if sq.kind == "utility":
        return 7.0 * UTILITY_MULTIPLIERS[count - 1]
    if count == len(GROUPS[sq.group]):
        return float(sq.rents[levels[square]] * (2 if levels[square] == 0 else 1))
    return float(sq.rents[0])


def standing(w: MonopolState, me: int) -> float:
    """The seat's value less the others': half the best of them, half their mean."""
    v = values(w)
    others = [v[p] for p in range(w.players) if p != me]
    if not others:
        return v[me]
    return v[me] - 0.5 * max(others) - 0.5 * sum(others) / len(others)


@dataclass
class Search:
    """The worlds of one decision, shared by its candidates (common dice: fair comparisons)."""

    state: MonopolState
    seat: int
    seed: str
    asked: int = 0

    def score(self, first: Sequence[Action], mine: Policy | None = None) -> float:
        """The mean standing after the seat plays ``first`` (what of it is legal) and the game
        goes on for ROUNDS rounds, the seat then playing ``mine`` (the normal computer)."""
        policy = mine or usual
        total = 0.0
        for n in range(WORLDS):
            w = world(self.state, f"{self.seed}/{self.asked}", n)
            for action in first:
                if RULES.is_legal(w, self.seat, action):
                    RULES.apply(w, self.seat, action)
            play_out(w, self.seat, policy, ROUNDS)
            total += standing(w, self.seat)
        return total / WORLDS

    def best(self, candidates: list[tuple[Sequence[Action], Policy | None]]) -> int:
        """The index of the best candidate; the first (the normal choice) unless another beats it
        by MARGIN."""
        self.asked += 1
        scores = [self.score(first, mine) for first, mine in candidates]
        best = max(range(len(scores)), key=lambda i: (scores[i], -i))
        return best if scores[best] > scores[0] + MARGIN else 0


# ------------------------------------------------------------------ the decisions
def _answer(s: MonopolState, seat: int, search: Search) -> Action:
    """Accept or decline an offer: never hand a set over for nothing, else whatever plays out better."""
    trade = rules.trade_of(s)
    proposer = s.trade.proposer if s.trade else -1
    owner = normal.after_trade(s, proposer, trade)
    if normal.sets_of(owner, proposer) - normal.sets_of(s.owner, proposer) and not (
            normal.sets_of(owner, seat) - normal.sets_of(s.owner, seat)):
        return Simple("decline trade")
    if s.cash[seat] - trade.get.cash < 0:
        return Simple("decline trade")
    default = Simple("accept") if normal.good_trade(s, seat, trade, proposer) else Simple("decline trade")
    other = Simple("decline trade") if default == Simple("accept") else Simple("accept")
    return [default, other][search.best([([default], None), ([other], None)])]


def _buy(s: MonopolState, seat: int, favourite: Action, search: Search) -> Action:
    square = s.position[seat]
    if s.cash[seat] < SQUARES[square].price:
        return Simple("decline")
    if s.cash[seat] - SQUARES[square].price >= SAFE_BUY:
        return Simple("buy")
    other = Simple("decline") if favourite == Simple("buy") else Simple("buy")
    return [favourite, other][search.best([([favourite], None), ([other], None)])]


def _bid(s: MonopolState, seat: int, search: Search) -> Action:
    """The normal computer's bid, or passing when that plays out better; where the normal computer
    would pass, raising by the least the rules allow when holding the high bid plays out better
    (the others go on bidding as the normal computer would)."""
    auction = s.auction
    assert auction is not None
    low = max(AUCTION_START, auction.high + 1)
    if low > s.cash[seat]:
        return Simple("pass")
    if auction.lot != "deed":
        return normal.bid(s, seat)
    if low * 2 <= SQUARES[auction.square].price and s.cash[seat] - low >= SAFE_BUY:
        return Bid(low)  # a bargain: no need to look
    usual = normal.bid(s, seat)  # the normal computer's bid up to what the deed is worth to it, or pass
    choices: list[Action] = [usual, Bid(low) if usual == Simple("pass") else Simple("pass")]
    return choices[search.best([([choice], None) for choice in choices])]


def _jail(s: MonopolState, seat: int, favourite: Action, search: Search) -> Action:
    leave = [a for a in (Simple("jail card"), Simple("jail pay")) if RULES.is_legal(s, seat, a)]
    if not leave:
        return Simple("roll")
    other = Simple("roll") if favourite != Simple("roll") else leave[0]
    return [favourite, other][search.best([([favourite], None), ([other], None)])]


def plan_builds(s: MonopolState, seat: int, plan: Plan) -> list[Action]:
    """The plan's next buildings: the best-paying set first, evenly, while cash above the plan's
    reserve is left; then lifting mortgages (with twice the reserve left)."""
    out: list[Action] = []
    cash = s.cash[seat]
    groups = sorted(normal.sets_of(s.owner, seat), key=lambda g: -SQUARES[GROUPS[g][0]].rents[3])
    for group in groups:
        if any(s.mortgaged[x] for x in GROUPS[group]):
            continue
        for sq in sorted(GROUPS[group], key=lambda x: (s.level[x], -SQUARES[x].rents[3])):
            if s.level[sq] < plan.houses and cash - SQUARES[sq].house_cost >= plan.reserve:
                out.append(Buildings("build", sq, 1))
    for sq in DEEDS:
        if s.owner[sq] == seat and s.mortgaged[sq] and cash - rules.lift_cost(sq) >= plan.reserve * 2:
            out.append(OnSquare("unmortgage", sq))
    return out


def planned(plan: Plan) -> Policy:
    """The normal computer, building and lifting mortgages by ``plan`` on its own turn."""

    def wishes(w: MonopolState, seat: int) -> list[Action]:
        listed = usual(w, seat)
        if w.phase not in (ROLL, END) or w.in_jail[seat] and w.phase == ROLL or not own_turn(w, seat):
            return listed
        rest = [a for a in listed if not (isinstance(a, Buildings) and a.verb == "build")
                and not (isinstance(a, OnSquare) and a.verb == "unmortgage")]
        return [*plan_builds(w, seat, plan), *rest]
    return wishes


def _first_group_build(s: MonopolState, seat: int, builds: list[Action]) -> list[Action]:
    """The plan's buildings on its first set, as one action per street in the order built."""
    first = [b for b in builds if isinstance(b, Buildings)]
    if not first:
        return [b for b in builds[:1]]
    group = SQUARES[first[0].square].group
    return [b for b in first if SQUARES[b.square].group == group]


def _build(s: MonopolState, seat: int, search: Search) -> Action | None:
    """Build (or lift a mortgage) by the building plan that plays out best, a set at a time."""
    if not normal.sets_of(s.owner, seat) and not any(s.owner[sq] == seat and s.mortgaged[sq] for sq in DEEDS):
        return None
    plans = [Plan(reserve, houses) for reserve, houses in PLANS]
    firsts = [_first_group_build(s, seat, plan_builds(s, seat, plan)) for plan in plans]
    distinct: list[int] = []
    for i, first in enumerate(firsts):
        if all(firsts[j] != first for j in distinct):
            distinct.append(i)
    if len(distinct) == 1:
        chosen = distinct[0]
    else:
        best = search.best([(firsts[i], planned(plans[i])) for i in distinct])
        chosen = distinct[best]
    first = firsts[chosen]
    if not first:
        return None
    action = first[0]
    if isinstance(action, Buildings) and len(first) > 1:
        bulk = Buildings("build", action.square, len(first))
        if RULES.is_legal(s, seat, bulk):
            return bulk
    return action


# ------------------------------------------------------------------ trade offers
def swaps(s: MonopolState, seat: int) -> list[Trade]:
    """Offers that would complete a set of ours and that the normal computer would accept in the
    receiver's seat: a set for a set (or two), cash added either way. Offers already declined
    are left out (the normal computer's own offer, cash for a street, is a candidate beside them)."""
    declined = set(s.declined)
    out: list[Trade] = []
    cash = s.cash[seat]
    for other in s.solvent():
        if other == seat:
            continue
        wanted = [g for g, squares in GROUPS.items() if SQUARES[squares[0]].kind == "street"
                  and any(s.owner[x] == seat for x in squares)
                  and all(s.owner[x] in (seat, other) for x in squares)
                  and any(s.owner[x] == other for x in squares)
                  and not rules.set_has_buildings(s, squares[0])]
        theirs = [g for g, squares in GROUPS.items() if SQUARES[squares[0]].kind == "street"
                  and any(s.owner[x] == other for x in squares)
                  and all(s.owner[x] in (seat, other) for x in squares)
                  and any(s.owner[x] == seat for x in squares)
                  and not rules.set_has_buildings(s, squares[0])]
        for group in wanted:
            get = tuple(sorted(x for x in GROUPS[group] if s.owner[x] == other))
            gives: list[tuple[int, ...]] = []
            for count in (1, 2):
                for pair in combinations([g for g in theirs if g != group], count):
                    gives.append(tuple(sorted(x for g in pair for x in GROUPS[g] if s.owner[x] == seat)))
            for give in gives:
                for trade in _priced(s, seat, other, give, get, cash):
                    if str(trade) not in declined:
                        out.append(trade)
                        break
    return out


def _priced(s: MonopolState, seat: int, other: int, give: tuple[int, ...], get: tuple[int, ...],
            cash: int) -> list[Trade]:
    """The swap of ``give`` for ``get`` at the best price for us that the receiver would accept
    (the most of their cash, else the least of ours), and the next two after it."""
    found: list[Trade] = []
    steps = [(0, c) for c in reversed(CASH_STEPS[1:])] + [(c, 0) for c in CASH_STEPS]
    for ours, theirs in steps:
        if ours > cash - normal.RESERVE // 2 or theirs > s.cash[other]:
            continue
        trade = Trade(other, Bundle(cash=ours, deeds=give), Bundle(cash=theirs, deeds=get))
        if normal.good_trade(s, other, trade, seat) and RULES.is_legal(s, seat, trade):
            found.append(trade)
            if len(found) == 3:
                break
    return found


def _offer(s: MonopolState, seat: int, search: Search) -> Action:
    """At the end of the turn, once a round: the offer that plays out best. The normal computer's
    own choice comes first (its cash offer, else none): the rollouts' receivers decline cash for
    a set's last street, as the normal computer does, but a casual player may take it."""
    if s.trade or s.offered[seat] >= s.round:
        return Simple("end")
    candidates: list[Action] = [*normal.offer(s, seat), Simple("end")]
    for trade in swaps(s, seat):
        if trade not in candidates:
            candidates.append(trade)
    if len(candidates) == 1:
        return candidates[0]
    candidates = candidates[:6]
    return candidates[search.best([([c], None) for c in candidates])]
