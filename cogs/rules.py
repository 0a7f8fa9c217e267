"""/rules game topic: answer rule questions from our rules texts, in the reader's language."""
from __future__ import annotations

from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.engine import registry
from bot.i18n import t
from bot.services import rules
from cogs.common import clip, locale_of, reply


def answer(game: str, query: str, locale: str) -> str:
    if not query:
        listing = ", ".join(f"`{s.topic}` ({s.title})" for s in rules.topics(game, locale))
        return t("rules.topics", locale, topics=listing)
    section = rules.lookup(game, query, locale)
    if section is None:
        return t("rules.not_found", locale, query=query, game=t(f"game.name.{game}", locale))
    return clip(f"**{section.title}**\n{section.body}")


class Rules(commands.Cog):
    def __init__(self, bot: Any) -> None:
        self.bot = bot

    @app_commands.command(name="rules", description="Look up a rule of a game")
    @app_commands.describe(game="Which game", topic="A topic or any words to search for")
    async def rules_cmd(self, interaction: discord.Interaction, game: str, topic: str = "") -> None:
        locale = locale_of(interaction)
        if game not in registry.names():
            await reply(interaction, t("error.unknown_game", locale, game=game))
            return
        await reply(interaction, answer(game, topic, locale))

    @rules_cmd.autocomplete("game")
    async def game_ac(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        locale = locale_of(interaction)
        return [app_commands.Choice(name=t(f"game.name.{g}", locale), value=g)
                for g in registry.names() if current.lower() in g][:25]

    @rules_cmd.autocomplete("topic")
    async def topic_ac(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        game = str(getattr(interaction.namespace, "game", "") or "")
        sections = rules.topics(game, locale_of(interaction)) if game in registry.names() else []
        needle = current.lower()
        return [app_commands.Choice(name=f"{s.title}"[:100], value=s.topic) for s in sections
                if needle in s.topic or needle in s.title.lower()][:25]


async def setup(bot: Any) -> None:
    await bot.add_cog(Rules(bot))
