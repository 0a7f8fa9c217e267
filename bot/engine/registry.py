"""Registry of games by name. Each game package registers itself on import."""
from __future__ import annotations

import importlib
from typing import Any

from bot.engine.core import Game
from bot.errors import NotFound

_GAMES: dict[str, Game[Any]] = {}

# Game packages loaded by ``load_all`` (order = display order).
GAME_PACKAGES: tuple[str, ...] = ("tolp", "zlodej", "stratego", "monopol", "tjuv")


def register(game: Game[Any]) -> Game[Any]:
    _GAMES[game.name] = game
    return game


def load_all() -> None:
    for package in GAME_PACKAGES:
        try:
            importlib.import_module(f"bot.games.{package}")
        except ModuleNotFoundError as exc:
            if exc.name != f"bot.games.{package}":
                raise


def get(name: str) -> Game[Any]:
    game = _GAMES.get(name)
    if game is not None:  # the hot path: a move looks its game up several times
        return game
    load_all()
    try:
        return _GAMES[name]
    except KeyError:
        raise NotFound("error.unknown_game", game=name) from None


def names() -> list[str]:
    load_all()
    return [p for p in GAME_PACKAGES if p in _GAMES] + sorted(set(_GAMES) - set(GAME_PACKAGES))
