"""The local console table: several players share one terminal and play any registered game
through the same GameService as Discord. Board images are written to a folder and their paths
printed; a player's private view (hand, own pieces) is shown only at that player's own prompt.

``run_console`` opens the start menu (resume the saved game, a new game, quit) unless a game is
given, then plays at the prompts (table.py); seats are typed as the boards number them (seats.py).
"""
from __future__ import annotations

import asyncio
from collections.abc import Callable, Sequence
from pathlib import Path

from bot.console.menu import NEW, QUIT, RESUME, Leave, choose, game_list, new_game
from bot.console.table import CHANNEL, ConsoleTable, plain
from bot.i18n import t
from bot.services.table import GameService
from bot.settings import Settings
from bot.storage.db import Database
from bot.storage.games import GameRow
from bot.web.server import web_pages

__all__ = ["CHANNEL", "ConsoleTable", "game_list", "run_console", "setup_line_editing"]


def setup_line_editing(history: Path) -> None:
    """Line editing and a history kept across sessions for ``input()`` (readline, where Python has
    it: not on Windows)."""
    try:
        import atexit
        import readline
    except ImportError:
        return
    try:
        readline.read_history_file(history)
    except OSError:
        pass
    readline.set_history_length(500)

    def save() -> None:
        try:
            history.parent.mkdir(parents=True, exist_ok=True)
            readline.write_history_file(history)
        except OSError:
            pass

    atexit.register(save)


def terminal(say: Callable[[str], None], width: int | None) -> Callable[[str], None]:
    """``say`` for a terminal: no Markdown, lines longer than ``width`` wrapped between words."""
    return lambda text: say(plain(text, width))


async def run_console(settings: Settings, *, game: str | None = None, players: Sequence[str] | None = None,
                      db_path: str | None = None, seed: str | None = None, options: dict[str, str] | None = None,
                      ask: Callable[[str], str] = input, say: Callable[[str], None] = print,
                      hotseat: bool = False, width: int | None = None) -> int:
    """Play at the console. ``width``: the terminal's columns, to wrap long lines between words
    (None: lines as they are, e.g. into a pipe)."""
    path = Path(db_path) if db_path else settings.database_path.with_name("console.sqlite3")
    locale = settings.default_locale
    say = terminal(say, width)
    say(t("console.welcome", locale))
    async with Database(path) as db, web_pages(settings, service := GameService(db), default_public=True,
                                               say=say) as web:
        table = ConsoleTable(service, settings.boards_dir, locale, ask, say, hotseat)
        saved: GameRow | None = None
        started = False

        def bye() -> str:  # "the game is saved" only when there is one
            return t("console.bye", locale, path=path) if saved is not None or started else t("console.goodbye", locale)

        try:
            saved = await table.service.current(CHANNEL)
            saved = saved if saved is not None and saved.status == "active" else None
            choice = NEW if saved is None and game else await choose(table, saved)
            if choice == QUIT:
                say(bye())
                return 0
            if choice == RESUME:
                assert saved is not None
                say(t("console.resuming", locale, id=saved.id, game=t(f"game.name.{saved.game}", locale)))
                await table.command(saved, 0, "log")  # where the game stands: the last moves
                await table.write_board(saved)
            else:
                update = await new_game(table, game, players, seed, options)
                started = True
                await table.show(update)
            if web is not None:  # the console's table is everybody's who can reach this machine
                record = await table.service.current(CHANNEL)
                if record is not None:
                    say(t("web.console_table", locale, url=web.links.table_url(record.id)))
            result = await table.loop()
        except EOFError:  # Ctrl-D: the goodbye on a line of its own, not after the prompt
            say("")
            result = 0
        except Leave:  # "q" where the game is chosen
            result = 0
        except asyncio.CancelledError:  # Ctrl-C: leave at once, on a line of its own
            say("")
            say(bye())
            raise
        say(bye())
        return result
