"""Translation audit: ``python -m bot.i18n.audit [lang …]`` lists every catalog key and every
command string (``cmd.<English text>``) that a language still lacks, and placeholder mismatches.

Command strings are collected from the real command tree, built offline (no Discord, no database).
"""
from __future__ import annotations

import asyncio
import sys
from collections.abc import Iterator
from typing import Any

from discord import app_commands

from bot.i18n import LANGUAGES, catalog, placeholders


def _walk(command: Any) -> Iterator[str]:
    yield str(command.name)
    yield str(command.description)
    if isinstance(command, app_commands.Group):
        for child in command.commands:
            yield from _walk(child)
        return
    for parameter in command.parameters:
        yield str(parameter.display_name)  # what Discord sees (a renamed ``from_`` is ``from``)
        yield str(parameter.description)
        for choice in parameter.choices or []:
            yield str(choice.name)


async def command_strings() -> list[str]:
    """Every name and description the command tree sends to Discord, in English (the tree is built
    offline, on a throwaway database: no Discord)."""
    import tempfile
    from pathlib import Path

    from bot.app import GameMasterBot
    from bot.services.table import GameService
    from bot.settings import Settings
    from bot.storage.db import Database

    with tempfile.TemporaryDirectory() as folder:
        async with Database(Path(folder) / "audit.sqlite3") as db:
            bot = GameMasterBot(Settings(sync_commands=False, scheduler_seconds=0), db, GameService(db))
            async with bot:  # the client's own set-up and close, without logging in
                await bot.setup_hook()
                seen: list[str] = []
                for command in bot.tree.get_commands():
                    for text in _walk(command):
                        if text and text not in seen:
                            seen.append(text)
                return seen


def missing(lang: str, commands: list[str]) -> list[str]:
    english, other = catalog("en"), catalog(lang)
    out = [key for key in english if key not in other]
    out += [f"cmd.{text}" for text in commands if f"cmd.{text}" not in other]
    for key, text in other.items():
        if key in english and placeholders(text) != placeholders(english[key]):
            out.append(f"{key} (placeholders differ)")
    return out


def main(argv: list[str]) -> int:
    langs = argv or [lang for lang in LANGUAGES if lang != "en"]
    commands = asyncio.run(command_strings())
    total = 0
    for lang in langs:
        gaps = missing(lang, commands)
        total += len(gaps)
        print(f"[{lang}] {len(gaps)} missing")
        for key in gaps:
            print(f"  {key}")
    return 1 if total else 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
