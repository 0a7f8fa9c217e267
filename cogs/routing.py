"""Which cog answers which of our buttons and menus: the one module that knows both the DynamicItems
(cogs/components.py) and the cogs that own their custom_ids, so those cogs can draw the buttons
without the buttons importing them back. ``cogs.app`` registers the items this returns."""
from __future__ import annotations

import re
from typing import Any

import discord

from cogs import challenge, clock, history, lobby, orders, replay, seats, undo
from cogs.components import ACT_ID, ONE_ID, OWN_ID, ROUTES, GameButton, GameSelect
from cogs.hooks import defer
from cogs.moves import act, show_hand


async def _move(interaction: discord.Interaction, match: re.Match[str]) -> None:
    await defer(interaction)  # a deferred update: the board itself answers
    owner = match.groupdict().get("owner")
    await act(interaction, match["action"], game_id=int(match["game"]), expected_ply=int(match["ply"]),
              owner=int(owner) if owner is not None else None)


async def _choice(interaction: discord.Interaction, action: str, match: re.Match[str]) -> None:
    await act(interaction, action, game_id=int(match["game"]), expected_ply=int(match["ply"]),
              owner=int(match["owner"]))


async def _vote(interaction: discord.Interaction, match: re.Match[str]) -> None:
    await clock.vote_button(interaction, int(match["game"]), int(match["ply"]), int(match["seat"]),
                            match["choice"])


async def _one(interaction: discord.Interaction, match: re.Match[str]) -> None:
    game_id = int(match["game"])
    if match["kind"] == "h":
        await show_hand(interaction, game_id)
    else:
        await lobby.lobby_button(interaction, match["kind"], game_id)


def dynamic_items() -> tuple[type[discord.ui.DynamicItem[Any]], ...]:
    """Route every press to its cog and give the DynamicItems to register."""
    ROUTES.buttons = ((ACT_ID, _move), (OWN_ID, _move), (undo.UNDO_ID, undo.button),
                      (replay.REPLAY_ID, replay.button), (history.PAGE_ID, history.page_button),
                      (clock.VOTE_ID, _vote), (challenge.CHALLENGE_ID, challenge.answer_button),
                      (seats.SEAT_ID, seats.panel_button), (orders.BUTTON_ID, orders.button_route), (ONE_ID, _one))
    ROUTES.select = _choice
    return GameButton, GameSelect
