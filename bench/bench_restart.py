"""A restart right after a busy second (#27.7): does the new process burst into Discord's
per-channel limit?

``python -m bench.bench_restart --tables 20`` opens a Tölp table in each of N channels, then plays
the dying process's last second: in every channel the channel's whole window is used (five posts
and edits per 5 s, as Discord allows), and one move per table is committed but not yet announced
(the process died between the commit and the post). A new process starts on the same database
and delivers what is pending, as its first sweep does. Printed: the posts and edits the fake
Discord refused with 429 (channel limit, 20028) after the restart, the seconds until the first and
the last table's board was up, and the same with the pacer's cautious start switched off
(``--compare``), which is how the bot behaved before.
"""
from __future__ import annotations

import argparse
import asyncio
import tempfile
import time
from pathlib import Path
from typing import Any

import aiohttp

from bot.services.pacing import ChannelPacer
from bot.services.table import GameService
from bot.settings import Settings
from bot.storage.db import Database
from cogs.app import GameMasterApp
from tests.fakediscord import FakeDiscord, settle

WINDOW = 5.0  # Discord's: 5 posts and edits per 5 s per channel


async def run(tables: int, cautious: bool) -> dict[str, Any]:
    fake = FakeDiscord()
    await fake.start()
    fake.point_discord_py_here()
    fake.channel_rate = (5, WINDOW)
    opened: list[Database] = []
    with tempfile.TemporaryDirectory() as folder:
        url = str(Path(folder) / "bench.sqlite3")
        settings = Settings(database_url=url, sync_commands=True, scheduler_seconds=0, channel_window=WINDOW,
                            announce_sweep_seconds=0)

        async def start() -> Any:
            db = await Database(url).connect()
            opened.append(db)
            bot = GameMasterApp(settings, db, GameService(db), guild_ready_timeout=0.05)
            await fake.login(bot)
            return bot

        try:
            first = await start()
            rooms = [fake.add_channel(f"room{n}") for n in range(tables)]
            for n, room in enumerate(rooms):  # two players per table (a player may open 12 tables)
                users = fake.add_members(2, prefix=f"t{n}p")
                await fake.interact(first, fake.slash(users[0], "game new", game="tolp", channel=room))
                await fake.interact(first, fake.slash(users[1], "game join", channel=room))
                await fake.interact(first, fake.slash(users[0], "game start", channel=room))
            await settle(first, timeout=600)
            second = await start()  # the next process, logged in before the first one's last second
            await asyncio.sleep(WINDOW)  # (a benchmark: every channel's window empty before the last second)
            # the last second: one move per table committed, not announced; every channel's window used
            for room in rooms:
                record = await first.service.current(room["id"])
                seat = min(first.service.to_act(record))
                legal = first.service.legal_texts(record, seat)
                action = next((a for a in legal if a.startswith("play")), legal[0])
                await first.service.act(user_id=record.user_of(seat), action=action, game_id=record.id)
            async with aiohttp.ClientSession(headers={"Authorization": "Bot fake-token"}) as dying:
                for n in range(5):  # within Discord's global limit: 40 calls a second
                    for room in rooms:
                        async with dying.post(f"{fake.api_base}/channels/{room['id']}/messages",
                                              json={"content": f"news {n}"}) as answer:
                            assert answer.status == 200, await answer.text()
                        await asyncio.sleep(0.025)
            restarted = len(fake.requests)
            began = time.monotonic()
            second.pacer = ChannelPacer(settings.channel_posts, settings.channel_window, cautious_start=cautious)
            await second.get_cog("Announcer").redeliver()  # the first sweep after a start
            await settle(second, timeout=600)
            took = time.monotonic() - began
            after = fake.requests[restarted:]
            channels = {f"/channels/{room['id']}/messages" for room in rooms}
            boards = [r for r in after if r.method == "POST" and r.status == 200 and r.files and r.route in channels]
            refused = [r for r in after if r.status == 429]
            firsts = sorted(r.at - began for r in boards)
            return {"tables": tables, "cautious": cautious, "refused_429": len(refused),
                    "refused_posts": sum(r.method == "POST" for r in refused),
                    "refused_edits": sum(r.method == "PATCH" for r in refused), "boards": len(boards),
                    "first_board_s": round(firsts[0], 2) if firsts else None,
                    "last_board_s": round(firsts[-1], 2) if firsts else None, "all_delivered_s": round(took, 2)}
        finally:
            await fake.stop()
            for db in opened:
                await db.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=20)
    parser.add_argument("--compare", action="store_true", help="also without the cautious start (before #27.7)")
    args = parser.parse_args()
    for cautious in ((True, False) if args.compare else (True,)):
        print(asyncio.run(run(args.tables, cautious)))


if __name__ == "__main__":
    main()
