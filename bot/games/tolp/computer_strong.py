"""The Tölp computer at level strong: determinized Monte-Carlo search within what the seat knows.

The cards it cannot see (the others' hands, the cards set aside) are exactly the deck minus its
own hand and every card played, so each sample re-deals those unseen cards (in their known
counts) at random from the computer's stream, within what the seat knows (``sample_world``:
with wild cards, a seat stuck holds only wild cards and everyone else still in the round holds
a natural one); cards played are gone.
Every candidate play is tried in the same samples and the round is played out by the normal computer for everyone; the
candidate with the best average finishing place is played. A fixed number of samples keeps the
decision reproducible and well under a second. The exchange is decided as at level normal."""
from __future__ import annotations

from dataclasses import replace

from bot.engine.cards import Card
from bot.engine.core import Seat
from bot.engine.rng import Rng

from . import play
from .actions import Action, Pass, Play
from .combos import is_wild
from .computer_normal import exchange_choice, play_choice, play_cost
from .state import Exchange, TolpState

SAMPLES = 6  # re-deals of the unseen cards per decision
CANDIDATES = 4  # plays searched (the normal computer's favourites, and passing)
MAX_STEPS = 400  # a rollout's cap (a round never needs this many)
TRIES = 8  # re-deals tried until every player in the round holds a natural card (then the last)


def clone(state: TolpState) -> TolpState:
    """A copy for a rollout (cards are immutable, so the lists are enough)."""
    return replace(
        state, options=dict(state.options), hands=[list(h) for h in state.hands], set_aside=list(state.set_aside),
        table=[(s, list(c)) for s, c in state.table], passed=list(state.passed), ranking=list(state.ranking),
        stuck=list(state.stuck), titles=list(state.titles), protocol=[list(r) for r in state.protocol],
        kungs=list(state.kungs), streak=list(state.streak),
        exchanges=[Exchange.load(e.dump()) for e in state.exchanges])


def sample_world(state: TolpState, seat: Seat, rng: Rng) -> TolpState:
    """A re-deal of the cards ``seat`` cannot see that agrees with what it knows.

    The unseen cards (the others' hands and the cards set aside) are dealt again in their known
    counts, except that with wild cards a seat stuck on them holds wild cards (nothing else) and
    every other player still in the round holds a natural card (one holding only wild cards would
    be stuck); re-deals that miss this are dealt again, up to ``TRIES`` times. Only the unseen
    cards as a whole are read, never where they lie. Without wild cards this is the engine's
    ``scramble_hidden``, deal for deal."""
    wild = state.wild()
    world = clone(state)
    others = [s for s in range(state.players) if s != seat]
    pool = sorted([c for s in others for c in state.hands[s]] + state.set_aside)
    fixed: dict[int, list[Card]] = {s: [] for s in others}
    for s in state.stuck:
        if s != seat:
            wilds = [c for c in pool if is_wild(c, wild)][:len(state.hands[s])]
            for card in wilds:
                pool.remove(card)
            fixed[s] = wilds
    active = set(state.active())
    for _ in range(TRIES):
        rng.shuffle(pool)
        rest = list(pool)
        for s in others:
            need = len(state.hands[s]) - len(fixed[s])
            world.hands[s] = sorted(fixed[s] + rest[:need])
            del rest[:need]
        world.set_aside = sorted(rest)
        if all(any(not is_wild(c, wild) for c in world.hands[s]) for s in others if s in active):
            break
    return world


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
        world = sample_world(state, seat, rng)
        world.rng = Rng(f"{rng.seed}/rollout/{n}")  # never the game's own dice beyond this round
        for i, candidate in enumerate(candidates):
            totals[i] += rollout(clone(world), seat, candidate)
    best = min(range(len(candidates)), key=lambda i: (totals[i], candidates[i] != favourite, i))
    return candidates[best]
