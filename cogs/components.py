"""Our buttons and select menus: the two DynamicItems ``GameButton`` (``gm:…``) and ``GameSelect``
(``gms:…``), the custom_id formats they carry, and the table of routes that answers a press.

A custom_id carries the game id, the ply it was drawn for and the canonical action (or what the
press is about), so a button works after a restart and on any older message; a click on an older
board answers "the game has moved on" with the current position. The custom_id is parsed in the
callback, so a malformed or forged one still gets a clear answer instead of "This interaction failed".

The cogs that own an id (a move, an undo, a replay, a history page, a vote, a lobby) draw buttons
with these classes, so this module cannot import them back: the press goes through ``ROUTES``,
which cogs/routing.py fills when the bot registers the items.
"""
from __future__ import annotations

import logging
import re
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import discord

from bot.errors import InvalidAction
from cogs.replies import prime_locale, reply_error

if TYPE_CHECKING:
    from cogs.client import GameMasterBot

log = logging.getLogger(__name__)

# gm:a:<game>:<ply>:<action> a move under the public board; gm:p:…:<owner>:… one seat's private view
ACT_ID = re.compile(r"a:(?P<game>[0-9]{1,18}):(?P<ply>[0-9]{1,9}):(?P<action>[ -~]{1,80})")
OWN_ID = re.compile(r"p:(?P<game>[0-9]{1,18}):(?P<ply>[0-9]{1,9}):(?P<owner>[0-9]{1,2}):(?P<action>[ -~]{1,80})")
# gm:h:<game> "Show my hand"; gm:j / gm:s / gm:r:<game> the lobby's Join, Start and the result's Rematch
ONE_ID = re.compile(r"(?P<kind>[hjsrc]):(?P<game>[0-9]{1,18})")
# gms:<game>:<ply>:<owner>:<n>:<prefix> the n-th menu of one seat's private view
SELECT_ID = re.compile(r"(?P<game>[0-9]{1,18}):(?P<ply>[0-9]{1,9}):(?P<owner>[0-9]{1,2}):(?P<n>[0-9]):"
                       r"(?P<prefix>[ -~]{0,60})")

ButtonRoute = Callable[[discord.Interaction, re.Match[str]], Awaitable[None]]
# a menu's choice: the action (prefix and chosen values) and its parsed custom_id
SelectRoute = Callable[[discord.Interaction, str, re.Match[str]], Awaitable[None]]


@dataclass
class Routes:
    """Who answers a press: for a button, the first pattern that matches its custom_id (after
    ``gm:``) names the handler; a menu's choice goes to ``select``."""

    buttons: tuple[tuple[re.Pattern[str], ButtonRoute], ...] = ()
    select: SelectRoute | None = None


ROUTES = Routes()


def custom_id_act(game_id: int, ply: int, action: str, *, owner: int | None = None) -> str:
    """``gm:a:`` board buttons (stale once anything moved); ``gm:p:`` buttons of one seat's private
    view (only that seat may press them; stale once that seat moved)."""
    if owner is None:
        return f"gm:a:{game_id}:{ply}:{action}"
    return f"gm:p:{game_id}:{ply}:{owner}:{action}"


async def admit_component(interaction: discord.Interaction) -> bool:
    """``admit`` for buttons and selects: False (and no answer) for a repeated delivery."""
    bot: GameMasterBot = interaction.client  # type: ignore[assignment]
    if not bot.first_delivery(interaction.id):
        log.info("interaction %s delivered again; its first delivery answers it", interaction.id)
        return False
    return await prime_locale(interaction)


class GameButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"gm:(?P<rest>.*)"):
    """Every button of ours."""

    def __init__(self, game_id: int, ply: int, action: str, *, label: str = "",
                 style: discord.ButtonStyle = discord.ButtonStyle.secondary, raw: str | None = None,
                 owner: int | None = None, row: int | None = None) -> None:
        custom_id = raw if raw is not None else custom_id_act(game_id, ply, action, owner=owner)
        super().__init__(discord.ui.Button(label=label or action, style=style, custom_id=custom_id[:100], row=row))
        self.rest = custom_id[3:]

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str]) -> GameButton:
        return cls(0, 0, "", raw=f"gm:{match['rest']}")

    async def callback(self, interaction: discord.Interaction) -> Any:
        if not await admit_component(interaction):
            return
        for pattern, handler in ROUTES.buttons:
            match = pattern.fullmatch(self.rest)
            if match:
                await handler(interaction, match)
                return
        await reply_error(interaction, InvalidAction("error.bad_custom_id"))


def HandButton(game_id: int, *, label: str) -> GameButton:  # noqa: N802 - reads like a class
    return GameButton(game_id, 0, "", label=label, style=discord.ButtonStyle.primary, raw=f"gm:h:{game_id}")


def LobbyButton(kind: str, game_id: int, *, label: str,  # noqa: N802
                style: discord.ButtonStyle = discord.ButtonStyle.success) -> GameButton:
    return GameButton(game_id, 0, "", label=label, style=style, raw=f"gm:{kind}:{game_id}")


class GameSelect(discord.ui.DynamicItem[discord.ui.Select[Any]], template=r"gms:(?P<rest>.*)"):
    """A select menu: the chosen values are appended to the action prefix."""

    def __init__(self, game_id: int, ply: int, owner: int, prefix: str, number: int = 0, *,
                 options: list[discord.SelectOption] | None = None, placeholder: str | None = None,
                 min_values: int = 1, max_values: int = 1, raw: str | None = None) -> None:
        custom_id = raw if raw is not None else f"gms:{game_id}:{ply}:{owner}:{number}:{prefix}"
        super().__init__(discord.ui.Select(custom_id=custom_id[:100], options=options or [],
                                           placeholder=placeholder, min_values=min_values,
                                           max_values=max_values))
        self.rest = custom_id[4:]

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str]) -> GameSelect:
        return cls(0, 0, 0, "", raw=f"gms:{match['rest']}")

    async def callback(self, interaction: discord.Interaction) -> Any:
        if not await admit_component(interaction):
            return
        parsed = SELECT_ID.fullmatch(self.rest)
        data: dict[str, Any] = dict(interaction.data or {})
        values = [str(v) for v in data.get("values", [])]
        if (parsed is None or not values or any(not re.fullmatch(r"[ -~]{1,40}", v) for v in values)
                or ROUTES.select is None):
            await reply_error(interaction, InvalidAction("error.bad_custom_id"))
            return
        action = " ".join([parsed["prefix"], *values]).strip()
        await ROUTES.select(interaction, action, parsed)
