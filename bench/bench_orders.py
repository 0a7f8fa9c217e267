"""What standing orders cost (issue #25.2): the median CPU time and the SQLite statements of one Monopol
move through the service (two players) with no orders at the table and with orders that stand but
do not act on most moves (the pipeline reads the table's orders once per change and decides for the
seats to act); an auction fought out by two maximum-bid orders (moves and milliseconds of the one
transaction that holds them all); and the CPU time of one decision from an observation.

Run (from the repository root): .venv/bin/python -m bench.bench_orders
"""
from __future__ import annotations

import asyncio
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

import aiosqlite

from bench.bench_service import SENT, _counting
from bench.timing import median_cpu_ms
from bot.engine import registry
from bot.engine.orders import decide
from bot.services.orders import StandingOrders
from bot.services.table import GameService
from bot.storage.db import Database

MONOPOL = registry.get("monopol")
ACTIONS = {"roll": "roll", "buy": "buy", "end": "end"}


async def one_game(db: Database, channel: str, orders: dict[str, Any] | None, moves: int
                   ) -> tuple[list[float], list[int]]:
    service, standing = GameService(db), StandingOrders(db)
    await service.create(guild_id="g", channel_id=channel, game="monopol", user_id="u0", name="A",
                         options={"max_rounds": 30}, seed=f"bench-orders-{channel}")
    await service.join(channel, "u1", "B")
    await service.start(channel, "u0")
    record = await service.current(channel)
    assert record is not None
    for user in ("u0", "u1") if orders else ():
        for key, value in orders.items():
            await standing.set(record.id, user, None, key, value)
    timings: list[float] = []
    trips: list[int] = []
    while len(timings) < moves and (record := await service.current(channel)) is not None:
        to_act = sorted(service.to_act(record))
        if not to_act:
            break
        seat = to_act[0]
        state = MONOPOL.load(record.state or {})
        action = str(registry.computer_action(MONOPOL, state, seat))
        start, sent = time.process_time(), SENT[0]
        await service.act(user_id=f"u{seat}", action=action, channel_id=channel)
        timings.append((time.process_time() - start) * 1000)  # CPU of the process (its SQLite thread too)
        trips.append(SENT[0] - sent)
    return timings, trips


async def per_move(moves: int = 300, chunk: int = 25) -> None:
    """Games with and without orders alternate in chunks, so a busy machine weighs on both alike."""
    aiosqlite.Connection.execute = _counting(aiosqlite.Connection.execute)  # type: ignore[method-assign]
    aiosqlite.Connection.execute_fetchall = _counting(aiosqlite.Connection.execute_fetchall)  # type: ignore[method-assign]
    cases = (("no orders", None), ("orders standing (only_pass, a max bid of 10)", {"only_pass": True, "max_bid": 10}))
    results: dict[str, tuple[list[float], list[int]]] = {label: ([], []) for label, _ in cases}
    with tempfile.TemporaryDirectory() as folder:
        async with Database(Path(folder) / "a.sqlite3") as plain, Database(Path(folder) / "b.sqlite3") as ordered:
            game = 0
            while len(results[cases[0][0]][0]) < moves:
                for (label, orders), db in zip(cases, (plain, ordered), strict=True):
                    timings, trips = await one_game(db, f"c{game}", orders, chunk)
                    results[label][0].extend(timings)
                    results[label][1].extend(trips)
                game += 1
    for label, (timings, trips) in results.items():
        print(f"Monopol move through the service, {label}: median {statistics.median(timings):.2f} ms CPU, "
              f"{statistics.mean(trips):.1f} SQLite statements per move ({len(timings)} moves)")


async def auction(cap_a: int = 600, cap_b: int = 590) -> None:
    """Two orders fight an auction out: how many moves the decline's one transaction holds."""
    with tempfile.TemporaryDirectory() as folder:
        async with Database(Path(folder) / "bench.sqlite3") as db:
            service, standing = GameService(db), StandingOrders(db)
            await service.create(guild_id="g", channel_id="a", game="monopol", user_id="u0", name="A",
                                 seed="orders-1", options={"start_money": 2000})
            await service.join("a", "u1", "B")
            await service.start("a", "u0")
            record = await service.current("a")
            assert record is not None
            await standing.set(record.id, "u0", None, "max_bid", cap_a)
            await standing.set(record.id, "u1", None, "max_bid", cap_b)
            await service.act(user_id="u0", action="roll", channel_id="a")
            before = len(await service.moves(record.id))
            start = time.process_time()
            await service.act(user_id="u0", action="decline", channel_id="a")
            took = (time.process_time() - start) * 1000
            made = len(await service.moves(record.id)) - before - 1
            print(f"An auction between two maximum-bid orders ({cap_a} and {cap_b} kr): {made} order moves "
                  f"in the decline's one transaction, {took:.0f} ms CPU")


def decisions() -> None:
    state = MONOPOL.new(4, MONOPOL.resolve_options({}), "orders-1")
    seat = state.turn
    MONOPOL.apply(state, seat, MONOPOL.parse_action("roll"))  # on a deed for sale: the buy order decides
    MONOPOL.apply(state, seat, MONOPOL.parse_action("decline"))  # an auction: every bidder's order decides
    seat = min(MONOPOL.to_act(state))
    obs = MONOPOL.observe(state, seat)
    legal = [str(a) for a in MONOPOL.legal_actions(state, seat)]
    orders = {"max_bid": 300, "group_max": {"red": 400}, "decline_from": "all", "buy_up_to": 250, "auto_end": True,
              "only_pass": True}
    assert decide("monopol", orders, obs, legal, seat) is not None
    ms = median_cpu_ms(lambda: decide("monopol", orders, obs, legal, seat), runs=2000)
    print(f"One Monopol decision from an observation (an auction bid): {ms * 1000:.1f} µs CPU")

    def step() -> Any:  # what the pipeline's step does for one seat with orders: observe, legal moves, decide
        return decide("monopol", orders, MONOPOL.observe(state, seat),
                      [str(a) for a in MONOPOL.legal_actions(state, seat)], seat)
    print(f"  with the seat's observation and legal moves computed (the pipeline's step per seat): "
          f"{median_cpu_ms(step, runs=500) * 1000:.0f} µs CPU")
    tolp = registry.get("tolp")
    tstate = tolp.new(4, tolp.resolve_options({}), "bench-orders")
    seat = min(tolp.to_act(tstate))
    tolp.apply(tstate, seat, tolp.parse_action(str(tolp.legal_actions(tstate, seat)[-1])))  # a trick to beat
    seat = min(tolp.to_act(tstate))
    tobs, tlegal = tolp.observe(tstate, seat), [str(a) for a in tolp.legal_actions(tstate, seat)]
    ms = median_cpu_ms(lambda: decide("tolp", {"tolp_pass": "natural", "only_pass": True}, tobs, tlegal, seat),
                       runs=2000)
    print(f"One Tölp decision from an observation (a trick on the table, {len(tlegal)} legal moves): "
          f"{ms * 1000:.1f} µs CPU")


async def main() -> None:
    decisions()
    await auction()
    await per_move()


if __name__ == "__main__":
    asyncio.run(main())
