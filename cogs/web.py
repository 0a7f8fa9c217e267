"""The web pages from Discord: ``/game web`` (a player's own signed link, by DM), ``/game settings
web:``'s switch, and the REST and acknowledgement counts for /metrics. The board's "Web view"
button is cogs/weblink.py's (a module this extension hands the bot to: discord.py loads an
extension as a module of its own, which the boards' module would not see).
"""
from __future__ import annotations

import logging
import re
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.errors import Forbidden, NotFound
from bot.i18n import t
from bot.web import metrics
from cogs import weblink
from cogs.hooks import defer
from cogs.replies import NO_PINGS, guarded, locale_of

if TYPE_CHECKING:
    from cogs.client import GameMasterBot

log = logging.getLogger(__name__)

# the interaction endpoints Discord leaves out of the global rate limit
_EXEMPT = re.compile(r"^/(interactions/|webhooks/\{webhook_id\}/\{webhook_token\})")
_CALLBACK = re.compile(r"/interactions/(?P<id>[0-9]+)/[^/]+/callback")
DISCORD_EPOCH_MS = 1420070400000

def count_rest(bot: GameMasterBot) -> None:
    """Every REST call counted by route (its template, never an id) and whether it counts against
    Discord's global limit; an interaction's callback is its acknowledgement, timed from the
    interaction's creation (its snowflake)."""
    original = bot.http.request

    async def request(route: discord.http.Route, **kwargs: Any) -> Any:
        metrics.rest_call(f"{route.method} {route.path}", counted=not _EXEMPT.match(route.path))
        answer = await original(route, **kwargs)
        callback = _CALLBACK.search(route.url)
        if callback:
            metrics.acknowledged(((int(callback["id"]) >> 22) + DISCORD_EPOCH_MS) / 1000)
        return answer

    bot.http.request = request  # type: ignore[method-assign]


@app_commands.command(name="web", description="Get your own view of this channel's game in a browser, by DM")
async def web_command(interaction: discord.Interaction) -> None:
    bot: GameMasterBot = interaction.client  # type: ignore[assignment]

    async def work() -> None:
        await defer(interaction, ephemeral=True, thinking=True)
        locale = locale_of(interaction)
        links = bot.web_links
        if links is None:
            raise NotFound("web.no_pages")
        if interaction.guild_id is not None and not links.pages_on(str(interaction.guild_id)):
            raise Forbidden("web.pages_off_here")
        record = await bot.service.require_current(str(interaction.channel_id))
        seat = record.seat_of(str(interaction.user.id))
        if seat is None:
            raise Forbidden("error.not_seated")
        text = t("web.dm_link", locale, game=t(f"game.name.{record.game}", locale),
                 url=links.private_url(record.id, seat, str(interaction.user.id)))
        try:
            dm = await bot.fetch_dm_target(interaction.user.id)
            await dm.send(text, allowed_mentions=NO_PINGS)
        except discord.Forbidden:
            await interaction.followup.send(t("web.dm_closed", locale), ephemeral=True)
            return
        await interaction.followup.send(t("web.dm_sent", locale), ephemeral=True)

    await guarded(interaction, work)


async def set_pages(bot: GameMasterBot, guild_id: str, on: bool) -> None:
    """``/game settings web:`` (cogs/lobby.py): a server's pages on or off."""
    if bot.web_links is None:
        raise NotFound("web.no_pages")
    await bot.web_links.set_pages(guild_id, on)


class Web(commands.Cog):
    def __init__(self, bot: GameMasterBot) -> None:
        self.bot = bot

    async def cog_load(self) -> None:
        weblink.use(self.bot)
        weblink.see_channels(self.bot)
        count_rest(self.bot)

    @commands.Cog.listener()
    async def on_ready(self) -> None:  # the pages' links are handed in beside the client (bot/runner.py)
        weblink.see_channels(self.bot)

    async def cog_unload(self) -> None:
        weblink.forget(self.bot)


async def setup(bot: Any) -> None:
    group = bot.tree.get_command("game")
    if not isinstance(group, app_commands.Group):
        raise RuntimeError("cogs.web needs the /game group of cogs.lobby (load it first)")
    group.add_command(web_command)
    await bot.add_cog(Web(bot))
