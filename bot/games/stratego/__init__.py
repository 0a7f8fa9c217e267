"""Stratego: two players, hidden ranks, capture the flag. Registers the engine."""
from bot.engine.registry import register, register_computers
from bot.games.stratego import computer
from bot.games.stratego.engine import StrategoGame

GAME = StrategoGame()
register(GAME)
register_computers(GAME.name, {"easy": computer.choose})
