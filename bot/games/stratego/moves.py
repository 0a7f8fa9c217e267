"""Where pieces may go: one square orthogonally, scouts any distance in a straight line over
empty squares, never into or across a lake, never onto an own piece; then the two anti-stalling
rules. Each refusal names its rule."""
from __future__ import annotations

from collections.abc import Iterator

from bot.errors import IllegalAction
from bot.games.stratego.board import DIRECTIONS, LAKES, line_between, neighbours, ray
from bot.games.stratego.pieces import BY_RANK, SCOUT
from bot.games.stratego.repetition import check_chase, check_two_squares
from bot.games.stratego.state import StrategoState


def check_move(state: StrategoState, seat: int, src: str, dst: str) -> None:
    """Raise IllegalAction unless ``seat`` may move its piece from src to dst now."""
    piece = state.board.get(src)
    if piece is None:
        raise IllegalAction("stratego.error.no_piece", topic="movement", square=src)
    if piece.owner != seat:
        raise IllegalAction("stratego.error.not_your_piece", topic="movement", square=src)
    if not BY_RANK[piece.rank].movable:
        raise IllegalAction("stratego.error.immovable", topic="movement", square=src, rank=piece.rank)
    if dst in LAKES:
        raise IllegalAction("stratego.error.lake", topic="movement", square=dst)
    target = state.board.get(dst)
    if target is not None and target.owner == seat:
        raise IllegalAction("stratego.error.own_piece", topic="movement", square=dst)
    between = line_between(src, dst)
    if between is None:
        raise IllegalAction("stratego.error.not_straight", topic="movement", from_square=src,
                            to_square=dst)
    if between:
        if piece.rank != SCOUT:
            raise IllegalAction("stratego.error.too_far", topic="movement", from_square=src,
                                to_square=dst)
        for sq in between:
            if sq in LAKES or sq in state.board:
                raise IllegalAction("stratego.error.scout_blocked", topic="scouts", square=sq)
        if target is not None and not state.options["scout_move_attack"]:
            raise IllegalAction("stratego.error.scout_attack", topic="scouts", square=dst)
    attack = target is not None
    check_two_squares(state.shuttles[seat], src, dst, attack, state.options["two_square_limit"])
    check_chase(state.chase, seat, src, dst, attack)


def _reachable(state: StrategoState, seat: int, src: str) -> Iterator[str]:
    """Destinations by geometry alone (before the anti-stalling rules)."""
    piece = state.board[src]
    kind = BY_RANK[piece.rank]
    if not kind.movable:
        return
    for dc, dr in DIRECTIONS:
        for step, sq in enumerate(ray(src, dc, dr)):
            if sq in LAKES:
                break
            other = state.board.get(sq)
            if other is not None:
                if other.owner != seat and (step == 0 or state.options["scout_move_attack"]):
                    yield sq
                break
            yield sq
            if piece.rank != SCOUT:
                break


def legal_moves(state: StrategoState, seat: int) -> Iterator[tuple[str, str]]:
    for src in sorted(state.pieces_of(seat)):
        for dst in _reachable(state, seat, src):
            try:
                attack = dst in state.board
                check_two_squares(state.shuttles[seat], src, dst, attack,
                                  state.options["two_square_limit"])
                check_chase(state.chase, seat, src, dst, attack)
            except IllegalAction:
                continue
            yield src, dst


def can_move(state: StrategoState, seat: int) -> bool:
    return next(legal_moves(state, seat), None) is not None


def threatened_by(state: StrategoState, seat: int, square: str) -> list[str]:
    """Enemy pieces next to ``square``: moving there threatens them."""
    return [sq for sq in neighbours(square) if sq in state.board and state.board[sq].owner != seat]
