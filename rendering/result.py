"""The end screen every game ends on: a standings picture drawn full width for a phone, one row
per player with the place (tied players share it), the name whole, the score in the game's own
terms, the winner crowned, and the reason the game ended in plain words.

Each game module's ``render_result`` draws this from its observation (see rendering/standings.py).
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from PIL import Image, ImageDraw

from bot.i18n import normalize, t
from rendering.kit import draw_star, encode_png, paste_text, seat_name, text_length
from rendering.standings import Standing, score_text, standings
from rendering.theme import Header, Theme, TypeScale, draw_header, fit_lines, header_height, shrink_to_fit, theme_of

WIDTH = 800


def _name_room(scale: TypeScale, mark: str) -> int:
    badge = scale.title + scale.body
    mark_w = int(text_length(mark, scale.small, True)) + 2 * scale.margin + scale.small if mark else 0
    return WIDTH - 5 * scale.margin - badge - mark_w


def _row_height(scale: TypeScale, name_lines: int, name_size: int) -> int:
    return name_lines * round(name_size * 1.2) + scale.body + 3 * scale.margin


def _badge(draw: ImageDraw.ImageDraw, canvas: Image.Image, row: Standing, x: int, y: int, size: int,
           theme: Theme) -> None:
    """The place, big, in a disc: gold for the winner."""
    fill = theme.win if row.winner else theme.line
    draw.ellipse([x, y, x + size, y + size], fill=fill)
    ink = theme.background if row.winner else theme.ink
    paste_text(canvas, (x + size / 2, y + size / 2), str(row.place), int(size * 0.55), bold=True, fill=ink, anchor="mm")


def _row(canvas: Image.Image, draw: ImageDraw.ImageDraw, game: str, row: Standing, names: Any, locale: str,
         y: int, theme: Theme, scale: TypeScale) -> int:
    """One player's row from ``y``; its height."""
    m = scale.margin
    mark = t("render.result.winner_mark", locale) if row.winner else ""
    lines, size = fit_lines(seat_name(names, row.seat), _name_room(scale, mark), scale.title, scale.small, True)
    height = _row_height(scale, len(lines), size)
    fill = theme.surface_turn if row.winner else theme.surface
    draw.rounded_rectangle([m, y, WIDTH - m, y + height - m // 2], radius=m, fill=fill,
                           outline=theme.win if row.winner else theme.line, width=4 if row.winner else 2)
    badge = scale.title + scale.body
    middle = y + (height - m // 2) / 2
    _badge(draw, canvas, row, 2 * m, int(middle - badge / 2), badge, theme)
    left = 3 * m + badge
    top = y + m
    for line in lines:
        paste_text(canvas, (left, top), line, size, bold=True, fill=theme.win if row.winner else theme.ink)
        top += round(size * 1.2)
    score = t(f"render.result.out_{game}", locale) if row.out else score_text(game, row.score, locale)
    place = t("render.result.place_long", locale, place=row.place)
    detail = f"{place} · {score}" if score else place
    room = WIDTH - 2 * m - left
    detail_size = shrink_to_fit(detail, room, scale.body, scale.small) or scale.small
    paste_text(canvas, (left, top + m // 4), detail, detail_size, fill=theme.danger if row.out else theme.muted)
    if mark:
        right = WIDTH - 2 * m
        paste_text(canvas, (right, middle), mark, scale.small, bold=True, fill=theme.win, anchor="rm")
        draw_star(draw, right - text_length(mark, scale.small, True) - scale.small * 0.8, middle,
                  scale.small * 0.6, theme.win)
    return height


def render_standings(obs: Mapping[str, Any], *, names: Any, locale: str = "en", theme: str = "dark") -> bytes:
    """The standings picture of a finished game's observation (``obs["outcome"]`` when present)."""
    locale = normalize(locale)
    colours = theme_of(theme)
    scale = TypeScale(WIDTH)
    game = str(obs["game"])
    table = standings(obs)
    winners = [seat_name(names, s) for s in table.winners]
    crowned = (t("render.result.winner", locale, names=", ".join(winners), count=len(winners)) if winners
               else t("render.result.draw", locale))
    header = Header(f"{t(f'game.name.{game}', locale)} · {t('render.result.title', locale)}", acting=crowned,
                    news=t(table.reason, locale), finished=True)
    top = header_height(header, WIDTH)
    # drawn on a tall canvas, then cut to the rows' height (a row grows when a name takes two lines)
    most = top + 2 * scale.margin + len(table.rows) * _row_height(scale, 2, scale.title)
    canvas = Image.new("RGB", (WIDTH, most), colours.background)
    draw = ImageDraw.Draw(canvas)
    draw_header(canvas, header, colours)
    y = top + scale.margin
    for row in table.rows:
        y += _row(canvas, draw, game, row, names, locale, y, colours, scale)
    return encode_png(canvas.crop((0, 0, WIDTH, y + scale.margin)))
