"""A table's pictures for a message: the public board, the zoom on what changed, a player's hand and
the result's standings, each drawn by a render worker (bot/services/renders.py) from an observation, and a
PNG as a discord.File whose description (alt text, rendering/alt.py) tells the picture in words."""
from __future__ import annotations

import inspect
import io
from datetime import UTC, datetime
from functools import cache
from typing import Any

import discord

from bot.engine import registry
from bot.services import renders
from bot.storage.games import GameRow
from bot.web import metrics
from rendering.alt import LIMIT, describe


def renderer(game: str) -> Any:
    return registry.renderer(game)


def _module(game: str) -> str:
    """The game's renderer module by name (a render worker imports it): its plugin entry's."""
    return registry.plugin(game).renderer


def theme(record: GameRow) -> str:
    """The server's picture theme (``/game settings theme:``): dark unless it chose light."""
    return "light" if (record.guild_settings or {}).get("theme") == "light" else "dark"


async def _public(record: GameRow, obs: dict[str, Any], locale: str, hint: Any,
                  described: tuple[Any, ...] | None) -> Any:
    # renderers never read a clock: the time they may show (the time left to an agreed end) uses this
    shown = {**obs, "public": {**obs["public"], "now": datetime.now(UTC).strftime("%Y-%m-%dT%H:%MZ")}}
    marked = {"event_hint": hint} if hint is not None and takes_hint(record.game) else {}
    with metrics.rendering("public"):
        return await renders.current().draw(_module(record.game), "render_public", shown, names=record.names,
                                            locale=locale, theme=theme(record), described=described, **marked)


async def render_public(record: GameRow, obs: dict[str, Any], locale: str, hint: Any = None) -> bytes:
    """The table's board, drawn by a render worker (a process: see bot/services/renders.py);
    ``hint``, the move's newest public event, lets a game mark what it did on the board itself
    (Zloděj: the pile just stolen or locked), where its renderer takes one."""
    drawn: bytes = await _public(record, obs, locale, hint, None)
    return drawn


async def described_public(record: GameRow, obs: dict[str, Any], locale: str, hint: Any = None,
                           news: str = "") -> tuple[bytes, str]:
    """The board and its alt text (as ``alt_text``), both written by the render worker."""
    drawn: tuple[bytes, str] = await _public(record, obs, locale, hint, _words(record, "public", obs, locale, news))
    return drawn


def _words(record: GameRow, view: str, obs: dict[str, Any], locale: str, news: str = "") -> tuple[Any, ...]:
    """The arguments of a picture's alt text, for the worker that draws it (``alt_text``'s words)."""
    return (record.game, view, obs, record.names, locale, news)


@cache
def takes_hint(game: str) -> bool:
    """Whether the game's ``render_public`` marks the move's event (takes ``event_hint``)."""
    return "event_hint" in inspect.signature(renderer(game).render_public).parameters


async def render_focus(record: GameRow, obs: dict[str, Any], locale: str, hint: Any = None) -> bytes | None:
    """The renderer's readable zoom on what changed (``render_focus``), where the game has one."""
    if getattr(renderer(record.game), "render_focus", None) is None:
        return None
    # drawn by a render worker like the board (a thread here would take the event loop's core)
    data: bytes | None = await renders.current().draw(_module(record.game), "render_focus", obs,
                                                      names=record.names, locale=locale, event_hint=hint,
                                                      theme=theme(record))
    return data


async def described_focus(record: GameRow, obs: dict[str, Any], locale: str, hint: Any = None,
                          news: str = "") -> tuple[bytes, str] | None:
    """The focus view and its alt text, both from the render worker (None: the game has none)."""
    if getattr(renderer(record.game), "render_focus", None) is None:
        return None
    drawn: tuple[bytes | None, str] = await renders.current().draw(
        _module(record.game), "render_focus", obs, names=record.names, locale=locale, event_hint=hint,
        theme=theme(record), described=_words(record, "focus", obs, locale, news))
    picture, words = drawn
    return (picture, words) if picture else None


def _private_memo(record: GameRow, obs: dict[str, Any], locale: str) -> Any:
    # a renderer that says what its hand picture depends on (``private_key``) has it drawn once per change
    key_of = getattr(renderer(record.game), "private_key", None)
    return (record.game, key_of(obs), tuple(record.names), locale, theme(record)) if key_of is not None else None


async def render_private(record: GameRow, obs: dict[str, Any], locale: str) -> bytes | None:
    return await renders.current().draw(_module(record.game), "render_private", obs, names=record.names,
                                        locale=locale, memo=_private_memo(record, obs, locale), theme=theme(record))


async def described_private(record: GameRow, obs: dict[str, Any], locale: str) -> tuple[bytes | None, str]:
    """A player's private picture and its alt text, both from the render worker."""
    drawn: tuple[bytes | None, str] = await renders.current().draw(
        _module(record.game), "render_private", obs, names=record.names, locale=locale,
        memo=_private_memo(record, obs, locale), theme=theme(record), described=_words(record, "private", obs, locale))
    return drawn


async def render_result(record: GameRow, obs: dict[str, Any], locale: str) -> bytes:
    """The standings picture a finished game ends on (every player, place, score, the winner)."""
    data: bytes = await renders.current().draw(_module(record.game), "render_result", result_obs(record, obs),
                                               names=record.names, locale=locale)
    return data


def result_obs(record: GameRow, obs: dict[str, Any]) -> dict[str, Any]:
    """A finished game's observation with its stored outcome (places, reason, scores)."""
    return {**obs, "game": record.game, "outcome": record.outcome}


def alt_text(record: GameRow, view: str, obs: dict[str, Any], locale: str, news: str = "") -> str:
    """The picture ``view`` ("public", "private", "focus", "result") in words, in ``locale``."""
    if view == "result":
        obs = result_obs(record, obs)
    return describe(record.game, view, obs, names=record.names, locale=locale, news=news)[:LIMIT]


def png(data: bytes, name: str, description: str) -> discord.File:
    """Every picture the bot sends carries its alt text (Discord keeps up to 1024 characters)."""
    return discord.File(io.BytesIO(data), filename=name, description=description[:LIMIT])
