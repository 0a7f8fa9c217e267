"""/game forget-me: a player has the bot delete what it keeps about them (bot/services/privacy.py).

The command only asks (ephemeral, with what will happen); the **Forget me** button, which only
the asker may press, does it. The buttons are a DynamicItem whose custom_id carries the user id,
so they work after a restart and nobody else can press them."""
from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands

from bot.errors import Forbidden
from bot.i18n import normalize, t
from bot.services import privacy
from bot.storage.prefs import UserPrefs
from cogs.hooks import defer
from cogs.replies import guarded, locale_of, prime_locale, reply

if TYPE_CHECKING:
    from cogs.client import GameMasterBot


def forget_view(user_id: int, locale: str) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(ForgetButton(user_id, "yes", t("privacy.confirm", locale), discord.ButtonStyle.danger))
    view.add_item(ForgetButton(user_id, "no", t("privacy.cancel", locale), discord.ButtonStyle.secondary))
    return view


class ForgetButton(discord.ui.DynamicItem[discord.ui.Button[Any]],
                   template=r"forget:(?P<user>[0-9]{1,20}):(?P<choice>yes|no)"):
    """Forget me / Cancel under the question; only the user it was asked for may press it."""

    def __init__(self, user_id: int, choice: str, label: str = "",
                 style: discord.ButtonStyle = discord.ButtonStyle.secondary) -> None:
        super().__init__(discord.ui.Button(label=label or choice, style=style,
                                           custom_id=f"forget:{user_id}:{choice}"))
        self.user_id, self.choice = user_id, choice

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str]) -> ForgetButton:
        return cls(int(match["user"]), match["choice"])

    async def callback(self, interaction: discord.Interaction) -> Any:
        await prime_locale(interaction)
        bot: GameMasterBot = interaction.client  # type: ignore[assignment]

        async def work() -> None:
            locale = locale_of(interaction)
            if interaction.user.id != self.user_id:
                raise Forbidden("privacy.error.not_yours")
            if self.choice == "no":
                await interaction.response.edit_message(content=t("privacy.cancelled", locale), view=None)
                return
            await defer(interaction)  # acknowledged before the database work
            await forget_user(bot, str(self.user_id), locale, interaction)

        await guarded(interaction, work)


async def forget_user(bot: GameMasterBot, user_id: str, locale: str, interaction: discord.Interaction) -> None:
    await bot.players.settle()  # a language noticed in the background is written before the delete
    done = await privacy.forget(bot.db, user_id)
    forgotten(bot, user_id, interaction)
    await interaction.edit_original_response(content=t("privacy.done", locale, name=done.name, count=done.games),
                                             view=None)


def forgotten(bot: GameMasterBot, user_id: str, interaction: discord.Interaction) -> None:
    """The caches drop the user: their language choice, their preferences (a blank entry keeps the
    client language this press carried, so it is not written back at once)."""
    bot.players.forget(user_id)
    bot.players.forget_choice(user_id)
    seen = normalize(str(interaction.locale)) if interaction.locale else None
    bot.players.keep_blank(UserPrefs(user_id, seen_locale=seen))


@app_commands.command(name="forget-me", description="Delete what the bot keeps about you (asks first)")
async def forget_me_command(interaction: discord.Interaction) -> None:
    async def work() -> None:
        locale = locale_of(interaction)
        await reply(interaction, t("privacy.ask", locale), view=forget_view(interaction.user.id, locale))

    await guarded(interaction, work)


async def setup(bot: Any) -> None:
    group = bot.tree.get_command("game")
    if not isinstance(group, app_commands.Group):
        raise RuntimeError("cogs.privacy needs the /game group of cogs.lobby (load it first)")
    group.add_command(forget_me_command)
    bot.add_dynamic_items(ForgetButton)
