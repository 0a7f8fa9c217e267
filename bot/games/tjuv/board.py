"""The Tjuv och Polis city map, loaded once from data/board.json into a walkable graph.

Squares are named like a spreadsheet: letters across (A–Z), numbers down (1–22), e.g. "K14".
The map marks each square with one character (see the file's legend). Streets connect to
streets; every building, nest and escape square connects only to the streets beside it (its
doors), so a building is a dead end you enter and leave through a door; the police house connects
to itself and to the streets around it.
"""
from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

DATA = Path(__file__).with_name("data") / "board.json"

KINDS = {".": "street", "H": "house", "B": "bank", "O": "post", "R": "agency", "T": "telegraph",
         "N": "nest", "S": "escape", "A": "escape", "W": "escape"}
# Kinds you can only enter from a street and never walk through.
DEAD_ENDS = frozenset({"bank", "post", "agency", "telegraph", "nest", "escape"})
STEPS = {"N": (0, -1), "E": (1, 0), "S": (0, 1), "W": (-1, 0)}
OPPOSITE = {"N": "S", "S": "N", "E": "W", "W": "E"}


def square_name(col: int, row: int) -> str:
    return f"{chr(ord('A') + col)}{row + 1}"


def square_xy(name: str) -> tuple[int, int]:
    return ord(name[0]) - ord("A"), int(name[1:]) - 1


@dataclass(frozen=True)
class Escape:
    kind: str  # train, boat or plane
    fare: int
    exact: bool  # needs the exact roll (train, boat) or not (plane)


@dataclass(frozen=True)
class Board:
    width: int
    height: int
    kind: dict[str, str]  # walkable square -> kind
    neighbours: dict[str, tuple[str, ...]]
    values: dict[str, int]  # bank and post office sums
    agency: str
    escapes: dict[str, Escape]
    escape_fronts: frozenset[str]
    telegraphs: frozenset[str]
    nests: tuple[str, ...]
    house: tuple[str, ...]  # the ten police-house squares, reading order
    gate: str
    car_start: str
    lines: dict[str, tuple[str, ...]]  # tram line number -> stops in order
    stop_lines: dict[str, tuple[str, ...]]  # tram stop -> line numbers through it
    raw: dict[str, Any]

    def parse_square(self, text: str) -> str | None:
        """The canonical name of a walkable square typed by a player, or None."""
        text = text.strip().upper()
        if len(text) < 2 or not text[0].isalpha() or not text[1:].isdigit():
            return None
        name = f"{text[0]}{int(text[1:])}"
        return name if name in self.kind else None

    def direction(self, start: str, end: str) -> str:
        (x0, y0), (x1, y1) = square_xy(start), square_xy(end)
        return next(d for d, (dx, dy) in STEPS.items() if (x0 + dx, y0 + dy) == (x1, y1))

    def doors(self, square: str) -> tuple[str, ...]:
        return tuple(n for n in self.neighbours[square] if self.kind[n] == "street")


def _connected(kind: dict[str, str], a: str, b: str) -> bool:
    ka, kb = kind[a], kind[b]
    if ka in DEAD_ENDS or kb in DEAD_ENDS:
        return "street" in (ka, kb) and not (ka in DEAD_ENDS and kb in DEAD_ENDS)
    return True  # street-street, house-house, house-street


@cache
def board() -> Board:
    raw = json.loads(DATA.read_text(encoding="utf-8"))
    rows: list[str] = raw["map"]
    kind = {square_name(x, y): KINDS[ch] for y, row in enumerate(rows) for x, ch in enumerate(row)
            if ch in KINDS}
    neighbours: dict[str, tuple[str, ...]] = {}
    for name in kind:
        x, y = square_xy(name)
        near = [square_name(x + dx, y + dy) for dx, dy in STEPS.values()
                if 0 <= x + dx < len(rows[0]) and 0 <= y + dy < len(rows)]
        neighbours[name] = tuple(n for n in near if n in kind and _connected(kind, name, n))
    escapes = {sq: Escape(str(e["kind"]), int(e["fare"]), bool(e["exact"])) for sq, e in raw["escapes"].items()}
    fronts = frozenset(n for sq in escapes for n in neighbours[sq])
    lines = {str(k): tuple(v) for k, v in raw["tram_lines"].items()}
    stop_lines: dict[str, list[str]] = {}
    for number, stops in lines.items():
        for stop in stops:
            stop_lines.setdefault(stop, []).append(number)
    return Board(
        width=len(rows[0]), height=len(rows), kind=kind, neighbours=neighbours,
        values={**{k: int(v) for k, v in raw["banks"].items()}, **{k: int(v) for k, v in raw["posts"].items()}},
        agency=str(raw["agency"]), escapes=escapes, escape_fronts=fronts,
        telegraphs=frozenset(sq for sq, k in kind.items() if k == "telegraph"),
        nests=tuple(sq for sq, k in kind.items() if k == "nest"),
        house=tuple(sq for sq, k in kind.items() if k == "house"),
        gate=str(raw["gate"]), car_start=str(raw["car_start"]), lines=lines,
        stop_lines={k: tuple(v) for k, v in stop_lines.items()}, raw=raw,
    )
