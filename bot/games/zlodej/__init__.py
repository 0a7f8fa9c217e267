"""Zloděj, the Czech stealing card game: registers the engine."""
from bot.engine.registry import register

from .engine import ZlodejGame

GAME = ZlodejGame()
register(GAME)
