"""Whether a move revealed chance or hidden information (pure; used to refuse an undo).

A move may be taken back only if nobody learned anything from it that the position before it did
not already show them. Two generic signals cover every game:

- chance: the state's ``Rng`` draw counter moved (a die rolled, a deck shuffled);
- hidden information: for some seat, the position before the move is re-dealt at random in
  everything hidden from that seat (``Game.scramble_hidden``, the conformance suite's leak check),
  the same move is applied there, and what that seat sees afterwards differs from what it sees in
  the real game: the move showed it something it could not know (a card drawn, a Stratego rank
  revealed by an attack, the answer to an exchange question).

A re-dealt position where the move is not legal says nothing and is skipped.
"""
from __future__ import annotations

import json
from typing import Any

from bot.engine.core import Game, Seat
from bot.engine.rng import Rng
from bot.errors import GameMasterError

CHANCE = "chance"
HIDDEN = "hidden"
WORLDS = 4  # re-dealt positions tried per seat


def draws(game: Game[Any], state: Any) -> int | None:
    """The state's random draw counter (None for a game without one)."""
    rng = game.dump(state).get("rng")
    return int(rng["draws"]) if isinstance(rng, dict) and "draws" in rng else None


def _seen(game: Game[Any], state: Any, seat: Seat) -> str:
    return json.dumps(game.observe(state, seat), sort_keys=True)


def revealed(game: Game[Any], before: Any, seat: Seat, action: str, players: int) -> str | None:
    """``CHANCE`` or ``HIDDEN`` when applying ``action`` for ``seat`` to ``before`` revealed that,
    else None. ``before`` is not changed."""
    after = game.copy(before)
    game.apply(after, seat, game.parse_action(action))
    if draws(game, before) != draws(game, after):
        return CHANCE
    for viewer in range(players):
        seen = _seen(game, after, viewer)
        for n in range(WORLDS):
            world = game.scramble_hidden(before, viewer, Rng(f"undo/{viewer}/{n}"))
            if world is None:
                return None  # the game hides nothing
            try:
                game.apply(world, seat, game.parse_action(action))
            except GameMasterError:
                continue
            if _seen(game, world, viewer) != seen:
                return HIDDEN
    return None
