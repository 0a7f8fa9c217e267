"""The computer seats' decisions: which player (the registry's, by game and level), with which
stream of randomness (seeded from the game and the ply, so a replay decides alike), and where
they run: off the event loop, in a worker thread or the process pool the runner hands in."""
from __future__ import annotations

import asyncio
from concurrent.futures import Executor
from functools import partial
from typing import Any

from bot.engine import registry
from bot.engine.core import Game, Seat
from bot.errors import IllegalAction
from bot.storage.games import GameRow


def level_of(record: GameRow, seat: Seat) -> str:
    """The level the computer plays ``seat`` at (the seat's own, else the table's default)."""
    return record.seats[seat].level or registry.DEFAULT_LEVEL


def decide_now(game_name: str, level: str, state: Any, seat: Seat, seed: str, ply: int) -> str:
    """The computer's action at ``ply`` as its canonical string (picklable both ways, so it can
    run in another process)."""
    game = registry.get(game_name)
    legal = list(game.legal_actions(state, seat))
    if not legal:
        raise IllegalAction("error.no_legal_action")
    rng = registry.computer_rng(seed, ply, seat)
    return str(registry.computer(game_name, level)(state, seat, legal, rng))


async def decide(game: Game[Any], state: Any, record: GameRow, seat: Seat,
                 executor: Executor | None = None) -> Any:
    """The computer's action for ``seat`` in the table's current position, decided off the loop."""
    call = partial(decide_now, game.name, level_of(record, seat), state, seat, record.seed, record.ply)
    text = await asyncio.get_running_loop().run_in_executor(executor, call)
    return game.parse_action(text)
