"""The strong Stratego computer: determinized Monte-Carlo search within what the seat knows.

The normal player's judgement picks the candidate moves; then each candidate is played out in
many determinizations, each a full assignment of the enemy's hidden ranks sampled consistently
with the public record (``Knowledge.determinize``: counts left, moved pieces no bombs or flag,
flag and bombs towards the back). Every playout goes a few moves deep on a compact board of its
own, both sides moving by a light policy that reads only the ranks its side has seen, and ends
with the material balance. The same determinizations serve every candidate, so candidates are
compared on the same guesses. The count of playouts is fixed (no clock), so a replay repeats the
decision; the normal player's score breaks near-ties and keeps its setup, draw and ending rules.
"""
from __future__ import annotations

import random

from bot.engine.rng import Rng
from bot.games.stratego.actions import Action, Move, OfferDraw
from bot.games.stratego.board import LAKES, coords
from bot.games.stratego.computer_normal import BASE_VALUE, GAME, score_moves, wants_draw
from bot.games.stratego.computer_normal import choose as normal_choose
from bot.games.stratego.knowledge import Knowledge
from bot.games.stratego.state import PLAY, StrategoState

CANDIDATES = 6  # moves searched (the normal player's best)
WORLDS = 20  # determinizations per decision
HORIZON = 6  # plies played out after the candidate
PRIOR = 0.25  # weight of the normal player's score beside the playouts' average
REVEAL_COST = 0.08  # a playout's cost of having shown the enemy one of our ranks, per its worth

EMPTY, LAKE = -1, -2
FLAG, BOMB, SPY, SCOUT, MINER, MARSHAL = 0, 11, 1, 2, 3, 10
_CODE = {"F": FLAG, "B": BOMB, "S": SPY, "10": MARSHAL, **{str(n): n for n in range(2, 10)}}
_VALUE = [0.0] * 12
for _rank, _code in _CODE.items():
    _VALUE[_code] = float(BASE_VALUE[_rank])
_VALUE[FLAG] = 5000.0
_LAKE_CELLS = frozenset(coords(sq)[1] * 10 + coords(sq)[0] for sq in LAKES)
_STEPS = ((1, 0), (-1, 0), (0, 1), (0, -1))
# Neighbour cells of every cell, and the rays in each direction (for scouts).
_RAYS: list[list[list[int]]] = []
for _index in range(100):
    _c, _r = _index % 10, _index // 10
    rays = []
    for _dc, _dr in _STEPS:
        ray, c, r = [], _c + _dc, _r + _dr
        while 0 <= c < 10 and 0 <= r < 10 and r * 10 + c not in _LAKE_CELLS:
            ray.append(r * 10 + c)
            c, r = c + _dc, r + _dr
        rays.append(ray)
    _RAYS.append(rays)


def _cell(square: str) -> int:
    c, r = coords(square)
    return r * 10 + c


def _fight(a: int, d: int) -> int:
    """1 the attacker wins, -1 the defender wins, 0 both go; 2 the flag is taken."""
    if d == FLAG:
        return 2
    if d == BOMB:
        return 1 if a == MINER else -1
    if a == SPY and d == MARSHAL:
        return 1
    return 1 if a > d else (-1 if a < d else 0)


class World:
    """A compact position: owner, rank code, seen-by-the-enemy and moved flags per cell."""

    __slots__ = ("owner", "rank", "seen", "moved", "winner")

    def __init__(self, owner: list[int], rank: list[int], seen: list[bool], moved: list[bool]) -> None:
        self.owner, self.rank, self.seen, self.moved = owner, rank, seen, moved
        self.winner = -1

    def copy(self) -> World:
        return World(self.owner[:], self.rank[:], self.seen[:], self.moved[:])

    def moves(self, side: int) -> list[tuple[int, int]]:
        owner, rank = self.owner, self.rank
        found = []
        for cell in range(100):
            if owner[cell] != side or rank[cell] in (FLAG, BOMB):
                continue
            scout = rank[cell] == SCOUT
            for ray in _RAYS[cell]:
                for dst in ray:
                    there = owner[dst]
                    if there == EMPTY:
                        found.append((cell, dst))
                        if not scout:
                            break
                        continue
                    if there != side:
                        found.append((cell, dst))
                    break
        return found

    def play(self, side: int, src: int, dst: int) -> float:
        """Make the move; the material ``side`` gains (negative: loses)."""
        owner, rank = self.owner, self.rank
        a = rank[src]
        self.moved[src] = True
        far = abs(dst - src) not in (1, 10)
        if owner[dst] == EMPTY:
            owner[dst], rank[dst], self.seen[dst], self.moved[dst] = side, a, self.seen[src] or far, True
            owner[src] = EMPTY
            return 0.0
        d = rank[dst]
        result = _fight(a, d)
        owner[src] = EMPTY
        if result == 2:
            self.winner = side
            owner[dst], rank[dst], self.seen[dst] = side, a, True
            return _VALUE[FLAG]
        if result == 1:
            owner[dst], rank[dst], self.seen[dst], self.moved[dst] = side, a, True, True
            return _VALUE[d]
        if result == 0:
            owner[dst] = EMPTY
            return _VALUE[d] - _VALUE[a]
        self.seen[dst] = True
        return -_VALUE[a]


def _policy(world: World, side: int, rand: random.Random) -> tuple[int, int] | None:
    """A light player who reads only the ranks it has seen: takes a seen piece it beats, never
    attacks a seen piece that beats it, steps away from seen threats, else moves on at random
    with a lean forward."""
    moves = world.moves(side)
    if not moves:
        return None
    owner, rank, seen = world.owner, world.rank, world.seen
    forward = 10 if side == 0 else -10
    best, best_score = moves[0], -1e9
    for src, dst in moves:
        a = rank[src]
        score = rand.random() * 3.0
        if owner[dst] != EMPTY:
            if seen[dst]:
                result = _fight(a, rank[dst])
                score += 50.0 + _VALUE[rank[dst]] if result >= 1 else (-200.0 if result < 0 else -5.0)
            elif world.moved[dst]:
                score += 4.0 if a <= 4 else -2.0
            else:
                score += 2.0 if a == MINER else -6.0
        else:
            if dst - src == forward:
                score += 1.0
            for ray in _RAYS[dst]:
                if ray and owner[ray[0]] == 1 - side and seen[ray[0]] and _fight(rank[ray[0]], a) == 1:
                    score -= 30.0
        if score > best_score:
            best, best_score = (src, dst), score
    return best


def _world(state: StrategoState, knowledge: Knowledge, guess: dict[str, str]) -> World:
    owner = [EMPTY] * 100
    rank = [0] * 100
    seen = [False] * 100
    moved = [False] * 100
    for cell in _LAKE_CELLS:
        owner[cell] = LAKE
    for sq, piece in state.board.items():
        cell = _cell(sq)
        owner[cell] = piece.owner
        # our own ranks from our observation, the enemy's from what we know or guess
        name = knowledge.own.get(sq) or knowledge.known.get(sq) or guess[sq]
        rank[cell] = _CODE[name]
        seen[cell] = piece.revealed
        moved[cell] = piece.moved
    return World(owner, rank, seen, moved)


def _playout(world: World, seat: int, rand: random.Random) -> float:
    gained = 0.0
    side = 1 - seat
    for _ in range(HORIZON):
        if world.winner >= 0:
            break
        move = _policy(world, side, rand)
        if move is None:
            gained += _VALUE[FLAG] if side != seat else -_VALUE[FLAG]
            break
        change = world.play(side, *move)
        gained += change if side == seat else -change
        side = 1 - side
    return gained


def _search(state: StrategoState, seat: int, knowledge: Knowledge, moves: list[Move],
            prior: dict[Move, float], rand: random.Random) -> Move:
    ranked = sorted(moves, key=lambda m: -prior[m])[:CANDIDATES]
    if len(ranked) == 1:
        return ranked[0]
    totals = dict.fromkeys(ranked, 0.0)
    own_seen_before = sum(_VALUE[_CODE[knowledge.own[sq]]] for sq in knowledge.own_revealed)
    for _ in range(WORLDS):
        base = _world(state, knowledge, knowledge.determinize(rand))
        seed = rand.random()
        for move in ranked:
            world = base.copy()
            value = world.play(seat, _cell(move.src), _cell(move.dst))
            if world.winner < 0:
                value += _playout(world, seat, random.Random(seed))
            shown = sum(_VALUE[world.rank[c]] for c in range(100)
                        if world.owner[c] == seat and world.seen[c] and world.rank[c] != FLAG)
            totals[move] += value - REVEAL_COST * (shown - own_seen_before)
    return max(ranked, key=lambda m: totals[m] / WORLDS + PRIOR * prior[m])


def choose(state: StrategoState, seat: int, legal: list[Action], rng: Rng) -> Action:
    moves = [a for a in legal if isinstance(a, Move)]
    if state.phase != PLAY or state.draw_offer is not None or not moves:
        return normal_choose(state, seat, legal, rng)  # setup, draws: the normal player's rules
    knowledge = Knowledge.from_observation(GAME.observe(state, seat))
    if not state.offer_blocked[seat] and wants_draw(state, knowledge):
        return OfferDraw()
    prior = score_moves(state, seat, knowledge, moves)
    rand = random.Random(rng.randint(0, 2**62) ^ 0x5EED)
    return _search(state, seat, knowledge, moves, prior, rand)
