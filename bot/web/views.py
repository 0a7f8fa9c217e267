"""What a web page shows of a table, as plain data (the page's HTML and its JSON are both made from
it): who acts and their clocks, the move log in words, the standings, the board picture's address
and its alt text. Built from the public observation, or from one seat's ``observe(seat)`` for that
seat's own page: nothing else of the engine's state ever reaches it.
"""
from __future__ import annotations

import importlib
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from bot.engine import registry
from bot.engine.core import Event
from bot.i18n import t
from bot.services.movelog import in_force
from bot.services.replay import Frame, frames
from bot.services.text import place_lines, public_lines
from bot.storage.games import GameRow

LOG_LINES = 40  # the newest moves the table page lists (the replay has them all)


@dataclass(frozen=True)
class Story:
    """A table's moves in force, each with what it told everyone, replayed once per version."""

    game_id: int
    version: int
    moves: tuple[tuple[int, str], ...]
    events: tuple[tuple[Event, ...], ...]  # per move: its public events (all of them once ended)


def story(record: GameRow, rows: Sequence[tuple[int, int, str, str]]) -> Story:
    """Replay the log once (CPU work: call it off the event loop). The log says what everyone was
    told, before and after the end alike; the replay page reveals the rest once a game has ended."""
    moves = tuple(in_force([(seat, action) for _, seat, action, _ in rows]))
    told: list[tuple[Event, ...]] = []
    for frame in frames(registry.get(record.game), len(record.seats), record.options, record.seed, moves,
                        reveal=False, numbers=range(1, len(moves) + 1)):
        told.append(frame.events)
    return Story(record.id, record.version, moves, tuple(told))


def game_title(game: str, locale: str) -> str:
    return t(f"game.name.{game}", locale)


def who(record: GameRow, seat: int, locale: str) -> str:
    return record.names[seat] if 0 <= seat < len(record.names) else t("game.log_timer", locale)


def log_lines(record: GameRow, told: Story, locale: str, limit: int = LOG_LINES) -> list[dict[str, Any]]:
    """The newest moves in words, newest last: {"n": move number, "who": name, "text": words}."""
    out = []
    start = max(0, len(told.moves) - limit)
    for index in range(start, len(told.moves)):
        seat, action = told.moves[index]
        text = " ".join(public_lines(told.events[index], record.names, locale, markup=False)) or action
        name = who(record, seat, locale)
        out.append({"n": index + 1, "who": "" if text.startswith(name) else name, "text": text})
    return out


def _per_seat(values: Any, players: int) -> list[float] | None:
    if isinstance(values, list) and len(values) == players and all(isinstance(v, int | float) for v in values):
        return [float(v) for v in values]
    if isinstance(values, dict) and values and all(isinstance(v, int | float) for v in values.values()):
        return [float(values.get(str(s), values.get(s, 0)) or 0) for s in range(players)]
    return None


def standings(record: GameRow, obs: dict[str, Any], locale: str) -> list[str]:
    """The final places once finished; while playing, each player's score or worth where the
    game keeps one in public (Zloděj's points, Monopol's net worth), else the seats in order."""
    if record.status == "finished" and record.outcome:
        return place_lines(record.outcome.get("places", []), record.names, locale, markup=False)
    public = obs.get("public") or {}
    for key in ("scores", "net_worth", "points"):
        values = _per_seat(public.get(key), len(record.seats))
        if values is not None:
            order = sorted(range(len(record.seats)), key=lambda s: -values[s])
            return [t("web.standing", locale, name=record.names[s], score=f"{values[s]:g}") for s in order]
    return list(record.names)


def duration(seconds: int) -> str:
    """``1 h 05 min``, ``12 min``: the units read the same in our four languages."""
    hours, minutes = divmod(max(0, seconds) // 60, 60)
    return f"{hours} h {minutes:02d} min" if hours else f"{minutes} min"


def clocks(record: GameRow, acting: Sequence[int], locale: str) -> list[dict[str, Any]]:
    """Each player to act with their time bank; the turn's deadline goes with the table."""
    return [{"name": record.names[s], "bank": record.seats[s].bank_seconds,
             "bank_text": t("web.bank", locale, time=duration(record.seats[s].bank_seconds))}
            for s in acting if 0 <= s < len(record.seats) and not record.seats[s].is_computer]


def deadline_text(record: GameRow, locale: str) -> str:
    if not record.turn_deadline or record.status != "active":
        return ""
    due = datetime.fromisoformat(record.turn_deadline).astimezone(UTC)
    return t("web.deadline", locale, time=due.strftime("%Y-%m-%d %H:%M UTC"))


def alt_text(record: GameRow, view: str, obs: dict[str, Any], locale: str, fallback: str) -> str:
    """The picture's alt text, the same as in Discord (``rendering.alt.describe``, where it has
    landed), else ``fallback`` (the page's own words: the game, the move, whom it waits for)."""
    try:
        describe = importlib.import_module("rendering.alt").describe
    except (ImportError, AttributeError):
        return fallback
    try:
        return str(describe(record.game, view, obs, names=record.names, locale=locale))
    except Exception:  # noqa: BLE001 - a description that fails leaves the page's own words
        return fallback


def table_data(record: GameRow, obs: dict[str, Any], told: Story, acting: Sequence[int], locale: str, *,
               board_url: str, private: bool = False, hand_url: str | None = None) -> dict[str, Any]:
    """Everything the table page shows, for the page and its live updates."""
    title = game_title(record.game, locale)
    names = [record.names[s] for s in acting if 0 <= s < len(record.names)]
    if record.status == "finished":
        status = t("web.finished", locale)
    elif record.status == "aborted":
        status = t("web.aborted", locale)
    elif names:
        status = t("web.to_act", locale, names=", ".join(names))
    else:
        status = ""
    summary = t("web.board_alt", locale, game=title, move=len(told.moves), status=status)
    data: dict[str, Any] = {
        "version": record.version, "moves": len(told.moves), "status_code": record.status,
        "title": t("web.table_title", locale, game=title), "status": status,
        "deadline": deadline_text(record, locale), "clocks": clocks(record, acting, locale),
        "log": log_lines(record, told, locale), "standings": standings(record, obs, locale),
        "board": board_url, "alt": alt_text(record, "public", {**obs, "private": None}, locale, summary),
    }
    if record.status == "finished":
        data["seed"] = t("web.seed", locale, seed=record.seed)
    if private and hand_url:
        data["hand"] = hand_url
        data["hand_alt"] = alt_text(record, "private", obs, locale, t("web.hand_alt", locale, game=title))
    return data


def frame_data(record: GameRow, frame: Frame, locale: str, *, image_url: str, hidden: list[str]) -> dict[str, Any]:
    """One replay frame: the counter, who made the move and what it did."""
    title = game_title(record.game, locale)
    if frame.number == 0:
        text = t("web.replay_start", locale)
    else:
        text = " ".join(public_lines(frame.events, record.names, locale, markup=False)) or (frame.action or "")
    counter = t("web.replay_counter", locale, number=frame.number, total=frame.total)
    return {"number": frame.number, "total": frame.total, "counter": counter,
            "who": "" if frame.seat is None else who(record, frame.seat, locale), "text": text,
            "image": image_url, "hidden": hidden,
            "alt": alt_text(record, "public", frame.observation, locale,
                            t("web.board_alt", locale, game=title, move=frame.number, status=""))}
