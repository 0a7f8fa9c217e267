"""Turn engine events and errors into translated sentences for one reader."""
from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from typing import Any

from bot.engine.cards import parse_card
from bot.engine.core import Event
from bot.errors import GameMasterError
from bot.i18n import has, money, t

_SEAT_PARAMS = ("seat", "target", "winner")
_CARD_PARAMS = ("card", "cards")


# a mention Discord would resolve: @everyone, @here, <@id>, <@!id>, <@&role> (ids are snowflakes)
_MENTION = re.compile(r"@(everyone|here|[!&]?[0-9]{17,20})")
# characters Discord's markdown acts on anywhere (emphasis, strike, spoiler, code, masked links,
# the escape itself), and those it acts on at a line's start (quote, heading, subtext, list)
_MARKDOWN = re.compile(r"([\\*_~|`\[\]])|^(\s*)([>#-])", re.MULTILINE)


def _escaped(match: re.Match[str]) -> str:
    if match.group(1):
        return "\\" + match.group(1)
    return match.group(2) + "\\" + match.group(3)


def shown(text: str) -> str:
    """User-chosen text (a display name, a typed option or trade text) as it may appear in a
    Discord message: mentions defused by a zero-width space after the ``@`` (``@everyone`` pings no
    one, ``<@&id>`` is no role) and markdown shown literally (a backslash before each character
    Discord's markdown would act on)."""
    return _MARKDOWN.sub(_escaped, _MENTION.sub("@\u200b\\1", text))


def shown_names(names: Sequence[str]) -> list[str]:
    return [shown(name) for name in names]


def pretty_cards(text: str) -> str:
    """``4D 4H`` -> ``♦4 ♥4``; text that is not all cards stays as it is."""
    try:
        return " ".join(parse_card(token).pretty for token in text.split()) or text
    except GameMasterError:
        return text


def name_params(params: dict[str, Any], names: Sequence[str]) -> dict[str, Any]:
    """Replace seat numbers by player names in the params that hold seats, and card codes by
    their suit symbols in the params that hold cards."""
    out = dict(params)
    for key, value in params.items():
        if (key in _CARD_PARAMS or key.endswith(("_card", "_cards"))) and isinstance(value, str):
            out[key] = pretty_cards(value)
            continue
        if (key in _SEAT_PARAMS or key.endswith("_seat")) and isinstance(value, int) \
                and not isinstance(value, bool) and 0 <= value < len(names):
            out[key] = names[value]
        elif key.endswith("_seats") and isinstance(value, list | tuple):
            out[key] = ", ".join(names[v] if isinstance(v, int) and 0 <= v < len(names) else str(v)
                                 for v in value)
    return out


_CASH = re.compile(r"(?<![\w.,])(\d+) kr\b")


def cash_words(text: str, locale: str | None) -> str:
    """Amounts an engine wrote language-neutrally ("200 kr, Kongens gate") in the reader's money
    format ("kr 200, Kongens gate" in English)."""
    return _CASH.sub(lambda match: money(int(match.group(1)), locale), text)


def event_text(event: Event, names: Sequence[str], locale: str | None, *, markup: bool = True) -> str:
    """``markup``: the text goes into a Discord message, so the names are escaped (the console and
    the images show names as they are)."""
    params = name_params(dict(event.params), shown_names(names) if markup else names)
    for key in ("give", "get"):
        if isinstance(params.get(key), str):
            params[key] = cash_words(params[key], locale)
    game = event.key.split(".")[0]
    for key, value in event.params.items():
        # ranks by their names where the game has them ("stratego.rank.S" -> "Spy (S)")
        if key.endswith("_rank") and has(f"{game}.rank.{value}"):
            params[key] = t(f"{game}.rank.{value}", locale)
        elif key == "level" and has(f"ai.level.{value}"):  # a computer's level in the reader's words
            params[key] = t(f"ai.level.{value}", locale)
    text = t(event.key, locale, **params)
    if event.params.get("standing_order") is True:  # the move a standing order made (bot/services/orders.py)
        return marked(text, locale)
    return text


def marked(text: str, locale: str | None) -> str:
    """A move a standing order made: "Ann passes (standing order)."."""
    end = "." if text.endswith(".") else ""
    return t("orders.marked", locale, text=text.removesuffix(".")) + end


def public_lines(events: Iterable[Event], names: Sequence[str], locale: str | None, *,
                 markup: bool = True) -> list[str]:
    return [event_text(e, names, locale, markup=markup) for e in events if e.visible_to is None]


def private_lines(events: Iterable[Event], seat: int, names: Sequence[str], locale: str | None, *,
                  markup: bool = True) -> list[str]:
    return [event_text(e, names, locale, markup=markup) for e in events
            if e.visible_to is not None and seat in e.visible_to]


def error_text(error: GameMasterError, locale: str | None, names: Sequence[str] = (), *,
               markup: bool = True, rules_hint: str = "rules.see_topic") -> str:
    """A refusal in words; with ``markup`` the texts it echoes (what the player typed, names) are
    escaped for Discord. A refusal with a rules topic ends with ``rules_hint`` (its ``{game}`` and
    ``{topic}``): Discord's ``/rules`` command, or the console's ``rules``."""
    params = dict(error.params)
    if markup:
        params = {key: shown(value) if isinstance(value, str) else value for key, value in params.items()}
        names = shown_names(names)
    text = t(error.key, locale, **name_params(params, names))
    if error.topic:
        game = error.key.split(".")[0]
        text += " " + t(rules_hint, locale, game=game, topic=error.topic)
    return text


def place_lines(places: Sequence[Sequence[int]], names: Sequence[str], locale: str | None, *,
                markup: bool = True) -> list[str]:
    """Final places, shared places counted as in a race (1, 2, 2, 4)."""
    if markup:
        names = shown_names(names)
    rows, place = [], 1
    for group in places:
        rows.append(t("game.places", locale, place=place, players=", ".join(names[s] for s in group)))
        place += len(group)
    return rows
