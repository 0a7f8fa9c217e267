"""The announcer: delivers the outbox as a living table, one current board per table.

Every committed change left an outbox entry in its own transaction; a per-table task delivers
what is pending and only then marks it done (a crash in between redelivers it at start-up or on
the periodic sweep). A table's moves that arrive faster than its board can be rendered and posted
are coalesced: the task always renders the newest committed state once.

While the same seat(s) go on acting, the current board is edited in place. When whoever must act
changes (and at start and end) a new board is posted, pinging the players it waits for, and the
superseded one is edited down to a one-line summary of its turn (no image, no buttons). Posts
carry a nonce Discord enforces, so a post retried after a crash returns the first message instead
of a second one; edits and summaries are idempotent. Each channel is paced to Discord's limit.
A board rides the interaction of whoever changed the table while its token serves (cogs/rides.py):
follow-ups and the webhook's edits do not count against Discord's global limit.
"""
from __future__ import annotations

import asyncio
import logging
from collections.abc import Sequence
from datetime import datetime
from typing import TYPE_CHECKING, Any

import discord
from discord.ext import commands, tasks

from bot.engine.core import Event
from bot.i18n import t
from bot.services.admission import Admission
from bot.services.budget import BOARD, FOLD, lane, while_waiting
from bot.services.instance import shard_scopes
from bot.services.outbox import ENDED, Outbox, Snapshot, event_to_dict, events_from
from bot.services.text import event_text, private_lines, public_lines
from bot.storage.announcements import BoardRow, Pending
from bot.storage.backend import SQLITE
from bot.storage.games import GameRow
from cogs import dmfold, drawing, ending
from cogs.board import board_view
from cogs.drawing import alt_text, png
from cogs.gameui import ui_for
from cogs.incidents import GOES_ON, UNKNOWN_MESSAGE, IncidentEvents, Incidents, transient
from cogs.news import (
    STARTED,
    SUBTEXT,
    board_content,
    dm_first_line,
    lobby_folded,
    result_content,
    targets,
    window_alone_line,
)
from cogs.notify import board_pings, heads_up, silent
from cogs.private import board_link, hand_only_view, private_message
from cogs.replies import NO_PINGS, clip, mention_of, paced, pinging
from cogs.rides import Ride, Rides

if TYPE_CHECKING:
    from cogs.client import GameMasterBot

log = logging.getLogger(__name__)

# Discord answers that will not change on a retry: give the entry up (logged) instead of looping
GIVE_UP = (discord.Forbidden, discord.NotFound)


def nonce(game_id: int, entry_id: int, tag: str = "") -> str:
    """At most 25 characters, the same on every retry of the same delivery."""
    return f"gm{_b36(game_id)}.{_b36(entry_id)}{tag}"[:25]


def _b36(number: int) -> str:
    digits = "0123456789abcdefghijklmnopqrstuvwxyz"
    out = ""
    while True:
        number, rest = divmod(number, 36)
        out = digits[rest] + out
        if not number:
            return out


def turn_so_far(old: BoardRow | None, public: list[Event], record: GameRow) -> list[Event]:
    """What a new board tells: the whole turn it follows (the superseded board's events and this
    delivery's), so its first line can lead with that turn's move, not with its last step."""
    if old is None or record.status == "finished":
        return public
    return events_from(e for e in old.events if not e.get("opening")) + public


def summary_text(events: Sequence[Event], record: GameRow, locale: str) -> str:
    """The one line a superseded board keeps: who did what in its turn (the start without its hash,
    which the first board's footer showed)."""
    lines = [t("msg.started", locale) if e.key == STARTED else line.replace("\n", " ")
             for e in events if e.visible_to is None
             for line in public_lines([e], record.names, locale)]
    return clip(" · ".join(lines) if lines else t("board.no_events", locale))


def marked(hint: Event | None, public: Sequence[Event]) -> Event | None:
    """The event the board marks: the newest one that happened to someone (a steal, which a lock
    of the thief's pile may follow), else the newest (``hint``)."""
    return next((e for e in reversed(public) if targets(e)), hint)


class Announcer(commands.Cog):
    def __init__(self, bot: GameMasterBot) -> None:
        self.bot = bot
        self.outbox = Outbox(bot.db)
        self._running: dict[int, asyncio.Task[None]] = {}
        self._again: set[int] = set()
        self.admission = Admission(bot.settings.announce_slots)
        # game -> {ply: seat}: the mover whose own new private view their interaction's answer
        # showed (cogs/moves.answer_with_own_view), so that the ply's DMs leave them out
        self._answered: dict[int, dict[int, int]] = {}
        # this process in the tables' delivery claims: named by the shards it serves, which the
        # instance lease gives to one live process at a time, so the process restarted after a
        # crash takes its predecessor's claims over at once instead of waiting for them to run out
        settings = bot.settings
        self.owner = "announcer " + ", ".join(shard_scopes(settings.shards, settings.shard_count))
        # other processes may commit to this database (PostgreSQL): see _run's last look
        self.shared = bot.db.backend != SQLITE
        self._closing = False
        self.rides = Rides(bot)  # the movers' interactions that carry boards (cogs/rides.py)
        # a deleted board, channel or permission, Discord failing: cogs/incidents.py
        self.incidents = Incidents(bot, self.wake)

    async def cog_load(self) -> None:
        self.rides.started_after = await self.outbox.latest()
        # the sweep's first round, once connected, delivers what the last run committed but did
        # not announce; later rounds retry what Discord refused for a while
        if self.bot.settings.announce_sweep_seconds > 0:
            self.sweep.change_interval(seconds=self.bot.settings.announce_sweep_seconds)
            self.sweep.start()

    async def cog_unload(self) -> None:
        """On a stop, end the deliveries in flight while the database and Discord are still
        there (their entries stay pending: the next start delivers them, the nonce prevents a
        second board)."""
        self.sweep.cancel()
        self._closing = True
        running = [task for task in self._running.values() if not task.done()]
        for task in running:
            task.cancel()
        await asyncio.gather(*running, return_exceptions=True)
        await self.incidents.close()
        await self.admission.close()

    @tasks.loop(seconds=60)
    async def sweep(self) -> None:
        try:
            await self.redeliver()
        except Exception:
            log.exception("announcement sweep failed")

    @sweep.before_loop
    async def before_sweep(self) -> None:
        await self.bot.wait_until_ready()

    async def redeliver(self) -> None:
        for game_id in await self.outbox.tables():
            self.wake(game_id)

    # ------------------------------------------------------------------ the per-table task
    def wake(self, game_id: int) -> None:
        """Deliver the table's pending entries soon (one task per table; a running one goes on)."""
        task = self._running.get(game_id)
        if task is not None and not task.done():
            self._again.add(game_id)
            return
        self._running[game_id] = asyncio.get_running_loop().create_task(
            self._run(game_id), name=f"gamemaster-announce-{game_id}")

    async def _run(self, game_id: int) -> None:
        claimed = drained = False
        playing = True  # the table goes on: on SQLite its claim is kept for its next delivery
        try:
            while True:
                channel = None
                # admission control: a few tables deliver at once, the others wait here and then
                # deliver their newest state once (bot/services/admission.py)
                async with self.admission.slot() as held:
                    self._again.discard(game_id)
                    # one process at a time delivers a table (another process may hold it: its own
                    # task or, should it die, the sweep after its claim ran out delivers what is left)
                    claimed = await self.outbox.claim(game_id, self.owner)
                    if not claimed:
                        return
                    snap = await self.outbox.snapshot(game_id)
                    playing = snap.record.status == "active"
                    if snap.pending:
                        channel = snap.record.channel_id
                        if self.bot.pacer.wait_time(channel) <= 0:
                            # a counted call that must wait for the global budget gives the slot
                            # back meanwhile (bot/services/admission.py)
                            with while_waiting(held.spare):
                                delivered = await self._deliver_or_give_up(snap)
                            if delivered:
                                continue
                            return  # held (Discord failing, a permission missing): retried later
                    elif game_id not in self._again:
                        drained = True
                        return
                if channel is not None:  # the channel's pace: wait without holding a slot
                    await self.bot.pacer.ready(channel)
        except Exception:  # noqa: BLE001 - the move stands; the sweep retries its announcement
            log.exception("could not announce game %s", game_id)
        finally:
            if self._running.get(game_id) is asyncio.current_task():
                del self._running[game_id]
            # one process delivers on SQLite: a table in play keeps its claim (renewed once half of
            # it has run, bot/services/outbox.py), two writes under the writer's lock a delivery
            # fewer; it is named by the shards served, so the process restarted after a crash holds
            # it too. A finished or ended table's claim is let go (nothing more to deliver).
            if claimed and (self.shared or not playing):
                try:
                    await self.outbox.release(game_id, self.owner)
                except Exception:  # noqa: BLE001 - the claim then runs out by itself
                    log.warning("could not release the delivery claim of game %s", game_id, exc_info=True)
                else:
                    await self._last_look(game_id, drained)

    async def _last_look(self, game_id: int, drained: bool) -> None:
        """Another process that committed a move while this one held the table's claim found the
        table claimed and left its delivery to this one: look once more after letting go, or the
        move would wait for the periodic sweep."""
        if not (drained and self.shared) or self._closing:
            return
        try:
            if await self.outbox.waiting(game_id):
                self.wake(game_id)
        except Exception:  # noqa: BLE001 - the sweep delivers it then
            log.warning("could not look for new announcements of game %s", game_id, exc_info=True)

    async def _deliver_or_give_up(self, snap: Snapshot) -> bool:
        """Deliver; False when the delivery is held for later (cogs/incidents.py)."""
        answered = dict(self._answered.get(snap.record.id, {}))  # the delivery takes them; a retry needs them
        try:
            try:
                await self.deliver(snap)
            except discord.NotFound as exc:
                if exc.code != UNKNOWN_MESSAGE or snap.board is None:
                    raise
                self._answered.setdefault(snap.record.id, {}).update(answered)
                await self.deliver(self.incidents.board_gone(snap))  # a deleted board is posted anew
        except Exception as exc:  # noqa: BLE001 - incidents are handled, the rest as before
            handled = await self.incidents.failed(snap, exc)
            if handled is not None:
                return handled == GOES_ON
            if not isinstance(exc, GIVE_UP):
                raise
            log.exception("could not announce game %s at ply %s; giving it up", snap.record.id, snap.record.ply)
            await self.outbox.delivered([p.id for p in snap.pending], None)
        else:
            self.incidents.delivered(snap.record)
        return True

    # ------------------------------------------------------------------ one delivery
    async def deliver(self, snap: Snapshot) -> None:
        record, board, pending = snap.record, snap.board, snap.pending
        ids = [p.id for p in pending]
        payloads = [p.payload for p in pending]
        events = events_from(e for p in payloads for e in p["events"])
        public = [e for e in events if e.visible_to is None]
        seats = self.private_seats(record, pending)
        first = pending[0].id
        if any(p["kind"] == ENDED for p in payloads):  # /game end abandoned the table
            if board is not None:
                await self.supersede(record, board, public, self.rides.of(record))
            await self.archive_thread(record)  # after the last edit: an archived thread refuses edits
            await self.outbox.delivered(ids, None)
            return
        started = any(p["started"] for p in payloads)
        finished = record.status == "finished"
        if finished:
            await ending.prepare(self.bot, record)
        if public or started or finished or board is None:
            to_act = sorted(self.bot.service.to_act(record))
            turned = any(p["previous_to_act"] is not None and p["previous_to_act"] != p["to_act"] for p in payloads)
            window = self.window_seats(record)
            if window and board is not None and board.to_act == window and not (started or finished):
                # the same window (an auction, a trade offer, the exchange): its one panel is edited,
                # and whoever it comes to wait on alone is told once, privately
                board = await self.edit_board(record, board, public, to_act, stored=window)
                seats -= await self.ping_alone(record, payloads, board.message_id, first, events)
            elif board is None or started or finished or turned or to_act != board.to_act:
                board = await self.new_board(record, board, public, to_act, first, stored=window or to_act)
                if record.status == "active":  # a turn DM carries the view: no second DM for it
                    seats -= await self.ping_turns(record, to_act, board.message_id, first, events)
                    await heads_up(self.bot, record, to_act, board.message_id, first)  # "you're next"
            else:
                board = await self.edit_board(record, board, public, to_act)
        await self.send_privates(record, seats, events, first, board, started=started)
        if finished:
            await self.archive_thread(record)
        await self.outbox.delivered(ids, board)

    def window_seats(self, record: GameRow) -> list[int]:
        """Every seat the window open at the table lets act (cogs/gameui.py), or [] when none is."""
        if record.status != "active":
            return []
        return sorted(ui_for(record.game).window(self.bot.service.observe(record, None)))

    def ride(self, game_id: int, interaction: discord.Interaction, *, move: bool = False) -> None:
        """The table's next deliveries may go out through this (answered) interaction."""
        self.rides.remember(game_id, interaction, move=move)

    def answered(self, game_id: int, ply: int, seat: int) -> None:
        """The move that made ``ply`` showed its mover their own new view in its answer."""
        self._answered.setdefault(game_id, {})[ply] = seat

    def private_seats(self, record: GameRow, pending: Sequence[Pending]) -> set[int]:
        """Seats whose private view the pending entries changed (or told them something), except
        a mover who saw their own view in their move's answer, unless a later move changed it."""
        answered = self._answered.pop(record.id, {})
        seats: set[int] = set()
        for entry in pending:
            changed = set(entry.payload["private_changed"])
            events = events_from(entry.payload["events"])
            changed |= {s for s in range(len(record.seats)) if private_lines(events, s, record.names, record.locale)}
            seats |= changed - {answered.get(entry.ply)}
        later = {ply: seat for ply, seat in answered.items() if ply > record.ply}
        if later:  # a move committed after this snapshot: its entry comes with the next delivery
            self._answered[record.id] = later
        return seats

    async def archive_thread(self, record: GameRow) -> None:
        """A finished or ended table in a thread the bot opened (``/game new thread:``) archives its
        thread once the result is posted; a later post there (a rematch) unarchives it."""
        channel = self.bot.get_channel(int(record.channel_id))
        try:
            if channel is None:
                channel = await self.bot.fetch_channel(int(record.channel_id))
            if isinstance(channel, discord.Thread) and self.bot.user and channel.owner_id == self.bot.user.id:
                await channel.edit(archived=True)
        except discord.HTTPException:
            log.warning("could not archive the thread of game %s", record.id, exc_info=True)

    def board_text(self, record: GameRow, events: Sequence[Event], to_act: Sequence[int]) -> tuple[str, list[str]]:
        """The board's text and the users it pings (cogs/news.py composes it: whom it waits for and
        the news first, the rest of the turn, the deadline, the seed at the end)."""
        locale = record.locale
        if record.status == "finished":  # the result, with its luck line and titles (cogs/ending.py)
            return clip(result_content(record, events, locale) + ending.lines(record)), []
        humans = [s for s in to_act if not record.seats[s].is_computer]
        watching = [s for s in sorted(self.bot.service.watchers(record)) if not record.seats[s].is_computer]
        users = [u for s in humans + watching if (u := record.user_of(s))]
        deadline = None
        if record.turn_deadline:
            stamp = int(datetime.fromisoformat(record.turn_deadline).timestamp())
            deadline = t("turn.deadline", locale, time=f"<t:{stamp}:f>", relative=f"<t:{stamp}:R>")
        text = board_content(record, events, humans, watching, lambda s: mention_of(record, s), deadline, locale)
        return clip(text), users

    async def board_files(self, record: GameRow, hint: Event | None,
                          public: Sequence[Event] = ()) -> list[discord.File]:
        """The board and its focus view, each with its alt text in the table's language; a finished
        game's result is its standings picture alone, full width (its animation comes with Replay)."""
        obs = self.bot.service.observe(record, None)
        locale = record.locale
        news = event_text(hint, record.names, locale, markup=False) if hint is not None else ""
        if record.status == "finished":
            image = await drawing.render_result(record, obs, locale)
            return [png(image, f"{record.game}-{record.ply}-result.png", alt_text(record, "result", obs, locale))]
        # the pictures' alt texts are written by the render workers with them, off the event loop
        image, words = await drawing.described_public(record, obs, locale, marked(hint, public), news)
        files = [png(image, f"{record.game}-{record.ply}.png", words)]
        focus = await drawing.described_focus(record, obs, locale, hint, news)
        if focus:
            files.append(png(focus[0], f"{record.game}-{record.ply}-focus.png", focus[1]))
        return files

    @staticmethod
    def board_embeds(files: list[discord.File]) -> list[discord.Embed]:
        """A board with its focus view shows each picture in an embed of its own: Discord stacks
        embeds at full width, while two plain attachments sit side by side at half width on a
        phone, where neither would be readable."""
        if len(files) < 2:
            return []
        return [discord.Embed().set_image(url=f"attachment://{file.filename}") for file in files]

    async def new_board(self, record: GameRow, old: BoardRow | None, public: list[Event], to_act: list[int],
                        first: int, stored: list[int]) -> BoardRow:
        """Post the board of a new turn (it notifies), then fold the superseded one to its summary."""
        # the new board opens with what led to it; the turn it closes keeps those events in its
        # summary, except the opening (no previous board) and the scoring (on the result board)
        kept = public if old is None or record.status == "finished" else []
        text, users = self.board_text(record, turn_so_far(old, public, record), to_act)
        users = await board_pings(self.bot, record, users)  # muted tables and ping limits (cogs/notify.py)
        files = await self.board_files(record, public[-1] if public else None, public)
        view = board_view(record, self.bot.service.observe(record, None), record.locale)
        ride = self.rides.of(record)
        orphan = await self.rides.orphan(record, old) if self.rides.may_have_posted(record, first) else None
        message = orphan or await self.rides.post(record, ride, nonce(record.id, first), content=text, files=files,
                                                  embeds=self.board_embeds(files), view=view,
                                                  allowed_mentions=pinging(*users))
        if message.content != text:
            # a post retried after a crash: Discord returned the first one; bring it up to date
            files = await self.board_files(record, public[-1] if public else None, public)
            with lane(BOARD):
                await self._edit(record.channel_id, message.id, content=text, attachments=files,
                                 embeds=self.board_embeds(files), view=view, allowed_mentions=pinging(*users))
        if old is not None and old.message_id != str(message.id):
            await self.fold(record, old, [] if kept else public, ride)
        elif old is None and record.board_message_id and record.board_message_id != str(message.id):
            await self.fold_lobby(record, record.board_message_id, str(message.id), ride)
        # the opening (the start, the first player's draw) is told once: the next board leaves it out
        opening = {"opening": True} if old is None else {}
        # ``stored``: whom the board is for (the seats to act, or everyone an open window lets act)
        return BoardRow(record.id, record.channel_id, str(message.id), stored,
                        [{**event_to_dict(e), **opening} for e in kept], record.ply)

    async def edit_board(self, record: GameRow, board: BoardRow, public: list[Event], to_act: list[int],
                         stored: list[int] | None = None) -> BoardRow:
        """The same seats go on acting: the current board shows the new position in place."""
        events = [*board.events, *(event_to_dict(e) for e in public)]
        text, users = self.board_text(record, events_from(events), to_act)
        files = await self.board_files(record, public[-1] if public else None, public)
        view = board_view(record, self.bot.service.observe(record, None), record.locale)
        with lane(BOARD):
            await self._edit_message(board.channel_id, board.message_id, self.rides.of(record), content=text,
                                     attachments=files, embeds=self.board_embeds(files), view=view,
                                     allowed_mentions=pinging(*users))
        return BoardRow(record.id, board.channel_id, board.message_id, stored or to_act, events, record.ply,
                        board.dms)

    async def fold(self, record: GameRow, board: BoardRow, public: list[Event], ride: Ride | None = None) -> None:
        """Fold the board a new one replaced: at once, or (cosmetic, so low priority) once the
        announcer has caught up when tables wait for a delivery or this channel for its pace; at once
        when the game is over."""
        # a finished game's thread is archived right after this delivery, and an archived thread
        # refuses edits: its last summary cannot wait
        carried = self.rides.carrier(board.message_id, ride) is not None  # an interaction folds it: not counted
        if record.status == "active" and (self.admission.pressed or self.bot.pacer.wait_time(record.channel_id) > 0
                                          or (self.bot.budget.pressed and not carried)):
            self.admission.later(f"the summary of board {board.message_id} of game {record.id}",
                                 lambda: self.supersede(record, board, public, ride))
            return
        await self.supersede(record, board, public, ride)

    async def fold_lobby(self, record: GameRow, lobby_id: str, board_id: str, ride: Ride | None = None) -> None:
        """The game started: its lobby message folds to one line that links the first board."""
        text = lobby_folded(record, board_link(record, board_id), record.locale)
        try:
            await self._edit_message(record.channel_id, lobby_id, ride, content=text, view=None,
                                     allowed_mentions=NO_PINGS)
        except discord.HTTPException as exc:  # a deleted lobby: the board stands on its own
            if not self.incidents.fold_failed(record, lobby_id, exc):
                log.warning("could not fold the lobby of game %s", record.id, exc_info=True)

    async def supersede(self, record: GameRow, board: BoardRow, public: list[Event], ride: Ride | None = None) -> None:
        """Edit a board that is no longer current down to the one-line summary of its turn."""
        text = summary_text([*events_from(board.events), *public], record, record.locale)
        try:
            with lane(FOLD):
                await self._edit_message(board.channel_id, board.message_id, ride, content=text, attachments=[],
                                         embeds=[], view=None, allowed_mentions=NO_PINGS)
        except discord.NotFound as exc:  # a deleted board needs no summary
            if not self.incidents.fold_failed(record, board.message_id, exc):
                raise

    async def _edit_message(self, channel_id: str, message_id: str, ride: Ride | None, **fields: Any) -> None:
        """Edit a message of the table: through an interaction that may edit it, else counted."""
        if not await self.rides.edit(channel_id, message_id, ride, **fields):
            await self._edit(channel_id, int(message_id), **fields)

    async def _edit(self, channel_id: str, message_id: int, **fields: Any) -> None:
        channel = self.bot.get_partial_messageable(int(channel_id))
        async with paced(self.bot, channel_id):
            await channel.get_partial_message(message_id).edit(**fields)

    # ------------------------------------------------------------------ direct messages
    async def send_privates(self, record: GameRow, seats: set[int], events: Sequence[Event], first: int,
                            board: BoardRow | None, *, started: bool = False) -> None:
        """Each seat's private view, naming its table and linking to the current board; one
        player's DM failing does not keep the others from theirs. A seat's DMs of one turn fold
        into one, edited (cogs/dmfold.py)."""
        for seat in sorted(seats):
            try:
                await self.send_private(record, seat, events, nonce(record.id, first, f"d{seat}"), board,
                                        started=started)
            except Exception as exc:  # noqa: BLE001 - logged; the other players still get their views
                if transient(exc):
                    raise  # Discord failing: the whole delivery is retried (nonces: nothing twice)
                log.exception("could not send the private view of seat %s in game %s", seat, record.id)

    async def send_private(self, record: GameRow, seat: int, events: Sequence[Event], tag: str,
                           board: BoardRow | None, *, started: bool = False) -> None:
        """DM a player their private view (or edit the one this turn sent them, telling both); if
        Discord refuses (50007), tell the channel once."""
        seat_row = record.seats[seat]
        if seat_row.is_computer or not seat_row.user_id:
            return
        user_id = seat_row.user_id
        locale = await self.bot.user_locale(user_id, record.locale)
        events = dmfold.told(board, seat, events)
        content, file, view = await private_message(self.bot, record, seat, locale, events,
                                                    board.message_id if board else None)
        if file is None and not content:
            return
        kwargs: dict[str, Any] = {"content": content, "allowed_mentions": NO_PINGS}
        if file is not None:
            kwargs["file"] = file
        if view is not None:
            kwargs["view"] = view
        if (seat in self.bot.service.to_act(record) or (started and self.rides.present(record, user_id))) \
                and await self.rides.tell(record.id, user_id, start=started, **kwargs):
            # their turn's view rides their own last move's interaction (at the start, the one they
            # sat down by; cogs/rides.py), and the starter's first hand rides the start
            return
        try:
            dm = await self.bot.fetch_dm_target(int(user_id))
            kwargs["nonce"] = tag
            kwargs["silent"] = await silent(self.bot, record, user_id)
            await dmfold.send(dm, board, seat, kwargs, events)
        except discord.Forbidden as exc:
            if exc.code != 50007:
                raise
            if await self.bot.mark_dm(user_id, ok=False):
                channel = self.bot.get_partial_messageable(int(record.channel_id))
                async with paced(self.bot, record.channel_id):
                    locale = record.locale
                    text = t("msg.addressed", locale, who=f"<@{user_id}>", text=t("msg.dm_closed", locale))
                    await channel.send(text,
                                       view=hand_only_view(record, record.locale), allowed_mentions=pinging(user_id))
        else:
            await self.bot.mark_dm(user_id, ok=True)

    async def ping_alone(self, record: GameRow, payloads: Sequence[dict[str, Any]], board_id: str, first: int,
                         events: Sequence[Event]) -> set[int]:
        """A window that now waits on one player alone (the others answered) tells them so by DM,
        their second and last notification of it (the panel's post was the first)."""
        alone = {p["to_act"][0] for p in payloads
                 if len(p["to_act"]) == 1 and p["previous_to_act"] != p["to_act"]}
        told: set[int] = set()
        for seat in sorted(alone):
            seat_row = record.seats[seat]
            if seat_row.is_computer or not seat_row.user_id or seat not in self.bot.service.to_act(record):
                continue
            try:
                locale = await self.bot.user_locale(seat_row.user_id, record.locale)
                content, file, view = await private_message(self.bot, record, seat, locale, events, board_id)
                first_line = window_alone_line(record, seat, events, locale)
                footer = SUBTEXT + board_link(record, board_id)
                kwargs: dict[str, Any] = {"content": clip(f"{first_line}\n{content or footer}"),
                                          "nonce": nonce(record.id, first, f"a{seat}"), "allowed_mentions": NO_PINGS,
                                          "silent": await silent(self.bot, record, seat_row.user_id)}
                if file is not None:
                    kwargs["file"] = file
                if view is not None:
                    kwargs["view"] = view
                dm = await self.bot.fetch_dm_target(int(seat_row.user_id))
                await dm.send(**kwargs)
                told.add(seat)
            except discord.Forbidden as exc:
                if exc.code != 50007:
                    raise
                await self.bot.mark_dm(seat_row.user_id, ok=False)
            except Exception as exc:  # noqa: BLE001 - logged; the panel still shows whom it waits for
                if transient(exc):
                    raise
                log.exception("could not tell seat %s of game %s that the window waits on them", seat, record.id)
        return told

    async def ping_turns(self, record: GameRow, to_act: Sequence[int], board_id: str, first: int,
                         events: Sequence[Event]) -> set[int]:
        """The turn DMs of the seats to act who asked for them (the seats sent their view); one
        player's DM failing does not keep the others from theirs, nor the board from standing."""
        viewed: set[int] = set()
        for seat in to_act:
            try:
                if await self.ping_turn(record, seat, board_id, first, events):
                    viewed.add(seat)
            except Exception as exc:  # noqa: BLE001 - logged; the board already pinged them
                if transient(exc):
                    raise
                log.exception("could not send the turn DM of seat %s in game %s", seat, record.id)
        return viewed

    async def ping_turn(self, record: GameRow, seat: int, board_id: str, first: int, events: Sequence[Event]) -> bool:
        """The opt-in "DM me when it's my turn" (``/game prefs ping:``): in a game with a private
        view the DM is that view with its controls for this very position, else one line with the
        link to the board. True when the seat was sent its view."""
        seat_row = record.seats[seat]
        if seat_row.is_computer or not seat_row.user_id:
            return False
        prefs = await self.bot.players.prefs(seat_row.user_id)
        if not prefs.ping_on_turn or not prefs.dm_ok:
            return False
        locale = prefs.language or record.locale
        content, file, view = await private_message(self.bot, record, seat, locale, events, board_id)
        if not content:  # no private view: the news and the board's link
            content = dm_first_line(record, seat, events, locale, their_turn=True) + "\n" + SUBTEXT + t(
                "turn.dm_ping", locale, game=t(f"game.name.{record.game}", locale), link=board_link(record, board_id))
        kwargs: dict[str, Any] = {"content": clip(content), "nonce": nonce(record.id, first, f"p{seat}"),
                                  "allowed_mentions": NO_PINGS,
                                  "silent": await silent(self.bot, record, seat_row.user_id)}  # cogs/notify.py
        if file is not None:
            kwargs["file"] = file
        if view is not None:
            kwargs["view"] = view
        try:
            dm = await self.bot.fetch_dm_target(int(seat_row.user_id))
            await dm.send(**kwargs)
        except discord.Forbidden as exc:
            if exc.code != 50007:
                raise
            await self.bot.mark_dm(seat_row.user_id, ok=False)
            return False
        return bool(content or file)

async def setup(bot: Any) -> None:
    await bot.add_cog(Announcer(bot))
    await bot.add_cog(IncidentEvents(bot))  # the gateway's deleted channels and permission changes
