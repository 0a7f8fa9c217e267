"""The computer player: never a known losing attack, known winning attacks first, otherwise a
mix of probing with weak pieces and advancing. Deterministic: ties are broken by a hash of the
seed, the move number and the move, never by a random draw, so asking twice gives one answer.
A game that has gone on for ``LONG_GAME`` moves it offers as a draw and accepts one (so games
between computers end well within 1,500 moves, as the other levels' do)."""
from __future__ import annotations

import hashlib

from bot.engine.rng import Rng
from bot.games.stratego import setups
from bot.games.stratego.actions import AcceptDraw, Action, DeclineDraw, Move, OfferDraw, Ready, SetupPreset
from bot.games.stratego.board import adjacent, coords
from bot.games.stratego.moves import legal_moves
from bot.games.stratego.pieces import BY_RANK, MINER, SCOUT, Result, attack
from bot.games.stratego.state import SETUP, StrategoState

LONG_GAME = 1300  # moves: from here on a draw is offered and accepted (the normal player's DRAW_ALWAYS)


def _noise(state: StrategoState, text: str) -> float:
    digest = hashlib.sha256(f"{state.rng.seed}/{state.moves}/{text}".encode()).digest()
    return digest[0] / 256


def _material(state: StrategoState, seat: int) -> int:
    return sum(BY_RANK[p.rank].strength for p in state.pieces_of(seat).values())


def _score(state: StrategoState, seat: int, src: str, dst: str) -> float:
    piece = state.board[src]
    strength = BY_RANK[piece.rank].strength
    target = state.board.get(dst)
    if target is not None and target.revealed:
        result = attack(piece.rank, target.rank)
        return {Result.FLAG: 1000.0, Result.WIN: 100.0 + BY_RANK[target.rank].strength,
                Result.DEFUSE: 90.0, Result.TIE: 5.0 - strength}.get(result, -1000.0)
    if target is not None:
        if piece.rank == SCOUT:
            return 30.0  # a cheap probe
        if piece.rank == MINER and not target.moved:
            return 25.0  # unmoved pieces may be bombs
        if not target.moved and strength >= 8:
            return -20.0  # do not risk the best pieces on a possible bomb
        return 15.0 - strength
    score = 0.0
    forward = 1 if seat == 0 else -1
    score += 3.0 * forward * (coords(dst)[1] - coords(src)[1])
    for sq, other in state.board.items():
        if other.owner != seat and other.revealed and adjacent(sq, dst):
            if attack(other.rank, piece.rank) in (Result.WIN, Result.TIE):
                score -= 50.0  # stepping next to a known stronger enemy
    return score


def choose(state: StrategoState, seat: int, legal: list[Action], rng: Rng) -> Action:
    if state.phase == SETUP:
        if setups.to_code(state.drafts[seat], seat) in setups.PRESETS.values():
            return Ready()
        names = sorted(setups.PRESETS)
        return SetupPreset(names[int(_noise(state, f"preset{seat}") * len(names))])
    if state.draw_offer is not None:
        behind = _material(state, seat) < _material(state, 1 - seat)
        return AcceptDraw() if behind or state.moves >= LONG_GAME else DeclineDraw()
    moves = list(legal_moves(state, seat))
    if not moves:
        return legal[0]
    if state.moves >= LONG_GAME and not state.offer_blocked[seat]:
        return OfferDraw()
    src, dst = max(moves, key=lambda m: _score(state, seat, *m) + _noise(state, m[0] + m[1]))
    return Move(src, dst)
