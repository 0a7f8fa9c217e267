"""/game: new, join, leave, start, status, hand, resign, end, log — the table around every game."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.engine import registry
from bot.errors import IllegalAction
from bot.services.options import parse_options
from bot.i18n import t
from bot.storage.games import GameRow
from cogs.common import LobbyButton, announce, guarded, locale_of, png, render_public, reply, show_hand

if TYPE_CHECKING:
    from bot.app import GameMasterBot


def lobby_text(record: GameRow, locale: str) -> str:
    game = registry.get(record.game)
    lines = [t("lobby.created", locale, creator=record.names[0] if record.seats else "?",
               game=t(f"game.name.{record.game}", locale), minimum=game.min_players, maximum=game.max_players),
             t("lobby.players", locale, players=", ".join(record.names))]
    if record.options:
        lines.append(t("lobby.options", locale, options=", ".join(f"{k}={v}" for k, v in record.options.items())))
    return "\n".join(lines)


def lobby_view(record: GameRow, locale: str) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(LobbyButton("j", record.id, label=t("button.join", locale)))
    view.add_item(LobbyButton("s", record.id, label=t("button.start", locale), style=discord.ButtonStyle.primary))
    return view


async def lobby_button(interaction: discord.Interaction, kind: str, game_id: int) -> None:
    bot: GameMasterBot = interaction.client  # type: ignore[assignment]

    async def work() -> None:
        record = await bot.service.get(game_id)
        if record.status != "lobby" or str(record.channel_id) != str(interaction.channel_id):
            raise IllegalAction("error.already_started" if record.status == "active" else "error.game_over")
        if kind == "j":
            await do_join(interaction)
        else:
            await do_start(interaction)

    await guarded(interaction, work)


def display_name(user: discord.abc.User) -> str:
    return (getattr(user, "display_name", None) or user.name)[:32]


async def do_join(interaction: discord.Interaction) -> None:
    bot: GameMasterBot = interaction.client  # type: ignore[assignment]
    record = await bot.service.join(str(interaction.channel_id), str(interaction.user.id),
                                    display_name(interaction.user))
    locale = record.locale
    await reply(interaction, t("lobby.joined", locale, player=display_name(interaction.user)) + "\n"
                + t("lobby.players", locale, players=", ".join(record.names)), ephemeral=False)


async def do_start(interaction: discord.Interaction) -> None:
    bot: GameMasterBot = interaction.client  # type: ignore[assignment]
    await interaction.response.defer(ephemeral=True, thinking=True)
    update = await bot.service.start(str(interaction.channel_id), str(interaction.user.id))
    await announce(bot, update)
    await interaction.followup.send(t("game.done", locale_of(interaction)), ephemeral=True)


class Lobby(commands.Cog):
    game = app_commands.Group(name="game", description="Tables: create, join, start, status, end")

    def __init__(self, bot: GameMasterBot) -> None:
        self.bot = bot

    @game.command(name="new", description="Open a table for a game in this channel")
    @app_commands.describe(game="Which game", options="Game options as name=value pairs",
                           computers="How many computer players to seat")
    async def new(self, interaction: discord.Interaction, game: str, options: str = "",
                  computers: app_commands.Range[int, 0, 9] = 0) -> None:
        async def work() -> None:
            locale = locale_of(interaction)
            record = await self.bot.service.create(
                guild_id=str(interaction.guild_id) if interaction.guild_id else None,
                channel_id=str(interaction.channel_id), game=game, user_id=str(interaction.user.id),
                name=display_name(interaction.user), options=parse_options(options), locale=locale,
                computers=computers)
            await reply(interaction, lobby_text(record, locale), ephemeral=False, view=lobby_view(record, locale))
        await guarded(interaction, work)

    @new.autocomplete("game")
    async def new_game_ac(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        locale = locale_of(interaction)
        return [app_commands.Choice(name=t(f"game.name.{name}", locale), value=name)
                for name in registry.names() if current.lower() in name or
                current.lower() in t(f"game.name.{name}", locale).lower()][:25]

    @game.command(name="join", description="Sit down at the table in this channel")
    async def join(self, interaction: discord.Interaction) -> None:
        await guarded(interaction, lambda: do_join(interaction))

    @game.command(name="leave", description="Leave the table before the game starts")
    async def leave(self, interaction: discord.Interaction) -> None:
        async def work() -> None:
            record = await self.bot.service.leave(str(interaction.channel_id), str(interaction.user.id))
            key = "lobby.aborted" if record.status == "aborted" else "lobby.left"
            await reply(interaction, t(key, record.locale, player=display_name(interaction.user)), ephemeral=False)
        await guarded(interaction, work)

    @game.command(name="start", description="Start the game at this table")
    async def start(self, interaction: discord.Interaction) -> None:
        await guarded(interaction, lambda: do_start(interaction))

    @game.command(name="status", description="Show the table and whose turn it is")
    async def status(self, interaction: discord.Interaction) -> None:
        async def work() -> None:
            locale = locale_of(interaction)
            record = await self.bot.service.require_current(str(interaction.channel_id))
            name = t(f"game.name.{record.game}", locale)
            if record.status == "lobby":
                await reply(interaction, t("game.status_lobby", locale, game=name, players=", ".join(record.names)))
                return
            waiting = ", ".join(record.names[s] for s in sorted(self.bot.service.to_act(record)))
            obs = self.bot.service.observe(record, None)
            image = await render_public(record, obs, locale)
            await reply(interaction, t("game.status_active", locale, game=name, ply=record.ply, waiting=waiting),
                        file=png(image, f"{record.game}-{record.ply}.png"))
        await guarded(interaction, work)

    @game.command(name="hand", description="Show your private view (hand, own pieces) only to you")
    async def hand(self, interaction: discord.Interaction) -> None:
        await show_hand(interaction)

    @game.command(name="resign", description="Give up the game")
    async def resign(self, interaction: discord.Interaction) -> None:
        async def work() -> None:
            await interaction.response.defer(ephemeral=True, thinking=True)
            update = await self.bot.service.resign(str(interaction.channel_id), str(interaction.user.id))
            await announce(self.bot, update)
            await interaction.followup.send(t("game.done", locale_of(interaction)), ephemeral=True)
        await guarded(interaction, work)

    @game.command(name="end", description="End the game in this channel (creator or Manage Server)")
    async def end(self, interaction: discord.Interaction) -> None:
        async def work() -> None:
            perms = getattr(interaction.user, "guild_permissions", None)
            is_manager = bool(perms and perms.manage_guild)
            record = await self.bot.service.end(str(interaction.channel_id), str(interaction.user.id),
                                                is_manager=is_manager)
            await reply(interaction, t("game.aborted", record.locale, player=display_name(interaction.user),
                                       seed=record.seed), ephemeral=False)
        await guarded(interaction, work)

    @game.command(name="log", description="Show the moves of the game in this channel")
    async def log(self, interaction: discord.Interaction) -> None:
        async def work() -> None:
            locale = locale_of(interaction)
            record = await self.bot.service.require_current(str(interaction.channel_id))
            moves = await self.bot.service.moves(record.id)
            if not moves:
                await reply(interaction, t("game.no_moves", locale))
                return
            lines = [t("game.log_title", locale, id=record.id, game=t(f"game.name.{record.game}", locale))]
            lines += [t("game.log_line", locale, ply=ply, player=record.names[seat], action=action)
                      for ply, seat, action, _ in moves[-40:]]
            await reply(interaction, "\n".join(lines))
        await guarded(interaction, work)


async def setup(bot: Any) -> None:
    await bot.add_cog(Lobby(bot))
