"""Counted calls per human move (#23): whole games of Tölp, Zloděj and Monopol played by human
players only, every move a slash command through the real bot against the loopback fake Discord,
which counts every request Discord's global limit counts (every route but the interaction
endpoints). The goal: at most 0.5 counted calls per human move.

Each game: /game new, the others join, Start is clicked on the lobby; then the player to act makes
the move the easy computer would have chosen (a seeded stream), typed as its slash command, until
the game ends. Counted from the lobby on; per game the counted calls by kind (DMs: opening a DM
channel, a DM posted or edited; the table's channel: posts, edits; anything else).

    .venv/bin/python -m bench.bench_counted                 # one game of each, 4 players
    .venv/bin/python -m bench.bench_counted --games 3       # three of each (seeds 1..3)

It prints a markdown table (docs/benchmarks.md, "#23 Counted calls per move").
"""
from __future__ import annotations

import argparse
import asyncio
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

from bot.engine import registry
from bot.engine.registry import computer_action
from bot.services import lobby
from bot.services.table import GameService
from bot.settings import Settings
from bot.storage.db import Database
from cogs.app import GameMasterApp
from tests.discord.helpers import tolp_command, zlodej_command
from tests.discord.test_monopol_game import slash_options
from tests.fakediscord import FakeDiscord, Recorded

OPTIONS = {"tolp": "scoring=rounds rounds=2", "zlodej": "", "monopol": "max_rounds=12"}
PLAYERS = {"tolp": 4, "zlodej": 3, "monopol": 4}
MAX_MOVES = 3000


def command_of(game: str, action: str, record: Any, fake: FakeDiscord, users: dict[int, dict]) -> tuple[str, dict]:
    """The slash command (and its options) a player types for ``action``."""
    if game == "tolp":
        return tolp_command(action)
    if game == "monopol":
        return slash_options(action, record, fake, users)
    return zlodej_command(action)


def kind(fake: FakeDiscord, request: Recorded, channel: str) -> str:
    route = request.route
    if route == "/users/@me/channels":
        return "DM opened"
    if route.startswith(f"/channels/{channel}/"):
        return f"channel {request.method}"
    parts = route.split("/")
    if route.startswith("/channels/") and fake.channels.get(parts[2], {}).get("type") == 1:
        return f"DM {request.method}"
    return f"other {request.method} {route}"


async def play_one(fake: FakeDiscord, bot: Any, game: str, n: int) -> dict[str, Any]:
    engine = registry.get(game)
    channel = fake.add_channel(f"{game}-{n}")
    members = [fake.add_member(f"{game}{n}p{i}") for i in range(PLAYERS[game])]
    counted_before = len(fake.counted_requests)
    new = await fake.interact(bot, fake.slash(members[0], "game new", game=game, options=OPTIONS[game],
                                              channel=channel))
    assert new.ok, new.text
    for member in members[1:]:
        joined = await fake.interact(bot, fake.click(member, new.original, label="Join"))
        assert joined.ok, joined.text
    await fake.interact(bot, fake.click(members[0], new.original, label="Start"))
    record = await bot.service.current(channel["id"])
    assert record is not None and record.status == "active", "the game did not start"
    game_id = record.id
    by_seat = {s: next(m for m in members if m["id"] == record.user_of(s)) for s in range(len(record.seats))}
    moves = refused = 0
    started = time.perf_counter()
    while moves < MAX_MOVES:
        record = await bot.service.current(channel["id"])
        if record is None or record.status != "active" or not bot.service.to_act(record):
            break
        seat = min(bot.service.to_act(record))
        state = engine.load(record.state)
        action = str(computer_action(engine, state, seat, rng=registry.computer_rng(f"bench-{n}", record.ply, seat)))
        command, options = command_of(game, action, record, fake, by_seat)
        answer = await fake.interact(bot, fake.slash(by_seat[seat], command, channel=channel, **options))
        after = await bot.service.get(record.id)
        if after.ply == record.ply:
            refused += 1
            if refused > 20:
                raise AssertionError(f"{game}: {command} {options} refused: {answer.text}")
            continue
        moves += 1
    counted = fake.counted_requests[counted_before:]
    kinds = Counter(kind(fake, r, channel["id"]) for r in counted)
    finished = (await bot.service.get(game_id)).status
    return {"game": game, "moves": moves, "counted": len(counted), "per_move": len(counted) / max(1, moves),
            "kinds": dict(kinds), "status": finished, "seconds": time.perf_counter() - started,
            "peak": fake.busiest_second(), "global429": len(fake.global_violations())}


async def run(games: int) -> list[dict[str, Any]]:
    rows = []
    fake = FakeDiscord()
    await fake.start()
    fake.point_discord_py_here()
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "counted.sqlite3"
        db = await Database(path).connect()
        settings = Settings(database_path=path, sync_commands=True, scheduler_seconds=0, channel_window=0.1,
                            announce_sweep_seconds=0, render_processes=0)
        fake.channel_rate = (settings.channel_posts, settings.channel_window)
        bot = GameMasterApp(settings, db, GameService(db), guild_ready_timeout=0.05)
        await fake.login(bot)
        try:
            for game in ("tolp", "zlodej", "monopol"):
                for n in range(1, games + 1):
                    lobby.new_seed = lambda n=n, game=game: f"bench-counted-{game}-{n}"  # type: ignore[assignment]
                    row = await play_one(fake, bot, game, n)
                    rows.append(row)
                    print(row_text(row), file=sys.stderr)
        finally:
            await fake.close_bot(bot)
            await db.close()
    await fake.stop()
    return rows


COLUMNS = ("game", "human moves", "ended", "counted calls", "per move", "of them", "peak/s", "global 429")


def row_text(row: dict[str, Any]) -> str:
    kinds = ", ".join(f"{k} {v}" for k, v in sorted(row["kinds"].items(), key=lambda kv: -kv[1]))
    cells = (row["game"], row["moves"], row["status"], row["counted"], f"{row['per_move']:.3f}", kinds or "–",
             row["peak"], row["global429"])
    return "| " + " | ".join(str(c) for c in cells) + " |"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=1, help="games of each kind")
    args = parser.parse_args()
    rows = asyncio.run(run(args.games))
    print("| " + " | ".join(COLUMNS) + " |")
    print("|" + "---|" * len(COLUMNS))
    for row in rows:
        print(row_text(row))
    for game in ("tolp", "zlodej", "monopol"):
        mine = [r for r in rows if r["game"] == game]
        moves, counted = sum(r["moves"] for r in mine), sum(r["counted"] for r in mine)
        print(f"\n{game}: {counted} counted calls over {moves} human moves = {counted / max(1, moves):.3f} per move "
              f"(goal ≤ 0.5)", end="")
    print()


if __name__ == "__main__":
    main()
