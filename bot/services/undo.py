"""Undo by consent: a player asks to take back their last move, the others agree or refuse.

The move (and the computer seats' moves that followed it) is taken back by replaying the log
without it: an ``!undo N`` marker is appended, so the log keeps the undone moves, marked, and
``replay`` leaves them out. A move that revealed chance or hidden information (``bot.engine.reveal``)
is never taken back. Agreement: every other human player, or a majority of them at a table of five
or more; computer seats always agree.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from bot.engine import registry
from bot.engine.core import TIMER, Event, Game
from bot.engine.reveal import revealed
from bot.errors import Forbidden, IllegalAction
from bot.services.movelog import CLOSE, RESIGN, UNDO, replay
from bot.services.table import GameService
from bot.services.update import Update
from bot.storage import games as repo
from bot.storage import seats as seats_repo
from bot.storage import undo as undo_repo
from bot.storage.games import GameRow

MAJORITY_FROM = 5  # players at the table from which a majority of the others decides


@dataclass
class UndoRequest:
    record: GameRow
    seat: int  # whose move would be taken back
    ply: int  # the game's ply the request is dated by
    moves: int  # how many moves it takes back (the player's and the computers' after it)
    asked: list[int]  # the human seats whose answer counts
    needed: int
    agreed: int = 0
    refused_by: int | None = None
    update: Update | None = None  # the move was taken back


def live_moves(rows: list[tuple[int, int, str, str]]) -> list[tuple[int, int, str]]:
    """The (ply, seat, action) moves in force: those an ``!undo N`` marker took back left out."""
    kept: list[tuple[int, int, str]] = []
    for ply, seat, action, _ in rows:
        if action.startswith(UNDO + " "):
            del kept[len(kept) - int(action.split()[1]):]
        else:
            kept.append((ply, seat, action))
    return kept


class Undo:
    def __init__(self, service: GameService) -> None:
        self.service = service

    async def ask(self, *, user_id: str, channel_id: str | None = None, game_id: int | None = None,
                  ply: int | None = None) -> UndoRequest:
        """``user_id`` asks to take back their last move; with nobody to ask it is taken back now.
        ``ply`` dates a board button (the board must still be the current one)."""
        async with self.service.db.transaction() as conn:
            record = await self.service.pipeline.lock(conn, channel_id=channel_id, game_id=game_id)
            if ply is not None and ply != record.ply:
                raise IllegalAction("undo.error.moved_on")
            seat = record.seat_of(user_id)
            if seat is None:
                raise Forbidden("error.not_seated")
            request = await self._plan(conn, record, seat)
            if request.needed == 0:
                request.update = await self._take_back(conn, record, request)
            else:
                await undo_repo.answer(conn, record.id, record.ply, seat, True)
        if request.update is not None:
            request.record = request.update.record
        return request

    async def answer(self, *, game_id: int, ply: int, user_id: str, agree: bool) -> UndoRequest:
        """Another player's answer to the request dated ``ply``."""
        async with self.service.db.transaction() as conn:
            record = await self.service.pipeline.lock(conn, game_id=game_id)
            if record.ply != ply:
                raise IllegalAction("undo.error.moved_on")
            voter = record.seat_of(user_id)
            if voter is None:
                raise Forbidden("error.not_seated")
            request = await self._plan(conn, record, None)
            if voter == request.seat:
                raise IllegalAction("undo.error.own_request")
            if not (await undo_repo.answers(conn, record.id, ply)).get(request.seat):
                raise IllegalAction("undo.error.no_request")
            answers = await undo_repo.answer(conn, record.id, ply, voter, agree)
            request.agreed = sum(1 for s in request.asked if answers.get(s) is True)
            refusals = sum(1 for s in request.asked if answers.get(s) is False)
            if refusals > len(request.asked) - request.needed:
                request.refused_by = voter
                await undo_repo.clear(conn, record.id)
            elif request.agreed >= request.needed:
                request.update = await self._take_back(conn, record, request)
        if request.update is not None:
            request.record = request.update.record
        return request

    # ------------------------------------------------------------------ internals
    async def _plan(self, conn: Any, record: GameRow, seat: int | None) -> UndoRequest:
        """What an undo would take back now (for ``seat``, when given); raises the refusal."""
        game = registry.get(record.game)
        live = live_moves(await repo.moves(conn, record.id))
        first = len(live)
        while first > 0 and (live[first - 1][1] == TIMER or record.seats[live[first - 1][1]].is_computer):
            first -= 1
        if first == 0 or live[first - 1][2] in (RESIGN, CLOSE):
            raise IllegalAction("undo.error.nothing")
        first -= 1
        mover = live[first][1]
        if seat is not None and mover != seat:
            error = IllegalAction("undo.error.not_last", seat=mover)
            error.names = record.names
            raise error
        if any(h.seat == mover and h.from_ply >= live[first][0] and h.kind != seats_repo.START
               for h in await seats_repo.holders(conn, record.id)):
            raise IllegalAction("seats.error.undo_other_holder")  # made by whoever held the seat before
        self._check_nothing_revealed(game, record, live, first)
        asked = [s.seat for s in record.seats if not s.is_computer and s.seat != mover]
        needed = len(asked) // 2 + 1 if len(record.seats) >= MAJORITY_FROM and asked else len(asked)
        return UndoRequest(record, mover, record.ply, len(live) - first, asked, needed)

    @staticmethod
    def _check_nothing_revealed(game: Game[Any], record: GameRow, live: list[tuple[int, int, str]],
                                first: int) -> None:
        players = len(record.seats)
        state = replay(game, players, record.options, record.seed, [(s, a) for _, s, a in live[:first]])
        for _, seat, action in live[first:]:
            reason = revealed(game, state, seat, action, players)
            if reason is not None:
                raise IllegalAction(f"undo.error.{reason}")
            game.apply(state, seat, game.parse_action(action))

    async def _take_back(self, conn: Any, record: GameRow, request: UndoRequest) -> Update:
        """Replay the log without the moves taken back; the marker is the change's own move (the
        clock does not charge the player for it)."""
        game = registry.get(record.game)
        rows = await repo.moves(conn, record.id)
        marker = f"{UNDO} {request.moves}"
        state = replay(game, len(record.seats), record.options, record.seed,
                       [(s, a) for _, s, a, _ in rows] + [(request.seat, marker)])
        turn = self.service.pipeline.replace(conn, record, state)
        await turn.commit(request.seat, marker, spend_bank=False)
        await undo_repo.clear(conn, record.id)
        turn.update.events.append(Event("undo.event.undone", {"seat": request.seat, "moves": request.moves}))
        turn.orders = {}  # what was taken back is played again by hand: standing orders wait for the next move
        await turn.computers()
        return await turn.finish()


__all__ = ["Undo", "UndoRequest", "live_moves"]
