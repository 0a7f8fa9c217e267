"""Tölp pictures from observations: the table for the channel and a player's hand for DMs.

The public picture shows every player (cards left, last round's title, Kung tally, pass and
finishing markers), the combinations of the current trick with the top one highlighted, and the
exchange progress between rounds. It only reads the observation's public part. Card faces are
drawn once into a module-level cache and pasted; the background is cached per player count.
"""
from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from functools import cache
from typing import Any

from PIL import Image, ImageDraw

from bot.engine.cards import parse_card
from bot.i18n import t
from rendering.kit import (
    BLACK,
    FELT,
    FELT_DARK,
    GOLD,
    HIGHLIGHT,
    RED,
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
HEADER = 96
PANEL_H = 116
GAP = 14
TABLE_H = 320
CARD_W, CARD_H = 110, 154
BACK_W, BACK_H = 44, 62
HAND_W, HAND_H = 130, 182
HAND_PER_ROW = 13  # overlapped so that each card still shows its rank and small suit
PANEL_FILL = (30, 110, 72)
PANEL_TURN = (52, 140, 94)
PANEL_OUT = (24, 80, 54)
INK_LIGHT = (225, 235, 228)




def _paste(canvas: Image.Image, card: str | None, x: int, y: int, w: int, h: int,
           highlight: bool = False) -> None:
    paste_card(canvas, card, x, y, w, h, highlight=highlight)


def _width(text: str, size: int, bold: bool = False) -> int:
    return int(text_length(text, size, bold))


def _text(canvas: Image.Image, xy: tuple[float, float], text: str, size: int, *,
          bold: bool = False, fill: tuple[int, int, int] = WHITE, anchor: str = "la") -> None:
    paste_text(canvas, xy, text, size, bold=bold, fill=fill, anchor=anchor)


def _fit(text: str, size: int, width: int, bold: bool = False) -> str:
    """Shorten a long name so it fits its place."""
    return fit(text, size, width, bold)


def _tag(canvas: Image.Image, draw: ImageDraw.ImageDraw, right: int, y: int, text: str,
         fill: tuple[int, int, int], ink: tuple[int, int, int] = WHITE) -> int:
    """A filled label ending at ``right``; returns its left edge."""
    width = _width(text, 26, True) + 24
    draw.rounded_rectangle([right - width, y, right, y + 38], radius=10, fill=fill)
    _text(canvas, (right - width / 2, y + 19), text, 26, bold=True, fill=ink, anchor="mm")
    return right - width


@cache
def _palette() -> Image.Image:
    """One fixed palette for every picture, taken from a swatch of everything we draw.

    Mapping onto a known palette is far faster than finding one per picture (median cut on a
    whole board costs more than the rest of the rendering together)."""
    inks = (WHITE, INK_LIGHT, HIGHLIGHT, GOLD, RED, BLACK, FELT_DARK)
    grounds = (FELT, FELT_DARK, PANEL_FILL, PANEL_TURN, PANEL_OUT, WHITE, RED, GOLD, HIGHLIGHT)
    swatch, draw = new_canvas(1600, 60 * len(grounds) + 2 * CARD_H + HAND_H + 40, FELT)
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


def _encode(canvas: Image.Image) -> bytes:
    return encode_on_palette(canvas, _palette())


# ------------------------------------------------------------------------------- the table
def _layout(players: int) -> list[tuple[int, int, int]]:
    """(x, y, width) of each seat's panel: two columns in seat order."""
    col_w = (WIDTH - 3 * MARGIN) // 2
    return [(MARGIN + (seat % 2) * (col_w + MARGIN), HEADER + MARGIN + (seat // 2) * (PANEL_H + GAP), col_w)
            for seat in range(players)]


def _table_top(players: int) -> int:
    return HEADER + MARGIN + (players + 1) // 2 * (PANEL_H + GAP) + 6


@cache
def _table_base(players: int) -> Image.Image:
    top = _table_top(players)
    image, draw = new_canvas(WIDTH, top + TABLE_H, FELT)
    draw.rectangle([0, 0, WIDTH, HEADER], fill=FELT_DARK)
    draw.rounded_rectangle([MARGIN, top, WIDTH - MARGIN, top + TABLE_H - MARGIN], radius=18, fill=FELT_DARK)
    return image


def scoring_line(public: Mapping[str, Any], locale: str) -> str:
    """How far the game is: "3 of 10 rounds", or a tie-break round once the set rounds are played."""
    options = public["options"]
    scoring = str(options["scoring"])
    if scoring == "rounds" and int(public["round"]) > int(options["rounds"]):
        scoring = "tiebreak"
    return t(f"tolp.ui.scoring_{scoring}", locale, round=public["round"], rounds=options["rounds"])


def _header(canvas: Image.Image, draw: ImageDraw.ImageDraw, public: Mapping[str, Any], locale: str) -> None:
    _text(canvas, (MARGIN + 6, HEADER / 2), f"{t('tolp.name', locale)} · "
          f"{t('tolp.ui.round', locale, round=public['round'])}", 42, bold=True, anchor="lm")
    line = scoring_line(public, locale)
    right = WIDTH - MARGIN - 6
    if public["set_aside"]:
        _text(canvas, (right, 28), line, 26, fill=INK_LIGHT, anchor="rm")
        _text(canvas, (right, 66), t("tolp.ui.set_aside", locale, count=public["set_aside"]), 26,
              fill=INK_LIGHT, anchor="rm")
    else:
        _text(canvas, (right, HEADER / 2), line, 28, fill=INK_LIGHT, anchor="rm")


def _panel(canvas: Image.Image, draw: ImageDraw.ImageDraw, public: Mapping[str, Any], seat: int,
           box: tuple[int, int, int], names: Any, locale: str) -> None:
    x, y, w = box
    acting = seat in public["to_act"]
    place = public["places"][seat]
    fill = PANEL_TURN if acting else PANEL_OUT if place is not None else PANEL_FILL
    draw.rounded_rectangle([x, y, x + w, y + PANEL_H], radius=14, fill=fill,
                           outline=HIGHLIGHT if acting else FELT_DARK, width=6 if acting else 2)
    name = _fit(seat_name(names, seat), 34, w - 210, bold=True)
    _text(canvas, (x + 18, y + 12), name, 34, bold=True, fill=HIGHLIGHT if acting else WHITE)
    title = public["titles"][seat]
    tx = x + 18
    if title is not None:
        label = t(f"tolp.title.{title}", locale)
        _text(canvas, (tx, y + 62), label, 28, bold=True, fill=GOLD if title == "kung" else INK_LIGHT)
        tx += _width(label, 28, True) + 16
    kungs = public["kungs"][seat]
    if kungs:
        _text(canvas, (tx, y + 66), t("tolp.ui.kungs", locale, count=kungs), 26, fill=INK_LIGHT)
    right = x + w - 14
    if place is not None:
        key = "tolp.ui.stuck" if seat in public["stuck"] else "tolp.ui.place"
        _tag(canvas, draw, right, y + 14, t(key, locale, place=place + 1), GOLD if place == 0 else WHITE, FELT_DARK)
    else:
        count = public["counts"][seat]
        _text(canvas, (right, y + 36), str(count), 46, bold=True, anchor="rm")
        bx = right - _width(str(count), 46, True) - BACK_W - 26
        _paste(canvas, None, bx + 8, y + 10, BACK_W, BACK_H)
        _paste(canvas, None, bx, y + 16, BACK_W, BACK_H)
    if seat in public["passed"]:
        _tag(canvas, draw, right, y + PANEL_H - 48, t("tolp.ui.passed", locale), RED)


def _status(public: Mapping[str, Any], names: Any, locale: str) -> str:
    if public["result"] is not None:
        return t("tolp.ui.game_over", locale, name=seat_name(names, public["result"]["places"][0][0]))
    if public["phase"] == "exchange":
        return t("tolp.ui.exchange_phase", locale)
    return t("tolp.ui.turn", locale, name=seat_name(names, public["turn"]))


def _trick(canvas: Image.Image, draw: ImageDraw.ImageDraw, public: Mapping[str, Any], top: int,
           names: Any, locale: str) -> None:
    table = public["table"]
    left, right = MARGIN + 24, WIDTH - MARGIN - 24
    y = top + 70
    if not table:
        _text(canvas, (left, y + 20), t("tolp.ui.table_empty", locale, name=seat_name(names, public["turn"])), 30,
              fill=INK_LIGHT)
        if public["must_include"]:
            label = t("tolp.ui.must_include", locale)
            _text(canvas, (left, y + 96), label, 30, fill=INK_LIGHT)
            x = min(left + _width(label, 30) + 30, right - CARD_W)
            _paste(canvas, public["must_include"], x, y + 10, CARD_W, CARD_H, highlight=True)
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
        _text(canvas, (x, y + CARD_H / 2), t("tolp.ui.more", locale, count=len(table) - len(shown)), 32,
              bold=True, fill=INK_LIGHT, anchor="lm")
        x += 70
    for index, combo in enumerate(shown):
        is_top = index == len(shown) - 1
        for i, card in enumerate(combo["cards"]):
            _paste(canvas, card, x + i * step, y, CARD_W, CARD_H, highlight=is_top)
        label = _fit(seat_name(names, combo["seat"]), 26, width(combo["cards"]) + gap - 8, bold=is_top)
        _text(canvas, (x, y + CARD_H + 10), label, 26, bold=is_top, fill=HIGHLIGHT if is_top else INK_LIGHT)
        x += width(combo["cards"]) + gap


def _exchanges(canvas: Image.Image, draw: ImageDraw.ImageDraw, public: Mapping[str, Any], top: int, names: Any,
               locale: str) -> None:
    y = top + 76
    for ex in public["exchanges"]:
        row = t("tolp.ui.exchange_row", locale, high=seat_name(names, ex["high"]), low=seat_name(names, ex["low"]),
                count=ex["count"])
        _text(canvas, (MARGIN + 24, y), _fit(row, 30, 700), 30, fill=WHITE)
        state = "done" if ex["done"] else "laid" if ex["laid"] else "waiting"
        colour = INK_LIGHT if ex["done"] else HIGHLIGHT
        _tag(canvas, draw, WIDTH - MARGIN - 24, y - 2, t(f"tolp.ui.exchange_{state}", locale), colour, FELT_DARK)
        y += 46


def _standings(canvas: Image.Image, public: Mapping[str, Any], top: int, names: Any, locale: str) -> None:
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
            x, y = MARGIN + 24 + (index // 5) * col_w, top + 74 + (index % 5) * 42
            _text(canvas, (x, y), _fit(text, 30, col_w - 20, bold=first), 30, bold=first,
                  fill=HIGHLIGHT if first else WHITE)
            index += 1
        place += len(group)


def render_public(obs: Mapping[str, Any], *, names: Any, locale: str = "en", theme: str = "dark") -> bytes:
    public = obs["public"]
    players = int(public["players"])
    canvas = _table_base(players).copy()
    draw = ImageDraw.Draw(canvas)
    _header(canvas, draw, public, locale)
    for seat, box in enumerate(_layout(players)):
        _panel(canvas, draw, public, seat, box, names, locale)
    top = _table_top(players)
    status = _fit(_status(public, names, locale), 36, WIDTH - 2 * MARGIN - 48, bold=True)
    _text(canvas, (MARGIN + 24, top + 18), status, 36, bold=True, fill=HIGHLIGHT)
    if public["phase"] == "exchange":
        _exchanges(canvas, draw, public, top, names, locale)
    elif public["phase"] == "play":
        _trick(canvas, draw, public, top, names, locale)
    elif public["result"] is not None:
        _standings(canvas, public, top, names, locale)
    return _encode(canvas)


# -------------------------------------------------------------------------------- the hand
def _exchange_lines(canvas: Image.Image, draw: ImageDraw.ImageDraw, ex: Mapping[str, Any], y: int,
                    names: Any, locale: str) -> None:
    key = "tolp.ui.you_high" if ex["role"] == "high" else "tolp.ui.you_low"
    line = t(key, locale, count=ex["count"], partner=seat_name(names, ex["partner"]))
    _text(canvas, (MARGIN + 10, y), _fit(line, 30, WIDTH - 2 * MARGIN, bold=True), 30, bold=True)
    y += 50
    x = MARGIN + 10
    small_w, small_h = 80, 112
    high = ex["role"] == "high"
    if ex["laid"] is not None:  # laid down by the higher player for the lower one
        _text(canvas, (x, y), t("tolp.ui.gave" if high else "tolp.ui.got", locale), 26, fill=INK_LIGHT)
        for i, card in enumerate(ex["laid"]):
            _paste(canvas, card, x + i * (small_w + 8), y + 36, small_w, small_h)
        x += max(200, len(ex["laid"]) * (small_w + 8) + 30)
    elif ex["role"] == "low":
        _text(canvas, (x, y), t("tolp.ui.laid_hidden", locale, count=ex["count"]), 26, fill=INK_LIGHT)
        x += 460
    if ex["taken"] is not None:  # handed over by the lower player to the higher one
        _text(canvas, (x, y), t("tolp.ui.got" if high else "tolp.ui.gave", locale), 26, fill=INK_LIGHT)
        for i, card in enumerate(ex["taken"]):
            _paste(canvas, card, x + i * (small_w + 8), y + 36, small_w, small_h)
        x += max(200, len(ex["taken"]) * (small_w + 8) + 30)
    if ex["asked"]:
        _text(canvas, (x, y), t("tolp.ui.questions", locale), 26, fill=INK_LIGHT)
        answers = "   ".join(t("tolp.ui.asked", locale, rank=q["rank"], count=q["count"]) for q in ex["asked"])
        _text(canvas, (x, y + 40), _fit(answers, 30, WIDTH - MARGIN - x, bold=True), 30, bold=True)


def private_key(obs: Mapping[str, Any]) -> str:
    """All that ``render_private`` reads of the observation (besides names and locale): the same key
    gives the same picture, so an unchanged hand is not drawn again."""
    return json.dumps([obs.get("seat") is None, obs.get("private")], sort_keys=True, separators=(",", ":"))


def render_private(obs: Mapping[str, Any], *, names: Any, locale: str = "en", theme: str = "dark") -> bytes | None:
    private = obs.get("private")
    if private is None or obs.get("seat") is None:
        return None
    hand: list[str] = private["hand"]
    rows = [hand[i:i + HAND_PER_ROW] for i in range(0, len(hand), HAND_PER_ROW)] or [[]]
    ex = private["exchange"]
    hand_top = 80
    row_h = HAND_H + 16
    height = hand_top + len(rows) * row_h + (220 if ex else 10)
    canvas, draw = new_canvas(WIDTH, height, FELT)
    _text(canvas, (MARGIN + 10, 22), t("tolp.ui.your_hand", locale, count=len(hand)), 40, bold=True)
    # few cards lie side by side; a full row overlaps down to the strip showing rank and suit
    longest = max(len(row) for row in rows)
    step = min(HAND_W + 12, (WIDTH - 2 * MARGIN - 20 - HAND_W) // max(1, longest - 1))
    for r, row in enumerate(rows):
        y = hand_top + r * row_h
        for i, card in enumerate(row):
            _paste(canvas, card, MARGIN + 10 + i * step, y, HAND_W, HAND_H)
    if ex:
        y = hand_top + len(rows) * row_h + 10
        draw.line([MARGIN, y - 8, WIDTH - MARGIN, y - 8], fill=FELT_DARK, width=4)
        _exchange_lines(canvas, draw, ex, y, names, locale)
    return _encode(canvas)


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
