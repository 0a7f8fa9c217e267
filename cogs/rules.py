"""/rules game topic: answer rule questions from our rules texts, in the reader's language.

A free-text question gets the best section's most relevant paragraph, and buttons for the whole
section and the next two candidates. The buttons are DynamicItems whose custom_id carries the game
and the topic, so they keep working after a restart."""
from __future__ import annotations

import asyncio
import re
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.engine import registry
from bot.i18n import t
from bot.services import rules
from cogs.replies import locale_of, prime_locale, reply, reply_error

# A paragraph is sent on its own as an answer: short enough to read on a phone.
MAX_PARAGRAPH = 800
_BUTTON_LABEL = 80


def _header(section: rules.Section, locale: str) -> str:
    return t("rules.header", locale, game=t(f"game.name.{section.game}", locale), title=section.title,
             topic=section.topic)


def section_text(section: rules.Section, locale: str) -> str:
    """A whole section as /rules sends it (a topic chosen, or the "whole section" button)."""
    return f"{_header(section, locale)}\n{section.body}"


async def answer(game: str, query: str, locale: str) -> tuple[str, list[discord.ui.Item[Any]]]:
    """The reply to /rules: its text and its buttons. The search runs in a thread: no question,
    however long, holds the event loop."""
    if not query:
        listing = ", ".join(f"`{s.topic}` ({s.title})" for s in rules.topics(game, locale))
        return t("rules.topics", locale, topics=listing), []
    hits = await asyncio.to_thread(rules.search, game, query, locale)
    if not hits:
        return t("rules.not_found", locale, query=query[:100], game=t(f"game.name.{game}", locale)), []
    best = hits[0]
    if len(hits) == 1 and best.score == float("inf"):  # a topic asked for by its id or title
        return section_text(best.section, locale), []
    text = f"{_header(best.section, locale)}\n{best.paragraph}"
    buttons: list[discord.ui.Item[Any]] = []
    if best.paragraph != best.section.body:
        buttons.append(RulesButton(game, best.section.topic, t("rules.whole", locale), primary=True))
    if len(hits) > 1:
        text += "\n-# " + t("rules.alternatives", locale)
        buttons += [RulesButton(game, hit.section.topic, hit.section.title) for hit in hits[1:]]
    return text, buttons


class RulesButton(discord.ui.DynamicItem[discord.ui.Button[Any]],
                  template=r"rules:(?P<game>[a-z0-9_]+):(?P<topic>[a-z0-9_-]+)"):
    """Shows one rules section to whoever presses it, in their language."""

    def __init__(self, game: str, topic: str, label: str = "", *, primary: bool = False) -> None:
        style = discord.ButtonStyle.primary if primary else discord.ButtonStyle.secondary
        super().__init__(discord.ui.Button(label=(label or topic)[:_BUTTON_LABEL], style=style,
                                           custom_id=f"rules:{game}:{topic}"[:100]))
        self.game, self.topic = game, topic

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str]) -> RulesButton:
        return cls(match["game"], match["topic"])

    async def callback(self, interaction: discord.Interaction) -> Any:
        await prime_locale(interaction)
        locale = locale_of(interaction)
        found = rules.section(self.game, self.topic, locale) if self.game in registry.names() else None
        if found is None:
            from bot.errors import InvalidAction

            await reply_error(interaction, InvalidAction("error.bad_custom_id"))
            return
        await reply(interaction, section_text(found, locale))


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
        text, buttons = await answer(game, topic, locale)
        if buttons:
            view = discord.ui.View(timeout=None)
            for button in buttons:
                view.add_item(button)
            await reply(interaction, text, view=view)
        else:
            await reply(interaction, text)

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
        picked = [s for s in sections if needle in s.topic or needle in s.title.lower()]
        if sections and current.strip():  # a question being typed: the sections that answer it (in a thread)
            found = await asyncio.to_thread(rules.search, game, current, locale_of(interaction), limit=5)
            picked += [hit.section for hit in found if hit.section not in picked]
        return [app_commands.Choice(name=s.title[:100], value=s.topic) for s in picked][:25]


async def setup(bot: Any) -> None:
    await asyncio.to_thread(rules.warm)  # build the index now, off the event loop
    bot.add_dynamic_items(RulesButton)
    await bot.add_cog(Rules(bot))
