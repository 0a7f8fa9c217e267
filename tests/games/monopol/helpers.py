"""Shared helpers for the Monopol rule tests: fresh games, loaded dice, quick ownership."""
from __future__ import annotations

from typing import Any

from bot.engine import registry
from bot.engine.rng import Rng
from bot.games.monopol.engine import MonopolGame
from bot.games.monopol.state import MonopolState

GAME: MonopolGame = registry.get("monopol")  # type: ignore[assignment]


class LoadedDice(Rng):
    """An Rng whose dice come from a list (then from the seed as usual)."""

    def __init__(self, faces: list[int]) -> None:
        super().__init__("loaded")
        self.faces = list(faces)

    def die(self, sides: int = 6) -> int:
        if self.faces:
            return self.faces.pop(0)
        return super().die(sides)


def new(players: int = 2, seed: str = "test", *, first: int | None = 0, **options: Any) -> MonopolState:
    """A fresh game; seat ``first`` starts (None: whoever won the opening roll)."""
    s = GAME.new(players, GAME.resolve_options(options), seed)
    if first is not None:
        s.turn = s.first = first
    return s


def dice(s: MonopolState, *faces: int) -> None:
    s.rng = LoadedDice(list(faces))


def own(s: MonopolState, seat: int, *squares: int) -> None:
    for square in squares:
        s.owner[square] = seat


def act(s: MonopolState, seat: int, text: str) -> list[Any]:
    events = GAME.apply(s, seat, GAME.parse_action(text))
    assert sum(s.cash) + s.bank == 0, "money must be conserved"
    return events


def keys(events: list[Any]) -> list[str]:
    return [e.key for e in events]


def auctioned(players: int = 3) -> MonopolState:
    """A game whose first player declined Kirkeveien (unowned): its auction is open."""
    s = new(players)
    dice(s, 1, 2)
    act(s, 0, "roll")
    act(s, 0, "decline")
    assert s.auction is not None
    return s
