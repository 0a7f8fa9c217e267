"""/game replace and /game sitter in Discord: a friend takes over a seat (the other players vote on
one panel message, edited as the votes come in, then the newcomer accepts by button), a computer
seat handed back to a human the same way, and a sitter playing a seat while its owner is away.
The decisions are ``bot.services.seats``; attached to the /game group of cogs/lobby.py (loaded
after it). Requests left unanswered for a day lapse on the scheduler's tick (cogs/clock.py)."""
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
from bot.services.seats import AGREED, DECLINED, DONE, EXPIRED, REFUSED, VOTING, SeatRequest, Seats
from bot.services.text import shown
from cogs.components import GameButton
from cogs.hooks import defer
from cogs.lobby import display_name
from cogs.moves import announce
from cogs.replies import NO_PINGS, acknowledged, defer_public, guarded, paced, pinging, reply

if TYPE_CHECKING:
    from cogs.client import GameMasterBot

log = logging.getLogger(__name__)

# gm:sr:<request id>:y|n (a vote) or a|d (the newcomer accepts or declines)
SEAT_ID = re.compile(r"sr:(?P<id>[0-9]{1,18}):(?P<choice>[ynad])")


def stamp(text: str) -> str:
    return f"<t:{int(datetime.fromisoformat(text).timestamp())}:f>"


def panel_view(request: SeatRequest, locale: str) -> discord.ui.View:
    """Agree / Refuse while the players vote, Accept / Decline once they agreed, nothing after."""
    view = discord.ui.View(timeout=None)
    row = request.row
    buttons: tuple[tuple[str, str, discord.ButtonStyle], ...]
    if row.status == VOTING:
        buttons = (("y", "seats.button.agree", discord.ButtonStyle.success),
                   ("n", "seats.button.refuse", discord.ButtonStyle.danger))
    elif row.status == AGREED:
        buttons = (("a", "seats.button.accept", discord.ButtonStyle.success),
                   ("d", "seats.button.decline", discord.ButtonStyle.secondary))
    else:
        buttons = ()
    for choice, key, style in buttons:
        view.add_item(GameButton(0, 0, "", label=t(key, locale), style=style, raw=f"gm:sr:{row.id}:{choice}"))
    return view


def panel_text(request: SeatRequest, locale: str) -> str:
    """The request as it stands: the first line says who is asked what (the voters and the
    newcomer are mentioned), then each vote, then what happens next or how it ended."""
    row, record = request.row, request.record
    number, newcomer, old = row.seat + 1, f"<@{row.newcomer_id}>", shown(request.old_name)
    mentions = " ".join(f"<@{u}>" for u in _pinged(request))
    computer = row.holder.startswith("computer:")
    lines = [t("seats.panel.computer_first_line" if computer else "seats.panel.first_line", locale,
               mentions=mentions, asker=f"<@{row.asked_by}>", newcomer=newcomer, number=number, old=old)]
    for seat in request.voters:
        answer = row.answers.get(seat)
        key = "seats.panel.vote.waiting" if answer is None else ("seats.panel.vote.yes" if answer
                                                                 else "seats.panel.vote.no")
        lines.append(t(key, locale, name=shown(record.names[seat])))
    status = row.status
    if status == VOTING:
        lines.append(t("seats.panel.voting", locale, needed=request.needed, total=len(request.voters),
                       expires=stamp(row.expires_at)))
    elif status == AGREED:
        if request.agreed < request.needed:
            lines.append(t("seats.panel.alone", locale))
        lines.append(t("seats.panel.agreed", locale, newcomer=newcomer, expires=stamp(row.expires_at)))
    elif status == DONE:
        lines.append(t("seats.panel.done", locale, newcomer=newcomer, number=number, old=old))
    elif status == REFUSED:
        by = shown(record.names[request.refused_by]) if request.refused_by is not None else "—"
        lines.append(t("seats.panel.refused", locale, name=by, number=number, old=old))
    elif status == DECLINED:
        lines.append(t("seats.panel.declined", locale, newcomer=newcomer, number=number, old=old))
    elif status == EXPIRED:
        lines.append(t("seats.panel.expired", locale, newcomer=newcomer, number=number))
    else:
        lines.append(t("seats.panel.void", locale, newcomer=newcomer, number=number))
    return "\n".join(lines)


def _pinged(request: SeatRequest) -> list[str]:
    """Whom the panel's first post pings: the players whose vote is still awaited and the newcomer."""
    record, row = request.record, request.row
    if row.status != VOTING:  # agreed already (decided alone): only the newcomer has to answer
        return [row.newcomer_id]
    users = [u for s in request.voters if row.answers.get(s) is None and (u := record.user_of(s))]
    return [*users, row.newcomer_id]


async def _holder_left(interaction: discord.Interaction, user_id: str | None) -> bool:
    """Whether the seat's player is no longer a member of this server (one REST call)."""
    if not user_id or interaction.guild_id is None or user_id.startswith("-"):
        return False
    bot: GameMasterBot = interaction.client  # type: ignore[assignment]
    try:
        await bot.http.get_member(interaction.guild_id, int(user_id))
    except discord.NotFound:
        return True
    return False


@app_commands.command(name="replace", description="Hand a seat to another player (the others agree, they accept)")
@app_commands.describe(seat="The seat's number (1 is the first player)", user="Who takes the seat over")
async def replace_command(interaction: discord.Interaction, seat: app_commands.Range[int, 1, 10],
                          user: discord.User) -> None:
    bot: GameMasterBot = interaction.client  # type: ignore[assignment]

    async def work() -> None:
        await defer_public(interaction)  # before any database work
        if interaction.guild_id is None:
            raise IllegalAction("error.guild_only")
        record = await bot.service.require_current(str(interaction.channel_id))
        is_manager = bool(interaction.permissions.manage_guild)
        decides = is_manager or record.creator_id == str(interaction.user.id)
        holder = record.user_of(seat - 1) if 0 <= seat - 1 < len(record.seats) else None
        left = decides and record.status == "active" and await _holder_left(interaction, holder)
        request = await Seats(bot.service).ask(
            channel_id=str(interaction.channel_id), seat=seat - 1, newcomer_id=str(user.id),
            newcomer_name=display_name(user), newcomer_bot=user.bot, asked_by=str(interaction.user.id),
            is_manager=is_manager, holder_left=left)
        locale = request.record.locale
        message = await interaction.followup.send(
            panel_text(request, locale), view=panel_view(request, locale),
            allowed_mentions=pinging(*_pinged(request)), wait=True)
        await Seats(bot.service).set_message(request.row.id, str(message.id))

    await guarded(interaction, work)


@app_commands.command(name="sitter", description="Name a friend who plays your seat while you are away (empty: back)")
@app_commands.describe(user="Who plays your seat meanwhile; leave empty to take your seat back")
async def sitter_command(interaction: discord.Interaction, user: discord.User | None = None) -> None:
    bot: GameMasterBot = interaction.client  # type: ignore[assignment]

    async def work() -> None:
        await defer_public(interaction)  # before any database work
        seats = Seats(bot.service)
        if user is None:
            update = await seats.stand_up(channel_id=str(interaction.channel_id), user_id=str(interaction.user.id))
            record = update.record
            seat = int(update.events[0].params["seat"])  # the seat handed back (seats.event.returned)
            text = t("seats.sitter.back", record.locale, owner=f"<@{record.user_of(seat)}>")
        else:
            update = await seats.sit(channel_id=str(interaction.channel_id), owner_id=str(interaction.user.id),
                                     sitter_id=str(user.id), sitter_name=display_name(user), sitter_bot=user.bot)
            text = t("seats.sitter.set", update.record.locale, sitter=f"<@{user.id}>",
                     owner=shown(display_name(interaction.user)))
        announce(bot, update)
        await reply(interaction, text, ephemeral=False, allowed_mentions=pinging(user.id) if user else NO_PINGS)

    await guarded(interaction, work)


async def panel_button(interaction: discord.Interaction, match: re.Match[str]) -> None:
    """A vote, or the newcomer's answer: the panel is edited to show it."""
    bot: GameMasterBot = interaction.client  # type: ignore[assignment]

    async def work() -> None:
        await defer(interaction)  # a deferred update of the panel, before any database work
        seats = Seats(bot.service)
        choice, request_id, user_id = match["choice"], int(match["id"]), str(interaction.user.id)
        if choice in "yn":
            request = await seats.vote(request_id, user_id, agree=choice == "y")
        else:
            request = await seats.answer(request_id, user_id, accept=choice == "a")
        locale = request.record.locale
        await interaction.edit_original_response(content=panel_text(request, locale), view=panel_view(request, locale),
                                                 allowed_mentions=NO_PINGS)
        if request.update is not None:
            announce(bot, request.update)
        await acknowledged(interaction)

    await guarded(interaction, work)


class SeatsCog(commands.Cog):
    def __init__(self, bot: GameMasterBot) -> None:
        self.bot = bot

    async def tick(self, now: datetime) -> int:
        """Close the requests left unanswered for a day (said in the channel, pinging the asker)
        and those of games that ended; how many."""
        closed = await Seats(self.bot.service).expire(now)
        for request in closed:
            row = request.row
            locale = request.record.locale
            channel = self.bot.get_partial_messageable(int(request.record.channel_id))
            if row.message_id:
                try:
                    async with paced(self.bot, request.record.channel_id):
                        await channel.get_partial_message(int(row.message_id)).edit(
                            content=panel_text(request, locale), view=panel_view(request, locale),
                            allowed_mentions=NO_PINGS)
                except discord.NotFound:
                    log.info("seat request %s: its panel was deleted", row.id)
            if row.status == EXPIRED:
                async with paced(self.bot, request.record.channel_id):
                    await channel.send(t("seats.expired_note", locale, mention=f"<@{row.asked_by}>",
                                         newcomer=f"<@{row.newcomer_id}>", number=row.seat + 1),
                                       allowed_mentions=pinging(row.asked_by))
        return len(closed)


async def setup(bot: Any) -> None:
    group = bot.tree.get_command("game")
    if not isinstance(group, app_commands.Group):
        raise RuntimeError("cogs.seats needs the /game group of cogs.lobby (load it first)")
    group.add_command(replace_command)
    group.add_command(sitter_command)
    await bot.add_cog(SeatsCog(bot))
