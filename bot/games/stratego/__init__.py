"""Stratego: two players, hidden ranks, capture the flag. Registers the engine."""
from bot.engine.registry import register
from bot.games.stratego.engine import StrategoGame

GAME = StrategoGame()
register(GAME)
