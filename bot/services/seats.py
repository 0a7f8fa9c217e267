"""Seats that change hands while a game runs: a friend takes over a seat (``/game replace``), a
computer seat goes back to a human the same way, and a seat-sitter plays a seat while its owner
is away (``/game sitter``).

A replacement is asked for by a player at the table (or the table's creator, or a member with
Manage Server); the other human players vote by button — all of them, or a majority at five
players or more — and the newcomer then accepts or declines. When the seat's player has left the
server, the creator or a manager decides alone. A vote against, the newcomer's "no", or a day
without an answer ends the request. A sitter is named by the seat's own player and plays at once;
the owner (or the sitter) hands the seat back with ``/game sitter`` and no one named, returning
from ``/game vacation`` does it too, and a game that ends gives every seat back to its owner
(``pipeline.finished``).

A change of hands goes through the move pipeline like any change of a running table (lock → take
→ the seat's row changed → finish with ``handed``: the new holder gets the seat's private view
as on a start, and its clock: the seat's time bank stays with the seat). The move log keeps seat
numbers only, so the game replays from its seed exactly; ``seat_holders`` says who held each seat
from which ply on, for the log and the export. The old holder loses the seat: their buttons and
private views refuse them in words (``why_not_seated``), their personal web links stop working
(a link names its seat's user, ``bot.web.links``)."""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import TYPE_CHECKING, Any

from bot.engine import registry
from bot.engine.core import Event
from bot.errors import Forbidden, IllegalAction, NotFound
from bot.i18n import t
from bot.services import clock
from bot.services.orders import clear_orders
from bot.services.turn_clock import stamp, turn_deadline
from bot.services.update import Update
from bot.storage import games as repo_games
from bot.storage import seats as repo
from bot.storage.games import GameRow
from bot.storage.seats import HolderRow, RequestRow

if TYPE_CHECKING:
    from bot.services.table import GameService

EXPIRES = timedelta(days=1)  # an unanswered replacement lapses after this
MAJORITY_FROM = 5  # players at the table from which a majority of the others decides
VOTING, AGREED, DONE, REFUSED, DECLINED, EXPIRED, VOID = ("voting", "agreed", "done", "refused", "declined",
                                                          "expired", "void")


@dataclass
class SeatRequest:
    """A replacement as it stands: its row, the game, whose votes count and how many it needs."""

    row: RequestRow
    record: GameRow
    voters: list[int]
    needed: int
    refused_by: int | None = None
    update: Update | None = None  # the seat changed hands (the newcomer accepted)
    old_name: str = ""  # who held the seat before
    notes: list[str] = field(default_factory=list)

    @property
    def agreed(self) -> int:
        return sum(1 for s in self.voters if self.row.answers.get(s) is True)


def voters_of(record: GameRow, seat: int) -> tuple[list[int], int]:
    """The human seats whose vote counts on ``seat`` and how many must agree."""
    voters = [s.seat for s in record.seats if not s.is_computer and s.seat != seat]
    needed = len(voters) // 2 + 1 if len(record.seats) >= MAJORITY_FROM and voters else len(voters)
    return voters, needed


def sitting_name(sitter: str, owner: str, locale: str) -> str:
    """How the board names a seat a sitter plays: "Bo (for Ann)"."""
    return t("seats.sitting_name", locale, sitter=sitter, owner=owner)


def namer(record: GameRow, rows: list[HolderRow], locale: str | None) -> Callable[[int, int], str]:
    """Who made the move ``ply`` of ``seat``: the seat's holder then ("Bo (for Ann)" for a
    sitter), from the seat's holder rows; a seat that never changed hands, its player."""
    by_seat: dict[int, list[HolderRow]] = {}
    for row in rows:
        by_seat.setdefault(row.seat, []).append(row)

    def name(seat: int, ply: int) -> str:
        held = [r for r in by_seat.get(seat, []) if r.from_ply < ply]
        if not held or not 0 <= seat < len(record.seats):
            return record.names[seat] if 0 <= seat < len(record.seats) else "?"
        row = held[-1]
        if row.kind == repo.SITTER and row.owner_name:
            return sitting_name(row.name, row.owner_name, locale or record.locale)
        return row.name

    return name


class Seats:
    def __init__(self, service: GameService, clock_: Callable[[], datetime] | None = None) -> None:
        self.service = service
        self.clock = clock_ or getattr(service, "clock", None) or (lambda: datetime.now(UTC))

    # ------------------------------------------------------------------ replacement
    async def ask(self, *, channel_id: str, seat: int, newcomer_id: str, newcomer_name: str, newcomer_bot: bool,
                  asked_by: str, is_manager: bool = False, holder_left: bool = False) -> SeatRequest:
        """Ask that ``newcomer_id`` take over ``seat`` (0-based). The asker's own vote counts as a
        yes; ``holder_left`` (the seat's player is no longer a member of the server) lets the
        table's creator or a manager decide alone."""
        now = self.clock()
        async with self.service.db.transaction() as conn:
            record = await self.service.pipeline.lock(conn, channel_id=channel_id)
            if not 0 <= seat < len(record.seats):
                raise IllegalAction("seats.error.no_seat", maximum=len(record.seats))
            asker = record.seat_of(asked_by)
            decides = record.creator_id == str(asked_by) or is_manager
            if asker is None and not decides:
                raise Forbidden("seats.error.not_at_table")
            self._check_newcomer(record, seat, newcomer_id, newcomer_bot)
            if await repo.open_request(conn, record.id, seat) is not None:
                raise IllegalAction("seats.error.pending", number=seat + 1)
            if seat in repo.sitters(await repo.holders(conn, record.id)):
                raise IllegalAction("seats.error.sitter_first", number=seat + 1)
            voters, needed = voters_of(record, seat)
            answers = {asker: True} if asker is not None and asker in voters else {}
            row = RequestRow(0, record.id, seat, repo.holder_key(record, seat), str(newcomer_id), newcomer_name,
                             str(asked_by), answers, VOTING, stamp(now + EXPIRES), created_at=stamp(now),
                             channel_id=record.channel_id, locale=record.locale)
            alone = decides and holder_left and not record.seats[seat].is_computer
            if alone or sum(1 for s in voters if answers.get(s)) >= needed:
                row.status = AGREED
            row.id = await repo.insert_request(conn, row)
        return SeatRequest(row, record, voters, needed, old_name=record.names[seat])

    @staticmethod
    def _check_newcomer(record: GameRow, seat: int, newcomer_id: str, newcomer_bot: bool) -> None:
        if newcomer_bot:
            raise IllegalAction("seats.error.bot")
        held = record.seat_of(newcomer_id)
        if held is not None and not (held == seat and record.seats[seat].is_computer):
            raise IllegalAction("seats.error.already_seated", number=held + 1)

    async def _locked(self, conn: Any, request_id: int) -> tuple[RequestRow, GameRow]:
        row = await repo.request(conn, request_id, lock=True)
        if row is None:
            raise NotFound("seats.error.unknown_request")
        if row.status not in (VOTING, AGREED):
            raise IllegalAction(f"seats.error.request_{row.status}")
        record = await self.service.pipeline.lock(conn, game_id=row.game_id)
        if repo.holder_key(record, row.seat) != row.holder:
            raise IllegalAction("seats.error.seat_changed", number=row.seat + 1)
        return row, record

    async def vote(self, request_id: int, user_id: str, agree: bool) -> SeatRequest:
        """A player's vote on a replacement."""
        async with self.service.db.transaction() as conn:
            row, record = await self._locked(conn, request_id)
            voter = record.seat_of(user_id)
            if voter is None:
                raise Forbidden("seats.error.not_voter")
            if voter == row.seat:
                raise Forbidden("seats.error.own_seat")
            if row.status != VOTING:
                raise IllegalAction("seats.error.voting_over")
            voters, needed = voters_of(record, row.seat)
            if voter not in voters:
                raise Forbidden("seats.error.not_voter")
            row.answers[voter] = agree
            request = SeatRequest(row, record, voters, needed, old_name=record.names[row.seat])
            refusals = sum(1 for s in voters if row.answers.get(s) is False)
            if refusals > len(voters) - needed:
                row.status, request.refused_by = REFUSED, voter
            elif request.agreed >= needed:
                row.status = AGREED
            await repo.save_request(conn, row)
        return request

    async def answer(self, request_id: int, user_id: str, accept: bool) -> SeatRequest:
        """The newcomer accepts (the seat is theirs now) or declines."""
        async with self.service.db.transaction() as conn:
            row, record = await self._locked(conn, request_id)
            if str(user_id) != row.newcomer_id:
                raise Forbidden("seats.error.not_newcomer")
            if row.status != AGREED:
                raise IllegalAction("seats.error.not_agreed")
            voters, needed = voters_of(record, row.seat)
            request = SeatRequest(row, record, voters, needed, old_name=record.names[row.seat])
            if not accept:
                row.status = DECLINED
                await repo.save_request(conn, row)
                return request
            self._check_newcomer(record, row.seat, row.newcomer_id, False)
            row.status = DONE
            await repo.save_request(conn, row)
            request.update = await self._hand(conn, record, row.seat, row.newcomer_id, row.newcomer_name,
                                              repo.REPLACED, Event("seats.event.replaced", {"seat": row.seat}))
        request.record = request.update.record
        return request

    async def expire(self, now: datetime) -> list[SeatRequest]:
        """Close the requests left unanswered for a day and those of games that ended."""
        out = []
        async with self.service.db.transaction() as conn:
            for row in await repo.due_requests(conn, stamp(now)):
                record = await repo_games.get(conn, row.game_id)
                if record is None:
                    continue
                row.status = EXPIRED if record.status == "active" else VOID
                await repo.save_request(conn, row)
                voters, needed = voters_of(record, row.seat)
                out.append(SeatRequest(row, record, voters, needed, old_name=record.names[row.seat]))
        return out

    async def set_message(self, request_id: int, message_id: str) -> None:
        async with self.service.db.transaction() as conn:
            await repo.set_message(conn, request_id, message_id)

    # ------------------------------------------------------------------ sitters
    async def sit(self, *, channel_id: str, owner_id: str, sitter_id: str, sitter_name: str,
                  sitter_bot: bool) -> Update:
        """The seat of ``owner_id`` is played by ``sitter_id`` until handed back."""
        async with self.service.db.transaction() as conn:
            record = await self.service.pipeline.lock(conn, channel_id=channel_id)
            rows = await repo.holders(conn, record.id)
            seat = record.seat_of(owner_id)
            if seat is None:
                raise await self.service.not_seated(record, owner_id, conn)
            sitting = repo.sitters(rows).get(seat)
            if sitting is not None:
                raise IllegalAction("seats.error.you_sit" if sitting.owner_id == str(owner_id)
                                    else "seats.error.sitter_names")
            if str(sitter_id) == str(owner_id):
                raise IllegalAction("seats.error.sit_self")
            self._check_newcomer(record, seat, sitter_id, sitter_bot)
            owner_name = record.names[seat]
            name = sitting_name(sitter_name, owner_name, record.locale)
            return await self._hand(conn, record, seat, str(sitter_id), name, repo.SITTER,
                                    Event("seats.event.sitting", {"seat": seat}), known=rows,
                                    holder_name=sitter_name, owner=(str(owner_id), owner_name))

    async def stand_up(self, *, channel_id: str | None = None, game_id: int | None = None,
                       user_id: str) -> Update:
        """The seat a sitter plays goes back to its owner (asked by the owner or the sitter)."""
        async with self.service.db.transaction() as conn:
            record = await self.service.pipeline.lock(conn, channel_id=channel_id, game_id=game_id)
            rows = await repo.holders(conn, record.id)
            found = [(seat, row) for seat, row in repo.sitters(rows).items()
                     if str(user_id) in (row.owner_id, row.user_id)]
            if not found or found[0][1].owner_id is None:
                raise IllegalAction("seats.error.no_sitter")
            seat, row = found[0]
            owner_id = row.owner_id
            assert owner_id is not None
            return await self._hand(conn, record, seat, owner_id, row.owner_name or "?", repo.RETURNED,
                                    Event("seats.event.returned", {"seat": seat}), known=rows)

    async def back_from_vacation(self, owner_id: str) -> list[Update]:
        """Every seat someone sits for ``owner_id`` goes back to them (``/game vacation days:0``)."""
        async with self.service.db.reading() as conn:
            games = await repo.sat_games(conn, str(owner_id))
        return [await self.stand_up(game_id=game_id, user_id=owner_id) for game_id in games]

    # ------------------------------------------------------------------ the change of hands
    async def _hand(self, conn: Any, record: GameRow, seat: int, user_id: str, name: str, kind: str,
                    event: Event, *, known: list[HolderRow] | None = None, holder_name: str | None = None,
                    owner: tuple[str, str] | None = None) -> Update:
        """``user_id`` holds ``seat`` from now on, through the pipeline: the seat's row, its holder
        row, its clock (the new holder's vacation counts), the new holder's private view."""
        await repo.add_holder(conn, record, seat, user_id, holder_name or name, kind,
                              owner_id=owner[0] if owner else None, owner_name=owner[1] if owner else None,
                              known=known)
        await repo.set_holder(conn, record, seat, user_id, name)
        await clear_orders(conn, record.id, seat)  # the seat's standing orders were its last holder's
        turn = self.service.pipeline.take(conn, record, events=[event])
        game = registry.get(record.game)
        now = self.clock()
        started = clock.parse_time(record.turn_started_at) or now
        due = await turn_deadline(conn, game, turn.state, record, started)
        if due != record.turn_deadline:
            await repo_games.set_deadline(conn, record.id, due, stamp(now))
            record.turn_deadline = due
        return await turn.finish(handed=frozenset({seat}))

    async def holders(self, game_id: int) -> list[HolderRow]:
        async with self.service.db.reading() as conn:
            return await repo.holders(conn, game_id)

__all__ = ["EXPIRES", "SeatRequest", "Seats", "namer", "sitting_name", "voters_of"]
