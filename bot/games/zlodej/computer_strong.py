"""The Zloděj computer at level strong: the normal computer's plan with sharper knowledge, and a
determinized Monte-Carlo search of the endgame within what the seat knows.

The candidates are the best few first steps of the normal computer's plan, made with what the
public log tells (``knowledge.infer``: a rank an opponent passed by at its last turn end is not
among the cards it kept, nor a joker when a rich steal was passed by; a stock turned over from the
discard pile is known, and so is every card an opponent drew from it). Once nobody draws
(``in_endgame``) every decision with more than one candidate is searched: each sample re-deals
everything the seat cannot see (``scramble_hidden``: the others' hands less their public draws,
the stock while hidden, the others' deeper groups and the insides of their locked piles)
from the unseen cards, in the counts the table shows, with the computer's own stream, and makes
each opponent's hand agree with its passes (``consistent``); every candidate is played in the same
samples, the rest of the game by the normal computer's plan for everyone (each decides from its
own seat's knowledge in the sample), and scored by the share of first place (a little for the
lead over the best other breaks ties). The candidate that wins most is played when it beats the
plan's favourite by a clear margin (``ENDGAME_MARGIN``), else the favourite.

Before the endgame the same search one round deep (``MIDGAME``: scored by the points against the
others' average plus the plan's worth of the next turn) measured no better than the plan, so the
plan's favourite is played (docs/bench/zlodej.md).

The budget is counted in samples, never in time, so a replay decides the same."""
from __future__ import annotations

from collections.abc import Callable

from bot.engine.cards import Card
from bot.engine.rng import Rng
from bot.errors import GameMasterError

from .actions import Action, Discard, EndTurn
from .computer_normal import WEIGHTS, Planner, Step, Weights, must_lay, plan, root, to_action
from .engine import ZlodejGame
from .knowledge import infer
from .play import cheapest_discard
from .state import ZlodejState

RULES = ZlodejGame()
SAMPLES = 6  # re-deals of the unseen cards per decision
CANDIDATES = 3  # first steps searched
CLEAR_LEAD = 20.0  # a first step the plan values this far above the next is played unsearched
SWITCH_MARGIN = 8.0  # points per sample another candidate must gain over the plan's favourite
MAX_TURNS = 12  # turns of the others played out in a sample (a cap; one round is far fewer)
ENDGAME_SAMPLES = 12  # re-deals per decision once nobody draws: every sample is played to the end
ENDGAME_CANDIDATES = 4
ENDGAME_STOCK = -1  # the endgame search starts once the stock holds no more cards than this (or drawing is over)
ENDGAME_MARGIN = 0.5  # samples' worth of wins another candidate must gain over the plan's favourite
MAX_END_TURNS = 80  # a cap on an endgame sample (every hand is played out long before)
LEAD = 0.001  # an endgame sample's worth of each point of lead over the best other (breaks ties)
PUBLIC_STOCK_SEARCH = 20  # searched like the endgame once the stock is public and holds no more cards than this
MIDGAME = False  # search before the endgame too (one round deep): measured no better, off
STRONG_WEIGHTS = WEIGHTS


def fast_copy(state: ZlodejState) -> ZlodejState:
    """A copy sharing the (immutable) cards."""
    return ZlodejState(
        players=state.players, decks=state.decks, rng=Rng(state.rng.seed, state.rng.draws),
        hands=[h[:] for h in state.hands], stock=state.stock[:], discard=state.discard[:],
        open_piles=[[g[:] for g in pile] for pile in state.open_piles],
        locked=[[p[:] for p in piles] for piles in state.locked], resigned=state.resigned[:],
        turn=state.turn, laid=state.laid, drawing_over=state.drawing_over, finished=state.finished,
        kept=state.kept[:], passed=[r[:] for r in state.passed], offered=state.offered[:],
        stock_public=state.stock_public, public_draws=[d[:] for d in state.public_draws])


def consistent(world: ZlodejState, seat: int, rng: Rng) -> ZlodejState:
    """Make a re-deal agree with every opponent's passes: of the cards it kept at its last turn end
    (``ZlodejState.kept``) none is a natural of a rank it passed by (``passed``). Cards of such ranks
    beyond what its fresh draws can explain are swapped, at random, with cards from the other
    places the seat cannot see that carry no rank of any kind (the stock while hidden, locked
    insides); its public draws (``ZlodejState.public_draws``) stay."""
    k = infer(world, seat)
    for other in k.order:
        old, avoided = k.avoids(other)
        if not old or not avoided:
            continue
        hand = world.hands[other]
        known = len(world.public_draws[other])  # the re-deal put its public draws first
        fresh = len(hand) - known - old
        bad = [i for i, c in enumerate(hand) if i >= known and c.rank in avoided]
        excess = len(bad) - fresh
        if excess <= 0:
            continue
        places: list[tuple[list[Card], int]] = [] if world.stock_public else [
            (world.stock, i) for i in range(len(world.stock))]
        for o in k.order:
            for pile in world.locked[o]:
                places += [(pile, i) for i in range(len(pile) - 1)]
        good = [(where, i) for where, i in places if where[i].rank not in avoided]
        rng.shuffle(bad)
        for i in bad[:excess]:
            if not good:
                break
            where, j = good.pop(rng.randint(0, len(good) - 1))
            hand[i], where[j] = where[j], hand[i]
    return world


def play_steps(world: ZlodejState, seat: int, steps: tuple[Step, ...]) -> None:
    """Apply planned steps while the seat is to act; a step the sample does not allow ends the turn."""
    for step in steps:
        if world.finished or world.turn != seat:
            return
        try:
            RULES.apply(world, seat, to_action(world.hands[seat], step))
        except (GameMasterError, ValueError):
            break
    if not world.finished and world.turn == seat:
        # the plan ran out (a step was not possible in this sample): finish the turn plainly
        action: Action = EndTurn() if world.laid else cheapest_discard(world, seat)
        RULES.apply(world, seat, action)


def play_turn(world: ZlodejState, seat: int) -> None:
    _, steps = plan(world, seat)
    play_steps(world, seat, steps)


def standing(world: ZlodejState, seat: int) -> float:
    others = [world.pile_points(o) for o in range(world.players) if o != seat and not world.resigned[o]]
    return world.pile_points(seat) - sum(others) / max(1, len(others))


def rollout(world: ZlodejState, seat: int, steps: tuple[Step, ...]) -> float:
    play_steps(world, seat, steps)
    for _ in range(MAX_TURNS):
        if world.finished or world.turn == seat:
            break
        play_turn(world, world.turn)
    if world.finished or world.turn != seat:
        return standing(world, seat)
    value, _ = Planner(world, seat, STRONG_WEIGHTS, infer(world, seat)).best(root(world, seat))
    return standing(world, seat) + value


def candidates(state: ZlodejState, seat: int, legal: list[Action], weights: Weights | None = None,
               count: int = CANDIDATES) -> list[tuple[float, tuple[Step, ...], Action]]:
    """The plan's best first steps (distinct legal actions), best first."""
    found: list[tuple[float, tuple[Step, ...], Action]] = []
    seen: set[Action] = set()
    options = Planner(state, seat, weights or STRONG_WEIGHTS, infer(state, seat)).first_steps(root(state, seat))
    if must_lay(state):  # as the normal computer: lay when it can (``must_lay``)
        options = [o for o in options if o[1][0][0] not in ("discard", "end")] or options
    for value, steps in options:
        action = to_action(state.hands[seat], steps[0])
        if action in seen or action not in legal:
            continue
        seen.add(action)
        found.append((value, steps, action))
        if len(found) == count:
            break
    return found


def final_worth(world: ZlodejState, seat: int) -> float:
    """A finished sample: a share of first place, and a little for the lead over the best other."""
    points = [world.pile_points(o) for o in range(world.players) if not world.resigned[o] or o == seat]
    mine = world.pile_points(seat)
    best = max(points)
    win = 1.0 / points.count(best) if mine == best else 0.0
    others = [world.pile_points(o) for o in range(world.players) if o != seat and not world.resigned[o]]
    return win + LEAD * (mine - max(others, default=0))


def play_out(world: ZlodejState, seat: int, steps: tuple[Step, ...]) -> float:
    """The rest of the seat's turn as planned, then the whole rest of the game by the normal plan."""
    play_steps(world, seat, steps)
    for _ in range(MAX_END_TURNS):
        if world.finished:
            break
        play_turn(world, world.turn)
    return final_worth(world, seat)


def in_endgame(state: ZlodejState) -> bool:
    """Every sample is played to the final count: once nobody draws, or once the stock is public
    (turned over from the discard pile: every card still to be drawn is known, order and all) and
    short enough for the play-outs to fit the budget (``PUBLIC_STOCK_SEARCH``)."""
    return (state.drawing_over or len(state.stock) <= ENDGAME_STOCK
            or (state.stock_public and len(state.stock) <= PUBLIC_STOCK_SEARCH))


def endgame_choice(state: ZlodejState, seat: int, found: list[tuple[float, tuple[Step, ...], Action]],
                   rng: Rng) -> Action:
    """Near the end every sample is played out to the final count: the candidate that wins most."""
    return sampled_choice(state, seat, found, rng, ENDGAME_SAMPLES, play_out, ENDGAME_MARGIN)


def sampled_choice(state: ZlodejState, seat: int, found: list[tuple[float, tuple[Step, ...], Action]], rng: Rng,
                   samples: int, score: Callable[[ZlodejState, int, tuple[Step, ...]], float],
                   margin: float) -> Action:
    """Every candidate scored in the same consistent re-deals; the plan's favourite (the first)
    stays unless another does better over the samples by ``margin`` in all."""
    totals = [0.0] * len(found)
    for _ in range(samples):
        world = consistent(RULES.scramble_hidden(state, seat, rng), seat, rng)
        for i, (_, steps, _) in enumerate(found):
            totals[i] += score(fast_copy(world), seat, steps)
    best = max(range(len(found)), key=lambda i: (totals[i], -i))
    if totals[best] - totals[0] < margin:
        best = 0
    return found[best][2]


def choose(state: ZlodejState, seat: int, legal: list[Action], rng: Rng) -> Action:
    endgame = in_endgame(state)
    found = candidates(state, seat, legal, count=ENDGAME_CANDIDATES if endgame else CANDIDATES)
    if not found:
        return EndTurn() if EndTurn() in legal else min((a for a in legal if isinstance(a, Discard)),
                                                         key=lambda d: (d.card.rank, d.card))
    if len(found) > 1 and endgame and ENDGAME_SAMPLES > 0:
        return endgame_choice(state, seat, found, rng)
    if not MIDGAME or SAMPLES <= 0 or len(found) == 1 or found[0][0] - found[1][0] >= CLEAR_LEAD:
        return found[0][2]
    # a few samples are noisy: another candidate must do better by a clear margin on average
    return sampled_choice(state, seat, found, rng, SAMPLES, rollout, SWITCH_MARGIN * SAMPLES)
