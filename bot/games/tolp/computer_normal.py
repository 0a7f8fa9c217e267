"""The Tölp computer at level normal: plays every sensible combination instead of passing, spends
its wild cards while natural cards are left to carry them (nobody may go out on a wild card),
leads low and keeps its high cards for the end, and in the exchange asks for the ranks that make
its sets bigger before falling back on "högt".

It sees only its own hand and what the table shows (``observe(seat)`` holds the same)."""
from __future__ import annotations

from collections import Counter

from bot.engine.cards import Card
from bot.engine.core import Seat
from bot.engine.rng import Rng

from .actions import Action, Ask, Claim, Give, High, Pass, Play
from .combos import combination_of, is_wild
from .exchange import exchange_of
from .state import TolpState

ACE = 14
# ranks asked for in the exchange: only those worth collecting (a set of tens or better)
ASK_FROM = 10


def choose(state: TolpState, seat: Seat, legal: list[Action], rng: Rng) -> Action:
    """The computer's action for ``seat`` among its (non-empty) ``legal`` actions."""
    if state.phase == "exchange":
        return exchange_choice(state, seat, legal)
    return play_choice(state, seat, legal)


def exchange_choice(state: TolpState, seat: Seat, legal: list[Action]) -> Action:
    """Lay down the least useful naturals (lone low cards before pairs); then ask for the ranks
    of our high sets and claim what the partner has, else say "högt"."""
    ex = exchange_of(state, seat)
    assert ex is not None
    wild = state.wild()
    hand = state.hands[seat]
    counts = Counter(c.rank for c in hand if not is_wild(c, wild))
    if not ex.laid:
        gives = [a for a in legal if isinstance(a, Give)]
        return min(gives, key=lambda g: sorted((counts[c.rank] > 1, c.rank) for c in g.cards)[::-1])
    asked = {rank for rank, _ in ex.asked}
    found = [(rank, n) for rank, n in ex.asked if n]
    wanted = sorted((r for r, n in counts.items() if n >= 2 and r >= ASK_FROM and r not in asked),
                    key=lambda r: (-counts[r], -r))
    if wanted and len(ex.asked) < 2 and sum(n for _, n in found) < ex.count:
        return Ask(wanted[0])
    if found:
        ranks: list[int] = []
        for rank, n in sorted(found, key=lambda f: -f[0]):
            ranks += [rank] * n
        claim = Claim(tuple(ranks[:ex.count]))
        if claim in legal:
            return claim
    return High()


def _spare_wilds(hand: list[Card], wild: frozenset[int]) -> int:
    """How many wild cards must go out with naturals soon: each natural rank left can carry
    them, but the last play must be natural, so wilds beyond (ranks - 1) would strand."""
    wilds = sum(1 for c in hand if is_wild(c, wild))
    ranks = len({c.rank for c in hand if not is_wild(c, wild)})
    return wilds - max(0, ranks - 2)


def play_cost(state: TolpState, seat: Seat, play: Play) -> tuple[float, int, int]:
    """How much laying ``play`` now costs the seat's hand (lower is better)."""
    wild = state.wild()
    hand = state.hands[seat]
    counts = Counter(c.rank for c in hand if not is_wild(c, wild))
    combo = combination_of(play.cards, wild)
    naturals = combo.size - combo.wilds
    split = counts[combo.rank] - naturals  # naturals of that rank left behind
    left = len(hand) - combo.size
    # wilds spent: good while they are spare, a waste otherwise
    wild_cost = combo.wilds * (-1.5 if _spare_wilds(hand, wild) > 0 else 2.0)
    opponents_low = min((len(state.hands[s]) for s in state.active() if s != seat), default=99)
    high_cost = 3.0 if combo.rank >= ACE and left > 2 and opponents_low > 3 else 0.0  # aces take late tricks
    score = combo.rank / 2 + wild_cost + high_cost + (2.5 if split else 0.0)
    if not state.table:
        score -= combo.size * 0.8  # lead many cards at once
    if left == 0:
        score -= 100.0  # going out
    return (score, combo.rank, -combo.size)


def play_choice(state: TolpState, seat: Seat, legal: list[Action]) -> Action:
    wild = state.wild()
    hand = state.hands[seat]
    plays = [a for a in legal if isinstance(a, Play)]
    if not plays:
        return legal[0]
    best = min(plays, key=lambda p: play_cost(state, seat, p))
    if not state.table:
        return best
    combo = combination_of(best.cards, wild)
    left = len(hand) - combo.size
    spare = _spare_wilds(hand, wild)
    wilds_held = sum(1 for c in hand if is_wild(c, wild))
    opponents_low = min((len(state.hands[s]) for s in state.active() if s != seat), default=99)
    # pass only to keep a high card or a set that is not worth breaking now
    worth_passing = (combo.rank >= ACE - 1 and left > 3 and combo.wilds == 0 and opponents_low > 4
                     and len(hand) > 6) or (combo.wilds > 0 and spare <= 0 and wilds_held and left > 3)
    return Pass() if worth_passing and Pass() in legal else best
