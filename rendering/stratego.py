"""Stratego images from observations: the public board (unrevealed pieces only as their colour's
back) and a player's private board (own ranks, known enemy ranks, turned so the viewer's army is
at the bottom), each with the two trays of captured pieces beside it.

The board background (grid, lakes, coordinates) is cached per orientation and each piece is a
cached sprite, so a render is a paste of at most 80 sprites plus a little text and the encoding.
"""
from __future__ import annotations

from collections.abc import Callable, Mapping
from functools import cache, lru_cache
from typing import Any

from PIL import Image, ImageDraw

from bot.i18n import t
from rendering.alt import Obs, acting, title
from rendering.kit import (
    WHITE,
    draw_text,
    encode_on_palette,
    font,
    palette_from,
    seat_name,
    stamp_text,
)
from rendering.result import render_standings
from rendering.standings import Places
from rendering.theme import THEMES, Header, draw_header, fit_lines, header_height, theme_of

CELL = 66
BOARD_X, BOARD_Y = 48, 16  # inside the body drawn under the header
BOARD = CELL * 10
TRAY_X = BOARD_X + BOARD + 34
TRAY_HEIGHT = 330
WIDTH, HEIGHT = 1120, BOARD_Y + BOARD + 88  # the body's height
COLUMNS = "ABCDEFGHIJ"
LAKES = {"C5", "D5", "G5", "H5", "C6", "D6", "G6", "H6"}
# Tray order and full counts: the sorting tray of the box, strongest first.
TRAY = (("10", 1), ("9", 1), ("8", 2), ("7", 3), ("6", 4), ("5", 4), ("4", 4), ("3", 5), ("2", 8),
        ("S", 1), ("B", 6), ("F", 1))

LAND = (118, 156, 88)
LAND_DARK = (104, 140, 76)
GRID = (70, 96, 52)
WATER = (62, 132, 196)
WATER_LIGHT = (120, 178, 226)
KNOWN = (255, 215, 64)  # the ring on an own piece the enemy has seen
SIDE = {0: ((200, 36, 44), (128, 18, 26)), 1: ((36, 84, 196), (18, 44, 120))}
# Coordinates, names and counts: at least 9 px high when the 1120 px picture is shown 400 px wide.
COORD_SIZE = SMALL_SIZE = 26


def _cell_origin(square: str, flipped: bool) -> tuple[int, int]:
    col, row = COLUMNS.index(square[0]), int(square[1:]) - 1
    if flipped:
        col, row = 9 - col, 9 - row
    return BOARD_X + col * CELL, BOARD_Y + (9 - row) * CELL


@cache
def _background(flipped: bool, theme: str = "dark") -> Image.Image:
    th = theme_of(theme)
    image = Image.new("RGB", (WIDTH, HEIGHT), th.background)
    draw = ImageDraw.Draw(image)
    draw.rectangle([BOARD_X - 4, BOARD_Y - 4, BOARD_X + BOARD + 3, BOARD_Y + BOARD + 3], fill=GRID)
    for col in range(10):
        for row in range(10):
            sq = f"{COLUMNS[col]}{row + 1}"
            x, y = _cell_origin(sq, flipped)
            fill = WATER if sq in LAKES else (LAND if (col + row) % 2 else LAND_DARK)
            draw.rectangle([x + 1, y + 1, x + CELL - 2, y + CELL - 2], fill=fill)
            if sq in LAKES:
                for k in range(3):
                    yy = y + 18 + k * 14
                    draw.arc([x + 12, yy, x + 32, yy + 10], 200, 340, fill=WATER_LIGHT, width=3)
                    draw.arc([x + 32, yy, x + 52, yy + 10], 200, 340, fill=WATER_LIGHT, width=3)
    for i in range(10):
        letter = COLUMNS[9 - i] if flipped else COLUMNS[i]
        number = str(i + 1) if flipped else str(10 - i)
        draw_text(draw, (BOARD_X + i * CELL + CELL // 2, BOARD_Y + BOARD + 26), letter, COORD_SIZE, bold=True,
                  fill=th.ink, anchor="mm")
        draw_text(draw, (BOARD_X - 24, BOARD_Y + i * CELL + CELL // 2), number, COORD_SIZE, bold=True,
                  fill=th.ink, anchor="mm")
    return image


@cache
def _sprite(owner: int, label: str | None, size: int, marker: str = "") -> Image.Image:
    """A piece: its colour, the rank in large white type, or the plain back when ``label`` is
    None. ``marker`` "moved" puts a dot on a back (publicly no bomb or flag); "known" puts a ring
    on an own piece the opponent has seen."""
    light, dark = SIDE[owner]
    image = Image.new("RGBA", (size, size), (0, 0, 0, 0))
    draw = ImageDraw.Draw(image)
    draw.rounded_rectangle([0, 0, size - 1, size - 1], radius=size // 6, fill=dark)
    draw.rounded_rectangle([3, 3, size - 4, size - 4], radius=size // 7, fill=light)
    if label is None:
        inset = size // 4
        draw.rounded_rectangle([inset, inset, size - inset - 1, size - inset - 1], radius=size // 10,
                               outline=dark, width=max(2, size // 18))
    else:
        text_size = int(size * (0.5 if len(label) > 1 else 0.62))
        draw_text(draw, (size / 2, size / 2 + 1), label, text_size, bold=True, fill=WHITE,
                  anchor="mm", stroke_width=2, stroke_fill=dark)
    corner = [size - 15, 4, size - 5, 14]
    if marker == "moved":
        draw.ellipse(corner, fill=WHITE)
    elif marker == "known":
        draw.ellipse(corner, fill=KNOWN, outline=dark)
    return image


def _pieces(obs: Mapping[str, Any]) -> dict[str, tuple[int, str | None, str]]:
    """square -> (owner, label to show or None, marker) for the viewer of ``obs``."""
    public, private = obs["public"], obs.get("private")
    seat = int(obs.get("seat") or 0)  # only used with a private part, which has a seat
    shown: dict[str, tuple[int, str | None, str]] = {}
    for sq, piece in public["board"].items():
        rank = piece["rank"]
        marker = "moved" if piece["moved"] and rank is None else ""
        shown[sq] = (piece["owner"], rank, marker)
    if private is not None:
        over = public["phase"] == "over"  # then every rank is public; no "the enemy knows it" marks
        for sq, rank in private["ranks"].items():
            known = public["board"][sq]["rank"] is not None and not over
            shown[sq] = (seat, rank, "known" if known else "")
        for sq, rank in (private.get("draft") or {}).items():
            shown[sq] = (seat, rank, "")
    return shown


def header(obs: Mapping[str, Any], names: Any, locale: str) -> Header:
    """The move number, who moves (or who won), and the last move."""
    public = obs["public"]
    title = f"{t('game.name.stratego', locale)} · " + t("stratego.render.move_count", locale,
                                                           count=public["moves"] + 1)
    news = ""
    if public["result"] is not None:
        places = public["result"]["places"]
        acting = (t("stratego.render.draw", locale) if len(places[0]) > 1 else
                  t("stratego.render.winner", locale, name=seat_name(names, places[0][0])))
        news = t(public["result"]["reason"], locale)
    elif public["phase"] == "setup":
        title = f"{t('game.name.stratego', locale)} · {t('stratego.render.setup', locale)}"
        acting = t("stratego.render.setup", locale)
        news = " · ".join(f"{seat_name(names, seat)}: " + t("stratego.render.ready" if public["ready"][seat]
                                                             else "stratego.render.waiting", locale)
                          for seat in (0, 1))
    else:
        key = "stratego.render.draw_offer" if public["draw_offer"] is not None else "stratego.render.to_move"
        seat = public["draw_offer"] if public["draw_offer"] is not None else public["turn"]
        acting = t(key, locale, name=seat_name(names, seat))
    last = public["last_move"]
    if last is not None and public["phase"] != "setup" and public["result"] is None:
        key = "render.alt.stratego_attack" if last.get("attack") else "render.alt.stratego_move"
        news = t(key, locale, name=seat_name(names, last["seat"]), start=last["from"], end=last["to"])
    return Header(title, acting=acting, news=news, finished=public["result"] is not None)


@lru_cache(maxsize=256)
def _tray(seat: int, lost: tuple[str, ...], name: str, locale: str, theme: str = "dark") -> Image.Image:
    """The sorting tray of ``seat``'s captured pieces: each kind with how many are gone. Cached:
    it changes only when a piece is captured. The owner's name is drawn whole, on two lines if
    need be."""
    th = theme_of(theme)
    width, height = WIDTH - TRAY_X - 16, TRAY_HEIGHT
    image = Image.new("RGB", (width + 1, height + 1), th.background)
    draw = ImageDraw.Draw(image)
    draw.rounded_rectangle([0, 0, width, height], radius=12, fill=th.surface)
    draw.rounded_rectangle([14, 12, 38, 36], radius=5, fill=SIDE[seat][0])
    label = t("stratego.render.captured", locale)
    stamp_text(draw, (50, 24), label, SMALL_SIZE, fill=th.muted, anchor="lm")
    lines, size = fit_lines(name, width - 32, SMALL_SIZE + 2, SMALL_SIZE, True)
    y = 48
    for line in lines:
        stamp_text(draw, (16, y), line, size, bold=True, fill=th.ink)
        y += size + 4
    size, gap_x, gap_y = 52, 58, 86  # a captured "10" is still 9 px high at 400 px
    top = max(y + 8, 86)
    for i, (rank, total) in enumerate(TRAY):
        x = 18 + (i % 6) * gap_x
        y = top + (i // 6) * gap_y
        gone = lost.count(rank)
        sprite = _sprite(seat, rank, size)
        if not gone:
            sprite = _faded(seat, rank, size)
        image.paste(sprite, (x, y), sprite)
        draw_text(draw, (x + size / 2, y + size + 16), f"{gone}/{total}", SMALL_SIZE, bold=True,
                  fill=th.ink if gone else th.muted, anchor="mm")
    draw_text(draw, (width - 16, 24), f"{len(lost)}/40", SMALL_SIZE, fill=th.muted, anchor="rm")
    return image


@cache
def _faded(seat: int, rank: str, size: int) -> Image.Image:
    sprite = _sprite(seat, rank, size).copy()
    sprite.putalpha(sprite.getchannel("A").point(lambda a: a * 35 // 100))
    return sprite


def body_top(obs: Mapping[str, Any], names: Any, locale: str) -> int:
    """Where the board's body (the coordinates of ``_cell_origin``) starts in the picture: under the header."""
    return header_height(header(obs, names, locale), WIDTH)


def _render(obs: Mapping[str, Any], names: Any, locale: str, flipped: bool, theme: str) -> bytes:
    th = theme_of(theme)
    head = header(obs, names, locale)
    top = header_height(head, WIDTH)
    image = Image.new("RGB", (WIDTH, top + HEIGHT), th.background)
    body = _background(flipped, th.name).copy()
    draw = ImageDraw.Draw(body)
    inner = CELL - 10
    for sq, (owner, label, marker) in _pieces(obs).items():
        x, y = _cell_origin(sq, flipped)
        sprite = _sprite(owner, label, inner, marker)
        body.paste(sprite, (x + 5, y + 5), sprite)
    last = obs["public"]["last_move"]
    if last is not None:  # the last move's two squares carry the last-move mark
        for sq, width in ((last["from"], 3), (last["to"], 5)):
            x, y = _cell_origin(sq, flipped)
            draw.rectangle([x + 1, y + 1, x + CELL - 2, y + CELL - 2], outline=th.last, width=width)
    captured = obs["public"]["captured"]
    viewer = obs.get("seat")
    # The viewer's own tray sits nearer its own side of the board (the bottom).
    order = (1, 0) if viewer in (None, 0) else (0, 1)
    for slot, seat in enumerate(order):
        tray = _tray(seat, tuple(captured[seat]), seat_name(names, seat), locale, th.name)
        body.paste(tray, (TRAY_X, BOARD_Y + slot * (BOARD - TRAY_HEIGHT)))
    private = obs.get("private")
    if private is not None and private.get("draft_code"):
        code = private["draft_code"]
        text = f"{t('stratego.render.draft', locale)}: " + " ".join(code[i:i + 10] for i in range(0, 40, 10))
        stamp_text(draw, (BOARD_X, HEIGHT - 12), text, SMALL_SIZE, bold=True, fill=th.muted, anchor="ls")
    image.paste(body, (0, top))
    draw_header(image, head, th)
    acting = obs["public"]["to_act"]
    if len(acting) == 1 and obs["public"]["result"] is None:  # the side to move, beside its name
        hd = ImageDraw.Draw(image)
        hd.rounded_rectangle([WIDTH - 44, 16, WIDTH - 16, 44], radius=6, fill=SIDE[acting[0]][0])
    return encode_on_palette(image, _palette(th.name if th.name in THEMES else "dark"))


@cache
def _palette(theme: str = "dark") -> Image.Image:
    """A fixed 256-colour palette per theme taken once from a sample of everything the renderer draws.

    Mapping each frame onto a known palette costs a few milliseconds; an adaptive quantization of
    every frame would cost tens."""
    th = theme_of(theme)
    sample = Image.new("RGB", (WIDTH, HEIGHT + 2 * CELL), th.background)
    sample.paste(_background(False, theme), (0, 0))
    draw = ImageDraw.Draw(sample)
    draw.rectangle([0, HEIGHT, WIDTH, HEIGHT + 2 * CELL], fill=th.surface)
    labels: list[str | None] = [None, *(rank for rank, _ in TRAY)]
    for i, (owner, label) in enumerate((o, lab) for o in (0, 1) for lab in labels):
        for j, marker in enumerate(("", "moved", "known")):
            sprite = _sprite(owner, label, CELL - 10, marker)
            sample.paste(sprite, (4 + i * 40, 10 + j * 30), sprite)
        faded = _faded(owner, label or "B", 52)
        sample.paste(faded, (4 + i * 40, HEIGHT + 8), faded)
    draw.rectangle([WIDTH - 200, HEIGHT - 80, WIDTH - 100, HEIGHT - 10], outline=th.last, width=5)
    draw.rectangle([WIDTH - 300, HEIGHT - 80, WIDTH - 220, HEIGHT - 10], fill=th.header, outline=th.turn, width=5)
    for colour, y in ((th.ink, HEIGHT + 70), (th.muted, HEIGHT + 100), (th.turn, HEIGHT + 40)):
        draw.text((10, y), "Anna Björn ÅÄÖ åäö 0123456789/ Move Drag", font=font(24), fill=colour)
    return palette_from(sample)


def render_public(obs: Mapping[str, Any], *, names: Any, locale: str = "en", theme: str = "dark") -> bytes:
    """The channel image: nothing that is not public (no unrevealed rank ever)."""
    public_only = {"seat": None, "public": obs["public"], "private": None}
    return _render(public_only, names, locale, flipped=False, theme=theme)


def render_private(obs: Mapping[str, Any], *, names: Any, locale: str = "en", theme: str = "dark") -> bytes | None:
    """A player's own board: own ranks, known enemy ranks, own army at the bottom."""
    if obs.get("private") is None or obs.get("seat") is None:
        return None
    return _render(obs, names, locale, flipped=obs["seat"] == 1, theme=theme)


def describe_private(obs: Mapping[str, Any], *, locale: str = "en") -> str:
    """A player's board as text (for the console): own ranks, ``*6`` for a known enemy piece,
    ``##`` for an unknown one (``#.`` once it has moved), ``~~`` for water; own army at the
    bottom. During the setup it shows the draft and its setup code."""
    seat = obs.get("seat")
    private = obs.get("private")
    if seat is None or private is None:
        return ""
    public = obs["public"]
    cells: dict[str, str] = {}
    for sq, piece in public["board"].items():
        if piece["owner"] == seat:
            cells[sq] = private["ranks"].get(sq, "?")
        elif sq in private["known"]:
            cells[sq] = "*" + private["known"][sq]
        else:
            cells[sq] = "#." if piece["moved"] else "##"
    for sq, rank in (private.get("draft") or {}).items():
        cells[sq] = rank
    flipped = seat == 1
    columns = COLUMNS[::-1] if flipped else COLUMNS
    rows = range(1, 11) if flipped else range(10, 0, -1)
    lines = ["    " + "".join(f"{c:>4}" for c in columns)]
    for row in rows:
        line = "".join(f"{('~~' if f'{c}{row}' in LAKES else cells.get(f'{c}{row}', '.')):>4}"
                       for c in columns)
        lines.append(f"{row:>4}" + line)
    lines.append(t("stratego.ui.text_legend", locale))
    if private.get("draft_code"):
        code = private["draft_code"]
        lines.append(t("stratego.ui.text_setup", locale, code=" ".join(code[i:i + 10] for i in range(0, 40, 10))))
    return "\n".join(lines)


def render_result(obs: Mapping[str, Any], *, names: Any, locale: str = "en", theme: str = "dark") -> bytes:
    """The standings picture a finished game ends on (rendering/result.py)."""
    return render_standings(obs, names=names, locale=locale, theme=theme)


# ----------------------------------------------------------------------------- in words
def describe(view: str, obs: Obs, names: Any, locale: str) -> list[str]:
    """The picture ``view`` ("public", "private" or "focus") in sentences (rendering.alt)."""
    pub = obs["public"]
    parts = [title("stratego", locale, t("stratego.render.move_count", locale, count=pub["moves"]))]
    if pub["phase"] == "setup":
        parts.append(t("stratego.render.setup", locale) + ".")
    parts.append(acting(obs, names, locale))
    last = pub.get("last_move")
    if last:
        key = "render.alt.stratego_attack" if last.get("attack") else "render.alt.stratego_move"
        parts.append(t(key, locale, name=seat_name(names, last["seat"]), start=last["from"], end=last["to"]))
    lost = [len(c) for c in pub["captured"]]
    parts.append(t("render.alt.stratego_lost", locale, first=seat_name(names, 0), second=seat_name(names, 1),
                   one=lost[0] if lost else 0, two=lost[1] if len(lost) > 1 else 0))
    private = obs.get("private")
    if view == "private" and private is not None:
        side = t("render.alt.stratego_side_red" if obs["seat"] == 0 else "render.alt.stratego_side_blue", locale)
        parts.append(t("render.alt.stratego_own", locale, side=side, count=len(private["ranks"]),
                       known=len(private["known"])))
    return parts


def result_places(pub: Mapping[str, Any]) -> Places:
    """A finished game's places and reason; Stratego keeps no score (rendering.standings)."""
    result = pub.get("result") or {"places": [], "reason": "stratego.end.flag"}
    return [list(p) for p in result["places"]], str(result["reason"]), {}, set()


def score_text(score: int, locale: str) -> str:
    return str(score)


# ----------------------------------------------------------------------------- views it has not
render_focus: Callable[..., bytes | None] | None = None  # no close-up view
private_key: Callable[[Mapping[str, Any]], Any] | None = None  # the private picture is drawn each time
describe_public: Callable[..., str] | None = None  # no table in words for the console
