"""Zloděj, the Czech stealing card game: registers the engine."""
from bot.engine.registry import register, register_computers

from . import computer, computer_normal, computer_strong
from .engine import ZlodejGame

GAME = ZlodejGame()
register(GAME)
register_computers(GAME.name, {"easy": computer.choose, "normal": computer_normal.choose,
                               "strong": computer_strong.choose})
