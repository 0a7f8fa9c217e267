"""Playing from Discord: a move made by a command, button or menu (``act``), the mover's own new
private view as its answer, the answer to a stale click (the current position), "Show my hand",
and waking the table's announcer once a change is committed."""
from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

import discord

from bot.errors import Conflict, NotFound, StorageDamaged
from bot.i18n import t
from bot.services.core import Update
from cogs.drawing import alt_text, png, render_public
from cogs.hooks import defer
from cogs.private import private_message
from cogs.replies import acknowledged, guarded, locale_of, reply

if TYPE_CHECKING:
    from cogs.client import GameMasterBot

log = logging.getLogger(__name__)


def announce(bot: GameMasterBot, update: Update, answered: int | None = None,
             ride: discord.Interaction | None = None, *, move: bool = False) -> None:
    """The change and its announcement are committed (the outbox entry of its transaction); wake
    the table's announcer, which posts or edits the board and sends the DMs after the reply.
    ``answered``: the seat whose new private view the interaction's answer already showed;
    ``ride``: the mover's interaction, answered, whose webhook carries the board (not counted
    against Discord's global limit)."""
    announcer = bot.get_cog("Announcer")
    if announcer is not None:
        if answered is not None:
            announcer.answered(update.record.id, update.record.ply, answered)  # type: ignore[attr-defined]
        if ride is not None:
            announcer.ride(update.record.id, ride, move=move)  # type: ignore[attr-defined]
        announcer.wake(update.record.id)  # type: ignore[attr-defined]


async def announced(interaction: discord.Interaction, update: Update, *, own: bool = False) -> None:
    """A change the board shows answers the interaction: no "Done" (``acknowledged``), and the
    board rides the interaction once its answer is complete (not counted against Discord's global
    limit; cogs/rides.py). ``own`` (a start): the interaction also carries its player's own view
    (their first hand, privately, after the board), as a move's does, instead of a DM that
    Discord's limit counts."""
    done = False
    try:
        done = await acknowledged(interaction)
    finally:  # the change is committed: its board goes out whatever became of the answer
        announce(interaction.client, update, ride=interaction if done else None, move=own)  # type: ignore[arg-type]


async def act(interaction: discord.Interaction, action: str, *, game_id: int | None = None,
              expected_ply: int | None = None, owner: int | None = None) -> None:
    """Apply ``action`` for the interaction's user and announce the result."""
    bot: GameMasterBot = interaction.client  # type: ignore[assignment]

    async def work() -> None:
        if not interaction.response.is_done():
            await defer(interaction, ephemeral=True, thinking=True)
        # a slash command names no table: the move's own transaction finds the channel's (one read
        # of the game per move, not a look-up before it and the locked read inside)
        channel = None if game_id else str(interaction.channel_id)
        try:
            update = await bot.service.act(user_id=str(interaction.user.id), action=action, game_id=game_id,
                                           channel_id=channel, expected_ply=expected_ply, owner=owner,
                                           interaction_id=str(interaction.id))
        except Conflict:
            await show_current(interaction, game_id, private=owner is not None)
            return
        except StorageDamaged as exc:
            exc.game_id = exc.game_id or game_id or await bot.service.damaged_game_in(str(interaction.channel_id))
            raise
        answered = None
        answer_done = False
        try:
            answered = await answer_with_own_view(interaction, update)
            # once the answer is complete a follow-up is a message of its own: the board rides it
            answer_done = answered is not None or await acknowledged(interaction)
        finally:  # the move is committed: its board goes out whatever became of the answer
            announce(bot, update, answered, interaction if answer_done else None, move=True)

    await guarded(interaction, work)


def _attached(file: discord.File | None, view: discord.ui.View | None) -> dict[str, Any]:
    """The keyword arguments of ``reply`` that attach a private view's picture and controls."""
    kwargs: dict[str, Any] = {}
    if file is not None:
        kwargs["file"] = file
    if view is not None:
        kwargs["view"] = view
    return kwargs


async def answer_with_own_view(interaction: discord.Interaction, update: Update) -> int | None:
    """The mover's own new private view (their hand after a play) answers their move, privately,
    instead of a DM: an interaction's follow-up does not count against Discord's global limit of
    REST calls, a DM does. Returns the mover's seat when it was shown (the announcer then DMs
    only the players whose view changed through someone else's move)."""
    bot: GameMasterBot = interaction.client  # type: ignore[assignment]
    record = update.record
    seat = record.seat_of(str(interaction.user.id))
    if seat is None or seat not in update.private_changed or bot.get_cog("Announcer") is None:
        return None
    try:
        content, file, view = await private_message(bot, record, seat, locale_of(interaction), update.events)
        if not content and file is None:
            return None
        await reply(interaction, content, **_attached(file, view))
    except Exception:  # a failed drawing or reply: the announcer DMs the view as before
        log.warning("could not answer interaction %s with the mover's own view", interaction.id, exc_info=True)
        return None
    return seat


async def show_current(interaction: discord.Interaction, game_id: int | None, *, private: bool = False) -> None:
    """Answer a stale click: the game moved on; show the current position privately (the clicker's
    own private view, with fresh controls, when the old button was part of it)."""
    bot: GameMasterBot = interaction.client  # type: ignore[assignment]
    locale = locale_of(interaction)
    record = await bot.service.get(game_id) if game_id else await bot.service.require_current(
        str(interaction.channel_id))
    text = t("game.stale_current", locale)
    seat = record.seat_of(str(interaction.user.id))
    if record.state is None or record.status != "active":
        await reply(interaction, text)
        return
    if private and seat is not None:
        content, file, view = await private_message(bot, record, seat, locale)
        await reply(interaction, text + "\n" + content, **_attached(file, view))
        return
    obs = bot.service.observe(record, None)
    image = await render_public(record, obs, locale)
    await reply(interaction, text, file=png(image, f"{record.game}-{record.ply}.png",
                                            alt_text(record, "public", obs, locale)))


async def show_hand(interaction: discord.Interaction, game_id: int | None = None) -> None:
    """Ephemeral private view for the caller, straight from the database."""
    bot: GameMasterBot = interaction.client  # type: ignore[assignment]

    async def work() -> None:
        await defer(interaction, ephemeral=True, thinking=True)
        record = await bot.service.get(game_id) if game_id else await bot.service.require_current(
            str(interaction.channel_id))
        seat = record.seat_of(str(interaction.user.id))
        if seat is None:  # never seated, or someone else plays the seat now (/game replace, /game sitter)
            raise await bot.service.not_seated(record, str(interaction.user.id))
        if record.state is None:
            raise NotFound("error.not_started")
        content, file, view = await private_message(bot, record, seat, locale_of(interaction))
        if not content and file is None:
            raise NotFound("error.no_private_view")
        await reply(interaction, content, **_attached(file, view))

    await guarded(interaction, work)
