"""The board's "Web view" link button (cogs/board.py draws it).

A table's page is public only when @everyone can see its channel (a private thread never): the
button is drawn only then, and the table's address is marked public or not as the board is drawn.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

import discord

from bot.i18n import t
from bot.storage.games import GameRow

if TYPE_CHECKING:
    from cogs.client import GameMasterBot

_bot: GameMasterBot | None = None  # the bot whose boards get the button (cogs.web hands it in)


def everyone_sees(bot: GameMasterBot, channel_id: str) -> bool:
    """Whether @everyone may view the channel (a thread: its parent; a private thread: never)."""
    return seen_by_everyone(bot, channel_id) is True


def seen_by_everyone(bot: GameMasterBot, channel_id: str) -> bool | None:
    """Whether @everyone may view the channel as the gateway's cache tells it (a thread: its
    parent; a private thread: never), or None when the cache does not hold it (a channel of
    another shard, a deleted one, before the gateway is ready)."""
    channel = bot.get_channel(int(channel_id))
    if isinstance(channel, discord.Thread):
        if channel.type == discord.ChannelType.private_thread:
            return False
        channel = channel.parent
    if channel is None:
        return None
    if not isinstance(channel, discord.abc.GuildChannel):
        return False
    return channel.permissions_for(channel.guild.default_role).view_channel


def see_channels(bot: GameMasterBot) -> None:
    """Let the pages decide a table's visibility when it is asked for, from the gateway's cache
    (bot/web/links.py: ``WebLinks.visibility``): a table from before the pages, or whose channel
    changed since its board was drawn, is public exactly when @everyone can see its channel."""
    if bot.web_links is not None:
        bot.web_links.visibility = lambda channel_id: seen_by_everyone(bot, channel_id)


def web_button(record: GameRow, locale: str) -> discord.ui.Button[Any] | None:
    """The board's "Web view" link, for a table whose page is public (its visibility stored)."""
    bot = _bot
    links = bot.web_links if bot is not None else None
    if bot is None or links is None or record.guild_id is None or not links.pages_on(record.guild_id):
        return None
    public = everyone_sees(bot, record.channel_id)
    links.note_public(record.id, record.guild_id, public)
    if not public:
        return None
    return discord.ui.Button(style=discord.ButtonStyle.link, label=t("web.button", locale),
                             url=f"{links.table_url(record.id)}?lang={locale}")



def use(bot: GameMasterBot) -> None:
    global _bot
    _bot = bot


def forget(bot: GameMasterBot) -> None:
    global _bot
    if _bot is bot:
        _bot = None
