"""Alt text: every picture the bot sends, told in words from the same observation (an attachment's
``description``, at most 1024 characters, in the reader's language), for screen readers and for
whoever's connection did not load the image.

``describe(game, view, obs, *, names, locale)`` with view one of "public" (the table's board),
"private" (a player's own view: it says only what ``observe(seat)`` showed that seat), "focus"
(the close-up on what changed) and "result" (the standings at the end). Each text leads with
what a reader needs first: whose turn it is (or who won), then the scores, then what changed.
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from bot.engine import registry
from bot.engine.cards import parse_card
from bot.i18n import normalize, t
from rendering.kit import seat_name
from rendering.standings import score_text, standings

LIMIT = 1024  # Discord's limit for an attachment's description
VIEWS = ("public", "private", "focus", "result")
Obs = Mapping[str, Any]


def cards_text(cards: Sequence[str]) -> str:
    return " ".join(parse_card(card).pretty for card in cards)


def _clip(parts: Sequence[str]) -> str:
    """Sentences joined until the limit; a sentence that does not fit ends the text with "…"."""
    out = ""
    for part in (p.strip() for p in parts):
        if not part:
            continue
        candidate = f"{out} {part}" if out else part
        if len(candidate) > LIMIT:
            room = LIMIT - len(out) - 2
            return (f"{out} {part[:room].rstrip()}…" if room > 20 else out.rstrip() + "…")[:LIMIT]
        out = candidate
    return out


def acting(obs: Obs, names: Any, locale: str) -> str:
    seats = list(obs["public"].get("to_act") or [])
    if not seats:
        return ""
    who = ", ".join(seat_name(names, s) for s in seats)
    if obs.get("seat") is not None and seats == [obs["seat"]]:
        return t("render.alt.your_turn", locale)
    return t("render.alt.to_act", locale, names=who, count=len(seats))


def title(game: str, locale: str, detail: str = "") -> str:
    name = t(f"game.name.{game}", locale)
    return f"{name} · {detail}." if detail else f"{name}."


# ----------------------------------------------------------------------------- the result
def _result(obs: Obs, names: Any, locale: str) -> list[str]:
    game = str(obs["game"])
    table = standings(obs)
    winners = [seat_name(names, s) for s in table.winners]
    parts = [title(game, locale, t("render.result.title", locale))]
    parts.append(t("render.result.winner", locale, names=", ".join(winners), count=len(winners)) if winners
                 else t("render.result.draw", locale))
    parts.append(t(table.reason, locale).rstrip(".") + ".")
    rows = []
    for row in table.rows:
        score = t(f"render.result.out_{game}", locale) if row.out else score_text(game, row.score, locale)
        line = t("render.result.place", locale, place=row.place) + " " + seat_name(names, row.seat)
        rows.append(f"{line} {score}".rstrip())
    parts.append("; ".join(rows) + ".")
    return parts


def describe(game: str, view: str, obs: Obs, *, names: Any, locale: str, news: str = "") -> str:
    """The picture ``view`` of ``game`` drawn from ``obs``, in words (≤ 1024 characters) in
    ``locale``. ``news``, when the caller has it (the event line of the move), is told right after
    whose turn it is."""
    if view not in VIEWS:
        raise ValueError(view)
    locale = normalize(locale)
    if view == "result":
        parts = _result(obs, names, locale)
    else:
        parts = registry.renderer(game).describe(view, obs, names, locale)
    if news:
        parts.insert(2 if len(parts) > 2 else len(parts), news.rstrip(".") + ".")
    return _clip(parts)
