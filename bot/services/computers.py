"""The computer seats' decisions: which player (the registry's, by game and level), with which
stream of randomness (seeded from the game and the ply, so a replay decides alike), and where
they run: off the event loop, in the computers' own worker processes (``ComputerPool``, started
by the bot with ``Settings.computer_processes`` workers) or, without a pool, a worker thread.

A strong computer searches for up to a few hundred milliseconds; in a thread of the bot's process
that search holds the interpreter lock against the event loop that acknowledges interactions.
In a worker process it does not: the position goes there pickled and the action's canonical
string comes back. The decision is the same wherever it is made (``decide_now`` is a pure
function of its arguments; ``tests/services/test_computer_pool.py`` checks it across processes
with another hash seed). A worker that dies is replaced; the decision it was making is made again
in a thread, and after ``ComputerPool.RESTARTS`` replacements the pool gives up and every
decision runs in a thread (each step logged once).
"""
from __future__ import annotations

import asyncio
import json
import logging
import multiprocessing
import os
import threading
from collections import OrderedDict
from collections.abc import Callable
from concurrent.futures import BrokenExecutor, Executor, Future, ProcessPoolExecutor, ThreadPoolExecutor
from functools import partial
from typing import Any

from bot.engine import registry
from bot.engine.core import Game, Seat
from bot.errors import GameMasterError, IllegalAction
from bot.services.renders import _bind_to_parent
from bot.storage.games import GameRow

log = logging.getLogger(__name__)


def level_of(record: GameRow, seat: Seat) -> str:
    """The level the computer plays ``seat`` at (the seat's own, else the table's default)."""
    return record.seats[seat].level or registry.DEFAULT_LEVEL


def decide_now(game_name: str, level: str, state: Any, seat: Seat, seed: str, ply: int) -> str:
    """The computer's action at ``ply`` as its canonical string (picklable both ways, so it can
    run in another process)."""
    game = registry.get(game_name)
    legal = list(game.legal_actions(state, seat))
    if not legal:
        raise IllegalAction("error.no_legal_action")
    rng = registry.computer_rng(seed, ply, seat)
    return str(registry.computer(game_name, level)(state, seat, legal, rng))


def _warm() -> int:
    """Import every game package (engines and computers) in a worker before its first decision."""
    registry.load_all()
    return os.getpid()


class ComputerPool(Executor):
    """Worker processes (spawned: nothing inherited from the bot's threads or sockets) where the
    computer seats decide. Unlike the renderers they keep the bot's CPU priority: a decision is
    made inside the move's transaction (on SQLite the one writer waits for it), so a worker at a
    lower priority would, on a busy machine, hold every table's moves behind it (measured:
    docs/bench/aiops.md). An ``Executor``: the pipeline hands it to ``run_in_executor``. A game
    the workers cannot import (one a test registered in the bot's process only) decides in a
    thread."""

    RESTARTS = 3  # workers replaced after dying before the pool gives up on processes

    def __init__(self, processes: int = 1) -> None:
        if processes < 1:
            raise ValueError("a computer pool needs at least one worker process")
        self.processes = processes
        self.submitted = 0  # decisions handed to the workers
        self.in_threads = 0  # decisions made in a thread instead (a dead worker, a game of the bot's only)
        self.restarts = 0
        self._lock = threading.Lock()
        self._pool: ProcessPoolExecutor | None = self._new_pool()
        self._threads = ThreadPoolExecutor(2, thread_name_prefix="computer")
        self._importable = {plugin.name for plugin in registry.plugins()
                            if type(plugin.engine).__module__.startswith("bot.games.")}

    def _new_pool(self) -> ProcessPoolExecutor:
        return ProcessPoolExecutor(self.processes, mp_context=multiprocessing.get_context("spawn"),
                                   initializer=_bind_to_parent, initargs=(0,))

    async def start(self) -> list[int]:
        """Start every worker with the games imported (their process ids)."""
        loop = asyncio.get_running_loop()
        pids = await asyncio.gather(*(loop.run_in_executor(self, _warm) for _ in range(self.processes)))
        return sorted(set(pids))

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Future[Any]:
        call = partial(fn, *args, **kwargs)
        if self._pool is not None and self._in_workers(call):
            try:
                future = self._pool.submit(call)
            except BrokenExecutor:
                self._replace()
            else:
                with self._lock:
                    self.submitted += 1
                return future
        with self._lock:
            self.in_threads += 1
        return self._threads.submit(call)

    def _in_workers(self, call: partial[Any]) -> bool:
        """Whether the workers know the game a decision is for (they import bot.games only)."""
        if call.func is not decide_now:
            return True
        return bool(call.args) and call.args[0] in self._importable

    def broken(self) -> None:
        """A decision's worker died under it: replace the pool (the caller decides again in a thread)."""
        self._replace()

    def _replace(self) -> None:
        with self._lock:
            pool = self._pool
            if pool is None or not getattr(pool, "_broken", True):
                return  # already replaced by another decision
            if self.restarts >= self.RESTARTS:
                log.error("computer worker processes died %d times; computers decide in threads from now on",
                          self.restarts + 1)
                self._pool = None
            else:
                self.restarts += 1
                log.warning("a computer worker process died; starting another (%d of %d)",
                            self.restarts, self.RESTARTS)
                self._pool = self._new_pool()
        pool.shutdown(wait=False, cancel_futures=True)

    def worker_pids(self) -> list[int]:
        """The worker processes alive now (tests, the operator)."""
        pool = self._pool
        processes = getattr(pool, "_processes", None) or {}
        return sorted(pid for pid, process in dict(processes).items() if process.is_alive())

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        with self._lock:
            pool, self._pool = self._pool, None
        if pool is not None:
            pool.shutdown(wait=wait, cancel_futures=cancel_futures)
        self._threads.shutdown(wait=wait, cancel_futures=cancel_futures)

    def close(self) -> None:
        self.shutdown(wait=True, cancel_futures=True)


def fingerprint(game: Game[Any], state: Any) -> str:
    """The whole position as its snapshot: two states with one snapshot are the same position
    (the bot reloads a game from it), so a computer decides alike in both."""
    return json.dumps(game.dump(state), sort_keys=True, separators=(",", ":"))


class Foresight:
    """Computer decisions made ahead, outside the move's transaction (``foresee``): the
    computers' answers to a player's move are searched before the move's transaction takes the
    database's writer (SQLite has one), and inside it ``decide`` only looks them up. A decision
    is found only for the same table, ply, seat and level in the very same position (its
    snapshot), so it is the one ``decide_now`` would make there; any other position (another
    move came first, a standing order answered) is decided anew."""

    SIZE = 512

    def __init__(self, searches: int = 1) -> None:
        self._memo: OrderedDict[tuple[int, int, Seat, str], tuple[str, str]] = OrderedDict()
        self.hits = 0
        self.foreseen = 0
        # tables searched ahead at once: more would queue in the workers (no back-pressure, as the
        # writer gave), and the decisions of moves already in their transaction would wait behind them
        self.searches = searches
        self.searching = 0
        self.skipped = 0

    def put(self, game_id: int, ply: int, seat: Seat, level: str, position: str, action: str) -> None:
        self._memo[(game_id, ply, seat, level)] = (position, action)
        self._memo.move_to_end((game_id, ply, seat, level))
        self.foreseen += 1
        while len(self._memo) > self.SIZE:
            self._memo.popitem(last=False)

    def take(self, game_id: int, ply: int, seat: Seat, level: str, position: str) -> str | None:
        found = self._memo.pop((game_id, ply, seat, level), None)
        if found is None or found[0] != position:
            return None
        self.hits += 1
        return found[1]

    def expects(self, game_id: int, ply: int) -> bool:
        """Whether any decision of ``game_id`` at ``ply`` was foreseen (cheap: before fingerprinting)."""
        return any(key[0] == game_id and key[1] == ply for key in reversed(self._memo))


async def foresee(foresight: Foresight, game: Game[Any], state: Any, record: GameRow, seat: Seat, action: str,
                  executor: Executor | None = None, most: int = 8) -> None:
    """Search the computers' answers to ``seat`` playing ``action`` in ``state`` (the committed
    position of ``record``, not changed here), on a copy, before the move's transaction: the
    computer seats that would act next, while only computers must act, up to ``most`` moves.
    Best effort: a move the engine refuses, or a position where a human may act, ends it."""
    computers = {s.seat for s in record.seats if s.is_computer}
    if not computers or seat in computers:
        return
    if foresight.searching >= foresight.searches:  # the workers are busy: the transaction decides
        foresight.skipped += 1
        return
    foresight.searching += 1
    try:
        await _search(foresight, game, state, record, seat, action, computers, executor, most)
    finally:
        foresight.searching -= 1


async def _search(foresight: Foresight, game: Game[Any], state: Any, record: GameRow, seat: Seat, action: str,
                  computers: set[Seat], executor: Executor | None, most: int) -> None:
    try:
        position = game.load(game.dump(state))
        game.apply(position, seat, game.parse_action(action))
    except GameMasterError:
        return
    loop = asyncio.get_running_loop()
    ply = record.ply + 1
    for _ in range(most):
        if game.outcome(position) is not None or game.waits_for(position) - computers:
            return
        acting = sorted(game.watchers(position) & computers) or sorted(game.to_act(position) & computers)
        if not acting:
            return
        mover, level = acting[0], level_of(record, acting[0])
        before = fingerprint(game, position)
        call = partial(decide_now, game.name, level, position, mover, record.seed, ply)
        try:
            text = await loop.run_in_executor(executor, call)
            game.apply(position, mover, game.parse_action(text))
        except (GameMasterError, BrokenExecutor):
            return
        foresight.put(record.id, ply, mover, level, before, text)
        ply += 1


async def decide(game: Game[Any], state: Any, record: GameRow, seat: Seat,
                 executor: Executor | None = None, foresight: Foresight | None = None) -> Any:
    """The computer's action for ``seat`` in the table's current position, decided off the loop
    (in ``executor``: a ``ComputerPool``, else a worker thread), or found in ``foresight``."""
    level = level_of(record, seat)
    if foresight is not None and foresight.expects(record.id, record.ply):
        text = foresight.take(record.id, record.ply, seat, level, fingerprint(game, state))
        if text is not None:
            return game.parse_action(text)
    call = partial(decide_now, game.name, level, state, seat, record.seed, record.ply)
    loop = asyncio.get_running_loop()
    try:
        text = await loop.run_in_executor(executor, call)
    except BrokenExecutor:  # the worker died while deciding: decide again here, off the loop
        if isinstance(executor, ComputerPool):
            executor.broken()
        log.warning("a computer decision's worker died; deciding %s ply %d in a thread", game.name, record.ply)
        text = await loop.run_in_executor(None, call)
    return game.parse_action(text)
