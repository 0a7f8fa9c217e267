"""A player's data deleted on request (``/game forget-me``, ``gamemaster db forget USER_ID``) and
finished games' personal data purged after a retention period (``gamemaster db purge``).

Forgetting deletes the user's preferences (language, time zone, quiet hours, vacation, the stored
DM channel) and puts one pseudonym in place of their Discord id and one anonymous name in place of
their display name everywhere else: the seats of every game they played (so every export made
afterwards is anonymous too), the games they opened or ended, the standings, the ratings and each
rating change. Move logs hold seat numbers, never users, so every game still replays from its
seed exactly (``gamemaster db verify``). The pseudonym is drawn at random (it is not derived from
the id, so it cannot be turned back), is negative (no Discord id is), and is the same in every row,
so the server's ratings and standings still add up. A user seated at a table still open (lobby
or running) is refused with its numbers: they leave or resign first, so no running game loses a
player it waits for.

Other parts register what they keep about a user with ``on_forget`` (e.g. the web server revokes
the user's signed links): each step runs inside the same transaction."""
from __future__ import annotations

import secrets
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from bot.errors import Forbidden
from bot.storage import games as games_repo
from bot.storage import notify as notify_repo
from bot.storage import orders as orders_repo
from bot.storage import prefs as prefs_repo
from bot.storage import web as web_repo
from bot.storage.backend import POSTGRES, Database, dialect

# a step run inside the forgetting transaction: (connection, user id, pseudonym)
ForgetStep = Callable[[Any, str, str], Awaitable[None]]
_STEPS: list[ForgetStep] = []


def on_forget(step: ForgetStep) -> ForgetStep:
    """Register what else to delete or anonymise when a user is forgotten (usable as a decorator)."""
    if step not in _STEPS:
        _STEPS.append(step)
    return step


@on_forget
async def revoke_web_links(conn: Any, user_id: str, anon_id: str) -> None:
    """Every personal web link given to the user so far stops working (bot/web's private views)."""
    await web_repo.revoke(conn, user_id, int(time.time() * 1000) + 1)


@on_forget
async def forget_seat_requests(conn: Any, user_id: str, anon_id: str) -> None:
    """A seat replacement remembers the seat's holder when it was asked ("user:<id>"): the
    pseudonym takes the id's place there too (the seats' ids changed with it)."""
    for kind in ("user", "computer"):
        await conn.execute("UPDATE seat_requests SET holder = ? WHERE holder = ?",
                           (f"{kind}:{anon_id}", f"{kind}:{user_id}"))


@on_forget
async def drop_notifications(conn: Any, user_id: str, anon_id: str) -> None:
    """The user's notification choices at every table and their daily digest (bot/services/notify.py)."""
    await notify_repo.forget(conn, user_id)


@on_forget
async def drop_standing_orders(conn: Any, user_id: str, anon_id: str) -> None:
    """The user's standing orders (/orders) and their notes go: they only serve the user."""
    await orders_repo.forget_user(conn, user_id)


@dataclass(frozen=True)
class Forgotten:
    pseudonym: str
    name: str
    games: int  # games whose seats now hold the pseudonym


def pseudonym() -> tuple[str, str]:
    """A fresh (id, name): an id no Discord user has, and a short name boards can draw."""
    number = secrets.randbelow(9 * 10 ** 15) + 10 ** 15
    return f"-{number}", f"Anon {str(number)[-4:]}"


# (table, id column, name column or None): every place a user's id (and name) is kept besides prefs
_KEPT = (("seats", "user_id", "name"), ("games", "creator_id", None), ("games", "ended_by", "ended_by_name"),
         ("standings", "player", "name"), ("standing_places", "player", None), ("ratings", "player", "name"),
         ("rating_changes", "player", None), ("seat_holders", "user_id", "name"),
         ("seat_holders", "owner_id", "owner_name"), ("seat_requests", "newcomer_id", "newcomer_name"),
         ("seat_requests", "asked_by", None))


async def forget(db: Database, user_id: str) -> Forgotten:
    """Delete the user's preferences and anonymise them everywhere, in one transaction."""
    user_id = str(user_id)
    anon_id, anon_name = pseudonym()
    async with db.transaction() as conn:
        playing = await games_repo.open_tables(conn, user_id)
        if playing:
            raise Forbidden("privacy.error.playing", games=", ".join(f"#{g}" for g in playing))
        rows = await conn.execute_fetchall("SELECT COUNT(DISTINCT game_id) FROM seats WHERE user_id = ?", (user_id,))
        games = int(rows[0][0]) if rows else 0
        for table, column, name in _KEPT:
            names = f", {name} = ?" if name else ""
            params = (anon_id, anon_name, user_id) if name else (anon_id, user_id)
            await conn.execute(f"UPDATE {table} SET {column} = ?{names} WHERE {column} = ?", params)
        await conn.execute("DELETE FROM user_prefs WHERE user_id = ?", (user_id,))
        for step in _STEPS:
            await step(conn, user_id, anon_id)
        if dialect(conn) == POSTGRES:  # other processes drop their cached preferences of the user
            await conn.execute("SELECT pg_notify(?, ?)", (prefs_repo.PREFS_CHANNEL, user_id))
    return Forgotten(anon_id, anon_name, games)


async def purge(db: Database, days: int, *, now: datetime | None = None) -> int:
    """Anonymise the seats of games that finished (or were ended) more than ``days`` ago: each
    player there gets a pseudonym of their own per game, so nothing links the old games to anyone.
    The standings and ratings, which are the server's own tallies, stay until a player asks to be
    forgotten. The number of games purged."""
    cutoff = ((now or datetime.now(UTC)) - timedelta(days=days)).isoformat(timespec="seconds")
    async with db.transaction() as conn:
        rows = await conn.execute_fetchall(
            "SELECT s.game_id, s.seat FROM seats s JOIN games g ON g.id = s.game_id "
            "WHERE g.status IN ('finished', 'aborted') AND COALESCE(g.finished_at, g.updated_at) < ? "
            "AND s.user_id IS NOT NULL AND s.user_id NOT LIKE '-%' AND s.is_computer = 0", (cutoff,))
        for game_id, seat in rows:
            anon_id, anon_name = pseudonym()
            await conn.execute("UPDATE seats SET user_id = ?, name = ? WHERE game_id = ? AND seat = ?",
                               (anon_id, anon_name, game_id, seat))
            await conn.execute("UPDATE rating_changes SET player = ? WHERE game_id = ? AND seat = ?",
                               (anon_id, game_id, seat))
        for _, holder in await conn.execute_fetchall(  # each earlier holder of a seat: its own pseudonym
                "SELECT h.game_id, h.id FROM seat_holders h JOIN games g ON g.id = h.game_id "
                "WHERE g.status IN ('finished', 'aborted') AND COALESCE(g.finished_at, g.updated_at) < ? "
                "AND ((h.user_id IS NOT NULL AND h.user_id NOT LIKE '-%') OR h.owner_id IS NOT NULL)", (cutoff,)):
            anon_id, anon_name = pseudonym()
            await conn.execute("UPDATE seat_holders SET user_id = CASE WHEN user_id IS NULL THEN NULL ELSE ? END, "
                               "name = ?, owner_id = NULL, owner_name = NULL WHERE id = ?",
                               (anon_id, anon_name, holder))
        await conn.execute("DELETE FROM seat_requests WHERE game_id IN (SELECT id FROM games WHERE status IN "
                           "('finished', 'aborted') AND COALESCE(finished_at, updated_at) < ?)", (cutoff,))
        purged = sorted({int(game_id) for game_id, _ in rows})
        for game_id in purged:
            await conn.execute("UPDATE games SET creator_id = ?, ended_by = NULL, ended_by_name = NULL "
                               "WHERE id = ?", (pseudonym()[0], game_id))
    return len(purged)
