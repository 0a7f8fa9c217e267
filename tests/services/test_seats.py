"""#25 point 1 in the service, both backends: a seat-sitter who plays a game to its end (the
owner gets the result and the standings, the export names who made each move and still verifies
from the seed), a replacement agreed by the other player and accepted, and what the seat changes
store taking part in forgetting a user and in the retention purge."""
from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from bot.cli import main
from bot.errors import Forbidden, IllegalAction
from bot.services import export, privacy
from bot.services.seats import Seats
from bot.services.table import GameService
from bot.services.undo import Undo
from bot.storage import seats as seats_repo
from bot.storage.db import Database
from bot.web.links import LinkRefused, WebLinks

ANN, BO, SAM, DAN = "111111111111111111", "222222222222222222", "333333333333333333", "444444444444444444"
NAMES = {ANN: "Annika", BO: "Bosse", SAM: "Samuel", DAN: "Daniela"}


async def play_to_end(service: GameService, channel: str) -> int:
    """Whoever holds the seat on turn adds 3 until the toy game (first to 21) ends."""
    record = await service.current(channel)
    assert record is not None
    game_id = record.id
    while record is not None and record.status == "active":
        user = record.user_of(min(service.to_act(record)))
        assert user is not None
        await service.act(user_id=user, action="add 3", channel_id=channel)
        record = await service.current(channel)
    return game_id


async def table(service: GameService, channel: str) -> None:
    await service.create(guild_id="g", channel_id=channel, game="toy", user_id=ANN, name=NAMES[ANN])
    await service.join(channel, BO, NAMES[BO])
    await service.start(channel, ANN)


async def test_a_sitter_plays_to_the_end_and_the_owner_gets_the_result(db: Database, service: GameService) -> None:
    await table(service, "c1")
    seats = Seats(service)
    with pytest.raises(IllegalAction):
        await seats.sit(channel_id="c1", owner_id=ANN, sitter_id=BO, sitter_name=NAMES[BO], sitter_bot=False)
    update = await seats.sit(channel_id="c1", owner_id=ANN, sitter_id=SAM, sitter_name=NAMES[SAM], sitter_bot=False)
    assert update.private_changed == {0} and update.record.names[0] == "Samuel (for Annika)"
    with pytest.raises(Forbidden) as refused:
        await service.act(user_id=ANN, action="add 3", channel_id="c1")
    assert refused.value.key == "seats.error.sitter_plays"
    game_id = await play_to_end(service, "c1")

    record = await service.get(game_id)
    assert record.status == "finished" and record.user_of(0) == ANN and record.names[0] == "Annika"
    async with db.reading() as conn:
        standings = await conn.execute_fetchall("SELECT player, name FROM standings ORDER BY player")
        rows = await seats_repo.holders(conn, game_id)
    assert sorted((str(p), n) for p, n in standings) == [(ANN, "Annika"), (BO, "Bosse")]
    assert [(r.user_id, r.kind, r.owner_id) for r in rows] == [(ANN, "start", None), (SAM, "sitter", ANN),
                                                               (ANN, "returned", None)]
    data = await export.export(service, game_id, guild_id="g", user_id=BO)
    seat0 = [m["by"] for m in data["moves"] if m["seat"] == 0]
    assert seat0 and set(seat0) == {"Samuel (for Annika)"}
    assert {m["by"] for m in data["moves"] if m["seat"] == 1} == {"Bosse"}
    assert [h["kind"] for h in data["holders"]] == ["start", "sitter", "returned"]
    assert export.verify(export.to_bytes(data)).state is not None  # still replays from the seed


async def test_replacement_rows_take_part_in_forgetting_and_the_purge(db: Database, service: GameService) -> None:
    await table(service, "c2")
    links = WebLinks(db, "http://127.0.0.1:1")
    await links.load()
    first = await service.current("c2")
    assert first is not None
    ann_link = links.read_token(links.private_token(first.id, 0, ANN))
    await links.check(ann_link, first.user_of(0))  # Ann's own view opens while the seat is hers
    seats = Seats(service)
    asked = await seats.ask(channel_id="c2", seat=0, newcomer_id=DAN, newcomer_name=NAMES[DAN],
                            newcomer_bot=False, asked_by=BO)
    assert asked.row.status == "agreed"  # Bo is the only other player and asked
    with pytest.raises(Forbidden):
        await seats.answer(asked.row.id, BO, accept=True)
    done = await seats.answer(asked.row.id, DAN, accept=True)
    assert done.update is not None and done.record.user_of(0) == DAN
    with pytest.raises(Forbidden) as refused:
        await service.act(user_id=ANN, action="add 3", channel_id="c2")
    assert refused.value.key == "seats.error.replaced"
    with pytest.raises(LinkRefused):  # her personal web link stops working: the seat is Dan's
        await links.check(ann_link, done.record.user_of(0))
    game_id = await play_to_end(service, "c2")

    async def kept() -> str:
        async with db.reading() as conn:
            return repr([tuple(r) for table in ("seat_holders", "seat_requests")
                         for r in await conn.execute_fetchall(f"SELECT * FROM {table}")])

    before = await kept()
    assert ANN in before and "Annika" in before and DAN in before and BO in before
    await privacy.forget(db, ANN)
    await privacy.forget(db, BO)
    after = await kept()
    assert ANN not in after and "Annika" not in after and BO not in after and DAN in after
    later = datetime.now(UTC) + timedelta(days=40)
    assert await privacy.purge(db, 30, now=later) == 1
    purged = await kept()
    assert DAN not in purged and "Daniela" not in purged
    async with db.reading() as conn:
        rows = await seats_repo.holders(conn, game_id)
    assert len(rows) == 2 and all(r.user_id and r.user_id.startswith("-") for r in rows)


async def test_the_newcomer_takes_the_seats_clock_over(db: Database, service: GameService) -> None:
    """The seat keeps its time bank; its turn's deadline follows the new holder (the old holder's
    vacation no longer pauses it)."""
    await table(service, "c3")
    record = await service.current("c3")
    assert record is not None
    seat = min(service.to_act(record))
    holder = record.user_of(seat)
    assert holder is not None
    running = record.turn_deadline
    await service.set_vacation(holder, 5, "g")
    away = (await service.current("c3")).turn_deadline  # type: ignore[union-attr]
    assert away is not None and running is not None and away > running
    bank = (await service.current("c3")).seats[seat].bank_seconds  # type: ignore[union-attr]
    seats = Seats(service)
    other = BO if holder == ANN else ANN
    asked = await seats.ask(channel_id="c3", seat=seat, newcomer_id=DAN, newcomer_name=NAMES[DAN],
                            newcomer_bot=False, asked_by=other)
    done = await seats.answer(asked.row.id, DAN, accept=True)
    record = await service.current("c3")
    assert record is not None and record.user_of(seat) == DAN and done.update is not None
    assert record.turn_deadline == running  # Dan is not away: the turn's own deadline again
    assert record.seats[seat].bank_seconds == bank
    await service.act(user_id=DAN, action="add 3", channel_id="c3")  # and Dan plays it



async def test_the_newcomer_cannot_undo_the_move_of_the_seats_holder_before(db: Database,
                                                                             service: GameService) -> None:
    await table(service, "c4")
    record = await service.current("c4")
    assert record is not None
    seat = min(service.to_act(record))
    holder = record.user_of(seat)
    other = BO if holder == ANN else ANN
    assert holder is not None
    await service.act(user_id=holder, action="add 3", channel_id="c4")
    seats = Seats(service)
    asked = await seats.ask(channel_id="c4", seat=seat, newcomer_id=DAN, newcomer_name=NAMES[DAN],
                            newcomer_bot=False, asked_by=other)
    await seats.answer(asked.row.id, DAN, accept=True)
    undo = Undo(service)
    with pytest.raises(IllegalAction) as refused:
        await undo.ask(user_id=DAN, channel_id="c4")
    assert refused.value.key == "seats.error.undo_other_holder"
    await service.act(user_id=other, action="add 3", channel_id="c4")
    await service.act(user_id=DAN, action="add 3", channel_id="c4")
    with pytest.raises(IllegalAction) as refused:  # his own move passes the holder check (the toy
        await undo.ask(user_id=DAN, channel_id="c4")  # game's moves bring chance in, so no undo)
    assert refused.value.key == "undo.error.chance"


async def test_db_copy_carries_the_seat_changes(database_url: str, tmp_path: Path, toy: object) -> None:
    """`gamemaster db copy` from a SQLite file into this backend: the holders and the requests
    arrive, the sitter still sits, and a new request gets a fresh id (PostgreSQL's numbering goes on)."""
    source = f"sqlite:///{tmp_path / 'source.sqlite3'}"
    src = await Database(source).connect()
    try:
        service = GameService(src)
        await table(service, "c5")
        seats = Seats(service)
        await seats.sit(channel_id="c5", owner_id=ANN, sitter_id=SAM, sitter_name=NAMES[SAM], sitter_bot=False)
        await seats.ask(channel_id="c5", seat=1, newcomer_id=DAN, newcomer_name=NAMES[DAN], newcomer_bot=False,
                        asked_by=SAM)
    finally:
        await src.close()
    assert await asyncio.to_thread(main, ["db", "copy", source, database_url]) == 0
    db = await Database(database_url).connect()
    try:
        service = GameService(db)
        record = await service.current("c5")
        assert record is not None and record.user_of(0) == SAM
        async with db.reading() as conn:
            rows = await seats_repo.holders(conn, record.id)
            pending = await seats_repo.open_request(conn, record.id, 1)
        assert [(r.user_id, r.kind) for r in rows] == [(ANN, "start"), (SAM, "sitter")]
        assert pending is not None and pending.newcomer_id == DAN
        await Seats(service).stand_up(channel_id="c5", user_id=ANN)  # the owner takes it back there
        async with db.reading() as conn:
            after = await seats_repo.holders(conn, record.id)
        assert after[-1].kind == "returned" and after[-1].id > rows[-1].id
    finally:
        await db.close()
