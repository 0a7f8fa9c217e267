"""Issue 11 point 5 and 6 through the service on a real SQLite file: computer seats use their
out-of-turn rights (rent claims) and leave a human a real window to claim before a computer rolls;
the agreed end time ends the game when the service's clock passes it."""
from __future__ import annotations

from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
import pytest_asyncio

from bot.engine import registry
from bot.engine.core import TIMER
from bot.engine.registry import computer_action
from bot.errors import IllegalAction
from bot.services.table import GameService
from bot.storage.db import Database

START = datetime(2026, 3, 1, 12, 0, 0, tzinfo=UTC)
GAME = registry.get("monopol")


class Clock:
    def __init__(self) -> None:
        self.now = START

    def __call__(self) -> datetime:
        return self.now


@pytest_asyncio.fixture
async def db(tmp_path: Path) -> AsyncIterator[Database]:
    database = Database(tmp_path / "rights.sqlite3")
    await database.connect()
    yield database
    await database.close()


def test_computer_players_finish_20_seeded_games_with_rent_must_be_claimed() -> None:
    """All-computer tables, moved as the service moves them: rights out of turn first (claims),
    then the seats in to_act. Every game ends with one player left."""
    options = GAME.resolve_options({"rent_must_be_claimed": True})
    for number in range(20):
        state = GAME.new(2 + number % 3, options, f"claims-{number}")
        claimed = 0
        for _ in range(5000):
            if GAME.outcome(state) is not None:
                break
            seat = min(GAME.watchers(state) or GAME.to_act(state))
            action = computer_action(GAME, state, seat)
            claimed += str(action) == "claim"
            GAME.apply(state, seat, action)
        outcome = GAME.outcome(state)
        assert outcome is not None and outcome.reason == "monopol.end.last", number
        assert claimed > 0


async def _table(service: GameService, **options: object) -> None:
    await service.create(guild_id=None, channel_id="c", game="monopol", user_id="u0", name="Ann",
                         options={"rent_must_be_claimed": True, **options}, computers=2, seed="rights")
    await service.start("c", "u0")


async def test_computer_owner_claims_rent_and_human_owner_gets_a_window_before_the_computer_rolls(
        db: Database) -> None:
    clock = Clock()
    service = GameService(db, clock=clock)
    await _table(service)
    computer_claimed = human_window = 0
    for _ in range(400):
        record = await service.current("c")
        if record is None:  # the game is over
            break
        state = GAME.load(record.state or {})
        assert not any(c.owner in (1, 2) for c in state.claims), "a computer claims its rent at once"
        if GAME.waits_for(state) == frozenset({0}) and state.turn in (1, 2):
            # the computer may roll (and end the claim) only after the human's window
            human_window += 1
            rolled = len(await service.moves(record.id))
            assert await service.apply_timers(clock.now + timedelta(seconds=GAME.window_seconds - 1)) == []
            assert len(await service.moves(record.id)) == rolled
            if human_window % 2:
                update = await service.act(user_id="u0", action="claim", channel_id="c")
                assert "monopol.event.rent" in [e.key for e in update.events]
            else:
                clock.now += timedelta(seconds=GAME.window_seconds)
                updates = await service.apply_timers(clock.now)
                assert updates and "monopol.event.claim_lapsed" in [e.key for e in updates[0].events]
            continue
        seat0 = 0 in GAME.to_act(state)
        if not seat0:
            clock.now += timedelta(seconds=GAME.window_seconds)
            assert await service.apply_timers(clock.now), "a waiting computer moves when its window ends"
            continue
        texts = service.legal_texts(record, 0)
        choice = next(t for t in ("buy", "roll", "end", "pass", "keep-mortgage", "bankrupt") if t in texts) \
            if any(t in texts for t in ("buy", "roll", "end", "pass", "bankrupt")) else texts[0]
        update = await service.act(user_id="u0", action=choice, channel_id="c")
        computer_claimed += sum(e.key == "monopol.event.rent" and e.params.get("owner_seat") in (1, 2)
                                for e in update.events)
    assert human_window >= 2 and computer_claimed >= 1, (human_window, computer_claimed)


async def test_end_time_ends_the_game_when_the_service_clock_passes_it(db: Database) -> None:
    clock = Clock()
    service = GameService(db, clock=clock)
    with pytest.raises(IllegalAction, match="option_time_past"):
        await service.create(guild_id=None, channel_id="old", game="monopol", user_id="u0", name="Ann",
                             options={"end_time": "2026-03-01 11:00"})
    await service.create(guild_id=None, channel_id="c", game="monopol", user_id="u0", name="Ann",
                         options={"end_time": "2026-03-01 18:00"})
    await service.join("c", "u1", "Bo")
    await service.start("c", "u0")
    assert await service.apply_timers(datetime(2026, 3, 1, 17, 59, tzinfo=UTC)) == []
    updates = await service.apply_timers(datetime(2026, 3, 1, 18, 0, tzinfo=UTC))
    assert len(updates) == 1 and updates[0].finished
    assert updates[0].outcome is not None and updates[0].outcome.reason == "monopol.end.time"
    record = updates[0].record
    assert (await service.moves(record.id))[-1][1:3] == (TIMER, "time up")
