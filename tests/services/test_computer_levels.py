"""Computer players' levels at the table: chosen per computer seat when the table opens or a
computer sits down, the table's level for a seat handed to the computer, named on the seat, kept
through a restart, and each seat decided by its own level's player."""
from __future__ import annotations

import pytest

from bot.engine import registry
from bot.engine.rng import Rng
from bot.errors import Forbidden, NotFound
from bot.services.table import GameService
from bot.storage.db import Database
from tests.toygame import ToyGame


async def test_each_computer_seat_keeps_the_level_it_was_given(db: Database, toy: ToyGame) -> None:
    service = GameService(db)
    record = await service.create(guild_id="g", channel_id="c", game="toy", user_id="u0", name="Ann",
                                  computers=2, levels=["strong", "easy"], locale="sv")
    assert [(s.level, s.name) for s in record.seats[1:]] == [("strong", "Dator 1 (stark)"), ("easy", "Dator 2 (lätt)")]
    assert record.computer_level == "strong"
    reopened = GameService(db)  # a restart reads everything back from the database
    again = await reopened.get(record.id)
    assert [s.level for s in again.seats] == ["", "strong", "easy"] and again.computer_level == "strong"


async def test_a_table_without_levels_seats_normal_computers(db: Database, toy: ToyGame) -> None:
    service = GameService(db)
    record = await service.create(guild_id="g", channel_id="c", game="toy", user_id="u0", name="Ann", computers=1)
    assert record.seats[1].level == "normal" and record.seats[1].name == "Computer 1 (normal)"
    record = await service.add_computer("c", "u0", "strong")
    assert (record.seats[2].level, record.seats[2].name) == ("strong", "Computer 2 (strong)")
    record = await service.add_computer("c", "u0")
    assert record.seats[3].level == "normal"  # the table's level


async def test_an_unknown_level_is_refused_and_seats_nobody(db: Database, toy: ToyGame) -> None:
    service = GameService(db)
    with pytest.raises(NotFound) as caught:
        await service.create(guild_id="g", channel_id="c", game="toy", user_id="u0", name="Ann",
                             computers=1, levels=["grandmaster"])
    assert caught.value.key == "error.unknown_level"
    assert await service.current("c") is None
    await service.create(guild_id="g", channel_id="c", game="toy", user_id="u0", name="Ann")
    with pytest.raises(NotFound):
        await service.add_computer("c", "u0", "grandmaster")
    with pytest.raises(Forbidden):  # only a seated player seats a computer
        await service.add_computer("c", "stranger", "easy")


async def test_each_computer_seat_is_decided_by_its_own_level(db: Database, toy: ToyGame) -> None:
    """Two toy computers at different levels: the log shows which player decided each move."""
    seen: list[tuple[str, int]] = []

    def player(level: str):  # type: ignore[no-untyped-def]
        def choose(state: object, seat: int, legal: list[object], rng: Rng) -> object:
            seen.append((level, seat))
            return legal[0]
        return choose

    registry.register_computers("toy", {level: player(level) for level in registry.LEVELS})
    try:
        service = GameService(db)
        await service.create(guild_id="g", channel_id="c", game="toy", user_id="u0", name="Ann",
                             computers=2, levels=["strong", "easy"])
        await service.start("c", "u0")
        await service.act(user_id="u0", action="add 1", channel_id="c")
    finally:
        for level in registry.LEVELS:
            registry._COMPUTERS.pop(("toy", level), None)
    assert seen[:2] == [("strong", 1), ("easy", 2)]


async def test_a_seat_handed_to_the_computer_plays_at_the_tables_level(db: Database, toy: ToyGame) -> None:
    service = GameService(db)
    await service.create(guild_id="g", channel_id="c", game="toy", user_id="u0", name="Ann",
                         levels=["strong"])
    await service.join("c", "u1", "Bo")
    await service.start("c", "u0")
    update = await service.hand_to_computer(1, 0)
    assert update.record.seats[0].is_computer and update.record.seats[0].level == "strong"
    assert update.events[0].key == "ai.event.computer_took_over" and update.events[0].params["level"] == "strong"
    record = await service.reclaim("c", "u0")
    assert not record.seats[0].is_computer and record.seats[0].level == ""
