"""Public observations of a game a few seeded random moves in, for rendering tests of every game."""
from __future__ import annotations

import random
from typing import Any

from bot.engine import registry

registry.load_all()


def played(name: str, players: int, moves: int, seed: str = "phone") -> tuple[Any, Any]:
    """The game and a state after ``moves`` seeded random legal moves (fewer if it ends)."""
    game = registry.get(name)
    state = game.new(players, game.resolve_options(None, players), seed)
    chooser = random.Random(f"{name}/{players}/{seed}")
    for _ in range(moves):
        seats = sorted(game.to_act(state))
        if game.outcome(state) is not None or not seats:
            break
        seat = chooser.choice(seats)
        game.apply(state, seat, chooser.choice(list(game.legal_actions(state, seat))))
    return game, state


def public_observation(name: str, moves: int = 12) -> tuple[dict[str, Any], int]:
    """A public observation with the game's most players, and that number."""
    players = registry.get(name).max_players
    game, state = played(name, players, moves)
    return game.observe(state, None), players
