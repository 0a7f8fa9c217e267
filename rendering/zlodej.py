"""Zloděj pictures from observations: the table for the channel and a player's hand for DMs.

Each open pile shows its second group upright with the top group laid across it, as on a real
table; locked piles show their joker on top. Cards, text snippets, the panel frames and the
palette are made once and cached at module level; each call pastes the changing parts and maps
the picture onto the fixed palette (adaptive quantizing would cost far more than drawing).
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import cache, lru_cache
from typing import Any

from PIL import Image, ImageDraw

from bot.engine.cards import parse_card
from bot.i18n import t
from rendering.kit import (
    CARD_BACK,
    FELT,
    FELT_DARK,
    HIGHLIGHT,
    MUTED,
    WHITE,
    encode_on_palette,
    fit,
    new_canvas,
    palette_from,
    paste_card,
    paste_text,
    seat_name,
    text_length,
)
from rendering.result import render_standings

WIDTH = 1100
MARGIN = 20
HEADER = 190
PANEL_H = 260
CARD_W, CARD_H = 100, 140
SMALL_W, SMALL_H = 64, 90
HAND_W, HAND_H = 190, 266
PANEL_FILL = (30, 110, 72)
PANEL_TURN = (44, 132, 88)
INK_LIGHT = (235, 240, 235)
# The small labels (empty pile, open count, locked piles): at least 9 px high when the picture
# is shown 400 px wide on a phone; the empty-pile label may take two lines of LABEL_W.
SMALL_TEXT = 25
LABEL_W = 180


def _paste(canvas: Image.Image, card: str | None, x: int, y: int, w: int, h: int,
           crosswise: bool = False) -> None:
    paste_card(canvas, card, x, y, w, h, crosswise=crosswise)


def _text(canvas: Image.Image, xy: tuple[int, int], text: str, size: int, *, bold: bool = False,
          fill: tuple[int, int, int] = WHITE, anchor: str = "la") -> None:
    paste_text(canvas, xy, text, size, bold=bold, fill=fill, anchor=anchor)


def _fit(text: str, size: int, width: int, bold: bool = False) -> str:
    """Shorten a long name so it fits its panel."""
    return fit(text, size, width, bold)


@lru_cache(maxsize=256)
def wrap(text: str, size: int, width: int, bold: bool = False) -> list[str]:
    """Greedy word wrap into at most two lines of ``width`` pixels; only a word that fits nowhere,
    or a third line, is shortened with an ellipsis."""
    def measure(line: str) -> float:
        return text_length(line, size, bold)

    lines: list[str] = []
    for word in text.split():
        if lines and measure(f"{lines[-1]} {word}") <= width:
            lines[-1] = f"{lines[-1]} {word}"
        else:
            lines.append(word)
    if len(lines) > 2:
        lines = [lines[0], " ".join(lines[1:])]
    return [_fit(line, size, width, bold) for line in lines]


@cache
def _palette() -> Image.Image:
    """A fixed 256-colour palette taken once from a sample of everything the pictures contain."""
    sample, draw = new_canvas(WIDTH, 900, FELT)
    for row, background in enumerate((FELT, FELT_DARK, PANEL_FILL, PANEL_TURN)):
        draw.rectangle([0, row * 60, WIDTH, row * 60 + 60], fill=background)
        for column, colour in enumerate((WHITE, INK_LIGHT, HIGHLIGHT, MUTED)):
            _text(sample, (column * 270 + 6, row * 60 + 8), "Zloděj Aq 10 ×5", 32, bold=column % 2 == 0,
                  fill=colour)
    cards = [f"{rank}{suit}" for suit in "CDHS" for rank in ("2", "10", "Q", "A")] + ["JK", None]
    for index, card in enumerate(cards):
        _paste(sample, card, 10 + (index % 9) * 120, 250 + (index // 9) * 160, CARD_W, CARD_H,
               crosswise=index % 3 == 0)
    for index, card in enumerate(("10H", "KS", "JK", None)):
        _paste(sample, card, 10 + index * 200, 600, HAND_W, HAND_H)
    draw.rectangle([900, 600, 1000, 700], fill=CARD_BACK)
    return palette_from(sample)


def _encode(canvas: Image.Image) -> bytes:
    return encode_on_palette(canvas, _palette())


# ------------------------------------------------------------------------------- the table
def _layout(players: int) -> list[tuple[int, int, int]]:
    """(x, y, width) of each seat's panel: two columns, one per row for a two-player game."""
    col_w = (WIDTH - 3 * MARGIN) // 2
    return [(MARGIN + (seat % 2) * (col_w + MARGIN), HEADER + (seat // 2) * (PANEL_H + MARGIN), col_w)
            for seat in range(players)]


@cache
def _table_base(players: int) -> Image.Image:
    rows = (players + 1) // 2
    height = HEADER + rows * (PANEL_H + MARGIN)
    image, draw = new_canvas(WIDTH, height, FELT)
    draw.rectangle([0, 0, WIDTH, HEADER - MARGIN], fill=FELT_DARK)
    for x, y, w in _layout(players):
        draw.rounded_rectangle([x, y, x + w, y + PANEL_H], radius=16, fill=PANEL_FILL, outline=FELT_DARK,
                               width=2)
    return image


def _header(canvas: Image.Image, draw: ImageDraw.ImageDraw, public: Mapping[str, Any], names: Any,
            locale: str) -> None:
    if public["stock"]:
        _paste(canvas, None, MARGIN, 20, CARD_W, CARD_H)
    else:
        draw.rounded_rectangle([MARGIN, 20, MARGIN + CARD_W, 20 + CARD_H], radius=8, outline=MUTED, width=3)
    _text(canvas, (MARGIN + CARD_W + 14, 40), t("zlodej.render.stock", locale), 26, fill=INK_LIGHT)
    _text(canvas, (MARGIN + CARD_W + 14, 74), str(public["stock"]), 44, bold=True)
    x = 300
    if public["discard_top"]:
        _paste(canvas, public["discard_top"], x, 20, CARD_W, CARD_H)
    else:
        draw.rounded_rectangle([x, 20, x + CARD_W, 20 + CARD_H], radius=8, outline=MUTED, width=3)
    _text(canvas, (x + CARD_W + 14, 40), t("zlodej.render.discard", locale), 26, fill=INK_LIGHT)
    _text(canvas, (x + CARD_W + 14, 74), str(public["discard_count"]), 44, bold=True)
    right = WIDTH - MARGIN
    if public["finished"]:
        status = t("zlodej.render.game_over", locale)
    else:
        status = t("zlodej.render.turn", locale, name=seat_name(names, public["turn"]))
    status = _fit(status, 40, 440, bold=True)
    _text(canvas, (right, 50), status, 40, bold=True, fill=HIGHLIGHT, anchor="ra")
    if public["drawing_over"] and not public["finished"]:
        _text(canvas, (right, 110), t("zlodej.render.drawing_over", locale), 28, fill=INK_LIGHT, anchor="ra")
    if public["finished"] and public.get("winners"):
        winners = ", ".join(seat_name(names, seat) for seat in public["winners"])
        line = _fit(t("zlodej.render.winner", locale, names=winners, count=len(public["winners"])), 34, 440,
                    bold=True)
        _text(canvas, (right, 106), line, 34, bold=True, fill=HIGHLIGHT, anchor="ra")


def _panel(canvas: Image.Image, draw: ImageDraw.ImageDraw, public: Mapping[str, Any], seat: int,
           box: tuple[int, int, int], names: Any, locale: str) -> None:
    x, y, w = box
    info = public["seats"][seat]
    turn = public["turn"] == seat
    if turn:  # the other panels' frames come with the cached base
        draw.rounded_rectangle([x, y, x + w, y + PANEL_H], radius=16, fill=PANEL_TURN, outline=HIGHLIGHT,
                               width=6)
    # The number matches the "#2" of the steal menus in the players' private views.
    name = _fit(f"#{seat + 1} {seat_name(names, seat)}", 32, w - 230, bold=True)
    _text(canvas, (x + 18, y + 14), name, 32, bold=True, fill=HIGHLIGHT if turn else WHITE)
    if public["scores"] is not None:
        # At the end hands are empty; the corner shows the pile total instead.
        points = t("zlodej.render.points", locale, points=public["scores"][seat])
        _text(canvas, (x + w - 18, y + 14), points, 32, bold=True, fill=HIGHLIGHT, anchor="ra")
    else:
        _paste(canvas, None, x + w - 128, y + 12, 30, 42)
        _text(canvas, (x + w - 88, y + 14), f"×{info['hand']}", 32, bold=True)
    if info["resigned"]:
        _text(canvas, (x + 18, y + PANEL_H - 40), t("zlodej.render.resigned", locale), 25, fill=INK_LIGHT)
    _open_pile(canvas, draw, info, x + 18, y + 62, locale)
    _locked_piles(canvas, draw, info["locked"], x + w - 176, y + 62, 158, locale)


def _open_pile(canvas: Image.Image, draw: ImageDraw.ImageDraw, info: Mapping[str, Any], x: int, y: int,
               locale: str) -> None:
    groups = info["top_groups"]
    if not groups:
        draw.rounded_rectangle([x + 20, y, x + 20 + CARD_W, y + CARD_H], radius=8, outline=MUTED, width=3)
        lines = wrap(t("zlodej.render.no_open_pile", locale), SMALL_TEXT, LABEL_W)  # room for locked piles
        top = y + CARD_H // 2 - len(lines) * (SMALL_TEXT + 6) // 2
        for index, line in enumerate(lines):
            _text(canvas, (x + 150, top + index * (SMALL_TEXT + 6)), line, SMALL_TEXT, fill=INK_LIGHT)
        return
    # The group below stands upright with its index showing; the top group lies across its lower part.
    left = x + 20
    if len(groups) > 1:
        _paste(canvas, groups[1]["top"], left, y, CARD_W, CARD_H)
    _paste(canvas, groups[0]["top"], left + (CARD_W - CARD_H) // 2, y + 52, CARD_W, CARD_H, crosswise=True)
    tx = x + 160
    _text(canvas, (tx, y + 18), f"{groups[0]['rank']} ×{groups[0]['count']}", 34, bold=True)
    if len(groups) > 1:
        _text(canvas, (tx, y + 62), f"{groups[1]['rank']} ×{groups[1]['count']}", 26, fill=INK_LIGHT)
    count = _fit(t("zlodej.render.open_count", locale, count=info["open_count"]), SMALL_TEXT, LABEL_W)
    _text(canvas, (tx, y + 110), count, SMALL_TEXT, fill=INK_LIGHT)


def _locked_piles(canvas: Image.Image, draw: ImageDraw.ImageDraw, piles: Sequence[Mapping[str, Any]],
                  x: int, y: int, width: int, locale: str) -> None:
    """The locked piles fanned out, each with its joker on top, and how many cards they hold."""
    if not piles:
        return
    _text(canvas, (x, y), _fit(t("zlodej.render.locked", locale, count=len(piles)), SMALL_TEXT, width),
          SMALL_TEXT, fill=INK_LIGHT)
    step = min(28, (width - SMALL_W) // max(1, len(piles) - 1))
    for index, pile in enumerate(piles):
        _paste(canvas, pile["top"], x + index * step, y + 32, SMALL_W, SMALL_H)
    total = _fit(t("zlodej.render.locked_cards", locale, count=sum(pile["count"] for pile in piles)), 25, width - 20,
                 bold=True)
    badge_w = max(SMALL_W, int(text_length(total, 25, True)) + 20)
    draw.rounded_rectangle([x, y + SMALL_H + 40, x + badge_w, y + SMALL_H + 72], radius=8, fill=FELT_DARK)
    _text(canvas, (x + badge_w // 2, y + SMALL_H + 56), total, 25, bold=True, anchor="mm")


def render_public(obs: Mapping[str, Any], *, names: Any, locale: str = "en", theme: str = "dark") -> bytes:
    public = obs["public"]
    players = len(public["seats"])
    canvas = _table_base(players).copy()
    draw = ImageDraw.Draw(canvas)
    _header(canvas, draw, public, names, locale)
    for seat, box in enumerate(_layout(players)):
        _panel(canvas, draw, public, seat, box, names, locale)
    return _encode(canvas)


# -------------------------------------------------------------------------------- the hand
def render_private(obs: Mapping[str, Any], *, names: Any, locale: str = "en", theme: str = "dark") -> bytes | None:
    private = obs.get("private")
    seat = obs.get("seat")
    if private is None or seat is None:
        return None
    hand: list[str] = private["hand"]
    height = 110 + HAND_H + 100
    canvas, draw = new_canvas(WIDTH, height, FELT)
    _text(canvas, (MARGIN + 10, 24), _fit(t("zlodej.render.your_hand", locale, name=seat_name(names, seat)),
                                           40, WIDTH - 2 * MARGIN, bold=True), 40, bold=True)
    if hand:
        gap = 20
        start = (WIDTH - len(hand) * HAND_W - (len(hand) - 1) * gap) // 2
        for index, card in enumerate(hand):
            _paste(canvas, card, start + index * (HAND_W + gap), 95, HAND_W, HAND_H)
    else:
        _text(canvas, (WIDTH // 2, 95 + HAND_H // 2), t("zlodej.render.no_cards", locale), 40,
              fill=INK_LIGHT, anchor="mm")
    cards = sum(len(g) for g in private["open_groups"]) + sum(len(p) for p in private["locked"])
    summary = piles_line(cards, private["points"], len(private["locked"]), locale)
    _text(canvas, (WIDTH // 2, height - 48), summary, 32, fill=INK_LIGHT, anchor="mm")
    return _encode(canvas)


def piles_line(cards: int, points: int, locked: int, locale: str) -> str:
    """"Your piles: 1 card, 10 points, 0 locked", each count in its plural form."""
    return t("zlodej.render.your_piles", locale, cards=t("zlodej.render.locked_cards", locale, count=cards),
             points=t("zlodej.render.points", locale, points=points),
             locked=t("zlodej.render.locked_piles", locale, count=locked))


# -------------------------------------------------------------------------------- in words
def pretty(cards: Sequence[str]) -> str:
    """``["7H", "JK"]`` -> ``♥7 🃏``."""
    return " ".join(parse_card(card).pretty for card in cards)


def describe_private(obs: Mapping[str, Any], *, locale: str = "en") -> str:
    """A player's view in words for the console: the hand with the codes to type, the own pile,
    the discard top and every other seat's top group with the command that steals it."""
    private = obs.get("private")
    if private is None:
        return ""
    public = obs["public"]
    hand: list[str] = private["hand"]
    lines = [t("zlodej.ui.hand", locale, cards=f"{' '.join(hand)}  ({pretty(hand)})") if hand
             else t("zlodej.render.no_cards", locale)]
    own = public["seats"][obs["seat"]]["top_groups"]
    lines.append(t("zlodej.ui.top_group", locale, rank=own[0]["rank"], count=own[0]["count"]) if own
                 else t("zlodej.ui.no_top_group", locale))
    cards = sum(len(g) for g in private["open_groups"]) + sum(len(p) for p in private["locked"])
    lines.append(piles_line(cards, private["points"], len(private["locked"]), locale))
    if public["discard_top"]:
        lines.append(t("zlodej.ui.discard_top", locale, card=f"{public['discard_top']} "
                                                             f"({pretty([public['discard_top']])})"))
    for seat, info in enumerate(public["seats"]):
        if seat != obs["seat"] and info["top_groups"]:
            top = info["top_groups"][0]
            lines.append(t("zlodej.ui.target", locale, number=seat + 1, seat=seat, rank=top["rank"],
                           count=top["count"]))
    if private.get("your_turn"):
        lines.append(t("zlodej.ui.your_turn_console", locale))
    return "\n".join(lines)


def render_result(obs: Mapping[str, Any], *, names: Any, locale: str = "en", theme: str = "dark") -> bytes:
    """The standings picture a finished game ends on (rendering/result.py)."""
    return render_standings(obs, names=names, locale=locale, theme=theme)
