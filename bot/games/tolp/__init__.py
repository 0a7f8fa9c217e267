"""Tölp (Swedish President): registers the engine under the name "tolp"."""
from bot.engine.registry import register

from .engine import TolpGame

GAME = TolpGame()
register(GAME)
