"""Answering in Discord: whom a message may ping, the reader's language, the reply (or translated
error reply) to an interaction, the guard around a command's work, and the pace of a channel's posts.

Everything here talks to Discord only; nothing knows a game (those modules build on this one).
"""
from __future__ import annotations

import logging
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from typing import TYPE_CHECKING, Any

import discord

from bot.errors import GameMasterError, StorageDamaged, StorageFull
from bot.i18n import normalize, t
from bot.services.text import error_text, shown
from bot.storage.games import GameRow
from cogs.hooks import defer, follow_up

if TYPE_CHECKING:
    from cogs.client import GameMasterBot

log = logging.getLogger(__name__)

MAX_CONTENT = 1900

# Mentions: the client default is NO_PINGS too (cogs/client.py), but every message names what it may
# ping, so a name like "@everyone" or "<@&role>" in its text never pings anyone.
NO_PINGS = discord.AllowedMentions.none()


def pinging(*user_ids: int | str) -> discord.AllowedMentions:
    """Ping exactly these users and nobody else (never everyone, here or a role)."""
    return discord.AllowedMentions(everyone=False, roles=False, replied_user=False,
                                   users=[discord.Object(id=int(u)) for u in user_ids])


def clip(text: str) -> str:
    return text if len(text) <= MAX_CONTENT else text[: MAX_CONTENT - 1] + "…"


def mention_of(record: GameRow, seat: int) -> str:
    user = record.user_of(seat)
    return f"<@{user}>" if user else shown(record.names[seat])


@asynccontextmanager
async def paced(bot: GameMasterBot, channel_id: str | int) -> AsyncIterator[None]:
    """Wrap every post or edit in a guild channel: at most Discord's per-channel rate."""
    held = await bot.pacer.hold(str(channel_id))
    try:
        yield
    finally:  # a refused call may still have counted
        bot.pacer.sent(str(channel_id), held)


# ----------------------------------------------------------------------------- the reader's language
def locale_of(interaction: discord.Interaction) -> str:
    """The reader's language: their /game prefs choice (primed by ``prime_locale``), else Discord's."""
    chosen = interaction.extras.get("locale")
    if chosen:
        return str(chosen)
    return normalize(str(interaction.locale) if interaction.locale else None)


async def prime_locale(interaction: discord.Interaction) -> bool:
    """Set the reader's language from memory, never from the database, so nothing stands between
    an interaction and its acknowledgement: the language chosen with /game prefs comes from the
    players' cache; the client's language is remembered in the background."""
    bot: GameMasterBot = interaction.client  # type: ignore[assignment]
    user_id = str(interaction.user.id)
    chosen = bot.players.chosen_locale(user_id)
    if chosen:
        interaction.extras["locale"] = chosen
    if interaction.locale:
        bot.players.notice_locale(user_id, normalize(str(interaction.locale)))
    return True


# ----------------------------------------------------------------------------- replying
def spend(interaction: discord.Interaction, kind: str) -> None:
    """Take expensive work of ``kind`` from the user's and the server's budget (bot/services/user_budget.py);
    over budget, OverBudget says in how many seconds to try again. Nothing else is done before."""
    bot: GameMasterBot = interaction.client  # type: ignore[assignment]
    bot.budgets.spend(kind, str(interaction.user.id), str(interaction.guild_id) if interaction.guild_id else None)


async def reply_error(interaction: discord.Interaction, error: Exception) -> None:
    locale = locale_of(interaction)
    if isinstance(error, StorageDamaged):
        # logged once, here, naming the table; the player hears the move was not made
        log.error("database damaged: game %s (channel %s) could not be read or written: %s",
                  error.game_id, interaction.channel_id, error.detail)
    if isinstance(error, StorageFull):  # one line per refused change; nothing of it was written
        log.warning("storage full: a change in channel %s was refused and rolled back: %s", interaction.channel_id,
                    error.detail)
    if isinstance(error, GameMasterError):
        text = error_text(error, locale, error.names)
    else:
        log.error("unexpected error in interaction", exc_info=error)
        text = t("error.unexpected", locale)
    await reply(interaction, text, ephemeral=True)


async def reply(interaction: discord.Interaction, content: str, *, ephemeral: bool = True,
                **kwargs: Any) -> None:
    """Answer the interaction (first response or followup); it pings no one unless the caller
    passes ``allowed_mentions``."""
    kwargs.setdefault("allowed_mentions", NO_PINGS)
    if interaction.response.is_done():
        if interaction.extras.pop("public_placeholder", False) and ephemeral:
            # the first follow-up would take the public placeholder's place, and be public too
            try:
                await interaction.delete_original_response()
            except discord.HTTPException:
                log.warning("could not remove the placeholder of interaction %s", interaction.id)
        await follow_up(interaction, content=clip(content), ephemeral=ephemeral, **kwargs)
    else:
        await interaction.response.send_message(clip(content), ephemeral=ephemeral, **kwargs)


async def defer_public(interaction: discord.Interaction) -> None:
    """Acknowledge a command whose answer is public (a lobby, a join, an end) before any database
    work: a public "thinking…" placeholder the answer replaces. A refusal stays private:
    ``reply`` removes the placeholder and answers ephemerally."""
    await defer(interaction, thinking=True)
    interaction.extras["public_placeholder"] = True


async def acknowledged(interaction: discord.Interaction) -> bool:
    """A move the board shows needs no "Done": a button click was acknowledged as a deferred update
    of the board; a slash command's "thinking…" placeholder is removed. True when no placeholder
    is left (the interaction's next follow-up is then a message of its own)."""
    if interaction.response.type == discord.InteractionResponseType.deferred_channel_message:
        try:
            await interaction.delete_original_response()
        except discord.HTTPException:
            log.warning("could not remove the placeholder of interaction %s", interaction.id)
            return False
    return True


UNKNOWN_INTERACTION = 10062  # Discord's answer to a first response after its 3 s


def expired(interaction: discord.Interaction, exc: BaseException) -> bool:
    """Discord's 3 s for the interaction's first response ran out before it was sent: nothing can
    be said to it any more (Discord shows the player "This interaction failed")."""
    return isinstance(exc, discord.NotFound) and exc.code == UNKNOWN_INTERACTION and \
        not interaction.response.is_done()


async def guarded(interaction: discord.Interaction, work: Callable[[], Awaitable[None]]) -> None:
    """Run ``work``; any error becomes one ephemeral, translated reply. An interaction whose first
    response came too late gets none (Discord would refuse it too) and is logged in one line: when
    the machine is short and many first responses miss Discord's 3 s, formatting each one's
    traceback twice (the refused reply raising again) took more of the event loop than the moves."""
    try:
        await work()
    except Exception as exc:  # noqa: BLE001 - every error must answer the user
        if expired(interaction, exc):
            log.warning("interaction %s was not acknowledged within Discord's 3 s; it failed for its user",
                        interaction.id)
            return
        await reply_error(interaction, exc)
