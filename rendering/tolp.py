"""Tölp pictures from observations: the table for the channel and a player's hand for DMs.

The public picture shows every player (cards left, last round's title, Kung tally, pass and
finishing markers), the combinations of the current trick with the top one highlighted, and the
exchange progress between rounds. It only reads the observation's public part. Card faces are
drawn once into a module-level cache and pasted; the background is cached per player count.
Pictures are drawn straight onto their palette (see ``Fast`` below).
"""
from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from functools import cache, lru_cache
from typing import Any

from PIL import Image, ImageDraw

from bot.engine.cards import parse_card
from bot.i18n import t
from rendering.alt import Obs, acting, cards_text, title
from rendering.kit import (
    card_face,
    encode_on_palette,
    fit,
    new_canvas,
    note,
    note_card,
    palette_from,
    paste_card,
    paste_text,
    seat_name,
    text_length,
    text_mask,
)
from rendering.png import encode_lines
from rendering.result import render_standings
from rendering.standings import Places
from rendering.theme import (
    THEMES,
    Header,
    Theme,
    TypeScale,
    draw_header,
    fit_lines,
    header_colour,
    header_height,
    header_items,
    marker,
    theme_of,
)

WIDTH = 1100
SCALE = TypeScale(WIDTH)
MARGIN = SCALE.margin
PANEL_H = 116
GAP = 14
TABLE_H = 320
CARD_W, CARD_H = 110, 154
BACK_W, BACK_H = 44, 62
HAND_W, HAND_H = 130, 182
HAND_PER_ROW = 13  # overlapped so that each card still shows its rank and small suit
NAME = SCALE.body + 2  # a player's name in their panel
SMALL = SCALE.small


def _paste(canvas: Image.Image, card: str | None, x: int, y: int, w: int, h: int,
           highlight: bool = False) -> None:
    paste_card(canvas, card, x, y, w, h, highlight=highlight)


def _width(text: str, size: int, bold: bool = False) -> int:
    return int(text_length(text, size, bold))


def _text(canvas: Image.Image, xy: tuple[float, float], text: str, size: int, *,
          bold: bool = False, fill: tuple[int, int, int], anchor: str = "la") -> None:
    paste_text(canvas, xy, text, size, bold=bold, fill=fill, anchor=anchor)


def _fit(text: str, size: int, width: int, bold: bool = False) -> str:
    """Shorten a text that no smaller size or second line can hold (see rendering/theme.py)."""
    return fit(text, size, width, bold)


def _tag(s: Surface, right: int, y: int, text: str, fill: RGB, ink: RGB) -> int:
    """A filled label ending at ``right``; returns its left edge."""
    width = _width(text, SMALL, True) + 24
    box = (right - width, y, right, y + SMALL + 12)
    s.draw.rounded_rectangle(box, radius=10, fill=fill)
    s.clear((box[0] + 10, y + 1, right - 10, box[3]), fill)
    s.text((right - width / 2, y + (SMALL + 12) / 2), text, SMALL, bold=True, fill=ink, anchor="mm", ground=fill)
    s.mark((box[0], y, right + 1, box[3] + 1))
    return right - width


@cache
def _palette(theme: str) -> Image.Image:
    """One fixed palette per theme, taken from a swatch of everything we draw.

    Mapping onto a known palette is far faster than finding one per picture (median cut on a
    whole board costs more than the rest of the rendering together)."""
    th = theme_of(theme)
    inks = (th.ink, th.muted, th.turn, th.win, th.danger, th.last, th.background)
    grounds = (th.background, th.header, th.surface, th.surface_turn, th.line, th.danger, th.win, th.turn)
    swatch, draw = new_canvas(1600, 60 * len(grounds) + 2 * CARD_H + HAND_H + 40, th.background)
    for row, ground in enumerate(grounds):
        draw.rectangle([0, row * 60, 1600, row * 60 + 60], fill=ground)
        for col, ink in enumerate(inks):
            _text(swatch, (col * 220 + 8, row * 60 + 8), "Ag8Öj", 40, bold=col % 2 == 0, fill=ink)
    y = 60 * len(grounds) + 10
    deck = [f"{r}{s}" for s in "CDHS" for r in ("2", "10", "Q", "A")] + ["JK", None]
    for i, card in enumerate(deck):
        _paste(swatch, card, i * 90, y, CARD_W, CARD_H, highlight=i % 2 == 0)
        _paste(swatch, card, i * 90, y + CARD_H + 10, BACK_W, BACK_H)
        _paste(swatch, card, i * 90, y + CARD_H + 80, HAND_W, HAND_H)
    return palette_from(swatch)


# ----------------------------------------------------------------------------- where it is drawn
# A picture is drawn straight onto its palette image (``Fast``): mapping RGB onto the palette
# pixel by pixel was a third of a board's CPU. The mapping is the same for every pixel, so a part
# whose pixels are known can be mapped once and pasted as palette indices: the panels' grounds and
# the table's felt, each card face (its alpha is 0 or 255), each text on the one colour it is
# drawn on (``ground``), and the flat shapes, drawn with the index of their colour. ``Whole`` draws
# the same in RGB and maps it at the end, as the renderer did before: tests/games/tolp/
# test_render.py checks that both give the same pixels over whole games.
RGB = tuple[int, int, int]


def _target(theme: str) -> str:
    return theme if theme in THEMES else "dark"


@cache
def _index(colour: RGB, theme: str) -> int:
    """The palette index ``colour`` maps to."""
    pixel = Image.new("RGB", (1, 1), colour).quantize(palette=_palette(theme), dither=Image.Dither.NONE)
    return int(pixel.getpixel((0, 0)))  # type: ignore[arg-type]


@cache
def _palette_list(theme: str) -> list[int]:
    mapped = Image.new("RGB", (1, 1)).quantize(palette=_palette(theme), dither=Image.Dither.NONE)
    return list(mapped.getpalette() or [0, 0, 0])


def _mapped(image: Image.Image, theme: str) -> Image.Image:
    return image.convert("RGB").quantize(palette=_palette(theme), dither=Image.Dither.NONE)


_PARTS: dict[tuple[int, str], tuple[Image.Image, Image.Image]] = {}


def _mapped_part(part: Image.Image, theme: str) -> Image.Image:
    """A kept RGB part (cached by its maker, so never freed) mapped once onto the palette."""
    key = (id(part), theme)
    found = _PARTS.get(key)
    if found is None or found[0] is not part:
        found = _PARTS[key] = (part, _mapped(part, theme))
    return found[1]


@cache
def _card_mapped(card: str | None, w: int, h: int, highlight: bool, theme: str) -> tuple[Image.Image, Image.Image]:
    face = card_face(card, w, h, highlight)
    return _mapped(face, theme), face.getchannel("A")


# A thousand tables name about 15,000 different players, seats and scores between two draws of one
# name: a smaller cache missed nearly every one (docs/bench/tolp-render.md, "A thousand tables' texts").
TEXT_CACHE = 32768


@lru_cache(maxsize=TEXT_CACHE)
def _text_mapped(text: str, size: int, bold: bool, anchor: str, fill: RGB, ground: RGB,
                 theme: str) -> tuple[Image.Image, int, int]:
    """``text`` drawn in ``fill`` on ``ground`` (as ``paste_text`` blends it) mapped onto the
    palette, and its offset from the anchor point: pasted whole onto its ground, it needs no mask."""
    mask, dx, dy = text_mask(text, size, bold, anchor, recorded=False)
    image = Image.new("RGB", mask.size, ground)
    image.paste(fill, (0, 0, mask.width, mask.height), mask)
    return _mapped(image, theme), dx, dy


Box = tuple[float, float, float, float]


class Redraw(Exception):
    """A text would lie on pixels not known to be its ground: the picture is drawn ``Whole``."""


REDRAWN = [0]  # pictures the fast way handed to the whole way (for tests and benchmarks)


class _InkDraw:
    """The drawing calls the renderer makes, with colours turned into palette indices."""

    def __init__(self, image: Image.Image, theme: str) -> None:
        self.draw = ImageDraw.Draw(image)
        self.theme = theme

    def _ink(self, colour: RGB | None) -> int | None:
        return None if colour is None else _index(colour, self.theme)

    def rectangle(self, xy: Any, fill: RGB | None = None, outline: RGB | None = None, width: int = 1) -> None:
        self.draw.rectangle(xy, fill=self._ink(fill), outline=self._ink(outline), width=width)

    def rounded_rectangle(self, xy: Any, radius: float = 0, fill: RGB | None = None, outline: RGB | None = None,
                          width: int = 1) -> None:
        self.draw.rounded_rectangle(xy, radius=radius, fill=self._ink(fill), outline=self._ink(outline),
                                    width=width)

    def line(self, xy: Any, fill: RGB | None = None, width: int = 0) -> None:
        self.draw.line(xy, fill=self._ink(fill), width=width)


class Surface:
    """A picture being drawn; ``Whole``: in RGB, mapped onto the palette when encoded."""

    def __init__(self, width: int, height: int, th: Theme) -> None:
        self.th = th
        self.theme = _target(th.name)
        self.image, self.draw = new_canvas(width, height, th.background)

    def part(self, part: Image.Image, xy: tuple[int, int]) -> None:
        """Paste a kept opaque RGB part."""
        self.image.paste(part, xy)

    def header(self, head: Header) -> None:
        draw_header(self.image, head, self.th)

    def clear(self, box: Box, ground: RGB) -> None:
        """Every pixel of ``box`` (x0, y0, x1, y1; x1 and y1 outside) is now ``ground``."""

    def mark(self, box: Box) -> None:
        """Something was drawn inside ``box``."""

    def card(self, card: str | None, x: int, y: int, w: int, h: int, highlight: bool = False) -> None:
        paste_card(self.image, card, x, y, w, h, highlight=highlight)

    def text(self, xy: tuple[float, float], text: str, size: int, *, bold: bool = False, fill: RGB,
             anchor: str = "la", ground: RGB) -> None:
        """``text`` at ``xy``; every pixel it touches is ``ground`` before."""
        paste_text(self.image, xy, text, size, bold=bold, fill=fill, anchor=anchor)

    def png(self) -> bytes:
        return encode_on_palette(self.image, _palette(self.theme))


Whole = Surface


class Fast(Surface):
    """The same picture drawn straight onto the palette image."""

    def __init__(self, width: int, height: int, th: Theme) -> None:
        self.th = th
        self.theme = _target(th.name)
        self.image = Image.new("P", (width, height), _index(th.background, self.theme))
        self.draw = _InkDraw(self.image, self.theme)  # type: ignore[assignment]
        self.grounds: list[tuple[Box, RGB, int]] = []  # clear boxes, their colour, drawn[] length then
        self.parts: list[tuple[Box, Image.Image, int]] = []  # kept parts pasted, drawn[] length then
        self.drawn: list[Box] = []

    def clear(self, box: Box, ground: RGB) -> None:
        self.grounds.append((box, ground, len(self.drawn)))

    def mark(self, box: Box) -> None:
        self.drawn.append(box)

    def _untouched(self, box: Box, since: int) -> bool:
        x0, y0, x1, y1 = box
        return all(x1 <= dx0 or dx1 <= x0 or y1 <= dy0 or dy1 <= y0 for dx0, dy0, dx1, dy1 in self.drawn[since:])

    def _on_ground(self, box: Box, ground: RGB) -> bool:
        x0, y0, x1, y1 = box
        for (gx0, gy0, gx1, gy1), colour, since in reversed(self.grounds):
            if colour == ground and gx0 <= x0 and gy0 <= y0 and x1 <= gx1 and y1 <= gy1:
                return self._untouched(box, since)
        return False

    def _under(self, box: Box) -> Image.Image | None:
        """The RGB pixels under ``box`` when they are a kept part's, nothing drawn on them since."""
        x0, y0, x1, y1 = box
        for (px0, py0, px1, py1), part, since in reversed(self.parts):
            if px0 <= x0 and py0 <= y0 and x1 <= px1 and y1 <= py1:
                return part.crop((x0 - px0, y0 - py0, x1 - px0, y1 - py0)) if self._untouched(box, since) else None
        return None

    def part(self, part: Image.Image, xy: tuple[int, int]) -> None:
        self.image.paste(_mapped_part(part, self.theme), xy)
        self.parts.append(((xy[0], xy[1], xy[0] + part.width, xy[1] + part.height), part, len(self.drawn)))

    def header(self, head: Header) -> None:
        height, items = header_items(head, WIDTH)
        self.draw.rectangle([0, 0, WIDTH, height], fill=self.th.header)
        self.clear((0, 0, WIDTH, height), self.th.header)
        for text, size, bold, role, y in items:
            x, anchor = (WIDTH - MARGIN, "ra") if role == "right" else (MARGIN, "la")
            self.text((x, y), text, size, bold=bold and role != "right", fill=header_colour(head, self.th, role),
                      anchor=anchor, ground=self.th.header)

    def card(self, card: str | None, x: int, y: int, w: int, h: int, highlight: bool = False) -> None:
        note_card(card, h)
        image, mask = _card_mapped(card, w, h, highlight, self.theme)
        self.image.paste(image, (x, y), mask)
        self.drawn.append((x, y, x + image.width, y + image.height))

    def text(self, xy: tuple[float, float], text: str, size: int, *, bold: bool = False, fill: RGB,
             anchor: str = "la", ground: RGB) -> None:
        if not text:
            return
        note(text, size, bold)  # counted as drawn (``recording``), as ``text_mask`` counts it
        image, dx, dy = _text_mapped(text, size, bold, anchor, fill, ground, self.theme)
        x, y = int(xy[0]) + dx, int(xy[1]) + dy
        box = (x, y, x + image.width, y + image.height)
        if self._on_ground(box, ground):  # every pixel of the box is the ground the image was drawn on
            self.image.paste(image, (x, y))
        else:  # on a part's edge (a name's second line pushes it onto the ring)
            under = self._under(box)
            if under is None:
                raise Redraw
            mask = text_mask(text, size, bold, anchor, recorded=False)[0]
            under.paste(fill, (0, 0, under.width, under.height), mask)
            self.image.paste(_mapped(under, self.theme), (x, y), mask.point(lambda v: 255 if v else 0))
        self.drawn.append(box)

    def png(self) -> bytes:
        width, height = self.image.size
        lines = Image.new("P", (width + 1, height), 0)
        lines.paste(self.image, (1, 0))
        return encode_lines(lines.tobytes(), width, height, _palette_list(self.theme), 3)


SURFACE: type[Surface] = Fast  # tests set Whole to draw the reference pictures


def _drawn(draw: Callable[[Surface], None], width: int, height: int, th: Theme) -> bytes:
    """The picture ``draw`` makes, the fast way unless a text of it lies off its known ground."""
    surface = SURFACE(width, height, th)
    try:
        draw(surface)
    except Redraw:
        REDRAWN[0] += 1
        surface = Whole(width, height, th)
        draw(surface)
    return surface.png()


# ------------------------------------------------------------------------------- the table
def _layout(players: int, top: int) -> list[tuple[int, int, int]]:
    """(x, y, width) of each seat's panel: two columns in seat order, from ``top``."""
    col_w = (WIDTH - 3 * MARGIN) // 2
    return [(MARGIN + (seat % 2) * (col_w + MARGIN), top + MARGIN + (seat // 2) * (PANEL_H + GAP), col_w)
            for seat in range(players)]


def _body_height(players: int) -> int:
    return MARGIN + (players + 1) // 2 * (PANEL_H + GAP) + 6 + TABLE_H


@cache
def _body(players: int, theme: str) -> Image.Image:
    """Everything under the header that does not change: the ground and the table's felt."""
    th = theme_of(theme)
    image, draw = new_canvas(WIDTH, _body_height(players), th.background)
    top = MARGIN + (players + 1) // 2 * (PANEL_H + GAP) + 6
    draw.rounded_rectangle([MARGIN, top, WIDTH - MARGIN, top + TABLE_H - MARGIN], radius=18, fill=th.header)
    return image


def scoring_line(public: Mapping[str, Any], locale: str) -> str:
    """How far the game is: "3 of 10 rounds", or a tie-break round once the set rounds are played."""
    options = public["options"]
    scoring = str(options["scoring"])
    if scoring == "rounds" and int(public["round"]) > int(options["rounds"]):
        scoring = "tiebreak"
    return t(f"tolp.ui.scoring_{scoring}", locale, round=public["round"], rounds=options["rounds"])


def header(public: Mapping[str, Any], names: Any, locale: str) -> Header:
    """The game and round, who acts, and the play the table now has to beat."""
    title = f"{t('tolp.name', locale)} · {t('tolp.ui.round', locale, round=public['round'])} · " \
            f"{scoring_line(public, locale)}"
    right = t("tolp.ui.set_aside", locale, count=public["set_aside"]) if public["set_aside"] else ""
    news = ""
    if public["table"] and public["phase"] == "play":
        top = public["table"][-1]
        news = t("render.tolp.played", locale, name=seat_name(names, top["seat"]),
                 cards=" ".join(parse_card(card).pretty for card in top["cards"]))
    return Header(title, acting=_status(public, names, locale), news=news, right=right,
                  finished=public["result"] is not None)


@cache
def panel_ground(width: int, acting: bool, out: bool, theme: str) -> Image.Image:
    """A seat's panel without its contents, on the picture's background: the rounded box (filled
    for the seat to act, one gone out, or any other) and the turn ring. Drawn once and pasted: its
    rounded corners and ring were a third of a panel's drawing, four panels a board."""
    th = theme_of(theme)
    image, draw = new_canvas(width + 1, PANEL_H + 1, th.background)
    fill = th.surface_turn if acting else th.header if out else th.surface
    draw.rounded_rectangle([0, 0, width, PANEL_H], radius=14, fill=fill, outline=th.line, width=2)
    if acting:
        marker(draw, [0, 0, width, PANEL_H], th, turn=True, radius=14, width=6)
    return image


def _panel(s: Surface, public: Mapping[str, Any], seat: int, box: tuple[int, int, int], names: Any,
           locale: str, th: Theme) -> None:
    x, y, w = box
    acting = seat in public["to_act"]
    place = public["places"][seat]
    s.part(panel_ground(w, acting, place is not None, th.name), (x, y))
    ground = th.surface_turn if acting else th.header if place is not None else th.surface
    s.clear((x + 14, y + 8, x + w - 14, y + PANEL_H - 8), ground)  # inside the ring and the corners
    s.clear((x + 8, y + 14, x + w - 8, y + PANEL_H - 14), ground)
    right = x + w - 14
    room = w - 36 - (BACK_W + 26 + _width("13", 46, True) if place is None else 0)
    lines, size = fit_lines(seat_name(names, seat), room, NAME, SMALL, True)
    ny = y + 12
    for line in lines:
        s.text((x + 18, ny), line, size, bold=True, fill=th.turn if acting else th.ink, ground=ground)
        ny += round(size * 1.15)
    ny = max(ny + 6, y + 62)
    title = public["titles"][seat]
    tx = x + 18
    if title is not None:
        label = t(f"render.tolp.title.{title}", locale)
        s.text((tx, ny), label, SMALL, bold=True, fill=th.win if title == "kung" else th.muted, ground=ground)
        tx += _width(label, SMALL, True) + 16
    kungs = public["kungs"][seat]
    if kungs:
        s.text((tx, ny), t("tolp.ui.kungs", locale, count=kungs), SMALL, fill=th.muted, ground=ground)
    if place is not None:
        key = "render.tolp.stuck" if seat in public["stuck"] else "render.tolp.out"
        _tag(s, right, y + PANEL_H - SMALL - 26, t(key, locale, place=place + 1),
             th.win if place == 0 else th.line, th.background if place == 0 else th.ink)
    else:
        count = public["counts"][seat]
        s.text((right, y + 36), str(count), 46, bold=True, fill=th.ink, anchor="rm", ground=ground)
        bx = right - _width(str(count), 46, True) - BACK_W - 26
        s.card(None, bx + 8, y + 10, BACK_W, BACK_H)
        s.card(None, bx, y + 16, BACK_W, BACK_H)
    if seat in public["passed"]:
        _tag(s, right, y + PANEL_H - SMALL - 26, t("tolp.ui.passed", locale), th.danger, (255, 255, 255))


def _status(public: Mapping[str, Any], names: Any, locale: str) -> str:
    if public["result"] is not None:
        return t("tolp.ui.game_over", locale, name=seat_name(names, public["result"]["places"][0][0]))
    if public["phase"] == "exchange":
        return t("tolp.ui.exchange_phase", locale)
    return t("tolp.ui.turn", locale, name=seat_name(names, public["turn"]))


def _trick(s: Surface, public: Mapping[str, Any], top: int, names: Any, locale: str, th: Theme) -> None:
    table = public["table"]
    left, right = MARGIN + 24, WIDTH - MARGIN - 24
    y = top + 30
    if not table:
        s.text((left, y + 20), t("tolp.ui.table_empty", locale, name=seat_name(names, public["turn"])),
               SCALE.body, fill=th.muted, ground=th.header)
        if public["must_include"]:
            label = t("tolp.ui.must_include", locale)
            s.text((left, y + 96), label, SCALE.body, fill=th.muted, ground=th.header)
            x = min(left + _width(label, SCALE.body) + 30, right - CARD_W)
            s.card(public["must_include"], x, y + 10, CARD_W, CARD_H, highlight=True)
        return
    step, gap = 42, 28

    def width(cards: Sequence[str]) -> int:
        return CARD_W + step * (len(cards) - 1)

    shown: list[Mapping[str, Any]] = []
    room = right - left - 70  # leaves space for the "+n" of older combinations
    for combo in reversed(table):
        need = width(combo["cards"]) + (gap if shown else 0)
        if need > room:
            break
        room -= need
        shown.insert(0, combo)
    x = left
    if len(shown) < len(table):
        s.text((x, y + CARD_H / 2), t("tolp.ui.more", locale, count=len(table) - len(shown)), 32,
               bold=True, fill=th.muted, anchor="lm", ground=th.header)
        x += 70
    for index, combo in enumerate(shown):
        is_top = index == len(shown) - 1
        if is_top:  # the play to beat is the last move: it carries the last-move mark
            marker(s.draw, [x - 8, y - 8, x + width(combo["cards"]) + 8, y + CARD_H + 8], th, last=True, radius=12)
            s.mark((x - 8, y - 8, x + width(combo["cards"]) + 9, y + CARD_H + 9))
        for i, card in enumerate(combo["cards"]):
            s.card(card, x + i * step, y, CARD_W, CARD_H)
        lines, size = fit_lines(seat_name(names, combo["seat"]), width(combo["cards"]) + gap - 8, SMALL, SMALL,
                                is_top)
        for n, line in enumerate(lines):
            s.text((x, y + CARD_H + 14 + n * (size + 4)), line, size, bold=is_top,
                   fill=th.last if is_top else th.muted, ground=th.header)
        x += width(combo["cards"]) + gap


def _exchanges(s: Surface, public: Mapping[str, Any], top: int, names: Any, locale: str, th: Theme) -> None:
    y = top + 30
    for ex in public["exchanges"]:
        row = t("tolp.ui.exchange_row", locale, high=seat_name(names, ex["high"]), low=seat_name(names, ex["low"]),
                count=ex["count"])
        lines, size = fit_lines(row, 740, SCALE.body, SMALL)
        s.text((MARGIN + 24, y), " ".join(lines) if len(lines) == 1 else lines[0], size, fill=th.ink,
               ground=th.header)
        state = "done" if ex["done"] else "laid" if ex["laid"] else "waiting"
        colour = th.line if ex["done"] else th.turn
        _tag(s, WIDTH - MARGIN - 24, y - 2, t(f"tolp.ui.exchange_{state}", locale), colour,
             th.ink if ex["done"] else th.background)
        y += 50


def _standings(s: Surface, public: Mapping[str, Any], top: int, names: Any, locale: str, th: Theme) -> None:
    """The final places (shared places counted as in a race) with each player's Kung titles, in
    two columns of five."""
    col_w = (WIDTH - 2 * MARGIN - 48) // 2
    place, index = 1, 0
    for group in public["result"]["places"]:
        for seat in group:
            text = t("game.places", locale, place=place, players=seat_name(names, seat))
            if public["kungs"][seat]:
                text += " · " + t("tolp.ui.kungs", locale, count=public["kungs"][seat])
            first = place == 1
            x, y = MARGIN + 24 + (index // 5) * col_w, top + 34 + (index % 5) * 50
            lines, size = fit_lines(text, col_w - 20, SCALE.body, SMALL, first, lines=1)
            s.text((x, y), lines[0], size, bold=first, fill=th.win if first else th.ink, ground=th.header)
            index += 1
        place += len(group)


def body_top(public: Mapping[str, Any], names: Any, locale: str) -> int:
    """Where the panels (the coordinates of ``_layout(players, 0)``) start: under the header."""
    return header_height(header(public, names, locale), WIDTH)


def table_top(public: Mapping[str, Any], names: Any, locale: str) -> int:
    """Where the table under the panels (the trick, the exchanges, the standings) starts."""
    return body_top(public, names, locale) + MARGIN + (int(public["players"]) + 1) // 2 * (PANEL_H + GAP) + 6


def render_public(obs: Mapping[str, Any], *, names: Any, locale: str = "en", theme: str = "dark") -> bytes:
    public = obs["public"]
    th = theme_of(theme)
    players = int(public["players"])
    head = header(public, names, locale)
    top = header_height(head, WIDTH)
    below = top + MARGIN + (players + 1) // 2 * (PANEL_H + GAP) + 6

    def draw(s: Surface) -> None:
        s.part(_body(players, th.name), (0, top))
        felt = (below, below + TABLE_H - MARGIN)  # the felt's rounded box, inside its corners
        s.clear((MARGIN + 18, felt[0], WIDTH - MARGIN - 18, felt[1]), th.header)
        s.clear((MARGIN, felt[0] + 18, WIDTH - MARGIN, felt[1] - 18), th.header)
        s.header(head)
        for seat, box in enumerate(_layout(players, top)):
            _panel(s, public, seat, box, names, locale, th)
        if public["phase"] == "exchange":
            _exchanges(s, public, below, names, locale, th)
        elif public["phase"] == "play":
            _trick(s, public, below, names, locale, th)
        elif public["result"] is not None:
            _standings(s, public, below, names, locale, th)

    return _drawn(draw, WIDTH, top + _body_height(players), th)


# -------------------------------------------------------------------------------- the hand
def _exchange_lines(s: Surface, ex: Mapping[str, Any], y: int, names: Any, locale: str, th: Theme) -> None:
    key = "tolp.ui.you_high" if ex["role"] == "high" else "tolp.ui.you_low"
    line = t(key, locale, count=ex["count"], partner=seat_name(names, ex["partner"]))
    lines, size = fit_lines(line, WIDTH - 2 * MARGIN - 10, SCALE.body, SMALL, True, lines=1)
    bg = th.background
    s.text((MARGIN + 10, y), lines[0], size, bold=True, fill=th.ink, ground=bg)
    y += 50
    x = MARGIN + 10
    small_w, small_h = 80, 112
    high = ex["role"] == "high"
    if ex["laid"] is not None:  # laid down by the higher player for the lower one
        s.text((x, y), t("tolp.ui.gave" if high else "tolp.ui.got", locale), SMALL, fill=th.muted, ground=bg)
        for i, card in enumerate(ex["laid"]):
            s.card(card, x + i * (small_w + 8), y + 36, small_w, small_h)
        x += max(200, len(ex["laid"]) * (small_w + 8) + 30)
    elif ex["role"] == "low":
        s.text((x, y), t("tolp.ui.laid_hidden", locale, count=ex["count"]), SMALL, fill=th.muted, ground=bg)
        x += 460
    if ex["taken"] is not None:  # handed over by the lower player to the higher one
        s.text((x, y), t("tolp.ui.got" if high else "tolp.ui.gave", locale), SMALL, fill=th.muted, ground=bg)
        for i, card in enumerate(ex["taken"]):
            s.card(card, x + i * (small_w + 8), y + 36, small_w, small_h)
        x += max(200, len(ex["taken"]) * (small_w + 8) + 30)
    if ex["asked"]:
        s.text((x, y), t("tolp.ui.questions", locale), SMALL, fill=th.muted, ground=bg)
        answers = "   ".join(t("tolp.ui.asked", locale, rank=q["rank"], count=q["count"]) for q in ex["asked"])
        s.text((x, y + 40), _fit(answers, 30, WIDTH - MARGIN - x, bold=True), 30, bold=True, fill=th.ink,
               ground=bg)


def private_key(obs: Mapping[str, Any]) -> str:
    """All that ``render_private`` reads of the observation (besides names and locale): the same key
    gives the same picture, so an unchanged hand is not drawn again."""
    return json.dumps([obs.get("seat") is None, obs.get("private")], sort_keys=True, separators=(",", ":"))


def render_private(obs: Mapping[str, Any], *, names: Any, locale: str = "en", theme: str = "dark") -> bytes | None:
    """The player's hand (and their exchange between rounds); None when there is nothing of theirs
    to show: a player who went out holds no cards, and an empty hand is no picture."""
    private = obs.get("private")
    if private is None or obs.get("seat") is None:
        return None
    hand: list[str] = private["hand"]
    ex = private["exchange"]
    if not hand and not ex:
        return None
    th = theme_of(theme)
    rows = [hand[i:i + HAND_PER_ROW] for i in range(0, len(hand), HAND_PER_ROW)] or [[]]
    title = Header(f"{t('tolp.name', locale)} · {seat_name(names, obs['seat'])}",
                   acting=t("tolp.ui.your_hand", locale, count=len(hand)))
    hand_top = header_height(title, WIDTH) + MARGIN
    row_h = HAND_H + 16
    height = hand_top + len(rows) * row_h + (220 if ex else 10)
    # few cards lie side by side; a full row overlaps down to the strip showing rank and suit
    longest = max(len(row) for row in rows)
    step = min(HAND_W + 12, (WIDTH - 2 * MARGIN - 20 - HAND_W) // max(1, longest - 1))

    def draw(s: Surface) -> None:
        s.header(title)
        s.clear((0, hand_top - MARGIN + 1, WIDTH, height), th.background)
        for r, row in enumerate(rows):
            y = hand_top + r * row_h
            for i, card in enumerate(row):
                s.card(card, MARGIN + 10 + i * step, y, HAND_W, HAND_H)
        if ex:
            y = hand_top + len(rows) * row_h + 10
            s.draw.line([MARGIN, y - 8, WIDTH - MARGIN, y - 8], fill=th.line, width=4)
            s.mark((MARGIN - 4, y - 12, WIDTH - MARGIN + 5, y - 3))
            _exchange_lines(s, ex, y, names, locale, th)

    return _drawn(draw, WIDTH, height, th)


# -------------------------------------------------------------------------------- in words
def describe_private(obs: Mapping[str, Any], *, locale: str = "en") -> str:
    """The viewer's hand for the console: codes to type beside their suit symbols, and their
    exchange when one is running."""
    private = obs.get("private")
    if private is None:
        return ""
    hand = private["hand"]
    lines = [t("tolp.ui.your_hand", locale, count=len(hand)),
             "  " + "  ".join(f"{card}({parse_card(card).pretty})" for card in hand)]
    exchange = private.get("exchange")
    if exchange:
        partner = seat_name(obs.get("names") or [], exchange["partner"])
        key = "tolp.ui.you_high" if exchange["role"] == "high" else "tolp.ui.you_low"
        lines.append(t(key, locale, count=exchange["count"], partner=partner))
        high = exchange["role"] == "high"
        if exchange.get("laid"):
            lines.append(f"{t('tolp.ui.gave' if high else 'tolp.ui.got', locale)}: {' '.join(exchange['laid'])}")
        if exchange.get("taken"):
            lines.append(f"{t('tolp.ui.got' if high else 'tolp.ui.gave', locale)}: {' '.join(exchange['taken'])}")
        if exchange.get("asked"):
            answers = ", ".join(t("tolp.ui.asked", locale, rank=a["rank"], count=a["count"]) for a in exchange["asked"])
            lines.append(f"{t('tolp.ui.questions', locale)}: {answers}")
    return "\n".join(lines)


def render_result(obs: Mapping[str, Any], *, names: Any, locale: str = "en", theme: str = "dark") -> bytes:
    """The standings picture a finished game ends on (rendering/result.py)."""
    return render_standings(obs, names=names, locale=locale, theme=theme)


# ----------------------------------------------------------------------------- in words
def describe(view: str, obs: Obs, names: Any, locale: str) -> list[str]:
    """The picture ``view`` ("public", "private" or "focus") in sentences (rendering.alt)."""
    pub = obs["public"]
    parts = [title("tolp", locale, t("tolp.ui.round", locale, round=pub["round"])), acting(obs, names, locale)]
    if pub["phase"] == "exchange":
        parts.append(t("tolp.ui.exchange_phase", locale) + ".")
    if pub["table"]:
        top = pub["table"][-1]
        parts.append(t("render.alt.tolp_table", locale, name=seat_name(names, top["seat"]),
                       cards=cards_text(top["cards"])))
    elif pub["turn"] is not None and pub["phase"] == "play":
        parts.append(t("tolp.ui.table_empty", locale, name=seat_name(names, pub["turn"])) + ".")
    if pub["passed"]:
        parts.append(t("render.alt.passed", locale, names=", ".join(seat_name(names, s) for s in pub["passed"])))
    if view == "private" and obs.get("private") is not None:
        hand = obs["private"]["hand"]
        parts.append(t("render.alt.hand", locale, count=len(hand), cards=cards_text(hand)) if hand
                     else t("render.alt.no_hand", locale))
    seats = []
    for seat in range(pub["players"]):
        bits = [seat_name(names, seat)]
        if pub["titles"][seat]:
            bits.append(t(f"tolp.title.{pub['titles'][seat]}", locale))
        place = pub["places"][seat]
        bits.append(t("render.alt.out", locale, place=place + 1) if place is not None
                    else t("render.alt.cards", locale, count=pub["counts"][seat]))
        if pub["kungs"][seat]:
            bits.append(t("tolp.ui.kungs", locale, count=pub["kungs"][seat]))
        seats.append(" ".join(bits[:1]) + ": " + ", ".join(bits[1:]))
    parts.append("; ".join(seats) + ".")
    return parts


def result_places(pub: Mapping[str, Any]) -> Places:
    """A finished game's places, reason, Kung titles by seat and nobody out (rendering.standings)."""
    result = pub.get("result") or {"places": [], "reason": "tolp.end.rounds"}
    return [list(p) for p in result["places"]], str(result["reason"]), dict(enumerate(pub["kungs"])), set()


def score_text(score: int, locale: str) -> str:
    return t("render.result.kungs", locale, count=score)


# ----------------------------------------------------------------------------- views it has not
render_focus: Callable[..., bytes | None] | None = None  # no close-up view
describe_public: Callable[..., str] | None = None  # no table in words for the console
