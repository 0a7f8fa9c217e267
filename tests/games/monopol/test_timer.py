"""The auction timer: the engine names it (Game.timer_action), the service keeps the clock and closes
an auction once nothing has happened for auction_minutes; every bid restarts the wait."""
from __future__ import annotations

import json
import re
from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
import pytest_asyncio

from bot.engine.core import TIMER
from bot.errors import NotYourTurn
from bot.games.monopol.actions import Simple
from bot.services.table import GameService
from bot.storage.db import Database

from .helpers import GAME, act, auctioned, dice, new

START = datetime(2024, 5, 1, 12, 0, 0, tzinfo=UTC)


class Clock:
    def __init__(self) -> None:
        self.now = START

    def __call__(self) -> datetime:
        return self.now

    def advance(self, seconds: int) -> datetime:
        self.now += timedelta(seconds=seconds)
        return self.now


@pytest_asyncio.fixture
async def db(tmp_path: Path) -> AsyncIterator[Database]:
    database = Database(tmp_path / "timer.sqlite3")
    await database.connect()
    yield database
    await database.close()


def test_only_an_open_auction_has_a_timer_and_it_uses_the_option() -> None:
    s = new(3, auction_minutes=7)
    assert GAME.timer_action(s) is None
    dice(s, 1, 2)
    act(s, 0, "roll")  # Kirkeveien, unowned
    assert GAME.timer_action(s) is None  # deciding to buy has no timer
    act(s, 0, "decline")
    seconds, seat, action = GAME.timer_action(s)  # type: ignore[misc]
    assert (seconds, seat, action) == (7 * 60, TIMER, Simple("auction close"))
    act(s, 2, "bid 30")
    assert GAME.timer_action(s)[1] == TIMER  # type: ignore[index]
    act(s, TIMER, "auction close")
    assert GAME.timer_action(s) is None and s.owner[3] == 2


async def _openauctioned(service: GameService, clock: Clock) -> int:
    """Three players; the first player to land on an unowned deed declines it. Returns the square."""
    record = await service.create(guild_id=None, channel_id="c1", game="monopol", user_id="u0", name="Ann",
                                  options={"auction_minutes": 2}, seed="timer-seed")
    await service.join("c1", "u1", "Bo")
    await service.join("c1", "u2", "Cy")
    await service.start("c1", "u0")
    for _ in range(60):
        record = await service.require_current("c1")
        public = service.observe(record, None)["public"]
        seat = public["turn"]
        action = {"roll": "roll", "end": "end", "buy": "decline"}[public["phase"]]
        clock.advance(30)
        await service.act(user_id=f"u{seat}", action=action, channel_id="c1")
        if action == "decline":
            return int(public["position"][seat])
    raise AssertionError("nobody landed on an unowned deed")


async def test_the_service_closes_an_auction_when_its_time_runs_out(db: Database) -> None:
    clock = Clock()
    service = GameService(db, clock=clock)
    # no open auction: however late it is, nothing happens
    record = await service.create(guild_id=None, channel_id="quiet", game="monopol", user_id="q0", name="Q")
    await service.join("quiet", "q1", "R")
    await service.start("quiet", "q0")
    assert await service.apply_timers(clock.now + timedelta(days=3)) == []

    square = await _openauctioned(service, clock)
    record = await service.require_current("c1")
    assert service.observe(record, None)["public"]["auction"]["square"] == square
    opened = clock.now

    assert await service.apply_timers(opened + timedelta(seconds=119)) == []
    clock.advance(100)
    await service.act(user_id="u1", action="bid 40", channel_id="c1")
    # two minutes after the auction opened, but only 20 s after the bid: still open
    assert await service.apply_timers(opened + timedelta(seconds=120)) == []
    clock.advance(60)
    await service.act(user_id="u2", action="bid 60", channel_id="c1")
    last_bid = clock.now
    assert await service.apply_timers(last_bid + timedelta(seconds=119)) == []
    record = await service.require_current("c1")
    cash_before = service.observe(record, None)["public"]["cash"][2]
    ply_before = record.ply

    updates = await service.apply_timers(last_bid + timedelta(seconds=120))
    assert len(updates) == 1
    update = updates[0]
    assert update.record.id == record.id and update.record.ply == ply_before + 1
    assert [e.key for e in update.events] == ["monopol.event.auction_won"]
    assert update.events[0].params["seat"] == 2 and update.events[0].params["amount"] == 60
    public = service.observe(update.record, None)["public"]
    assert public["auction"] is None and public["owner"][square] == 2
    assert public["cash"][2] == cash_before - 60
    assert (await service.moves(record.id))[-1][:3] == (ply_before + 1, TIMER, "auction close")
    # the auction is over: nothing more to apply, and the turn goes on
    assert await service.apply_timers(last_bid + timedelta(hours=5)) == []
    assert public["to_act"] == [public["turn"]]


async def test_an_auction_without_bids_closes_unsold(db: Database) -> None:
    clock = Clock()
    service = GameService(db, clock=clock)
    square = await _openauctioned(service, clock)
    updates = await service.apply_timers(clock.now + timedelta(minutes=2))
    assert [e.key for e in updates[0].events] == ["monopol.event.unsold"]
    public = service.observe(updates[0].record, None)["public"]
    assert public["owner"][square] == -1 and public["auction"] is None


ROOT = Path(__file__).resolve().parents[3]


PACKAGE = ROOT / "bot" / "games" / "monopol"


def _catalog(lang: str) -> dict[str, str]:
    return dict(json.loads((PACKAGE / "locale" / f"{lang}.json").read_text(encoding="utf-8")))


def test_the_auction_timer_is_described_as_closing_by_itself() -> None:
    by_itself = {"en": "closes by itself", "nb": "avsluttes av seg selv", "sv": "avslutas av sig själv",
                 "cs": "sama uzavře"}
    for lang, words in by_itself.items():
        text = _catalog(lang)["monopol.option.auction_minutes"]
        assert words in text, (lang, text)
        assert not re.search(r"anyone|hvem som helst|vem som helst|kdokoli", text), lang
        rules = (PACKAGE / "rules" / f"{lang}.md").read_text(encoding="utf-8")
        assert "`auction close`" not in rules and "auction_minutes" in rules, lang


def test_auction_timer_closes_with_the_best_bid_and_is_no_players_move() -> None:
    s = auctioned(3)
    act(s, 1, "bid 40")
    seconds, seat, action = GAME.timer_action(s)  # type: ignore[misc]
    assert seat == TIMER and str(action) == "auction close" and seconds == 600
    assert all(str(a) != "auction close" for p in range(3) for a in GAME.legal_actions(s, p))
    act(s, TIMER, "auction close")
    assert s.owner[3] == 1
    with pytest.raises(NotYourTurn):
        act(s, TIMER, "roll")  # the clock makes no player's move
