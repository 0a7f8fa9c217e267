"""Notifications the player controls, on both backends: the choices per table, the ping limit kept
across a restart, the digest due at the player's local hour (moved past quiet hours) and claimed
once per local day, and the user's choices gone when they are forgotten; plus the pure rules."""
from __future__ import annotations

from datetime import UTC, date, datetime, timedelta

import pytest

from bot.errors import IllegalAction
from bot.services import clock, notify, privacy
from bot.services.notify import Notifications
from bot.services.players import Players
from bot.services.table import GameService
from bot.storage.db import Database
from bot.storage.notify import Digest, TableNotify

T0 = datetime(2026, 12, 2, 7, 0, tzinfo=UTC)


async def a_table(service: GameService) -> int:
    record = await service.create(guild_id="g", channel_id="c", game="toy", user_id="u0", name="Ann")
    await service.join("c", "u1", "Bo")
    await service.start("c", "u0")
    return record.id


async def test_a_ping_limit_holds_a_second_ping_within_its_hours_and_survives_a_restart(
        db: Database, service: GameService) -> None:
    game_id = await a_table(service)
    record = await service.current("c")
    assert record is not None
    notes = Notifications(db)
    chosen = await notes.choose(record, "u1", max_per=6)
    assert chosen == TableNotify(game_id, "u1", False, False, 6, None)
    assert await notes.audible(game_id, ["u0", "u1"], T0) == (["u0", "u1"], set())
    assert await notes.audible(game_id, ["u0", "u1"], T0 + timedelta(hours=5)) == (["u0"], {"u1"})
    again = Notifications(db)  # a restarted process reads the last ping from the database
    assert await again.audible(game_id, ["u1"], T0 + timedelta(hours=5, minutes=59)) == ([], {"u1"})
    assert await again.audible(game_id, ["u1"], T0 + timedelta(hours=6)) == (["u1"], set())
    await notes.choose(record, "u1", mute=True, max_per=0)
    assert await notes.audible(game_id, ["u1"], T0 + timedelta(days=3)) == ([], {"u1"})
    with pytest.raises(IllegalAction) as refused:
        await notes.choose(record, "stranger", mute=True)
    assert refused.value.key == "notify.error.not_seated"
    with pytest.raises(IllegalAction):
        await notes.choose(record, "u0", max_per=169)
    assert (await notes.of_game(game_id))["u1"].mute  # a refusal changed nothing
    assert "u0" not in await notes.of_game(game_id)


async def test_a_digest_is_claimed_once_per_local_day(db: Database) -> None:
    players, notes = Players(db), Notifications(db)
    await players.set_prefs("u1", time_zone="Europe/Stockholm", quiet_start=22, quiet_end=7)
    await notes.set_digest("u1", 8)  # 08:00 in Stockholm is 07:00 UTC in December
    assert await notes.due_digests(T0 - timedelta(minutes=1)) == []
    assert [d.user_id for d in await notes.due_digests(T0)] == ["u1"]
    assert await notes.due_digests(T0 + timedelta(hours=3)) == []  # once that day
    assert await Notifications(db).due_digests(T0 + timedelta(hours=10)) == []  # after a restart too
    assert [d.user_id for d in await notes.due_digests(T0 + timedelta(days=1))] == ["u1"]
    await notes.set_digest("u1", None)
    assert await notes.due_digests(T0 + timedelta(days=2)) == []


async def test_forgetting_a_user_drops_their_notification_choices_and_digest(
        db: Database, service: GameService) -> None:
    game_id = await a_table(service)
    record = await service.current("c")
    assert record is not None
    notes = Notifications(db)
    await notes.choose(record, "u1", early=True)
    await notes.choose(record, "u0", mute=True)
    await notes.set_digest("u1", 9)
    await service.resign("c", "u1")  # a finished table: nobody is refused for playing
    await privacy.forget(db, "u1")
    assert list(await notes.of_game(game_id)) == ["u0"]
    assert await notes.digest_hour("u1") is None


def prefs(hour: int, zone: str | None = None, quiet: tuple[int, int] | None = None,
          sent: str | None = None) -> Digest:
    return Digest("u", hour, sent, zone, *(quiet or (None, None)))


def test_a_digest_hour_inside_quiet_hours_moves_to_their_end() -> None:
    day = date(2026, 12, 2)
    assert notify.digest_moment(day, prefs(6, "Europe/Stockholm", (22, 7))).hour == 7
    assert notify.digest_moment(day, prefs(9, "Europe/Stockholm", (22, 7))).hour == 9
    late = notify.digest_moment(day, prefs(23, "UTC", (22, 7)))  # past midnight: the next morning
    assert (late.date(), late.hour) == (date(2026, 12, 3), 7)
    # that digest belongs to the 2nd and comes on the 3rd at 07:00, not inside the quiet night
    assert notify.digest_due(datetime(2026, 12, 3, 6, 59, tzinfo=UTC), prefs(23, "UTC", (22, 7))) is None
    assert notify.digest_due(datetime(2026, 12, 3, 7, 0, tzinfo=UTC), prefs(23, "UTC", (22, 7))) == "2026-12-02"
    assert notify.digest_due(datetime(2026, 12, 3, 7, 0, tzinfo=UTC),
                             prefs(23, "UTC", (22, 7), sent="2026-12-02")) is None


def test_you_are_next_is_the_next_seat_still_playing_skipping_computers() -> None:
    assert notify.next_up(3, 0, out=(), computers=()) == 1
    assert notify.next_up(3, 2, out=(), computers=()) == 0
    assert notify.next_up(4, 0, out={1}, computers={2}) == 3
    assert notify.next_up(2, 0, out=(), computers={1}) is None
    assert notify.out_seats({"bankrupt": [False, True, False]}) == {1}
    assert notify.out_seats({"places": [None, 0, None]}) == {1}


def test_mute_and_limits_decide_a_ping() -> None:
    assert notify.may_ping(None, T0)
    assert not notify.may_ping(TableNotify(1, "u", mute=True), T0)
    limited = TableNotify(1, "u", max_per_hours=2, last_ping_at=T0.isoformat())
    assert not notify.may_ping(limited, T0 + timedelta(hours=1))
    assert notify.may_ping(limited, T0 + timedelta(hours=2))


def test_the_planned_digest_moment_sends_exactly_what_looking_every_tick_would() -> None:
    """The clock loop reads only digests whose planned moment came: over three days of ticks every
    ten minutes, in several zones, hours and quiet hours, that sends the same digests at the same
    ticks as looking at every digest on every tick."""
    from dataclasses import replace

    cases = [prefs(h, zone, quiet) for h in (0, 6, 8, 22, 23) for zone in ("UTC", "Europe/Stockholm", "Asia/Tokyo")
             for quiet in (None, (22, 7), (1, 5), (23, 8))]
    ticks = [datetime(2026, 12, 1, 0, 3, tzinfo=UTC) + timedelta(minutes=10 * i) for i in range(3 * 144)]
    for case in cases:
        every, planned = [], []
        looked = case
        for tick in ticks:
            if (day := notify.digest_due(tick, looked)) is not None:
                every.append(tick)
                looked = replace(looked, sent_for=day)
        state, next_at = case, None
        for tick in ticks:
            if next_at is not None and next_at > tick:
                continue
            day = notify.digest_due(tick, state)
            if day is not None:
                planned.append(tick)
                state = replace(state, sent_for=day)
            next_at = notify.next_digest(tick, state)
            assert next_at >= tick
        assert planned == every, case
        days = [tick.astimezone(clock.zone(case.time_zone)).date() for tick in every]
        assert len(every) >= 2 and len(set(days)) == len(days), (case, every)  # at most once per local day
