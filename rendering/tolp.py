"""Tölp pictures from observations: the table for the channel and a player's hand for DMs.

The public picture shows every player (cards left, last round's title, Kung tally, pass and
finishing markers), the combinations of the current trick with the top one highlighted, and the
exchange progress between rounds. It only reads the observation's public part. Card faces are
drawn once into a module-level cache and pasted; the background is cached per player count.
"""
from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from functools import cache
from typing import Any

from PIL import Image, ImageDraw

from bot.engine.cards import parse_card
from bot.i18n import t
from rendering.alt import Obs, acting, cards_text, title
from rendering.kit import (
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
from rendering.standings import Places
from rendering.theme import THEMES, Header, Theme, TypeScale, draw_header, fit_lines, header_height, marker, theme_of

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


def _tag(canvas: Image.Image, draw: ImageDraw.ImageDraw, right: int, y: int, text: str,
         fill: tuple[int, int, int], ink: tuple[int, int, int]) -> int:
    """A filled label ending at ``right``; returns its left edge."""
    width = _width(text, SMALL, True) + 24
    draw.rounded_rectangle([right - width, y, right, y + SMALL + 12], radius=10, fill=fill)
    _text(canvas, (right - width / 2, y + (SMALL + 12) / 2), text, SMALL, bold=True, fill=ink, anchor="mm")
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


def _encode(canvas: Image.Image, theme: str) -> bytes:
    return encode_on_palette(canvas, _palette(theme if theme in THEMES else "dark"))


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


def _panel(canvas: Image.Image, draw: ImageDraw.ImageDraw, public: Mapping[str, Any], seat: int,
           box: tuple[int, int, int], names: Any, locale: str, th: Theme) -> None:
    x, y, w = box
    acting = seat in public["to_act"]
    place = public["places"][seat]
    canvas.paste(panel_ground(w, acting, place is not None, th.name), (x, y))
    right = x + w - 14
    room = w - 36 - (BACK_W + 26 + _width("13", 46, True) if place is None else 0)
    lines, size = fit_lines(seat_name(names, seat), room, NAME, SMALL, True)
    ny = y + 12
    for line in lines:
        _text(canvas, (x + 18, ny), line, size, bold=True, fill=th.turn if acting else th.ink)
        ny += round(size * 1.15)
    ny = max(ny + 6, y + 62)
    title = public["titles"][seat]
    tx = x + 18
    if title is not None:
        label = t(f"render.tolp.title.{title}", locale)
        _text(canvas, (tx, ny), label, SMALL, bold=True, fill=th.win if title == "kung" else th.muted)
        tx += _width(label, SMALL, True) + 16
    kungs = public["kungs"][seat]
    if kungs:
        _text(canvas, (tx, ny), t("tolp.ui.kungs", locale, count=kungs), SMALL, fill=th.muted)
    if place is not None:
        key = "render.tolp.stuck" if seat in public["stuck"] else "render.tolp.out"
        _tag(canvas, draw, right, y + PANEL_H - SMALL - 26, t(key, locale, place=place + 1),
             th.win if place == 0 else th.line, th.background if place == 0 else th.ink)
    else:
        count = public["counts"][seat]
        _text(canvas, (right, y + 36), str(count), 46, bold=True, fill=th.ink, anchor="rm")
        bx = right - _width(str(count), 46, True) - BACK_W - 26
        _paste(canvas, None, bx + 8, y + 10, BACK_W, BACK_H)
        _paste(canvas, None, bx, y + 16, BACK_W, BACK_H)
    if seat in public["passed"]:
        _tag(canvas, draw, right, y + PANEL_H - SMALL - 26, t("tolp.ui.passed", locale), th.danger, (255, 255, 255))


def _status(public: Mapping[str, Any], names: Any, locale: str) -> str:
    if public["result"] is not None:
        return t("tolp.ui.game_over", locale, name=seat_name(names, public["result"]["places"][0][0]))
    if public["phase"] == "exchange":
        return t("tolp.ui.exchange_phase", locale)
    return t("tolp.ui.turn", locale, name=seat_name(names, public["turn"]))


def _trick(canvas: Image.Image, draw: ImageDraw.ImageDraw, public: Mapping[str, Any], top: int,
           names: Any, locale: str, th: Theme) -> None:
    table = public["table"]
    left, right = MARGIN + 24, WIDTH - MARGIN - 24
    y = top + 30
    if not table:
        _text(canvas, (left, y + 20), t("tolp.ui.table_empty", locale, name=seat_name(names, public["turn"])),
              SCALE.body, fill=th.muted)
        if public["must_include"]:
            label = t("tolp.ui.must_include", locale)
            _text(canvas, (left, y + 96), label, SCALE.body, fill=th.muted)
            x = min(left + _width(label, SCALE.body) + 30, right - CARD_W)
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
              bold=True, fill=th.muted, anchor="lm")
        x += 70
    for index, combo in enumerate(shown):
        is_top = index == len(shown) - 1
        if is_top:  # the play to beat is the last move: it carries the last-move mark
            marker(draw, [x - 8, y - 8, x + width(combo["cards"]) + 8, y + CARD_H + 8], th, last=True, radius=12)
        for i, card in enumerate(combo["cards"]):
            _paste(canvas, card, x + i * step, y, CARD_W, CARD_H)
        lines, size = fit_lines(seat_name(names, combo["seat"]), width(combo["cards"]) + gap - 8, SMALL, SMALL,
                                is_top)
        for n, line in enumerate(lines):
            _text(canvas, (x, y + CARD_H + 14 + n * (size + 4)), line, size, bold=is_top,
                  fill=th.last if is_top else th.muted)
        x += width(combo["cards"]) + gap


def _exchanges(canvas: Image.Image, draw: ImageDraw.ImageDraw, public: Mapping[str, Any], top: int, names: Any,
               locale: str, th: Theme) -> None:
    y = top + 30
    for ex in public["exchanges"]:
        row = t("tolp.ui.exchange_row", locale, high=seat_name(names, ex["high"]), low=seat_name(names, ex["low"]),
                count=ex["count"])
        lines, size = fit_lines(row, 740, SCALE.body, SMALL)
        _text(canvas, (MARGIN + 24, y), " ".join(lines) if len(lines) == 1 else lines[0], size, fill=th.ink)
        state = "done" if ex["done"] else "laid" if ex["laid"] else "waiting"
        colour = th.line if ex["done"] else th.turn
        _tag(canvas, draw, WIDTH - MARGIN - 24, y - 2, t(f"tolp.ui.exchange_{state}", locale), colour,
             th.ink if ex["done"] else th.background)
        y += 50


def _standings(canvas: Image.Image, public: Mapping[str, Any], top: int, names: Any, locale: str,
               th: Theme) -> None:
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
            _text(canvas, (x, y), lines[0], size, bold=first, fill=th.win if first else th.ink)
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
    canvas = Image.new("RGB", (WIDTH, top + _body_height(players)), th.background)
    canvas.paste(_body(players, th.name), (0, top))
    draw = ImageDraw.Draw(canvas)
    draw_header(canvas, head, th)
    for seat, box in enumerate(_layout(players, top)):
        _panel(canvas, draw, public, seat, box, names, locale, th)
    below = top + MARGIN + (players + 1) // 2 * (PANEL_H + GAP) + 6
    if public["phase"] == "exchange":
        _exchanges(canvas, draw, public, below, names, locale, th)
    elif public["phase"] == "play":
        _trick(canvas, draw, public, below, names, locale, th)
    elif public["result"] is not None:
        _standings(canvas, public, below, names, locale, th)
    return _encode(canvas, th.name)


# -------------------------------------------------------------------------------- the hand
def _exchange_lines(canvas: Image.Image, draw: ImageDraw.ImageDraw, ex: Mapping[str, Any], y: int,
                    names: Any, locale: str, th: Theme) -> None:
    key = "tolp.ui.you_high" if ex["role"] == "high" else "tolp.ui.you_low"
    line = t(key, locale, count=ex["count"], partner=seat_name(names, ex["partner"]))
    lines, size = fit_lines(line, WIDTH - 2 * MARGIN - 10, SCALE.body, SMALL, True, lines=1)
    _text(canvas, (MARGIN + 10, y), lines[0], size, bold=True, fill=th.ink)
    y += 50
    x = MARGIN + 10
    small_w, small_h = 80, 112
    high = ex["role"] == "high"
    if ex["laid"] is not None:  # laid down by the higher player for the lower one
        _text(canvas, (x, y), t("tolp.ui.gave" if high else "tolp.ui.got", locale), SMALL, fill=th.muted)
        for i, card in enumerate(ex["laid"]):
            _paste(canvas, card, x + i * (small_w + 8), y + 36, small_w, small_h)
        x += max(200, len(ex["laid"]) * (small_w + 8) + 30)
    elif ex["role"] == "low":
        _text(canvas, (x, y), t("tolp.ui.laid_hidden", locale, count=ex["count"]), SMALL, fill=th.muted)
        x += 460
    if ex["taken"] is not None:  # handed over by the lower player to the higher one
        _text(canvas, (x, y), t("tolp.ui.got" if high else "tolp.ui.gave", locale), SMALL, fill=th.muted)
        for i, card in enumerate(ex["taken"]):
            _paste(canvas, card, x + i * (small_w + 8), y + 36, small_w, small_h)
        x += max(200, len(ex["taken"]) * (small_w + 8) + 30)
    if ex["asked"]:
        _text(canvas, (x, y), t("tolp.ui.questions", locale), SMALL, fill=th.muted)
        answers = "   ".join(t("tolp.ui.asked", locale, rank=q["rank"], count=q["count"]) for q in ex["asked"])
        _text(canvas, (x, y + 40), _fit(answers, 30, WIDTH - MARGIN - x, bold=True), 30, bold=True, fill=th.ink)


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
    canvas, draw = new_canvas(WIDTH, height, th.background)
    draw_header(canvas, title, th)
    # few cards lie side by side; a full row overlaps down to the strip showing rank and suit
    longest = max(len(row) for row in rows)
    step = min(HAND_W + 12, (WIDTH - 2 * MARGIN - 20 - HAND_W) // max(1, longest - 1))
    for r, row in enumerate(rows):
        y = hand_top + r * row_h
        for i, card in enumerate(row):
            _paste(canvas, card, MARGIN + 10 + i * step, y, HAND_W, HAND_H)
    if ex:
        y = hand_top + len(rows) * row_h + 10
        draw.line([MARGIN, y - 8, WIDTH - MARGIN, y - 8], fill=th.line, width=4)
        _exchange_lines(canvas, draw, ex, y, names, locale, th)
    return _encode(canvas, th.name)


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
