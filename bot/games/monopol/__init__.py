"""Monopol (Norwegian edition, Hasbro C1009): its plugin entry."""
from pathlib import Path

from bot.engine.plugin import ConsoleAdapter, GamePlugin
from bot.engine.registry import register_plugin
from bot.games.monopol import computer, computer_normal, computer_strong, console
from bot.games.monopol.engine import MonopolGame

GAME = MonopolGame()
PLUGIN = register_plugin(GamePlugin(
    engine=GAME, computers={"easy": computer.choose, "normal": computer_normal.choose,
                            "strong": computer_strong.choose},
    renderer="rendering.monopol", cog="cogs.monopol", home=Path(__file__).parent, order=4,
    # ``trade 2 give:c100 get:-``: seat 2 as on the board; deeds by their names
    console=ConsoleAdapter(seat_verbs=frozenset({"trade"}), to_engine=console.to_engine, to_board=console.to_board)))
