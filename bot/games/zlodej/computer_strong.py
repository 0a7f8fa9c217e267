"""The Zloděj computer at level strong: determinized Monte-Carlo search within what the seat knows.

The candidates are the normal computer's best few first steps (each with the best turn that
starts with it). Each sample re-deals everything the seat cannot see (``scramble_hidden``: the
others' hands, the stock, the others' deeper groups and the insides of their locked piles) from
the unseen cards, in the counts the table shows, with the computer's own stream; every candidate
is played in the same samples: the rest of the seat's turn as planned, then every other player's
turn by the normal computer's plan (it decides from its own seat's knowledge in the sample), up to
the seat's next turn. A sample is scored by the seat's points minus the others' average, plus what
the normal computer's plan for that next turn is worth (what it can steal back, what it leaves
exposed); at the end of the game by the final points. The candidate with the best mean is played
when it beats the normal plan's favourite by a clear margin (``SWITCH_MARGIN``), else the favourite.

The budget is counted in samples, never in time, so a replay decides the same."""
from __future__ import annotations

from bot.engine.rng import Rng
from bot.errors import GameMasterError

from .actions import Action, Discard, EndTurn
from .computer_normal import Planner, Step, must_lay, plan, root, to_action
from .engine import ZlodejGame
from .play import cheapest_discard
from .state import ZlodejState

RULES = ZlodejGame()
SAMPLES = 6  # re-deals of the unseen cards per decision
CANDIDATES = 3  # first steps searched
CLEAR_LEAD = 20.0  # a first step the normal plan values this far above the next is played unsearched
SWITCH_MARGIN = 8.0  # points per sample another candidate must gain over the normal plan's favourite
MAX_TURNS = 12  # turns of the others played out in a sample (a cap; one round is far fewer)


def fast_copy(state: ZlodejState) -> ZlodejState:
    """A copy sharing the (immutable) cards."""
    return ZlodejState(
        players=state.players, decks=state.decks, rng=Rng(state.rng.seed, state.rng.draws),
        hands=[h[:] for h in state.hands], stock=state.stock[:], discard=state.discard[:],
        open_piles=[[g[:] for g in pile] for pile in state.open_piles],
        locked=[[p[:] for p in piles] for piles in state.locked], resigned=state.resigned[:],
        turn=state.turn, laid=state.laid, drawing_over=state.drawing_over, finished=state.finished)


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
    value, _ = Planner(world, seat).best(root(world, seat))
    return standing(world, seat) + value


def candidates(state: ZlodejState, seat: int, legal: list[Action]) -> list[tuple[float, tuple[Step, ...], Action]]:
    """The normal plan's best first steps (distinct legal actions), best first."""
    found: list[tuple[float, tuple[Step, ...], Action]] = []
    seen: set[Action] = set()
    options = Planner(state, seat).first_steps(root(state, seat))
    if must_lay(state):  # as the normal computer: lay when it can (``must_lay``)
        options = [o for o in options if o[1][0][0] not in ("discard", "end")] or options
    for value, steps in options:
        action = to_action(state.hands[seat], steps[0])
        if action in seen or action not in legal:
            continue
        seen.add(action)
        found.append((value, steps, action))
        if len(found) == CANDIDATES:
            break
    return found


def choose(state: ZlodejState, seat: int, legal: list[Action], rng: Rng) -> Action:
    found = candidates(state, seat, legal)
    if not found:
        return EndTurn() if EndTurn() in legal else min((a for a in legal if isinstance(a, Discard)),
                                                         key=lambda d: (d.card.rank, d.card))
    if len(found) == 1 or found[0][0] - found[1][0] >= CLEAR_LEAD:
        return found[0][2]
    totals = [0.0] * len(found)
    for _ in range(SAMPLES):
        world = RULES.scramble_hidden(state, seat, rng)
        for i, (_, steps, _) in enumerate(found):
            totals[i] += rollout(fast_copy(world), seat, steps)
    # A few samples are noisy: the normal plan's favourite stays unless another candidate does better
    # in the samples by a clear margin on average.
    best = max(range(len(found)), key=lambda i: (totals[i], -i))
    if totals[best] - totals[0] < SWITCH_MARGIN * SAMPLES:
        best = 0
    return found[best][2]
