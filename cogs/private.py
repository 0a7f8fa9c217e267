"""A player's private view: the message that shows one seat its hidden information (what happened to
it, the game's own text, the hand picture) with the controls only that seat may press. It is sent
by DM (the announcer) or as the answer to the player's own interaction (cogs/moves.py); it opens
with the reader's news and ends with the table it belongs to: game, server, channel and a link to
the current board."""
from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import discord

from bot.engine.orders import game_module
from bot.i18n import t
from bot.services.text import private_lines, shown
from bot.storage.games import GameRow
from cogs.components import GameButton, GameSelect, HandButton
from cogs.drawing import described_private, png
from cogs.gameui import ui_for
from cogs.news import SUBTEXT, dm_first_line
from cogs.orders import orders_button
from cogs.replies import clip

if TYPE_CHECKING:
    from cogs.client import GameMasterBot


def board_link(record: GameRow, board_id: str | None = None) -> str:
    """The link to the table's current board (to its channel while it has none)."""
    link = f"https://discord.com/channels/{record.guild_id or '@me'}/{record.channel_id}"
    board = board_id or record.board_message_id
    return f"{link}/{board}" if board else link


_GUILD_NAMES: dict[str, str] = {}  # servers the gateway has not told this process about yet


async def server_name(bot: GameMasterBot, guild_id: str | None) -> str | None:
    if not guild_id:
        return None
    guild = bot.get_guild(int(guild_id))
    if guild is not None:
        return guild.name
    if guild_id not in _GUILD_NAMES:
        try:
            _GUILD_NAMES[guild_id] = (await bot.fetch_guild(int(guild_id), with_counts=False)).name
        except discord.HTTPException:
            return None
    return _GUILD_NAMES[guild_id]


async def where_text(bot: GameMasterBot, record: GameRow, locale: str, board_id: str | None = None) -> str:
    """The line that tells a DM's reader which table it belongs to: game, server, channel, board."""
    name = await server_name(bot, record.guild_id)
    server = shown(name) if name else t("dm.a_server", locale)
    return t("dm.your_view", locale, game=t(f"game.name.{record.game}", locale), server=server,
             channel=f"<#{record.channel_id}>", link=board_link(record, board_id))


def private_view(record: GameRow, seat: int, obs: dict[str, Any], legal: list[str],
                 locale: str) -> discord.ui.View | None:
    ui = ui_for(record.game)
    buttons = ui.private_buttons(obs, legal)
    selects = ui.private_selects(obs, legal)
    view = discord.ui.View(timeout=None)
    for number, menu in enumerate(selects[:3]):
        options = [discord.SelectOption(label=label[:100], value=value[:100]) for label, value in menu.options[:25]]
        if not options:
            continue
        view.add_item(GameSelect(record.id, record.ply, seat, menu.prefix, number, options=options,
                                 placeholder=menu.placeholder(locale),
                                 min_values=min(menu.min_values, len(options)),
                                 max_values=min(menu.max_values, len(options))))
    for button in buttons[:5]:
        view.add_item(GameButton(record.id, record.ply, button.action, label=button.label(locale),
                                 style=button.style, owner=seat))
    if record.status == "active" and game_module(record.game) is not None:  # games with orders of their own:
        view.add_item(orders_button(record, seat, locale))  # the seat's standing orders, one press away
    return view if view.children else None


async def private_message(bot: GameMasterBot, record: GameRow, seat: int, locale: str,
                          events: Sequence[Any] = (), board_id: str | None = None
                          ) -> tuple[str, discord.File | None, discord.ui.View | None]:
    """The reader's name and their news first (cogs/news.py), then the game's own text of the
    view, and the table it belongs to (game, server, channel, link) as the footer."""
    obs = bot.service.observe(record, seat)
    if obs.get("private") is None:  # a game without hidden information: only a note for this player
        if not private_lines(events, seat, record.names, locale):  # (a standing order dropped)
            return "", None, None
        lines = [dm_first_line(record, seat, list(events), locale, their_turn=False),
                 SUBTEXT + await where_text(bot, record, locale, board_id)]
        return clip("\n".join(lines)), None, private_view(record, seat, obs, [], locale)
    their_turn = record.status == "active" and seat in bot.service.to_act(record)
    lines = [dm_first_line(record, seat, list(events), locale, their_turn=their_turn)]
    # the hooks also get the table's names and the reader's language
    obs = {**obs, "names": record.names, "locale": locale}
    text = ui_for(record.game).private_text(obs, locale)
    if text:
        lines.append(text)
    lines.append(SUBTEXT + await where_text(bot, record, locale, board_id))
    image, words = await described_private(record, obs, locale)  # the alt text too, by the render worker
    file = png(image, f"{record.game}-private-{record.ply}.png", words) if image else None
    legal = bot.service.legal_texts(record, seat)
    return clip("\n".join(lines)), file, private_view(record, seat, obs, legal, locale)


def hand_only_view(record: GameRow, locale: str) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(HandButton(record.id, label=t("button.hand", locale)))
    return view
