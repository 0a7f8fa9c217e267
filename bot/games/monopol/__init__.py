"""Monopol (Norwegian edition, Hasbro C1009): registers the engine."""
from bot.engine.registry import register
from bot.games.monopol.engine import MonopolGame

GAME = MonopolGame()
register(GAME)
