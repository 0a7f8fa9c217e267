"""Toy's renderer (a real game's is ``rendering/<name>.py``): the rendering.protocol.Renderer a
plugin entry names. Everything is drawn or told from an observation, never from a state."""
from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from PIL import Image, ImageDraw

from bot.i18n import t
from rendering.alt import Obs, acting, title
from rendering.fonts import paste_text
from rendering.kit import encode_png, seat_name
from rendering.result import render_standings
from rendering.standings import Places
from rendering.theme import Header, draw_header, header_height, theme_of

WIDTH = 800
BAR = 60


def _header(public: Mapping[str, Any], names: Any, locale: str) -> Header:
    if public["winner"] is not None:
        status = t("toy.render.won", locale, name=seat_name(names, public["winner"]))
    else:
        status = t("toy.render.to_act", locale, name=seat_name(names, public["turn"]))
    return Header(t("game.name.toy", locale), acting=status,
                  right=t("toy.render.total", locale, total=public["total"], target=public["target"]),
                  finished=public["winner"] is not None)


def render_public(obs: Mapping[str, Any], *, names: Any, locale: str = "en", theme: str = "dark") -> bytes:
    """The running total as a bar filling towards the target, and every player's name."""
    public = obs["public"]
    th = theme_of(theme)
    head = _header(public, names, locale)
    top = header_height(head, WIDTH)
    players = int(public["players"])
    canvas = Image.new("RGB", (WIDTH, top + BAR + 40 + 44 * players), th.background)
    draw_header(canvas, head, th)
    draw = ImageDraw.Draw(canvas)
    y = top + 20
    filled = round((WIDTH - 40) * min(1.0, public["total"] / public["target"]))
    draw.rounded_rectangle([20, y, WIDTH - 20, y + BAR], radius=10, fill=th.surface, outline=th.line, width=2)
    if filled:
        draw.rounded_rectangle([20, y, 20 + filled, y + BAR], radius=10, fill=th.last)
    for seat in range(players):
        colour = th.turn if seat in public["to_act"] else th.ink
        paste_text(canvas, (24, y + BAR + 20 + 44 * seat), f"#{seat + 1} {seat_name(names, seat)}", 28, fill=colour)
    return encode_png(canvas)


def render_private(obs: Mapping[str, Any], *, names: Any, locale: str = "en", theme: str = "dark") -> bytes | None:
    """A player's secret number."""
    private = obs.get("private")
    if private is None:
        return None
    th = theme_of(theme)
    canvas = Image.new("RGB", (400, 120), th.surface)
    paste_text(canvas, (20, 40), describe_private(obs, locale=locale), 32, fill=th.ink)
    return encode_png(canvas)


def private_key(obs: Mapping[str, Any]) -> Any:
    """The private picture shows the secret only: drawn once per secret."""
    return (obs.get("private") or {}).get("secret")


def describe(view: str, obs: Obs, names: Any, locale: str) -> list[str]:
    """The picture ``view`` in sentences (rendering.alt.describe completes and clips them)."""
    public = obs["public"]
    parts = [title("toy", locale, t("toy.render.total", locale, total=public["total"], target=public["target"])),
             acting(obs, names, locale)]
    if view == "private" and obs.get("private") is not None:
        parts.append(describe_private(obs, locale=locale))
    return parts


def describe_private(obs: Mapping[str, Any], *, locale: str = "en") -> str:
    return t("toy.render.secret", locale, secret=obs["private"]["secret"])


def render_result(obs: Mapping[str, Any], *, names: Any, locale: str = "en", theme: str = "dark") -> bytes:
    return render_standings(obs, names=names, locale=locale, theme=theme)


def result_places(pub: Mapping[str, Any]) -> Places:
    """The winner first, everyone else second; Toy keeps no score."""
    winner = pub["winner"]
    rest = [seat for seat in range(int(pub["players"])) if seat != winner]
    return ([[winner], rest] if winner is not None else [rest]), "toy.end", {}, set()


def score_text(score: int, locale: str) -> str:
    return str(score)


# views it has not
render_focus: Callable[..., bytes | None] | None = None  # no close-up: the whole board is one bar
describe_public: Callable[..., str] | None = None  # no table in words for the console's status
