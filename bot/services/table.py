"""GameService: the one door through which Discord, the console and tests change games.

Its calls live with their seams: the lobby (``lobby.Lobby``), the seats nobody plays in time and
the games' timers (``timeouts.Timeouts``), and here the moves themselves; the shared reads are
``core.ServiceCore``, the steps every change of a running game goes through ``pipeline``, the move
log's markers and replay ``movelog``, the turn clock ``turn_clock``.

Every user action is one transaction: lock the game, take its state, apply on it, append the move,
save the snapshot, bump the version (conditional on the version read, so a double click applies
once). Engines raise before mutating; a raised error rolls the transaction back and nothing changes.
"""
from __future__ import annotations

from bot.engine.core import Event
from bot.errors import AlreadyApplied, Conflict, Forbidden, GameMasterError, IllegalAction
from bot.services.lobby import Lobby
from bot.services.movelog import RESIGN
from bot.services.timeouts import Timeouts
from bot.services.update import Update
from bot.storage import games as repo


class GameService(Lobby, Timeouts):
    """Create, join and start tables, apply moves, resign, end; timeouts and timers."""

    # ------------------------------------------------------------------ play
    async def act(self, *, user_id: str, action: str, channel_id: str | None = None, game_id: int | None = None,
                  expected_ply: int | None = None, owner: int | None = None,
                  interaction_id: str | None = None, reply_privately: bool = False) -> Update:
        """Apply ``action`` for ``user_id``. ``expected_ply`` dates the button that was clicked: a
        board button is stale once anything moved; a button of the player's own private view
        (``owner``: only that seat may press it) only once that player moved since, so the other players' simultaneous
        decisions (Stratego setups, Tölp exchanges) do not invalidate it, while a double click
        still applies once. ``interaction_id`` (a slash command's) is stored with the move: the
        same interaction delivered again raises AlreadyApplied and changes nothing."""
        await self.foresee(user_id=user_id, action=action, channel_id=channel_id, game_id=game_id)
        async with self.db.transaction(inline=True) as conn:  # a move's few short statements
            try:
                record = await self.pipeline.lock(conn, channel_id=channel_id, game_id=game_id)
            except GameMasterError:  # e.g. the game this very interaction finished
                if interaction_id is not None and await repo.interaction_applied(conn, interaction_id):
                    raise AlreadyApplied() from None
                raise
            if interaction_id is not None and \
                    not await repo.record_interaction(conn, interaction_id, record.id, record.ply + 1):
                raise AlreadyApplied()
            seat = record.seat_of(user_id)
            if seat is None:  # never seated, or someone else plays the seat now (bot.services.seats)
                raise await self.not_seated(record, user_id, conn)
            if owner is not None and owner != seat:
                raise Forbidden("error.not_your_button")
            if expected_ply is not None and expected_ply != record.ply:
                if owner is None or expected_ply > record.ply or \
                        await repo.moved_since(conn, record.id, seat, expected_ply):
                    raise Conflict("error.stale")
            turn = self.pipeline.take(conn, record, reply_privately=reply_privately)
            try:
                parsed = turn.game.parse_action(action)
                events = turn.game.apply(turn.state, seat, parsed)
            except GameMasterError as exc:
                exc.names = record.names  # so the refusal can name the players it mentions
                raise
            return await turn.play(seat, str(parsed), list(events))

    async def resign(self, channel_id: str, user_id: str) -> Update:
        async with self.db.transaction() as conn:
            record = await self.pipeline.lock(conn, channel_id=channel_id)
            seat = record.seat_of(user_id)
            if seat is None:
                raise Forbidden("error.not_seated")
            turn = self.pipeline.take(conn, record)
            try:
                events = turn.game.resign(turn.state, seat)
            except NotImplementedError:
                raise IllegalAction("error.resign_unsupported") from None
            # one announcement: the game's own resignation line when it has one, else the table's
            told = any(e.key.endswith((".event.resigned", ".event.resigns")) and e.params.get("seat") == seat
                       for e in events)
            return await turn.play(seat, RESIGN, events if told else [Event("game.event.resigned", {"seat": seat}),
                                                                     *events])
