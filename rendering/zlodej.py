"""Zloděj pictures from observations: the table for the channel and a player's hand for DMs.

Each open pile shows its second group upright with the top group laid across it, as on a real
table; locked piles show their joker on top. Cards, text snippets, the panel frames and the
palette are made once and cached at module level; each call pastes the changing parts and maps
the picture onto the fixed palette (adaptive quantizing would cost far more than drawing).
"""
from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from functools import cache, lru_cache
from typing import Any

from PIL import Image, ImageDraw

from bot.engine.cards import parse_card
from bot.i18n import t
from rendering.alt import Obs, acting, cards_text, title
from rendering.kit import (
    CARD_BACK,
    encode_on_palette,
    fit,
    new_canvas,
    palette_from,
    paste_card,
    paste_text,
    seat_name,
    text_length,
)
from rendering.news import news_of
from rendering.result import render_standings
from rendering.standings import Places, ranked
from rendering.theme import THEMES, Header, Theme, TypeScale, draw_header, fit_lines, header_height, marker, theme_of

WIDTH = 1100
SCALE = TypeScale(WIDTH)
MARGIN = SCALE.margin
STRIP = 176  # the stock and the discard pile, under the header
PANEL_H = 316
CARD_W, CARD_H = 100, 140
SMALL_W, SMALL_H = 40, 56  # a locked pile's joker, in the panel's bottom row
HAND_W, HAND_H = 190, 266
NAME = SCALE.body + 2
LABEL_W = (WIDTH - 3 * MARGIN) // 2 - 176 - 36  # the labels beside a half-width panel's open pile
# The small labels (empty pile, open count, locked piles): at least 9 px high when the picture
# is shown 400 px wide on a phone.
SMALL_TEXT = SCALE.small


def _paste(canvas: Image.Image, card: str | None, x: int, y: int, w: int, h: int,
           highlight: bool = False) -> None:
    paste_card(canvas, card, x, y, w, h, highlight=highlight)


def _text(canvas: Image.Image, xy: tuple[int, int], text: str, size: int, *, bold: bool = False,
          fill: tuple[int, int, int], anchor: str = "la") -> None:
    paste_text(canvas, xy, text, size, bold=bold, fill=fill, anchor=anchor)


def _fit(text: str, size: int, width: int, bold: bool = False) -> str:
    """Shorten a text that fits nowhere else (names shrink and break first: rendering/theme.py)."""
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
def _palette(theme: str) -> Image.Image:
    """A fixed 256-colour palette per theme taken once from a sample of everything the pictures contain."""
    th = theme_of(theme)
    sample, draw = new_canvas(WIDTH, 900, th.background)
    grounds = (th.background, th.header, th.surface, th.surface_turn, th.line)
    for row, background in enumerate(grounds):
        draw.rectangle([0, row * 48, WIDTH, row * 48 + 48], fill=background)
        for column, colour in enumerate((th.ink, th.muted, th.turn, th.last, th.danger, th.win)):
            _text(sample, (column * 180 + 6, row * 48 + 6), "Zloděj Aq 10", 30, bold=column % 2 == 0,
                  fill=colour)
    cards = [f"{rank}{suit}" for suit in "CDHS" for rank in ("2", "10", "Q", "A")] + ["JK", None]
    for index, card in enumerate(cards):
        _paste(sample, card, 10 + (index % 9) * 120, 250 + (index // 9) * 160, CARD_W, CARD_H)
    for index, card in enumerate(("10H", "KS", "JK", None)):
        _paste(sample, card, 10 + index * 200, 600, HAND_W, HAND_H)
    draw.rectangle([900, 600, 1000, 700], fill=CARD_BACK)
    return palette_from(sample)


def _encode(canvas: Image.Image, theme: str) -> bytes:
    return encode_on_palette(canvas, _palette(theme if theme in THEMES else "dark"))


# ------------------------------------------------------------------------------- the table
def _layout(players: int, top: int) -> list[tuple[int, int, int]]:
    """(x, y, width) of each seat's panel: two columns; an odd last seat spans both, so three
    players leave no empty quarter."""
    col_w = (WIDTH - 3 * MARGIN) // 2
    boxes = []
    for seat in range(players):
        x, y = MARGIN + (seat % 2) * (col_w + MARGIN), top + STRIP + (seat // 2) * (PANEL_H + MARGIN)
        wide = seat == players - 1 and players % 2 == 1
        boxes.append((x, y, WIDTH - 2 * MARGIN if wide else col_w))
    return boxes


def _height(players: int) -> int:
    return STRIP + (players + 1) // 2 * (PANEL_H + MARGIN)


def _strip(canvas: Image.Image, draw: ImageDraw.ImageDraw, public: Mapping[str, Any], top: int, locale: str,
           th: Theme) -> None:
    """The stock (face down, with its count) and the discard pile (its top card and count)."""
    y = top + MARGIN
    if public["stock"]:
        _paste(canvas, None, MARGIN, y, CARD_W, CARD_H)
    else:
        draw.rounded_rectangle([MARGIN, y, MARGIN + CARD_W, y + CARD_H], radius=8, outline=th.line, width=3)
    _text(canvas, (MARGIN + CARD_W + 14, y + 20), t("zlodej.render.stock", locale), SMALL_TEXT, fill=th.muted)
    _text(canvas, (MARGIN + CARD_W + 14, y + 56), str(public["stock"]), 44, bold=True, fill=th.ink)
    x = 330
    if public["discard_top"]:
        _paste(canvas, public["discard_top"], x, y, CARD_W, CARD_H)
    else:
        draw.rounded_rectangle([x, y, x + CARD_W, y + CARD_H], radius=8, outline=th.line, width=3)
    _text(canvas, (x + CARD_W + 14, y + 20), t("zlodej.render.discard", locale), SMALL_TEXT, fill=th.muted)
    _text(canvas, (x + CARD_W + 14, y + 56), str(public["discard_count"]), 44, bold=True, fill=th.ink)
    if public["drawing_over"] and not public["finished"]:
        _text(canvas, (WIDTH - MARGIN, y + 56), t("zlodej.render.drawing_over", locale), SMALL_TEXT, bold=True,
              fill=th.danger, anchor="ra")


def header(public: Mapping[str, Any], names: Any, locale: str, event_hint: Any = None) -> Header:
    if public["finished"]:
        winners = ", ".join(seat_name(names, seat) for seat in public.get("winners") or [])
        acting = t("zlodej.render.winner", locale, names=winners, count=len(public.get("winners") or [])) \
            if winners else t("zlodej.render.game_over", locale)
    else:
        acting = t("zlodej.render.turn", locale, name=seat_name(names, public["turn"]))
    return Header(t("zlodej.name", locale), acting=acting, news=news_of(event_hint, names, locale),
                  finished=bool(public["finished"]))


def marks(event_hint: Any) -> tuple[int | None, int | None, int | None]:
    """(the thief, the seat stolen from, the seat that locked a pile) of the move the hint names."""
    key = getattr(event_hint, "key", None) or (event_hint.get("key") if isinstance(event_hint, Mapping) else None)
    params = getattr(event_hint, "params", None) or (event_hint.get("params") if isinstance(event_hint, Mapping)
                                                     else None) or {}
    if key == "zlodej.event.steal":
        return int(params["seat"]), int(params["target"]), None
    if key == "zlodej.event.locked":
        return None, None, int(params["seat"])
    return None, None, None


def _panel(canvas: Image.Image, draw: ImageDraw.ImageDraw, public: Mapping[str, Any], seat: int,
           box: tuple[int, int, int], names: Any, locale: str, th: Theme, hint: Any) -> None:
    x, y, w = box
    info = public["seats"][seat]
    turn = public["turn"] == seat
    thief, robbed, locker = marks(hint)
    draw.rounded_rectangle([x, y, x + w, y + PANEL_H], radius=16, fill=th.surface_turn if turn else th.surface,
                           outline=th.danger if seat == robbed else th.line, width=6 if seat == robbed else 2)
    if turn:
        marker(draw, [x, y, x + w, y + PANEL_H], th, turn=True, radius=16, width=6)
    right = x + w - 18
    if public["scores"] is not None:
        # At the end hands are empty; the corner shows the pile total instead.
        corner = t("zlodej.render.points", locale, points=public["scores"][seat])
        corner_w = int(text_length(corner, NAME, True))
        _text(canvas, (right, y + 14), corner, NAME, bold=True, fill=th.win, anchor="ra")
    else:
        corner_w = 120
        _paste(canvas, None, right - 110, y + 12, 30, 42)
        _text(canvas, (right - 70, y + 14), f"×{info['hand']}", NAME, bold=True, fill=th.ink)
    # The number matches the "#2" of the steal menus in the players' private views.
    lines, size = fit_lines(f"#{seat + 1}\u00a0{seat_name(names, seat)}", w - 54 - corner_w, NAME, SMALL_TEXT, True)
    ny = y + 14
    for line in lines:
        _text(canvas, (x + 18, ny), line, size, bold=True, fill=th.turn if turn else th.ink)
        ny += round(size * 1.15)
    content = max(ny + 8, y + 66)
    label_w = w - 176 - 36
    _open_pile(canvas, draw, info, x + 18, content, label_w, locale, th, last=seat == thief)
    note_y = content + 140
    if seat == robbed:
        # the header names the thief in full; the panel says what it lost
        tag = _fit(t("render.zlodej.robbed", locale), SMALL_TEXT, label_w, True)
        _text(canvas, (x + 194, note_y - SMALL_TEXT - 4), tag, SMALL_TEXT, bold=True, fill=th.danger)
    elif info["resigned"]:
        _text(canvas, (x + 194, note_y - SMALL_TEXT - 4), t("zlodej.render.resigned", locale), SMALL_TEXT,
              fill=th.muted)
    _locked_piles(canvas, draw, info["locked"], x + 18, y + PANEL_H - SMALL_H - 14, w - 36, locale, th,
                  last=seat == locker)


def _open_pile(canvas: Image.Image, draw: ImageDraw.ImageDraw, info: Mapping[str, Any], x: int, y: int,
               label_w: int, locale: str, th: Theme, last: bool) -> None:
    groups = info["top_groups"]
    if not groups:
        draw.rounded_rectangle([x + 10, y, x + 10 + CARD_W, y + CARD_H], radius=8, outline=th.line, width=3)
        lines = wrap(t("zlodej.render.no_open_pile", locale), SMALL_TEXT, label_w)
        for index, line in enumerate(lines):
            _text(canvas, (x + 176, y + 4 + index * (SMALL_TEXT + 6)), line, SMALL_TEXT, fill=th.muted)
        return
    # Both groups stand upright so their corners read (a card laid across showed 9 as 6): the
    # group below peeks out on the left, the top group lies over it.
    left = x + 10
    if len(groups) > 1:
        _paste(canvas, groups[1]["top"], left, y, CARD_W, CARD_H)
        left += 38
    if last:  # just stolen: the pile that grew carries the last-move mark
        marker(draw, [left - 7, y - 7, left + CARD_W + 7, y + CARD_H + 7], th, last=True, radius=10)
    _paste(canvas, groups[0]["top"], left, y, CARD_W, CARD_H)
    tx = x + 176
    top = t("render.zlodej.top", locale, count=groups[0]["count"], rank=groups[0]["rank"])
    lines, size = fit_lines(top, label_w, SCALE.body, SMALL_TEXT, True, lines=1)
    _text(canvas, (tx, y + 4), lines[0], size, bold=True, fill=th.ink)
    if len(groups) > 1:
        under = t("render.zlodej.under", locale, count=groups[1]["count"], rank=groups[1]["rank"])
        _text(canvas, (tx, y + 48), _fit(under, SMALL_TEXT, label_w), SMALL_TEXT, fill=th.muted)
    count = _fit(t("zlodej.render.open_count", locale, count=info["open_count"]), SMALL_TEXT, label_w)
    _text(canvas, (tx, y + 84), count, SMALL_TEXT, fill=th.muted)


def _locked_piles(canvas: Image.Image, draw: ImageDraw.ImageDraw, piles: Sequence[Mapping[str, Any]],
                  x: int, y: int, width: int, locale: str, th: Theme, last: bool) -> None:
    """The bottom row: the locked piles fanned out, each with its joker on top, how many there are
    and how many cards they hold."""
    if not piles:
        return
    step = min(24, (width // 3) // max(1, len(piles)))
    for index, pile in enumerate(piles):
        _paste(canvas, pile["top"], x + index * step, y, SMALL_W, SMALL_H)
    if last:  # the pile locked this turn: the newest, at the fan's right end
        nx = x + (len(piles) - 1) * step
        marker(draw, [nx - 5, y - 5, nx + SMALL_W + 5, y + SMALL_H + 5], th, last=True, radius=8, width=4)
    tx = x + (len(piles) - 1) * step + SMALL_W + 16
    text = t("render.zlodej.locked", locale, piles=t("zlodej.render.locked", locale, count=len(piles)),
             cards=t("zlodej.render.locked_cards", locale, count=sum(pile["count"] for pile in piles)))
    lines, size = fit_lines(text, x + width - tx, SMALL_TEXT, SMALL_TEXT, lines=1)
    _text(canvas, (tx, y + SMALL_H // 2), lines[0], size, fill=th.muted, anchor="lm")


def panel_boxes(public: Mapping[str, Any], names: Any, locale: str,
                event_hint: Any = None) -> list[tuple[int, int, int]]:
    """(x, y, width) of each seat's panel in the table picture (under its header)."""
    top = header_height(header(public, names, locale, event_hint), WIDTH)
    return _layout(len(public["seats"]), top)


@cache
def _body(players: int, theme: str) -> Image.Image:
    th = theme_of(theme)
    image, _ = new_canvas(WIDTH, _height(players), th.background)
    return image


def render_public(obs: Mapping[str, Any], *, names: Any, locale: str = "en", theme: str = "dark",
                  event_hint: Any = None) -> bytes:
    """The table; ``event_hint`` (the move's newest public event) says what the header tells and
    which pile carries the last-move mark (the one just stolen, or just locked)."""
    public = obs["public"]
    th = theme_of(theme)
    players = len(public["seats"])
    head = header(public, names, locale, event_hint)
    top = header_height(head, WIDTH)
    canvas = Image.new("RGB", (WIDTH, top + _height(players)), th.background)
    canvas.paste(_body(players, th.name), (0, top))
    draw = ImageDraw.Draw(canvas)
    draw_header(canvas, head, th)
    _strip(canvas, draw, public, top, locale, th)
    for seat, box in enumerate(_layout(players, top)):
        _panel(canvas, draw, public, seat, box, names, locale, th, event_hint)
    return _encode(canvas, th.name)


# -------------------------------------------------------------------------------- the hand
def render_private(obs: Mapping[str, Any], *, names: Any, locale: str = "en", theme: str = "dark") -> bytes | None:
    private = obs.get("private")
    seat = obs.get("seat")
    if private is None or seat is None:
        return None
    th = theme_of(theme)
    hand: list[str] = private["hand"]
    head = Header(f"{t('zlodej.name', locale)} · {seat_name(names, seat)}",
                  acting=t("zlodej.render.your_hand", locale, name=seat_name(names, seat)))
    top = header_height(head, WIDTH)
    height = top + MARGIN + HAND_H + 100
    canvas, draw = new_canvas(WIDTH, height, th.background)
    draw_header(canvas, head, th)
    if hand:
        gap = 20
        step = min(HAND_W + gap, (WIDTH - 2 * MARGIN - HAND_W) // max(1, len(hand) - 1))
        start = (WIDTH - (len(hand) - 1) * step - HAND_W) // 2
        for index, card in enumerate(hand):
            _paste(canvas, card, start + index * step, top + MARGIN, HAND_W, HAND_H)
    else:
        _text(canvas, (WIDTH // 2, top + MARGIN + HAND_H // 2), t("zlodej.render.no_cards", locale), 40,
              fill=th.muted, anchor="mm")
    cards = sum(len(g) for g in private["open_groups"]) + sum(len(p) for p in private["locked"])
    summary = piles_line(cards, private["points"], len(private["locked"]), locale)
    lines, size = fit_lines(summary, WIDTH - 2 * MARGIN, SCALE.body, SMALL_TEXT, lines=1)
    _text(canvas, (WIDTH // 2, height - 48), lines[0], size, fill=th.ink, anchor="mm")
    return _encode(canvas, th.name)


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


# ----------------------------------------------------------------------------- in words
def describe(view: str, obs: Obs, names: Any, locale: str) -> list[str]:
    """The picture ``view`` ("public", "private" or "focus") in sentences (rendering.alt)."""
    pub = obs["public"]
    parts = [title("zlodej", locale), acting(obs, names, locale),
             t("render.alt.zlodej_stock", locale, count=pub["stock"])]
    if pub["discard_top"]:
        parts.append(t("render.alt.zlodej_discard", locale, card=cards_text([pub["discard_top"]])))
    if view == "private" and obs.get("private") is not None:
        private = obs["private"]
        hand = private["hand"]
        parts.append(t("render.alt.hand", locale, count=len(hand), cards=cards_text(hand)) if hand
                     else t("render.alt.no_hand", locale))
        parts.append(t("render.alt.zlodej_points", locale, points=t("zlodej.render.points", locale,
                                                                     points=private["points"])))
    seats = []
    for seat, info in enumerate(pub["seats"]):
        bits = []
        if info["top_groups"]:
            top = info["top_groups"][0]
            bits.append(t("render.alt.zlodej_top", locale, rank=top["rank"], count=top["count"]))
        else:
            bits.append(t("zlodej.render.no_open_pile", locale))
        if info["locked"]:
            bits.append(t("zlodej.render.locked", locale, count=len(info["locked"])))
        if pub["scores"] is not None:
            bits.append(t("zlodej.render.points", locale, points=pub["scores"][seat]))
        else:
            bits.append(t("render.alt.cards", locale, count=info["hand"]))
        seats.append(f"#{seat + 1} {seat_name(names, seat)}: " + ", ".join(bits))
    parts.append("; ".join(seats) + ".")
    return parts


def result_places(pub: Mapping[str, Any]) -> Places:
    """Places by points, whoever resigned last (rendering.standings)."""
    scores = dict(enumerate(pub.get("scores") or [0] * len(pub["seats"])))
    out = [s for s, info in enumerate(pub["seats"]) if info["resigned"]]
    playing = [s for s in scores if s not in out]
    reason = "zlodej.end.resigned" if len(playing) < 2 else "zlodej.end.cards_out"
    return ranked(scores, playing, out), reason, scores, set(out)


def score_text(score: int, locale: str) -> str:
    return t("zlodej.render.points", locale, points=score)


# ----------------------------------------------------------------------------- views it has not
render_focus: Callable[..., bytes | None] | None = None  # no close-up view
private_key: Callable[[Mapping[str, Any]], Any] | None = None  # the private picture is drawn each time
describe_public: Callable[..., str] | None = None  # no table in words for the console
