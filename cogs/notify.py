"""Notifications the player controls, in Discord: ``/notify`` (per table, in its channel: mute,
"you're next", a ping limit; a top-level command, as the /game group holds Discord's most, 25
subcommands), ``/game prefs digest:`` (a daily DM of your tables at your hour; ``prefs_digest``)
and ``/game mine`` (your tables on every server, by the clock left; also in a DM with the bot).
The decisions are ``bot.services.notify``; the announcer and the clock loop ask this module in a
line each whom a message may ping (``board_pings``, ``silent``), send the heads-up (``heads_up``)
and tick the digests (``NotifyCog.tick``). ``/game mine`` is attached to the /game group of
cogs/lobby.py (loaded after it)."""
from __future__ import annotations

import logging
from collections.abc import Sequence
from datetime import datetime
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.errors import IllegalAction
from bot.i18n import t
from bot.services import clock as clocks
from bot.services import notify
from bot.services.notify import Notifications
from bot.services.text import shown
from bot.storage.games import GameRow
from bot.storage.notify import Digest, TableNotify
from cogs.hooks import defer
from cogs.replies import NO_PINGS, guarded, locale_of, reply

if TYPE_CHECKING:
    from cogs.client import GameMasterBot

log = logging.getLogger(__name__)
SUBTEXT = "-# "


def the_cog(bot: Any) -> NotifyCog | None:
    """The loaded cog (not by its class: discord.py loads an extension as a module object of its own)."""
    cog = bot.get_cog("NotifyCog")
    return cog if hasattr(cog, "notes") else None


# ----------------------------------------------------------------------------- for the announcer
async def board_pings(bot: Any, record: GameRow, users: Sequence[str]) -> list[str]:
    """Of the players a new board would ping, those it may ping now (muted tables and ping limits
    hold the others back: the board still names them); the others' DMs of this turn go silent."""
    cog = the_cog(bot)
    if cog is None or not users:
        return list(users)
    heard, held = await cog.notes.audible(record.id, [str(u) for u in users], bot.service.clock(), record.version)
    cog.held[record.id] = (record.ply, held)
    return heard


async def silent(bot: Any, record: GameRow, user_id: str | None) -> bool:
    """Whether a DM of the table to the player goes without a notification: the table is muted
    for them, or this turn's ping was held back by their ping limit."""
    cog = the_cog(bot)
    if cog is None or not user_id:
        return False
    ply, held = cog.held.get(record.id, (-1, set()))
    if ply == record.ply and str(user_id) in held:
        return True
    choice = (await cog.notes.of_game(record.id, record.version)).get(str(user_id))
    return bool(choice and choice.mute)


async def reminder_pings(bot: Any, record: GameRow, user_id: str) -> bool:
    """Whether a reminder of the table may notify the player (a muted table's or a limited one's
    goes silently); a reminder that does counts for their ping limit."""
    cog = the_cog(bot)
    if cog is None:
        return True
    heard, _ = await cog.notes.audible(record.id, [str(user_id)], bot.service.clock())
    return bool(heard)


async def replan_digest(bot: Any, user_id: str) -> None:
    """The player's time zone or quiet hours changed (/game prefs): their digest is planned anew."""
    cog = the_cog(bot)
    if cog is not None:
        await cog.notes.replan(str(user_id))


async def heads_up(bot: Any, record: GameRow, to_act: Sequence[int], board_id: str, first: int) -> None:
    """The new board waits on one seat: the player who comes next, if they asked for it, hears
    so by DM ("you're next"), once per turn, never muted, limited or inside their quiet hours."""
    cog = the_cog(bot)
    if cog is None or record.status != "active" or len(to_act) != 1:
        return
    try:
        await cog.heads_up(record, to_act[0], board_id, first)
    except Exception:  # noqa: BLE001 - logged; the board stands
        log.exception("could not send the heads-up of game %s", record.id)


# ----------------------------------------------------------------------------- the lines of a list
def jump(record: GameRow) -> str:
    link = f"https://discord.com/channels/{record.guild_id or '@me'}/{record.channel_id}"
    return link + (f"/{record.board_message_id}" if record.board_message_id else "")


def place(bot: Any, record: GameRow) -> str:
    """Where the table is: "Server › #channel" by the names Discord gave us, else a channel mention."""
    guild = bot.get_guild(int(record.guild_id)) if record.guild_id else None
    channel = guild.get_channel_or_thread(int(record.channel_id)) if guild is not None else None
    where = f"#{channel.name}" if channel is not None else f"<#{record.channel_id}>"
    return f"{guild.name} › {where}" if guild is not None else where


def table_line(bot: Any, record: GameRow, user_id: str, locale: str) -> str:
    game = t(f"game.name.{record.game}", locale)
    where, link = place(bot, record), jump(record)
    if record.status == "lobby":
        return t("notify.line.lobby", locale, game=game, place=where, link=link)
    waiting = sorted(bot.service.to_act(record))
    deadline = ""
    if record.turn_deadline:
        stamp = int(datetime.fromisoformat(record.turn_deadline).timestamp())
        deadline = t("notify.line.deadline", locale, time=f"<t:{stamp}:R>")
    if record.seat_of(str(user_id)) in waiting:
        return t("notify.line.your_turn", locale, game=game, place=where, link=link, deadline=deadline)
    players = ", ".join(shown(record.names[s]) for s in waiting) or "-"
    return t("notify.line.waiting", locale, game=game, place=where, link=link, players=players, deadline=deadline)


def your_turns(bot: Any, records: Sequence[GameRow], user_id: str) -> int:
    return sum(1 for r in records if r.status == "active" and r.seat_of(str(user_id)) in bot.service.to_act(r))


def clip_lines(lines: list[str], limit: int = 1900) -> str:
    out: list[str] = []
    size = 0
    for line in lines:
        if size + len(line) + 1 > limit:
            out.append("…")
            break
        out.append(line)
        size += len(line) + 1
    return "\n".join(out)


def digest_text(bot: Any, records: Sequence[GameRow], user_id: str, name: str, locale: str) -> str:
    """The digest: the reader's name and how many tables wait on them first, then each table."""
    ordered = notify.by_clock(records)
    first = t("notify.digest.first", locale, who=name, turns=your_turns(bot, ordered, user_id), count=len(ordered))
    return clip_lines([first, *(table_line(bot, r, user_id, locale) for r in ordered)])


# ----------------------------------------------------------------------------- the commands
def yes_no(value: bool, locale: str) -> str:
    return t("prefs.yes" if value else "prefs.no", locale)


def saved_text(record: GameRow, choice: TableNotify, locale: str) -> str:
    limit = (t("notify.limit.hours", locale, hours=choice.max_per_hours) if choice.max_per_hours
             else t("notify.limit.none", locale))
    return t("notify.saved", locale, game=t(f"game.name.{record.game}", locale), id=record.id,
             mute=t("notify.muted" if choice.mute else "notify.unmuted", locale),
             early=yes_no(choice.early, locale), limit=limit)


@app_commands.command(name="notify", description="How this table notifies you: mute, you're next, ping limit")
@app_commands.guild_only()
@app_commands.describe(mute="No pings from this table (the board still updates)",
                       early="DM me when I am next (one turn early)",
                       max_per="At most one ping per this many hours from this table (0: no limit)")
async def notify_command(interaction: discord.Interaction, mute: bool | None = None, early: bool | None = None,
                         max_per: app_commands.Range[int, 0, 168] | None = None) -> None:
    bot: GameMasterBot = interaction.client  # type: ignore[assignment]

    async def work() -> None:
        await defer(interaction, ephemeral=True, thinking=True)  # before any database work
        locale = locale_of(interaction)
        cog = the_cog(bot)
        record = await bot.service.current(str(interaction.channel_id)) if interaction.guild_id else None
        if cog is None or record is None:
            raise IllegalAction("notify.error.no_table")
        choice = await cog.notes.choose(record, str(interaction.user.id), mute=mute, early=early, max_per=max_per)
        await reply(interaction, saved_text(record, choice, locale))

    await guarded(interaction, work)


async def prefs_digest(bot: Any, user_id: str, hour: int | None, locale: str) -> str:
    """``/game prefs digest:``: turn the daily digest on at ``hour`` (0-23) or off (-1); the line
    the prefs answer adds about it (none for a player who never turned it on)."""
    cog = the_cog(bot)
    if cog is None:
        return ""
    if hour is not None:
        await cog.notes.set_digest(str(user_id), None if hour == -1 else hour)
        if hour == -1:
            return t("notify.digest.off", locale)
    chosen = await cog.notes.digest_hour(str(user_id))
    if chosen is None:
        return ""
    prefs = await bot.players.prefs(str(user_id))
    when = Digest(str(user_id), chosen, None, prefs.time_zone, prefs.quiet_start, prefs.quiet_end)
    moved = notify.digest_moment(bot.service.clock().astimezone(clocks.zone(prefs.time_zone)).date(), when)
    text = t("notify.digest.at", locale, hour=f"{chosen:02d}:00", zone=prefs.time_zone or "UTC")
    if moved.hour != chosen:
        text += " " + t("notify.digest.moved", locale, hour=f"{moved.hour:02d}:00")
    return text


@app_commands.command(name="mine", description="Every table you sit at, by the clock left (also in a DM with the bot)")
async def mine_command(interaction: discord.Interaction) -> None:
    """In a DM with the bot: your tables on every server, by the clock left, with server and
    channel names and links. In a server: this server's, the same way, and how many elsewhere."""
    bot: GameMasterBot = interaction.client  # type: ignore[assignment]

    async def work() -> None:
        await defer(interaction, ephemeral=True, thinking=True)  # before any database work
        locale = locale_of(interaction)
        user_id = str(interaction.user.id)
        every = await bot.players.games_of(user_id, None)
        here = str(interaction.guild_id) if interaction.guild_id else None
        shown_here = [r for r in every if here is None or r.guild_id == here]
        if not shown_here:
            key = "mine.none" if here is not None else "notify.mine.none_anywhere"
            text = t(key, locale)
            if len(every) > len(shown_here):
                text += "\n" + t("notify.mine.elsewhere", locale, count=len(every))
            await reply(interaction, text)
            return
        lines = [t("mine.title", locale)]
        lines += [table_line(bot, r, user_id, locale) for r in notify.by_clock(shown_here)]
        if len(every) > len(shown_here):
            lines.append(t("notify.mine.elsewhere", locale, count=len(every) - len(shown_here)))
        await reply(interaction, clip_lines(lines))

    await guarded(interaction, work)


class NotifyCog(commands.Cog):
    def __init__(self, bot: GameMasterBot) -> None:
        self.bot = bot
        self.notes = Notifications(bot.db)
        # game -> (ply, users whose ping its newest board held back): their DMs of that turn go silent
        self.held: dict[int, tuple[int, set[str]]] = {}

    async def heads_up(self, record: GameRow, acting: int, board_id: str, first: int) -> bool:
        choices = await self.notes.of_game(record.id, record.version)
        if not any(c.early for c in choices.values()):
            return False
        public = self.bot.service.observe(record, None).get("public") or {}
        computers = [s.seat for s in record.seats if s.is_computer]
        seat = notify.next_up(len(record.seats), acting, notify.out_seats(public), computers)
        if seat is None or (user_id := record.user_of(seat)) is None:
            return False
        choice = choices.get(str(user_id))
        if choice is None or not choice.early:
            return False
        now = self.bot.service.clock()
        prefs = await self.bot.players.prefs(user_id)
        if not prefs.dm_ok or clocks.in_quiet_hours(now, prefs.time_zone, prefs.quiet_start, prefs.quiet_end):
            return False
        heard, _ = await self.notes.audible(record.id, [user_id], now)
        if not heard:
            return False
        locale = prefs.language or record.locale
        link = f"https://discord.com/channels/{record.guild_id or '@me'}/{record.channel_id}/{board_id}"
        text = t("notify.heads_up", locale, who=shown(record.names[seat]), game=t(f"game.name.{record.game}", locale),
                 player=shown(record.names[acting]))
        text += "\n" + SUBTEXT + t("notify.heads_up_where", locale, place=place(self.bot, record), link=link)
        try:
            dm = await self.bot.fetch_dm_target(int(user_id))  # the nonce: a retried delivery sends it once
            await dm.send(text, allowed_mentions=NO_PINGS, nonce=f"gmn{record.id:x}.{first:x}.{seat}"[:25])
        except discord.Forbidden as exc:
            if exc.code != 50007:
                raise
            await self.bot.mark_dm(user_id, ok=False)
            return False
        return True

    async def tick(self, now: datetime) -> int:
        """Send the digests due at ``now`` (each claimed for its local day first); how many went."""
        sent = 0
        for due in await self.notes.due_digests(now):
            try:
                if await self.send_digest(due.user_id):
                    sent += 1
            except Exception:  # noqa: BLE001 - one player's digest failing is nobody else's
                log.exception("could not send the digest of %s", due.user_id)
        return sent

    async def send_digest(self, user_id: str) -> bool:
        records = await self.bot.players.games_of(user_id, None)
        if not records:  # nothing to tell: no message
            return False
        locale = await self.bot.user_locale(user_id, "en")
        name = next((r.names[s] for r in records if (s := r.seat_of(user_id)) is not None), "")
        try:
            dm = await self.bot.fetch_dm_target(int(user_id))
            await dm.send(digest_text(self.bot, records, user_id, shown(name), locale), allowed_mentions=NO_PINGS)
        except discord.Forbidden as exc:
            if exc.code != 50007:
                raise
            await self.bot.mark_dm(user_id, ok=False)
            return False
        return True


async def setup(bot: Any) -> None:
    group = bot.tree.get_command("game")
    if not isinstance(group, app_commands.Group):
        raise RuntimeError("cogs.notify needs the /game group of cogs.lobby (load it first)")
    group.add_command(mine_command)
    bot.tree.add_command(notify_command)  # its own top-level command: /game holds Discord's most, 25
    await bot.add_cog(NotifyCog(bot))
