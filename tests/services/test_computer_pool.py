"""Computer seats decide in worker processes of their own (``ComputerPool``), off the event loop,
and decide there exactly what they decide here: the same position, seed and ply give the same
action in another interpreter with another hash seed (a player that iterated a set of strings
would differ), through the service's own path (``GameService`` → pipeline → ``decide``), and a
replay of the log in this process asks each computer again and gets the logged move. A worker
that dies is replaced and the decision it held is made again, so the move still happens."""
from __future__ import annotations

import asyncio
import copy
import os
import signal
from functools import partial
from typing import Any

import pytest

from bot.engine import registry
from bot.services.computers import ComputerPool, decide_now, level_of
from bot.services.movelog import apply_logged
from bot.services.table import GameService
from bot.storage import games as repo
from bot.storage.db import Database

registry.load_all()
GAMES = registry.names()
# positions asked at each level of each game (a strong Tölp decision searches for up to 0.3 s)
POSITIONS = {"easy": 12, "normal": 12, "strong": 4}
EVERY_PLY = 7


def seats_for(name: str) -> int:
    game = registry.get(name)
    return max(game.min_players, min(game.max_players, 3))


def positions(name: str, wanted: int, seed: str) -> list[tuple[Any, int, int]]:
    """(state, seat, ply) along a game of easy computers, every few plies, with legal moves."""
    game = registry.get(name)
    state = game.new(seats_for(name), game.resolve_options(game.playout_options), seed)
    out: list[tuple[Any, int, int]] = []
    for ply in range(wanted * EVERY_PLY * 4):
        if game.outcome(state) is not None or len(out) >= wanted:
            break
        acting = sorted(game.watchers(state) | game.to_act(state))
        seat = next((s for s in acting if list(game.legal_actions(state, s))), None)
        if seat is None:
            break
        if ply % EVERY_PLY == 3:
            out.append((copy.deepcopy(state), seat, ply))
        game.apply(state, seat, registry.computer_action(game, state, seat, "easy",
                                                         registry.computer_rng(seed, ply, seat)))
    return out


def other_hash_seed() -> str:
    """A PYTHONHASHSEED unlike this process's (strings hash differently in the workers)."""
    mine = os.environ.get("PYTHONHASHSEED", "")
    return "4242" if mine != "4242" else "1717"


async def test_every_game_and_level_decides_in_the_pool_as_here(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PYTHONHASHSEED", other_hash_seed())  # the spawned workers' hash seed
    pool = ComputerPool(2)
    try:
        workers = await pool.start()
        assert workers and os.getpid() not in workers
        loop = asyncio.get_running_loop()
        asked: list[tuple[str, str, Any, int, str, int]] = []
        for name in GAMES:
            for level in registry.LEVELS:
                seed = f"pool/{name}/{level}"
                asked += [(name, level, state, seat, seed, ply)
                          for state, seat, ply in positions(name, POSITIONS[level], seed)]
        there = await asyncio.gather(*(loop.run_in_executor(pool, partial(decide_now, *case)) for case in asked))
        here = [decide_now(*case) for case in asked]
        differ = [(case[0], case[1], case[5], a, b) for case, a, b in zip(asked, there, here, strict=True) if a != b]
        assert not differ, f"decided otherwise in a worker process: {differ[:5]}"
        assert {case[0] for case in asked} == set(GAMES)
        assert pool.submitted == pool.processes + len(asked) and pool.in_threads == 0  # the warm-ups, every case
    finally:
        pool.close()


async def play_until(service: GameService, channel: str, human_moves: int) -> None:
    """The human (seat 0) plays its first legal move whenever it is to act, ``human_moves`` times;
    the computers answer within each move's transaction."""
    for _ in range(human_moves):
        record = await service.require_current(channel)
        if record.status != "active" or 0 not in service.to_act(record):
            return
        await service.act(user_id="u0", action=service.legal_texts(record, 0)[0], channel_id=channel)


async def computer_moves_replayed(db: Database, service: GameService, channel: str) -> int:
    """Replay the table's log here, asking each computer again at each of its plies (with the
    stream seeded from the game and that ply): every answer is the logged move. Their count."""
    record = await service.latest(channel)
    async with db.reading() as conn:
        rows = await repo.moves(conn, record.id)
    game = registry.get(record.game)
    state = game.new(len(record.seats), game.resolve_options(record.options), record.seed)
    asked = 0
    for ply, seat, action, _ in rows:
        if record.seats[seat].is_computer:
            again = decide_now(record.game, level_of(record, seat), state, seat, record.seed, ply - 1)
            assert again == action, f"ply {ply}: the pool decided {action}, this process {again}"
            asked += 1
        apply_logged(game, state, seat, action)
    assert game.dump(state) == record.state
    return asked


async def test_a_table_of_computers_decides_in_the_pool_and_its_log_replays(db: Database) -> None:
    pool = ComputerPool(1)
    try:
        await pool.start()
        service = GameService(db)
        service.computer_executor = pool
        await service.create(guild_id="g", channel_id="c", game="tolp", user_id="u0", name="Ann", computers=3,
                             levels=["strong", "easy"], seed="pool-table")
        await service.start("c", "u0")
        await play_until(service, "c", 5)
        asked = await computer_moves_replayed(db, service, "c")
        assert asked >= 12
        assert pool.submitted == 1 + asked and pool.in_threads == 0  # the warm-up, then every decision
    finally:
        pool.close()


async def computer_rows_after(db: Database, service: GameService, channel: str, ply: int) -> int:
    record = await service.latest(channel)
    async with db.reading() as conn:
        rows = await repo.moves(conn, record.id)
    return sum(1 for p, seat, _, _ in rows if p > ply and record.seats[seat].is_computer)


async def test_a_dead_worker_is_replaced_and_the_move_still_happens(db: Database) -> None:
    pool = ComputerPool(1)
    try:
        [first] = await pool.start()
        service = GameService(db)
        service.computer_executor = pool
        await service.create(guild_id="g", channel_id="c", game="zlodej", user_id="u0", name="Ann", computers=2,
                             levels=["strong"], seed="pool-dies")
        await service.start("c", "u0")
        before = (await service.require_current("c")).ply
        os.kill(first, signal.SIGKILL)
        for _ in range(40):  # the human's turns until the computers answered a few times
            if await computer_rows_after(db, service, "c", before) >= 4:
                break
            await play_until(service, "c", 1)
        assert await computer_rows_after(db, service, "c", before) >= 4
        assert pool.restarts == 1
        assert pool.worker_pids() and first not in pool.worker_pids()
        assert pool.submitted >= 2  # the new worker decides again
        assert await computer_moves_replayed(db, service, "c") >= 4
    finally:
        pool.close()


async def test_the_computers_answers_are_searched_before_the_moves_transaction(db: Database) -> None:
    """At a table with computer seats the service searches the computers' answers to a player's
    move before the move's transaction takes the writer; inside it every answer is found made
    (searched once, ahead: the pool saw no second search), and the log replays with them."""
    pool = ComputerPool(1)
    try:
        await pool.start()
        service = GameService(db)
        service.computer_executor = pool
        await service.create(guild_id="g", channel_id="c", game="zlodej", user_id="u0", name="Ann", computers=2,
                             levels=["strong", "normal"], seed="foreseen")
        await service.start("c", "u0")
        started = (await service.require_current("c")).ply  # the computers' moves at the start were not foreseen
        foresight = service.pipeline.foresight
        await play_until(service, "c", 12)
        answers = await computer_rows_after(db, service, "c", started)
        assert answers >= 4
        assert foresight.hits == answers  # every answer found made inside the move's transaction
        assert answers <= pool.submitted - 1 <= answers + 2  # none searched twice; a search ahead rarely wasted
        assert await computer_moves_replayed(db, service, "c") >= answers
    finally:
        pool.close()


def test_a_foreseen_decision_is_used_only_in_the_very_same_position() -> None:
    from bot.services.computers import Foresight

    foresight = Foresight()
    foresight.put(7, 3, 1, "strong", "position A", "draw")
    assert foresight.take(7, 3, 1, "strong", "position B") is None  # another position: decided anew
    foresight.put(7, 3, 1, "strong", "position A", "draw")
    assert foresight.take(7, 3, 1, "normal", "position A") is None  # another level
    assert foresight.take(7, 3, 1, "strong", "position A") == "draw"
    assert foresight.take(7, 3, 1, "strong", "position A") is None  # taken once
