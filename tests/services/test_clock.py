"""Turn clocks with an injected clock: deadlines, banks, reminders once, quiet hours, vacation,
the timeout vote, and statistics."""
from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from bot.errors import Forbidden, IllegalAction
from bot.services.clock import LAST_CALL, REMINDER, TIMEOUT
from bot.services.players import Players
from bot.services.scheduler import Scheduler
from bot.services.table import GameService
from bot.storage.db import Database

START = datetime(2026, 3, 2, 12, 0, tzinfo=UTC)  # a Monday


class Clock:
    def __init__(self) -> None:
        self.now = START

    def __call__(self) -> datetime:
        return self.now

    def advance(self, **delta: float) -> datetime:
        self.now += timedelta(**delta)
        return self.now


@pytest.fixture
def ticking() -> Clock:
    return Clock()


async def table(db: Database, ticking: Clock, players: int = 3, channel: str = "c") -> GameService:
    service = GameService(db, clock=ticking)
    await service.create(guild_id="g", channel_id=channel, game="toy", user_id="u0", name="Ann", turn_hours=10)
    for i in range(1, players):
        await service.join(channel, f"u{i}", f"P{i}")
    await service.start(channel, "u0")
    return service


async def test_the_deadline_is_the_turn_time_plus_the_time_bank(db: Database, toy: object, ticking: Clock) -> None:
    service = await table(db, ticking)
    record = await service.current("c")
    assert record is not None
    # 10 h turn + the default 24 h bank
    assert datetime.fromisoformat(record.turn_deadline or "") == START + timedelta(hours=34)


async def test_a_slow_move_spends_the_bank(db: Database, toy: object, ticking: Clock) -> None:
    service = await table(db, ticking)
    ticking.advance(hours=13)
    update = await service.act(user_id="u0", action="add 1", channel_id="c")
    assert update.record.seats[0].bank_seconds == 21 * 3600
    assert update.record.seats[1].bank_seconds == 24 * 3600


async def test_reminder_then_last_call_then_timeout_each_exactly_once(db: Database, toy: object,
                                                                     ticking: Clock) -> None:
    await table(db, ticking)
    scheduler = Scheduler(db)

    async def sent(dues: list) -> list[tuple[int, int]]:  # the sender: Discord accepted each
        for due in dues:
            await scheduler.delivered(due, ticking.now)
        return [(d.seat, d.stage) for d in dues]

    assert await scheduler.due(ticking.advance(hours=16)) == []          # 16 of 34 hours: not yet half
    assert await sent(await scheduler.due(ticking.advance(hours=1))) == [(0, REMINDER)]  # 17 h: half
    assert await scheduler.due(ticking.advance(minutes=5)) == []
    assert await sent(await scheduler.due(ticking.advance(hours=14))) == [(0, LAST_CALL)]  # 31 h: past 90 %
    assert await sent(await scheduler.due(ticking.advance(hours=3))) == [(0, TIMEOUT)]     # 34 h: deadline
    assert await scheduler.due(ticking.advance(hours=5)) == []


async def test_a_restart_between_due_time_and_sending_sends_once(tmp_path: Path, toy: object,
                                                                 ticking: Clock) -> None:
    path = tmp_path / "restart.sqlite3"
    db = await Database(path).connect()
    await table(db, ticking)
    await db.close()                       # the bot is down when the reminder falls due
    ticking.advance(hours=20)
    db = await Database(path).connect()    # ... and comes back later
    first = await Scheduler(db).due(ticking.now)
    second = await Scheduler(db).due(ticking.advance(minutes=1))
    assert [(d.seat, d.stage) for d in first] == [(0, REMINDER)] and second == []
    await db.close()


async def test_quiet_hours_hold_reminders_in_the_players_own_time_zone(db: Database, toy: object,
                                                                      ticking: Clock) -> None:
    service = await table(db, ticking)
    # quiet from 22 to 7 in New York, which is 03:00–12:00 UTC in March (before US summer time)
    await Players(db).set_prefs("u0", time_zone="America/New_York", quiet_start=22, quiet_end=7)
    scheduler = Scheduler(db)
    ticking.now = START.replace(hour=0) + timedelta(days=1, hours=6)   # Tue 06:00 UTC = Tue 01:00 NY
    record = await service.current("c")
    assert record is not None and ticking.now > START + timedelta(hours=17)   # the reminder is due
    assert await scheduler.due(ticking.now) == []
    ticking.now = START.replace(hour=12) + timedelta(days=1, minutes=1)  # Tue 07:01 NY
    due = await scheduler.due(ticking.now)
    assert [(d.seat, d.stage) for d in due] == [(0, REMINDER)]


async def test_vacation_pauses_the_clock_within_the_servers_limit(db: Database, toy: object, ticking: Clock) -> None:
    service = await table(db, ticking)
    with pytest.raises(IllegalAction):
        await service.set_vacation("u0", 30, "g")
    until, moved = await service.set_vacation("u0", 3, "g")
    assert until is not None and len(moved) == 1
    deadline = datetime.fromisoformat(moved[0].turn_deadline or "")
    assert deadline == datetime.fromisoformat(until) + timedelta(hours=10)
    assert await Scheduler(db).due(ticking.advance(days=2)) == []
    await service.set_vacation("u0", 0, "g")
    record = await service.current("c")
    assert record is not None and datetime.fromisoformat(record.turn_deadline or "") == START + timedelta(hours=34)


async def test_the_others_vote_to_wait_and_a_majority_decides(db: Database, toy: object, ticking: Clock) -> None:
    service = await table(db, ticking)
    with pytest.raises(IllegalAction):      # not timed out yet
        await service.vote_timeout(game_id=1, ply=0, seat=0, user_id="u1", choice="wait")
    ticking.advance(hours=35)
    with pytest.raises(Forbidden):
        await service.vote_timeout(game_id=1, ply=0, seat=0, user_id="u0", choice="wait")
    with pytest.raises(IllegalAction):      # the toy game has no pass: a turn cannot be skipped
        await service.vote_timeout(game_id=1, ply=0, seat=0, user_id="u1", choice="skip")
    first = await service.vote_timeout(game_id=1, ply=0, seat=0, user_id="u1", choice="wait")
    assert (first.votes, first.needed, first.update) == (1, 2, None)
    second = await service.vote_timeout(game_id=1, ply=0, seat=0, user_id="u2", choice="wait")
    assert second.update is not None
    deadline = datetime.fromisoformat(second.update.record.turn_deadline or "")
    assert deadline == ticking.now + timedelta(hours=10)


async def test_the_computer_takes_over_a_timed_out_seat_and_moves(db: Database, toy: object, ticking: Clock) -> None:
    service = await table(db, ticking, players=2)
    ticking.advance(hours=35)
    result = await service.vote_timeout(game_id=1, ply=0, seat=0, user_id="u1", choice="computer")
    assert result.update is not None
    record = result.update.record
    assert record.seats[0].is_computer and record.ply == 1
    assert result.update.to_act == frozenset({1})


async def test_stats_count_games_wins_and_places(db: Database, toy: object, ticking: Clock) -> None:
    for number in range(3):
        service = await table(db, ticking, players=2, channel=f"c{number}")
        loser = 1 - number % 2          # Ann wins games 0 and 2, P1 wins game 1
        await service.resign(f"c{number}", f"u{loser}")
    stats = await Players(db).stats("g")
    assert stats.games == {"toy": 3}
    board = stats.leaderboard()
    assert [(s.name, s.wins, s.games) for s in board] == [("Ann", 2, 3), ("P1", 1, 3)]
    assert board[0].average_place == pytest.approx(4 / 3)


async def test_turn_time_comes_from_the_table_then_the_server_then_the_game(db: Database, toy: object,
                                                                          ticking: Clock) -> None:
    service = GameService(db, clock=ticking)
    tolp = await service.create(guild_id="g", channel_id="a", game="tolp", user_id="u0", name="A")
    assert tolp.turn_seconds == 12 * 3600
    await Players(db).set_guild_settings("g", turn_hours=5)
    toy_game = await service.create(guild_id="g", channel_id="b", game="toy", user_id="u0", name="A")
    assert toy_game.turn_seconds == 5 * 3600
    chosen = await service.create(guild_id="g", channel_id="c", game="toy", user_id="u0", name="A", turn_hours=2)
    assert chosen.turn_seconds == 2 * 3600
    with pytest.raises(IllegalAction):
        await Players(db).set_guild_settings("g", bank_hours=1000)


async def test_the_others_may_skip_a_turn_where_the_game_allows_it(db: Database, ticking: Clock) -> None:
    service = GameService(db, clock=ticking)
    await service.create(guild_id="g", channel_id="t", game="tolp", user_id="u0", name="A", turn_hours=1)
    for i in (1, 2):
        await service.join("t", f"u{i}", f"P{i}")
    await service.start("t", "u0")
    record = await service.current("t")
    assert record is not None
    leader = min(service.to_act(record))
    others = [f"u{s}" for s in range(3) if s != leader]
    ticking.advance(hours=30)
    with pytest.raises(IllegalAction) as refused:     # the opening lead cannot be skipped: no pass
        await service.vote_timeout(game_id=record.id, ply=0, seat=leader, user_id=others[0], choice="skip")
    assert refused.value.key == "clock.error.cannot_skip"
    play = next(a for a in service.legal_texts(record, leader) if a.startswith("play"))
    update = await service.act(user_id=f"u{leader}", action=play, channel_id="t")
    absent = min(update.to_act)
    voters = [f"u{s}" for s in range(3) if s != absent]
    ticking.advance(hours=30)
    await service.vote_timeout(game_id=record.id, ply=1, seat=absent, user_id=voters[0], choice="skip")
    result = await service.vote_timeout(game_id=record.id, ply=1, seat=absent, user_id=voters[1], choice="skip")
    assert result.update is not None and result.update.record.ply == 2
    moves = await service.moves(record.id)
    assert moves[-1][1:3] == (absent, "pass")
    assert any(e.key == "clock.event.skipped" for e in result.update.events)
