"""Which interactions get through: a second delivery of the same interaction is dropped, a
button none of ours is answered "That button is not valid", and the command tree's errors (a value
outside an option's declared choices among them) get their specific, translated answer."""
from __future__ import annotations

import logging
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

import discord

from bot.errors import InvalidAction
from cogs.components import admit_component
from cogs.limits import overlong
from cogs.replies import expired, prime_locale, reply_error

if TYPE_CHECKING:
    from cogs.client import GameMasterBot

log = logging.getLogger(__name__)


class DuplicateDelivery(discord.app_commands.CheckFailure):
    """The gateway delivered an interaction this process already handles."""


async def admit(interaction: discord.Interaction) -> bool:
    """The command tree's check: a second delivery of the same interaction is dropped silently
    (its first delivery answers); otherwise the user's language is primed."""
    bot: GameMasterBot = interaction.client  # type: ignore[assignment]
    if not bot.first_delivery(interaction.id):
        raise DuplicateDelivery()
    admitted = await prime_locale(interaction)
    too_long = overlong(interaction)  # longer than the option's max_length: Discord would refuse it
    if too_long is not None:
        if interaction.type is discord.InteractionType.autocomplete:
            await interaction.response.autocomplete([])
        else:
            await reply_error(interaction, InvalidAction("error.too_long", option=too_long[0], max=too_long[1]))
        return False
    return admitted


async def reply_tree_error(interaction: discord.Interaction, error: discord.app_commands.AppCommandError) -> None:
    """The command tree's error handler: our refusals and a value outside an option's declared
    choices get their specific message; a duplicate delivery gets none."""
    if isinstance(error, DuplicateDelivery):
        log.info("interaction %s delivered again; its first delivery answers it", interaction.id)
        return
    if isinstance(error, discord.app_commands.TransformerError):
        choice = _choice_refusal(interaction, error.value)
        if choice is not None:
            await reply_error(interaction, choice)
            return
    original = getattr(error, "original", error)
    if expired(interaction, original):  # too late for any answer (cogs/replies.py guarded)
        log.warning("interaction %s was not acknowledged within Discord's 3 s; it failed for its user",
                    interaction.id)
        return
    await reply_error(interaction, original)


def _choice_refusal(interaction: discord.Interaction, value: Any) -> InvalidAction | None:
    """The refusal naming the declared-choices option that ``value`` was given to, and its choices."""
    command = interaction.command
    if not isinstance(command, discord.app_commands.Command):
        return None
    for parameter in command.parameters:
        if parameter.choices and all(choice.value != value for choice in parameter.choices):
            return InvalidAction("error.bad_choice", value=str(value)[:100], option=parameter.display_name,
                                 choices=", ".join(str(choice.name) for choice in parameter.choices))
    return None


async def answer_stray(interaction: discord.Interaction) -> None:
    """A button, menu or form whose custom_id none of ours matches (an old bot's, a forged one):
    "That button is not valid" instead of Discord's "This interaction failed"."""
    if interaction.type not in (discord.InteractionType.component, discord.InteractionType.modal_submit):
        return
    bot: GameMasterBot = interaction.client  # type: ignore[assignment]
    data: Mapping[str, object] = interaction.data or {}  # a component's or a form's, with its custom_id
    if bot.handles_custom_id(str(data.get("custom_id", ""))):
        return
    if await admit_component(interaction):
        await reply_error(interaction, InvalidAction("error.bad_custom_id"))
