"""Players across games: preferences, server settings, "my games", the log in words, statistics."""
from __future__ import annotations

import asyncio
import logging
from collections import OrderedDict, defaultdict
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from bot.engine import registry
from bot.engine.core import TIMER
from bot.errors import IllegalAction
from bot.i18n import LANGUAGES, t
from bot.services import clock
from bot.services import orders as standing
from bot.services.clock import ClockSettings
from bot.services.movelog import CLOSE, RESIGN, UNDO, in_force, replay, undone_plies
from bot.services.seats import namer
from bot.services.text import public_lines, shown
from bot.storage import games as repo
from bot.storage import orders as orders_repo
from bot.storage import prefs as prefs_repo
from bot.storage import seats as seats_repo
from bot.storage import standings as standings_repo
from bot.storage.db import Database
from bot.storage.games import GameRow
from bot.storage.prefs import UserPrefs
from bot.storage.seats import HolderRow

log = logging.getLogger(__name__)


@dataclass
class PlayerStats:
    name: str
    games: int = 0
    wins: int = 0
    places: dict[int, int] = field(default_factory=dict)

    @property
    def average_place(self) -> float:
        total = sum(self.places.values())
        return sum(p * n for p, n in self.places.items()) / total if total else 0.0


@dataclass
class GuildStats:
    games: dict[str, int]                       # game name -> finished games
    players: dict[str, dict[str, PlayerStats]]  # game name -> user id -> stats

    def leaderboard(self, game: str | None = None) -> list[PlayerStats]:
        merged: dict[str, PlayerStats] = {}
        for name, per_user in self.players.items():
            if game and name != game:
                continue
            for user, s in per_user.items():
                m = merged.setdefault(user, PlayerStats(s.name))
                m.games += s.games
                m.wins += s.wins
                for place, n in s.places.items():
                    m.places[place] = m.places.get(place, 0) + n
        return sorted(merged.values(), key=lambda s: (-s.wins, s.average_place, s.name))


THEMES = ("dark", "light")  # the pictures' themes, dark by default


class Players:
    """Preferences, read through a cache that every write here keeps current, so that answering an
    interaction never waits for the database: the language a user chose (``/game prefs``) is known
    for every user from start-up on (``load_locales``); their other preferences are cached once read.
    Writes elsewhere (``GameService.set_vacation``) call ``forget``."""

    CACHE_SIZE = 20_000

    def __init__(self, db: Database) -> None:
        self.db = db
        self._prefs: OrderedDict[str, UserPrefs] = OrderedDict()
        self._chosen: dict[str, str] = {}
        self._background: set[asyncio.Task[None]] = set()
        self._listening = False
        # how many writes of each user another process (or this one) announced: a re-read that
        # an announcement overtook is stale and not kept (the newer announcement's re-read is)
        self._announced: defaultdict[str, int] = defaultdict(int)

    # ------------------------------------------------------------------ the cache
    async def load_locales(self) -> None:
        """Every explicit language choice, once at start-up (few users make one)."""
        async with self.db.reading() as conn:
            self._chosen = await prefs_repo.chosen_locales(conn)
        if not self._listening:  # other processes on the same database (PostgreSQL) tell us their writes
            self._listening = True
            await self.db.listen(prefs_repo.PREFS_CHANNEL, self._written_elsewhere)

    def _written_elsewhere(self, user_id: str) -> None:
        """Another process (or this one) committed a write of the user's preferences: read them again."""
        self.forget(user_id)
        self._announced[user_id] += 1
        task = asyncio.get_running_loop().create_task(self._reread(user_id))
        self._background.add(task)
        task.add_done_callback(self._background.discard)

    async def _reread(self, user_id: str) -> None:
        announced = self._announced[user_id]
        try:
            async with self.db.reading() as conn:
                fresh = await prefs_repo.get_user(conn, user_id)
            if self._announced[user_id] == announced:
                self._keep(fresh)
        except Exception:  # noqa: BLE001 - the cache then fills on the next read
            log.warning("could not re-read the preferences of %s", user_id, exc_info=True)

    def chosen_locale(self, user_id: str) -> str | None:
        """The language the user chose with /game prefs, from memory (None: Discord's)."""
        return self._chosen.get(str(user_id))

    def cached(self, user_id: str) -> UserPrefs | None:
        return self._prefs.get(str(user_id))

    def forget(self, user_id: str) -> None:
        """Drop a cached entry after its row was written elsewhere."""
        self._prefs.pop(str(user_id), None)

    def forget_choice(self, user_id: str) -> None:
        """Drop the user's language choice (the user was forgotten: bot/services/privacy.py)."""
        self._chosen.pop(str(user_id), None)

    def _keep_written(self, fresh: UserPrefs, **written: Any) -> UserPrefs:
        """Cache what a write committed: only the fields it wrote, onto the entry cached now. Two
        writes of one user (a /game prefs and the background note of their client language) may
        finish in either order after their commits; caching each one's whole re-read would let
        the older overwrite the newer (a time zone just set would read as unset until evicted)."""
        cached = self._prefs.get(fresh.user_id)
        return self._keep(replace(cached, **written) if cached is not None else fresh)

    def keep_blank(self, prefs: UserPrefs) -> None:
        """Cache preferences that have no row (a forgotten user's, until they change something)."""
        self._keep(prefs)

    def _keep(self, prefs: UserPrefs) -> UserPrefs:
        self._prefs[prefs.user_id] = prefs
        self._prefs.move_to_end(prefs.user_id)
        while len(self._prefs) > self.CACHE_SIZE:
            self._prefs.popitem(last=False)
        if prefs.locale:
            self._chosen[prefs.user_id] = prefs.locale
        else:
            self._chosen.pop(prefs.user_id, None)
        return prefs

    async def prefs(self, user_id: str) -> UserPrefs:
        cached = self._prefs.get(str(user_id))
        if cached is not None:
            self._prefs.move_to_end(cached.user_id)
            return cached
        announced = self._announced.get(str(user_id), 0)
        async with self.db.reading_one() as conn:
            prefs = await prefs_repo.get_user(conn, str(user_id))
        # a write that committed while we read has already updated the cache: keep the newer entry
        # (and one announced meanwhile makes what we read stale: its own re-read fills the cache)
        if self._announced.get(str(user_id), 0) != announced:
            return prefs
        return self._prefs.get(prefs.user_id) or self._keep(prefs)

    def notice_locale(self, user_id: str, locale: str) -> None:
        """Remember the user's client language in the background (no await: called before the ack)."""
        cached = self._prefs.get(str(user_id))
        if cached is not None and cached.seen_locale == locale:
            return
        task = asyncio.get_running_loop().create_task(self._remember_locale(str(user_id), locale))
        self._background.add(task)
        task.add_done_callback(self._background.discard)

    async def _remember_locale(self, user_id: str, locale: str) -> None:
        try:
            await self.remember_locale(user_id, await self.prefs(user_id), locale)
        except Exception:  # noqa: BLE001 - a hint for later DMs, never worth failing anything
            log.warning("could not remember the client language of %s", user_id, exc_info=True)

    async def settle(self) -> None:
        """Wait for background writes (tests, shutdown)."""
        while self._background:
            await asyncio.gather(*list(self._background), return_exceptions=True)

    # ------------------------------------------------------------------ writes
    async def remember_locale(self, user_id: str, prefs: UserPrefs, locale: str) -> None:
        """Remember the user's client language (written only when it changed)."""
        if prefs.seen_locale != locale:
            async with self.db.transaction() as conn:
                await prefs_repo.set_user(conn, str(user_id), seen_locale=locale)
                fresh = await prefs_repo.get_user(conn, str(user_id))
            self._keep_written(fresh, seen_locale=locale)

    async def remember_dm_channel(self, user_id: str, channel_id: str) -> None:
        async with self.db.transaction() as conn:
            await prefs_repo.set_user(conn, str(user_id), dm_channel_id=channel_id)
            fresh = await prefs_repo.get_user(conn, str(user_id))
        self._keep_written(fresh, dm_channel_id=channel_id)

    async def mark_dm(self, user_id: str, *, ok: bool) -> bool:
        """Record whether DMs to the user work; True when that changed."""
        cached = self._prefs.get(str(user_id))
        if cached is not None and cached.dm_ok == ok:
            return False
        async with self.db.transaction() as conn:
            previous = (await prefs_repo.get_user(conn, str(user_id))).dm_ok
            if previous != ok:
                await prefs_repo.set_user(conn, str(user_id), dm_ok=int(ok))
            fresh = await prefs_repo.get_user(conn, str(user_id))
        self._keep_written(fresh, dm_ok=ok)
        return previous != ok

    async def set_prefs(self, user_id: str, *, locale: str | None = None, time_zone: str | None = None,
                        quiet_start: int | None = None, quiet_end: int | None = None,
                        ping_on_turn: bool | None = None) -> UserPrefs:
        fields: dict[str, Any] = {}
        if locale is not None:
            if locale not in LANGUAGES and locale != "auto":
                raise IllegalAction("prefs.error.language", languages=", ".join(LANGUAGES))
            fields["locale"] = None if locale == "auto" else locale
        if time_zone is not None:
            if clock.zone(time_zone).key != time_zone and time_zone != "UTC":
                raise IllegalAction("prefs.error.time_zone", zone=time_zone)
            fields["time_zone"] = time_zone
        for name, hour in (("quiet_start", quiet_start), ("quiet_end", quiet_end)):
            if hour is not None:
                if not 0 <= hour <= 23:
                    raise IllegalAction("prefs.error.hour", hour=hour)
                fields[name] = hour
        if ping_on_turn is not None:
            fields["ping_on_turn"] = int(ping_on_turn)
        async with self.db.transaction() as conn:
            await prefs_repo.set_user(conn, str(user_id), **fields)
            fresh = await prefs_repo.get_user(conn, str(user_id))
        return self._keep_written(fresh, **{name: getattr(fresh, name) for name in fields})

    async def guild_settings(self, guild_id: str | None) -> tuple[str | None, ClockSettings]:
        async with self.db.reading() as conn:
            locale, raw = await prefs_repo.get_guild(conn, guild_id)
        return locale, ClockSettings.from_dict(raw)

    async def set_guild_settings(self, guild_id: str, *, locale: str | None = None, theme: str | None = None,
                                 titles: bool | None = None, **changes: float | None) -> ClockSettings:
        limits = {"turn_hours": (0.05, 336), "bank_hours": (0, 336), "max_vacation_days": (0, 60),
                  "reminder_share": (0.1, 0.95)}
        async with self.db.transaction() as conn:
            _, raw = await prefs_repo.get_guild(conn, guild_id)
            for name, value in changes.items():
                if value is None:
                    continue
                low, high = limits[name]
                if not low <= value <= high:
                    raise IllegalAction("prefs.error.setting_range", setting=name, minimum=low, maximum=high)
                raw[name] = int(value) if name == "max_vacation_days" else float(value)
            if locale is not None and locale not in LANGUAGES:
                raise IllegalAction("prefs.error.language", languages=", ".join(LANGUAGES))
            if theme is not None:  # the pictures' theme (rendering/theme.py)
                if theme not in THEMES:
                    raise IllegalAction("prefs.error.theme", themes=", ".join(THEMES))
                raw["theme"] = theme
            if titles is not None:  # end-of-game titles on the result (bot/services/titles.py)
                raw["titles"] = bool(titles)
            await prefs_repo.set_guild(conn, guild_id, locale=locale, settings=raw)
            return ClockSettings.from_dict(raw)

    async def games_of(self, user_id: str, guild_id: str | None) -> list[GameRow]:
        async with self.db.reading() as conn:
            return await repo.of_user(conn, str(user_id), guild_id)

    async def log_in_words(self, record: GameRow, locale: str, limit: int = 40) -> list[tuple[int, str, str]]:
        """(ply, player, what happened) for the last ``limit`` moves, from a replay of the log: only
        public events, so the log never reveals hidden information."""
        async with self.db.reading() as conn:
            moves = await repo.moves(conn, record.id)
            holders = await seats_repo.holders(conn, record.id)  # seats that changed hands: who made each move
            by_order = await orders_repo.marked_moves(conn, record.id)
        # a long game's replay is CPU work: off the event loop
        told = await asyncio.to_thread(_replay_in_words, record, moves, locale, limit, namer(record, holders, locale),
                                       by_order)
        return changes_in_words(told, holders, locale)[-limit:]

    async def stats(self, guild_id: str) -> GuildStats:
        """From the standings kept as games finish: the cost does not grow with stored games."""
        async with self.db.reading() as conn:
            counts, rows = await standings_repo.of_guild(conn, guild_id)
        players: dict[str, dict[str, PlayerStats]] = defaultdict(dict)
        for row in rows:
            players[row.game][row.player] = PlayerStats(row.name, row.games, row.wins, dict(row.places))
        return GuildStats(counts, {k: dict(v) for k, v in players.items()})


def changes_in_words(told: list[tuple[int, str, str]], holders: list[HolderRow],
                     locale: str) -> list[tuple[int, str, str]]:
    """The log with each change of a seat's hands told after the move it followed ("12. Dan:
    takes over seat 2"; a seat that changed hands before any move, at ply 0)."""
    changes = [h for h in holders if h.kind != seats_repo.START]
    if not changes:
        return told
    out: list[tuple[int, str, str]] = []
    pending = sorted(changes, key=lambda h: (h.from_ply, h.id))
    for entry in told:
        while pending and pending[0].from_ply < entry[0]:
            out.append(_change_words(pending.pop(0), locale))
        out.append(entry)
    out += [_change_words(h, locale) for h in pending]
    return out


def _change_words(row: HolderRow, locale: str) -> tuple[int, str, str]:
    return (row.from_ply, row.name, t(f"seats.log.{row.kind}", locale, number=row.seat + 1,
                                      owner=shown(row.owner_name or "")))


def _replay_in_words(record: GameRow, moves: list[tuple[int, int, str, str]], locale: str,
                     limit: int, name: Callable[[int, int], str] | None = None,
                     by_order: Mapping[int, str] | None = None) -> list[tuple[int, str, str]]:
    name = name or (lambda seat, ply: record.names[seat])
    game = registry.get(record.game)
    state = game.new(len(record.seats), record.options, record.seed)
    out = []
    undone = undone_plies(moves)
    kept: list[tuple[int, str]] = []
    for ply, seat, action, _ in moves:
        if action.startswith(UNDO + " "):
            kept = in_force([*kept, (seat, action)])
            state = replay(game, len(record.seats), record.options, record.seed, kept)
            out.append((ply, name(seat, ply), t("undo.log_undone", locale, moves=int(action.split()[1]))))
            continue
        kept.append((seat, action))
        if action in (RESIGN, CLOSE):
            events = game.resign(state, seat) if action == RESIGN else game.close(state) or []
            text = " ".join(public_lines(events, record.names, locale)) or t(
                "game.log_resigned" if action == RESIGN else "game.log_closed", locale)
        else:
            events = game.apply(state, seat, game.parse_action(action))
            if by_order and ply in by_order:  # a standing order's move, marked as the board's news was
                events = standing.marked(events, seat)
            text = " ".join(public_lines(events, record.names, locale))
        if ply in undone:
            text = t("undo.log_mark", locale, action=text)
        out.append((ply, name(seat, ply) if seat != TIMER else t("game.log_timer", locale), text))
    return out[-limit:]
