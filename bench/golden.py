"""Behaviour kept while the code is reshaped: seeded whole games, played the same way on every
checkout, give byte-identical stored games and the same REST calls through the fake Discord.

``python -m bench.golden record FILE`` plays them and writes their fingerprints (one JSON file);
``python -m bench.golden compare FILE`` plays them again and names every game that differs. Record
on the commit before a change and compare on the change (a later change of rules or computers
changes the games, so a fingerprint file is not kept). ``--discord`` adds the fake-Discord games;
their announcer coalesces moves by timing, so on a loaded machine two runs of the same commit can
differ there (see docs/benchmarks.md).

Through the service, on SQLite and on PostgreSQL (a throwaway server): every game with two humans
and a computer seat (Stratego: one human), the humans making the moves a seeded chooser picks among
their legal ones, with an undo asked and agreed, a timed-out turn skipped or handed to the computer
by vote, the seat taken back, and the games' own timers, until the game ends or 160 moves were
made. Stored per game: the game row (state, ply, version, status, outcome, clocks), the seats, the
move log and the outbox entries; wall-clock columns (created, updated) are left out, the service's
clock is a fixed, stepped one. Through the real bot against the fake Discord (SQLite): a Tölp game
of four humans, a Zloděj game of three and a Tölp game against two computers, one slash command at
a time, every request the bot sent (method, route, JSON body, the files' bytes) after each move
settled.
"""
from __future__ import annotations

import asyncio
import dataclasses
import hashlib
import json
import os
import random
import re
import sys
import tempfile
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from bot.engine import registry
from bot.errors import GameMasterError
from bot.services.computers import decide_now
from bot.services.table import GameService
from bot.services.undo import Undo
from bot.storage.db import Database

GAMES = ("tolp", "zlodej", "stratego", "monopol", "tjuv")
MOVES = 160
START = datetime(2026, 1, 5, 12, 0, tzinfo=UTC)
SNOWFLAKE = re.compile(r"\d{17,20}")
COLUMNS = ("id", "game", "status", "options", "seed", "state", "version", "ply", "turn_started_at", "turn_deadline",
           "outcome", "turn_seconds", "alarm_at", "timer_at", "finish_number", "ended_by")


class Clock:
    """The service's clock: fixed, stepped by the script."""

    def __init__(self) -> None:
        self.now = START

    def __call__(self) -> datetime:
        return self.now

    def step(self, **delta: float) -> None:
        self.now += timedelta(**delta)


def digest(value: Any) -> str:
    return hashlib.sha256(json.dumps(value, sort_keys=True, default=str).encode()).hexdigest()


async def stored(db: Database, game_id: int) -> dict[str, Any]:
    """The game as stored, without wall-clock columns."""
    async with db.reading() as conn:
        async with conn.execute(f"SELECT {', '.join(COLUMNS)} FROM games WHERE id = ?", (game_id,)) as cur:
            row = await cur.fetchone()
        game = {k: row[i] for i, k in enumerate(COLUMNS)}
        for key in ("state", "options", "outcome"):
            if isinstance(game.get(key), str):
                game[key] = json.loads(game[key])
        async with conn.execute("SELECT seat, user_id, name, is_computer, bank_seconds FROM seats "
                                "WHERE game_id = ? ORDER BY seat", (game_id,)) as cur:
            seats = [list(r) for r in await cur.fetchall()]
        async with conn.execute("SELECT ply, seat, action FROM moves WHERE game_id = ? ORDER BY ply",
                                (game_id,)) as cur:
            moves = [list(r) for r in await cur.fetchall()]
        async with conn.execute("SELECT ply, payload FROM announcements WHERE game_id = ? ORDER BY id",
                                (game_id,)) as cur:
            outbox = [[r[0], json.loads(r[1]) if isinstance(r[1], str) else r[1]] for r in await cur.fetchall()]
    return {"game": game, "seats": seats, "moves": moves, "outbox": outbox}


async def reclaim(service: GameService, channel: str, user: str) -> None:
    try:
        await service.reclaim(channel, user)
    except GameMasterError:  # the computer finished the game meanwhile
        pass


async def play_service(db: Database, name: str) -> dict[str, Any]:
    clock = Clock()
    service = GameService(db, clock=clock)
    undo = Undo(service)
    chooser = random.Random(f"golden-{name}")
    engine = registry.get(name)
    humans = ["100", "200"] if engine.max_players > 2 else ["100"]
    channel = f"golden-{name}"
    await service.create(guild_id="1", channel_id=channel, game=name, user_id=humans[0], name="Ann",
                         seed=f"golden-seed-{name}", computers=0)
    for user, who in zip(humans[1:], ["Bo"], strict=False):
        await service.join(channel, user, who)
    await service.add_computer(channel, humans[0])
    await service.start(channel, humans[0])
    undone = voted = handed = False
    for ply in range(MOVES):
        clock.step(minutes=7)
        record = await service.current(channel)
        if record is None or record.status != "active":
            break
        await service.apply_timers(clock.now)
        record = await service.current(channel)
        if record is None or record.status != "active":
            break
        acting = [s for s in sorted(service.to_act(record)) if not record.seats[s].is_computer]
        if not acting:
            clock.step(hours=30)  # a window only the clock closes (an auction, a claim)
            await service.apply_timers(clock.now)
            continue
        seat = acting[0]
        user = record.user_of(seat)
        assert user is not None
        if ply == 40 and not voted and len(humans) > 1:  # the turn runs out: the other player votes
            voted = True
            clock.step(hours=200)
            other = next(h for h in humans if h != user)
            choice = "skip" if engine.skip_action(service.states.view(engine, record), seat) else "computer"
            try:
                await service.vote_timeout(game_id=record.id, ply=record.ply, seat=seat, user_id=other, choice=choice)
            except GameMasterError:
                pass
            if choice == "computer":
                await reclaim(service, channel, user)
            continue
        if ply == 60 and not handed:
            handed = True
            await service.hand_to_computer(record.id, seat)
            await reclaim(service, channel, user)
            continue
        texts = service.legal_texts(record, seat)
        if not texts:
            break
        action = chooser.choice(texts)
        try:
            await service.act(user_id=user, action=action, game_id=record.id)
        except GameMasterError:
            continue
        if ply >= 20 and not undone:
            try:
                request = await undo.ask(user_id=user, game_id=record.id)
                undone = True
                for other in humans:
                    if other != user and request.update is None:
                        await undo.answer(game_id=record.id, ply=request.ply, user_id=other, agree=True)
            except GameMasterError:
                pass
    record = await service.current(channel)
    if record is not None and record.status == "active":
        seat = record.seat_of(humans[0])
        try:
            await service.resign(channel, humans[0])
        except GameMasterError:
            pass
        del seat
    async with db.reading() as conn:
        async with conn.execute("SELECT id FROM games WHERE channel_id = ?", (channel,)) as cur:
            game_id = int((await cur.fetchone())[0])
    return await stored(db, game_id)


async def service_games(url: str | Path) -> dict[str, str]:
    out = {}
    for name in GAMES:
        async with Database(url) as db:
            kept = await play_service(db, name)
            print(f"{name}: {len(kept['moves'])} moves, {len(kept['outbox'])} announcements, "
                  f"{kept['game']['status']}, undo {any(str(m[2]).startswith('!undo') for m in kept['moves'])}",
                  file=sys.stderr)
            out[name] = digest(kept)
    return out


def without_ids(value: Any) -> Any:
    """The fake Discord's ids come from the clock (and from the order of concurrent requests): every
    snowflake becomes ``ID``, so that two runs compare."""
    if isinstance(value, str):
        return SNOWFLAKE.sub("ID", value)
    if isinstance(value, int) and not isinstance(value, bool) and len(str(value)) >= 17:
        return "ID"
    if isinstance(value, list | tuple):
        return [without_ids(v) for v in value]
    if isinstance(value, dict):
        return {without_ids(k): without_ids(v) for k, v in value.items()}
    return value


def requests_of(requests: list[Any]) -> list[str]:
    """One step's requests, ids left out, in a canonical order: the interaction's answer and the
    announcer's posts run concurrently (and a step's DMs may go out as the next step begins), so
    their order is not the behaviour; the game's whole multiset of requests is compared."""
    return sorted(json.dumps(without_ids([r.method, r.path, r.json, [hashlib.sha256(f.data).hexdigest()
                                                                      for f in r.files]]), sort_keys=True)
                  for r in requests)


async def discord_games() -> dict[str, str]:
    import bot.services.lobby as lobby
    from bench.bench_channel import COMMANDS, settings_for
    from cogs.app import GameMasterApp
    from tests.fakediscord import FakeDiscord, settle

    out = {}
    for label, game, humans, computers, options in (("tolp-4", "tolp", 4, 0, "scoring=rounds rounds=1"),
                                                     ("zlodej-3", "zlodej", 3, 0, ""),
                                                     ("tolp-cpu", "tolp", 2, 2, "scoring=rounds rounds=1")):
        lobby.new_seed = lambda label=label: f"golden-{label}"  # type: ignore[misc]
        fake = FakeDiscord()
        await fake.start()
        fake.point_discord_py_here()
        fake.channel_rate = (5, 0.001)  # no channel pacing: its waits depend on the machine's speed
        clock = Clock()
        with tempfile.TemporaryDirectory() as folder:
            path = Path(folder) / "golden.sqlite3"
            db = await Database(path).connect()
            settings = dataclasses.replace(settings_for(path), channel_window=0.001)
            bot = GameMasterApp(settings, db, GameService(db, clock=clock), guild_ready_timeout=0.05)
            await fake.login(bot)
            users = fake.add_members(humans)
            extra: dict[str, Any] = {"options": options} if options else {}
            if computers:
                extra["computers"] = computers
            await fake.interact(bot, fake.slash(users[0], "game new", game=game, **extra))
            for user in users[1:]:
                await fake.interact(bot, fake.slash(user, "game join"))
            await settle(bot)
            start = len(fake.requests)
            await fake.interact(bot, fake.slash(users[0], "game start"))
            await settle(bot)
            log = [requests_of(fake.requests[start:])]
            engine = registry.get(game)
            by_id = {u["id"]: u for u in users}
            moves = 0
            while (record := await bot.service.current(fake.channel_id)) is not None and moves < 400:
                seat = min(bot.service.to_act(record))
                action = decide_now(game, registry.DEFAULT_LEVEL, engine.load(record.state), seat, record.seed,
                                    record.ply)
                command, opts = COMMANDS[game](action)
                clock.step(minutes=3)
                start = len(fake.requests)
                await fake.interact(bot, fake.slash(by_id[record.user_of(seat)], command, opts))
                await settle(bot)
                log.append(requests_of(fake.requests[start:]))
                moves += 1
            out[label] = digest(sorted(line for step in log for line in step))
            if os.environ.get("GOLDEN_DUMP"):
                Path(os.environ["GOLDEN_DUMP"] + f"-{label}.json").write_text(json.dumps(log, indent=0, default=str))
            print(f"{label}: {moves} moves, {sum(map(len, log))} requests", file=sys.stderr)
            await fake.close_bot(bot)
            await db.close()
        await fake.stop()
    return out


async def everything(discord: bool) -> dict[str, dict[str, str]]:
    from tests.pgserver import PostgresServer

    with tempfile.TemporaryDirectory() as folder:
        result = {"sqlite": await service_games(Path(folder) / "golden.sqlite3")}
    with PostgresServer() as server:
        result["postgres"] = await service_games(await server.create_schema())
    if discord:
        result["discord"] = await discord_games()
    return result


def main(argv: list[str]) -> int:
    discord = "--discord" in argv
    argv = [a for a in argv if a != "--discord"]
    if len(argv) != 2 or argv[0] not in ("record", "compare"):
        print(__doc__)
        return 2
    got = asyncio.run(everything(discord))
    if argv[0] == "record":
        Path(argv[1]).write_text(json.dumps(got, indent=1, sort_keys=True) + "\n")
        print(json.dumps(got, indent=1, sort_keys=True))
        return 0
    want = json.loads(Path(argv[1]).read_text())
    differ = [f"{part}/{name}" for part in got for name in want.get(part, {})
              if got.get(part, {}).get(name) != want[part][name]]
    print("identical" if not differ else "differ: " + ", ".join(differ))
    return 1 if differ else 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
