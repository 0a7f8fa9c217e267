"""/game challenge in Discord: the challenge message in the channel (pinging exactly the
challenged, with Accept and Decline), the same buttons in each challenged player's DMs, the
answers shown by editing the message the button was on, the table opened in the channel once all
accepted (at the start time: ``tick``, which the scheduler loop of cogs/clock.py calls), and the
expiry after a day said in the channel. Attached to the /game group of cogs/lobby.py (loaded after it)."""
from __future__ import annotations

import logging
import re
from datetime import datetime
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.errors import IllegalAction
from bot.i18n import t
from bot.services.challenges import Challenges
from bot.services.options import parse_options
from bot.services.text import shown
from bot.storage.challenges import ChallengeRow
from cogs.components import GameButton
from cogs.hooks import defer
from cogs.lobby import display_name, game_choices
from cogs.moves import announce
from cogs.replies import NO_PINGS, defer_public, guarded, locale_of, paced, pinging, reply

if TYPE_CHECKING:
    from cogs.client import GameMasterBot

log = logging.getLogger(__name__)

# gm:ch:<challenge id>:a|d  (accept or decline a challenge)
CHALLENGE_ID = re.compile(r"ch:(?P<id>[0-9]{1,18}):(?P<answer>[ad])")


def challenge_view(row: ChallengeRow, locale: str) -> discord.ui.View:
    """Accept and Decline, apart; none once the challenge is no longer open."""
    view = discord.ui.View(timeout=None)
    if row.status == "open":
        view.add_item(GameButton(0, 0, "", label=t("challenge.button.accept", locale),
                                 style=discord.ButtonStyle.success, raw=f"gm:ch:{row.id}:a"))
        view.add_item(GameButton(0, 0, "", label=t("challenge.button.decline", locale),
                                 style=discord.ButtonStyle.danger, raw=f"gm:ch:{row.id}:d"))
    return view


def challenge_text(row: ChallengeRow, locale: str) -> str:
    """The first line is the news for the challenged (their mentions, who challenges them to
    what); then each answer so far, when the table opens and until when the challenge stands."""
    game = t(f"game.name.{row.game}", locale)
    mentions = " ".join(f"<@{p['id']}>" for p in row.players)
    lines = [t("challenge.first_line", locale, mentions=mentions, name=shown(row.creator_name), game=game)]
    for player in row.players:
        answer = player["answer"] or "waiting"
        lines.append(t(f"challenge.answer.{answer}", locale, name=shown(player["name"])))
    if row.options:
        changed = [f"{k}={v}" for k, v in row.options.items()]
        lines.append(t("challenge.options", locale, options=shown(", ".join(changed))[:300]))
    status = "accepted_now" if row.status == "accepted" and not row.start_at else row.status
    start = t("challenge.at", locale, when=stamp(row.start_at)) if row.start_at and status == "open" else stamp(
        row.start_at)
    lines.append(t(f"challenge.status.{status}", locale, start=start, expires=stamp(row.expires_at),
                   game_id=row.game_id or ""))
    return "\n".join(lines)


def stamp(text: str | None) -> str:
    return f"<t:{int(datetime.fromisoformat(text).timestamp())}:f>" if text else "—"


@app_commands.command(name="challenge", description="Challenge players to a game: they accept or decline by button")
@app_commands.describe(player="Whom you challenge", game="Which game", options="Game options as name=value pairs",
                       start_at="When the table opens, in UTC (e.g. 2026-12-24 18:00); empty: once all accept",
                       player2="A second player you challenge", player3="A third player you challenge")
async def challenge_command(interaction: discord.Interaction, player: discord.User, game: str,
                            options: app_commands.Range[str, 0, 500] = "",
                            start_at: app_commands.Range[str, 0, 40] = "",
                            player2: discord.User | None = None, player3: discord.User | None = None) -> None:
    bot: GameMasterBot = interaction.client  # type: ignore[assignment]

    async def work() -> None:
        await defer_public(interaction)
        locale = locale_of(interaction)
        if interaction.guild_id is None:
            raise IllegalAction("error.guild_only")
        cog: ChallengeCog = bot.get_cog("ChallengeCog")  # type: ignore[assignment]
        players = [(str(u.id), display_name(u)) for u in (player, player2, player3) if u is not None]
        if any(u.bot for u in (player, player2, player3) if u is not None):
            raise IllegalAction("challenge.error.bot")
        row = await cog.challenges.create(guild_id=str(interaction.guild_id), channel_id=str(interaction.channel_id),
                                          game=game, creator_id=str(interaction.user.id),
                                          creator_name=display_name(interaction.user), players=players,
                                          options=parse_options(options), start_at=start_at, locale=locale)
        message = await interaction.followup.send(challenge_text(row, locale), view=challenge_view(row, locale),
                                                  allowed_mentions=pinging(*(p["id"] for p in row.players)),
                                                  wait=True)
        await cog.challenges.set_message(row.id, str(message.id))
        await cog.send_invitations(row, interaction.channel_id)

    await guarded(interaction, work)


@challenge_command.autocomplete("game")
async def challenge_game_ac(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    return game_choices(interaction, current)


async def answer_button(interaction: discord.Interaction, match: re.Match[str]) -> None:
    bot: GameMasterBot = interaction.client  # type: ignore[assignment]

    async def work() -> None:
        await defer(interaction, ephemeral=True, thinking=True)
        cog: ChallengeCog = bot.get_cog("ChallengeCog")  # type: ignore[assignment]
        accept = match["answer"] == "a"
        row, opened = await cog.challenges.answer(int(match["id"]), str(interaction.user.id), accept=accept)
        await reply(interaction, t("challenge.you.accept" if accept else "challenge.you.decline",
                                   locale_of(interaction)))
        await cog.edit_channel_message(row)
        message = interaction.message
        if message is not None and str(message.id) != row.message_id:  # the DM's copy of the buttons
            await message.edit(content=challenge_text(row, row.locale), view=challenge_view(row, row.locale),
                               allowed_mentions=NO_PINGS)
        if opened is not None:
            announce(bot, opened)

    await guarded(interaction, work)


class ChallengeCog(commands.Cog):
    def __init__(self, bot: GameMasterBot) -> None:
        self.bot = bot
        self.challenges = Challenges(bot.db, bot.service)

    async def tick(self, now: datetime) -> int:
        """Expire the challenges left unanswered for a day and open the tables whose time came;
        how many changed."""
        expired, opened = await self.challenges.due(now)
        for row in expired:
            await self.edit_channel_message(row)
            channel = self.bot.get_partial_messageable(int(row.channel_id))
            async with paced(self.bot, row.channel_id):
                await channel.send(t("challenge.expired_note", row.locale, mention=f"<@{row.creator_id}>",
                                     game=t(f"game.name.{row.game}", row.locale),
                                     names=", ".join(shown(p["name"]) for p in row.players if not p["answer"])),
                                   allowed_mentions=pinging(row.creator_id))
        for row, update in opened:
            await self.edit_channel_message(row)
            announce(self.bot, update)
        return len(expired) + len(opened)

    async def edit_channel_message(self, row: ChallengeRow) -> None:
        """Show the answers on the challenge's message in the channel (gone: nothing to do)."""
        if not row.message_id:
            return
        message = self.bot.get_partial_messageable(int(row.channel_id)).get_partial_message(int(row.message_id))
        try:
            async with paced(self.bot, row.channel_id):
                await message.edit(content=challenge_text(row, row.locale), view=challenge_view(row, row.locale),
                                   allowed_mentions=NO_PINGS)
        except discord.NotFound:
            log.info("challenge %s: its message in channel %s was deleted", row.id, row.channel_id)

    async def send_invitations(self, row: ChallengeRow, channel_id: int | None) -> None:
        """Each challenged player's DM with the buttons, in their language; closed DMs are fine:
        the message in the channel has the same buttons."""
        for player in row.players:
            locale = await self.bot.user_locale(player["id"], row.locale)
            try:
                dm = await self.bot.fetch_dm_target(int(player["id"]))
                await dm.send(t("challenge.dm", locale, name=shown(row.creator_name),
                                game=t(f"game.name.{row.game}", locale), channel=f"<#{channel_id}>"),
                              view=challenge_view(row, locale), allowed_mentions=NO_PINGS)
            except discord.Forbidden:
                await self.bot.mark_dm(player["id"], ok=False)


async def setup(bot: Any) -> None:
    group = bot.tree.get_command("game")
    if not isinstance(group, app_commands.Group):
        raise RuntimeError("cogs.challenge needs the /game group of cogs.lobby (load it first)")
    group.add_command(challenge_command)
    await bot.add_cog(ChallengeCog(bot))
