"""When the world changes under a running table (issue #27.7): what a refused delivery means and
what the table does about it, with one log line per incident, never a traceback per attempt.

- The current board was deleted (404, 10008 Unknown Message): the game is kept and the board is
  posted anew by the delivery that found it gone (the next move's); a superseded board or a lobby
  that was deleted needs no folding.
- The channel or thread was deleted (404, 10003 Unknown Channel, or the gateway's CHANNEL_DELETE /
  THREAD_DELETE): its table ends as abandoned, once (bot/services/incidents.py), nothing more is
  announced there, and each player at it is told by DM where their table went.
- The bot lost a permission it posts with (403, 50013 Missing Permissions or 50001 Missing
  Access): the table's entries stay pending, its creator is told once by DM, in their language,
  which permission the bot misses in which channel; a permission change the gateway reports
  (CHANNEL_UPDATE, GUILD_ROLE_UPDATE, the bot's own member update) wakes the held tables, and the
  game goes on where it stood.
- Discord answers 5xx (after discord.py's own retries), or the connection fails: deliveries are held
  and retried with back-off (``retry_base`` doubling up to ``retry_cap`` seconds); the first
  failure logs one warning, the first success after it one info line. Posts carry nonces, so a
  retried delivery never posts twice. A 429 never gets here: discord.py waits for it by itself.
"""
from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

import aiohttp
import discord
from discord.ext import commands

from bot.i18n import t
from bot.services.incidents import channels_gone
from bot.services.outbox import Snapshot
from bot.storage.games import GameRow
from cogs.private import server_name
from cogs.replies import NO_PINGS, clip, paced

if TYPE_CHECKING:
    from cogs.client import GameMasterBot

log = logging.getLogger(__name__)

UNKNOWN_CHANNEL, UNKNOWN_MESSAGE = 10003, 10008
MISSING_ACCESS, MISSING_PERMISSIONS = 50001, 50013
GONE = (UNKNOWN_CHANNEL, UNKNOWN_MESSAGE)
HELD, GOES_ON = False, True  # what the announcer's loop does after an incident: stop, or look again
# the permissions a table's board needs, in the order a moderator would check them
NEEDED = ("view_channel", "send_messages", "embed_links", "attach_files")


def transient(exc: BaseException) -> bool:
    """Discord (or the way to it) failing for a while: worth the same call again later."""
    return isinstance(exc, discord.DiscordServerError | aiohttp.ClientConnectionError | asyncio.TimeoutError) or (
        isinstance(exc, OSError) and not isinstance(exc, discord.HTTPException))


def gone(exc: BaseException) -> bool:
    """A message or channel that is no longer there: nothing to edit or fold."""
    return isinstance(exc, discord.NotFound) and exc.code in GONE


def missing_permission(exc: BaseException) -> bool:
    return isinstance(exc, discord.Forbidden) and exc.code in (MISSING_ACCESS, MISSING_PERMISSIONS)


@dataclass
class Outage:
    """Discord failing: since when, how many attempts failed, and the first answer."""

    since: float
    failures: int
    what: str


class Incidents:
    """The announcer's handling of refused deliveries (cogs/announcer.py calls it)."""

    def __init__(self, bot: GameMasterBot, wake: Callable[[int], None]) -> None:
        self.bot = bot
        self.wake = wake
        self.retry_base = 1.0  # seconds before the first retry of a held delivery
        self.retry_cap = 60.0
        self.outage: Outage | None = None
        self._retries: dict[int, asyncio.Task[None]] = {}
        # game -> the permissions its creator was told the bot misses (told once per incident)
        self.blocked: dict[int, tuple[str, ...]] = {}
        self._closing = False

    async def close(self) -> None:
        self._closing = True
        waiting = [task for task in self._retries.values() if not task.done()]
        for task in waiting:
            task.cancel()
        await asyncio.gather(*waiting, return_exceptions=True)

    # ------------------------------------------------------------------ the announcer's calls
    def board_gone(self, snap: Snapshot) -> Snapshot:
        """The table's current board was deleted: the same delivery without it posts a new one (and
        has no lobby to fold)."""
        log.warning("game %s: its board %s in channel %s was deleted; posting it anew", snap.record.id,
                    snap.board.message_id if snap.board else None, snap.record.channel_id)
        return Snapshot(replace(snap.record, board_message_id=None), None, snap.pending)

    async def failed(self, snap: Snapshot, exc: BaseException) -> bool | None:
        """A delivery Discord refused: HELD (its entries stay pending), GOES_ON (the table was
        closed), or None when the refusal is none of these incidents."""
        record = snap.record
        if transient(exc):
            self._discord_down(exc)
            self._retry(record.id)
            return HELD
        if isinstance(exc, discord.NotFound) and exc.code == UNKNOWN_CHANNEL:
            await self.channels_deleted([record.channel_id], reason="a delivery found it gone")
            return GOES_ON
        if missing_permission(exc):
            await self._blocked(record, exc)
            return HELD
        return None

    def delivered(self, record: GameRow) -> None:
        """A delivery went through: an outage or a missing permission is over."""
        if self.outage is not None:
            outage, self.outage = self.outage, None
            log.info("Discord answers again after %.0f s (%s failed attempts since %s)",
                     time.monotonic() - outage.since, outage.failures, outage.what)
        if self.blocked.pop(record.id, None) is not None:
            log.info("game %s: the bot may post in channel %s again; the table goes on", record.id,
                     record.channel_id)

    def fold_failed(self, record: GameRow, message_id: str | int, exc: BaseException) -> bool:
        """A superseded board or a lobby that is gone needs no folding (True: handled quietly)."""
        if gone(exc):
            log.info("game %s: message %s is gone; nothing to fold", record.id, message_id)
            return True
        return False

    # ------------------------------------------------------------------ Discord failing
    def _discord_down(self, exc: BaseException) -> None:
        what = f"{exc.status} {exc.response.reason}" if isinstance(exc, discord.HTTPException) else type(exc).__name__
        if self.outage is None:
            self.outage = Outage(time.monotonic(), 1, what)
            log.warning("Discord is failing (%s); deliveries are held and retried with back-off", what)
        else:
            self.outage.failures += 1

    def _retry(self, game_id: int) -> None:
        if self._closing or (game_id in self._retries and not self._retries[game_id].done()):
            return
        failures = self.outage.failures if self.outage else 1
        delay = min(self.retry_cap, self.retry_base * 2 ** (failures - 1))

        async def later() -> None:
            await asyncio.sleep(delay)
            self._retries.pop(game_id, None)
            if not self._closing:
                self.wake(game_id)

        self._retries[game_id] = asyncio.get_running_loop().create_task(later(), name=f"gamemaster-retry-{game_id}")

    # ------------------------------------------------------------------ missing permissions
    def missing(self, channel_id: str) -> tuple[str, ...]:
        """The permissions a board needs that the gateway's cache says the bot lacks in the
        channel (a thread: Send Messages in Threads for Send Messages); () when unknown."""
        channel = self.bot.get_channel(int(channel_id))
        guild = getattr(channel, "guild", None)
        if channel is None or guild is None or guild.me is None:
            return ()
        perms = channel.permissions_for(guild.me)  # type: ignore[union-attr]
        lacking = []
        for name in NEEDED:
            held = perms.send_messages_in_threads if name == "send_messages" and isinstance(
                channel, discord.Thread) else getattr(perms, name)
            if not held:
                lacking.append(name)
        return tuple(lacking)

    async def _blocked(self, record: GameRow, exc: BaseException) -> None:
        lacking = self.missing(record.channel_id) or NEEDED[1:]
        if self.blocked.get(record.id) == lacking:
            return  # told already; the game waits for the permission
        self.blocked[record.id] = lacking
        log.warning("game %s: the bot may not post in channel %s (%s %s, missing %s); the table waits",
                    record.id, record.channel_id, getattr(exc, "code", ""), getattr(exc, "text", ""),
                    ", ".join(lacking))
        try:
            await self._tell(record, record.creator_id, "incident.permission",
                             permissions=lambda locale: ", ".join(t(f"incident.perm.{p}", locale) for p in lacking))
        except discord.HTTPException as told:
            log.info("game %s: its creator could not be told (%s %s)", record.id, told.status, told.code)

    async def permissions_changed(self) -> None:
        """A permission in a channel or a role changed: try the held tables again."""
        for game_id in list(self.blocked):
            self.wake(game_id)

    # ------------------------------------------------------------------ deleted channels
    async def channels_deleted(self, channel_ids: list[str], *, reason: str = "the gateway says deleted") -> None:
        """End the tables of deleted channels and threads, once, and tell their players."""
        ended = await channels_gone(self.bot.db, channel_ids)
        for record in ended:
            log.warning("game %s: channel %s is gone (%s); the table ended as abandoned", record.id,
                        record.channel_id, reason)
            self.blocked.pop(record.id, None)
            for seat in record.seats:
                if seat.is_computer or not seat.user_id:
                    continue
                try:
                    await self._tell(record, seat.user_id, "incident.channel_gone")
                except discord.HTTPException as told:
                    log.info("game %s: player %s could not be told (%s %s)", record.id, seat.user_id, told.status,
                             told.code)

    async def _tell(self, record: GameRow, user_id: str, key: str, **params: Callable[[str], str]) -> None:
        """A DM in the reader's language naming the table: its game, number, server and channel."""
        locale = await self.bot.user_locale(user_id, record.locale)
        name = await server_name(self.bot, record.guild_id)
        text = t(key, locale, game=t(f"game.name.{record.game}", locale), number=record.id,
                 server=name or t("dm.a_server", locale), channel=f"<#{record.channel_id}>",
                 **{k: v(locale) for k, v in params.items()})
        dm = await self.bot.fetch_dm_target(int(user_id))
        await dm.send(clip(text), allowed_mentions=NO_PINGS)


async def channel_refused(bot: GameMasterBot, channel_id: str, reason: str) -> None:
    """A post outside the announcer found the channel gone (404, 10003): its table ends."""
    announcer: Any = bot.get_cog("Announcer")
    incidents: Incidents | None = getattr(announcer, "incidents", None)
    if incidents is not None:
        await incidents.channels_deleted([str(channel_id)], reason=reason)


async def repost_lobby(bot: GameMasterBot, record: GameRow, text: str, view: discord.ui.View) -> None:
    """The lobby message was deleted (a moderator): the next join posts it anew, with its buttons,
    and remembers it (the start folds that one)."""
    log.warning("game %s: its lobby message %s in channel %s was deleted; posting it anew", record.id,
                record.board_message_id, record.channel_id)
    try:
        async with paced(bot, record.channel_id):
            message = await bot.get_partial_messageable(int(record.channel_id)).send(
                text, view=view, allowed_mentions=NO_PINGS)
    except discord.HTTPException as exc:  # the channel is shut too: the table still fills by /game join
        log.info("game %s: the lobby could not be posted anew (%s %s)", record.id, exc.status, exc.code)
        return
    await bot.service.set_lobby_message(record.id, str(message.id))


class IncidentEvents(commands.Cog):
    """The gateway's news of deleted channels and changed permissions, handed to the announcer's
    incidents."""

    def __init__(self, bot: GameMasterBot) -> None:
        self.bot = bot

    def incidents(self) -> Incidents | None:
        announcer: Any = self.bot.get_cog("Announcer")
        found: Incidents | None = getattr(announcer, "incidents", None)
        return found

    @commands.Cog.listener()
    async def on_guild_channel_delete(self, channel: discord.abc.GuildChannel) -> None:
        incidents = self.incidents()
        if incidents is None:
            return
        ids = [str(channel.id)] + [str(th.id) for th in getattr(channel, "threads", ())]
        await incidents.channels_deleted(ids)

    @commands.Cog.listener()
    async def on_raw_thread_delete(self, payload: discord.RawThreadDeleteEvent) -> None:
        incidents = self.incidents()
        if incidents is not None:
            await incidents.channels_deleted([str(payload.thread_id)])

    @commands.Cog.listener()
    async def on_guild_channel_update(self, before: Any, after: Any) -> None:
        await self._changed()

    @commands.Cog.listener()
    async def on_guild_role_update(self, before: Any, after: Any) -> None:
        await self._changed()

    @commands.Cog.listener()
    async def on_member_update(self, before: discord.Member, after: discord.Member) -> None:
        if self.bot.user is not None and after.id == self.bot.user.id:
            await self._changed()

    async def _changed(self) -> None:
        incidents = self.incidents()
        if incidents is not None and incidents.blocked:
            await incidents.permissions_changed()

