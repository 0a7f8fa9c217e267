"""The strong computer for Tjuv och Polis: the normal planner, with the escape played for.

Between normal computers the first thief to get out of town wins most games, and the police win
the games where nobody gets out. So the strong level plays both sides around the escape:

- The police keep two policemen as sentries where, whatever the die shows after a thief boards,
  one of them is likely to land on a telegraph: two squares by the telegraph with two doors (C8)
  cover four rolls of six between them (a walk is exact and never crosses itself, so a square
  there reaches the telegraph with two rolls). They do not stand on a telegraph while nobody
  escapes: a policeman on a telegraph only keeps a thief waiting (and must leave after two
  turns), one a roll away stops the escape and arrests the thief with all he carries. The radio
  car and the third policeman chase as the normal police do.
- A thief boards a train, boat or plane only when the police are unlikely to stop him: the share
  of die rolls with which a free policeman could end his walk on a telegraph at the police's next
  turn (every policeman's walks searched, not distances) must be at most a third; otherwise he
  keeps out of reach and tries again.
- Whether to rob is played out: when a thief's roll lets him rob, or his move robs, his move is
  set against the best move of the other kind (a robbery, or none) in a few rollouts to the
  game's end with normal playing every seat, and the other move is taken only when it wins
  clearly more first places. The rollouts are paired (the same dice for both moves) and deal
  the other thieves' stashes afresh from the stream, so they read nothing this seat cannot see.
- In the last rounds before the round limit the police's move is played out the same way against
  the best moves of two other pieces (every thief's stashes dealt afresh: the police see none),
  and another piece moves only when that wins clearly more first places.
- In the last rounds a thief's move is played out the same way against his two next best moves
  (to other squares) and the best move of the other kind, robbery or none.

It decides from the public table and the thief's own stashes only (what ``observe`` shows), with
randomness from the stream it is given (the rollouts' dice too, never the game's own).
"""
from __future__ import annotations

import itertools
import random
from collections.abc import Sequence
from functools import cache

from bot.engine.rng import Rng

from . import computer_normal as normal
from .actions import Action, Arrest, ChooseNest, Move, PlaceCar, Ride, Roll
from .board import board
from .computer import FAR, distances
from .engine import TjuvGame
from .moves import landings_by_roll
from .state import CAR, ESCAPING, FREE, HOUSE, Police, TjuvState
from .view import role_of, scramble, seat_of

SENTRIES = 2  # policemen kept where they can reach a telegraph on most rolls
COVER_WEIGHT = 4500.0  # police score per share of rolls the policemen cover (a telegraph within a roll)
SENTRY_STEP = 250.0  # police score per step the sentries still have to walk to their posts
BOARD_RISK = 0.34  # a thief boards only if the police stop him with at most this chance
ARREST = 10000.0  # normal's score of a move that arrests (plus the money): kept as it is
LATE_ROB = 2  # rounds before the limit until which a thief whom leaving cannot put first robs on
ROLLOUTS = 4  # rollouts (paired worlds) for each of the two moves when a thief weighs a robbery
ROLLOUT_MARGIN = 0.25  # the share of first place by which the other move must win to be taken
CONFIRM = 4  # further paired rollouts that must confirm a win of the other move before it is taken
HORIZON = 40  # rounds a rollout plays at most; an unended one is scored by the money as it stands
ROLLOUT_ACTIONS = 3000  # actions a rollout plays at most
POLICE_LATE = 6  # rounds before the limit from which the police weigh their move by rollouts
POLICE_OTHERS = 2  # other pieces whose best moves the police weigh against their own
THIEF_LATE = 12  # rounds before the limit from which a thief weighs his move against his next best ones
THIEF_OTHERS = 2  # a thief's next best moves (by normal's scores) weighed late against his own


def choose(state: TjuvState, seat: int, legal: list[Action], rng: Rng) -> Action:
    if any(isinstance(a, Arrest | ChooseNest | PlaceCar) for a in legal):
        return normal.choose(state, seat, legal, rng)
    role = role_of(state, seat)
    rand = random.Random(rng.randint(0, 2**62))
    jitter = {a: rand.random() * 0.5 for a in legal}
    if role == 0:
        action, scores = _police_scored(state, legal, jitter)
        if scores and state.max_rounds and state.round > state.max_rounds - POLICE_LATE:
            action = police_rollouts(state, action, scores, rng)
        return action
    action, scores = _thief_scored(state, role, legal, jitter, leaving(state, role))
    if state.phase != "move" or not scores or not isinstance(action, Move | Ride):
        return action
    if THIEF_LATE and state.max_rounds and state.round > state.max_rounds - THIEF_LATE:
        return late_thief(state, role, action, scores, rng)
    return rob_or_not(state, role, action, scores, rng) if ROLLOUTS else action


# ------------------------------------------------------------------------------ telegraph reach
@cache
def telegraph_rolls(square: str) -> frozenset[int]:
    """The die rolls with which a policeman on ``square`` can end his walk on a telegraph, on an
    otherwise empty map."""
    b = board()
    man = Police("P1", square)
    town = TjuvState(players=2, rng=Rng("telegraph"), max_rounds=0, police=[man], thieves=[])
    return frozenset(r for r, squares in landings_by_roll(town, man, 6).items() if squares & b.telegraphs)


@cache
def sentry_posts(sentries: int) -> tuple[tuple[str, ...], ...]:
    """Sets of ``sentries`` street squares, each reaching a telegraph with the most rolls (two),
    that together cover the most rolls."""
    b = board()
    most = max(len(telegraph_rolls(sq)) for sq, kind in b.kind.items() if kind == "street")
    squares = [sq for sq, kind in b.kind.items() if kind == "street" and len(telegraph_rolls(sq)) == most]

    def cover(posts: tuple[str, ...]) -> int:
        return len(set().union(*(telegraph_rolls(sq) for sq in posts)))
    best = max(cover(posts) for posts in itertools.combinations(squares, sentries))
    return tuple(posts for posts in itertools.combinations(squares, sentries) if cover(posts) == best)


def stop_chance(state: TjuvState) -> float:
    """The share of die rolls with which a free policeman can end his walk on a telegraph at the
    police's next turn, walking around the pieces as they stand (the radio car stops nobody); 1
    when one stands on a telegraph already (an escape then fails at once)."""
    b = board()
    rolls: set[int] = set()
    for piece in state.police:
        if piece.id == CAR or piece.status != FREE or piece.at is None:
            continue
        if piece.at in b.telegraphs:
            return 1.0
        for roll, squares in landings_by_roll(state, piece, 6).items():
            if squares & b.telegraphs:
                rolls.add(roll)
    return len(rolls) / 6


# ------------------------------------------------------------------------------------ police
def guard_value(squares: list[str]) -> float:
    """How well policemen on ``squares`` watch the telegraphs: the share of rolls with which one
    of them reaches a telegraph, less the steps the best placed two still have to walk to a pair
    of sentry posts."""
    covered = set().union(*(telegraph_rolls(sq) for sq in squares)) if squares else set()
    value = COVER_WEIGHT * len(covered) / 6
    sentries = min(SENTRIES, len(squares))
    if sentries:
        here = [sq if sq != HOUSE else board().gate for sq in squares]
        steps = min(sum(distances(post).get(at, FAR) for at, post in zip(men, posts, strict=True))
                    for posts in sentry_posts(sentries) for men in itertools.permutations(here, sentries))
        value -= SENTRY_STEP * steps
    return value


def _police(state: TjuvState, legal: list[Action], jitter: dict[Action, float]) -> Action:
    return _police_scored(state, legal, jitter)[0]


def _police_scored(state: TjuvState, legal: list[Action], jitter: dict[Action, float],
                   ) -> tuple[Action, dict[Move | Ride, float]]:
    """The police's action, and this level's score of every move when it chose among the pieces'
    moves by them (none for a roll, a ride or an action normal takes as it is)."""
    b = board()
    action, scores = normal._police(state, legal, jitter)
    if not scores:
        return action, {}
    escaping = any(t.status == ESCAPING for t in state.thieves)
    men = {p.id: p.at for p in state.police if p.id != CAR and p.status == FREE and p.at is not None}
    before = guard_value(list(men.values()))

    def score(move: Move | Ride) -> float:
        value = scores[move]
        if escaping or value >= ARREST or move.piece == CAR:  # stop the escape, arrest, chase: as normal
            return value
        if move.to in b.telegraphs:
            value -= 3000.0  # no standing on a telegraph (normal's guard): one a roll away catches him
        after = [move.to if pid == move.piece else at for pid, at in men.items()]
        return value + guard_value(after) - before
    moving = [a for a in legal if isinstance(a, Move | Ride)]
    rides = [a for a in moving if isinstance(a, Ride)]
    if rides and isinstance(action, Ride):
        return max(rides, key=score), {}
    if any(isinstance(a, Roll) for a in legal):
        return Roll(), {}
    if not moving:
        return action, {}
    strong = {a: score(a) for a in moving}
    return max(moving, key=strong.__getitem__), strong


# ------------------------------------------------------------------------------------ thieves
def leaving(state: TjuvState, role: int) -> bool:
    """Normal's rule for leaving town (rich enough, or the round limit near), except that a thief
    not yet rich enough who would leave no richer than the police or the other thief carry robs on
    while ``LATE_ROB`` rounds remain: leaving then cannot win (docs/bench/tjuv.md, session 7)."""
    thief = state.thief(role)
    wealth = thief.money + sum(thief.stashes.values())
    enough = wealth >= normal._enough(state, role)
    if enough or not normal._time_short(state):
        return enough
    return not (state.round <= state.max_rounds - LATE_ROB and wealth <= normal.best_rival(state, role))


def _thief(state: TjuvState, role: int, legal: list[Action], jitter: dict[Action, float], leave: bool) -> Action:
    return _thief_scored(state, role, legal, jitter, leave)[0]


def _thief_scored(state: TjuvState, role: int, legal: list[Action], jitter: dict[Action, float], leave: bool,
                  ) -> tuple[Action, dict[Move | Ride, float]]:
    """The thief's action, and normal's scores of his moves (none when normal took an action as
    it is: a fetch, a hide, a wait)."""
    b = board()
    action, scores = normal._thief(state, role, legal, jitter, leave=leave)
    if not scores or not isinstance(action, Move | Ride) or b.kind.get(action.to) != "escape":
        return action, scores
    if stop_chance(state) <= BOARD_RISK:
        return action, scores
    # the police would likely stop him: wait for a better moment, out of their reach
    others = [a for a in scores if b.kind.get(a.to) != "escape"]
    if not others:
        return action, scores
    best = max(others, key=scores.__getitem__)
    return (best if scores[best] > -FAR else action), scores


# ------------------------------------------------------------------------------------ rollouts
_GAME = TjuvGame()


def robs(state: TjuvState, move: Move | Ride) -> bool:
    """Whether a thief's move robs: it ends in a bank or post office, or in a travel agency
    holding fares."""
    b = board()
    return b.kind.get(move.to) in ("bank", "post", "agency") and b.values.get(move.to, state.agency) > 0


def rob_or_not(state: TjuvState, role: int, action: Move | Ride, scores: dict[Move | Ride, float], rng: Rng,
               ) -> Action:
    """The thief's move, or the best move (by normal's scores) of the other kind — a robbery
    when his move robs nothing, none when it robs — if that wins at least ``ROLLOUT_MARGIN`` of a
    first place more on average over ``ROLLOUTS`` paired worlds played to the game's end, and
    still does over ``CONFIRM`` worlds more (docs/bench/tjuv.md, session 12). Scored by the real
    outcome, not by money after a round (which picked the luckiest move), and taken only on a
    clear win, so the level keeps its own move when the rollouts cannot tell."""
    other = [a for a in scores if robs(state, a) != robs(state, action) and scores[a] > -FAR]
    if not other:
        return action
    return weigh(state, role, action, [max(other, key=scores.__getitem__)], rng)


def late_thief(state: TjuvState, role: int, action: Move | Ride, scores: dict[Move | Ride, float], rng: Rng,
               ) -> Action:
    """Late in the game: the thief's move, or the best of his ``THIEF_OTHERS`` next best moves
    (by normal's scores, the best one to each other square) and the best move of the other kind
    (a robbery or none), weighed as ``weigh`` does."""
    best: dict[str, Move | Ride] = {}  # each other square's best move, best squares first
    for move in sorted(scores, key=scores.__getitem__, reverse=True):
        if move.to != action.to and scores[move] > -FAR:
            best.setdefault(move.to, move)
    ranked = list(best.values())
    others = ranked[:THIEF_OTHERS]
    kind = [a for a in ranked if robs(state, a) != robs(state, action)]
    if kind and kind[0] not in others:
        others.append(kind[0])
    return weigh(state, role, action, others, rng)


def police_rollouts(state: TjuvState, action: Action, scores: dict[Move | Ride, float], rng: Rng) -> Action:
    """The police's move, or the best move (by this level's scores) of one of the
    ``POLICE_OTHERS`` other pieces whose best moves score highest, weighed as ``weigh`` does
    (docs/bench/tjuv.md, session 15): late in the game, where one move can settle it."""
    piece = action.piece if isinstance(action, Move | Ride) else None
    best: dict[str, Move | Ride] = {}
    for move, value in scores.items():
        if move.piece != piece and value > -FAR and (move.piece not in best or value > scores[best[move.piece]]):
            best[move.piece] = move
    others = sorted(best.values(), key=scores.__getitem__, reverse=True)[:POLICE_OTHERS]
    return weigh(state, 0, action, others, rng)


def weigh(state: TjuvState, role: int, action: Action, others: Sequence[Action], rng: Rng) -> Action:
    """``action``, or the one of ``others`` that wins most against it over ``ROLLOUTS`` paired
    worlds played to the game's end, if it wins at least ``ROLLOUT_MARGIN`` of a first place more
    on average there and still does over ``CONFIRM`` worlds more."""
    if not others:
        return action
    base = f"{rng.randint(0, 2**62)}"
    mine = [rollout(state, role, action, f"{base}/{k}") for k in range(ROLLOUTS)]
    gains = {a: sum(rollout(state, role, a, f"{base}/{k}") - mine[k] for k in range(ROLLOUTS)) for a in others}
    alternative = max(others, key=gains.__getitem__)
    total = gains[alternative]
    if total / ROLLOUTS < ROLLOUT_MARGIN:
        return action
    more = range(ROLLOUTS, ROLLOUTS + CONFIRM)
    total += sum(rollout(state, role, alternative, f"{base}/{k}") - rollout(state, role, action, f"{base}/{k}")
                 for k in more)
    return alternative if total / (ROLLOUTS + CONFIRM) >= ROLLOUT_MARGIN else action


def rollout(state: TjuvState, role: int, first: Action, seed: str) -> float:
    """The share of first place of ``role`` (a thief, or 0 the police) after ``first`` in one
    world played out: the stashes of every thief but ``role`` dealt afresh (their number is
    public), the dice drawn from ``seed``, ``role`` playing this level (without rollouts) and every
    other seat normal, to the game's end or ``HORIZON`` rounds (then carried and hidden money count
    as they stand)."""
    world = scramble(state, role, Rng(f"{seed}/deal"))
    world.rng = Rng(f"{seed}/dice")
    choices = Rng(f"{seed}/choices")
    _GAME.apply(world, seat_of(world, role), first)
    end = world.round + HORIZON
    for _ in range(ROLLOUT_ACTIONS):
        if world.finished or world.round > end:
            break
        actor = 0 if world.pending else world.turn
        seat = seat_of(world, actor)
        legal = _GAME.legal_actions(world, seat)
        if not legal:
            break
        if actor == role and not any(isinstance(a, Arrest | ChooseNest | PlaceCar) for a in legal):
            rand = random.Random(choices.randint(0, 2**62))
            jitter = {a: rand.random() * 0.5 for a in legal}
            action = _police(world, legal, jitter) if role == 0 else _thief(world, role, legal, jitter,
                                                                             leaving(world, role))
        else:
            action = normal.choose(world, seat, legal, choices)
        _GAME.apply(world, seat, action)
    money = [world.police_money, *(t.money + (0 if world.finished else sum(t.stashes.values()))
                                   for t in world.thieves)]
    best = max(money)
    return 1 / money.count(best) if money[role] == best else 0.0
