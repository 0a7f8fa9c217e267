"""The Stratego position: pieces on the board, setup drafts, history needed by the rules."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from bot.engine.rng import Rng
from bot.games.stratego.repetition import Chase, Shuttle

SETUP, PLAY, OVER = "setup", "play", "over"


@dataclass
class Piece:
    owner: int
    rank: str
    revealed: bool = False  # the opponent has seen its rank (in an attack, or a long scout move)
    moved: bool = False  # public knowledge: a piece that moved is no bomb or flag

    def dump(self) -> list[Any]:
        return [self.owner, self.rank, self.revealed, self.moved]

    @classmethod
    def load(cls, data: list[Any]) -> Piece:
        return cls(int(data[0]), str(data[1]), bool(data[2]), bool(data[3]))


@dataclass
class StrategoState:
    options: dict[str, Any]
    rng: Rng
    players: int = 2
    phase: str = SETUP
    drafts: list[dict[str, str]] = field(default_factory=lambda: [{}, {}])
    ready: list[bool] = field(default_factory=lambda: [False, False])
    board: dict[str, Piece] = field(default_factory=dict)
    turn: int = 0
    moves: int = 0
    captured: list[list[str]] = field(default_factory=lambda: [[], []])  # pieces each seat lost
    last_move: dict[str, Any] | None = None
    # The public record of play, one entry a move: [from, to] or, for an attack, [from, to,
    # attacker's rank, defender's rank] (both are shown to everyone). Computer players read
    # what a piece's moves betray from it; games stored before it have none (and a short one).
    trail: list[list[str]] = field(default_factory=list)
    shuttles: list[Shuttle] = field(default_factory=lambda: [None, None])
    chase: Chase = None
    draw_offer: int | None = None
    # A seat whose draw offer was declined may offer again only after its next move.
    offer_blocked: list[bool] = field(default_factory=lambda: [False, False])
    result: dict[str, Any] | None = None  # {"places": [[...], ...], "reason": key}

    def pieces_of(self, seat: int) -> dict[str, Piece]:
        return {sq: p for sq, p in self.board.items() if p.owner == seat}
