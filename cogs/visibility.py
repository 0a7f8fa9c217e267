"""Which past games a caller may reach: those whose channel they can view (#27 point 3).

``/game history``, ``/game replay`` and ``/game export`` reach a server's games by number; a game
played in a private channel (or a thread of one) stays private to whoever can view that channel.
Permissions are Discord's own computation over the gateway's cache (the server's roles, the
channel's overwrites, the member's roles, from ``Channel.permissions_for``); a thread counts as its
parent channel, a private thread also needs Manage Threads there (the bot opens public ones). A
thread the cache no longer holds (archived) is asked of Discord once and its parent remembered; a
channel Discord no longer has (deleted) or a server not in the cache counts as hidden."""
from __future__ import annotations

from collections import OrderedDict
from typing import Any

import discord

# archived threads asked of Discord: thread id -> (parent channel id, private), None when gone
_THREADS: OrderedDict[int, tuple[int, bool] | None] = OrderedDict()
_REMEMBERED = 10_000


class Sight:
    """What one caller can view on one server, for one interaction (each channel checked once)."""

    def __init__(self, interaction: discord.Interaction) -> None:
        self.interaction = interaction
        self.here = str(interaction.channel_id or "")
        self.seen: dict[str, bool] = {}

    async def can_view(self, channel_id: str) -> bool:
        if channel_id == self.here:
            return True  # where the caller is typing
        if channel_id not in self.seen:
            self.seen[channel_id] = await self._can_view(int(channel_id))
        return self.seen[channel_id]

    async def _can_view(self, channel_id: int) -> bool:
        interaction = self.interaction
        client: Any = interaction.client
        guild = interaction.guild or (client.get_guild(interaction.guild_id) if interaction.guild_id else None)
        member = interaction.user
        if guild is None or not isinstance(member, discord.Member):
            return False
        found = guild.get_channel_or_thread(channel_id)
        where: tuple[int, bool] | None
        if isinstance(found, discord.Thread):
            where = (found.parent_id, found.type is discord.ChannelType.private_thread)
        elif found is not None:
            return found.permissions_for(member).view_channel
        else:
            where = await _archived_thread(guild, channel_id)
        if where is None:
            return False
        parent = guild.get_channel(where[0])
        if parent is None:
            return False
        allowed = parent.permissions_for(member)
        return allowed.view_channel and (not where[1] or allowed.manage_threads)


async def _archived_thread(guild: discord.Guild, channel_id: int) -> tuple[int, bool] | None:
    if channel_id not in _THREADS:
        try:
            fetched = await guild.fetch_channel(channel_id)
        except (discord.NotFound, discord.Forbidden):
            fetched = None
        _THREADS[channel_id] = (fetched.parent_id, fetched.type is discord.ChannelType.private_thread) \
            if isinstance(fetched, discord.Thread) else None
        if len(_THREADS) > _REMEMBERED:
            _THREADS.popitem(last=False)
    return _THREADS[channel_id]


async def can_view(interaction: discord.Interaction, channel_id: str) -> bool:
    """One check: in a server, whether the caller can view ``channel_id``; outside one (a DM), the
    callers' own rules apply (True)."""
    if interaction.guild_id is None:
        return True
    return await Sight(interaction).can_view(channel_id)
