"""Start-up wiring: open the database, build the services, hand them to the Discord application;
database commands. The one module that knows both the core and its adapters (``cogs``)."""
from __future__ import annotations

import asyncio
import json
import signal
import sys
from pathlib import Path

import aiohttp
import discord

from bot.engine import registry
from bot.errors import GameMasterError
from bot.heap import settle_when_ready
from bot.i18n import t
from bot.services.assembly import Services
from bot.services.instance import InstanceLease, shard_scopes
from bot.services.movelog import replay
from bot.services.table import GameService
from bot.settings import SettingError, Settings, is_loopback
from bot.storage import games as repo
from bot.storage.backend import SQLITE, backend_of, redact, sqlite_path
from bot.storage.db import Database
from bot.storage.health import check_file
from bot.web.server import web_pages
from cogs.app import GameMasterApp


def point_discord_at(api_base: str | None, gateway_url: str | None) -> None:
    """Redirect discord.py to another Discord (the tests' loopback fake); no-op when unset. Only a
    loopback host is accepted: the token goes with every request."""
    for name, url in (("GAMEMASTER_API_BASE", api_base), ("GAMEMASTER_GATEWAY_URL", gateway_url)):
        if url and not is_loopback(url):
            raise SettingError(name, url, "settings.allowed.loopback")
    import discord.gateway
    import discord.http
    import yarl

    if api_base:
        discord.http.Route.BASE = api_base
    if gateway_url:
        discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(gateway_url)


async def run_bot(settings: Settings) -> int:
    point_discord_at(settings.api_base, settings.gateway_url)
    # the bot never joins voice: no start-up warnings about voice libraries it does not use
    discord.VoiceClient.warn_nacl = False
    discord.VoiceClient.warn_dave = False
    async with Database(settings.database) as db:
        lease = InstanceLease(db, scopes=shard_scopes(settings.shards, settings.shard_count))
        await lease.acquire()  # a second process on this database stops here, naming the first
        services = Services.build(settings, db, GameService(db))
        bot = GameMasterApp(settings, db, services.table, services=services)
        beat = asyncio.create_task(lease.heartbeat(bot.close), name="gamemaster-lease")
        settle: asyncio.Task[int] | None = None
        loop = asyncio.get_running_loop()
        for signum in (signal.SIGTERM, signal.SIGINT):  # a clean stop hands the lease back at once
            loop.add_signal_handler(signum, lambda: asyncio.ensure_future(bot.close()))
        try:
            async with bot:  # the client is set up here: only now may a task wait for it to be ready
                settle = asyncio.create_task(settle_when_ready(bot), name="gamemaster-heap")
                async with web_pages(settings, bot.service, players=bot.players, history=bot.history,
                                     gateway=lambda: gateway_up(bot), lease=lease.holds) as web:
                    bot.web_links = web.links if web is not None else None
                    await bot.start(settings.token or "")
        except discord.LoginFailure:
            print(t("cli.bad_token", settings.default_locale))
            return 2
        except discord.PrivilegedIntentsRequired:
            print(t("cli.intents", settings.default_locale))
            return 2
        except (OSError, aiohttp.ClientError, discord.GatewayNotFound, TimeoutError) as exc:
            # no network (or Discord unreachable): one line, not a traceback
            print(t("cli.offline", settings.default_locale, error=offline_reason(exc)), file=sys.stderr)
            return 4
        finally:
            beat.cancel()
            if settle is not None:
                settle.cancel()
            await lease.release()
    return 0


async def gateway_up(bot: GameMasterApp) -> bool:
    return bot.is_ready() and not bot.is_closed()


def db_location(settings: Settings | str) -> str:
    """The database named for people: the SQLite file's full path, or the server URL without password."""
    target = settings if isinstance(settings, str) else settings.database
    if backend_of(target) == SQLITE:
        return str(Path(sqlite_path(target)).resolve())
    return redact(target)


def offline_reason(exc: BaseException) -> str:
    """A short reason: the connection error's own words without aiohttp's host and ssl details."""
    text = str(getattr(exc, "os_error", None) or exc).strip() or type(exc).__name__
    return text.splitlines()[0][:160]


async def db_command(settings: Settings, command: str) -> int:
    if command == "verify" and backend_of(settings.database) == SQLITE:  # every page, before anything writes
        await asyncio.to_thread(check_file, sqlite_path(settings.database), deep=True)
    db = Database(settings.database)
    await db.connect(migrate=False)
    # named once the file opened: a broken file is reported in one line that names it
    print(t("cli.db_file", settings.default_locale, path=db_location(settings)))
    try:
        if command == "migrate":
            applied = await db.migrate()
            locale = settings.default_locale
            print(t("cli.migrated", locale, applied=", ".join(applied)) if applied else t("cli.up_to_date", locale))
            return 0
        await db.migrate()
        return await verify(db, db_location(settings), settings.default_locale)
    finally:
        await db.close()


async def backup_command(settings: Settings, destination: Path) -> int:
    """``db backup PATH``: a consistent copy of the SQLite file while the bot runs (VACUUM INTO),
    then the copy verified as ``db verify`` does; PostgreSQL: how to use pg_dump instead."""
    from bot.storage.backup import backup_sqlite

    locale = settings.default_locale
    if backend_of(settings.database) != SQLITE:
        print(t("backup.postgres", locale, url=db_location(settings), path=destination), file=sys.stderr)
        return 2
    source = sqlite_path(settings.database)
    await asyncio.to_thread(check_file, source)
    size = await asyncio.to_thread(backup_sqlite, source, destination)
    print(t("backup.done", locale, src=db_location(settings), dst=destination.resolve(), size=size))
    await asyncio.to_thread(check_file, destination, deep=True)
    copy = Database(destination)
    await copy.connect(migrate=False)
    try:
        return await verify(copy, destination.resolve(), locale)
    finally:
        await copy.close()


async def privacy_command(settings: Settings, command: str, user_id: str, days: int) -> int:
    """``db forget USER_ID`` (as /game forget-me) and ``db purge --days N`` (finished games' players
    anonymised after N days)."""
    from bot.services import privacy

    locale = settings.default_locale
    if command == "forget" and not user_id.isdigit():
        print(t("cli.forget_bad_id", locale, user=user_id[:40]), file=sys.stderr)
        return 2
    if command == "purge" and days < 0:
        print(t("cli.purge_bad_days", locale, days=days), file=sys.stderr)
        return 2
    async with Database(settings.database) as db:
        print(t("cli.db_file", locale, path=db_location(settings)))
        if command == "purge":
            print(t("cli.purge_done", locale, count=await privacy.purge(db, days), days=days))
            return 0
        try:
            done = await privacy.forget(db, user_id)
        except GameMasterError as refused:
            print(t(refused.key, locale, **refused.params), file=sys.stderr)
            return 1
    print(t("cli.forget_done", locale, user=user_id, name=done.name, count=done.games))
    return 0


async def copy_command(settings: Settings, source: str, destination: str) -> int:
    """``db copy SRC DST``: copy every game, seat, move, preference and setting, then check the
    copy: the same number of rows in every table, and every game replays on the destination."""
    from bot.storage.copy import COPIED, NotEmpty, copy, count

    locale = settings.default_locale
    src, dst = Database(source), Database(destination)
    if backend_of(source) == SQLITE:
        await asyncio.to_thread(check_file, sqlite_path(source))
    await src.connect()
    try:
        await dst.connect()
        try:
            print(t("cli.copy_start", locale, src=db_location(source), dst=db_location(destination)))
            try:
                report = await copy(src, dst)
            except NotEmpty:
                print(t("cli.copy_not_empty", locale, dst=db_location(destination)), file=sys.stderr)
                return 2
            print(t("cli.copy_done", locale, games=report.rows["games"], moves=report.rows["moves"],
                    users=report.rows["user_prefs"], servers=report.rows["guild_prefs"]))
            differ = [table for table, _ in COPIED if await count(src, table) != await count(dst, table)]
            if differ:
                print(t("cli.copy_differs", locale, tables=", ".join(differ)), file=sys.stderr)
                return 1
            return await verify(dst, db_location(destination), locale)
        finally:
            await dst.close()
    finally:
        await src.close()


async def verify(db: Database, path: str | Path | None = None, locale: str = "en") -> int:
    """Replay every stored game from its seed and compare with the snapshot."""
    bad = 0
    async with db.reading() as conn:
        ids = await repo.ids_with_state(conn)
    if not ids:
        print(t("cli.verify_empty", locale, path=path or "?"))
        return 0
    for game_id in ids:
        async with db.transaction() as conn:
            record = await repo.get(conn, game_id)
            moves = await repo.moves(conn, game_id)
        assert record is not None and record.state is not None
        game = registry.get(record.game)
        try:
            state = replay(game, len(record.seats), record.options, record.seed, [(s, a) for _, s, a, _ in moves])
        except GameMasterError:  # a logged move the replay refuses: the log does not lead to the snapshot
            same = False
        else:
            same = json.dumps(game.dump(state), sort_keys=True) == json.dumps(record.state, sort_keys=True)
        print(t("cli.verify_ok" if same else "cli.verify_mismatch", locale, id=record.id, game=record.game))
        bad += not same
    print(t("cli.verify_done", locale, count=len(ids), bad=bad))
    return 1 if bad else 0
