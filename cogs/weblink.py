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
    channel = bot.get_channel(int(channel_id))
    if isinstance(channel, discord.Thread):
        if channel.type == discord.ChannelType.private_thread:
            return False
        channel = channel.parent
    if not isinstance(channel, discord.abc.GuildChannel):
        return False
    return channel.permissions_for(channel.guild.default_role).view_channel


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
