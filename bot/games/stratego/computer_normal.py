"""The normal Stratego computer: a sound setup of its own, then one-move lookahead weighed in
expected value over what it knows of the enemy's hidden ranks (``knowledge``).

Setup: the flag on the back row walled in by bombs, the other bombs in the rear rows, scouts in
front, miners behind, the spy beside the general; drawn at random from the game's stream, so no
two games start alike and none starts from the three public presets.
Play: an attack is worth what it wins or loses on average over the defender's possible ranks; a
quiet move is worth how much safer it leaves the piece and how much closer it brings it to a
target worth attacking (a field spread from every enemy piece it would gain by attacking). In the
opening no scout strikes from afar (that reveals it and tells the opponent little it needs).
Ending: a move that undoes the last one is penalised; a long game is offered as a draw, and a
draw is accepted when behind or when the game has gone on long enough.
"""
from __future__ import annotations

import heapq
import random
from collections.abc import Mapping

from bot.engine.rng import Rng
from bot.games.stratego import setups
from bot.games.stratego.actions import AcceptDraw, Action, DeclineDraw, Move, OfferDraw, Ready, SetupCode
from bot.games.stratego.board import LAKES, coords, line_between, neighbours, setup_squares
from bot.games.stratego.engine import StrategoGame
from bot.games.stratego.knowledge import MOVABLE, Knowledge
from bot.games.stratego.pieces import BOMB, FLAG, MARSHAL, MINER, SCOUT, SPY, Result, attack
from bot.games.stratego.state import OVER, SETUP, StrategoState

GAME = StrategoGame()

BASE_VALUE: Mapping[str, float] = {"10": 400, "9": 200, "8": 110, "7": 60, "6": 35, "5": 20, "4": 14,
                                   "3": 30, "2": 9, "S": 90, "B": 12, "F": 1000}
OPENING = 30  # moves (both sides) without revealing scout strikes
DRAW_TALK = 1000  # from this many moves on, a draw is offered and accepted unless clearly ahead
DRAW_ALWAYS = 1300  # from here on, always
DECAY = 0.85  # a target's pull per square of distance
PULL = 0.5  # weight of the pull against the value of an attack


# ------------------------------------------------------------------------------------ setup
def _place(rand: random.Random, free: list[int], weights: tuple[float, ...], count: int) -> list[int]:
    chosen = []
    for _ in range(count):
        pick = rand.choices(range(len(free)), [weights[i // 10] for i in free])[0]
        chosen.append(free.pop(pick))
    return chosen


def sound_setup(rand: random.Random, seat: int) -> dict[str, str]:
    """A random setup with the shape good players give theirs (see the module's doc). Squares
    are indices 0..39 in setup-code order: row 0 is the back row, 30..39 the front."""
    layout: dict[int, str] = {}
    flag = rand.randrange(10)
    layout[flag] = FLAG
    guards = [i for i in (flag - 1, flag + 1, flag + 10) if 0 <= i < 40 and (i // 10 == flag // 10 or i == flag + 10)]
    for i in guards:
        layout[i] = BOMB
    free = [i for i in range(40) if i not in layout]
    for i in _place(rand, free, (1.0, 1.5, 1.0, 0.0), 6 - len(guards)):
        layout[i] = BOMB
    for i in _place(rand, [i for i in free if i >= 30], (0, 0, 0, 1.0), 2):
        layout[i] = SCOUT
        free.remove(i)
    general = _place(rand, free, (0.0, 1.0, 2.0, 0.6), 1)[0]
    layout[general] = "9"
    beside = [i for i in (general - 1, general + 1, general - 10, general + 10)
              if i in free and (abs(i - general) == 10 or i // 10 == general // 10)]
    spy = rand.choice(beside) if beside else _place(rand, free, (0.0, 1.0, 1.0, 0.5), 1)[0]
    if spy in free:
        free.remove(spy)
    layout[spy] = SPY
    layout[_place(rand, free, (0.0, 1.0, 2.0, 0.6), 1)[0]] = MARSHAL
    for i in _place(rand, free, (3.0, 2.0, 0.8, 0.1), 5):
        layout[i] = MINER
    for i in _place(rand, free, (0.4, 0.8, 1.2, 2.5), 6):
        layout[i] = SCOUT
    rest = [kind for kind in ("8", "8", "7", "7", "7", "6", "6", "6", "6", "5", "5", "5", "5",
                              "4", "4", "4", "4")]
    rand.shuffle(rest)
    for i, rank in zip(free, rest, strict=True):
        layout[i] = rank
    order = setup_squares(seat)
    return {order[i]: layout[i] for i in range(40)}


def is_sound(draft: Mapping[str, str], seat: int) -> bool:
    """The flag on the back row with every neighbour inside the setup area a bomb, no bomb in the
    front row, the spy beside the general, two scouts or more in the front row."""
    order = setup_squares(seat)
    if len(draft) != 40 or any(sq not in draft for sq in order):
        return False
    by_index = [draft[sq] for sq in order]
    if FLAG not in by_index[:10]:
        return False
    flag = by_index.index(FLAG)
    area = set(order)
    if any(draft[n] != BOMB for n in neighbours(order[flag]) if n in area):
        return False
    if BOMB in by_index[30:] or by_index[30:].count(SCOUT) < 2:
        return False
    general = order[by_index.index("9")]
    return any(draft.get(n) == SPY for n in neighbours(general))


# ------------------------------------------------------------------------------------ values
def piece_value(rank: str, knowledge: Knowledge, mine: bool) -> float:
    """What a piece is worth now: the spy only while the other side's marshal lives, miners
    more while bombs are left to clear and few miners remain."""
    if rank == SPY:
        marshal_alive = knowledge.enemy_has(MARSHAL) if mine else MARSHAL in knowledge.own.values()
        return BASE_VALUE[SPY] if marshal_alive else 6.0
    if rank == MINER:
        if mine:
            bombs = knowledge.enemy_has(BOMB)
            miners = list(knowledge.own.values()).count(MINER)
        else:
            bombs = BOMB in knowledge.own.values()
            miners = knowledge.remaining[MINER] + list(knowledge.known.values()).count(MINER)
        return BASE_VALUE[MINER] + (12.0 * max(0, 4 - miners) if bombs else -15.0)
    return BASE_VALUE[rank]


def attack_value(rank: str, target: Mapping[str, float], knowledge: Knowledge, urgency: float = 1.0) -> float:
    """The expected gain of attacking a piece with the rank distribution ``target``; ``urgency``
    raises what taking it is worth (a raider near our flag). Running a high officer into a bomb
    counts half again its worth: it is the loss a player regrets most."""
    mine = piece_value(rank, knowledge, True)
    total = 0.0
    for enemy, p in target.items():
        result = attack(rank, enemy)
        theirs = piece_value(enemy, knowledge, False) * urgency
        if result in (Result.WIN, Result.DEFUSE, Result.FLAG):
            total += p * theirs
        elif result == Result.TIE:
            total += p * (theirs - mine)
        elif result == Result.EXPLODE and mine >= 60:
            total -= p * mine * 1.5
        else:
            total -= p * mine
    return total


def urgencies(knowledge: Knowledge) -> dict[str, float]:
    """Enemy pieces that moved and stand close to our flag are worth more to take."""
    flag = next((sq for sq, r in knowledge.own.items() if r == FLAG), None)
    if flag is None:
        return {}
    fc, fr = coords(flag)
    found = {}
    for sq in (*knowledge.moved, *knowledge.known):
        c, r = coords(sq)
        d = abs(c - fc) + abs(r - fr)
        if d <= 4 and knowledge.known.get(sq) not in (BOMB, FLAG):
            found[sq] = 1.0 + 3.0 / d
    return found


def threat(square: str, rank: str, revealed: bool, knowledge: Knowledge, board: Mapping[str, int],
           dists: dict[str, dict[str, float]], skip: str = "") -> float:
    """Expected loss of standing on ``square`` next to enemy pieces that may attack: what a
    stronger one would take, less what a weaker one would lose by trying."""
    mine = piece_value(rank, knowledge, True)
    likely = 0.9 if revealed else 0.35
    total = 0.0
    for n in neighbours(square):
        if n == skip or board.get(n) != knowledge.enemy:
            continue
        for enemy, p in dists[n].items():
            if enemy in (BOMB, FLAG):
                continue
            result = attack(enemy, rank)
            if result == Result.WIN:
                total += likely * p * mine
            elif result == Result.TIE:
                total += likely * p * (mine - piece_value(enemy, knowledge, False))
            elif result in (Result.LOSE, Result.EXPLODE):
                total -= 0.3 * likely * p * piece_value(enemy, knowledge, False)
    return total


def pull_fields(knowledge: Knowledge, board: Mapping[str, int], dists: dict[str, dict[str, float]],
                ranks: set[str], urgent: Mapping[str, float]) -> dict[str, dict[str, float]]:
    """For each of our ranks: square -> the best attack within reach, discounted per step (a
    max-product Dijkstra over empty squares, our own pieces passable at a cost)."""
    fields: dict[str, dict[str, float]] = {}
    for rank in ranks:
        best: dict[str, float] = {}
        heap: list[tuple[float, str]] = []
        for sq, d in dists.items():
            value = attack_value(rank, d, knowledge, urgent.get(sq, 1.0))
            if value > 0:
                best[sq] = value
                heap.append((-value, sq))
        heapq.heapify(heap)
        while heap:
            neg, sq = heapq.heappop(heap)
            value = -neg
            if value < best.get(sq, 0.0) - 1e-9 or value < 0.5:
                continue
            for n in neighbours(sq):
                if n in LAKES or board.get(n) == knowledge.enemy:
                    continue
                step = value * (DECAY if n not in board else DECAY * 0.8)
                if step > best.get(n, 0.0):
                    best[n] = step
                    heapq.heappush(heap, (-step, n))
        fields[rank] = best
    return fields


# ------------------------------------------------------------------------------------ play
def material(knowledge: Knowledge) -> tuple[float, float]:
    """Our pieces' worth and the enemy's (hidden ones at their average worth)."""
    ours = sum(piece_value(r, knowledge, True) for r in knowledge.own.values() if r not in (BOMB, FLAG))
    theirs = sum(piece_value(r, knowledge, False) for r in knowledge.known.values() if r not in (BOMB, FLAG))
    theirs += sum(n * piece_value(r, knowledge, False) for r, n in knowledge.remaining.items() if r in MOVABLE)
    return ours, theirs


def wants_draw(state: StrategoState, knowledge: Knowledge) -> bool:
    ours, theirs = material(knowledge)
    if state.moves >= DRAW_ALWAYS:
        return True
    return state.moves >= DRAW_TALK and ours < 1.5 * theirs


def strike_value(state: StrategoState, move: Move, rank: str, far: bool, knowledge: Knowledge,
                 dists: dict[str, dict[str, float]], urgent: dict[str, float]) -> float:
    """An attack's worth: what it wins, a probe's sight of the defender, less the sight of our rank
    it gives away; no far scout strike on an unknown piece in the opening."""
    value = attack_value(rank, dists[move.dst], knowledge, urgent.get(move.dst, 1.0))
    if move.dst not in knowledge.known:
        if rank == SCOUT:
            value += 6.0  # a probe: the defender's rank is seen
        if move.src not in knowledge.own_revealed:
            value -= 0.1 * piece_value(rank, knowledge, True)  # our rank is seen
    if far and state.moves < OPENING and move.dst not in knowledge.known:
        value -= 100.0
    return value


def score_moves(state: StrategoState, seat: int, knowledge: Knowledge, moves: list[Move]) -> dict[Move, float]:
    """Each move's worth (see the module's doc); the shuttle record is public (the log has it)."""
    board, revealed = knowledge.owners, knowledge.own_revealed
    dists = {sq: knowledge.distribution(sq) for sq, owner in board.items() if owner != seat}
    urgent = urgencies(knowledge)
    fields = pull_fields(knowledge, board, dists, {knowledge.own[m.src] for m in moves}, urgent)
    shuttle = state.shuttles[seat]
    scores: dict[Move, float] = {}
    for move in moves:
        rank = knowledge.own[move.src]
        far = bool(line_between(move.src, move.dst))
        if board.get(move.dst) is not None:
            value = strike_value(state, move, rank, far, knowledge, dists, urgent)
        else:
            here = threat(move.src, rank, move.src in revealed, knowledge, board, dists)
            there = threat(move.dst, rank, move.src in revealed or far, knowledge, board, dists)
            field = fields[rank]
            value = (here - there) + PULL * (field.get(move.dst, 0.0) - field.get(move.src, 0.0))
            if far and move.src not in revealed:
                value -= 5.0 + (100.0 if state.moves < OPENING else 0.0)
            if shuttle is not None and move.src == shuttle[1] and move.dst == shuttle[0]:
                value -= 4.0
        scores[move] = value
    return scores


def choose(state: StrategoState, seat: int, legal: list[Action], rng: Rng) -> Action:
    rand = random.Random(rng.randint(0, 2**62))
    if state.phase == SETUP:
        draft = state.drafts[seat]
        if is_sound(draft, seat):
            return Ready()
        return SetupCode(setups.to_code(sound_setup(rand, seat), seat))
    if state.phase == OVER:
        return legal[0]
    knowledge = Knowledge.from_observation(GAME.observe(state, seat))
    if state.draw_offer is not None:
        return AcceptDraw() if wants_draw(state, knowledge) else DeclineDraw()
    moves = [a for a in legal if isinstance(a, Move)]
    if not moves:
        return legal[0]
    if not state.offer_blocked[seat] and wants_draw(state, knowledge):
        return OfferDraw()
    scores = score_moves(state, seat, knowledge, moves)
    return max(moves, key=lambda m: scores[m] + rand.random())
