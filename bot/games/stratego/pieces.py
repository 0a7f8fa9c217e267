"""The 12 kinds of Stratego pieces (loaded from data/pieces.json) and how an attack ends."""
from __future__ import annotations

import json
from dataclasses import dataclass
from enum import Enum
from pathlib import Path


@dataclass(frozen=True)
class Kind:
    rank: str  # display label: "10".."2", "S" (spy), "B" (bomb), "F" (flag)
    code: str  # one character in a setup code
    strength: int
    count: int
    movable: bool


def _load() -> tuple[Kind, ...]:
    data = json.loads((Path(__file__).parent / "data" / "pieces.json").read_text(encoding="utf-8"))
    return tuple(Kind(**entry) for entry in data["ranks"])


KINDS: tuple[Kind, ...] = _load()
BY_RANK = {kind.rank: kind for kind in KINDS}
BY_CODE = {kind.code: kind for kind in KINDS}
RANKS = tuple(kind.rank for kind in KINDS)  # strongest first, as on the sorting tray
MARSHAL, SPY, MINER, SCOUT, BOMB, FLAG = "10", "S", "3", "2", "B", "F"


class Result(Enum):
    """How an attack ends, seen from the attacker."""

    WIN = "win"  # defender removed, attacker moves in
    LOSE = "lose"  # attacker removed
    TIE = "tie"  # both removed
    DEFUSE = "defuse"  # a miner removes a bomb and moves in
    EXPLODE = "explode"  # any other attacker of a bomb is removed; the bomb stays
    FLAG = "flag"  # the flag is taken: the game is won


def attack(attacker: str, defender: str) -> Result:
    if defender == FLAG:
        return Result.FLAG
    if defender == BOMB:
        return Result.DEFUSE if attacker == MINER else Result.EXPLODE
    # The spy beats the marshal only when the spy is the one attacking.
    if attacker == SPY and defender == MARSHAL:
        return Result.WIN
    a, d = BY_RANK[attacker].strength, BY_RANK[defender].strength
    if a == d:
        return Result.TIE
    return Result.WIN if a > d else Result.LOSE
