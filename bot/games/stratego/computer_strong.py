"""The strong Stratego computer: the normal player's judgement fed by a sharper inference, with
an eye for what a won attack leaves exposed, and a setup that hides its flag where it is
looked for last.

- **Inference** (``knowledge.ShapeKnowledge``), from the seat's observation and the public
  record of play only: besides the counts left, "a piece that moved is no bomb or flag" and the
  rows sound setups favour, the shape of the enemy's rear (a flag is walled in by pieces that
  never moved, bombs stand beside the likely flag) and what each moved piece's moves betrayed
  (``knowledge.read_trail``: one that came up beside a piece of ours whose rank it had seen is
  likely stronger than it, one that backed away likely weaker). Every attack and every quiet
  move is weighed in expected value over that distribution (the exact expectation over the
  inferred ranks, rather than a sample of determinizations).
- **Exposure**: a won attack leaves the attacker shown, on the defender's square; what it may
  lose there on the enemy's next move is taken off the attack's worth.
- **Setup**: a sound setup; half the time its flag on the second row at an edge, walled in by
  three bombs, not on the back row where the normal player's inference (and many players) look.
- **Flag defence**: an enemy piece beside our flag takes it next move, and one beside a bomb
  that walls the flag in takes it in two if it is a miner; attacking such a piece is worth the
  flag times the chance the attack removes it (the greedy baseline's miners walked down the
  edge file, defused the wall and took the flag while a stronger piece stood next to them).
- **Draws**: offered and accepted only when behind in material (``wants_draw``), or from move
  ``DRAW_LATE`` on whatever the material; a game it leads it plays on for the win.
- Setup checks follow the normal player's rules.
Randomness comes only from the stream it is given (the game's), so a replay repeats it.
"""
from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping

from bot.engine.rng import Rng
from bot.games.stratego import setups
from bot.games.stratego.actions import AcceptDraw, Action, DeclineDraw, Move, OfferDraw, Ready, SetupCode
from bot.games.stratego.board import LAKES, coords, line_between, neighbours, setup_squares
from bot.games.stratego.computer_normal import (
    DRAW_ALWAYS,
    DRAW_TALK,
    GAME,
    OPENING,
    PULL,
    attack_value,
    is_sound,
    material,
    piece_value,
    pull_fields,
    sound_setup,
    strike_value,
    threat,
    urgencies,
)
from bot.games.stratego.computer_normal import choose as normal_choose
from bot.games.stratego.knowledge import MOVABLE, Knowledge, ShapeKnowledge, read_trail
from bot.games.stratego.pieces import BOMB, FLAG, MINER, SCOUT, Result, attack
from bot.games.stratego.state import PLAY, SETUP, StrategoState

OFF_BACK_ROW = 0.5  # the share of setups with the flag on the second row
FLAG_WORTH = 1000.0  # an enemy piece removed from beside the flag (the normal player's BASE_VALUE of a flag)
WALL_REACH = 2  # steps from a bomb beside the flag within which a possible miner is a threat
GUARD_REACH = 6  # a raider's steps to a gate of the flag within which the gate is guarded
GUARD_DECAY = 0.6  # a gate's danger per step the raider still needs
GUARD_MIN = 8.0  # a danger below this is ignored
GUARD_HOLD = 0.25  # of a gate's danger: what holding it is worth (and leaving it costs)
GUARD_PULL = 0.05  # of it, per step closer to the gate, for the nearest piece that may hold it
STRIKE_SURE = 5.0  # a strike worth more than this to the enemy, by its reckoning, it makes nearly always
APPROACH = 0.3  # of that, for a step that puts a piece beside the threat (to strike next move)
DRAW_LATE = 1450  # moves: from here on a draw is offered and accepted whatever the material
BEHIND = 0.8  # from DRAW_TALK on, a draw is taken when our material is below this share of the enemy's


def is_strong_sound(draft: Mapping[str, str], seat: int) -> bool:
    """Sound as the normal player's setups, or with the flag on the second row and every
    neighbour inside the setup area a bomb."""
    if is_sound(draft, seat):
        return True
    order = setup_squares(seat)
    if len(draft) != 40 or any(sq not in draft for sq in order):
        return False
    flag = next((sq for sq in order[10:20] if draft[sq] == FLAG), None)
    area = set(order)
    return flag is not None and all(draft[n] == BOMB for n in neighbours(flag) if n in area)


def strong_setup(rand: random.Random, seat: int) -> dict[str, str]:
    """A sound setup (``computer_normal.sound_setup``); ``OFF_BACK_ROW`` of the time its flag
    moved to the second row at an edge, walled in by three bombs (behind, beside, in front). The
    other bombs and pieces keep their places where they can; the displaced take the freed ones."""
    setup = sound_setup(rand, seat)
    if rand.random() >= OFF_BACK_ROW:
        return setup
    order = setup_squares(seat)  # index 0..39: back row first
    ranks = [setup[sq] for sq in order]
    flag = 10 if rand.random() < 0.5 else 19
    beside = flag + 1 if flag == 10 else flag - 1
    fixed = {flag: FLAG, flag - 10: BOMB, beside: BOMB, flag + 10: BOMB}
    bombs = [i for i, r in enumerate(ranks) if r == BOMB]
    spare = len(bombs) - 3
    for i in [i for i in bombs if i not in fixed][:spare]:
        fixed[i] = BOMB
    while len(fixed) < 4 + spare:  # a bomb displaced by the wall: the first free rear square
        fixed[next(i for i in range(40) if i not in fixed)] = BOMB
    layout = dict(fixed)
    displaced = []
    for i, rank in enumerate(ranks):
        if rank in (FLAG, BOMB):
            continue
        if i in layout:
            displaced.append(rank)
        else:
            layout[i] = rank
    vacant = [i for i in range(40) if i not in layout]
    for i, rank in zip(vacant, displaced, strict=True):
        layout[i] = rank
    return {order[i]: layout[i] for i in range(40)}


def exposed(seat: int, knowledge: Knowledge, moves: list[Move], scores: Mapping[Move, float]) -> dict[Move, float]:
    """``scores`` less, for each attack, what the attacker may lose where it stands after
    winning: shown, on the defender's square, next to whatever stands around it."""
    board = knowledge.owners
    dists = {sq: knowledge.distribution(sq) for sq, owner in board.items() if owner != seat}
    threats = Threats(knowledge, dists) if isinstance(knowledge, ShapeKnowledge) and knowledge.own_moved else None
    out = dict(scores)
    for move in moves:
        if board.get(move.dst) is None:
            continue
        rank = knowledge.own[move.src]
        survive = sum(p for r, p in dists[move.dst].items() if attack(rank, r) in (Result.WIN, Result.DEFUSE))
        if survive <= 0:
            continue
        after = dict(board)
        del after[move.src]
        after[move.dst] = seat
        if threats is not None:
            out[move] -= survive * threats(move.dst, rank, True, after)
        else:
            out[move] -= survive * threat(move.dst, rank, True, knowledge, after, dists)
    return out


def _steps(a: str, b: str) -> int:
    (ac, ar), (bc, br) = coords(a), coords(b)
    return abs(ac - bc) + abs(ar - br)


def defended(seat: int, knowledge: Knowledge, moves: list[Move], scores: Mapping[Move, float]) -> dict[Move, float]:
    """``scores`` plus, for each attack on an enemy piece that threatens our flag, the flag it
    saves: a piece beside the flag takes it next move, by the chance the attack removes it (won
    or traded: a tie takes both off); a possible miner near a bomb that walls the flag in takes it
    in two, by the chance it is a miner and if our piece removes a miner, halved per step it
    still needs to reach the bomb. The chance of a miner is the larger of the inferred one and the
    counts' alone: the inference reads an approach beside our shown piece as strength, but a
    careless player's miner walks on all the same (the greedy baseline's did, down the edge file,
    defused the wall and took the flag). A quiet step that puts a piece beside such a threat, to
    strike next move, is worth a share of it."""
    out = dict(scores)
    flag = next((sq for sq, rank in knowledge.own.items() if rank == FLAG), None)
    if flag is None:
        return out
    board = knowledge.owners
    walls = [sq for sq in neighbours(flag) if knowledge.own.get(sq) == BOMB]
    beside_flag = {sq for sq in neighbours(flag) if board.get(sq) == knowledge.enemy}
    near_wall: dict[str, float] = {}  # square -> the flag's worth times the chance of a miner, by distance
    for sq, owner in board.items():
        if owner != knowledge.enemy or sq in beside_flag or not walls:
            continue
        steps = min(_steps(sq, wall) for wall in walls)
        if steps <= WALL_REACH:
            counted = Knowledge.distribution(knowledge, sq)  # the counts alone, without the inference
            miner = max(knowledge.distribution(sq).get(MINER, 0.0), counted.get(MINER, 0.0))
            near_wall[sq] = FLAG_WORTH * miner * 0.5 ** (steps - 1)
    if not beside_flag and not near_wall:
        return out

    def saved(rank: str, square: str) -> float:
        if square in beside_flag:
            return FLAG_WORTH * sum(p for r, p in knowledge.distribution(square).items()
                                    if attack(rank, r) in (Result.WIN, Result.DEFUSE, Result.TIE))
        if square in near_wall and attack(rank, MINER) in (Result.WIN, Result.TIE):
            return near_wall[square]
        return 0.0

    for move in moves:
        rank = knowledge.own[move.src]
        if board.get(move.dst) is not None:
            out[move] += saved(rank, move.dst)
        else:  # a step beside the threat, to strike next move
            beside = [sq for sq in neighbours(move.dst) if sq not in neighbours(move.src)]
            out[move] += APPROACH * max((saved(rank, sq) for sq in beside), default=0.0)
    return out


def _reach(start: str, board: Mapping[str, int], seat: int, limit: int) -> dict[str, int]:
    """Steps from ``start`` to every square within ``limit`` (a breadth-first walk over squares
    that are empty or hold the enemy's pieces, around the lakes: how a raider walks)."""
    dist = {start: 0}
    frontier = [start]
    for step in range(1, limit + 1):
        nxt = []
        for sq in frontier:
            for n in neighbours(sq):
                if n in dist or n in LAKES or board.get(n) == seat:
                    continue
                dist[n] = step
                nxt.append(n)
        frontier = nxt
    return dist


def guarded(seat: int, knowledge: ShapeKnowledge, moves: list[Move], scores: Mapping[Move, float]) -> dict[Move, float]:
    """``scores`` plus the worth of standing guard at the flag. The squares from which a raider
    strikes the flag, or a bomb that walls it in (a miner then takes the flag next), are the
    gates; each is worth the flag times the chance that an enemy piece comes through it soon (a
    possible miner for a bomb's gate, any mover for the flag's own), falling off with the
    raider's steps to it. A piece that beats a miner and stands on a gate holds it (leaving costs
    what it holds); the nearest such piece to an endangered gate is pulled there (a chase behind
    a raider never catches it: the raider moves first)."""
    out = dict(scores)
    flag = next((sq for sq, rank in knowledge.own.items() if rank == FLAG), None)
    if flag is None:
        return out
    board = knowledge.owners
    walls = [sq for sq in neighbours(flag) if knowledge.own.get(sq) == BOMB]
    gates: dict[str, bool] = {}  # square -> whether a miner is needed (a wall's gate) or any mover (the flag's)
    for sq in neighbours(flag):
        if sq not in LAKES and knowledge.own.get(sq) != BOMB:
            gates[sq] = False
    for wall in walls:
        for sq in neighbours(wall):
            if sq not in LAKES and sq != flag and knowledge.own.get(sq) not in (BOMB, FLAG):
                gates.setdefault(sq, True)
    if not gates:
        return out
    danger = dict.fromkeys(gates, 0.0)
    for sq, owner in board.items():
        if owner != knowledge.enemy or knowledge.known.get(sq) in (BOMB, FLAG) or sq in knowledge.unmoved:
            continue
        dist = knowledge.distribution(sq)
        counted = Knowledge.distribution(knowledge, sq)
        miner = max(dist.get(MINER, 0.0), counted.get(MINER, 0.0))
        reach = _reach(sq, board, seat, GUARD_REACH)
        for gate, needs_miner in gates.items():
            steps = min((reach[n] for n in neighbours(gate) if n in reach), default=None)
            if gate in reach:
                steps = min(steps if steps is not None else reach[gate], reach[gate])
            if steps is None:
                continue
            p = miner if needs_miner else 1.0 - dist.get(SCOUT, 0.0) * 0.5
            danger[gate] = max(danger[gate], FLAG_WORTH * p * GUARD_DECAY ** steps)
    if max(danger.values()) < GUARD_MIN:
        return out
    holders = {sq for sq in gates if sq in knowledge.own and attack(knowledge.own[sq], MINER) == Result.WIN}
    # the nearest capable piece to each endangered gate nobody holds
    pulls: dict[str, tuple[str, float]] = {}  # our square -> (gate, danger)
    for gate, worth in danger.items():
        if worth < GUARD_MIN or gate in holders or board.get(gate) == knowledge.enemy:
            continue
        best: tuple[int, str] | None = None
        for sq, rank in knowledge.own.items():
            if rank in (BOMB, FLAG) or attack(rank, MINER) != Result.WIN or sq in holders:
                continue
            d = _steps(sq, gate)
            if best is None or (d, sq) < best:
                best = (d, sq)
        if best is not None and (best[1] not in pulls or pulls[best[1]][1] < worth):
            pulls[best[1]] = (gate, worth)
    for move in moves:
        rank = knowledge.own[move.src]
        if move.src in holders:
            out[move] -= GUARD_HOLD * danger[move.src]
        if move.src in pulls and board.get(move.dst) is None:
            gate, worth = pulls[move.src]
            if move.dst == gate and attack(rank, MINER) == Result.WIN:
                out[move] += GUARD_HOLD * worth
            else:
                closer = _steps(move.src, gate) - _steps(move.dst, gate)
                out[move] += GUARD_PULL * worth * closer
    return out


def knowledge_of(state: StrategoState, seat: int) -> ShapeKnowledge:
    """What ``seat`` knows: its observation and what the public record of play betrays."""
    obs = GAME.observe(state, seat)
    knowledge = ShapeKnowledge.from_observation(obs)
    knowledge.evidence = read_trail(state.trail, seat, knowledge.own, knowledge.owners, knowledge.moved)
    knowledge.own_moved = {sq for sq, info in obs["public"]["board"].items()
                           if info["owner"] == seat and info["moved"]}
    return knowledge


def enemy_view(knowledge: ShapeKnowledge) -> Knowledge:
    """What the enemy knows of our pieces, as far as we can tell: all of it is public (which of
    ours are shown, which moved, what we lost), read by the counts and rows alone."""
    known = {sq: knowledge.own[sq] for sq in knowledge.own_revealed}
    hidden = [sq for sq in knowledge.own if sq not in known]
    remaining = Counter(knowledge.own[sq] for sq in hidden)
    return Knowledge(knowledge.enemy, dict(knowledge.known), known,
                     sorted(sq for sq in hidden if sq not in knowledge.own_moved),
                     sorted(sq for sq in hidden if sq in knowledge.own_moved),
                     remaining, Counter(knowledge.own_lost), Counter(knowledge.enemy_lost),
                     knowledge.owners, set(knowledge.known))


def would_attack(value: float) -> float:
    """How likely an enemy piece strikes when the strike is worth ``value`` to it (its own
    reckoning): a sound player takes what pays, seldom what does not."""
    if value > STRIKE_SURE:
        return 0.85
    return 0.45 if value > 0 else 0.05


class Threats:
    """Expected loss of standing on a square beside enemy pieces: for each rank an enemy piece
    may have, what its strike would take or lose, times how likely it strikes by its own
    reckoning of our piece (shown, or one of our hidden movers as it counts them)."""

    def __init__(self, knowledge: ShapeKnowledge, dists: Mapping[str, Mapping[str, float]]) -> None:
        self.knowledge = knowledge
        self.dists = dists
        self.view = enemy_view(knowledge)
        movers = {r: n for r, n in self.view.remaining.items() if r in MOVABLE and n > 0}
        total = sum(movers.values())
        self._mover = {r: n / total for r, n in movers.items()} if total else {}
        self._cache: dict[tuple[str, str, str], float] = {}

    def _their_worth(self, enemy: str, rank: str, revealed: bool, unmoved: str) -> float:
        """What striking our piece is worth to an enemy ``enemy`` by what it knows of ours: the
        rank if shown, else one of our hidden movers (or, for a piece that never moved and
        stays, a hidden piece on ``unmoved``, which may be a bomb)."""
        key = (enemy, rank if revealed else "", "" if revealed else unmoved)
        if key not in self._cache:
            if revealed or not self._mover:
                target: Mapping[str, float] = {rank: 1.0}
            elif unmoved:
                target = self.view.distribution(unmoved)
            else:
                target = self._mover
            self._cache[key] = attack_value(enemy, target, self.view)
        return self._cache[key]

    def __call__(self, square: str, rank: str, revealed: bool, board: Mapping[str, int], unmoved: str = "") -> float:
        knowledge = self.knowledge
        mine = piece_value(rank, knowledge, True)
        total = 0.0
        for n in neighbours(square):
            if board.get(n) != knowledge.enemy:
                continue
            for enemy, p in self.dists[n].items():
                if enemy in (BOMB, FLAG):
                    continue
                likely = would_attack(self._their_worth(enemy, rank, revealed, unmoved))
                result = attack(enemy, rank)
                theirs = piece_value(enemy, knowledge, False)
                if result == Result.WIN:
                    total += likely * p * mine
                elif result == Result.TIE:
                    total += likely * p * (mine - theirs)
                elif result in (Result.LOSE, Result.EXPLODE):
                    total -= 0.3 * likely * p * theirs
        return total


def score_moves(state: StrategoState, seat: int, knowledge: ShapeKnowledge, moves: list[Move]) -> dict[Move, float]:
    """The normal player's worth of each move (``computer_normal.score_moves``), the threats to
    a piece reckoned by ``Threats`` (how likely each enemy strikes, by its own reckoning)."""
    board, revealed = knowledge.owners, knowledge.own_revealed
    dists = {sq: knowledge.distribution(sq) for sq, owner in board.items() if owner != seat}
    threats = Threats(knowledge, dists)
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
            after = dict(board)
            del after[move.src]
            after[move.dst] = seat
            stays = "" if move.src in knowledge.own_moved else move.src
            here = threats(move.src, rank, move.src in revealed, board, stays)
            there = threats(move.dst, rank, move.src in revealed or far, after)
            field_ = fields[rank]
            value = (here - there) + PULL * (field_.get(move.dst, 0.0) - field_.get(move.src, 0.0))
            if far and move.src not in revealed:
                value -= 5.0 + (100.0 if state.moves < OPENING else 0.0)
            if shuttle is not None and move.src == shuttle[1] and move.dst == shuttle[0]:
                value -= 4.0
        scores[move] = value
    return scores


def wants_draw(state: StrategoState, knowledge: Knowledge) -> bool:
    """A draw is worth taking only when we are behind: from ``DRAW_TALK`` moves on when clearly
    behind, from ``DRAW_ALWAYS`` on unless ahead, from ``DRAW_LATE`` on always (so a game
    between computers still ends within 1,500 moves). A game we lead is played out for the win."""
    if state.moves >= DRAW_LATE:
        return True
    if state.moves < DRAW_TALK:
        return False
    ours, theirs = material(knowledge)
    if state.moves >= DRAW_ALWAYS:
        return ours <= theirs
    return ours < BEHIND * theirs


def choose(state: StrategoState, seat: int, legal: list[Action], rng: Rng) -> Action:
    rand = random.Random(rng.randint(0, 2**62) ^ 0x5EED)
    if state.phase == SETUP:
        if is_strong_sound(state.drafts[seat], seat):
            return Ready()
        return SetupCode(setups.to_code(strong_setup(rand, seat), seat))
    if state.phase == PLAY and state.draw_offer is not None:
        return AcceptDraw() if wants_draw(state, knowledge_of(state, seat)) else DeclineDraw()
    moves = [a for a in legal if isinstance(a, Move)]
    if state.phase != PLAY or not moves:
        return normal_choose(state, seat, legal, rng)
    knowledge = knowledge_of(state, seat)
    if not state.offer_blocked[seat] and wants_draw(state, knowledge):
        return OfferDraw()
    scores = exposed(seat, knowledge, moves, score_moves(state, seat, knowledge, moves))
    scores = defended(seat, knowledge, moves, scores)
    scores = guarded(seat, knowledge, moves, scores)
    return max(moves, key=lambda m: scores[m] + rand.random())
