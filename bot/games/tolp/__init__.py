"""Tölp (Swedish President): registers the engine under the name "tolp"."""
from bot.engine.registry import register, register_computers

from . import computer, computer_normal, computer_strong
from .engine import TolpGame

GAME = TolpGame()
register(GAME)
register_computers(GAME.name, {"easy": computer.choose, "normal": computer_normal.choose,
                               "strong": computer_strong.choose})
