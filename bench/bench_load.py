"""Load benchmark: the real bot (`python -m bot run`) as a subprocess against the loopback fake
Discord over the gateway. N Tölp tables (4 players each) are stored first; then moves are offered
at R moves/s (one move in flight per table, as players wait for their turn) and measured from
the moment the gateway delivers the interaction:

- ack p50/p99: until the interaction's first response (the defer) reaches Discord;
- missed: first responses later than Discord's 3 s window; unanswered: none at all;
- board p50/p99: until the table's board image is posted or edited;
- done/s: moves finished (the mover heard back) per second of the run;
- REST/move: REST calls per finished move that count against Discord's global limit (every
  route but the interaction endpoints: the callback, the follow-ups and edits of the
  interaction's own messages); peak/s: the most counted calls the fake received in any second;
  global 429: the fake's global-limit violations (Discord allows 50 counted calls per second per
  token: must be 0);
- CPU (cores busy) and RSS of the bot and its render workers, the CPU of this process (the
  fake Discord: when it nears one core, the fake, not the bot, limits the rate) and of everything
  else on the machine (other processes: on a shared machine they take cores from the bot).

Below the table: the highest offered rate with ack p99 ≤ 100 ms (and nothing missed or
unanswered), and the highest rate sustained (done ≥ 95 % of offered, board p99 ≤ 1 s), per table
count, with what limited the next rate up (the bot's CPU, the fake's, other processes', or none of
them: then the wait is serial — the writer's lock, the event loop).

The fake Discord runs in this process and takes a share of the same cores, as the issue's
measurements did. Run from the repository root:

    .venv/bin/python -m bench.bench_load                 # 200 and 1,000 tables, 10 … 200 moves/s
    .venv/bin/python -m bench.bench_load --quick         # under a minute
    .venv/bin/python -m bench.bench_load --games 1000 --rates 50,100,200 --seconds 20
    .venv/bin/python -m bench.bench_load --games 50 --rates 10,25 --seconds 10 --compare-viewers 1000
                                                         # acks without and with 1,000 live web viewers
    .venv/bin/python -m bench.bench_load --burst 1000 --burst-seconds 60   # bursts (#23): 1,000 starts
    .venv/bin/python -m bench.bench_load --games 200 --rates 10,25,50 --compare-computers strong
                                                         # acks without and with strong computers (#22)

With ``--computers LEVEL`` a share of the tables (``--computer-share``, a quarter by default) seat
one player and three computers at LEVEL: after each of that player's moves the three computers
answer within the move (in the bot's computer worker process: ``--computer-processes``, 0 = a
thread of the bot's process). The table gains "computer moves/s" (the computers' answers per
second); ``--compare-computers LEVEL`` runs every table count and rate without and with them and
prints the acks side by side (the #22 goal: ack p99 unchanged, ≤ 100 ms).

Burst mode opens the tables the way players do, over the gateway: /game new, two /game join, /game
start per table, the tables' starts spread over the given seconds, and reports how long until every
table's first board was posted and until everything (the first hands by DM too) was delivered, the
board latency after each start, ack p99, and the counted calls (peak/s, global 429).

It prints a markdown table (docs/benchmarks.md, "Under load").
"""
from __future__ import annotations

import argparse
import asyncio
import gc
import json
import os
import random
import socket
import sqlite3
import sys
import tempfile
import time
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from aiohttp import web

from bot.engine import registry
from bot.i18n import normalize
from bot.services.players import Players
from bot.services.table import GameService
from bot.storage.db import Database
from bot.web.links import table_address
from tests.discord.helpers import tolp_command
from tests.fakediscord import FakeDiscord, Recorded, StoredMessage

PLAYERS = 4
DEADLINE = 3.0
CLOCK_TICKS = os.sysconf("SC_CLK_TCK")


class LoadFake(FakeDiscord):
    """The fake Discord, noting when the measured things happen and forgetting image bytes once
    they were checked (a long run would otherwise hold every PNG in memory), and keeping no
    earlier versions of edited messages (a copy of the whole message per edit, about a quarter of
    the fake's CPU at 200 moves/s: CPU the bot's process then lacks on the same two cores)."""

    keep_history = False

    def __init__(self) -> None:
        super().__init__()
        self.acked_at: dict[str, float] = {}
        self.done_at: dict[str, float] = {}
        self.viewed_at: dict[str, float] = {}  # the mover's own view (an ephemeral follow-up)
        self.done: dict[str, asyncio.Event] = {}
        self.boards: dict[str, list[float]] = defaultdict(list)
        self.game_channels: set[str] = set()

    async def _read(self, request: web.Request) -> Recorded:
        rec = await super()._read(request)
        now = time.monotonic()
        route, parts = rec.route, rec.route.split("/")
        body = rec.json if isinstance(rec.json, dict) else {}  # PUT /commands sends a list
        ephemeral = bool(body.get("flags", 0) & 64)
        if route.endswith("/callback") and parts[1] == "interactions":
            self.acked_at.setdefault(parts[2], now)
        elif parts[1] == "webhooks" and len(parts) > 3:
            interaction = self._by_token.get(parts[3])
            if interaction is not None and interaction.id not in self.done_at:
                self.done_at[interaction.id] = now
                if interaction.id in self.done:
                    self.done[interaction.id].set()
            if interaction is not None and ephemeral:
                self.viewed_at.setdefault(interaction.id, now)
        if rec.files and rec.method in ("POST", "PATCH") and not ephemeral:
            channel = parts[2] if route.startswith("/channels/") else self._interaction_channel(parts)
            if channel in self.game_channels:  # a board posted or edited, by REST or an interaction's webhook
                self.boards[channel].append(now)
        return rec

    def _interaction_channel(self, parts: list[str]) -> str | None:
        interaction = self._by_token.get(parts[3]) if parts[1] == "webhooks" and len(parts) > 3 else None
        return interaction.payload["channel_id"] if interaction is not None else None

    def _create(self, ch: dict, body: dict, files: list[Any], kind: str, **kw: Any) -> StoredMessage:
        message = super()._create(ch, body, files, kind, **kw)
        for stored in files:
            stored.data = b""
        return message

    def _edit(self, msg: StoredMessage, body: dict, files: list[Any]) -> StoredMessage:
        message = super()._edit(msg, body, files)
        for stored in files:
            stored.data = b""
        return message


@dataclass
class Table:
    game_id: int
    channel: str
    users: list[dict[str, Any]]
    state: Any
    ply: int
    busy: bool = False
    over: bool = False
    lost: bool = False  # a move was not answered or refused: its mirror is not known from there on
    computers: bool = False  # seats 1–3 are computers: the mirror is read back after each move


@dataclass
class Move:
    interaction: str
    channel: str
    sent: float


@dataclass
class Result:
    games: int
    rate: int
    seconds: float
    moves: list[Move] = field(default_factory=list)
    finished: int = 0
    refused: int = 0
    skipped: int = 0
    counted: int = 0
    peak: int = 0  # the most counted calls in any second of the run
    counted_routes: dict[str, int] = field(default_factory=dict)  # counted calls by method and route shape
    global_violations: int = 0
    cpu: float = 0.0
    rss_mb: float = 0.0
    fake_cpu: float = 0.0
    other_cpu: float = 0.0
    workers_cpu: float = 0.0  # the render workers' share of ``cpu``
    computer_moves: int = 0  # the computers' answers within the measured moves


async def fill(path: Path, fake: LoadFake, games: int, computers: str | None = None,
               share: float = 0.0) -> list[Table]:
    """``games`` started Tölp tables, each in its own channel with four members; with
    ``computers`` (a level), every table whose number falls in ``share`` seats one member and
    three computers at that level instead (spread evenly: table n when ⌊n·share⌋ grows)."""
    tolp = registry.get("tolp")
    tables = []
    async with Database(path) as db:
        service, players = GameService(db), Players(db)
        for n in range(games):
            channel = fake.add_channel(f"table-{n}")["id"]
            fake.game_channels.add(channel)
            users = [fake.add_member(f"p{n}x{i}") for i in range(PLAYERS)]
            with_computers = computers is not None and int((n + 1) * share) > int(n * share)
            humans = users[:1] if with_computers else users
            await service.create(guild_id=fake.guild_id, channel_id=channel, game="tolp", user_id=users[0]["id"],
                                 name=users[0]["username"], seed=f"bench-{n}",
                                 computers=PLAYERS - 1 if with_computers else 0,
                                 levels=[computers] if with_computers and computers else ())
            for user in humans[1:]:
                await service.join(channel, user["id"], user["username"])
            for user in humans:  # as after a start that DMed everyone: each DM channel already open,
                await players.remember_dm_channel(user["id"], fake.dm_channel(user)["id"])
                # and their client's language seen (a user's first interaction writes it once)
                seen = normalize(fake.locales[user["id"]])
                await players.remember_locale(user["id"], await players.prefs(user["id"]), seen)
            record = (await service.start(channel, users[0]["id"])).record
            if with_computers:  # the computers may have moved first
                state = tolp.load(record.state)
            else:
                state = tolp.new(PLAYERS, record.options, record.seed)
                assert tolp.dump(state) == record.state
            tables.append(Table(record.id, channel, users, state, record.ply, computers=with_computers))
    return tables


def usage(pid: int) -> tuple[float, float, float]:
    """CPU seconds of ``pid`` and of its children (the render workers), and their RSS (MB)."""
    pids = [pid]
    try:
        children = Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
        pids += [int(c) for c in children]
    except OSError:
        pass
    cpu = workers = rss = 0.0
    for p in pids:
        try:
            fields = Path(f"/proc/{p}/stat").read_text().rsplit(")", 1)[1].split()
            seconds = (int(fields[11]) + int(fields[12])) / CLOCK_TICKS
            if p == pid:
                cpu += seconds
            else:
                workers += seconds
            status = Path(f"/proc/{p}/status").read_text()
            rss += next(int(line.split()[1]) for line in status.splitlines() if line.startswith("VmRSS")) / 1024
        except (OSError, StopIteration):
            continue
    return cpu, workers, rss


def machine_cpu() -> float:
    """CPU seconds the whole machine spent busy so far (all processes, every core)."""
    fields = Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]
    user, nice, system, _idle, _iowait, irq, softirq, steal = (int(f) for f in fields[:8])
    return (user + nice + system + irq + softirq + steal) / CLOCK_TICKS


async def play(fake: LoadFake, table: Table, ply_of: sqlite3.Connection, rng: random.Random,
               result: Result) -> None:
    """Offer one move at ``table`` and follow it to the end. The table's mirror is kept by
    applying the same move (the engine is deterministic; ``check_mirrors`` compares them with the
    store at the end), so this process does not parse a stored state per move."""
    tolp = registry.get("tolp")
    acting = tolp.to_act(table.state)
    if table.computers and 0 not in acting:  # the computers wait for nobody: nothing to offer here
        table.over = True
        return
    seat = 0 if table.computers else min(acting)
    move_action = rng.choice(list(tolp.legal_actions(table.state, seat)))
    action = str(move_action)
    command, options = tolp_command(action)
    payload = fake.slash(table.users[seat], command, channel=table.channel, **options)
    fake.done[payload["id"]] = done = asyncio.Event()
    move = Move(payload["id"], table.channel, time.monotonic())
    result.moves.append(move)
    table.busy = True
    try:
        await fake.dispatch("INTERACTION_CREATE", payload)
        await asyncio.wait_for(done.wait(), timeout=15)
    except TimeoutError:
        table.over = table.lost = True  # unanswered: its state is unknown from here on
        return
    finally:
        table.busy = False
    ply, stored = ply_of.execute("SELECT ply, state FROM games WHERE id = ?", (table.game_id,)).fetchone()
    if table.computers and ply > table.ply:  # the player's move and the computers' answers
        result.computer_moves += ply - table.ply - 1
        table.state, table.ply = tolp.load(json.loads(stored)), ply
        result.finished += 1
        table.over = tolp.outcome(table.state) is not None
    elif ply == table.ply + 1:
        tolp.apply(table.state, seat, move_action)
        table.ply = ply
        result.finished += 1
        table.over = tolp.outcome(table.state) is not None
    else:
        result.refused += 1
        table.over = table.lost = True


def settle_measurer() -> None:
    """Keep this process's garbage collector from stopping the fake mid-run: its heap (every
    table's messages and mirrors) grows with each rate, and a full collection over it held the
    fake's loop 100–270 ms, delaying the interactions it sends and the time it notes for the
    bot's answers. Before each rate the objects alive are frozen (this is a measuring tool: a
    cycle that dies later may stay) and the young generation is widened as the bot's (bot/heap.py)."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(20_000, 20, 10)


async def offer(fake: LoadFake, tables: list[Table], pid: int, db_path: Path, rate: int,
                seconds: float, rng: random.Random) -> Result:
    settle_measurer()
    result = Result(len(tables), rate, seconds)
    ply_of = sqlite3.connect(db_path)
    counted_before, (cpu_before, workers_before, _), own_before = len(fake.counted_requests), usage(pid), \
        time.process_time()
    violations_before = len(fake.global_violations())
    machine_before = machine_cpu()
    loop = asyncio.get_running_loop()
    start = loop.time()
    tasks = []
    cursor = 0
    for n in range(int(rate * seconds)):
        delay = start + n / rate - loop.time()
        if delay > 0:
            await asyncio.sleep(delay)
        for _ in range(len(tables)):
            table = tables[cursor % len(tables)]
            cursor += 1
            if not table.busy and not table.over:
                table.busy = True
                tasks.append(asyncio.create_task(play(fake, table, ply_of, rng, result)))
                break
        else:
            result.skipped += 1
    await asyncio.gather(*tasks)
    elapsed = loop.time() - start
    cpu_after, workers_after, rss = usage(pid)
    result.seconds = elapsed
    result.workers_cpu = (workers_after - workers_before) / elapsed
    result.cpu = (cpu_after - cpu_before) / elapsed + result.workers_cpu
    result.fake_cpu = (time.process_time() - own_before) / elapsed
    result.other_cpu = max(0.0, (machine_cpu() - machine_before) / elapsed - result.cpu - result.fake_cpu)
    result.rss_mb = rss
    counted = fake.counted_requests[counted_before:]
    result.counted = len(counted)
    result.peak = peak_second([r.at for r in counted])
    result.counted_routes = route_shapes(counted)
    result.global_violations = len(fake.global_violations()) - violations_before
    ply_of.close()
    return result


async def delivered(db_path: Path, timeout: float = 600) -> None:
    """Wait until the outbox holds nothing undelivered (polling: it is another process's work)."""
    check = sqlite3.connect(db_path)
    try:
        deadline = time.monotonic() + timeout
        while check.execute("SELECT COUNT(*) FROM announcements WHERE done_at IS NULL").fetchone()[0]:
            if time.monotonic() > deadline:
                raise TimeoutError("the bot did not deliver the start-up announcements")
            await asyncio.sleep(0.5)
    finally:
        check.close()


def check_mirrors(db_path: Path, tables: list[Table]) -> None:
    """Every table this process followed to the end holds what the bot stored (else the moves
    offered were not the ones the players could make, and the numbers mean nothing)."""
    tolp = registry.get("tolp")
    check = sqlite3.connect(db_path)
    try:
        wrong = [t.game_id for t in tables if not t.lost and json.loads(check.execute(
            "SELECT state FROM games WHERE id = ?", (t.game_id,)).fetchone()[0]) != tolp.dump(t.state)]
    finally:
        check.close()
    if wrong:
        raise AssertionError(f"the mirrors of {len(wrong)} tables differ from the stored games, e.g. {wrong[:5]}")


def route_shapes(requests: list[Recorded]) -> dict[str, int]:
    """How many of ``requests`` went to each route, its ids left out ("PATCH /channels/{id}/messages/{id}")."""
    shapes: dict[str, int] = defaultdict(int)
    for r in requests:
        shapes[f"{r.method} " + "/".join("{id}" if part.isdigit() else part for part in r.route.split("/"))] += 1
    return dict(sorted(shapes.items(), key=lambda item: -item[1]))


def peak_second(times: list[float], window: float = 1.0) -> int:
    """The most of ``times`` within any ``window`` seconds."""
    ordered, most, start = sorted(times), 0, 0
    for end, moment in enumerate(ordered):
        while moment - ordered[start] >= window:
            start += 1
        most = max(most, end - start + 1)
    return most


def percentile(values: list[float], share: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def summary(fake: LoadFake, result: Result) -> dict[str, Any]:
    acks, boards, views = [], [], []
    missed = unanswered = 0
    for move in result.moves:
        acked = fake.acked_at.get(move.interaction)
        if acked is None:
            unanswered += 1
            continue
        acks.append((acked - move.sent) * 1000)
        viewed = fake.viewed_at.get(move.interaction)
        if viewed is not None:  # the mover's own new view (a pass shows none)
            views.append((viewed - move.sent) * 1000)
        missed += acked - move.sent > DEADLINE
        board = next((t for t in fake.boards.get(move.channel, []) if t >= move.sent), None)
        if board is not None:
            boards.append((board - move.sent) * 1000)
    return {"games": result.games, "rate": result.rate, "offered": len(result.moves),
            "ack50": percentile(acks, 0.5), "ack99": percentile(acks, 0.99),
            "board50": percentile(boards, 0.5), "board99": percentile(boards, 0.99),
            "view50": percentile(views, 0.5), "view99": percentile(views, 0.99),
            "done_s": result.finished / result.seconds, "missed": missed, "unanswered": unanswered,
            "refused": result.refused, "rss": result.rss_mb, "cpu": result.cpu, "fake_cpu": result.fake_cpu,
            "other_cpu": result.other_cpu, "workers_cpu": result.workers_cpu,
            "rest": result.counted / max(1, result.finished), "peak": result.peak,
            "counted_routes": result.counted_routes,
            "global429": result.global_violations, "computer_s": result.computer_moves / result.seconds}


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


async def open_viewers(db_path: Path, table: Table, port: int, viewers: int) -> asyncio.subprocess.Process:
    """``viewers`` live web pages on ``table`` (bench/web_viewers.py, a process of its own); its
    channel is one everyone sees, as the board's "Web view" button would have recorded."""
    check = sqlite3.connect(db_path)
    try:
        key = check.execute("SELECT secret FROM web_secrets WHERE name = 'links'").fetchone()[0]
        check.execute("UPDATE web_tables SET public = 1 WHERE game_id = ?", (table.game_id,))
        check.commit()
    finally:
        check.close()
    url = f"http://127.0.0.1:{port}/t/{table_address(key.encode(), table.game_id)}"
    process = await asyncio.create_subprocess_exec(sys.executable, "-m", "bench.web_viewers", url, str(viewers),
                                                   stdout=asyncio.subprocess.PIPE)
    assert process.stdout is not None
    ready = json.loads(await asyncio.wait_for(process.stdout.readline(), timeout=90))
    print(f"# {ready['ready']} live viewers open on table {table.game_id}", file=sys.stderr)
    return process


async def close_viewers(process: asyncio.subprocess.Process) -> dict[str, Any]:
    process.terminate()
    assert process.stdout is not None
    seen: dict[str, Any] = json.loads(await asyncio.wait_for(process.stdout.readline(), timeout=30))
    await process.wait()
    return seen


def bot_env(fake: LoadFake, db_path: Path, processes: str | None,
            computer_processes: str | None = None) -> dict[str, str]:
    """The environment of the bot's process: the fake Discord, the database, no scheduler ticks."""
    env = dict(os.environ, DISCORD_TOKEN="fake-token", GAMEMASTER_API_BASE=fake.api_base,
               GAMEMASTER_GATEWAY_URL=fake.gateway_url, GAMEMASTER_DB=str(db_path),
               GAMEMASTER_LOG_LEVEL="WARNING", GAMEMASTER_SCHEDULER_SECONDS="3600")
    if processes is not None:
        env["GAMEMASTER_RENDER_PROCESSES"] = processes
    if computer_processes is not None:
        env["GAMEMASTER_COMPUTER_PROCESSES"] = computer_processes
    return env


async def run(games: int, rates: list[int], seconds: float, processes: str | None, seed: int,
              viewers: int = 0, computers: str | None = None, share: float = 0.0,
              computer_processes: str | None = None) -> list[dict[str, Any]]:
    fake = LoadFake()
    await fake.start()
    rows = []
    with tempfile.TemporaryDirectory() as folder:
        db_path = Path(folder) / "load.sqlite3"
        started = time.perf_counter()
        tables = await fill(db_path, fake, games, computers, share)
        print(f"# {games} tables stored in {time.perf_counter() - started:.1f} s"
              + (f", {sum(t.computers for t in tables)} of them with {computers} computers" if computers else ""),
              file=sys.stderr)
        env = bot_env(fake, db_path, processes, computer_processes)
        port = free_port()
        env.update(GAMEMASTER_WEB="1" if viewers else "0", GAMEMASTER_WEB_PORT=str(port),
                   GAMEMASTER_WEB_RATE="1000000")
        watching = None
        with open(Path(folder) / "bot.log", "wb") as log:
            bot = await asyncio.create_subprocess_exec(sys.executable, "-m", "bot", "run", env=env, cwd=folder,
                                                       stdout=log, stderr=asyncio.subprocess.STDOUT)
            try:
                await asyncio.wait_for(fake.identified.wait(), timeout=180)  # a loaded machine starts slowly
                await fake.wait_request(lambda r: r.method == "PUT" and r.path.endswith("/commands"), timeout=60)
                probe = fake.slash(tables[0].users[0], "rules", game="tolp", topic="", channel=tables[0].channel)
                await fake.interact(None, probe, gateway=True, timeout=60)
                # the starts were committed with their announcements (boards, DMs) still to deliver:
                # the bot delivers them after it starts; measure moves once that is over
                started = time.perf_counter()
                await delivered(db_path)
                print(f"# start-up delivery of {games} tables' announcements took "
                      f"{time.perf_counter() - started:.1f} s", file=sys.stderr)
                rng = random.Random(seed)
                if viewers:
                    watching = await open_viewers(db_path, tables[0], port, viewers)
                for rate in rates:
                    result = await offer(fake, tables, bot.pid, db_path, rate, seconds, rng)
                    rows.append(summary(fake, result))
                    print(row_text(rows[-1]), file=sys.stderr)
                    if rows[-1]["counted_routes"]:
                        print("# counted calls by route: " + ", ".join(
                            f"{route} {n}" for route, n in rows[-1]["counted_routes"].items()), file=sys.stderr)
                check_mirrors(db_path, tables)
                if watching is not None:
                    seen = await close_viewers(watching)
                    watching = None
                    print(f"# live viewers: {seen} (table {tables[0].game_id} was moved "
                          f"{tables[0].ply} plies)", file=sys.stderr)
                    for row in rows:
                        row["viewers_seen"] = seen
                for row in rows:
                    row["computers"] = computers
            finally:
                if watching is not None:
                    watching.kill()
                bot.terminate()
                try:  # a loaded machine may take a while to finish the decisions and posts in flight
                    await asyncio.wait_for(bot.wait(), timeout=120)
                except TimeoutError:
                    bot.kill()
                    await bot.wait()
        output = (Path(folder) / "bot.log").read_text(errors="replace")
        if "Traceback" in output:
            print(output[-3000:], file=sys.stderr)
    await fake.stop()
    return rows


# ---------------------------------------------------------------------------------------- bursts
async def answered(fake: LoadFake, payload: dict[str, Any], timeout: float = 120) -> None:
    """Send an interaction over the gateway and wait until the bot answered it (its first
    webhook call: the lobby, a join's reply, the start's placeholder removed)."""
    fake.done[payload["id"]] = done = asyncio.Event()
    await fake.dispatch("INTERACTION_CREATE", payload)
    await asyncio.wait_for(done.wait(), timeout=timeout)


async def open_table(fake: LoadFake, channel: str, users: list[dict[str, Any]], sent: dict[str, float]) -> None:
    """One table as its players open it: /game new, the others /game join, the creator /game start."""
    await answered(fake, fake.slash(users[0], "game new", game="tolp", channel=channel))
    for user in users[1:]:
        await answered(fake, fake.slash(user, "game join", channel=channel))
    start = fake.slash(users[0], "game start", channel=channel)
    sent[channel] = time.monotonic()
    await answered(fake, start)


async def run_burst(tables: int, seconds: float, processes: str | None) -> dict[str, Any]:
    """``tables`` Tölp tables opened through /game new, joined and started within ``seconds``
    (their starts spread evenly), against the bot as a subprocess: how long until every table's
    first board is posted and until everything (the players' first hands by DM too) is delivered,
    and the counted calls it took, within Discord's global limit."""
    fake = LoadFake()
    await fake.start()
    result: dict[str, Any] = {"tables": tables, "seconds": seconds}
    with tempfile.TemporaryDirectory() as folder:
        db_path = Path(folder) / "burst.sqlite3"
        channels = []
        for n in range(tables):
            channel = fake.add_channel(f"burst-{n}")["id"]
            fake.game_channels.add(channel)
            channels.append((channel, [fake.add_member(f"b{n}x{i}") for i in range(3)]))
        with open(Path(folder) / "bot.log", "wb") as log:
            bot = await asyncio.create_subprocess_exec(sys.executable, "-m", "bot", "run",
                                                       env=bot_env(fake, db_path, processes), cwd=folder,
                                                       stdout=log, stderr=asyncio.subprocess.STDOUT)
            try:
                await asyncio.wait_for(fake.identified.wait(), timeout=120)
                await fake.wait_request(lambda r: r.method == "PUT" and r.path.endswith("/commands"), timeout=120)
                settle_measurer()
                counted_before, violations_before = len(fake.counted_requests), len(fake.global_violations())
                loop = asyncio.get_running_loop()
                began = loop.time()
                sent: dict[str, float] = {}
                tasks = []
                for n, (channel, users) in enumerate(channels):
                    delay = began + n * seconds / tables - loop.time()
                    if delay > 0:
                        await asyncio.sleep(delay)
                    tasks.append(asyncio.create_task(open_table(fake, channel, users, sent)))
                await asyncio.gather(*tasks)
                started = loop.time() - began
                while not all(any(t >= sent[c] for t in fake.boards.get(c, [])) for c, _ in channels):
                    if loop.time() - began > seconds + 900:
                        raise TimeoutError("not every table's first board was posted")
                    await asyncio.sleep(0.1)
                boards_done = loop.time() - began
                await delivered(db_path, timeout=900)
                all_done = loop.time() - began
                latencies = [(min(t for t in fake.boards[c] if t >= sent[c]) - sent[c]) * 1000 for c, _ in channels]
                acks = [(fake.acked_at[i] - fake.interactions[i].injected_at) * 1000
                        for i in fake.done if i in fake.acked_at]
                counted = fake.counted_requests[counted_before:]
                result.update(started=started, boards=boards_done, delivered=all_done,
                              board50=percentile(latencies, 0.5), board99=percentile(latencies, 0.99),
                              ack99=percentile(acks, 0.99), counted=len(counted),
                              peak=peak_second([r.at for r in counted]),
                              global429=len(fake.global_violations()) - violations_before)
            finally:
                bot.terminate()
                await asyncio.wait_for(bot.wait(), timeout=60)
                output = (Path(folder) / "bot.log").read_text(errors="replace")
                if "Traceback" in output or "error" in output.lower():
                    print(output[-3000:], file=sys.stderr)
    await fake.stop()
    return result


def burst_text(row: dict[str, Any]) -> str:
    head = ("tables", "opened within s", "all started s", "all first boards s", "all delivered s (DMs too)",
            "board p50 ms", "board p99 ms", "ack p99 ms", "counted calls", "per table", "peak/s", "global 429")
    cells = (row["tables"], f"{row['seconds']:.0f}", f"{row['started']:.1f}", f"{row['boards']:.1f}",
             f"{row['delivered']:.1f}", f"{row['board50']:.0f}", f"{row['board99']:.0f}", f"{row['ack99']:.0f}",
             row["counted"], f"{row['counted'] / row['tables']:.2f}", row["peak"], row["global429"])
    return "\n".join(["| " + " | ".join(head) + " |", "|" + "---|" * len(head),
                      "| " + " | ".join(str(c) for c in cells) + " |"])


COLUMNS = ("tables", "offered moves/s", "ack p50 ms", "ack p99 ms", "board p50 ms", "board p99 ms",
           "own view p50 ms", "own view p99 ms", "done/s",
           "missed 3 s", "unanswered", "refused", "REST/move", "peak/s", "global 429", "bot CPU cores",
           "of it render workers", "bot RSS MB", "fake CPU cores", "others CPU cores", "computer moves/s")


def row_text(row: dict[str, Any]) -> str:
    cells = (row["games"], row["rate"], f"{row['ack50']:.0f}", f"{row['ack99']:.0f}", f"{row['board50']:.0f}",
             f"{row['board99']:.0f}", f"{row.get('view50', 0.0):.0f}", f"{row.get('view99', 0.0):.0f}",
             f"{row['done_s']:.1f}", row["missed"], row["unanswered"],
             row["refused"], f"{row['rest']:.2f}", row["peak"], row["global429"], f"{row['cpu']:.2f}",
             f"{row['workers_cpu']:.2f}", f"{row['rss']:.0f}", f"{row['fake_cpu']:.2f}", f"{row['other_cpu']:.2f}",
             f"{row.get('computer_s', 0.0):.1f}")
    return "| " + " | ".join(str(c) for c in cells) + " |"


def table_text(rows: list[dict[str, Any]]) -> str:
    lines = ["| " + " | ".join(COLUMNS) + " |", "|" + "---|" * len(COLUMNS)]
    lines += [row_text(row) for row in rows]
    lines.append("")
    for games in sorted({row["games"] for row in rows}):
        mine = [row for row in rows if row["games"] == games]
        quick = [row["rate"] for row in mine if row["ack99"] <= 100 and row["missed"] == 0 and row["unanswered"] == 0]
        kept = [row for row in mine if sustained(row)]
        failed = next((row for row in mine if not sustained(row)), None)
        lines.append(f"{games} tables: highest offered rate with ack p99 ≤ 100 ms: {max(quick) if quick else 'none'} "
                     f"moves/s; highest sustained (done ≥ 95 % of offered, board p99 ≤ 1 s): "
                     f"{max(r['rate'] for r in kept) if kept else 'none'} moves/s"
                     + (f"; at {failed['rate']} moves/s {limit(failed)}" if failed else "") + ".")
    return "\n".join(lines)


def sustained(row: dict[str, Any]) -> bool:
    return (row["done_s"] >= 0.95 * row["rate"] and row["board99"] <= 1000 and row["unanswered"] == 0
            and row["global429"] == 0)


def limit(row: dict[str, Any]) -> str:
    """What most likely held the rate back: a saturated share of the cores, or a serial wait."""
    cores = os.cpu_count() or 1
    busy = row["cpu"] + row["fake_cpu"] + row["other_cpu"]
    if row["fake_cpu"] >= 0.9:
        return f"the fake Discord limited ({row['fake_cpu']:.2f} cores)"
    if busy >= 0.9 * cores:
        return (f"the cores were full (bot {row['cpu']:.2f}, fake {row['fake_cpu']:.2f}, "
                f"other processes {row['other_cpu']:.2f} of {cores})")
    return (f"the cores were not full ({busy:.2f} of {cores} busy): a serial wait limited "
            "(the writer's lock, the event loop)")


def viewers_text(without: list[dict[str, Any]], with_: list[dict[str, Any]], viewers: int) -> str:
    """The same tables and rates without and with ``viewers`` live pages on one table, side by
    side: the acks (the #26 goal: p99 unchanged, ≤ 100 ms), the boards and the CPU."""
    lines = [f"| tables | offered moves/s | ack p50 ms: none / {viewers:,} viewers | ack p99 ms: none / {viewers:,} | "
             f"board p99 ms: none / {viewers:,} | missed 3 s | bot CPU cores | others CPU cores |",
             "|---|---|---|---|---|---|---|---|"]
    for a, b in zip(without, with_, strict=True):
        lines.append(f"| {a['games']} | {a['rate']} | {a['ack50']:.0f} / {b['ack50']:.0f} | "
                     f"{a['ack99']:.0f} / {b['ack99']:.0f} | {a['board99']:.0f} / {b['board99']:.0f} | "
                     f"{a['missed']} / {b['missed']} | {a['cpu']:.2f} / {b['cpu']:.2f} | "
                     f"{a['other_cpu']:.2f} / {b['other_cpu']:.2f} |")
    seen = with_[-1].get("viewers_seen") if with_ else None
    lines.append("")
    lines.append(f"Live viewers: {seen}." if seen else "Live viewers: none reported (no run with viewers).")
    worst = max((b["ack99"] for b in with_), default=0.0)
    lines.append(f"Ack p99 with {viewers:,} viewers ≤ 100 ms at every rate: {'yes' if worst <= 100 else 'no'} "
                 f"(worst {worst:.0f} ms); others' CPU above 0.2 cores means a shared machine, rerun on a quiet one.")
    return "\n".join(lines)


def computers_text(without: list[dict[str, Any]], with_: list[dict[str, Any]], level: str, share: float) -> str:
    """The same tables and rates without and with ``level`` computers at ``share`` of the tables,
    side by side: the acks (the #22 goal: p99 unchanged, ≤ 100 ms), the boards, the moves done and
    the computers' answers, the CPU (the bot's, of it its workers: renderers and computers)."""
    lines = [f"| tables | offered moves/s | ack p50 ms: none / {level} | ack p99 ms: none / {level} | "
             f"board p99 ms: none / {level} | done/s: none / {level} | {level} computer moves/s | "
             "missed 3 s | bot CPU cores (workers) | others CPU cores |",
             "|---|---|---|---|---|---|---|---|---|---|"]
    for a, b in zip(without, with_, strict=True):
        lines.append(f"| {a['games']} | {a['rate']} | {a['ack50']:.0f} / {b['ack50']:.0f} | "
                     f"{a['ack99']:.0f} / {b['ack99']:.0f} | {a['board99']:.0f} / {b['board99']:.0f} | "
                     f"{a['done_s']:.1f} / {b['done_s']:.1f} | {b.get('computer_s', 0.0):.1f} | "
                     f"{a['missed']} / {b['missed']} | {a['cpu']:.2f} ({a['workers_cpu']:.2f}) / "
                     f"{b['cpu']:.2f} ({b['workers_cpu']:.2f}) | {a['other_cpu']:.2f} / {b['other_cpu']:.2f} |")
    lines.append("")
    worst = max((b["ack99"] for b in with_), default=0.0)
    lines.append(f"{share:.0%} of the tables seat one player and three {level} computers. Ack p99 with them "
                 f"≤ 100 ms at every rate: {'yes' if worst <= 100 else 'no'} (worst {worst:.0f} ms).")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", default="200,1000", help="comma-separated table counts")
    parser.add_argument("--rates", default="10,25,50,100,150,200", help="comma-separated moves/s")
    parser.add_argument("--seconds", type=float, default=15.0, help="length of each rate's run")
    parser.add_argument("--render-processes", default=None,
                        help="render worker processes in the bot (0: threads; default: one per core)")
    parser.add_argument("--seed", type=int, default=15)
    parser.add_argument("--quick", action="store_true", help="50 tables, 10 and 50 moves/s, 6 s each")
    parser.add_argument("--viewers", type=int, default=0,
                        help="live web pages open on the first table throughout (bench/web_viewers.py)")
    parser.add_argument("--compare-viewers", type=int, default=0, metavar="N",
                        help="run every table count and rate twice, without and with N live viewers, "
                             "and print the acks side by side")
    parser.add_argument("--computers", choices=("easy", "normal", "strong"), default=None,
                        help="a share of the tables seat one player and three computers at this level")
    parser.add_argument("--computer-share", type=float, default=0.25,
                        help="the share of the tables with computers (with --computers)")
    parser.add_argument("--compare-computers", choices=("easy", "normal", "strong"), default=None,
                        help="run every table count and rate twice, without and with computers at this level")
    parser.add_argument("--computer-processes", default=None,
                        help="the bot's computer worker processes (0: a thread of the bot; default: the bot's, 1)")
    parser.add_argument("--burst", type=int, default=0,
                        help="instead: this many tables opened by /game new, joined and started (burst mode)")
    parser.add_argument("--burst-seconds", type=float, default=60.0, help="the burst's starts spread over this")
    args = parser.parse_args()
    if args.burst:
        print(burst_text(asyncio.run(run_burst(args.burst, args.burst_seconds, args.render_processes))))
        return
    if args.quick:
        args.games, args.rates, args.seconds = "50", "10,50", 6.0
    if args.compare_viewers:
        without: list[dict[str, Any]] = []
        with_: list[dict[str, Any]] = []
        for games in (int(g) for g in args.games.split(",")):
            rates = [int(r) for r in args.rates.split(",")]
            without += asyncio.run(run(games, rates, args.seconds, args.render_processes, args.seed, 0))
            with_ += asyncio.run(run(games, rates, args.seconds, args.render_processes, args.seed,
                                     args.compare_viewers))
        print(table_text(without + with_))
        print()
        print(viewers_text(without, with_, args.compare_viewers))
        return
    if args.compare_computers:
        plain: list[dict[str, Any]] = []
        playing: list[dict[str, Any]] = []
        for games in (int(g) for g in args.games.split(",")):
            rates = [int(r) for r in args.rates.split(",")]
            plain += asyncio.run(run(games, rates, args.seconds, args.render_processes, args.seed, 0,
                                     computer_processes=args.computer_processes))
            playing += asyncio.run(run(games, rates, args.seconds, args.render_processes, args.seed, 0,
                                       args.compare_computers, args.computer_share, args.computer_processes))
        print(table_text(plain + playing))
        print()
        print(computers_text(plain, playing, args.compare_computers, args.computer_share))
        return
    rows: list[dict[str, Any]] = []
    for games in (int(g) for g in args.games.split(",")):
        rows += asyncio.run(run(games, [int(r) for r in args.rates.split(",")], args.seconds,
                                args.render_processes, args.seed, args.viewers, args.computers,
                                args.computer_share if args.computers else 0.0, args.computer_processes))
    print(table_text(rows))


if __name__ == "__main__":
    main()
