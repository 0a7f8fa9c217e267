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
from dataclasses import dataclass
from typing import Any

from bot.games.stratego.board import coords
from bot.games.stratego.pieces import BOMB, FLAG, KINDS

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
    def from_observation(cls, obs: Mapping[str, Any]) -> Knowledge:
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

    def distribution(self, square: str) -> dict[str, float]:
        """Probability of each rank for the enemy piece on ``square``."""
        if square in self.known:
            return {self.known[square]: 1.0}
        movable_left = {r: self.remaining[r] for r in MOVABLE if self.remaining[r] > 0}
        total = sum(movable_left.values())
        movable = {r: n / total for r, n in movable_left.items()} if total else {}
        if square in self.moved or not self.unmoved:
            return movable or {BOMB: 1.0}
        immovable = 0.0
        dist: dict[str, float] = {}
        for rank, table in ((FLAG, _FLAG_ROW), (BOMB, _BOMB_ROW)):
            count = self.remaining[rank]
            if not count:
                continue
            weights = sum(_row_weight(table, sq, self.enemy) for sq in self.unmoved)
            p = min(0.95, count * _row_weight(table, square, self.enemy) / weights)
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
        for rank, table in ((FLAG, _FLAG_ROW), (BOMB, _BOMB_ROW)):
            for _ in range(ranks[rank]):
                if not squares:
                    break
                weights = [_row_weight(table, sq, self.enemy) for sq in squares]
                pick = rand.choices(range(len(squares)), weights)[0]
                result[squares.pop(pick)] = rank
            ranks[rank] = 0
        pool = [rank for rank in MOVABLE for _ in range(ranks[rank])]
        rand.shuffle(pool)
        rest = [*self.moved, *squares]
        for sq in rest:
            result[sq] = pool.pop() if pool else MOVABLE[-1]
        return result
