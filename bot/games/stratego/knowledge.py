"""What one seat knows about the enemy's pieces, read from its observation alone.

The inference the computer players build on: a revealed piece is known; a piece that moved is no
bomb or flag (a scout that moved more than one square is revealed by the engine); the ranks still
hidden are the starting counts less those captured and those known. Unmoved pieces near the back
are more likely the flag and the bombs (where sound setups put them). ``Knowledge`` gives each
hidden piece a probability per rank and samples whole determinizations consistent with all of it.
"""
from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Self

from bot.games.stratego.board import LAKES, coords, line_between, neighbours, setup_squares
from bot.games.stratego.pieces import BOMB, FLAG, KINDS, SCOUT, Result, attack

START_COUNTS: Mapping[str, int] = {kind.rank: kind.count for kind in KINDS}
MOVABLE = tuple(kind.rank for kind in KINDS if kind.movable)
IMMOVABLE = (BOMB, FLAG)
# Where sound setups put the flag and the bombs, by row counted from the owner's back row.
_FLAG_ROW = (8.0, 2.0, 0.4, 0.1)
_BOMB_ROW = (2.0, 2.0, 1.2, 0.5)


def depth(square: str, owner: int) -> int:
    """The square's row counted from ``owner``'s back row (0..9)."""
    row = coords(square)[1]
    return row if owner == 0 else 9 - row


def _row_weight(table: tuple[float, ...], square: str, owner: int) -> float:
    d = depth(square, owner)
    return table[d] if d < len(table) else 0.05


@dataclass
class Knowledge:
    seat: int
    own: dict[str, str]  # square -> rank of the seat's own pieces
    known: dict[str, str]  # square -> rank of enemy pieces whose rank the seat has seen
    unmoved: list[str]  # hidden enemy pieces that never moved (any rank left)
    moved: list[str]  # hidden enemy pieces that moved (movable ranks only)
    remaining: Counter[str]  # hidden enemy ranks still on the board
    enemy_lost: Counter[str]  # enemy ranks captured so far
    own_lost: Counter[str]
    owners: dict[str, int]  # square -> owner of every piece on the board
    own_revealed: set[str]  # our pieces whose rank the enemy has seen

    @property
    def enemy(self) -> int:
        return 1 - self.seat

    @classmethod
    def from_observation(cls, obs: Mapping[str, Any]) -> Self:
        seat = int(obs["seat"])
        public, private = obs["public"], obs["private"]
        own = dict(private["ranks"])
        known = dict(private["known"])
        unmoved: list[str] = []
        moved: list[str] = []
        for sq, info in public["board"].items():
            if info["owner"] == seat or sq in known:
                continue
            (moved if info["moved"] else unmoved).append(sq)
        enemy_lost = Counter(public["captured"][1 - seat])
        remaining = Counter({rank: START_COUNTS[rank] - enemy_lost[rank] for rank in START_COUNTS})
        remaining.subtract(Counter(known.values()))
        remaining = Counter({rank: n for rank, n in remaining.items() if n > 0})
        owners = {sq: int(info["owner"]) for sq, info in public["board"].items()}
        own_revealed = {sq for sq, info in public["board"].items()
                        if info["owner"] == seat and info["rank"] is not None}
        return cls(seat, own, known, sorted(unmoved), sorted(moved), remaining, enemy_lost,
                   Counter(public["captured"][seat]), owners, own_revealed)

    def enemy_has(self, rank: str) -> bool:
        """Whether the enemy may still have a piece of ``rank`` on the board."""
        return self.remaining[rank] > 0 or rank in self.known.values()

    def immovable_weights(self, rank: str) -> dict[str, float]:
        """How likely each unmoved hidden piece is to be the flag (``rank`` F) or a bomb, before
        normalising: by its row alone (where sound setups put them)."""
        table = _FLAG_ROW if rank == FLAG else _BOMB_ROW
        return {sq: _row_weight(table, sq, self.enemy) for sq in self.unmoved}

    def _weights(self, rank: str) -> dict[str, float]:
        cache = self.__dict__.setdefault("_weight_cache", {})
        if rank not in cache:
            cache[rank] = self.immovable_weights(rank)
        return cache[rank]  # type: ignore[no-any-return]

    def movable_shares(self) -> dict[str, float]:
        """Each movable rank's share of the enemy's movable pieces left."""
        left = {r: self.remaining[r] for r in MOVABLE if self.remaining[r] > 0}
        total = sum(left.values())
        return {r: n / total for r, n in left.items()} if total else {}

    def distribution(self, square: str) -> dict[str, float]:
        """Probability of each rank for the enemy piece on ``square``."""
        if square in self.known:
            return {self.known[square]: 1.0}
        movable = self.movable_shares()
        if square in self.moved or not self.unmoved:
            return movable or {BOMB: 1.0}
        immovable = 0.0
        dist: dict[str, float] = {}
        for rank in (FLAG, BOMB):
            count = self.remaining[rank]
            if not count:
                continue
            table = self._weights(rank)
            weights = sum(table.values())
            p = min(0.95, count * table[square] / weights) if weights else 0.0
            dist[rank] = p
            immovable += p
        if immovable > 0.97:
            dist = {r: p * 0.97 / immovable for r, p in dist.items()}
            immovable = 0.97
        if not movable:
            scale = 1.0 / immovable if immovable else 0.0
            return {r: p * scale for r, p in dist.items()} or {BOMB: 1.0}
        for rank, p in movable.items():
            dist[rank] = p * (1.0 - immovable)
        return dist

    def determinize(self, rand: random.Random) -> dict[str, str]:
        """One assignment of a rank to every hidden enemy piece, consistent with everything seen:
        the counts left, no bomb or flag among the moved ones; the flag and bombs drawn with the
        back-row weights."""
        squares = list(self.unmoved)
        ranks = Counter(self.remaining)
        result: dict[str, str] = {}
        for rank in (FLAG, BOMB):
            table = self._weights(rank)
            for _ in range(ranks[rank]):
                if not squares:
                    break
                weights = [table[sq] for sq in squares]
                if sum(weights) <= 0:
                    weights = [1.0] * len(squares)
                pick = rand.choices(range(len(squares)), weights)[0]
                result[squares.pop(pick)] = rank
            ranks[rank] = 0
        pool = [rank for rank in MOVABLE for _ in range(ranks[rank])]
        rand.shuffle(pool)
        rest = [*self.moved, *squares]
        for sq in rest:
            result[sq] = pool.pop() if pool else MOVABLE[-1]
        return result


# How a neighbour of an unmoved piece changes its chance of being the flag: sound setups wall the
# flag in with bombs, which never move; a neighbour that moved, or a square left empty, means the
# wall is not there (or was breached).
_WALL = {"bomb": 3.0, "unmoved": 1.0, "ours": 0.6, "moved": 0.25, "empty": 0.25, "revealed": 0.15}


@dataclass
class ShapeKnowledge(Knowledge):
    """The strong player's inference: besides the counts and the rows, the shape of the enemy's
    rear as the public record shows it. A flag is walled in by pieces that never moved (bombs
    above all); the bombs stand next to the likely flag. And what a moved piece's moves betray
    (``read_trail``): one that came up beside a piece of ours whose rank it had seen is likely
    stronger than it, one that backed away from it likely weaker."""

    evidence: dict[str, dict[str, float]] = field(default_factory=dict)  # square -> rank -> likelihood
    own_moved: set[str] = field(default_factory=set)  # our pieces that moved (public)

    def immovable_shares(self) -> dict[str, dict[str, float]]:
        """Unmoved square -> the chance it is the flag and the chance it is a bomb, in proportion
        to the shape weights but summing over the unmoved pieces to the flags and bombs left (a
        square's share is capped, and what a capped square cannot hold goes to the others: late
        in the game, when nearly every unmoved piece must be a bomb, each one is so read)."""
        cache = self.__dict__.get("_shares")
        if cache is not None:
            return cache  # type: ignore[no-any-return]
        shares: dict[str, dict[str, float]] = {sq: {} for sq in self.unmoved}
        room = dict.fromkeys(self.unmoved, SHARE_CAP)
        for rank in (FLAG, BOMB):
            count = self.remaining[rank]
            if not count or not self.unmoved:
                continue
            filled = _water_fill(self._weights(rank), float(count), room)
            for sq, p in filled.items():
                if p > 0:
                    shares[sq][rank] = p
                    room[sq] -= p
        self.__dict__["_shares"] = shares
        return shares

    def _counted(self, square: str) -> dict[str, float]:
        """The counts and the shape alone (before what the piece's moves betray)."""
        if square in self.known:
            return {self.known[square]: 1.0}
        movable = self.movable_shares()
        if square in self.moved or not self.unmoved:
            return movable or {BOMB: 1.0}
        dist = dict(self.immovable_shares().get(square, {}))
        immovable = sum(dist.values())
        if not movable:
            return {r: p / immovable for r, p in dist.items()} if immovable else {BOMB: 1.0}
        for rank, p in movable.items():
            dist[rank] = p * (1.0 - immovable)
        return dist

    def distribution(self, square: str) -> dict[str, float]:
        dist = self._counted(square)
        weights = self.evidence.get(square)
        if not weights:
            return dist
        dist = {r: p * weights.get(r, 1.0) for r, p in dist.items()}
        total = sum(dist.values())
        return {r: p / total for r, p in dist.items()} if total else dist

    def determinize(self, rand: random.Random) -> dict[str, str]:
        """As ``Knowledge.determinize``, the pieces with a record drawn first, each by the ranks
        left weighted by what its moves betray."""
        if not self.evidence:
            return super().determinize(rand)
        result = super().determinize(rand)
        # re-draw the movable ranks: the pieces with evidence first, then the rest shuffled
        squares = [sq for sq in result if result[sq] not in IMMOVABLE]
        pool = Counter(result[sq] for sq in squares)
        chosen: dict[str, str] = {}
        for sq in sorted(sq for sq in squares if sq in self.evidence):
            ranks = sorted(r for r, n in pool.items() if n > 0)
            weights = [pool[r] * self.evidence[sq].get(r, 1.0) for r in ranks]
            rank = rand.choices(ranks, weights)[0] if sum(weights) > 0 else ranks[0]
            chosen[sq] = rank
            pool[rank] -= 1
        rest = [r for r in sorted(pool) for _ in range(pool[r])]
        rand.shuffle(rest)
        others = [sq for sq in squares if sq not in chosen]
        # unmoved pieces may draw only what determinize gave the unmoved (movable ranks all)
        for sq, rank in zip(others, rest, strict=True):
            chosen[sq] = rank
        result.update(chosen)
        return result

    def _wall(self, square: str) -> float:
        factor = 1.0
        for n in neighbours(square):
            if n in LAKES or depth(n, self.enemy) > 3:
                continue
            owner = self.owners.get(n)
            if owner is None:
                factor *= _WALL["empty"]
            elif owner == self.seat:
                factor *= _WALL["ours"]
            elif n in self.known:
                factor *= _WALL["bomb"] if self.known[n] == BOMB else _WALL["revealed"]
            elif n in self.moved:
                factor *= _WALL["moved"]
        return factor

    def immovable_weights(self, rank: str) -> dict[str, float]:
        rows = super().immovable_weights(rank)
        if rank == FLAG:
            return {sq: w * self._wall(sq) for sq, w in rows.items()}
        flags = self._weights(FLAG)
        total = sum(flags.values()) or 1.0
        return {sq: w * (1.0 + 4.0 * sum(flags.get(n, 0.0) for n in neighbours(sq)) / total)
                for sq, w in rows.items()}


def _water_fill(weights: Mapping[str, float], count: float, room: Mapping[str, float]) -> dict[str, float]:
    """Shares of ``count`` pieces over the squares, in proportion to ``weights``, none above its
    ``room``: what a full square cannot hold is spread over the others in the same proportion."""
    free = {sq for sq in room if room[sq] > 0}
    out = dict.fromkeys(room, 0.0)
    left = count
    while free and left > 1e-9:
        total = sum(max(weights.get(sq, 0.0), 1e-6) for sq in free)
        full = {sq for sq in free if left * max(weights.get(sq, 0.0), 1e-6) / total >= room[sq]}
        if not full:
            for sq in free:
                out[sq] = left * max(weights.get(sq, 0.0), 1e-6) / total
            break
        for sq in full:
            out[sq] = room[sq]
            left -= room[sq]
        free -= full
    return out


SHARE_CAP = 0.98  # the most an unmoved piece's chance of being the flag or a bomb comes to
APPROACH = 2.5  # a piece that came up beside one of ours it had seen: how much likelier it beats it
RETREAT = 2.0  # a piece that backed away from one of ours it had seen: how much likelier it loses to it


def read_trail(trail: list[list[str]], seat: int, own: Mapping[str, str], owners: Mapping[str, int],
               hidden: list[str]) -> dict[str, dict[str, float]]:
    """What the public record says of the enemy's hidden moved pieces (``hidden``, by square):
    replay it from the full setup to follow every piece, note each enemy move that ended beside
    one of our pieces it had seen (or left one), and give each rank a likelihood. Empty when the
    record does not lead to the position on the board (a game stored before it was kept)."""
    at: dict[str, int] = {}
    for side in (0, 1):
        for i, sq in enumerate(setup_squares(side)):
            at[sq] = side * 100 + i
    shown: set[int] = set()  # pieces whose rank the other side has seen
    rank_of: dict[int, str] = {}
    notes: list[tuple[int, int, bool]] = []  # (enemy piece, our piece, came up beside it)
    for entry in trail:
        src, dst = entry[0], entry[1]
        mover = at.pop(src, None)
        if mover is None:
            return {}
        if len(entry) == 2:
            at[dst] = mover
            if line_between(src, dst):
                shown.add(mover)
                rank_of[mover] = SCOUT
            if mover // 100 != seat:
                before = {at[n] for n in neighbours(src) if n in at and at[n] // 100 == seat and at[n] in shown}
                after = {at[n] for n in neighbours(dst) if n in at and at[n] // 100 == seat and at[n] in shown}
                notes += [(mover, ours, True) for ours in after - before]
                notes += [(mover, ours, False) for ours in before - after]
            continue
        defender = at.get(dst)
        if defender is None:
            return {}
        rank_of[mover], rank_of[defender] = entry[2], entry[3]
        shown.update((mover, defender))
        result = attack(entry[2], entry[3])
        if result in (Result.WIN, Result.DEFUSE, Result.FLAG):
            at[dst] = mover
        elif result == Result.TIE:
            del at[dst]
    if set(at) != set(owners):
        return {}
    for sq, piece in at.items():
        if piece // 100 == seat:
            rank_of[piece] = own[sq]
    square_of = {piece: sq for sq, piece in at.items()}
    wanted = set(hidden)
    evidence: dict[str, dict[str, float]] = {}
    for piece, ours, came in notes:
        sq = square_of.get(piece, "")
        if sq not in wanted or ours not in rank_of:
            continue
        theirs = rank_of[ours]
        weights = evidence.setdefault(sq, dict.fromkeys(MOVABLE, 1.0))
        for rank in MOVABLE:
            beats = attack(rank, theirs) in (Result.WIN, Result.DEFUSE, Result.FLAG)
            loses = theirs in MOVABLE and attack(theirs, rank) == Result.WIN
            if came:
                weights[rank] *= APPROACH if beats else (1.0 if not loses else 1.0 / APPROACH)
            else:
                weights[rank] *= RETREAT if loses else (1.0 if not beats else 1.0 / RETREAT)
    # cap each piece's evidence so that no rank is ruled out by behaviour alone
    for weights in evidence.values():
        top = max(weights.values())
        for rank in weights:
            weights[rank] = max(weights[rank] / top, 0.02)
    return evidence
