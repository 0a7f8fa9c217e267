"""The city map in data/board.json: one connected street net and every place the rules need."""
from __future__ import annotations

from collections import deque

from bot.games.tjuv.board import board, square_name, square_xy


def reach(start: str, allowed: set[str]) -> set[str]:
    b = board()
    seen, queue = {start}, deque([start])
    while queue:
        for nxt in b.neighbours[queue.popleft()]:
            if nxt in allowed and nxt not in seen:
                seen.add(nxt)
                queue.append(nxt)
    return seen


def test_every_street_square_reaches_every_other_and_blocks_are_not_walkable() -> None:
    b = board()
    streets = {sq for sq, kind in b.kind.items() if kind == "street"}
    assert len(streets) > 150
    assert reach(next(iter(streets)), streets) == streets
    rows = b.raw["map"]
    assert len(rows) == b.height == 22 and {len(r) for r in rows} == {b.width} == {26}
    blocks = {square_name(x, y) for y, row in enumerate(rows) for x, ch in enumerate(row) if ch == "#"}
    assert blocks and not blocks & set(b.kind) and not blocks & set(b.parse_square(s) or "" for s in blocks)


def test_streets_are_one_square_wide() -> None:
    b = board()
    for sq in b.kind:
        x, y = square_xy(sq)
        square = [square_name(x + dx, y + dy) for dx, dy in ((0, 0), (1, 0), (0, 1), (1, 1))]
        assert not all(b.kind.get(s) == "street" for s in square), sq


def test_police_house_is_two_by_five_with_a_gate_and_the_central_bank_above() -> None:
    b = board()
    xs = {square_xy(s)[0] for s in b.house}
    ys = {square_xy(s)[1] for s in b.house}
    assert len(b.house) == 10 and len(xs) == 5 and len(ys) == 2
    assert b.gate in b.house and b.car_start in b.neighbours[b.gate] and b.kind[b.car_start] == "street"
    central = max(b.values, key=lambda sq: b.values[sq])
    cx, cy = square_xy(central)
    assert b.values[central] == 20000 and b.kind[central] == "bank"
    assert cx == square_xy(b.gate)[0] and cy == min(ys) - 1


def test_banks_are_richer_towards_the_centre_and_posts_hold_less() -> None:
    b = board()
    gx, gy = square_xy(b.gate)
    banks = sorted((abs(square_xy(s)[0] - gx) + abs(square_xy(s)[1] - gy), v)
                   for s, v in b.values.items() if b.kind[s] == "bank")
    assert 4 <= len(banks) <= 6 and all(2000 <= v <= 20000 for _, v in banks)
    values = [v for _, v in banks]
    assert values == sorted(values, reverse=True)
    posts = [v for s, v in b.values.items() if b.kind[s] == "post"]
    assert 3 <= len(posts) <= 4 and all(1000 <= v <= 5000 for v in posts)
    assert b.kind[b.agency] == "agency"


def test_every_building_has_doors_some_one_sided_some_two() -> None:
    b = board()
    buildings = [sq for sq, kind in b.kind.items() if kind in ("bank", "post", "agency", "telegraph")]
    doors = {sq: b.doors(sq) for sq in buildings}
    assert all(doors.values())
    assert {len(d) for d in doors.values()} == {1, 2}
    assert all(set(b.neighbours[sq]) == set(doors[sq]) for sq in buildings)


def test_telegraphs_nests_and_escape_squares_are_where_the_rules_put_them() -> None:
    b = board()
    assert 3 <= len(b.telegraphs) <= 4
    assert len(b.nests) == 7
    assert all(square_xy(n)[0] in (0, b.width - 1) or square_xy(n)[1] in (0, b.height - 1) for n in b.nests)
    kinds = {e.kind: sq for sq, e in b.escapes.items()}
    train, plane = square_xy(kinds["train"]), square_xy(kinds["plane"])
    assert train[1] == 0 and train[0] < b.width // 4 and plane[1] == 0 and plane[0] > 3 * b.width // 4
    boats = [sq for sq, e in b.escapes.items() if e.kind == "boat"]
    assert len(boats) == 2 and all(square_xy(s)[1] == b.height - 1 for s in boats)
    assert {e.fare for e in b.escapes.values() if e.kind != "plane"} == {1000}
    assert [e.exact for e in b.escapes.values() if e.kind == "plane"] == [False]
    assert len(b.escape_fronts) == 4 and all(b.kind[f] == "street" for f in b.escape_fronts)


def test_tram_lines_have_four_to_six_street_stops_and_shared_change_stops() -> None:
    b = board()
    assert 3 <= len(b.lines) <= 4
    for stops in b.lines.values():
        assert 4 <= len(stops) <= 6 and all(b.kind[s] == "street" for s in stops)
    assert len([s for s, lines in b.stop_lines.items() if len(lines) > 1]) >= 2


def test_squares_are_typed_as_letter_and_number() -> None:
    b = board()
    assert b.parse_square("k14") is None  # a block
    assert b.parse_square("m07") == "M7" and b.parse_square("P11") == "P11" and b.parse_square("Z99") is None
