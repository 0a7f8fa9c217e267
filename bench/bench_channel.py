"""What a whole game puts into its channel: new messages, edits and bytes uploaded (images of
channel messages and of DMs), played through the real bot against the loopback fake Discord.

``python -m bench.bench_channel`` plays a 4-player Tölp game (two rounds) and a 3-player Zloděj game, every
move a slash command a human would type (the move the computer player would choose), one at a
time. The script drives only the public surface (slash commands, the fake's request log), so the
same file measures an older checkout too.
"""
from __future__ import annotations

import asyncio
import dataclasses
import tempfile
from pathlib import Path
from typing import Any

from bot.engine import registry
from bot.engine.registry import computer_action
from bot.services.table import GameService
from bot.settings import Settings
from bot.storage.db import Database
from cogs.app import GameMasterApp as GameMasterBot
from tests.discord.helpers import tolp_command
from tests.fakediscord import FakeDiscord, settle

SEEDS = {"tolp": "bench-channel-tolp", "zlodej": "bench-channel-zlodej"}
OPTIONS = {"tolp": "scoring=rounds rounds=2", "zlodej": ""}  # Tölp: two rounds, then the ranking
PLAYERS = {"tolp": 4, "zlodej": 3}


def zlodej_command(action: str) -> tuple[str, dict[str, object]]:
    verb, _, rest = action.partition(" ")
    if verb == "end":
        return "zlodej end", {}
    if verb == "discard":
        return "zlodej discard", {"card": rest}
    if verb == "steal":
        target, _, cards = rest.partition(" ")
        return "zlodej steal", {"target": f"#{int(target) + 1}", "cards": cards}
    return f"zlodej {verb}", {"cards": rest}


COMMANDS = {"tolp": tolp_command, "zlodej": zlodej_command}


def settings_for(path: Path) -> Settings:
    """Settings that exist in this checkout (older ones lack the announcer's)."""
    names = {f.name for f in dataclasses.fields(Settings)}
    wanted: dict[str, Any] = {"sync_commands": True, "scheduler_seconds": 0, "channel_window": 0.5,
                              "announce_sweep_seconds": 0}
    wanted["database_url" if "database_url" in names else "database_path"] = path
    return Settings(**{k: v for k, v in wanted.items() if k in names})


async def play(game: str) -> dict[str, int]:
    import bot.services.lobby as lobby

    lobby.new_seed = lambda: SEEDS[game]  # the same deal on every run and checkout
    fake = FakeDiscord()
    await fake.start()
    fake.point_discord_py_here()
    if hasattr(fake, "channel_rate"):
        fake.channel_rate = (5, 0.5)
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "bench.sqlite3"
        db = await Database(path).connect()
        bot = GameMasterBot(settings_for(path), db, GameService(db), guild_ready_timeout=0.05)
        await fake.login(bot)
        users = fake.add_members(PLAYERS[game])
        options = {"options": OPTIONS[game]} if OPTIONS[game] else {}
        await fake.interact(bot, fake.slash(users[0], "game new", game=game, **options))
        for user in users[1:]:
            await fake.interact(bot, fake.slash(user, "game join"))
        start = len(fake.requests)
        await fake.interact(bot, fake.slash(users[0], "game start"))
        engine = registry.get(game)
        by_id = {u["id"]: u for u in users}
        moves = 0
        while (record := await bot.service.current(fake.channel_id)) is not None and moves < 2000:
            seat = min(bot.service.to_act(record))
            action = str(computer_action(engine, engine.load(record.state), seat))
            command, options = COMMANDS[game](action)
            await fake.interact(bot, fake.slash(by_id[record.user_of(seat)], command, options))
            moves += 1
        await settle(bot)
        played = fake.requests[start:]
        channel = f"/channels/{fake.channel_id}/messages"
        posts = [r for r in played if r.method == "POST" and r.route == channel and r.status == 200]
        edits = [r for r in played if r.method == "PATCH" and r.route.startswith(channel + "/")]
        replies = [r for r in played if "/webhooks/" in r.route or r.route.endswith("/callback")]
        counts = {"moves": moves, "posts": len(posts), "edits": len(edits),
                  "channel_kb": sum(f.size for r in posts + edits for f in r.files) // 1024,
                  "all_kb": sum(f.size for r in played for f in r.files) // 1024,
                  "replies": len([r for r in replies if r.method == "POST"])}
        await fake.close_bot(bot)
        await db.close()
    await fake.stop()
    return counts


def main() -> None:
    print("Per game (one move at a time; the numbers are counts, not timings):")
    print(f"{'game':8} {'moves':>5} {'new msgs':>8} {'edits':>6} {'KB channel':>10} {'KB all':>7} {'replies':>7}")
    for game in SEEDS:
        c = asyncio.run(play(game))
        print(f"{game:8} {c['moves']:>5} {c['posts']:>8} {c['edits']:>6} {c['channel_kb']:>10} {c['all_kb']:>7} "
              f"{c['replies']:>7}")


if __name__ == "__main__":
    main()
