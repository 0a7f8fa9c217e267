"""The Stratego board: squares A1..J10, the lakes, each side's setup rows and straight lines."""
from __future__ import annotations

from collections.abc import Iterator

from bot.errors import InvalidAction

COLUMNS = "ABCDEFGHIJ"
SIZE = 10
LAKES = frozenset({"C5", "D5", "G5", "H5", "C6", "D6", "G6", "H6"})
DIRECTIONS = ((0, 1), (0, -1), (1, 0), (-1, 0))


def square(col: int, row: int) -> str:
    """(0-based column, 0-based row) -> canonical name such as ``"A1"``."""
    return f"{COLUMNS[col]}{row + 1}"


def coords(name: str) -> tuple[int, int]:
    return COLUMNS.index(name[0]), int(name[1:]) - 1


def parse_square(text: str) -> str:
    """Case-insensitive square name -> canonical; raises InvalidAction when off the board."""
    t = text.strip().upper()
    if len(t) in (2, 3) and t[0] in COLUMNS and t[1:].isdigit() and 1 <= int(t[1:]) <= SIZE:
        return f"{t[0]}{int(t[1:])}"
    raise InvalidAction("stratego.error.bad_square", text=t)  # as the board writes squares: A11, not a11


def on_board(col: int, row: int) -> bool:
    return 0 <= col < SIZE and 0 <= row < SIZE


def setup_rows(seat: int) -> tuple[int, ...]:
    """0-based rows of a seat's setup area, from its own back row to its front row."""
    return (0, 1, 2, 3) if seat == 0 else (9, 8, 7, 6)


def setup_squares(seat: int) -> list[str]:
    """The 40 setup squares in setup-code order: back row first, each row left to right as the
    player sees it from their own side (Red: A..J, Blue sits opposite and reads J..A)."""
    cols = range(SIZE) if seat == 0 else range(SIZE - 1, -1, -1)
    return [square(c, r) for r in setup_rows(seat) for c in cols]


def neighbours(name: str) -> Iterator[str]:
    col, row = coords(name)
    for dc, dr in DIRECTIONS:
        if on_board(col + dc, row + dr):
            yield square(col + dc, row + dr)


def adjacent(a: str, b: str) -> bool:
    (ac, ar), (bc, br) = coords(a), coords(b)
    return abs(ac - bc) + abs(ar - br) == 1


def line_between(a: str, b: str) -> list[str] | None:
    """Squares strictly between a and b on a straight line, or None if not on one line."""
    (ac, ar), (bc, br) = coords(a), coords(b)
    if (ac != bc) == (ar != br):
        return None
    dc, dr = (bc > ac) - (bc < ac), (br > ar) - (br < ar)
    steps = max(abs(bc - ac), abs(br - ar))
    return [square(ac + dc * i, ar + dr * i) for i in range(1, steps)]


def ray(start: str, dc: int, dr: int) -> Iterator[str]:
    """Squares from ``start`` (exclusive) towards a direction up to the board edge."""
    col, row = coords(start)
    col, row = col + dc, row + dr
    while on_board(col, row):
        yield square(col, row)
        col, row = col + dc, row + dr
