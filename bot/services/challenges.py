"""Challenges (/game challenge): a player names the players they challenge to a game; each answers
Accept or Decline by button; once all accepted the table opens in the challenge's channel, at its
start time or at once, with the challenger and the challenged seated and started. An unanswered
challenge expires a day after it was made; a declined one ends there.

The service decides; the cog (cogs/challenge.py) shows the buttons, sends the DMs and posts::

    row = await challenges.create(...)                # open; InvalidOption / IllegalAction on bad input
    row, opened = await challenges.answer(id, user, accept=True)   # opened: the started table's Update
    expired, opened = await challenges.due(now)       # the scheduler's tick
"""
from __future__ import annotations

import logging
from collections.abc import Callable, Mapping, Sequence
from datetime import UTC, datetime, timedelta
from typing import Any

from bot.engine import registry
from bot.engine.core import utc_time_option
from bot.errors import Forbidden, GameMasterError, IllegalAction, NotFound
from bot.services.core import Update
from bot.storage import challenges as repo
from bot.storage.challenges import ChallengeRow
from bot.storage.db import Database

log = logging.getLogger(__name__)

EXPIRES = timedelta(days=1)  # an unanswered challenge lapses after this
LATEST_START = timedelta(days=14)  # how far ahead a start time may be


def stamp(moment: datetime) -> str:
    """Times are stored as UTC ISO text of one shape, so that they compare as text."""
    return moment.astimezone(UTC).isoformat(timespec="seconds")


class Challenges:
    def __init__(self, db: Database, service: Any, clock: Callable[[], datetime] | None = None) -> None:
        self.db = db
        self.service = service  # the table service: create, join, start a lobby
        self.clock = clock or getattr(service, "clock", None) or (lambda: datetime.now(UTC))

    async def create(self, *, guild_id: str | None, channel_id: str, game: str, creator_id: str, creator_name: str,
                     players: Sequence[tuple[str, str]], options: Mapping[str, Any], start_at: str = "",
                     locale: str = "en") -> ChallengeRow:
        """Open a challenge of ``players`` ((user id, name), the creator not among them)."""
        engine = registry.get(game)
        resolved = engine.resolve_options(options)
        ids = [str(user_id) for user_id, _ in players]
        if not ids:
            raise IllegalAction("challenge.error.nobody")
        if str(creator_id) in ids:
            raise IllegalAction("challenge.error.self")
        if len(set(ids)) != len(ids):
            raise IllegalAction("challenge.error.twice")
        if not engine.min_players <= 1 + len(ids) <= engine.max_players:
            raise IllegalAction("challenge.error.players", minimum=engine.min_players,
                                maximum=engine.max_players)
        now = self.clock()
        when = utc_time_option("start_at", start_at)
        start = datetime.fromisoformat(when.replace("Z", "+00:00")) if when else None
        if start is not None and not now < start <= now + LATEST_START:
            raise IllegalAction("challenge.error.start_at", value=when)
        row = ChallengeRow(0, guild_id, str(channel_id), game, dict(resolved), str(creator_id), creator_name,
                           [{"id": user_id, "name": name, "answer": None} for user_id, name in players], locale,
                           "open", stamp(start) if start else None, stamp(now + EXPIRES), created_at=stamp(now))
        async with self.db.transaction() as conn:
            row.id = await repo.insert(conn, row)
        return row

    async def get(self, challenge_id: int) -> ChallengeRow:
        async with self.db.reading_one() as conn:
            row = await repo.get(conn, challenge_id)
        if row is None:
            raise NotFound("challenge.error.unknown")
        return row

    async def set_message(self, challenge_id: int, message_id: str) -> None:
        async with self.db.transaction() as conn:
            row = await repo.get(conn, challenge_id, lock=True)
            if row is not None:
                row.message_id = message_id
                await repo.save(conn, row)

    async def answer(self, challenge_id: int, user_id: str, *, accept: bool) -> tuple[ChallengeRow, Update | None]:
        """A challenged player's answer. Forbidden for anyone else; IllegalAction once the
        challenge is no longer open (answered, expired, started). When the last one accepts and the
        start time has come (or there is none), the table opens now: its Update comes back."""
        async with self.db.transaction() as conn:
            row = await repo.get(conn, challenge_id, lock=True)
            if row is None:
                raise NotFound("challenge.error.unknown")
            player = row.player(user_id)
            if player is None:
                raise Forbidden("challenge.error.not_challenged")
            if row.status == "open" and row.expires_at <= stamp(self.clock()):
                row.status = "expired"  # the scheduler has not looked yet: it has lapsed all the same
                await repo.save(conn, row)
            if row.status != "open":
                raise IllegalAction(f"challenge.error.{row.status}")
            player["answer"] = "accept" if accept else "decline"
            if not accept:
                row.status = "declined"
            elif row.all_accepted:
                row.status = "accepted"
            await repo.save(conn, row)
        opened = await self._open(row) if row.status == "accepted" and self._time_came(row) else None
        return row, opened

    def _time_came(self, row: ChallengeRow) -> bool:
        return row.start_at is None or row.start_at <= stamp(self.clock())

    async def due(self, now: datetime) -> tuple[list[ChallengeRow], list[tuple[ChallengeRow, Update]]]:
        """The scheduler's look: open challenges past their day expire; accepted ones whose start
        time came open their table (one that cannot yet — the channel has a table — waits)."""
        expired: list[ChallengeRow] = []
        ready: list[ChallengeRow] = []
        async with self.db.transaction() as conn:
            for row in await repo.waiting(conn, stamp(now)):
                if row.status == "open":
                    row.status = "expired"
                    await repo.save(conn, row)
                    expired.append(row)
                else:
                    ready.append(row)
        opened = []
        for row in ready:
            update = await self._open(row)
            if update is not None:
                opened.append((row, update))
        return expired, opened

    async def _open(self, row: ChallengeRow) -> Update | None:
        """Seat the challenger and the challenged at a new table in the channel and start it."""
        try:
            record = await self.service.create(guild_id=row.guild_id, channel_id=row.channel_id, game=row.game,
                                               user_id=row.creator_id, name=row.creator_name, options=row.options,
                                               locale=row.locale)
        except IllegalAction as exc:
            if exc.key != "error.channel_busy":
                raise
            return None  # the channel's table is still running: the next tick tries again
        try:
            for player in row.players:
                await self.service.join(row.channel_id, player["id"], player["name"])
            update: Update = await self.service.start(row.channel_id, row.creator_id)
        except GameMasterError:
            log.exception("challenge %s could not open its table %s", row.id, record.id)
            await self.service.end(row.channel_id, row.creator_id, is_manager=True)
            raise
        async with self.db.transaction() as conn:
            current = await repo.get(conn, row.id, lock=True)
            if current is not None:
                current.status, current.game_id = "started", update.record.id
                await repo.save(conn, current)
        row.status, row.game_id = "started", update.record.id
        return update
