"""Boards ride the mover's interaction: Discord's global limit of 50 requests per second binds
every route but the interaction endpoints, so the board a move makes goes out as that move's
interaction's follow-up (and its edits and folds through the same webhook) while the token serves
(15 minutes; used for 14). What no interaction carries — a timer at night, a reminder, a DM, a
delivery after a restart — stays a counted channel call with its nonce.

Crash safety: a follow-up has no nonce. A delivery that may have posted one before the process
died (an entry committed before this process started, or a follow-up whose answer never came)
first looks in the channel for a board of the table an interaction of the bot posted after the
current one (one counted GET) and adopts it instead of posting a second: every outbox entry is
shown exactly once, whichever way it went out.
"""
from __future__ import annotations

import asyncio
import logging
import re
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

import discord

from bot.services.budget import BOARD, lane
from bot.storage.announcements import BoardRow
from bot.storage.games import GameRow
from cogs.hooks import Sent, edit_follow_up, edit_original, follow_up
from cogs.replies import paced

if TYPE_CHECKING:
    from cogs.client import GameMasterBot

log = logging.getLogger(__name__)

# an interaction's token serves its follow-ups and their edits for 15 minutes: used for 14
RIDE_SECONDS = 14 * 60.0
RIDES_KEPT = 20_000  # tables and board messages whose carrying interaction this process remembers
# Discord's answers to a webhook call whose token no longer serves: Unknown Webhook, Invalid Webhook Token
EXPIRED_CODES = frozenset({10015, 50027})
LOOK_BACK = 10  # messages after the current board searched for one a dead process's follow-up posted


@dataclass
class Ride:
    """A mover's interaction whose webhook carries what its move makes the table post: follow-ups
    and edits of the interaction's own messages do not count against Discord's global limit."""

    interaction: discord.Interaction
    until: float  # loop time after which its token is not used any more
    original: str | None  # the message its ``@original`` is: the board (or lobby) a button was pressed on

    @property
    def fresh(self) -> bool:
        return asyncio.get_running_loop().time() < self.until


def ride_of(interaction: discord.Interaction) -> Ride:
    age = (datetime.now(UTC) - interaction.created_at).total_seconds()
    # a click answered by a (deferred) update of the message it was on: ``@original`` is that message
    updated = interaction.response.type in (discord.InteractionResponseType.deferred_message_update,
                                            discord.InteractionResponseType.message_update)
    clicked = interaction.message.id if updated and interaction.message is not None else None
    return Ride(interaction, asyncio.get_running_loop().time() + RIDE_SECONDS - max(0.0, age),
                None if clicked is None else str(clicked))


def expired(exc: discord.HTTPException) -> bool:
    """Discord refused the call because the interaction's token no longer serves (nothing was
    posted): the same call as a counted channel call is then the only way."""
    return exc.code in EXPIRED_CODES or exc.status == 401


def custom_ids(message: discord.Message) -> Iterator[str]:
    for row in message.components:
        for item in getattr(row, "children", [row]):
            custom_id = getattr(item, "custom_id", None)
            if custom_id:
                yield str(custom_id)


def of_table(message: discord.Message, game_id: int) -> bool:
    """A message whose buttons or menus act on this table (a board or a result of the game)."""
    pattern = re.compile(rf"gms?:(?:[a-z]+:)?{game_id}(?::|$)")
    return any(pattern.match(custom_id) for custom_id in custom_ids(message))


class Rides:
    """Which interaction carries which table's next board and which board message (per process)."""

    def __init__(self, bot: GameMasterBot) -> None:
        self.bot = bot
        # (game, channel) -> the latest interaction there that changed the table, to carry its board
        self._rides: dict[tuple[int, str], Ride] = {}
        self._carriers: dict[str, Ride] = {}  # board message -> the interaction that posted it
        self._own: dict[tuple[int, str], Ride] = {}  # (game, player) -> that player's latest move there
        self._seated: dict[tuple[int, str], Ride] = {}  # (game, player) -> how they sat down (for the start)
        self._unsure: set[int] = set()  # games whose last follow-up post got no answer
        self.started_after = 0  # outbox entries up to this id were committed before this process ran

    def remember(self, game_id: int, interaction: discord.Interaction, *, move: bool = False) -> None:
        """The table's next deliveries may go out through this interaction (its answer is complete:
        a follow-up now is a message of its own, not the answer); a ``move``'s also carries its
        player's private view when their turn comes again (``tell``)."""
        self._trim()
        ride = self._rides[(game_id, str(interaction.channel_id))] = ride_of(interaction)
        if move:
            self._own[(game_id, str(interaction.user.id))] = ride

    def seated(self, game_id: int, interaction: discord.Interaction) -> None:
        """A player sat down at the table (``/game new``, ``/game join``, the lobby's Join; its answer
        complete): their first private view, should the start make it their turn, comes as a
        private follow-up of that interaction while its token serves (``tell(start=True)``), not as
        a DM that Discord's limit counts."""
        self._trim()
        self._seated[(game_id, str(interaction.user.id))] = ride_of(interaction)

    def _trim(self) -> None:
        if len(self._rides) + len(self._carriers) + len(self._own) + len(self._seated) > RIDES_KEPT:
            self._rides = {k: r for k, r in self._rides.items() if r.fresh}
            self._carriers = {k: r for k, r in self._carriers.items() if r.fresh}
            self._own = {k: r for k, r in self._own.items() if r.fresh}
            self._seated = {k: r for k, r in self._seated.items() if r.fresh}

    async def tell(self, game_id: int, user_id: str, *, start: bool = False, **fields: Any) -> bool:
        """A player's private view for their turn, as a private follow-up of their own last move at
        the table while its token serves (only they see it, where they last played; not counted
        against Discord's global limit, a DM is); at the ``start``, of the interaction by which they
        sat down if they made no move there yet. False: no such interaction, send a DM."""
        ride = self._own.get((game_id, user_id))
        if (ride is None or not ride.fresh) and start:
            ride = self._seated.get((game_id, user_id))
        if ride is None or not ride.fresh:
            return False
        try:
            await follow_up(ride.interaction, ephemeral=True, **fields)
        except discord.HTTPException as exc:
            if expired(exc):
                self._drop(ride)
            else:  # the DM goes instead (a second private copy at worst, never a lost one)
                log.warning("could not show seat's view through interaction %s", ride.interaction.id, exc_info=True)
            if fields.get("file") is not None:
                fields["file"].reset()
            return False
        return True

    def present(self, record: GameRow, user_id: str) -> bool:
        """The player made the change being delivered (their interaction carries the table's board:
        the starter of a start); they are there, so their own first view may ride it too."""
        ride = self.of(record)
        return ride is not None and str(ride.interaction.user.id) == user_id

    def carry(self, message_id: str, interaction: discord.Interaction) -> None:
        """``message_id`` is this interaction's answer (a lobby): its edits may go through it."""
        self._carriers[message_id] = ride_of(interaction)

    def of(self, record: GameRow) -> Ride | None:
        """The latest move's interaction, if its follow-ups land in the table's channel (a move
        made from a DM's buttons cannot carry the board) and its token still serves."""
        ride = self._rides.get((record.id, record.channel_id))
        return ride if ride is not None and ride.fresh else None

    def carrier(self, message_id: str, ride: Ride | None) -> Ride | None:
        """The fresh interaction through which ``message_id`` can be edited without counting: the
        move's own (the message its button was on) or the one that posted it."""
        if ride is not None and ride.original == message_id:
            return ride
        carrier = self._carriers.get(message_id)
        return carrier if carrier is not None and carrier.fresh else None

    def _drop(self, ride: Ride) -> None:
        ride.until = 0.0  # its token no longer serves: every table and message it carried goes counted

    async def post(self, record: GameRow, ride: Ride | None, nonce: str, **fields: Any) -> discord.Message | Sent:
        """Post a board: as the interaction's follow-up while its token serves, else as a counted
        channel post with the delivery's nonce (a retry returns the first message)."""
        async with paced(self.bot, record.channel_id):
            if ride is not None:
                try:
                    message = await follow_up(ride.interaction, **fields)
                except discord.HTTPException as exc:
                    if not expired(exc):
                        self._unsure.add(record.id)  # it may stand: the retry looks for it first
                        raise
                    log.info("the token of interaction %s no longer serves; board of game %s posted",
                             ride.interaction.id, record.id)
                    self._drop(ride)
                except BaseException:
                    self._unsure.add(record.id)
                    raise
                else:
                    self._unsure.discard(record.id)
                    self._carriers[str(message.id)] = ride
                    return message
                for file in fields.get("files") or []:
                    file.reset()  # read once by the refused follow-up
            channel = self.bot.get_partial_messageable(int(record.channel_id))
            with lane(BOARD):
                return await channel.send(nonce=nonce, **fields)

    async def edit(self, channel_id: str, message_id: str, ride: Ride | None, **fields: Any) -> bool:
        """Edit a board (or fold it) through an interaction that may edit it; False when none may
        (or its token no longer serves): the caller edits it as a counted call."""
        carrier = self.carrier(message_id, ride)
        if carrier is None:
            return False
        try:
            async with paced(self.bot, channel_id):
                if carrier.original == message_id:
                    await edit_original(carrier.interaction, **fields)
                else:
                    await edit_follow_up(carrier.interaction, int(message_id), **fields)
        except discord.HTTPException as exc:
            if not expired(exc):
                raise
            self._drop(carrier)
            for file in fields.get("attachments") or []:
                if isinstance(file, discord.File):
                    file.reset()
            return False
        return True

    def may_have_posted(self, record: GameRow, first: int) -> bool:
        """A follow-up for this delivery may stand in the channel unrecorded: its entries were
        committed before this process started (the last one may have died right after posting),
        or the last follow-up post for the table got no answer."""
        return first <= self.started_after or record.id in self._unsure

    async def orphan(self, record: GameRow, old: BoardRow | None) -> discord.Message | None:
        """The board a follow-up posted before it could be written down: the newest pictured
        message of the bot, posted by an interaction after the current board (or the lobby), with
        buttons of this table."""
        channel = self.bot.get_partial_messageable(int(record.channel_id))
        since = old.message_id if old is not None else record.board_message_id
        after = discord.Object(int(since)) if since else None
        me = self.bot.user.id if self.bot.user else None
        try:
            async for message in channel.history(limit=LOOK_BACK, after=after, oldest_first=False):
                pictured = message.attachments or any(e.image.url for e in message.embeds)
                if message.author.id == me and message.interaction_metadata is not None and pictured \
                        and of_table(message, record.id):
                    self._unsure.discard(record.id)
                    return message
        except discord.Forbidden:  # no reading the channel's history: post (a second board at worst)
            log.warning("could not look for the last board of game %s", record.id, exc_info=True)
        self._unsure.discard(record.id)
        return None


def rides_of(bot: GameMasterBot) -> Rides | None:
    """The announcer's rides (None without the announcer: a bot that does not deliver boards)."""
    rides = getattr(bot.get_cog("Announcer"), "rides", None)
    return rides if isinstance(rides, Rides) else None


async def edit_carried(bot: GameMasterBot, channel_id: str, message_id: str, **fields: Any) -> bool:
    """Edit a message through the interaction that posted it, if its token still serves."""
    rides = rides_of(bot)
    return rides is not None and await rides.edit(channel_id, message_id, None, **fields)
