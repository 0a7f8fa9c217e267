"""Stratego: two players, hidden ranks, capture the flag. Its plugin entry."""
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from bot.engine.plugin import GamePlugin, Private
from bot.engine.registry import register_plugin
from bot.games.stratego import computer, computer_normal, computer_strong
from bot.games.stratego.engine import StrategoGame


def reveal_ranks(public: dict[str, Any], privates: Sequence[Private]) -> dict[str, Any]:
    """An ended game's board with every piece's rank (each seat's own ranks, from its private view)."""
    ranks = {sq: rank for private in privates if private for sq, rank in private.get("ranks", {}).items()}
    board = {sq: {**piece, "rank": piece["rank"] or ranks.get(sq)} for sq, piece in public["board"].items()}
    return {**public, "board": board}


GAME = StrategoGame()
PLUGIN = register_plugin(GamePlugin(
    engine=GAME,
    computers={"easy": computer.choose, "normal": computer_normal.choose, "strong": computer_strong.choose},
    renderer="rendering.stratego", cog="cogs.stratego", home=Path(__file__).parent, order=3, reveal=reveal_ranks))
