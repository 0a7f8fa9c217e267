"""Bot processes on SQLite and PostgreSQL: moves per second and interaction-to-board latency at the
same offered load, and start-up time and memory with many stored games.

    python -m bench.bench_cluster [--tables 8] [--seconds 15] [--games 100000]
    python -m bench.bench_cluster --budget 200 --seconds 10   # two shards within one token's 50/s

Every configuration runs real ``gamemaster run`` processes against the loopback fake Discord:
one process on SQLite, one on PostgreSQL, two (one shard each) on PostgreSQL. The offered load is
the same in each: ``--tables`` Tölp tables (half in a server of each shard), each moving again as
soon as its last board arrived (closed loop). Latency runs from the interaction leaving the fake
gateway to the board message reaching the fake REST API. Then, with ``--games`` finished games
stored, how long ``gamemaster run`` takes from start to IDENTIFY and its resident memory.
PostgreSQL runs durable (fsync on), in a throwaway server (tests/pgserver.py).
"""
from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import tempfile
import time
from pathlib import Path

from bot.services.table import GameService
from bot.storage.db import Database
from tests.cluster import Cluster, quiet
from tests.fakediscord import FakeDiscord, Recorded, shard_of
from tests.pgserver import PostgresServer


def is_board(fake: FakeDiscord, request: Recorded, channel: str) -> bool:
    """A board posted or edited in ``channel``: by REST, or through the webhook of an interaction
    made there (a board riding its mover's interaction; not the mover's private answer)."""
    if not request.files or request.method not in ("POST", "PATCH"):
        return False
    if f"/channels/{channel}/messages" in request.path:
        return True
    parts = request.route.split("/")
    interaction = fake._by_token.get(parts[3]) if parts[1] == "webhooks" and len(parts) > 3 else None
    return interaction is not None and interaction.payload["channel_id"] == channel and \
        not (request.json or {}).get("flags", 0) & 64


async def _table(fake: FakeDiscord, service: GameService, channel: dict, users: list[dict],
                 deadline: float, latencies: list[float]) -> int:
    """Closed loop at one table: a legal move, wait for its board, again, until the deadline."""
    by_id = {u["id"]: u for u in users}
    moves = 0
    while time.monotonic() < deadline:
        record = await service.current(channel["id"])
        if record is None or record.status != "active":
            break
        seat = min(service.to_act(record))
        legal = service.legal_texts(record, seat)
        action = next((a for a in legal if a.startswith("play")), legal[0])
        verb, _, rest = action.partition(" ")
        options = {"cards": rest} if verb in ("play", "give") else {"rank": rest} if verb == "ask" else \
            {"ranks": rest} if verb == "claim" else {}
        payload = fake.slash(by_id[record.user_of(seat)], f"tolp {verb}", channel=channel, **options)
        since = len(fake.requests)
        start = time.monotonic()
        await fake.dispatch("INTERACTION_CREATE", payload)
        await fake.wait_request(lambda r: is_board(fake, r, channel["id"]), timeout=60, since=since)
        latencies.append((time.monotonic() - start) * 1000)
        moves += 1
        while (await service.current(channel["id"])).ply == record.ply:  # type: ignore[union-attr]
            await asyncio.sleep(0.01)
    return moves


async def _throughput(url: str, processes: int, tables: int, seconds: float) -> dict[str, float]:
    fake = FakeDiscord()
    await fake.start()
    guilds = [fake.guild_id, fake.add_guild("Second", shard=1 - shard_of(fake.guild_id, 2), shard_count=2)]
    channels = [fake.add_channel(f"table{n}", guild=guilds[n % 2]) for n in range(tables)]
    players = [fake.add_members(2, prefix=f"t{n}p") for n in range(tables)]
    with tempfile.TemporaryDirectory() as folder:
        cluster = Cluster(fake, url, Path(folder))
        db = await Database(url).connect()
        service = GameService(db)
        try:
            for shard in range(processes):
                await cluster.start(shard, processes, GAMEMASTER_SCHEDULER_SECONDS="60")
            for channel, (a, b) in zip(channels, players, strict=True):
                for user, command, options in ((a, "game new", {"game": "tolp"}), (b, "game join", {}),
                                               (a, "game start", {})):
                    await fake.interact(None, fake.slash(user, command, channel=channel, **options), gateway=True,
                                        timeout=60)
                while (await service.current(channel["id"])).status != "active":  # type: ignore[union-attr]
                    await asyncio.sleep(0.01)
            await quiet(fake)
            latencies: list[float] = []
            start = time.monotonic()
            moves = await asyncio.gather(*(_table(fake, service, c, p, start + seconds, latencies)
                                           for c, p in zip(channels, players, strict=True)))
            elapsed = time.monotonic() - start
            latencies.sort()
            return {"moves_per_s": sum(moves) / elapsed, "p50_ms": statistics.median(latencies),
                    "p99_ms": latencies[min(len(latencies) - 1, int(len(latencies) * 0.99))],
                    "moves": float(sum(moves))}
        finally:
            await cluster.stop()
            await db.close()
            await fake.stop()


async def _budget(url: str, tables: int, seconds: float) -> dict[str, float]:
    """Discord's global limit is one token's, whatever the processes: two shard processes on one
    PostgreSQL each start ``tables`` / 2 Tölp tables (every start DMs its players their first hands,
    which no interaction carries), all within ``seconds``, so together they want more than 50
    counted calls a second; the shared budget in the database must hold both to 50 together."""
    fake = FakeDiscord()
    await fake.start()
    guilds = [fake.guild_id, fake.add_guild("Second", shard=1 - shard_of(fake.guild_id, 2), shard_count=2)]
    channels = [fake.add_channel(f"burst{n}", guild=guilds[n % 2]) for n in range(tables)]
    players = [fake.add_members(3, prefix=f"b{n}p") for n in range(tables)]
    with tempfile.TemporaryDirectory() as folder:
        cluster = Cluster(fake, url, Path(folder))
        db = await Database(url).connect()
        try:
            for shard in range(2):
                await cluster.start(shard, 2, GAMEMASTER_SCHEDULER_SECONDS="60")
            await quiet(fake)
            counted_before = len(fake.counted_requests)

            async def open_table(n: int) -> None:
                await asyncio.sleep(n * seconds / tables)
                a, b, c = players[n]
                for user, command, options in ((a, "game new", {"game": "tolp"}), (b, "game join", {}),
                                               (c, "game join", {}), (a, "game start", {})):
                    payload = fake.slash(user, command, channel=channels[n], **options)
                    answer = await fake.interact(None, payload, gateway=True, timeout=120)
                    if not answer.ok:
                        raise AssertionError(f"{command} at table {n}: {answer.text}")
                    # deferred before its write: committed once its placeholder is replaced or removed
                    await fake.wait_request(lambda r, token=payload["token"]: r.route.startswith("/webhooks/")
                                            and token in r.path, timeout=120)
            start = time.monotonic()
            await asyncio.gather(*(open_table(n) for n in range(tables)))
            while True:  # every start delivered, its DMs too
                row = await db.fetchone("SELECT COUNT(*) FROM announcements WHERE done_at IS NULL")
                games = await db.fetchone("SELECT COUNT(*) FROM games WHERE status = 'active'")
                if row is not None and games is not None and row[0] == 0 and games[0] == tables:
                    break
                if time.monotonic() - start > seconds + 120:
                    raise TimeoutError(f"the starts were not all delivered: {row and row[0]} announcements "
                                       f"pending, {games and games[0]} of {tables} games active")
                await asyncio.sleep(0.2)
            elapsed = time.monotonic() - start
            counted = fake.counted_requests[counted_before:]
            times = sorted(r.at for r in counted)
            peak = max((sum(1 for u in times[i:i + 200] if u - t < 1.0) for i, t in enumerate(times)), default=0)
            shards = {r.authorization for r in counted}
            return {"counted": float(len(counted)), "peak": float(peak), "seconds": elapsed,
                    "global429": float(len(fake.global_violations())), "tokens": float(len(shards))}
        finally:
            await cluster.stop()
            await db.close()
            await fake.stop()


async def _fill(url: str, games: int) -> None:
    """``games`` finished Tölp games with their seats and a move each, in batches."""
    from bot.storage import games as repo

    db = await Database(url).connect()
    try:
        state = json.dumps({"note": "a stored finished game"})
        batch = 5000
        for first in range(0, games, batch):
            async with db.transaction() as conn:
                for n in range(first, min(first + batch, games)):
                    game_id = await repo.insert(conn, guild_id="1", channel_id=f"c{n}", game="tolp", creator_id="1",
                                                options={}, seed=f"seed{n}", locale="en", turn_seconds=86400)
                    await repo.add_seat(conn, game_id, 0, "1", "Ann")
                    await repo.add_seat(conn, game_id, 1, "2", "Bo")
                    await repo.append_move(conn, game_id, 1, 0, "pass")
                    await conn.execute("UPDATE games SET status = 'finished', state = ? WHERE id = ?",
                                       (state, game_id))
    finally:
        await db.close()


def _rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


async def _startup(url: str) -> dict[str, float]:
    fake = FakeDiscord()
    await fake.start()
    with tempfile.TemporaryDirectory() as folder:
        cluster = Cluster(fake, url, Path(folder))
        try:
            start = time.monotonic()
            process = await cluster.start(0, 1)
            elapsed = time.monotonic() - start
            await quiet(fake)
            return {"startup_s": elapsed, "rss_mb": _rss_mb(process.pid)}
        finally:
            await cluster.stop()
            await fake.stop()


async def main(tables: int, seconds: float, games: int, budget: int = 0) -> None:
    print("Bot processes against the loopback fake Discord; shared, busy machine: numbers are noisy.")
    with PostgresServer(durable=True) as server, tempfile.TemporaryDirectory() as folder:
        if budget:
            result = await _budget(server.create_database(), budget, seconds)
            print(f"2 shard processes, one PostgreSQL, {budget} tables started within {seconds:.0f} s: "
                  f"{result['counted']:.0f} counted calls in {result['seconds']:.1f} s, at most "
                  f"{result['peak']:.0f} in any second together (Discord allows 50), "
                  f"{result['global429']:.0f} global-limit violations")
            return
        configs = [("1 process, SQLite", f"sqlite:///{folder}/load.sqlite3", 1),
                   ("1 process, PostgreSQL", server.create_database(), 1),
                   ("2 processes, PostgreSQL", server.create_database(), 2)]
        for name, url, processes in configs:
            result = await _throughput(url, processes, tables, seconds)
            print(f"{name:26} {result['moves_per_s']:6.1f} moves/s  p50 {result['p50_ms']:6.0f} ms  "
                  f"p99 {result['p99_ms']:6.0f} ms  ({result['moves']:.0f} moves, {tables} tables)")
        for name, url in (("SQLite", f"sqlite:///{folder}/many.sqlite3"), ("PostgreSQL", server.create_database())):
            await _fill(url, games)
            result = await _startup(url)
            print(f"start-up with {games} stored games, {name:10}: {result['startup_s']:.1f} s to IDENTIFY, "
                  f"{result['rss_mb']:.0f} MB resident")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=8)
    parser.add_argument("--seconds", type=float, default=15)
    parser.add_argument("--games", type=int, default=100_000)
    parser.add_argument("--budget", type=int, default=0,
                        help="instead: two shard processes start this many tables within --seconds and share "
                             "Discord's global limit through PostgreSQL (#23)")
    args = parser.parse_args()
    asyncio.run(main(args.tables, args.seconds, args.games, args.budget))
