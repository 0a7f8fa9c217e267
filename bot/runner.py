"""Start-up wiring: open the database, build the services, run the bot; database commands."""
from __future__ import annotations

import asyncio
import json
import signal

import discord

from bot.app import GameMasterBot
from bot.engine import registry
from bot.i18n import t
from bot.services.instance import InstanceLease
from bot.services.table import GameService, replay
from bot.settings import Settings
from bot.storage import games as repo
from bot.storage.db import Database
from bot.storage.health import check_file


def point_discord_at(api_base: str | None, gateway_url: str | None) -> None:
    """Redirect discord.py to another Discord (the tests' loopback fake); no-op when unset."""
    import discord.gateway
    import discord.http
    import yarl

    if api_base:
        discord.http.Route.BASE = api_base
    if gateway_url:
        discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(gateway_url)


async def run_bot(settings: Settings) -> int:
    point_discord_at(settings.api_base, settings.gateway_url)
    async with Database(settings.database_path) as db:
        lease = InstanceLease(db)
        await lease.acquire()  # a second process on this database stops here, naming the first
        bot = GameMasterBot(settings, db, GameService(db))
        beat = asyncio.create_task(lease.heartbeat(bot.close), name="gamemaster-lease")
        loop = asyncio.get_running_loop()
        for signum in (signal.SIGTERM, signal.SIGINT):  # a clean stop hands the lease back at once
            loop.add_signal_handler(signum, lambda: asyncio.ensure_future(bot.close()))
        try:
            async with bot:
                await bot.start(settings.token or "")
        except discord.LoginFailure:
            print(t("cli.bad_token", settings.default_locale))
            return 2
        except discord.PrivilegedIntentsRequired:
            print(t("cli.intents", settings.default_locale))
            return 2
        finally:
            beat.cancel()
            await lease.release()
    return 0


async def db_command(settings: Settings, command: str) -> int:
    if command == "verify":  # every page, before anything may write to the file
        await asyncio.to_thread(check_file, settings.database_path, deep=True)
    db = Database(settings.database_path)
    await db.connect(migrate=False)
    try:
        if command == "migrate":
            applied = await db.migrate()
            print("applied: " + (", ".join(applied) or "nothing (up to date)"))
            return 0
        await db.migrate()
        return await verify(db)
    finally:
        await db.close()


async def verify(db: Database) -> int:
    """Replay every stored game from its seed and compare with the snapshot."""
    bad = 0
    rows = await db.fetchall("SELECT id FROM games WHERE state IS NOT NULL")
    for row in rows:
        async with db.transaction() as conn:
            record = await repo.get(conn, row["id"])
            moves = await repo.moves(conn, row["id"])
        assert record is not None and record.state is not None
        game = registry.get(record.game)
        state = replay(game, len(record.seats), record.options, record.seed, [(s, a) for _, s, a, _ in moves])
        same = json.dumps(game.dump(state), sort_keys=True) == json.dumps(record.state, sort_keys=True)
        print(f"game {record.id} ({record.game}): {'ok' if same else 'MISMATCH'}")
        bad += not same
    return 1 if bad else 0
