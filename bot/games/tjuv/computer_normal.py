"""The normal computer for Tjuv och Polis: a planner for each side, reading only what its seat
may see (the public table and, for a thief, his own stashes).

A thief works towards one goal at a time: rob the best bank or post office for its distance, hide
the takings in a nest when the police come close, and once he is worth enough (or his hidden
money is at risk of being worth nothing) fetch it and leave town by the way out he can reach
soonest — when no policeman can stop him at a telegraph. He keeps out of the police's reach while
he is wanted, and breaks out of jail whenever he may.
The police arrest whoever they can land on, put a policeman on a telegraph whenever a thief could
leave town soon (and rush to one when a thief escapes), close the door of a robbed bank, and
chase the richest wanted thief, the radio car first (it moves twice the roll and never goes out).
"""
from __future__ import annotations

import copy
import random
from collections.abc import Iterable, Mapping

from bot.engine.rng import Rng

from .actions import Action, Arrest, Breakout, ChooseNest, EndTurn, Fetch, Hide, Move, PlaceCar, Ride, Roll, Wait
from .board import board
from .computer import FAR, distance, distances
from .moves import landings_by_roll
from .play import _overdue, gratification, legal_moves, legal_rides, own_pieces, restricted_squares
from .state import CAR, ESCAPED, ESCAPING, FREE, HOUSE, JAIL, OUT, Police, Thief, TjuvState
from .view import role_of

SAFE_RICH = 6000  # a thief worth this much (carried plus hidden) may head out of town
HIDE_AT = 4000  # carried money a thief takes to a nest when the police are near
NEAR = 7  # squares within which a police piece is a danger
TRAP_WEIGHT = 125  # money at stake per point of a robbery's value lost to the chance of a trap
DANGER_WEIGHT = 200  # money carried per point of care to keep out of the police's reach


def choose(state: TjuvState, seat: int, legal: list[Action], rng: Rng) -> Action:
    role = role_of(state, seat)
    if any(isinstance(a, Arrest) for a in legal):
        # the radio car arrests when it can: it needs no guard duty and is never removed
        return next((a for a in legal if isinstance(a, Arrest) and a.piece == CAR),
                    next(a for a in legal if isinstance(a, Arrest)))
    nests = [a for a in legal if isinstance(a, ChooseNest)]
    if nests:
        return _starting_nest(state, nests)
    cars = [a for a in legal if isinstance(a, PlaceCar)]
    if cars:  # facing the town's centre: the car's first drive reaches the banks soonest
        return min(cars, key=lambda a: distance(a.front, list(board().values)))
    return plan(state, role, legal, rng)[0]


Scores = dict[Move | Ride, float]


def plan(state: TjuvState, role: int, legal: list[Action], rng: Rng) -> tuple[Action, Scores]:
    """The planner's action for a role and, when it weighed moves, its score for each."""
    rand = random.Random(rng.randint(0, 2**62))
    jitter = {a: rand.random() * 0.5 for a in legal}
    return _police(state, legal, jitter) if role == 0 else _thief(state, role, legal, jitter)


def _starting_nest(state: TjuvState, nests: list[ChooseNest]) -> ChooseNest:
    """Close to rich banks and to a way out, away from the police house and other thieves."""
    b = board()
    taken = {t.at for t in state.thieves if t.at}

    def worth(square: str) -> float:
        near = distances(square)
        loot = sum(value / (4 + near.get(sq, FAR)) for sq, value in b.values.items())
        out = min(near.get(sq, FAR) for sq in b.escapes)
        return loot / 100 - out - (30 if square in taken else 0) + distance(b.gate, [square]) / 3
    return max(nests, key=lambda a: worth(a.square))


# ------------------------------------------------------------------------------ shared reading
def _police_pieces(state: TjuvState) -> list[Police]:
    return [p for p in state.police if p.status == FREE and p.at not in (None, HOUSE)]


def _reach_chance(state: TjuvState, square: str, pieces: Iterable[Police] = ()) -> float:
    """The share of die rolls with which some police piece can end its walk on ``square`` (the
    radio car goes twice the roll; walks go round the blocks, so not only the shortest way
    counts), or 1 when a police piece could ride the tram there: the chance to be landed on."""
    return police_reach(state).get(square, 0.0)


_REACH: list[tuple[object, dict[str, float]]] = []  # the last position's reach (one entry)


def police_reach(state: TjuvState) -> dict[str, float]:
    """Square -> the share of rolls that let the police land a piece there on their next turn
    (on a thief's turn, as if he had left his square: that is where he will have gone)."""
    key = (state.turn, tuple((p.id, p.at, p.tail, p.heading, p.status, p.stay) for p in state.police),
           tuple((t.at, t.wanted, t.status) for t in state.thieves), tuple(sorted(state.tram.items())))
    cached = _REACH[0] if _REACH else None
    if cached is not None and cached[0] == key:
        return cached[1]
    if state.turn != 0 and state.thief(state.turn).at not in (None, HOUSE):
        # a shallow copy in which the thief to move has left his square (nothing here writes)
        moved = copy.copy(state.thief(state.turn))
        moved.at = None
        state = copy.copy(state)
        state.thieves = [moved if t.seat == moved.seat else t for t in state.thieves]
    reach = _reach(state)
    _REACH[:] = [(key, reach)]
    return reach


def _reach(state: TjuvState) -> dict[str, float]:
    hits: dict[str, int] = {}
    if _overdue(state):  # a piece that must leave its watched square: the legal moves say how
        for roll in range(1, 7):
            reached = {sq for reach in legal_moves(state, 0, roll).values() for sq in reach}
            for sq in reached:
                hits[sq] = hits.get(sq, 0) + 1
    else:  # one search per piece finds every roll's landing squares at once
        found = [landings_by_roll(state, piece, 6) for piece in own_pieces(state, 0)]
        for roll in range(1, 7):
            for sq in set().union(*(landings.get(roll, set()) for landings in found)):
                hits[sq] = hits.get(sq, 0) + 1
    reach = {sq: n / 6 for sq, n in hits.items()}
    for stops in legal_rides(state, 0).values():
        for sq in stops:
            reach[sq] = 1.0
    return reach


def _danger(state: TjuvState, square: str) -> float:
    """How exposed a wanted thief is on ``square``: landed on, or shut in (every way out of it
    held by the police, a nest no refuge), more so with police close."""
    pieces = _police_pieces(state)
    chance = min(1.0, _reach_chance(state, square, pieces) + _shut_in(state, square))
    if board().kind.get(square) == "nest":
        return chance
    close = sum(1 for p in pieces if p.at is not None and distance(p.at, [square]) <= 2)
    return chance + 0.3 * close


def _shut_in(state: TjuvState, square: str) -> float:
    """The chance that the police hold every way out of ``square`` after their next turn: all
    held already, or all but one held and a piece can land on that one."""
    b = board()
    if square in b.stop_lines:
        return 0.0
    held = {sq for sq, there in state.occupants().items() if any(isinstance(o, Police) for o in there)}
    open_ = [n for n in b.neighbours[square] if b.kind[n] != "house" and n not in held]
    if not open_:
        return 1.0
    if len(open_) == 1:
        return _reach_chance(state, open_[0])
    return 0.0


def _telegraph_watch(state: TjuvState) -> float:
    """The chance that the police put a policeman on a telegraph at their next turn (1 when one
    stands there already: an escape then fails at once)."""
    b = board()
    men = [p.at for p in _police_pieces(state) if p.id != CAR and p.at is not None]
    if any(square in b.telegraphs for square in men):
        return 1.0
    return _coverage(men)


def _coverage(squares: Iterable[str]) -> float:
    """The share of die rolls that take one of the policemen on ``squares`` onto a telegraph."""
    telegraphs = list(board().telegraphs)
    hits = {d for square in squares for d in (distance(square, [t]) for t in telegraphs) if 1 <= d <= 6}
    return len(hits) / 6


# ------------------------------------------------------------------------------------ thieves
def _thief(state: TjuvState, role: int, legal: list[Action], jitter: Mapping[Action, float],
           leave: bool | None = None) -> tuple[Action, Scores]:
    """The thief's action and his moves' scores; the strong level may decide for him whether he
    leaves town (``leave``, in place of normal's rule)."""
    thief = state.thief(role)
    if any(isinstance(a, Breakout) for a in legal):
        return Breakout(), {}  # a failed try still serves the turn
    if thief.status == JAIL:
        return next((a for a in legal if isinstance(a, Wait)), legal[0]), {}
    b = board()
    hidden = sum(thief.stashes.values())
    wealth = thief.money + hidden
    leaving = leave if leave is not None else wealth >= _enough(state, role) or _time_short(state)
    at = thief.at if thief.at not in (None, HOUSE) else board().gate
    # in a nest: fetch when leaving, hide when the police are near or the takings are large
    if b.kind.get(at) == "nest":
        hides = [a for a in legal if isinstance(a, Hide)]
        if state.phase == "nest" and _danger(state, at) > 0:
            # the police could shut him in here: hide all he carries (a thief with nothing on
            # him is no longer wanted) and fetch it when the way is clear
            if hides and thief.wanted:
                return max(hides, key=lambda a: a.amount), {}
            if any(isinstance(a, EndTurn) for a in legal):
                return EndTurn(), {}
        if leaving and at in thief.stashes and any(isinstance(a, Fetch) for a in legal):
            return Fetch(), {}
        if hides and not leaving:
            return max(hides, key=lambda a: a.amount), {}
        if any(isinstance(a, EndTurn) for a in legal):
            return EndTurn(), {}
    goals, goal_kind = _thief_goals(state, thief, leaving)
    moving = [a for a in legal if isinstance(a, Move | Ride)]

    def score(action: Move | Ride) -> float:
        kind = b.kind[action.to]
        value = -float(distance(action.to, goals)) if goals else 0.0
        if kind == "escape":
            return _escape_value(state, thief) if goal_kind == "escape" else -FAR
        if kind in ("bank", "post", "agency") and goal_kind == "rob":
            # whatever loot the roll reaches, unless the police can shut him in at once
            loot = b.values.get(action.to, state.agency)
            if loot <= 0:
                return value - 50.0  # an empty travel agency: wanted for nothing
            trap = _trap_chance(state, action.to)
            value += (12 + loot / 500) * (1 - trap) - trap * (15 + (thief.money + loot) / TRAP_WEIGHT)
        if kind == "nest":
            if goal_kind == "hide":
                value += 20
            if goal_kind == "fetch" and action.to in thief.stashes:
                value += 30
        if thief.wanted or kind in ("bank", "post", "agency"):
            # a thief who robs or carries money is wanted: keep out of the police's reach, the
            # more carefully the more he would lose
            value -= _danger(state, action.to) * (6 + thief.money / DANGER_WEIGHT)
        return value + jitter.get(action, 0.0)
    scores = {a: score(a) for a in moving}
    rides = [a for a in moving if isinstance(a, Ride)]
    if rides and at:
        here = -float(distance(at, goals)) + 3.5
        if thief.wanted:
            here -= 8 * _danger(state, at) * 0.5
        best = max(rides, key=scores.__getitem__)
        if scores[best] > here + 2:
            return best, scores
    if any(isinstance(a, Roll) for a in legal):
        return Roll(), {}
    if moving:
        return max(moving, key=scores.__getitem__), scores
    return legal[0], {}


def _enough(state: TjuvState, role: int) -> int:
    """What a thief should be worth before leaving: enough to beat what the others carry."""
    return max(SAFE_RICH, best_rival(state, role) + 3000)


def best_rival(state: TjuvState, role: int) -> int:
    """The most money another player carries: the police or the other thieves."""
    return max([state.police_money, *(t.money for t in state.thieves if t.seat != role)])


def _time_short(state: TjuvState) -> bool:
    return bool(state.max_rounds) and state.round >= state.max_rounds - 6


def _thief_goals(state: TjuvState, thief: Thief, leaving: bool) -> tuple[list[str], str]:
    b = board()
    if leaving and thief.stashes:
        return list(thief.stashes), "fetch"
    if leaving and thief.money > 0:
        exits = [sq for sq, e in b.escapes.items() if thief.money > e.fare]
        if exits:
            return exits, "escape"
    at = thief.at if thief.at not in (None, HOUSE) else b.gate
    if thief.wanted and thief.money == 0:
        return list(b.nests), "hide"  # wanted for nothing: a nest clears him
    if thief.money >= HIDE_AT and thief.wanted and _danger(state, at) > 0:
        return list(b.nests), "hide"
    if thief.money >= SAFE_RICH:
        return list(b.nests), "hide"
    targets = [sq for sq in b.values if not _watched(state, sq)] or list(b.values)
    if state.agency >= 2000:
        targets.append(b.agency)
    # the richest loot for its distance and the police around it
    near = distances(at)
    police = [p.at for p in _police_pieces(state) if p.at is not None]

    def worth(sq: str) -> float:
        guards = sum(1 for p in police if distance(p, [sq]) <= 6)
        return b.values.get(sq, state.agency) / (4 + near.get(sq, FAR)) / (1 + guards) ** 2
    return [max(targets, key=worth)], "rob"


def _trap_chance(state: TjuvState, square: str) -> float:
    """The chance that a thief who robs ``square`` is arrested on the police's next turn: landed
    on inside, or shut in (a building open to one side with a piece on its door)."""
    return min(1.0, _reach_chance(state, square) + _shut_in(state, square))


def _watched(state: TjuvState, square: str) -> bool:
    """A bank with a police piece at its door is a trap."""
    doors = board().doors(square)
    return any(p.at in doors or p.tail in doors for p in _police_pieces(state))


def _escape_value(state: TjuvState, thief: Thief) -> float:
    """Leave town now unless the police are likely to stop the escape at a telegraph."""
    watch = _telegraph_watch(state)
    if watch >= 1.0:
        return -FAR
    return 200.0 * (1 - watch) - 50.0 * watch


# ------------------------------------------------------------------------------------ police
def _arrest_loses(state: TjuvState, thief: Thief) -> bool:
    """Whether arresting ``thief`` ends the game (every other thief in jail, gone or out) with
    the police not first: an escaped thief keeps more than they would have."""
    if any(t.status not in (JAIL, ESCAPED, OUT) for t in state.thieves if t is not thief):
        return False
    best = max((t.money for t in state.thieves if t.status == ESCAPED), default=-1)
    return state.police_money + gratification(thief.money) <= best


def _police(state: TjuvState, legal: list[Action], jitter: Mapping[Action, float]) -> tuple[Action, Scores]:
    b = board()
    thieves = [t for t in state.thieves if t.status in (FREE, ESCAPING) and t.at not in (None, HOUSE)]
    escaping = any(t.status == ESCAPING for t in state.thieves)
    wanted = {t.at: t for t in thieves if t.wanted and t.status == FREE and t.at is not None}
    # a thief with money enough for a fare could leave soon: keep a policeman on a telegraph
    threat = any(t.money > 1000 and t.status == FREE and distance(t.at or "", list(b.escapes)) <= 14
                 for t in thieves)
    men = [p for p in _police_pieces(state) if p.id != CAR]
    guarded = any(p.at in b.telegraphs and p.stay < 2 for p in men)
    limited = restricted_squares()
    # the policeman closest to a telegraph walks towards it while no telegraph is guarded
    spare = [p for p in men if p.at not in b.telegraphs]
    sentry = min(spare, key=lambda p: distance(p.at or "", list(b.telegraphs))).id if spare else ""
    # escape squares a rich wanted thief is close to: stand in front of them
    fronts = {n for t in wanted.values() if t.money > 1000
              for sq in b.escapes if distance(t.at or "", [sq]) <= 8 for n in b.neighbours[sq]}
    occupied = state.occupants()

    def weight(t: Thief) -> float:
        return (t.money + 1500.0) if t.wanted else 300.0

    def pull(square: str, car: bool) -> float:
        total = 0.0
        for t in thieves:
            assert t.at is not None
            d = distance(square, [t.at])
            total += weight(t) / (2 + d) * (1.5 if car and t.wanted else 1.0)
        return total

    def score(action: Move | Ride) -> float:
        piece = state.piece(action.piece)
        assert isinstance(piece, Police) and piece.at is not None
        car = piece.id == CAR
        if action.to in wanted:
            if _arrest_loses(state, wanted[action.to]):
                return -5000.0  # it would end the game with the police behind: let him rob more
            return 10000.0 + wanted[action.to].money
        if not car and action.to in b.telegraphs:
            if escaping:
                return 20000.0
            if threat and not guarded:
                return 3000.0
        value = pull(action.to, car) - pull(piece.at, car)
        # close in on a wanted thief: every free square around him taken is one less way out
        for square, t in wanted.items():
            around = [n for n in b.neighbours[square] if b.kind[n] != "house"]
            if action.to in around and square not in b.stop_lines:
                covered = sum(1 for n in around if n == action.to or any(
                    isinstance(o, Police) and o is not piece for o in occupied.get(n, [])))
                value += (500.0 + t.money / 10) * covered / len(around)
        if action.to in fronts:
            value += 1500.0
        if threat and not car and piece.at not in b.telegraphs:
            # spread the policemen so that whatever the roll, one of them reaches a telegraph
            others = [p.at for p in men if p is not piece and p.at is not None]
            value += 600.0 * (_coverage([*others, action.to]) - _coverage([*others, piece.at]))
        if threat and not guarded and piece.id == sentry:
            value += 300.0 * (distance(piece.at, list(b.telegraphs)) - distance(action.to, list(b.telegraphs)))
        if not car and piece.at in b.telegraphs and threat and piece.stay < 2 and not escaping:
            value -= 800.0  # the guard stays while he may
        if action.to in limited and not (not car and action.to in b.telegraphs):
            value -= 50.0
        return value + jitter.get(action, 0.0)
    moving = [a for a in legal if isinstance(a, Move | Ride)]
    scores = {a: score(a) for a in moving}
    rides = [a for a in moving if isinstance(a, Ride)]
    if rides and max(scores[a] for a in rides) >= 3000:
        return max(rides, key=scores.__getitem__), scores
    if any(isinstance(a, Roll) for a in legal):
        return Roll(), {}
    return (max(moving, key=scores.__getitem__), scores) if moving else (legal[0], {})
