"""One look for every game: the themes (dark by default, light per server), the type scale and the
header every picture opens with.

Discord is mostly used in dark mode, on #313338: the dark theme's pictures sit a step darker than
the chat so they read as a card, the light one is for servers that chose it (``/game settings
theme:``). Sizes come from the type scale, in the picture's own pixels for the width it is drawn
at, chosen for what a phone shows: a picture is looked at 400 px wide, and no text a player needs
is under 9 px there (tests/unit/test_legibility.py checks both themes).

The header is the same on every board: the game and the round on a line of their own, then who
acts, marked with the player-to-act colour (the same colour rings their panel or piece), then what
just happened. A name is never cut while a smaller size or a line of its own still holds it whole.
"""
from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from PIL import Image, ImageDraw

from rendering.fonts import fit, paste_text, text_box, text_length

RGB = tuple[int, int, int]
PHONE = 400  # the width a phone shows a picture at
BAR = 9.0  # the smallest text a player needs, in px at PHONE width
THEMES = ("dark", "light")
DEFAULT = "dark"


@dataclass(frozen=True)
class Theme:
    name: str
    background: RGB  # the picture
    header: RGB  # the header band
    surface: RGB  # a player's panel
    surface_turn: RGB  # the panel of the player to act
    ink: RGB  # text
    muted: RGB  # secondary text (still ≥ 4.5:1 on the surface)
    line: RGB  # frames and rules
    turn: RGB  # the player to act: their name, their panel's ring, their piece's ring
    last: RGB  # the last move: the pile, square or card it touched
    win: RGB  # the winner
    danger: RGB  # a pass, a debt, a lost piece


DARK = Theme("dark", background=(30, 31, 34), header=(43, 45, 49), surface=(49, 51, 56),
             surface_turn=(66, 58, 32), ink=(242, 243, 245), muted=(185, 187, 194), line=(78, 80, 88),
             turn=(250, 196, 45), last=(92, 178, 255), win=(250, 196, 45), danger=(242, 84, 84))
LIGHT = Theme("light", background=(242, 243, 245), header=(227, 229, 232), surface=(255, 255, 255),
              surface_turn=(255, 243, 205), ink=(30, 31, 34), muted=(78, 80, 88), line=(196, 199, 205),
              turn=(166, 112, 0), last=(0, 105, 210), win=(176, 120, 0), danger=(200, 30, 45))


def theme_of(name: str | None) -> Theme:
    """The theme called ``name`` ("dark" or "light"); anything else is the dark default."""
    return LIGHT if name == "light" else DARK


@dataclass(frozen=True)
class TypeScale:
    """Type sizes (em height in the picture's pixels) for a picture ``width`` pixels wide: at
    400 px the title is 15 px, body text 12 px, small print 9.5 px (over the 9 px bar)."""

    width: int

    def px(self, at_phone: float) -> int:
        return math.ceil(at_phone * self.width / PHONE)

    @property
    def title(self) -> int:
        return self.px(15)

    @property
    def body(self) -> int:
        return self.px(12)

    @property
    def small(self) -> int:
        return self.px(9.5)

    @property
    def margin(self) -> int:
        return self.px(8)


# ----------------------------------------------------------------------------- names that fit
def shrink_to_fit(text: str, width: float, size: int, smallest: int, bold: bool = False) -> int | None:
    """The largest size from ``size`` down to ``smallest`` at which ``text`` fits ``width``; None
    when even the smallest is too wide."""
    for candidate in range(size, smallest - 1, -1):
        if text_length(text, candidate, bold) <= width:
            return candidate
    return None


def fit_lines(text: str, width: float, size: int, smallest: int, bold: bool = False,
              lines: int = 2, shrink: float = 0.8) -> tuple[list[str], int]:
    """``text`` whole: on one line, shrunk down to ``shrink`` × ``size`` if need be; else broken at
    spaces (or, for one long word, anywhere) onto up to ``lines`` lines at the largest size that
    holds it, down to ``smallest``; only what fits nowhere is cut, with an ellipsis, on the last line."""
    floor = max(smallest, int(size * shrink))
    one = shrink_to_fit(text, width, size, floor, bold)
    if one is not None:
        return [text], one
    for candidate in range(floor, smallest - 1, -1):
        broken = _break(text, width, candidate, bold)
        if len(broken) <= lines:
            return broken, candidate
    broken = _break(text, width, smallest, bold)
    head, rest = broken[:lines - 1], " ".join(broken[lines - 1:])
    return [*head, fit(rest, smallest, width, bold)], smallest


def _break(text: str, width: float, size: int, bold: bool) -> list[str]:
    out: list[str] = []
    for word in text.split(" "):
        if out and text_length(f"{out[-1]} {word}", size, bold) <= width:
            out[-1] = f"{out[-1]} {word}"
            continue
        while text_length(word, size, bold) > width and len(word) > 1:  # a long name breaks anywhere
            cut = len(word)
            while cut > 1 and text_length(word[:cut], size, bold) > width:
                cut -= 1
            out.append(word[:cut])
            word = word[cut:]
        out.append(word)
    return out


# ----------------------------------------------------------------------------- the header
@dataclass(frozen=True)
class Header:
    """What a board's header says: ``title`` (game · round …), ``acting`` (who acts, as a sentence
    naming them: "Bo to play"), ``news`` (what just happened), ``right`` (a short fact at the
    title's end: a roll, the stock)."""

    title: str
    acting: str = ""
    news: str = ""
    right: str = ""
    finished: bool = False


def header_height(header: Header, width: int) -> int:
    """The height ``draw_header`` will take for ``header`` at ``width``."""
    return _layout(header, width)[0]


def header_items(header: Header, width: int) -> tuple[int, list[tuple[str, int, bool, str, int]]]:
    """What ``draw_header`` draws: its height and each text as (text, size, bold, role, y), roles
    title, right, acting and news (for a renderer that draws the header its own way)."""
    return _layout(header, width)


def header_colour(header: Header, theme: Theme, role: str) -> RGB:
    """The colour ``draw_header`` gives a text of ``role``."""
    if role == "right":
        return theme.muted
    return {"title": theme.muted, "acting": theme.win if header.finished else theme.turn, "news": theme.ink}[role]


def _layout(header: Header, width: int) -> tuple[int, list[tuple[str, int, bool, str, int]]]:
    """(height, [(text, size, bold, role, y)]) with roles title, right, acting, news."""
    scale = TypeScale(width)
    m = scale.margin
    room = width - 2 * m
    items: list[tuple[str, int, bool, str, int]] = []
    y = m
    right_w = text_length(header.right, scale.small) + m if header.right else 0
    title = header.title
    title_size = shrink_to_fit(title, room - right_w, scale.body, scale.small, True)
    if title_size is None:
        title_size, title = scale.small, fit(title, scale.small, room - right_w, True)
    items.append((title, title_size, True, "title", y))
    if header.right:
        items.append((header.right, scale.small, False, "right", y + (title_size - scale.small)))
    y += round(title_size * 1.35)
    if header.acting:
        lines, size = fit_lines(header.acting, room, scale.title, scale.small, True)
        for line in lines:
            items.append((line, size, True, "acting", y))
            y += round(size * 1.25)
    if header.news:
        lines, size = fit_lines(header.news, room, scale.body, scale.small, False, lines=3)
        for line in lines:
            items.append((line, size, False, "news", y))
            y += round(size * 1.3)
    return y + m // 2, items


def draw_header(canvas: Image.Image, header: Header, theme: Theme, top: int = 0) -> int:
    """Draw ``header`` across the top of ``canvas`` from ``top``; the height it took."""
    width = canvas.width
    height, items = _layout(header, width)
    ImageDraw.Draw(canvas).rectangle([0, top, width, top + height], fill=theme.header)
    for text, size, bold, role, xy, anchor in _placed(items, width, top):
        paste_text(canvas, xy, text, size, bold=bold, fill=header_colour(header, theme, role), anchor=anchor)
    return height


def header_boxes(header: Header, width: int, top: int = 0) -> list[tuple[int, int, int, int]]:
    """The boxes (x0, y0, x1, y1) the texts ``draw_header`` draws lie in: the rest of the header
    is its ground colour (for a renderer that maps only what was drawn onto its palette)."""
    return [text_box(xy, text, size, bold=bold, anchor=anchor)
            for text, size, bold, _, xy, anchor in _placed(_layout(header, width)[1], width, top)]


def _placed(items: list[tuple[str, int, bool, str, int]], width: int,
            top: int) -> list[tuple[str, int, bool, str, tuple[float, float], str]]:
    """Each text of the header where ``draw_header`` pastes it: (text, size, bold, role, xy, anchor)."""
    m = TypeScale(width).margin
    return [(text, size, False, role, (width - m, top + y), "ra") if role == "right"
            else (text, size, bold, role, (m, top + y), "la") for text, size, bold, role, y in items]


def marker(draw: ImageDraw.ImageDraw, box: Sequence[float], theme: Theme, *, turn: bool = False, last: bool = False,
           radius: int = 12, width: int = 5) -> None:
    """The one mark for the player to act (a ring of the turn colour) and for what the last move
    touched (a ring of the last-move colour); both when both."""
    x0, y0, x1, y1 = box
    if last:
        draw.rounded_rectangle([x0, y0, x1, y1], radius=radius, outline=theme.last, width=width)
    if turn:
        inset = width if last else 0
        draw.rounded_rectangle([x0 + inset, y0 + inset, x1 - inset, y1 - inset], radius=radius,
                               outline=theme.turn, width=width)
