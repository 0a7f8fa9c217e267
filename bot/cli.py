"""``gamemaster run | console | replay FILE | db migrate|verify|copy``."""
from __future__ import annotations

import argparse
import asyncio
import dataclasses
import logging
import os
import shutil
import sys
from collections.abc import Coroutine, Sequence
from pathlib import Path
from typing import Any

from bot.engine import registry
from bot.i18n import normalize, t
from bot.settings import SettingError, Settings, parse_shards
from bot.storage.backend import sqlite_path
from bot.storage.health import StorageProblem

LIST = "list"


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="gamemaster", description="Game Master: tabletop games on Discord")
    sub = parser.add_subparsers(dest="command")
    run = sub.add_parser("run", help="run the bot (the console table when no DISCORD_TOKEN is set)")
    run.add_argument("--shards", help="the Discord shards this process runs, e.g. 0-3 (default: GAMEMASTER_SHARDS, "
                                      "else all)")
    run.add_argument("--shard-count", type=int, help="how many shards the bot has in all (GAMEMASTER_SHARD_COUNT)")
    console = sub.add_parser("console", help="play at a local table in this terminal")
    games = ", ".join(registry.names())
    console.add_argument("--game", nargs="?", const=LIST,
                         help=f"the game: {games} (asked when missing; --game alone lists them)")
    console.add_argument("--players", help="comma-separated player names")
    console.add_argument("--db", help="database file (default: console.sqlite3 beside GAMEMASTER_DB)")
    console.add_argument("--seed", help="fixed seed (for reproducible demos and tests)")
    console.add_argument("--options", default="", help='game options, e.g. "scoring=rounds rounds=3"')
    db = sub.add_parser("db", help="database maintenance")
    db_sub = db.add_subparsers(dest="db_command", required=True)
    for name, about in (("migrate", "apply pending migrations"),
                        ("verify", "replay every game's move log and compare with its snapshot")):
        command = db_sub.add_parser(name, help=about)
        command.add_argument("--db", help="database file or URL (default: DATABASE_URL, else GAMEMASTER_DB, "
                                          "else data/gamemaster.sqlite3)")
    backup = db_sub.add_parser("backup", help="write a consistent copy of the database while the bot runs, then "
                                              "verify it")
    backup.add_argument("path", help="the new file to write (SQLite; on PostgreSQL it names pg_dump)")
    backup.add_argument("--db", help="database file or URL (default: DATABASE_URL, else GAMEMASTER_DB, "
                                     "else data/gamemaster.sqlite3)")
    forget = db_sub.add_parser("forget", help="delete a user's preferences and anonymise them in every game, "
                                              "rating and standing (as /game forget-me does)")
    forget.add_argument("user_id", help="the user's Discord id (digits)")
    purge = db_sub.add_parser("purge", help="anonymise the players of games that ended more than DAYS ago")
    purge.add_argument("--days", type=int, required=True, help="keep the players of games ended within this many days")
    for command in (forget, purge):
        command.add_argument("--db", help="database file or URL (default: DATABASE_URL, else GAMEMASTER_DB, "
                                          "else data/gamemaster.sqlite3)")
    copy = db_sub.add_parser("copy", help="copy every game, move and setting to another database, then verify it")
    copy.add_argument("source", help="database to copy from: a file, sqlite:///path or postgresql://…")
    copy.add_argument("destination", help="empty database to copy into: a file, sqlite:///path or postgresql://…")
    replay = sub.add_parser("replay", help="verify a game exported with /game export and draw it")
    replay.add_argument("file", help="the exported game (a .json file)")
    replay.add_argument("--out", help="folder for the pictures (default: beside the file)")
    replay.add_argument("--locale", help="language of the pictures: en, sv, nb, cs (default: GAMEMASTER_LOCALE)")
    args = parser.parse_args(argv)
    try:
        settings = Settings.from_env()
    except SettingError as bad:
        print(setting_problem(bad, os.environ.get("GAMEMASTER_LOCALE", "")), file=sys.stderr)
        return 2
    logging.basicConfig(level=settings.log_level, format="%(asctime)s %(levelname)s %(name)s: %(message)s")

    try:
        return _dispatch(parser, args, settings)
    except SettingError as bad:
        print(setting_problem(bad, settings.default_locale), file=sys.stderr)
        return 2
    except StorageProblem as problem:
        # one line: what is wrong, which file, what to do; the file is left as it was
        print(t(problem.key, settings.default_locale, **problem.params), file=sys.stderr)
        return 3


def setting_problem(bad: SettingError, locale: str) -> str:
    """One line: the variable, its value and what it may be."""
    return t("settings.bad", normalize(locale), variable=bad.variable, value=bad.value[:200],
             allowed=t(bad.allowed, normalize(locale), **bad.params))


def terminal_width() -> int | None:
    """The terminal's columns, for wrapping the console's long lines; None when not a terminal."""
    return shutil.get_terminal_size().columns if sys.stdout.isatty() else None


def at_console(table: Coroutine[Any, Any, int]) -> int:
    """Run the console table; Ctrl-C leaves it (it already said goodbye) with the shell's code for
    an interrupt, no traceback."""
    try:
        return asyncio.run(table)
    except KeyboardInterrupt:
        return 130


def _dispatch(parser: argparse.ArgumentParser, args: argparse.Namespace, settings: Settings) -> int:
    command = args.command or "run"
    if command == "run" and (getattr(args, "shards", None) or getattr(args, "shard_count", None)):
        try:
            shards = parse_shards(args.shards or "")
        except ValueError:
            raise SettingError("--shards", args.shards, "settings.allowed.shards") from None
        settings = dataclasses.replace(settings, shards=shards or settings.shards,
                                       shard_count=args.shard_count or settings.shard_count)
    if command in ("run", "console"):
        try:
            settings.check_web()
        except ValueError as exc:
            parser.error(str(exc))
    if command == "run":
        settings.check_shards()
        if not settings.token:
            print(t("cli.no_token", settings.default_locale))
            from bot.console import run_console, setup_line_editing
            logging.getLogger().setLevel(max(logging.WARNING, logging.getLogger().level))
            if sys.stdin.isatty():
                setup_line_editing(settings.database_path.with_name("console_history"))
            return at_console(run_console(settings, hotseat=sys.stdin.isatty(), width=terminal_width()))
        from bot import loops
        from bot.runner import run_bot
        return loops.run(run_bot(settings), settings.event_loop)
    if command == "console":
        from bot.console import game_list, run_console, setup_line_editing
        if args.game == LIST or (args.game and args.game not in registry.names()):
            if args.game != LIST:
                print(t("error.unknown_game", settings.default_locale, game=args.game), file=sys.stderr)
            print(game_list(settings.default_locale))
            return 0 if args.game == LIST else 2
        if sys.stdin.isatty():
            setup_line_editing(settings.database_path.with_name("console_history"))
        players = [p.strip() for p in args.players.split(",")] if args.players else None
        from bot.services.options import parse_options
        logging.getLogger().setLevel(max(logging.WARNING, logging.getLogger().level))
        return at_console(run_console(settings, game=args.game, players=players, db_path=args.db, seed=args.seed,
                                      options=parse_options(args.options), hotseat=sys.stdin.isatty(),
                                      width=terminal_width()))
    if command == "replay":
        from bot.replay_file import replay_file
        return replay_file(Path(args.file), Path(args.out) if args.out else None,
                           args.locale or settings.default_locale)
    if command == "db":
        from bot.runner import backup_command, copy_command, db_command
        if args.db_command == "copy":
            return asyncio.run(copy_command(settings, args.source, args.destination))
        if args.db:
            settings = dataclasses.replace(settings, database_path=Path(sqlite_path(args.db)), database_url=args.db)
        if args.db_command == "backup":
            return asyncio.run(backup_command(settings, Path(args.path)))
        if args.db_command in ("forget", "purge"):
            from bot.runner import privacy_command
            return asyncio.run(privacy_command(settings, args.db_command, getattr(args, "user_id", ""),
                                               getattr(args, "days", 0)))
        return asyncio.run(db_command(settings, args.db_command))
    parser.print_help()
    return 2


if __name__ == "__main__":
    sys.exit(main())
