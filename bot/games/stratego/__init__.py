"""Stratego: two players, hidden ranks, capture the flag. Registers the engine."""
from bot.engine.registry import register, register_computers
from bot.games.stratego import computer, computer_normal, computer_strong
from bot.games.stratego.engine import StrategoGame

GAME = StrategoGame()
register(GAME)
register_computers(GAME.name, {"easy": computer.choose, "normal": computer_normal.choose,
                                "strong": computer_strong.choose})
