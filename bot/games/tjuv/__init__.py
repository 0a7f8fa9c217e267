"""Tjuv och Polis, Alga's Swedish cops-and-robbers board game: its plugin entry."""
from pathlib import Path

from bot.engine.plugin import GamePlugin, Private
from bot.engine.registry import register_plugin

from . import computer, computer_normal
from .engine import TjuvGame


def stash_items(private: Private) -> list[str]:
    """A thief's hidden stashes ("B4 3000"); the police hides nothing."""
    return [f"{nest} {amount}" for nest, amount in ((private or {}).get("stashes") or {}).items()]


GAME = TjuvGame()
PLUGIN = register_plugin(GamePlugin(
    engine=GAME,
    # No strong level yet, so strong plays as normal (the registry's fallback): planners checked by
    # short rollouts (session 2: a money proxy; session 3: a win model fitted on normal's games)
    # did not beat this one by the 1.5x fair share the issue asks (docs/bench/tjuv.md).
    computers={"easy": computer.choose, "normal": computer_normal.choose},
    renderer="rendering.tjuv", cog="cogs.tjuv", home=Path(__file__).parent, order=5, hidden=stash_items))
