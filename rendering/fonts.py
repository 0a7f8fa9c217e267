"""Fonts and text drawing with per-character fallback, so that every player name draws.

Roboto (fontpkg-roboto) sets our own texts; a name's characters that Roboto lacks fall back along
a chain of Noto fonts: Noto Sans (more Latin, Greek, Cyrillic and combining marks; fontpkg-noto-sans),
the Noto Sans script fonts (Arabic, Devanagari, Khmer, Tamil, Telugu and Thai from their fontpkg
packages; Hebrew, Bengali, … kept in rendering/fontfiles/ with their licence, as no maintained
package ships them), Noto Sans Symbols, the monochrome Noto Emoji (both kept there too), and Noto
Sans CJK (noto-cjk-sans-otc). A text is cut into runs, each
drawn with the first font whose character map covers the whole cluster (a base character with
its combining marks, variation selectors, skin tones and zero-width-joined parts); Pillow's raqm
layout shapes each run (Arabic joins and reads right to left, emoji sequences ligate). A
character no font has becomes U+FFFD, never the missing-glyph box. Character maps are read with
fontTools once per font and only when a text needs that font.

``recording()`` lists every text drawn through ``draw_text`` with its size, so tests can check
the legibility bar (docs/architecture.md "Readable on a phone") on real renders.
"""
from __future__ import annotations

import math
import unicodedata
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from functools import cache, lru_cache
from pathlib import Path
from types import ModuleType
from typing import Any

import fontpkg_noto_sans
import fontpkg_noto_sans_arabic
import fontpkg_noto_sans_devanagari
import fontpkg_noto_sans_khmer
import fontpkg_noto_sans_tamil
import fontpkg_noto_sans_telugu
import fontpkg_noto_sans_thai
import fontpkg_roboto
import noto_cjk_sans_otc
from fontTools.ttLib import TTFont
from PIL import Image, ImageDraw, ImageFont


def _files(package: ModuleType) -> Path:
    return Path(str(package.__file__)).resolve().parent / "files"


ROBOTO = _files(fontpkg_roboto) / "Roboto[wdth,wght].ttf"
KEPT_DIR = Path(__file__).resolve().parent / "fontfiles"  # the fonts no maintained package ships
PACKAGED = {"Arabic": fontpkg_noto_sans_arabic, "Devanagari": fontpkg_noto_sans_devanagari,
            "Khmer": fontpkg_noto_sans_khmer, "Tamil": fontpkg_noto_sans_tamil, "Telugu": fontpkg_noto_sans_telugu,
            "Thai": fontpkg_noto_sans_thai}
CJK_FILE = Path(str(noto_cjk_sans_otc.FONT_PATH))
REPLACEMENT = "\ufffd"
# Noto Sans's scripts that Latin faces lack, in the order they are tried (any order works: each
# covers its own script only).
_SCRIPTS = ("Arabic", "Hebrew", "Devanagari", "Bengali", "Thai", "Tamil", "Telugu", "Kannada", "Malayalam",
            "Gujarati", "Gurmukhi", "Oriya", "Sinhala", "Khmer", "Lao", "Myanmar", "Georgian", "Armenian",
            "Ethiopic")


@dataclass(frozen=True)
class Face:
    """One font file of the fallback chain; ``bold`` is a file of its own or a variable-font weight."""
    regular: Path
    bold: Path | None = None
    index: int = 0  # the face inside a collection (.ttc)
    variable: bool = False


def _script(script: str) -> Path:
    if script in PACKAGED:
        return _files(PACKAGED[script]) / f"NotoSans{script}[wdth,wght].ttf"
    return KEPT_DIR / f"NotoSans{script}[wght].ttf"


CHAIN: tuple[Face, ...] = (
    Face(ROBOTO, variable=True),
    Face(_files(fontpkg_noto_sans) / "NotoSans[wdth,wght].ttf", variable=True),
    *(Face(_script(script), variable=True) for script in _SCRIPTS),
    Face(KEPT_DIR / "NotoSansSymbols[wght].ttf", variable=True),
    Face(KEPT_DIR / "NotoEmoji[wght].ttf", variable=True),
    Face(CJK_FILE, index=2),  # Noto Sans CJK SC; kana and hangul are in every face of the collection
)
EMOJI = len(CHAIN) - 2


@cache
def coverage(face: int) -> frozenset[int]:
    """The code points a face of the chain draws (its best Unicode character map)."""
    entry = CHAIN[face]
    font_file = TTFont(str(entry.regular), fontNumber=entry.index, lazy=True)
    try:
        return frozenset(font_file.getBestCmap() or {})
    finally:
        font_file.close()


@cache
def face_font(face: int, size: int, bold: bool = False) -> ImageFont.FreeTypeFont:
    entry = CHAIN[face]
    if bold and entry.bold is not None:
        return ImageFont.truetype(str(entry.bold), size)
    loaded = ImageFont.truetype(str(entry.regular), size, index=entry.index)
    if bold and entry.variable:  # the weight axis at 700, every other axis at its default
        loaded.set_variation_by_axes([700.0 if axis["name"] in (b"Weight", "Weight") else float(axis["default"] or 0)
                                      for axis in loaded.get_variation_axes()])
    return loaded


def font(size: int, bold: bool = False) -> ImageFont.FreeTypeFont:
    """Roboto at ``size`` pixels: for our own texts, which it covers (å ä ö æ ø ě š č ř ž ů)."""
    return face_font(0, size, bold)


# ----------------------------------------------------------------------------- runs
def _attaches(char: str) -> bool:
    """Whether ``char`` belongs to the cluster before it: combining marks, joiners, variation
    selectors, emoji skin tones and tag characters (subdivision flags)."""
    code = ord(char)
    return (unicodedata.category(char) in ("Mn", "Me", "Mc") or code in (0x200C, 0x200D)
            or 0xFE00 <= code <= 0xFE0F or 0x1F3FB <= code <= 0x1F3FF or 0xE0020 <= code <= 0xE007F)


def _ignorable(char: str) -> bool:
    code = ord(char)
    return code in (0x200C, 0x200D) or 0xFE00 <= code <= 0xFE0F or 0xE0020 <= code <= 0xE007F


def _neutral(cluster: str) -> bool:
    """Spaces and punctuation: they take the direction and the font of the run around them."""
    return len(cluster) == 1 and unicodedata.bidirectional(cluster) in ("WS", "ON", "CS", "ES", "ET", "S")


def clusters(text: str) -> list[str]:
    """``text`` cut into clusters: a base character with everything that attaches to it, and the
    parts of a zero-width-joined emoji sequence together."""
    out: list[str] = []
    for char in text:
        if out and (_attaches(char) or out[-1].endswith("\u200d")):
            out[-1] += char
        else:
            out.append(char)
    return out


def _face_for(cluster: str) -> tuple[int, str]:
    """The first face that draws the whole cluster, and the cluster as it will be drawn (marks no
    face draws with its base are dropped; a base no face has becomes U+FFFD)."""
    needed = [ord(c) for c in cluster if not _ignorable(c)]
    order: Sequence[int] = range(len(CHAIN))
    if "\ufe0f" in cluster or 0x1F000 <= ord(cluster[0]) <= 0x1FAFF:  # emoji presentation first
        order = [EMOJI, *(f for f in range(len(CHAIN)) if f != EMOJI)]
    for face in order:
        if all(code in coverage(face) for code in needed):
            kept = "".join(c for c in cluster if not _ignorable(c) or ord(c) in coverage(face))
            return face, kept
    for face in order:  # the base alone, without the marks no face draws together with it
        if ord(cluster[0]) in coverage(face):
            return face, "".join(c for c in cluster if ord(c) in coverage(face))
    return 0, REPLACEMENT


def _cluster_face(cluster: str) -> tuple[int, str]:
    if ord(cluster[0]) in coverage(0) and all(ord(c) in coverage(0) or _ignorable(c) for c in cluster):
        return 0, "".join(c for c in cluster if ord(c) in coverage(0))
    return _face_for(cluster)


@cache
def _first_face_chars() -> frozenset[str]:
    """Every character the first face (Roboto) draws, as one-character strings."""
    return frozenset(chr(code) for code in coverage(0))


@lru_cache(maxsize=32768)  # a thousand tables' names (as rendering.tolp.TEXT_CACHE)
def runs(text: str) -> tuple[tuple[str, int], ...]:
    """``text`` as runs of (characters, face index) to draw one after another. A space or a
    punctuation mark between two clusters of the same fallback face joins their run, so that an
    Arabic name is laid out right to left as a whole."""
    if _first_face_chars().issuperset(text):  # every cluster is the first face's, drawn whole: one run
        return ((text, 0),) if text else ()
    return _runs_by_cluster(text)


def _runs_by_cluster(text: str) -> tuple[tuple[str, int], ...]:
    chosen = [_cluster_face(cluster) for cluster in clusters(text)]
    for n in range(1, len(chosen) - 1):
        before, after = chosen[n - 1][0], chosen[n + 1][0]
        between = chosen[n][1]
        if before == after and before not in (0, EMOJI) and _neutral(between) and ord(between) in coverage(before):
            chosen[n] = (before, chosen[n][1])
    out: list[tuple[str, int]] = []
    for face, drawn in chosen:
        if out and out[-1][1] == face:
            out[-1] = (out[-1][0] + drawn, face)
        elif drawn:
            out.append((drawn, face))
    return tuple(out)


# ----------------------------------------------------------------------------- measuring and drawing
@dataclass(frozen=True)
class DrawnText:
    text: str
    size: int
    bold: bool


_RECORD: ContextVar[list[DrawnText] | None] = ContextVar("drawn_texts", default=None)


@contextmanager
def recording() -> Iterator[list[DrawnText]]:
    """Collect every text drawn through ``draw_text`` (and the kit's cached text images) inside
    the block."""
    drawn: list[DrawnText] = []
    token = _RECORD.set(drawn)
    try:
        yield drawn
    finally:
        _RECORD.reset(token)


def note(text: str, size: int, bold: bool) -> None:
    drawn = _RECORD.get()
    if drawn is not None:
        drawn.append(DrawnText(text, size, bold))


@lru_cache(maxsize=65536)  # each name at a few sizes
def text_length(text: str, size: int, bold: bool = False) -> float:
    """The advance width of ``text`` in pixels, fallback fonts included."""
    return sum(run_length(part, face, size, bold) for part, face in runs(text))


@lru_cache(maxsize=16384)
def run_length(part: str, face: int, size: int, bold: bool) -> float:
    """The advance width of one run in its face: a log line's suits, ranks and counts come back
    in every other line, so their widths are laid out once."""
    return face_font(face, size, bold).getlength(part)


@lru_cache(maxsize=8192)
def _run_mask(part: str, face: int, size: int, bold: bool,
              start: tuple[float, float]) -> tuple[Any, tuple[int, int]]:
    """One run's coverage as Pillow's ``ImageDraw.text`` rasterizes it at a baseline-left anchor
    whose fractional position is ``start``, and its offset from that anchor's whole pixel."""
    return face_font(face, size, bold).getmask2(part, "L", None, None, None, 0, "ls", 0, start, stroke_filled=True)


def _draw_run(draw: ImageDraw.ImageDraw, xy: tuple[float, float], part: str, face: int, size: int, bold: bool,
              fill: tuple[int, ...] | int) -> None:
    """``draw.text(xy, part, anchor="ls")`` in ``face``, the same pixels, from the cached run: a
    line of several runs (a name, then cards with their suits) is new on every move, but its
    suits and ranks are not."""
    if draw.fontmode != "L" or "\n" in part:
        draw.text(xy, part, font=face_font(face, size, bold), fill=fill, anchor="ls")
        return
    ink, fill_ink = draw._getink(fill)
    ink = fill_ink if ink is None else ink
    if ink is None:
        return
    x, y = xy
    mask, offset = _run_mask(part, face, size, bold, (math.modf(x)[0], math.modf(y)[0]))
    draw.draw.draw_bitmap((int(x) + offset[0], int(y) + offset[1]), mask, ink)


def fit(text: str, size: int, width: float, bold: bool = False) -> str:
    """``text`` shortened with an ellipsis (whole clusters at a time) to fit ``width`` pixels."""
    if text_length(text, size, bold) <= width:
        return text
    parts = clusters(text)
    while parts and text_length("".join(parts) + "…", size, bold) > width:
        parts.pop()
    return "".join(parts).rstrip() + "…"


def _baseline(y: float, anchor: str, size: int, bold: bool) -> float:
    ascent, descent = font(size, bold).getmetrics()
    return y + {"a": ascent, "t": ascent, "m": (ascent - descent) / 2, "s": 0, "b": -descent,
                "d": -descent}[anchor[1]]


def draw_text(draw: ImageDraw.ImageDraw, xy: tuple[float, float], text: str, size: int, *, bold: bool = False,
              fill: tuple[int, ...] | int = 0, anchor: str = "la", stroke_width: int = 0,
              stroke_fill: tuple[int, ...] | None = None) -> None:
    """``draw.text`` with Roboto and the fallback chain: anchors l/m/r then a/t/m/s/b/d, measured
    on Roboto's metrics so that a fallback run sits on the same baseline."""
    note(text, size, bold)
    _draw_runs(draw, xy, text, size, bold=bold, fill=fill, anchor=anchor, stroke_width=stroke_width,
               stroke_fill=stroke_fill)


def _draw_runs(draw: ImageDraw.ImageDraw, xy: tuple[float, float], text: str, size: int, *, bold: bool,
               fill: tuple[int, ...] | int, anchor: str, stroke_width: int = 0,
               stroke_fill: tuple[int, ...] | None = None) -> None:
    parts = runs(text)
    if not parts:
        return
    if len(parts) == 1 and parts[0][1] == 0:
        draw.text(xy, parts[0][0], font=font(size, bold), fill=fill, anchor=anchor, stroke_width=stroke_width,
                  stroke_fill=stroke_fill)
        return
    total = text_length(text, size, bold)
    x = xy[0] - {"l": 0.0, "m": total / 2, "r": total}[anchor[0]]
    y = _baseline(xy[1], anchor, size, bold)
    for part, face in parts:
        face_f = face_font(face, size, bold)
        # a face with no bold weight (the CJK collection) is emboldened by a thin stroke of its own ink
        fake_bold = bold and CHAIN[face].bold is None and not CHAIN[face].variable and not stroke_width
        if fake_bold or stroke_width:
            draw.text((x, y), part, font=face_f, fill=fill, anchor="ls",
                      stroke_width=max(1, size // 28) if fake_bold else stroke_width,
                      stroke_fill=fill if fake_bold else stroke_fill)
        else:
            _draw_run(draw, (x, y), part, face, size, bold, fill)
        x += run_length(part, face, size, bold)


@lru_cache(maxsize=4096)
def _mask(text: str, size: int, bold: bool, anchor: str) -> tuple[Image.Image, int, int]:
    pad = size
    width = int(text_length(text, size, bold)) + 2 * pad
    canvas = Image.new("L", (max(1, width), 4 * size), 0)
    origin = ({"l": pad, "m": width / 2, "r": width - pad}[anchor[0]], 2 * size)
    _draw_runs(ImageDraw.Draw(canvas), origin, text, size, bold=bold, fill=255, anchor=anchor)
    box = canvas.getbbox() or (0, 0, 1, 1)
    return canvas.crop(box), int(box[0] - origin[0]), int(box[1] - origin[1])


def text_mask(text: str, size: int, bold: bool = False, anchor: str = "la", *,
              recorded: bool = True) -> tuple[Image.Image, int, int]:
    """Anti-aliased coverage of ``text`` (drawn once, cached) and its offset from the anchor point:
    paste it with ``draw.bitmap`` or as the alpha of a colour; much faster than drawing again.
    ``recorded=False``: the caller has counted the text as drawn itself (``note``)."""
    if recorded:
        note(text, size, bold)
    return _mask(text, size, bold, anchor)


def paste_text(canvas: Image.Image, xy: tuple[float, float], text: str, size: int, *, bold: bool = False,
               fill: tuple[int, int, int] = (255, 255, 255), anchor: str = "la") -> None:
    """Draw ``text`` onto ``canvas`` from its cached mask."""
    if not text:
        return
    mask, dx, dy = text_mask(text, size, bold, anchor)
    canvas.paste(fill, (int(xy[0]) + dx, int(xy[1]) + dy, int(xy[0]) + dx + mask.width,
                        int(xy[1]) + dy + mask.height), mask)


def text_box(xy: tuple[float, float], text: str, size: int, *, bold: bool = False,
             anchor: str = "la") -> tuple[int, int, int, int]:
    """The box (x0, y0, x1, y1) ``paste_text`` with these arguments covers (nothing is recorded)."""
    mask, dx, dy = _mask(text, size, bold, anchor)
    x, y = int(xy[0]) + dx, int(xy[1]) + dy
    return x, y, x + mask.width, y + mask.height


def stamp_text(draw: ImageDraw.ImageDraw, xy: tuple[float, float], text: str, size: int, *, bold: bool = False,
               fill: tuple[int, int, int] = (255, 255, 255), anchor: str = "la") -> None:
    """``draw_text`` from the cached mask: for texts that come back on every render (piece names,
    coordinates, player names), where shaping and rasterizing again would cost more than the rest."""
    if not text:
        return
    mask, dx, dy = text_mask(text, size, bold, anchor)
    draw.bitmap((int(round(xy[0] + dx)), int(round(xy[1] + dy))), mask, fill=fill)


def missing_glyphs(text: str) -> list[str]:
    """The characters of ``text`` that would not draw as themselves: not in the chosen face's
    character map, or replaced by U+FFFD (for tests and checks)."""
    missing: list[str] = []
    for part, face in runs(text):
        missing += [c for c in part if ord(c) not in coverage(face) and not _ignorable(c)]
    replaced = sum(part.count(REPLACEMENT) for part, _ in runs(text)) - text.count(REPLACEMENT)
    return missing + [REPLACEMENT] * replaced
