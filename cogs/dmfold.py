"""One DM per player per turn: the DMs a player gets while someone else plays (Bo steals from Ann
twice in his turn) fold into one message, edited as the turn goes on, whose first line lists
everything that happened to its reader this turn ("Ann — Zloděj: Bo steals your 6s with ♥6 · Bo
steals your K's with ♠K").

A turn is a board message: the table's current board (``BoardRow``) keeps, per seat, the DM it
already sent and the events that DM told (``BoardRow.dms``, stored with the board when the
delivery is marked done, so a restart edits the same DM). A new board starts a new turn with no
DMs. The announcer composes and sends; this module only says what the DM tells and whether it is
a new message or an edit of the turn's one.
"""
from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import Any

import discord

from bot.engine.core import Event
from bot.services.outbox import event_to_dict, events_from
from bot.storage.announcements import BoardRow

log = logging.getLogger(__name__)


def seen_by(event: Event, seat: int) -> bool:
    return event.visible_to is None or seat in event.visible_to


def told(board: BoardRow | None, seat: int, events: Sequence[Event]) -> list[Event]:
    """What the seat's DM of this turn tells: what it told already, then these events (only those
    the seat may see)."""
    earlier = (board.dms.get(str(seat)) or {}).get("events", []) if board is not None else []
    return [*events_from(earlier), *(e for e in events if seen_by(e, seat))]


async def send(dm: discord.abc.Messageable, board: BoardRow | None, seat: int, kwargs: dict[str, Any],
               events: Sequence[Event]) -> discord.Message:
    """Send the seat's DM, or edit the one this turn already sent it (``kwargs``: as for
    ``Messageable.send``); remember it with the board as telling ``events`` (from ``told``)."""
    entry = board.dms.get(str(seat)) if board is not None else None
    message: discord.Message | None = None
    partial = getattr(dm, "get_partial_message", None)  # DM channels, stored or opened
    if entry and partial is not None:
        file = kwargs.get("file")
        try:
            message = await partial(int(entry["message"])).edit(
                content=kwargs.get("content"), attachments=[file] if file is not None else [],
                view=kwargs.get("view"), allowed_mentions=kwargs.get("allowed_mentions"))
        except discord.NotFound:  # the player deleted it: this turn's news goes in a new one
            log.info("the DM of seat %s in game %s is gone; sending a new one", seat, board and board.game_id)
            if file is not None:
                file.reset()
    if message is None:
        message = await dm.send(**kwargs)
    if board is not None:
        board.dms[str(seat)] = {"message": str(message.id), "events": [event_to_dict(e) for e in events]}
    return message
