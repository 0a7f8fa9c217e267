"""GameMasterApp: the Discord application. ``setup_hook`` loads the cogs (each failure logged),
registers the DynamicItems so buttons work after a restart, installs the command translator and
syncs commands; the command tree admits interactions through ``cogs.gate``.

The runner (``bot.runner``) builds the services and hands them in; nothing in ``bot/`` imports
this module.
"""
from __future__ import annotations

import asyncio
import logging
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.engine import registry
from bot.services.table import GameService
from bot.settings import Settings
from bot.storage.db import Database
from cogs.client import CatalogTranslator, GameMasterBot
from cogs.gate import admit, answer_stray, reply_tree_error
from cogs.limits import bound_string_options
from cogs.routing import dynamic_items

log = logging.getLogger(__name__)

# the shared cogs (history, challenge, seats, notify, orders, privacy, replay, web: in lobby's /game group);
# every game's own cog comes from its plugin entry and loads between these and LAST_EXTENSIONS
EXTENSIONS = ("cogs.announcer", "cogs.lobby", "cogs.history", "cogs.challenge", "cogs.seats", "cogs.notify",
              "cogs.orders", "cogs.privacy", "cogs.replay", "cogs.rules", "cogs.clock")
LAST_EXTENSIONS = ("cogs.web",)


def extensions() -> tuple[str, ...]:
    """Every extension the application loads: the shared cogs and each registered game's cog."""
    games = tuple(plugin.cog for plugin in registry.plugins() if plugin.cog)
    return EXTENSIONS + games + LAST_EXTENSIONS


class GameTree(app_commands.CommandTree[GameMasterBot]):
    async def interaction_check(self, interaction: discord.Interaction) -> bool:
        return await admit(interaction)


class GameMasterApp(GameMasterBot):
    def __init__(self, settings: Settings, db: Database, service: GameService, **kwargs: Any) -> None:
        kwargs.setdefault("tree_cls", GameTree)
        super().__init__(settings, db, service, **kwargs)

    async def setup_hook(self) -> None:
        await self.players.load_locales()
        await asyncio.gather(self.start_renders(), self.start_computers())  # the workers start side by side
        await self.tree.set_translator(CatalogTranslator())
        for extension in extensions():
            try:
                await self.load_extension(extension)
                self.loaded_extensions.append(extension)
            except commands.ExtensionNotFound:
                log.info("extension %s not present", extension)
            except Exception:
                log.exception("failed to load extension %s", extension)
        self.add_dynamic_items(*dynamic_items())
        bound_string_options(self.tree)  # every string option with the max_length its use needs
        self.tree.on_error = self.on_tree_error  # type: ignore[method-assign]
        if self.settings.sync_commands:
            await self.sync_commands()

    async def on_tree_error(self, interaction: discord.Interaction,
                            error: app_commands.AppCommandError) -> None:
        await reply_tree_error(interaction, error)

    async def on_interaction(self, interaction: discord.Interaction) -> None:
        await answer_stray(interaction)
