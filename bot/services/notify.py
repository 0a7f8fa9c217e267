"""Notifications the player controls: who a table pings and when, "you're next", the daily digest.

Per table (``/game notify`` in its channel) a player may
- **mute** it: the board still names them, but no message of the table pings them and its DMs
  arrive silently (Discord's "suppress notifications"): the turn DM, the private views, reminders;
- ask for a heads-up **one turn early**: when the seat to act is the one just before theirs (the
  next seat in seat order that is still playing, skipping computer seats, which move at once), a DM
  says they are next — at most once per turn, never inside their quiet hours;
- **limit** it to one ping per N hours: a later turn within N hours of the table's last ping to
  them names them on the board without pinging, and its DMs are silent.
Across tables, the **daily digest** (``/game digest hour:``) is a DM at that local hour (their
``/game prefs`` time zone) listing their tables on every server, whose turn, the clock left and the
board's link. An hour inside their quiet hours moves to the end of the quiet hours (the first hour
after them); nothing is sent while they are quiet, and once per local day, kept in the database.

The decisions are pure functions of an injected ``now``; ``Notifications`` reads and writes the
choices (bot/storage/notify.py). The Discord side is cogs/notify.py.
"""
from __future__ import annotations

from collections import OrderedDict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import replace
from datetime import UTC, date, datetime, time, timedelta
from typing import Any

from bot.errors import IllegalAction
from bot.services import clock
from bot.storage import notify as repo
from bot.storage.db import Database
from bot.storage.games import GameRow
from bot.storage.notify import Digest, TableNotify

MAX_PER_HOURS = 168  # a week: the longest ping limit


def stamp(moment: datetime) -> str:
    """Stored times: UTC ISO text to the second, so that text order is time order in SQL."""
    return moment.astimezone(UTC).isoformat(timespec="seconds")


# ----------------------------------------------------------------------------- per table
def may_ping(choice: TableNotify | None, now: datetime) -> bool:
    """Whether the table may ping the player at ``now``: not muted, and past their ping limit."""
    if choice is None:
        return True
    if choice.mute:
        return False
    if choice.max_per_hours and choice.last_ping_at:
        last = datetime.fromisoformat(choice.last_ping_at)
        return now - last >= timedelta(hours=choice.max_per_hours)
    return True


def out_seats(public: Mapping[str, Any]) -> set[int]:
    """Seats a public observation shows out of play for now: bankrupt (Monopol), or already placed
    in the round (Tölp's finished players), by the games' own fields."""
    out: set[int] = set()
    for index, flag in enumerate(public.get("bankrupt") or []):
        if flag is True:
            out.add(index)
    for index, place in enumerate(public.get("places") or []):
        if isinstance(place, int) and not isinstance(place, bool):
            out.add(index)
    return out


def next_up(seats: int, acting: int, out: Iterable[int], computers: Iterable[int]) -> int | None:
    """The human seat whose turn comes after ``acting``'s: the next seat in seat order that is
    still playing, computer seats skipped (they move at once). None when that is ``acting`` again."""
    skip = set(out) | set(computers)
    for step in range(1, seats):
        seat = (acting + step) % seats
        if seat not in skip:
            return seat
    return None


# ----------------------------------------------------------------------------- the digest
def quiet(moment: datetime, prefs: Digest) -> bool:
    return clock.in_quiet_hours(moment, prefs.time_zone, prefs.quiet_start, prefs.quiet_end)


def digest_moment(day: date, prefs: Digest) -> datetime:
    """When the digest of local date ``day`` is due: its hour there, moved to the end of the
    player's quiet hours when it falls inside them."""
    zone = clock.zone(prefs.time_zone)
    moment = datetime.combine(day, time(prefs.hour), tzinfo=zone)
    for _ in range(24):
        if not quiet(moment, prefs):
            return moment
        moment = (moment + timedelta(hours=1)).astimezone(zone)
    return moment


def digest_due(now: datetime, prefs: Digest) -> str | None:
    """The local date whose digest is due at ``now`` and not sent yet (YYYY-MM-DD), else None:
    the digest whose moment falls today and came (today's, or yesterday's moved past midnight by
    quiet hours), never while the player is quiet. A day the bot was down all its hours is not
    made up the next day."""
    if quiet(now, prefs):
        return None
    zone = clock.zone(prefs.time_zone)
    today = now.astimezone(zone).date()
    for day in (today, today - timedelta(days=1)):
        moment = digest_moment(day, prefs)
        if moment.astimezone(zone).date() == today and moment <= now:  # the moment that falls today
            text = day.isoformat()
            return text if prefs.sent_for is None or prefs.sent_for < text else None
    return None


def next_digest(now: datetime, prefs: Digest) -> datetime:
    """When the digest is next worth a look: ``now`` when it is due, else the earliest later
    moment of a day not sent yet that falls on its own day, past any quiet hours (the clock loop
    reads only digests whose moment came)."""
    zone = clock.zone(prefs.time_zone)
    today = now.astimezone(zone).date()
    moments = []
    for offset in (-1, 0, 1, 2):
        day = today + timedelta(days=offset)
        if prefs.sent_for is not None and prefs.sent_for >= day.isoformat():
            continue
        moment = digest_moment(day, prefs)
        falls = moment.astimezone(zone).date()
        if falls < today:
            continue
        moments.append(max(moment, now) if falls == today else moment)
    when = min(moments) if moments else now + timedelta(hours=1)
    for _ in range(24):  # a moment inside quiet hours waits for their end, hour by hour
        if not quiet(when, prefs):
            break
        when = (when + timedelta(hours=1)).replace(minute=0, second=0, microsecond=0)
    return when


def by_clock(records: Sequence[GameRow]) -> list[GameRow]:
    """Tables by the clock left: the nearest deadline first, then running tables without one,
    then lobbies; ties by game number."""
    def key(record: GameRow) -> tuple[int, str, int]:
        if record.status == "lobby":
            return 2, "", record.id
        if record.turn_deadline:
            return 0, record.turn_deadline, record.id
        return 1, "", record.id
    return sorted(records, key=key)


# ----------------------------------------------------------------------------- storage
class Notifications:
    """The choices, read once per version of a table: one delivery's board, DMs and reminders ask
    several times; a choice made here (or, on PostgreSQL, in another process) counts from the
    table's next version."""

    MEMO_SIZE = 5_000

    def __init__(self, db: Database) -> None:
        self.db = db
        self._memo: OrderedDict[int, tuple[int, dict[str, TableNotify]]] = OrderedDict()

    async def of_game(self, game_id: int, version: int | None = None) -> dict[str, TableNotify]:
        kept = self._memo.get(game_id)
        if version is not None and kept is not None and kept[0] == version:
            return kept[1]
        async with self.db.reading(inline=True) as conn:
            choices = await repo.of_game(conn, game_id)
        if version is not None:
            self._keep(game_id, version, choices)
        return choices

    def _keep(self, game_id: int, version: int, choices: dict[str, TableNotify]) -> None:
        self._memo[game_id] = (version, choices)
        self._memo.move_to_end(game_id)
        while len(self._memo) > self.MEMO_SIZE:
            self._memo.popitem(last=False)

    async def choose(self, record: GameRow, user_id: str, *, mute: bool | None = None, early: bool | None = None,
                     max_per: int | None = None) -> TableNotify:
        """Change the player's choices at the table (None keeps one; ``max_per`` 0 lifts the limit)."""
        if record.seat_of(str(user_id)) is None:
            raise IllegalAction("notify.error.not_seated")
        if max_per is not None and not 0 <= max_per <= MAX_PER_HOURS:
            raise IllegalAction("notify.error.max_per", maximum=MAX_PER_HOURS)
        async with self.db.transaction() as conn:
            now = (await repo.of_game(conn, record.id)).get(str(user_id)) or TableNotify(record.id, str(user_id))
            limit = now.max_per_hours if max_per is None else (max_per or None)
            chosen = TableNotify(record.id, str(user_id), now.mute if mute is None else mute,
                                 now.early if early is None else early, limit, now.last_ping_at)
            await repo.set_table(conn, record.id, str(user_id), mute=chosen.mute, early=chosen.early,
                                 max_per_hours=chosen.max_per_hours)
        self._memo.pop(record.id, None)
        return chosen

    async def audible(self, game_id: int, user_ids: Sequence[str], now: datetime,
                      version: int | None = None) -> tuple[list[str], set[str]]:
        """Of the players a message of the table would ping, (those it may ping now, those held
        back); the pinged ones are noted for their ping limits. Read from the database (a limit
        needs the last ping as it is), kept for ``version``."""
        async with self.db.reading(inline=True) as conn:
            choices = await repo.of_game(conn, game_id)
        heard = [u for u in user_ids if may_ping(choices.get(str(u)), now)]
        held = {str(u) for u in user_ids} - set(heard)
        noted = [u for u in heard if choices.get(str(u)) is not None and choices[str(u)].max_per_hours]
        if noted:
            async with self.db.transaction() as conn:
                await repo.pinged(conn, game_id, noted, stamp(now))
            choices = {u: replace(c, last_ping_at=stamp(now)) if u in noted else c for u, c in choices.items()}
        if version is not None:
            self._keep(game_id, version, choices)
        return heard, held

    async def digest_hour(self, user_id: str) -> int | None:
        async with self.db.reading() as conn:
            return await repo.get_digest(conn, user_id)

    async def set_digest(self, user_id: str, hour: int | None) -> None:
        """Turn the digest on at ``hour`` or off (None); the next clock-loop tick plans it."""
        if hour is not None and not 0 <= hour <= 23:
            raise IllegalAction("prefs.error.hour", hour=hour)
        async with self.db.transaction() as conn:
            await repo.set_digest(conn, str(user_id), hour)

    async def replan(self, user_id: str) -> None:
        """The player changed their time zone or quiet hours: look at their digest at the next tick."""
        async with self.db.transaction() as conn:
            await repo.plan_digest(conn, str(user_id), None)

    async def due_digests(self, now: datetime) -> list[Digest]:
        """The digests due at ``now``, each claimed for its local day (so sent once, by one process);
        only those whose planned moment came are read, and each read one is planned again."""
        async with self.db.reading() as conn:
            looked = await repo.digests(conn, stamp(now))
        claimed: list[Digest] = []
        if not looked:
            return claimed
        days = [(prefs, digest_due(now, prefs)) for prefs in looked]
        due = [(prefs, day) for prefs, day in days if day is not None]
        plans = [(prefs.user_id, stamp(next_digest(now, prefs))) for prefs, day in days if day is None]
        async with self.db.transaction() as conn:  # one round, one transaction
            await repo.plan_digests(conn, plans)
            for prefs, day in due:
                if await repo.claim_digest(conn, prefs.user_id, day,
                                           stamp(next_digest(now, replace(prefs, sent_for=day)))):
                    claimed.append(prefs)
        return claimed
