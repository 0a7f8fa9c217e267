"""Tjuv och Polis, Alga's Swedish cops-and-robbers board game: registers the engine."""
from bot.engine.registry import register, register_computers

from . import computer, computer_normal
from .engine import TjuvGame

GAME = TjuvGame()
register(GAME)
# No strong level yet: a planner checked by short rollouts lost to this one (docs/benchmarks.md),
# so strong plays as normal (the registry's fallback).
register_computers(GAME.name, {"easy": computer.choose, "normal": computer_normal.choose})
