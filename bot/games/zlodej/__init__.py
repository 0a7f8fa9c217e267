"""Zloděj, the Czech stealing card game: its plugin entry."""
from pathlib import Path

from bot.engine.plugin import ConsoleAdapter, GamePlugin, hand_items
from bot.engine.registry import register_plugin

from . import computer, computer_normal, computer_strong
from .engine import ZlodejGame

GAME = ZlodejGame()
PLUGIN = register_plugin(GamePlugin(
    engine=GAME,
    computers={"easy": computer.choose, "normal": computer_normal.choose, "strong": computer_strong.choose},
    renderer="rendering.zlodej", cog="cogs.zlodej", home=Path(__file__).parent, order=2,
    console=ConsoleAdapter(seat_verbs=frozenset({"steal"})),  # ``steal 2 7D``: seat 2 as on the board
    hidden=hand_items))
