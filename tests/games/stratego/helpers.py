"""Builders for Stratego rule tests: a game in the play phase with exactly the pieces given."""
from __future__ import annotations

from typing import Any

from bot.engine.core import Event
from bot.games.stratego import GAME
from bot.games.stratego.actions import Move
from bot.games.stratego.state import PLAY, Piece, StrategoState

RED, BLUE = 0, 1


def position(pieces: dict[str, tuple[int, str]], *, turn: int = RED, **options: Any) -> StrategoState:
    """``pieces`` maps squares to (owner, rank), e.g. {"A4": (RED, "2")}."""
    state = GAME.new(2, GAME.resolve_options(options), "test")
    state.phase = PLAY
    state.ready = [True, True]
    state.drafts = [{}, {}]
    state.board = {sq: Piece(owner, rank) for sq, (owner, rank) in pieces.items()}
    state.turn = turn
    return state


def move(state: StrategoState, seat: int, text: str) -> list[Event]:
    action = GAME.parse_action(text)
    assert isinstance(action, Move)
    return GAME.apply(state, seat, action)
