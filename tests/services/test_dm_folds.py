"""The DM a turn already sent each player (cogs/dmfold.py) is kept with the table's board on both
backends, so that a restarted bot edits it instead of sending a second one; a new board starts
with none."""
from __future__ import annotations

from bot.services.outbox import Outbox
from bot.services.table import GameService
from bot.storage import announcements
from bot.storage.announcements import BoardRow
from bot.storage.db import Database


async def test_the_turns_dms_are_kept_with_the_board(service: GameService, db: Database) -> None:
    record = await service.create(guild_id="g", channel_id="c", game="toy", user_id="u0", name="Ann")
    told = {"1": {"message": "42", "events": [{"key": "toy.event.took", "params": {"seat": 0, "target": 1},
                                               "visible_to": None}]}}
    await Outbox(db).delivered([], BoardRow(record.id, "c", "7", [0], [], 1, told))
    async with db.reading() as conn:
        board = await announcements.board(conn, record.id)
    assert board is not None and board.dms == told

    # the next turn's board: its DMs start afresh
    await Outbox(db).delivered([], BoardRow(record.id, "c", "8", [1], [], 2))
    async with db.reading() as conn:
        board = await announcements.board(conn, record.id)
    assert board is not None and board.message_id == "8" and board.dms == {}
