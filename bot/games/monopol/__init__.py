"""Monopol (Norwegian edition, Hasbro C1009): registers the engine."""
from bot.engine.registry import register, register_computers
from bot.games.monopol import computer, computer_normal
from bot.games.monopol.engine import MonopolGame

GAME = MonopolGame()
register(GAME)
register_computers(GAME.name, {"easy": computer.choose, "normal": computer_normal.choose})
