"""Casual greedy opponents for the board games' strength benchmark: each sees only its own
observation and takes the obvious gain in front of it, as a casual player does."""
from __future__ import annotations

import random
from typing import Any

from bot.engine.rng import Rng
from bot.games.stratego import GAME as STRATEGO
from bot.games.stratego.actions import DeclineDraw, Move, Ready, SetupRandom
from bot.games.stratego.pieces import BY_RANK, Result, attack
from bot.games.stratego.state import SETUP
from bot.games.tjuv.actions import Arrest, Breakout, EndTurn, Hide, Roll
from bot.games.tjuv.actions import Move as TjuvMove
from bot.games.tjuv.board import board
from bot.games.tjuv.computer import distance
from bot.games.tjuv.state import FREE, HOUSE
from bot.games.tjuv.view import role_of


def stratego_greedy(state: Any, seat: int, legal: list[Any], rng: Rng) -> Any:
    """A random setup; takes a known weaker piece, never attacks a known stronger one, else
    presses forward, probing unknown pieces now and then."""
    rand = random.Random(rng.randint(0, 2**62))
    if state.phase == SETUP:
        return Ready() if state.drafts[seat] and rand.random() < 0.5 else SetupRandom()
    if any(isinstance(a, DeclineDraw) for a in legal):
        return DeclineDraw()
    obs = STRATEGO.observe(state, seat)
    own, known = obs["private"]["ranks"], obs["private"]["known"]
    board_view = obs["public"]["board"]
    forward = 1 if seat == 0 else -1

    def score(move: Move) -> float:
        value = rand.random() * 4
        rank = own[move.src]
        if move.dst in known:
            result = attack(rank, known[move.dst])
            value += 100 if result in (Result.WIN, Result.DEFUSE, Result.FLAG) else -100
        elif move.dst in board_view:
            value += 3 if BY_RANK[rank].strength <= 4 else -3
        else:
            value += forward * (int(move.dst[1:]) - int(move.src[1:]))
        return value
    moves = [a for a in legal if isinstance(a, Move)]
    return max(moves, key=score) if moves else legal[0]


def tjuv_greedy(state: Any, seat: int, legal: list[Any], rng: Rng) -> Any:
    """Thieves rob the nearest bank or post office and, with 5000 or more, run for the nearest way
    out; they never hide money. The police arrest whom they can and otherwise bring the piece the
    roll favours closest to the nearest wanted (or any) thief."""
    rand = random.Random(rng.randint(0, 2**62))
    role, b = role_of(state, seat), board()
    arrests = [a for a in legal if isinstance(a, Arrest)]
    if arrests:
        return arrests[0]
    moves = [a for a in legal if isinstance(a, TjuvMove)]
    if not moves:
        for kind in (Breakout, Roll, EndTurn):
            found = next((a for a in legal if isinstance(a, kind)), None)
            if found is not None:
                return found
        return rand.choice([a for a in legal if not isinstance(a, Hide)] or legal)
    if role == 0:
        thieves = [t for t in state.thieves if t.status == FREE and t.at not in (None, HOUSE)]
        wanted = [t.at for t in thieves if t.wanted]
        targets = wanted or [t.at for t in thieves] or list(b.values)
        return max(moves, key=lambda a: 1000 * (a.to in wanted) - distance(a.to, targets) + rand.random())
    thief = state.thief(role)
    leaving = thief.money >= 5000
    goals = [sq for sq, e in b.escapes.items() if thief.money > e.fare] if leaving else list(b.values)
    kinds = ("escape",) if leaving else ("bank", "post")
    return max(moves, key=lambda a: 1000 * (b.kind[a.to] in kinds) - distance(a.to, goals) + rand.random())
