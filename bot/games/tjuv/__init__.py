"""Tjuv och Polis, Alga's Swedish cops-and-robbers board game: its plugin entry."""
from pathlib import Path

from bot.engine.plugin import GamePlugin, Private
from bot.engine.registry import register_plugin

from . import computer, computer_normal, computer_strong
from .engine import TjuvGame


def stash_items(private: Private) -> list[str]:
    """A thief's hidden stashes ("B4 3000"); the police hides nothing."""
    return [f"{nest} {amount}" for nest, amount in ((private or {}).get("stashes") or {}).items()]


GAME = TjuvGame()
PLUGIN = register_plugin(GamePlugin(
    engine=GAME,
    # strong: the normal planner played around the escape (telegraph sentries, boarding only when
    # the police are unlikely to stop him, robbing or not as rollouts to the end show); measured in
    # docs/bench/tjuv.md
    computers={"easy": computer.choose, "normal": computer_normal.choose, "strong": computer_strong.choose},
    renderer="rendering.tjuv", cog="cogs.tjuv", home=Path(__file__).parent, order=5, hidden=stash_items))
