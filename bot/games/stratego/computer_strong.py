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
- Setup checks, draw offers and answers, and the ending follow the normal player's rules.
Randomness comes only from the stream it is given (the game's), so a replay repeats it.
"""
from __future__ import annotations

import random
from collections.abc import Mapping

from bot.engine.rng import Rng
from bot.games.stratego import setups
from bot.games.stratego.actions import Action, Move, OfferDraw, Ready, SetupCode
from bot.games.stratego.board import coords, neighbours, setup_squares
from bot.games.stratego.computer_normal import GAME, is_sound, score_moves, sound_setup, threat, wants_draw
from bot.games.stratego.computer_normal import choose as normal_choose
from bot.games.stratego.knowledge import Knowledge, ShapeKnowledge, read_trail
from bot.games.stratego.pieces import BOMB, FLAG, MINER, Result, attack
from bot.games.stratego.state import PLAY, SETUP, StrategoState

OFF_BACK_ROW = 0.5  # the share of setups with the flag on the second row
FLAG_WORTH = 1000.0  # an enemy piece removed from beside the flag (the normal player's BASE_VALUE of a flag)
WALL_REACH = 2  # steps from a bomb beside the flag within which a possible miner is a threat
APPROACH = 0.3  # of that, for a step that puts a piece beside the threat (to strike next move)


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


def knowledge_of(state: StrategoState, seat: int) -> ShapeKnowledge:
    """What ``seat`` knows: its observation and what the public record of play betrays."""
    knowledge = ShapeKnowledge.from_observation(GAME.observe(state, seat))
    knowledge.evidence = read_trail(state.trail, seat, knowledge.own, knowledge.owners, knowledge.moved)
    return knowledge


def choose(state: StrategoState, seat: int, legal: list[Action], rng: Rng) -> Action:
    rand = random.Random(rng.randint(0, 2**62) ^ 0x5EED)
    if state.phase == SETUP:
        if is_strong_sound(state.drafts[seat], seat):
            return Ready()
        return SetupCode(setups.to_code(strong_setup(rand, seat), seat))
    moves = [a for a in legal if isinstance(a, Move)]
    if state.phase != PLAY or state.draw_offer is not None or not moves:
        return normal_choose(state, seat, legal, rng)  # draws answered by the normal player's rules
    knowledge = knowledge_of(state, seat)
    if not state.offer_blocked[seat] and wants_draw(state, knowledge):
        return OfferDraw()
    scores = exposed(seat, knowledge, moves, score_moves(state, seat, knowledge, moves))
    scores = defended(seat, knowledge, moves, scores)
    return max(moves, key=lambda m: scores[m] + rand.random())
