"""The Zloděj computer at level strong: determinized Monte-Carlo search within what the seat knows.

Each sample re-deals everything the seat cannot see (the others' hands, the stock, the others'
deeper groups and the contents of their locked piles) at random from the computer's stream, in
the counts the table shows. Each candidate (the normal computer's best lays, ending the turn, its
discard) is played in the same samples, the rest of the seat's turn and one turn of every other
player are played out by the easy computer, and the candidate that leaves the seat furthest ahead
(its points minus the others' average, minus what its open pile leaves exposed) is played."""
from __future__ import annotations

from bot.engine.rng import Rng

from . import computer
from .actions import Action, AddToGroup, EndTurn, NewGroup, Steal, TakeDiscard
from .computer_normal import RULES, discard, exposed, judge, unseen_counts
from .computer_normal import choose as normal_choice
from .state import ZlodejState

SAMPLES = 8  # re-deals of the unseen cards per decision
CANDIDATES = 4  # lays searched besides ending the turn and the discard
MAX_STEPS = 80  # a rollout's cap


def standing(world: ZlodejState, seat: int) -> float:
    unseen, pool = unseen_counts(world, seat)
    others = [world.pile_points(o) for o in range(world.players) if o != seat]
    return world.pile_points(seat) - sum(others) / max(1, len(others)) - exposed(world, seat, unseen, pool)


def rollout(world: ZlodejState, seat: int, first: Action, rng: Rng) -> float:
    RULES.apply(world, seat, first)
    left_turn = world.turn != seat
    for _ in range(MAX_STEPS):
        if world.finished or (left_turn and world.turn == seat):
            break
        turn = world.turn
        legal = RULES.legal_actions(world, turn)
        RULES.apply(world, turn, computer.choose(world, turn, legal, rng))
        left_turn = left_turn or world.turn != seat
    return standing(world, seat)


def choose(state: ZlodejState, seat: int, legal: list[Action], rng: Rng) -> Action:
    unseen, pool = unseen_counts(state, seat)
    lays = [a for a in legal if isinstance(a, NewGroup | AddToGroup | Steal | TakeDiscard)]
    lays.sort(key=lambda a: (-judge(state, seat, a, unseen, pool), str(a)))
    candidates: list[Action] = [*lays[:CANDIDATES]]
    candidates.append(EndTurn() if EndTurn() in legal else discard(state, seat, unseen))
    favourite = normal_choice(state, seat, legal, rng)
    if favourite not in candidates:
        candidates.append(favourite)
    if len(candidates) == 1:
        return candidates[0]
    totals = [0.0] * len(candidates)
    for n in range(SAMPLES):
        world = RULES.scramble_hidden(state, seat, rng)
        world.rng = Rng(f"{rng.seed}/rollout/{n}")
        for i, candidate in enumerate(candidates):
            totals[i] += rollout(RULES.copy(world), seat, candidate, Rng(f"{rng.seed}/policy/{n}"))
    best = max(range(len(candidates)), key=lambda i: (totals[i], candidates[i] == favourite, -i))
    return candidates[best]
