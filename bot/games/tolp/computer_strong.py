"""The Tölp computer at level strong: determinized Monte-Carlo search within what the seat knows.

The cards it cannot see (the others' hands, the cards set aside) are exactly the deck minus its
own hand and every card played, so each sample re-deals those unseen cards (in their known
counts) at random from the computer's stream; cards played are gone. Every candidate play is
tried in the same samples and the round is played out by the normal computer for everyone; the
candidate with the best average finishing place is played. A fixed number of samples keeps the
decision reproducible and well under a second. The exchange is decided as at level normal."""
from __future__ import annotations

from dataclasses import replace

from bot.engine.core import Seat
from bot.engine.rng import Rng

from . import play
from .actions import Action, Pass, Play
from .computer_normal import exchange_choice, play_choice, play_cost
from .engine import TolpGame
from .state import Exchange, TolpState

RULES = TolpGame()
SAMPLES = 6  # re-deals of the unseen cards per decision
CANDIDATES = 4  # plays searched (the normal computer's favourites, and passing)
MAX_STEPS = 400  # a rollout's cap (a round never needs this many)


def clone(state: TolpState) -> TolpState:
    """A copy for a rollout (cards are immutable, so the lists are enough)."""
    return replace(
        state, options=dict(state.options), hands=[list(h) for h in state.hands], set_aside=list(state.set_aside),
        table=[(s, list(c)) for s, c in state.table], passed=list(state.passed), ranking=list(state.ranking),
        stuck=list(state.stuck), titles=list(state.titles), protocol=[list(r) for r in state.protocol],
        kungs=list(state.kungs), streak=list(state.streak),
        exchanges=[Exchange.load(e.dump()) for e in state.exchanges])


def place_of(state: TolpState, seat: Seat, round_no: int) -> int | None:
    """The seat's finishing place in round ``round_no`` (0 first), once known."""
    if state.round != round_no or state.phase != "play":
        return state.protocol[round_no - 1].index(seat)
    if seat in state.ranking:
        return state.ranking.index(seat)
    return None


def rollout(world: TolpState, seat: Seat, first: Action) -> int:
    """Play ``first`` for ``seat``, then the rest of the round by the normal computer."""
    round_no = world.round
    events: list = []  # type: ignore[type-arg]
    play.act(world, seat, first, events)
    for _ in range(MAX_STEPS):
        place = place_of(world, seat, round_no)
        if place is not None:
            return place
        turn = world.turn
        assert turn is not None
        legal = play.legal_plays(world, turn)
        if not legal:  # a sampled hand of wild cards only, which the real one is not: judge by cards left
            break
        play.act(world, turn, play_choice(world, turn, legal), events)
    placed = sum(1 for s in world.ranking if s is not None)
    ahead = sum(1 for s in world.active() if len(world.hands[s]) < len(world.hands[seat]))
    return placed + ahead


def choose(state: TolpState, seat: Seat, legal: list[Action], rng: Rng) -> Action:
    if state.phase == "exchange":
        return exchange_choice(state, seat, legal)
    plays = sorted((a for a in legal if isinstance(a, Play)), key=lambda p: play_cost(state, seat, p))
    candidates: list[Action] = [*plays[:CANDIDATES]]
    if Pass() in legal:
        candidates.append(Pass())
    favourite = play_choice(state, seat, legal)
    if favourite not in candidates:
        candidates.append(favourite)
    if len(candidates) == 1:
        return candidates[0]
    totals = dict.fromkeys(range(len(candidates)), 0.0)
    for n in range(SAMPLES):
        world = RULES.scramble_hidden(state, seat, rng)
        world.rng = Rng(f"{rng.seed}/rollout/{n}")  # never the game's own dice beyond this round
        for i, candidate in enumerate(candidates):
            totals[i] += rollout(clone(world), seat, candidate)
    best = min(range(len(candidates)), key=lambda i: (totals[i], candidates[i] != favourite, i))
    return candidates[best]
