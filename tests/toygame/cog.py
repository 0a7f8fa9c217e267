"""Toy's cog (a real game's is ``cogs/<name>.py``): the /toy command group and the buttons under
the board. Every move goes through ``cogs.moves.act``, which refuses a wrong turn, a stranger or an
illegal amount with a translated message and changes nothing."""
from __future__ import annotations

from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.i18n import t
from cogs.gameui import GAME_UI, ButtonSpec, GameUI
from cogs.moves import act


def board_buttons(obs: dict[str, Any]) -> list[ButtonSpec]:
    """One button per amount the player to act may add (the public board's, stale after a move)."""
    public = obs["public"]
    if public["winner"] is not None:
        return []
    room = public["target"] - public["total"]
    return [ButtonSpec("toy.ui.add", f"add {n}", discord.ButtonStyle.primary, (("number", n),))
            for n in (1, 2, 3) if n <= max(room, 3)]


def private_text(obs: dict[str, Any], locale: str) -> str:
    return t("toy.render.secret", locale, secret=obs["private"]["secret"])


GAME_UI["toy"] = GameUI(board_buttons=board_buttons, private_text=private_text)


class Toy(commands.Cog):
    toy = app_commands.Group(name="toy", description="Toy: add 1 to 3; who reaches the target wins")

    def __init__(self, bot: Any) -> None:
        self.bot = bot

    @toy.command(name="add", description="Add 1, 2 or 3 to the total")
    @app_commands.describe(amount="How much to add (1 to 3)")
    async def add(self, interaction: discord.Interaction, amount: app_commands.Range[int, 1, 3]) -> None:
        await act(interaction, f"add {amount}")


async def setup(bot: Any) -> None:
    await bot.add_cog(Toy(bot))
