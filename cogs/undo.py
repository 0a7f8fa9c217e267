"""/game undo and its buttons: ask the table to take back your last move; the others answer."""
from __future__ import annotations

import re
from typing import TYPE_CHECKING

import discord

from bot.i18n import t
from bot.services.text import shown
from bot.services.undo import Undo, UndoRequest
from cogs.components import GameButton
from cogs.hooks import defer
from cogs.moves import announced
from cogs.replies import guarded, locale_of, mention_of, paced, pinging, reply

if TYPE_CHECKING:
    from cogs.client import GameMasterBot

# gm:u:<game>:<ply>:ask|yes|no (the board's Undo button and the answers to a request)
UNDO_ID = re.compile(r"u:(?P<game>[0-9]{1,18}):(?P<ply>[0-9]{1,9}):(?P<choice>ask|yes|no)")


def undo_button(game_id: int, ply: int, locale: str) -> GameButton:
    """The board's button for the player who just moved."""
    return GameButton(game_id, ply, "", label=t("undo.button.ask", locale), style=discord.ButtonStyle.secondary,
                      raw=f"gm:u:{game_id}:{ply}:ask")


def answer_view(game_id: int, ply: int, locale: str) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(GameButton(game_id, ply, "", label=t("undo.button.yes", locale), style=discord.ButtonStyle.success,
                             raw=f"gm:u:{game_id}:{ply}:yes"))
    view.add_item(GameButton(game_id, ply, "", label=t("undo.button.no", locale), style=discord.ButtonStyle.danger,
                             raw=f"gm:u:{game_id}:{ply}:no"))
    return view


async def ask(interaction: discord.Interaction, game_id: int | None = None, ply: int | None = None) -> None:
    """/game undo or the board's Undo button."""
    bot: GameMasterBot = interaction.client  # type: ignore[assignment]

    async def work() -> None:
        await defer(interaction, ephemeral=True, thinking=True)
        table = game_id or (await bot.service.require_current(str(interaction.channel_id))).id
        request = await Undo(bot.service).ask(user_id=str(interaction.user.id), game_id=table, ply=ply)
        if request.update is not None:
            await announced(interaction, request.update)
            return
        await post_request(bot, request)
        await reply(interaction, t("undo.asked_private", locale_of(interaction)))

    await guarded(interaction, work)


async def post_request(bot: GameMasterBot, request: UndoRequest) -> None:
    record = request.record
    locale = record.locale
    asked = " ".join(mention_of(record, s) for s in request.asked)
    text = t("msg.undo.asked", locale, player=shown(record.names[request.seat]), moves=request.moves,
             players=asked, needed=request.needed)  # whom it asks first: their notification says why
    channel = bot.get_partial_messageable(int(record.channel_id))
    users = [u for s in request.asked if (u := record.user_of(s))]
    async with paced(bot, record.channel_id):
        await channel.send(text, view=answer_view(record.id, request.ply, locale), allowed_mentions=pinging(*users))


async def button(interaction: discord.Interaction, match: re.Match[str]) -> None:
    game_id, ply, choice = int(match["game"]), int(match["ply"]), match["choice"]
    if choice == "ask":
        await ask(interaction, game_id, ply)
        return
    bot: GameMasterBot = interaction.client  # type: ignore[assignment]

    async def work() -> None:
        await defer(interaction, ephemeral=True, thinking=True)
        locale = locale_of(interaction)
        request = await Undo(bot.service).answer(game_id=game_id, ply=ply, user_id=str(interaction.user.id),
                                                 agree=choice == "yes")
        record = request.record
        if request.update is not None:
            await announced(interaction, request.update)
            return
        if request.refused_by is not None:
            channel = bot.get_partial_messageable(int(record.channel_id))
            async with paced(bot, record.channel_id):
                text = t("undo.refused", record.locale, player=shown(record.names[request.refused_by]),
                         mover=shown(record.names[request.seat]))
                await channel.send(text, allowed_mentions=discord.AllowedMentions.none())
            await reply(interaction, t("undo.refused_private", locale))
            return
        await reply(interaction, t("undo.counted", locale, agreed=request.agreed, needed=request.needed))

    await guarded(interaction, work)
