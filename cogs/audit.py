"""Translation audit of the commands: ``python -m cogs.audit [lang …]`` lists every catalog key and
every command string (``cmd.<English text>``) that a language still lacks (``bot.i18n.audit``).

Command strings are collected from the real command tree, built offline (no Discord; a throwaway
database).
"""
from __future__ import annotations

import asyncio
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from discord import app_commands

from bot.i18n import audit
from bot.services.table import GameService
from bot.settings import Settings
from bot.storage.db import Database
from cogs.app import GameMasterApp


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
    with tempfile.TemporaryDirectory() as folder:
        async with Database(Path(folder) / "audit.sqlite3") as db:
            bot = GameMasterApp(Settings(sync_commands=False, scheduler_seconds=0), db, GameService(db))
            async with bot:  # the client's own set-up and close, without logging in
                await bot.setup_hook()
                seen: list[str] = []
                for command in bot.tree.get_commands():
                    for text in _walk(command):
                        if text and text not in seen:
                            seen.append(text)
                return seen


if __name__ == "__main__":
    raise SystemExit(audit.main(sys.argv[1:], asyncio.run(command_strings())))
