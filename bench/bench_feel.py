"""The table a player feels, per game: new messages in the channel, pings and DMs per player and
bytes uploaded, for a whole game of each of the five games played through the real bot against
the loopback fake Discord.

``python -m bench.bench_feel [game …]`` seats every player as a human, opens the table with
/game new and /game join, starts it, and plays the computer's (easy) move for whoever must act,
each committed through the service and announced as a move's interaction would (the mover sees
their own view in its answer, not in a DM); a game stops at ``MOVES`` moves. The script reads only
the fake's request log, so the same file measures an older checkout (run it from that tree).
"""
from __future__ import annotations

import asyncio
import dataclasses
import re
import sys
import tempfile
from collections import Counter
from pathlib import Path
from typing import Any

from bot.engine import registry
from bot.services.table import GameService
from bot.settings import Settings
from bot.storage.db import Database
from cogs.moves import announce
from tests.fakediscord import FakeDiscord, settle

try:
    from cogs.app import GameMasterApp as Bot
except ImportError:  # an older checkout
    from bot.app import GameMasterBot as Bot  # type: ignore[no-redef]

GAMES = {"tolp": (4, "scoring=rounds rounds=1"), "zlodej": (3, ""), "stratego": (2, ""),
         "monopol": (4, "max_rounds=3"), "tjuv": (3, "max_rounds=4"),
         # Monopol where every deed goes to auction (each player declines to buy): windows, not turns
         "monopol_auctions": (4, "max_rounds=2")}
MOVES = 250
MENTION = re.compile(r"<@!?(\d+)>")


def choose(engine: Any, state: Any, seat: int, auctions: bool = False) -> str:
    if auctions and any(str(a) == "decline" for a in engine.legal_actions(state, seat)):
        return "decline"
    try:
        from bot.engine.registry import computer_action
    except ImportError:  # an older checkout: the engine's own computer
        return str(engine.bot_action(state, seat))
    return str(computer_action(engine, state, seat))


def settings_for(path: Path) -> Settings:
    names = {f.name for f in dataclasses.fields(Settings)}
    wanted: dict[str, Any] = {"database_url": path, "sync_commands": True, "scheduler_seconds": 0,
                              "channel_window": 0.05, "announce_sweep_seconds": 0}
    return Settings(**{k: v for k, v in wanted.items() if k in names})


def counted(fake: FakeDiscord, users: list[dict[str, Any]]) -> dict[str, Any]:
    """Messages, pings, DMs and bytes from the fake's request log."""
    channel = f"/channels/{fake.channel_id}/messages"
    dm_of = {fake.dm_channel(u)["id"]: u["id"] for u in users}
    posts = pings = 0
    per_ping: Counter[str] = Counter()
    per_dm: Counter[str] = Counter()
    uploaded = 0
    for rec in fake.requests:
        if rec.status not in (200, 204):
            continue
        uploaded += sum(f.size for f in rec.files)
        body = rec.json if isinstance(rec.json, dict) else {}
        if rec.route.endswith("/callback"):
            body = body.get("data") or {}
        public = not (body.get("flags", 0) & 64)
        new = rec.method == "POST" and (rec.route == channel or ("/webhooks/" in rec.route and "/messages/" not in
                                        rec.route) or rec.route.endswith("/callback"))
        if rec.method == "POST" and rec.route.startswith("/channels/") and rec.route.split("/")[2] in dm_of:
            per_dm[dm_of[rec.route.split("/")[2]]] += 1
            continue
        if not (new and public) or not (body.get("content") or rec.files or body.get("embeds")):
            continue
        posts += 1
        allowed = body.get("allowed_mentions")
        users_let = {str(u) for u in (allowed or {}).get("users") or []}
        for user in dict.fromkeys(MENTION.findall(str(body.get("content") or ""))):
            if allowed is None or user in users_let:
                per_ping[user] += 1
                pings += 1
    ids = [u["id"] for u in users]
    return {"posts": posts, "pings": max(per_ping[i] for i in ids), "dms": max(per_dm[i] for i in ids),
            "pings_avg": pings / len(ids), "dms_avg": sum(per_dm.values()) / len(ids), "kb": uploaded // 1024}


async def play(game: str) -> dict[str, Any]:
    import bot.services.lobby as lobby

    players, options = GAMES[game]
    lobby.new_seed = lambda: f"bench-feel-{game}"  # the same deal on every run and checkout
    fake = FakeDiscord()
    await fake.start()
    fake.point_discord_py_here()
    fake.channel_rate = (5, 0.05)
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "bench.sqlite3"
        db = await Database(path).connect()
        bot = Bot(settings_for(path), db, GameService(db), guild_ready_timeout=0.05)
        await fake.login(bot)
        users = fake.add_members(players)
        extra = {"options": options} if options else {}
        await fake.interact(bot, fake.slash(users[0], "game new", game=game.split("_")[0], **extra), timeout=60)
        for user in users[1:]:
            await fake.interact(bot, fake.slash(user, "game join"), timeout=60)
        await fake.interact(bot, fake.slash(users[0], "game start"), timeout=60)
        engine = registry.get(game.split("_")[0])
        moves = 0
        while (record := await bot.service.current(fake.channel_id)) is not None and moves < MOVES:
            seat = min(bot.service.to_act(record))
            action = choose(engine, engine.load(record.state), seat, auctions=game.endswith("_auctions"))
            update = await bot.service.act(user_id=record.user_of(seat), action=action, game_id=record.id)
            announce(bot, update, seat if seat in update.private_changed else None)
            await settle(bot, 600)
            moves += 1
        await settle(bot, 600)
        counts = {"moves": moves, **counted(fake, users)}
        await fake.close_bot(bot)
        await db.close()
    await fake.stop()
    return counts


def main() -> None:
    games = sys.argv[1:] or list(GAMES)
    print(f"{'game':9} {'moves':>5} {'new msgs':>8} {'pings/player':>12} {'DMs/player':>10} {'KB uploaded':>11}")
    for game in games:
        c = asyncio.run(play(game))
        print(f"{game:9} {c['moves']:>5} {c['posts']:>8} {c['pings_avg']:>7.1f} (≤{c['pings']:>2}) "
              f"{c['dms_avg']:>5.1f} (≤{c['dms']:>2}) {c['kb']:>11}", flush=True)


if __name__ == "__main__":
    main()
