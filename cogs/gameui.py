"""What a game cog declares about its controls: the buttons under its public board and the buttons,
menus and text of a player's private view (``GameUI``, registered in ``GAME_UI`` by game name), and
the autocomplete of its commands from the caller's legal actions (``legal_choices``).

The hooks get observations and canonical action texts only: the views that show them are built in
cogs/private.py (a player's own view) and cogs/board.py (the public board).
"""
from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import discord

from bot.i18n import t

if TYPE_CHECKING:
    from cogs.client import GameMasterBot


@dataclass(frozen=True)
class ButtonSpec:
    label_key: str
    action: str
    style: discord.ButtonStyle = discord.ButtonStyle.secondary
    label_params: tuple[tuple[str, Any], ...] = ()  # placeholders of the label, e.g. (("amount", 130),)
    row: int | None = None  # a row of its own (Pass apart from the bids), else the next free place

    def label(self, locale: str) -> str:
        return t(self.label_key, locale, **dict(self.label_params))[:80]


@dataclass(frozen=True)
class SelectSpec:
    """A select whose chosen values are appended to ``prefix`` to form the action."""

    placeholder_key: str
    prefix: str
    options: Sequence[tuple[str, str]]  # (label, value)
    min_values: int = 1
    max_values: int = 1
    placeholder_params: tuple[tuple[str, Any], ...] = ()

    def placeholder(self, locale: str) -> str:
        return t(self.placeholder_key, locale, **dict(self.placeholder_params))[:150]


@dataclass
class GameUI:
    """Buttons a game shows under its public board and in a player's private view."""

    board_buttons: Callable[[dict[str, Any]], list[ButtonSpec]] = lambda obs: []
    # private hooks get the viewer's observation (plus "names" and "locale") and the canonical texts
    # of their legal actions
    private_buttons: Callable[[dict[str, Any], list[str]], list[ButtonSpec]] = lambda obs, legal: []
    private_selects: Callable[[dict[str, Any], list[str]], list[SelectSpec]] = lambda obs, legal: []
    private_text: Callable[[dict[str, Any], str], str] = lambda obs, locale: ""
    has_private_view: bool = True  # False: no "Show my hand" button (Monopol's board is all public)
    # a window several seats may act in (an auction, a trade offer, the exchange): every seat it
    # lets act, those who already answered too, from the public observation; empty when none is open.
    # The announcer keeps one panel for it, edited as it changes, instead of a board per answer
    window: Callable[[dict[str, Any]], frozenset[int]] = lambda obs: frozenset()


GAME_UI: dict[str, GameUI] = {}


def ui_for(game: str) -> GameUI:
    return GAME_UI.get(game) or GameUI()


async def legal_choices(interaction: discord.Interaction, prefix: str, current: str,
                        pretty: Callable[[str], str] = lambda s: s) -> list[discord.app_commands.Choice[str]]:
    """Autocomplete from the caller's legal actions that start with ``prefix``; the value is the
    rest of the action text. Strangers and finished games get no choices."""
    bot: GameMasterBot = interaction.client  # type: ignore[assignment]
    record = await bot.service.current(str(interaction.channel_id))
    if record is None or record.status != "active":
        return []
    seat = record.seat_of(str(interaction.user.id))
    if seat is None:
        return []
    needle = current.strip().lower()
    seen: list[str] = []
    for text in bot.service.legal_texts(record, seat, limit=2000):
        if not text.startswith(prefix + " "):
            continue
        rest = text[len(prefix) + 1:]
        if needle and needle not in rest.lower() and needle not in pretty(rest).lower():
            continue
        if rest not in seen:
            seen.append(rest)
        if len(seen) == 25:
            break
    return [discord.app_commands.Choice(name=pretty(rest)[:100], value=rest[:100]) for rest in seen]
