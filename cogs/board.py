"""The public board's message parts that the announcer posts: the buttons under the board (the
game's own, "Show my hand" and Undo while it is played; Rematch and Replay on the result)."""
from __future__ import annotations

from typing import Any

import discord

from bot.i18n import t
from bot.storage.games import GameRow
from cogs.components import GameButton, HandButton, LobbyButton
from cogs.gameui import ui_for
from cogs.replay import replay_button
from cogs.undo import undo_button
from cogs.weblink import web_button


def board_view(record: GameRow, obs: dict[str, Any], locale: str) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    if record.status == "active":
        ui = ui_for(record.game)
        for spec in ui.board_buttons(obs)[:4 if ui.has_private_view else 5]:
            view.add_item(GameButton(record.id, record.ply, spec.action, label=spec.label(locale), style=spec.style,
                                     row=spec.row))
        if ui.has_private_view:
            view.add_item(HandButton(record.id, label=t("button.hand", locale)))
        if record.ply > 0:  # for the player who just moved (the others are asked to agree)
            view.add_item(undo_button(record.id, record.ply, locale))
    elif record.status == "finished":  # the result: the same players again, seats rotated; the replay
        view.add_item(LobbyButton("r", record.id, label=t("rematch.button", locale)))
        view.add_item(replay_button(record.id, locale))
    web = web_button(record, locale)  # the table in a browser, where its page is public
    if web is not None:
        view.add_item(web)
    return view
