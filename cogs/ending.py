"""What a finished game's result message adds (bot/services/titles.py): the luck in one line
where the game has dice or cards, and each player's title where the server turned titles on
(``/game settings titles:``). The announcer asks ``prepare`` before it draws the result and
``lines`` while it writes it; a failure costs only these lines, never the result."""
from __future__ import annotations

import logging
from collections import OrderedDict
from typing import TYPE_CHECKING

from bot.services.titles import end_lines
from bot.storage.games import GameRow

if TYPE_CHECKING:
    from cogs.client import GameMasterBot

log = logging.getLogger(__name__)

KEPT = 256  # results prepared and not yet written (a process writes each once)
# keyed by the game's secret seed too: game ids restart in another database (a test's, a restored
# backup's) opened by the same process, and a stale entry would give a result another game's lines
_PREPARED: OrderedDict[tuple[int, int, str, str], list[str]] = OrderedDict()


def _key(record: GameRow) -> tuple[int, int, str, str]:
    return record.id, record.version, record.channel_id, record.seed


async def prepare(bot: GameMasterBot, record: GameRow) -> None:
    """Work out the lines of ``record``'s result (a replay from the seed, in a worker thread)."""
    key = _key(record)
    if key in _PREPARED:
        return
    try:
        _PREPARED[key] = await end_lines(bot.service, record, record.locale)
    except Exception:  # noqa: BLE001 - the result goes out without them
        log.warning("could not work out the luck and titles of game %s", record.id, exc_info=True)
        return
    while len(_PREPARED) > KEPT:
        _PREPARED.popitem(last=False)


def lines(record: GameRow) -> str:
    """The prepared lines of ``record``'s result, each on its own line ("" when none)."""
    found = _PREPARED.get(_key(record))
    return "".join("\n" + line for line in found) if found else ""
