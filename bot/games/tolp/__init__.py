"""Tölp (Swedish President): its plugin entry, registered under the name "tolp"."""
from pathlib import Path

from bot.engine.plugin import GamePlugin, hand_items
from bot.engine.registry import register_plugin

from . import computer, computer_normal, computer_strong
from .engine import TolpGame

GAME = TolpGame()
PLUGIN = register_plugin(GamePlugin(
    engine=GAME,
    computers={"easy": computer.choose, "normal": computer_normal.choose, "strong": computer_strong.choose},
    renderer="rendering.tolp", cog="cogs.tolp", home=Path(__file__).parent, order=1, hidden=hand_items))
