"""Turn clocks in Discord: the scheduler loop (reminders, last calls, timeouts, game timers) and
the other players' vote on a timed-out seat (wait longer, skip, or hand it to the computer)."""
from __future__ import annotations

import logging
import re
from datetime import datetime
from typing import TYPE_CHECKING, Any

import discord
from discord.ext import commands, tasks

from bot.i18n import t
from bot.services.clock import LAST_CALL, REMINDER
from bot.services.scheduler import Due
from bot.services.text import shown
from cogs.components import GameButton
from cogs.hooks import defer
from cogs.moves import announce, announced
from cogs.notify import reminder_pings
from cogs.replies import NO_PINGS, guarded, locale_of, paced, pinging, reply

if TYPE_CHECKING:
    from cogs.client import GameMasterBot

log = logging.getLogger(__name__)


def stamp(when: datetime) -> str:
    return f"<t:{int(when.timestamp())}:f>"


# gm:t:<game>:<ply>:<seat>:wait|skip|computer (the table's vote on a player who let their time run out)
VOTE_ID = re.compile(r"t:(?P<game>[0-9]{1,18}):(?P<ply>[0-9]{1,9}):(?P<seat>[0-9]{1,2}):(?P<choice>wait|skip|computer)")


def vote_view(game_id: int, ply: int, seat: int, locale: str) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    for choice, style in (("wait", discord.ButtonStyle.primary), ("skip", discord.ButtonStyle.secondary),
                          ("computer", discord.ButtonStyle.danger)):
        view.add_item(GameButton(game_id, ply, "", label=t(f"clock.button.{choice}", locale), style=style,
                                 raw=f"gm:t:{game_id}:{ply}:{seat}:{choice}"))
    return view


class Clock(commands.Cog):
    def __init__(self, bot: GameMasterBot) -> None:
        self.bot = bot

    async def cog_load(self) -> None:
        if self.bot.settings.scheduler_seconds > 0:
            self.loop.change_interval(seconds=self.bot.settings.scheduler_seconds)
            self.loop.start()

    async def cog_unload(self) -> None:
        self.loop.cancel()

    @tasks.loop(seconds=60)
    async def loop(self) -> None:
        now = self.bot.service.clock()
        try:
            await self.tick(now)
        except Exception:
            log.exception("scheduler tick failed")
        challenges = self.bot.get_cog("ChallengeCog")  # challenges due to open or expire (cogs/challenge.py)
        if challenges is not None:
            try:
                await challenges.tick(now)  # type: ignore[attr-defined]
            except Exception:
                log.exception("challenge tick failed")
        seats = self.bot.get_cog("SeatsCog")  # seat replacements left unanswered for a day (cogs/seats.py)
        if seats is not None:
            try:
                await seats.tick(now)  # type: ignore[attr-defined]
            except Exception:
                log.exception("seat request tick failed")
        notifications = self.bot.get_cog("NotifyCog")  # the daily digests due (cogs/notify.py)
        if notifications is not None:
            try:
                await notifications.tick(now)  # type: ignore[attr-defined]
            except Exception:
                log.exception("digest tick failed")

    @loop.before_loop
    async def before_loop(self) -> None:
        await self.bot.wait_until_ready()

    async def tick(self, now: datetime) -> int:
        """Send what is due at ``now``; apply expired game timers. Returns how many were handled."""
        handled = 0
        for due in await self.bot.scheduler.due(now):
            try:
                await self.send_due(due)
            except (discord.NotFound, discord.Forbidden) as exc:  # would fail the same way every time
                log.warning("reminder for game %s seat %s not deliverable: %s", due.record.id, due.seat, exc)
            except Exception:  # left undelivered: offered again when its lease runs out
                log.exception("reminder for game %s seat %s failed", due.record.id, due.seat)
                continue
            await self.bot.scheduler.delivered(due, now)
            handled += 1
        for update in await self.bot.service.apply_timers(now):
            announce(self.bot, update)
            handled += 1
        return handled

    async def send_due(self, due: Due) -> None:
        record = due.record
        channel = self.bot.get_partial_messageable(int(record.channel_id))
        game = t(f"game.name.{record.game}", record.locale)
        if due.stage in (REMINDER, LAST_CALL):
            locale = due.locale or record.locale
            key = "clock.reminder" if due.stage == REMINDER else "clock.last_call"
            link = f"<#{record.channel_id}>"
            text = t(key, locale, game=t(f"game.name.{record.game}", locale), channel=link, time=stamp(due.deadline))
            heard = await reminder_pings(self.bot, record, due.user_id)  # muted, or held by a ping limit
            if due.dm_ok:
                try:
                    dm = await self.bot.fetch_dm_target(int(due.user_id))
                    who = shown(record.names[due.seat])  # the reader's name and the news first
                    await dm.send(t("msg.addressed", locale, who=who, text=text), allowed_mentions=NO_PINGS,
                                  silent=not heard)
                    return
                except discord.Forbidden as exc:
                    if exc.code != 50007:
                        raise
                    await self.bot.mark_dm(due.user_id, ok=False)
            async with paced(self.bot, record.channel_id):
                await channel.send(t("msg.addressed", record.locale, who=f"<@{due.user_id}>",
                                     text=t(key, record.locale, game=game, channel=link, time=stamp(due.deadline))),
                                   allowed_mentions=pinging(due.user_id) if heard else NO_PINGS)
            return
        async with paced(self.bot, record.channel_id):
            await channel.send(t("clock.timeout", record.locale, player=shown(record.names[due.seat]),
                                 hours=max(1, record.turn_seconds // 3600)),
                               view=vote_view(record.id, record.ply, due.seat, record.locale),
                               allowed_mentions=NO_PINGS)


async def vote_button(interaction: discord.Interaction, game_id: int, ply: int, seat: int, choice: str) -> None:
    bot: GameMasterBot = interaction.client  # type: ignore[assignment]

    async def work() -> None:
        await defer(interaction, ephemeral=True, thinking=True)
        result = await bot.service.vote_timeout(game_id=game_id, ply=ply, seat=seat,
                                                user_id=str(interaction.user.id), choice=choice)
        locale = locale_of(interaction)
        if result.update is None:
            await reply(interaction, t("clock.vote_recorded", locale, votes=result.votes, needed=result.needed))
            return
        await announced(interaction, result.update)

    await guarded(interaction, work)


async def setup(bot: Any) -> None:
    await bot.add_cog(Clock(bot))
