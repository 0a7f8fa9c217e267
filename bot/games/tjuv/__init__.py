"""Tjuv och Polis, Alga's Swedish cops-and-robbers board game: registers the engine."""
from bot.engine.registry import register

from .engine import TjuvGame

GAME = TjuvGame()
register(GAME)
