"""The web pages' addresses: a table's and a server's unguessable ids, and a player's personal
signed link to their own view.

Addresses are derived from a key kept in the database (``web_secrets``): a table's id is an HMAC of
its game id, so anyone who knows a game's number still cannot find its page, and the Discord
adapter can draw the "Web view" button without waiting for the database; the address is stored
(``web_tables``) when the table first commits, which is how a request finds its game.

A private link carries (game, seat, user, issued, expires) and their HMAC. It is refused when the
signature is wrong, when it has expired, when its user revoked their links after it was issued
(``revoke``: /game forget-me), and when the seat is no longer that user's (a seat change).
"""
from __future__ import annotations

import asyncio
import base64
import hashlib
import hmac
import logging
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass

from bot.storage import web as repo
from bot.storage.db import Database

log = logging.getLogger(__name__)

LINK_SECONDS = 7 * 24 * 3600  # a private link works for a week (a new one comes with /game web)
ID_LENGTH = 22  # characters of a table's or server's address: 132 bits


class LinkRefused(Exception):
    """A private link that does not open: ``reason`` is a catalog key (web.link.*)."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


@dataclass(frozen=True)
class PrivateLink:
    game_id: int
    seat: int
    user_id: str
    issued: int  # Unix time in milliseconds, as is expires
    expires: int


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def _unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def table_address(key: bytes, game_id: int) -> str:
    """A table's address under ``key`` (the web_secrets row): 132 bits of its HMAC."""
    return _b64(hmac.new(key, f"table:{game_id}".encode(), hashlib.sha256).digest())[:ID_LENGTH]


async def revoke_links(db: Database, user_id: str, now: Callable[[], float] = time.time) -> None:
    """Every private link given to ``user_id`` so far stops working: what /game forget-me calls
    (it needs no web server running)."""
    async with db.transaction() as conn:
        await repo.revoke(conn, str(user_id), int(now() * 1000) + 1)


class WebLinks:
    """Addresses and signed links of one bot (one key per database)."""

    def __init__(self, db: Database, base_url: str, *, default_public: bool = False,
                 clock: Callable[[], float] = time.time) -> None:
        self.db = db
        self.base_url = base_url.rstrip("/")
        # a table nobody said is public (the console's, a Discord channel not yet seen) is or is not
        self.default_public = default_public
        self.clock = clock
        self._key = b""
        self._public: dict[int, bool] = {}  # game -> public, as last stored by this process
        self._off: set[str] = set()  # servers whose pages are off
        self._published: set[int] = set()  # tables whose address this process stored
        self._tasks: set[asyncio.Task[None]] = set()
        # whether everybody may see a channel, as the chat platform's cache tells it, None when it
        # does not know the channel (the Discord adapter sets it: cogs/weblink.py); without it, a
        # table's visibility is what was stored when its board was last drawn
        self.visibility: Callable[[str], bool | None] | None = None

    async def load(self) -> None:
        """Read (or, the first time, make) the key; store the addresses of tables that started
        before the pages ran (they are public once their board is drawn again, or at once for
        the console's default)."""
        async with self.db.transaction() as conn:
            self._key = (await repo.secret(conn, repo.SIGNING_KEY, secrets.token_urlsafe(32))).encode()
            self._off = await repo.pages_off(conn)
            unpublished = await repo.unpublished(conn)
        for start in range(0, len(unpublished), 500):
            async with self.db.transaction() as conn:
                for game_id, guild_id in unpublished[start:start + 500]:
                    await repo.publish(conn, self.table_id(game_id), game_id, None, self.default_public)
                    if guild_id is not None:
                        await repo.publish_guild(conn, guild_id, self.guild_id(guild_id))

    def _mac(self, message: str) -> bytes:
        if not self._key:
            raise RuntimeError("WebLinks.load() first")
        return hmac.new(self._key, message.encode(), hashlib.sha256).digest()

    # ------------------------------------------------------------------ public addresses
    def table_id(self, game_id: int) -> str:
        return table_address(self._key, game_id)

    def guild_id(self, guild_id: str) -> str:
        return _b64(self._mac(f"guild:{guild_id}"))[:ID_LENGTH]

    def table_url(self, game_id: int) -> str:
        return f"{self.base_url}/t/{self.table_id(game_id)}"

    def guild_url(self, guild_id: str) -> str:
        return f"{self.base_url}/s/{self.guild_id(guild_id)}"

    def pages_on(self, guild_id: str | None) -> bool:
        return guild_id is None or str(guild_id) not in self._off

    async def publish(self, game_id: int, guild_id: str | None, public: bool | None = None) -> None:
        """Store the table's address (and its server's); ``public`` says whether its channel is
        one everybody can see (None: leave it as stored, ``default_public`` for a new table)."""
        if public is not None and self._public.get(game_id) == public:
            return
        async with self.db.transaction() as conn:
            await repo.publish(conn, self.table_id(game_id), game_id, public, self.default_public)
            if guild_id is not None:
                await repo.publish_guild(conn, str(guild_id), self.guild_id(str(guild_id)))
        self._published.add(game_id)
        if public is not None:
            self._public[game_id] = public

    async def decide(self, game_id: int, guild_id: str | None, channel_id: str, stored: bool) -> bool:
        """Whether the table is public now: as everybody's view of its channel says where that is
        known (stored when it changed: a table from before the pages, a channel made private since),
        else as stored."""
        seen = self.visibility(channel_id) if self.visibility is not None and guild_id is not None else None
        if seen is None or seen == stored:
            return stored
        await self.publish(game_id, guild_id, seen)
        return seen

    def known(self, game_id: int) -> bool:
        """Whether this process stored the table's address already."""
        return game_id in self._published

    def note_public(self, game_id: int, guild_id: str | None, public: bool) -> None:
        """``publish`` from code that cannot wait (the Discord adapter drawing a board's buttons)."""
        if self._public.get(game_id) == public:
            return
        task = asyncio.get_running_loop().create_task(self.publish(game_id, guild_id, public))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def table(self, web_id: str) -> tuple[int, bool] | None:
        """(game id, public) of a table address; None for an address no table has."""
        if len(web_id) != ID_LENGTH:
            return None
        async with self.db.reading_one() as conn:
            return await repo.table(conn, web_id)

    async def guild(self, web_id: str) -> str | None:
        """The server of a server address whose pages are on."""
        if len(web_id) != ID_LENGTH:
            return None
        async with self.db.reading_one() as conn:
            found = await repo.guild(conn, web_id)
        return found[0] if found and found[1] else None

    async def set_pages(self, guild_id: str, on: bool) -> None:
        """``/game settings web:``: a server's pages on or off."""
        async with self.db.transaction() as conn:
            await repo.set_pages(conn, str(guild_id), self.guild_id(str(guild_id)), on)
        (self._off.discard if on else self._off.add)(str(guild_id))

    async def public_games(self, game_ids: list[int]) -> set[int]:
        async with self.db.reading() as conn:
            return await repo.public_games(conn, game_ids)

    # ------------------------------------------------------------------ private links
    def private_token(self, game_id: int, seat: int, user_id: str, seconds: int = LINK_SECONDS) -> str:
        now = int(self.clock() * 1000)  # milliseconds: a link made right after a revocation works
        body = f"{game_id}.{seat}.{user_id}.{now}.{now + seconds * 1000}"
        return f"{_b64(body.encode())}.{_b64(self._mac('private:' + body))}"

    def private_url(self, game_id: int, seat: int, user_id: str) -> str:
        return f"{self.base_url}/p/{self.private_token(game_id, seat, user_id)}"

    def read_token(self, token: str) -> PrivateLink:
        """The link's contents if its signature holds and it has not expired (LinkRefused else)."""
        try:
            body_text, _, mac_text = token.partition(".")
            body = _unb64(body_text).decode("ascii")
            mac = _unb64(mac_text)
            game, seat, user, issued, expires = body.split(".")
            link = PrivateLink(int(game), int(seat), user, int(issued), int(expires))
        except (ValueError, UnicodeDecodeError):
            raise LinkRefused("web.link.bad") from None
        if not hmac.compare_digest(mac, self._mac("private:" + body)):
            raise LinkRefused("web.link.bad")
        if link.expires <= self.clock() * 1000:
            raise LinkRefused("web.link.expired")
        return link

    async def check(self, link: PrivateLink, seat_user: str | None) -> None:
        """LinkRefused when the user revoked their links since, or the seat is no longer theirs."""
        if seat_user != link.user_id:
            raise LinkRefused("web.link.revoked")
        async with self.db.reading_one() as conn:
            before = await repo.revoked_before(conn, link.user_id)
        if link.issued < before:
            raise LinkRefused("web.link.revoked")

    async def revoke(self, user_id: str) -> None:
        """Every private link given to ``user_id`` so far stops working (``revoke_links``)."""
        await revoke_links(self.db, user_id, self.clock)
