"""GameMasterBot: the discord.py client as every cog sees it, with the services injected
(discord.py's advanced_startup): the database, the table, players, history, ratings, the
scheduler, the channel pacer, the render workers and the computers' workers.

The Discord application built on it (the command tree, ``setup_hook`` loading the cogs and
registering the DynamicItems) is ``cogs.app.GameMasterApp``; this module imports no other cog, so
every cog may name the client it runs in without an import circle.
"""
from __future__ import annotations

import asyncio
import logging
from collections import OrderedDict
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.engine import registry
from bot.i18n import DISCORD_LOCALES, catalog, normalize
from bot.services import renders
from bot.services.assembly import Services
from bot.services.budget import GlobalPacer
from bot.services.computers import ComputerPool
from bot.services.table import GameService
from bot.services.user_budget import Budgets
from bot.settings import Settings
from bot.storage.db import Database

if TYPE_CHECKING:
    from bot.web.links import WebLinks

log = logging.getLogger(__name__)

RECENT_INTERACTIONS = 10_000  # interaction ids remembered against duplicate deliveries


class CatalogTranslator(app_commands.Translator):
    """Command names and descriptions from the catalogs: key ``cmd.<English text>``."""

    async def translate(self, string: app_commands.locale_str, locale: discord.Locale,
                        context: app_commands.TranslationContextTypes) -> str | None:
        lang = normalize(locale.value)
        if lang == "en" or lang not in DISCORD_LOCALES:
            return None
        text = catalog(lang).get(f"cmd.{string.message}")
        return text if isinstance(text, str) else None  # command texts have no plural forms


def pace_counted_calls(http: discord.http.HTTPClient, budget: GlobalPacer) -> None:
    """Every call of discord.py's HTTP client counts against Discord's global limit (interaction
    responses, follow-ups and their edits go through the webhook adapter instead): each waits for
    room in ``budget``, in the lane its caller named (bot.services.budget.lane)."""
    request = http.request

    async def paced_request(route: discord.http.Route, **kwargs: Any) -> Any:
        stamp = await budget.acquire()
        try:
            return await request(route, **kwargs)
        finally:  # a refused call may still have counted
            budget.sent(stamp)

    http.request = paced_request  # type: ignore[method-assign]


def bot_intents() -> discord.Intents:
    """The gateway events the bot asks Discord for: the default set without messages, reactions
    and typing. Everything a player does reaches it as an interaction, which comes whatever the
    intents; with the message intents every message in every channel of its servers (and an
    echo of each board it posts or edits) would arrive to be parsed and thrown away."""
    intents = discord.Intents.default()
    intents.guild_messages = intents.dm_messages = False
    intents.guild_reactions = intents.dm_reactions = False
    intents.guild_typing = intents.dm_typing = False
    return intents


class GameMasterBot(commands.AutoShardedBot):
    def __init__(self, settings: Settings, db: Database, service: GameService, *,
                 services: Services | None = None, **kwargs: Any) -> None:
        intents = bot_intents()
        # nothing the bot sends pings unless the call names whom (cogs.replies.pinging)
        kwargs.setdefault("allowed_mentions", discord.AllowedMentions.none())
        if settings.shards is not None:  # this process runs these of Discord's shards (AutoSharded: all)
            kwargs.setdefault("shard_ids", list(settings.shards))
            kwargs.setdefault("shard_count", settings.shard_count)
        super().__init__(command_prefix=commands.when_mentioned, intents=intents,
                         help_command=None, **kwargs)
        services = services or Services.build(settings, db, service)
        self.settings = settings
        self.db = db
        self.service = services.table
        self.players = services.players
        self.history = services.history  # a server's finished games
        self.ratings = services.ratings  # a server's ratings per game, kept in the database
        self.budgets = Budgets()  # expensive work per user and server (replays, exports, pages, threads)
        self.scheduler = services.scheduler
        self.pacer = services.pacer  # Discord's per-channel limit
        self.budget = services.budget  # Discord's global limit: one pacer for every shard of this process
        pace_counted_calls(self.http, self.budget)
        self._recent_interactions: OrderedDict[int, None] = OrderedDict()
        self._templates: list[Any] = []
        self.loaded_extensions: list[str] = []
        self.renders: renders.Renders | None = None
        self.computers: ComputerPool | None = None  # where computer seats decide (None: a thread)
        self.web_links: WebLinks | None = None  # the web pages' addresses, when the runner serves them

    async def before_identify_hook(self, shard_id: int | None, *, initial: bool = False) -> None:
        """Discord's spacing between IDENTIFYs of this process's shards (settings.identify_seconds)."""
        if not initial and self.settings.identify_seconds:
            await asyncio.sleep(self.settings.identify_seconds)

    async def sync_commands(self) -> list[app_commands.AppCommand]:
        if self.settings.dev_guild_id:
            guild = discord.Object(id=self.settings.dev_guild_id)
            self.tree.copy_global_to(guild=guild)
            return await self.tree.sync(guild=guild)
        return await self.tree.sync()

    async def start_renders(self) -> None:
        """Render worker processes (settings.render_processes; 0: threads) with the renderers loaded."""
        if self.settings.render_processes > 0 and self.renders is None:
            self.renders = renders.Renders(self.settings.render_processes)
            await self.renders.start(tuple(plugin.renderer for plugin in registry.plugins()))
            renders.use(self.renders)

    async def start_computers(self) -> None:
        """The computer seats' worker processes (settings.computer_processes; 0: they decide in a
        thread of this process), every game imported there before the first decision."""
        if self.settings.computer_processes > 0 and self.computers is None:
            self.computers = ComputerPool(self.settings.computer_processes)
            await self.computers.start()
            self.service.computer_executor = self.computers

    async def close(self) -> None:
        await self.players.settle()  # the client languages noticed in the background
        await super().close()
        if self.computers is not None:
            if self.service.computer_executor is self.computers:
                self.service.computer_executor = None
            workers, self.computers = self.computers, None
            await asyncio.to_thread(workers.close)
        if self.renders is not None:
            if renders.current() is self.renders:
                renders.use(None)
            pool, self.renders = self.renders, None
            await asyncio.to_thread(pool.close)

    def add_dynamic_items(self, *items: type[discord.ui.DynamicItem[Any]]) -> None:
        super().add_dynamic_items(*items)
        self._templates.extend(item.__discord_ui_compiled_template__ for item in items)

    def handles_custom_id(self, custom_id: str) -> bool:
        """Whether one of the registered DynamicItems (every button and menu of ours) takes it."""
        return any(template.fullmatch(custom_id) for template in self._templates)

    def first_delivery(self, interaction_id: int) -> bool:
        """False for an interaction this process has already seen (the gateway delivered it
        twice): the first delivery answers it, the second must not act or answer again."""
        if interaction_id in self._recent_interactions:
            return False
        self._recent_interactions[interaction_id] = None
        if len(self._recent_interactions) > RECENT_INTERACTIONS:
            self._recent_interactions.popitem(last=False)
        return True

    # ------------------------------------------------------------------ users
    async def fetch_dm_target(self, user_id: int) -> discord.abc.Messageable:
        """Where to DM the user: their DM channel as stored once Discord opened it, so that a DM is
        one REST call (discord.py itself keeps only the last 128 DM channels)."""
        stored = (await self.players.prefs(str(user_id))).dm_channel_id
        if stored:
            return self.get_partial_messageable(int(stored), type=discord.ChannelType.private)
        dm = await self.create_dm(discord.Object(id=user_id))
        await self.players.remember_dm_channel(str(user_id), str(dm.id))
        return dm

    async def user_locale(self, user_id: str, default: str) -> str:
        prefs = await self.players.prefs(user_id)
        return normalize(prefs.language) if prefs.language else default

    async def mark_dm(self, user_id: str, *, ok: bool) -> bool:
        """Record whether DMs to the user work; True when that changed (closed DMs are announced
        once, not on every move)."""
        return await self.players.mark_dm(user_id, ok=ok)
