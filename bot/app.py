"""GameMasterBot: the discord.py client with our services injected (discord.py's advanced_startup).

setup_hook loads the cogs (each failure logged), registers the DynamicItems so buttons work after
a restart, installs the command translator, starts the scheduler and syncs commands.
"""
from __future__ import annotations

import logging
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.i18n import DISCORD_LOCALES, catalog, normalize
from bot.services.table import GameService
from bot.settings import Settings
from bot.storage.db import Database

log = logging.getLogger(__name__)

EXTENSIONS = ("cogs.lobby", "cogs.rules", "cogs.tolp", "cogs.zlodej", "cogs.stratego", "cogs.monopol")


class CatalogTranslator(app_commands.Translator):
    """Command names and descriptions from the catalogs: key ``cmd.<English text>``."""

    async def translate(self, string: app_commands.locale_str, locale: discord.Locale,
                        context: app_commands.TranslationContextTypes) -> str | None:
        lang = normalize(locale.value)
        if lang == "en" or lang not in DISCORD_LOCALES:
            return None
        return catalog(lang).get(f"cmd.{string.message}")


class GameMasterBot(commands.Bot):
    def __init__(self, settings: Settings, db: Database, service: GameService, **kwargs: Any) -> None:
        intents = discord.Intents.default()
        super().__init__(command_prefix=commands.when_mentioned, intents=intents,
                         help_command=None, **kwargs)
        self.settings = settings
        self.db = db
        self.service = service
        self.loaded_extensions: list[str] = []

    async def setup_hook(self) -> None:
        from cogs.common import GameButton, GameSelect

        await self.tree.set_translator(CatalogTranslator())
        for extension in EXTENSIONS:
            try:
                await self.load_extension(extension)
                self.loaded_extensions.append(extension)
            except commands.ExtensionNotFound:
                log.info("extension %s not present", extension)
            except Exception:
                log.exception("failed to load extension %s", extension)
        self.add_dynamic_items(GameButton, GameSelect)
        self.tree.on_error = self.on_tree_error  # type: ignore[method-assign]
        if self.settings.sync_commands:
            await self.sync_commands()

    async def sync_commands(self) -> list[app_commands.AppCommand]:
        if self.settings.dev_guild_id:
            guild = discord.Object(id=self.settings.dev_guild_id)
            self.tree.copy_global_to(guild=guild)
            return await self.tree.sync(guild=guild)
        return await self.tree.sync()

    async def on_tree_error(self, interaction: discord.Interaction,
                            error: app_commands.AppCommandError) -> None:
        from cogs.common import reply_error

        original = getattr(error, "original", error)
        await reply_error(interaction, original)

    # ------------------------------------------------------------------ users
    async def fetch_dm_target(self, user_id: int) -> discord.DMChannel:
        return await self.create_dm(discord.Object(id=user_id))

    async def user_locale(self, user_id: str, default: str) -> str:
        row = await self.db.fetchone("SELECT locale FROM user_prefs WHERE user_id = ?", (str(user_id),))
        return normalize(row["locale"]) if row and row["locale"] else default

    async def mark_dm(self, user_id: str, *, ok: bool) -> bool:
        """Record whether DMs to the user work; True when that changed (closed DMs are announced
        once, not on every move)."""
        async with self.db.transaction() as conn:
            async with conn.execute("SELECT dm_ok FROM user_prefs WHERE user_id = ?", (str(user_id),)) as cur:
                row = await cur.fetchone()
            previous = bool(row["dm_ok"]) if row else True
            if row is None:
                await conn.execute("INSERT INTO user_prefs (user_id, dm_ok) VALUES (?, ?)", (str(user_id), int(ok)))
            else:
                await conn.execute("UPDATE user_prefs SET dm_ok = ? WHERE user_id = ?", (int(ok), str(user_id)))
        return previous != ok
