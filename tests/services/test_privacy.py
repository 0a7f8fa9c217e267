"""#27 point 6, privacy: forgetting a user deletes their preferences and stored DM channel and puts
one random pseudonym and an anonymous name in place of their id and name in seats, games,
standings, ratings and every export, while every move log still replays; a user at an open table
is refused; the retention purge anonymises the players of games ended long ago. Both backends."""
from __future__ import annotations

import asyncio
import json
from datetime import UTC, datetime, timedelta

import pytest

from bot.cli import main
from bot.errors import Forbidden
from bot.runner import verify
from bot.services import export, privacy
from bot.services.ratings_kept import Ratings
from bot.services.table import GameService
from bot.storage import prefs
from bot.storage.db import Database

ANN, BO = "111111111111111111", "222222222222222222"


async def finished_game(service: GameService, channel: str) -> int:
    """Ann and Bo play a toy game to its end (reaching 21), Ann adding 3 and Bo 1."""
    await service.create(guild_id="g", channel_id=channel, game="toy", user_id=ANN, name="Ann")
    await service.join(channel, BO, "Bo")
    await service.start(channel, ANN)
    while True:
        record = await service.current(channel)
        if record is None or record.status != "active":
            break
        seat = min(service.to_act(record))
        user = record.user_of(seat)
        assert user is not None
        await service.act(user_id=user, action="add 3" if user == ANN else "add 1", channel_id=channel)
    latest = await service.latest(channel)
    return int(latest.id)


async def everything(db: Database) -> str:
    """Every row of every table that can hold a user, as text."""
    out = []
    for table in ("games", "seats", "user_prefs", "standings", "standing_places", "ratings", "rating_changes"):
        async with db.reading() as conn:
            out += [repr(tuple(row)) for row in await conn.execute_fetchall(f"SELECT * FROM {table}")]
    return "\n".join(out)


async def test_privacy_forget_me_anonymises_everywhere_and_every_game_still_replays(db: Database, service: GameService,
                                                                                     toy: object) -> None:
    games = [await finished_game(service, channel) for channel in ("c1", "c2")]
    async with db.transaction() as conn:
        await prefs.set_user(conn, ANN, locale="sv", time_zone="Europe/Stockholm", quiet_start=22, quiet_end=7,
                             dm_channel_id="999999999999999999", ping_on_turn=True)
    ratings = Ratings(db)
    await ratings.board("g", "toy", ANN)  # the ratings of both games are kept
    before = await everything(db)
    assert ANN in before and "Ann" in before

    done = await privacy.forget(db, ANN)

    after = await everything(db)
    assert ANN not in after and "'Ann'" not in after and "999999999999999999" not in after
    assert done.games == 2 and done.pseudonym in after and done.name in after
    assert BO in after and "'Bo'" in after  # nobody else is touched
    async with db.reading() as conn:
        assert await conn.execute_fetchall("SELECT * FROM user_prefs WHERE user_id = ?", (ANN,)) == []
    for game_id in games:
        document = export.document(await service.get(game_id), await service.moves(game_id))
        text = json.dumps(document, ensure_ascii=False)
        assert ANN not in text and '"Ann"' not in text and done.name in text
        export.verify(export.to_bytes(document))  # the export still replays from its seed
    assert await verify(db) == 0  # and so does every stored game
    board = await ratings.board("g", "toy", done.pseudonym)
    assert board.rating is not None and board.rating.games == 2  # the ratings still add up, anonymously


async def test_privacy_forget_me_refused_at_an_open_table(db: Database, service: GameService, toy: object) -> None:
    await service.create(guild_id="g", channel_id="c1", game="toy", user_id=ANN, name="Ann")
    before = await everything(db)
    with pytest.raises(Forbidden) as refused:
        await privacy.forget(db, ANN)
    assert refused.value.key == "privacy.error.playing" and "#1" in refused.value.params["games"]
    assert await everything(db) == before


async def test_privacy_forget_steps_of_other_parts_run_in_the_same_transaction(db: Database, service: GameService,
                                                                               toy: object) -> None:
    seen: list[tuple[str, str]] = []

    async def revoke_links(conn: object, user_id: str, pseudonym: str) -> None:
        seen.append((user_id, pseudonym))

    privacy.on_forget(revoke_links)
    try:
        done = await privacy.forget(db, BO)
    finally:
        privacy._STEPS.remove(revoke_links)
    assert seen == [(BO, done.pseudonym)]


async def test_privacy_retention_purge_anonymises_old_finished_games(db: Database, service: GameService,
                                                                     toy: object) -> None:
    old = await finished_game(service, "c1")
    assert await privacy.purge(db, 30) == 0  # it just ended
    later = datetime.now(UTC) + timedelta(days=31)
    recent = await finished_game(service, "c2")
    assert await privacy.purge(db, 30, now=later) == 2
    for game_id in (old, recent):
        record = await service.get(game_id)
        assert all(seat.user_id and seat.user_id.startswith("-") for seat in record.seats)
        assert not {"Ann", "Bo"} & set(record.names)
    assert await verify(db) == 0
    assert await privacy.purge(db, 30, now=later) == 0  # done once


async def test_privacy_db_forget_user_id_on_the_command_line(database_url: str, db: Database, service: GameService,
                                                             toy: object, capsys: pytest.CaptureFixture[str]) -> None:
    await finished_game(service, "c1")
    assert await asyncio.to_thread(main, ["db", "forget", "abc", "--db", database_url]) == 2
    assert await asyncio.to_thread(main, ["db", "forget", ANN, "--db", database_url]) == 0
    said = capsys.readouterr().out
    assert f"Forgot user {ANN}" in said and "1 game" in said
    assert ANN not in await everything(db)
    assert await asyncio.to_thread(main, ["db", "purge", "--days", "0", "--db", database_url]) == 0
