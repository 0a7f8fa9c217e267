"""Stratego actions and their canonical texts (used in the move log and in button ids).

    setup preset NAME | setup random | setup code <40 chars> | swap A1 B2 | ready
    move A4 A5 | offer draw | accept draw | decline draw
"""
from __future__ import annotations

from dataclasses import dataclass

from bot.errors import InvalidAction
from bot.games.stratego.board import parse_square
from bot.games.stratego.setups import normalize_code


@dataclass(frozen=True)
class SetupPreset:
    name: str

    def __str__(self) -> str:
        return f"setup preset {self.name}"


@dataclass(frozen=True)
class SetupRandom:
    def __str__(self) -> str:
        return "setup random"


@dataclass(frozen=True)
class SetupCode:
    code: str  # normalized; validated when applied, so a bad code gets a specific message

    def __str__(self) -> str:
        return f"setup code {self.code}"


@dataclass(frozen=True)
class Swap:
    first: str
    second: str

    def __str__(self) -> str:
        return f"swap {self.first} {self.second}"


@dataclass(frozen=True)
class Ready:
    def __str__(self) -> str:
        return "ready"


@dataclass(frozen=True)
class Move:
    src: str
    dst: str

    def __str__(self) -> str:
        return f"move {self.src} {self.dst}"


@dataclass(frozen=True)
class OfferDraw:
    def __str__(self) -> str:
        return "offer draw"


@dataclass(frozen=True)
class AcceptDraw:
    def __str__(self) -> str:
        return "accept draw"


@dataclass(frozen=True)
class DeclineDraw:
    def __str__(self) -> str:
        return "decline draw"


Action = (SetupPreset | SetupRandom | SetupCode | Swap | Ready | Move | OfferDraw | AcceptDraw
          | DeclineDraw)

_FIXED: dict[str, Action] = {str(a): a for a in (SetupRandom(), Ready(), OfferDraw(), AcceptDraw(),
                                                   DeclineDraw())}


def parse_action(text: str) -> Action:
    """Case-insensitive; ``move`` may be left out and ``A4-A5`` written with a dash."""
    words = text.replace("-", " ").lower().split()
    joined = " ".join(words)
    if joined in _FIXED:
        return _FIXED[joined]
    if len(words) == 3 and words[:2] == ["setup", "preset"]:
        return SetupPreset(words[2])
    if len(words) >= 3 and words[:2] == ["setup", "code"]:
        return SetupCode(normalize_code("".join(words[2:])))
    if words and words[0] in ("swap", "move") and len(words) != 3:  # "move B4": not "move" read as a square
        raise InvalidAction("stratego.error.unreadable", text=text)
    if len(words) == 3 and words[0] in ("swap", "move"):
        first, second = parse_square(words[1]), parse_square(words[2])
        return Swap(first, second) if words[0] == "swap" else Move(first, second)
    if len(words) == 2:
        return Move(parse_square(words[0]), parse_square(words[1]))
    raise InvalidAction("stratego.error.unreadable", text=text)
