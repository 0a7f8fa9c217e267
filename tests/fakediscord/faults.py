"""The world changing under a running table, as Discord shows it to a bot.

- ``fake.moderator_delete(message)``: a moderator deletes a message (a board, the lobby): later
  edits answer 404 ``{"code": 10008}`` Unknown Message; connected bots get MESSAGE_DELETE.
- ``fake.delete_channel(channel)``: a channel or thread is deleted (with the threads in it): posts,
  edits and lookups answer 404 ``{"code": 10003}`` Unknown Channel; connected bots get
  CHANNEL_DELETE / THREAD_DELETE.
- ``fake.deny(channel, "send_messages", ...)`` / ``fake.allow(channel, ...)``: a permission
  overwrite for the bot in a channel (CHANNEL_UPDATE with the new ``permission_overwrites``);
  ``fake.set_role_permissions(role_id, bits)``: a role's permissions (GUILD_ROLE_UPDATE). The bot's
  message posts and edits are then checked as Discord checks them: without View Channel 403
  ``{"code": 50001}`` Missing Access; without Send Messages (Send Messages in Threads in a thread),
  or with embeds but no Embed Links, or with files but no Attach Files, 403 ``{"code": 50013}``
  Missing Permissions.
- ``fake.server_errors(status, count)``: the next ``count`` calls to channels and DMs answer
  ``status`` with Discord's body for it: 500 JSON ``{"message": "500: Internal Server Error",
  "code": 0}``, 502 Cloudflare's HTML page, 503 the proxy's plain text, 504 HTML.
- ``fake.webhook_faults(*answers)``: the next calls to ``/webhooks/...`` (interaction follow-ups and
  their edits) answer, in turn, each of ``answers``: a status (500, 502, 503, 504) with Discord's
  body for it, or a number of seconds: a 429 of the webhook's bucket (not global, with ``Via``)
  asking to wait that long. Not violations either.
- ``fake.global_outage(seconds, count)``: the next ``count`` calls the global limit counts answer
  429 with ``"global": true``, ``retry_after`` ``seconds`` and Discord's headers
  (``X-RateLimit-Global``, ``X-RateLimit-Scope: global``, ``Retry-After``, ``Via``), so what a test
  exercises is discord.py's own waiting. Not violations: the bot did nothing wrong.

``fault_answer(rec)`` is the hook ``Rest._rest`` asks before routing a request.
"""

from __future__ import annotations

import copy
from collections.abc import Iterable
from typing import Any

from aiohttp import web

from tests.fakediscord.model import ADMINISTRATOR, DiscordError, Recorded, _id_of

VIEW_CHANNEL = 1 << 10
SEND_MESSAGES = 1 << 11
EMBED_LINKS = 1 << 14
ATTACH_FILES = 1 << 15
SEND_MESSAGES_IN_THREADS = 1 << 38
PERMISSIONS = {"view_channel": VIEW_CHANNEL, "send_messages": SEND_MESSAGES, "embed_links": EMBED_LINKS,
               "attach_files": ATTACH_FILES, "send_messages_in_threads": SEND_MESSAGES_IN_THREADS}

SERVER_BODIES: dict[int, tuple[str, str]] = {  # what Discord (or Cloudflare in front of it) answers
    500: ("application/json", '{"message": "500: Internal Server Error", "code": 0}'),
    502: ("text/html", "<html><head><title>502 Bad Gateway</title></head><body><center><h1>502 Bad Gateway"
                       "</h1></center><hr><center>cloudflare</center></body></html>"),
    503: ("text/plain", "upstream connect error or disconnect/reset before headers. reset reason: overflow"),
    504: ("text/html", "<html><head><title>504 Gateway Time-out</title></head><body><center><h1>504 Gateway "
                       "Time-out</h1></center><hr><center>cloudflare</center></body></html>"),
}
THREADS = (10, 11, 12)


class Faults:
    """Moderators, permission changes and Discord's own bad minutes."""

    def _init_faults(self) -> None:
        self._server_errors: list[int] = []  # statuses the next calls answer, in order
        self._outage: list[float] = []  # the retry_after of each global 429 still to answer
        self._webhook_faults: list[int | float] = []  # a server error's status, or a 429's retry_after
        self.fault_answers: list[Recorded] = []  # requests a fault answered

    def lift_faults(self) -> None:
        """Discord is well again (the fake's ``stop`` calls it first, so that no 5xx or global 429 a
        test left unanswered meets a bot while it closes)."""
        self._server_errors.clear()
        self._outage.clear()
        self._webhook_faults.clear()

    # ------------------------------------------------------------------ what a moderator does
    async def moderator_delete(self, message: Any) -> None:
        msg = self.message(message)  # type: ignore[attr-defined]
        msg.deleted = True
        await self._echo("MESSAGE_DELETE", msg)  # type: ignore[attr-defined]

    async def delete_channel(self, channel: Any) -> list[str]:
        """Delete a channel (and every thread in it) or a thread; returns the ids deleted."""
        ch = self._channel(channel)  # type: ignore[attr-defined]
        gone = [ch] + [c for c in self.channels.values() if c.get("parent_id") == ch["id"]  # type: ignore[attr-defined]
                       and c["type"] in THREADS]
        for c in gone:
            self.channels.pop(c["id"], None)  # type: ignore[attr-defined]
            for msg in self.messages.values():  # type: ignore[attr-defined]
                if msg.channel_id == c["id"]:
                    msg.deleted = True
        if self.sockets:  # type: ignore[attr-defined]
            for c in gone:
                if c["type"] in THREADS:
                    await self.dispatch("THREAD_DELETE", {"id": c["id"], "guild_id": c["guild_id"],  # type: ignore[attr-defined]
                                                          "parent_id": c["parent_id"], "type": c["type"]})
                else:
                    await self.dispatch("CHANNEL_DELETE", copy.deepcopy(c))  # type: ignore[attr-defined]
        return [c["id"] for c in gone]

    async def deny(self, channel: Any, *permissions: str) -> None:
        await self._overwrite(channel, permissions, deny=True)

    async def allow(self, channel: Any, *permissions: str) -> None:
        await self._overwrite(channel, permissions, deny=False)

    async def _overwrite(self, channel: Any, permissions: Iterable[str], *, deny: bool) -> None:
        ch = self._channel(channel)  # type: ignore[attr-defined]
        bits = 0
        for name in permissions:
            bits |= PERMISSIONS[name]
        me = self.bot_user["id"]  # type: ignore[attr-defined]
        overwrites = ch.setdefault("permission_overwrites", [])
        entry = next((o for o in overwrites if o["id"] == me), None)
        if entry is None:
            entry = {"id": me, "type": 1, "allow": "0", "deny": "0"}
            overwrites.append(entry)
        allow, denied = int(entry["allow"]), int(entry["deny"])
        if deny:
            allow, denied = allow & ~bits, denied | bits
        else:
            allow, denied = allow, denied & ~bits
        entry["allow"], entry["deny"] = str(allow), str(denied)
        if allow == 0 and denied == 0:
            overwrites.remove(entry)
        if self.sockets:  # type: ignore[attr-defined]
            await self.dispatch("CHANNEL_UPDATE", copy.deepcopy(ch))  # type: ignore[attr-defined]

    async def set_role_permissions(self, role_id: Any, permissions: int) -> None:
        role = next(r for r in self.roles if r["id"] == _id_of(role_id))  # type: ignore[attr-defined]
        role["permissions"] = str(permissions)
        if self.sockets:  # type: ignore[attr-defined]
            await self.dispatch("GUILD_ROLE_UPDATE", {"guild_id": self.guild_id,  # type: ignore[attr-defined]
                                                      "role": copy.deepcopy(role)})

    def bot_permissions(self, channel: Any) -> int:
        """The bot's permissions in a channel, computed as Discord does: @everyone and the bot's
        roles, then the channel's overwrites for @everyone, the roles and the bot (a thread takes
        its parent's)."""
        ch = self._channel(channel)  # type: ignore[attr-defined]
        if ch["type"] in THREADS and ch.get("parent_id") in self.channels:  # type: ignore[attr-defined]
            ch = self.channels[ch["parent_id"]]  # type: ignore[attr-defined]
        me = self.bot_user["id"]  # type: ignore[attr-defined]
        everyone = ch.get("guild_id") or self.guild_id  # type: ignore[attr-defined]
        mine = set(self.members[me]["roles"])  # type: ignore[attr-defined]
        perms = 0
        for role in self.roles:  # type: ignore[attr-defined]
            if role["id"] in mine or role is self.roles[0]:  # type: ignore[attr-defined]
                perms |= int(role["permissions"])
        if perms & ADMINISTRATOR:
            return -1
        overwrites = ch.get("permission_overwrites") or []
        for o in overwrites:
            if o["id"] in (everyone, self.guild_id):  # type: ignore[attr-defined]
                perms = (perms & ~int(o["deny"])) | int(o["allow"])
        deny = allow = 0
        for o in overwrites:
            if o.get("type") == 0 and o["id"] in mine:
                deny, allow = deny | int(o["deny"]), allow | int(o["allow"])
        perms = (perms & ~deny) | allow
        for o in overwrites:
            if o.get("type") == 1 and o["id"] == me:
                perms = (perms & ~int(o["deny"])) | int(o["allow"])
        return perms

    # ------------------------------------------------------------------ Discord's bad minutes
    def server_errors(self, status: int = 503, count: int = 1) -> None:
        """The next ``count`` calls to channels and DMs answer ``status`` (500, 502, 503, 504)."""
        if status not in SERVER_BODIES:
            raise ValueError(f"no body known for {status}")
        self._server_errors.extend([status] * count)

    def global_outage(self, seconds: float, count: int = 1) -> None:
        """The next ``count`` counted calls answer the global 429, asking to wait ``seconds``."""
        self._outage.extend([seconds] * count)

    def webhook_faults(self, *answers: int | float) -> None:
        """The next calls to interaction webhooks answer these: an int status is a server error, a
        float a 429 of the webhook's bucket asking to wait that many seconds."""
        for answer in answers:
            if isinstance(answer, int) and answer not in SERVER_BODIES:
                raise ValueError(f"no body known for {answer}")
        self._webhook_faults.extend(answers)

    def fault_answer(self, rec: Recorded) -> web.Response | None:
        """The answer an injected fault gives this request instead of routing it, or None."""
        route = rec.route
        if self._webhook_faults and route.startswith("/webhooks/"):
            answer = self._webhook_faults.pop(0)
            return self._limited(rec, answer, "user") if isinstance(answer, float) else self._failed(rec, answer)
        if self._server_errors and (route.startswith("/channels/") or route == "/users/@me/channels"):
            return self._failed(rec, self._server_errors.pop(0))
        if self._outage and self.is_counted(rec):  # type: ignore[attr-defined]
            return self._limited(rec, self._outage.pop(0), "global")
        return None

    def _failed(self, rec: Recorded, status: int) -> web.Response:
        ctype, body = SERVER_BODIES[status]
        rec.status, rec.response = status, body
        self.fault_answers.append(rec)
        return web.Response(status=status, text=body, content_type=ctype)

    def _limited(self, rec: Recorded, wait: float, scope: str) -> web.Response:
        error = DiscordError(429, 0, "You are being rate limited.", violation=False, retry_after=wait, scope=scope)
        rec.status, rec.response = 429, error.body()
        self.fault_answers.append(rec)
        from tests.fakediscord.rest import jresp

        return jresp(error.body(), 429, self.ratelimit_headers(rec, 429, error))  # type: ignore[attr-defined]

    def check_permissions(self, rec: Recorded, cid: str) -> None:
        """A bot post (``rec.method`` POST) or edit (PATCH) of a message in a guild channel, checked
        against the bot's permissions there."""
        ch = self.channels.get(cid)  # type: ignore[attr-defined]
        if ch is None or ch["type"] == 1:
            return
        perms = self.bot_permissions(ch)
        if perms == -1:
            return
        if not perms & VIEW_CHANNEL:
            raise DiscordError(403, 50001, "Missing Access", violation=False)
        send = SEND_MESSAGES_IN_THREADS if ch["type"] in THREADS else SEND_MESSAGES
        body = rec.json or {}
        missing = (rec.method == "POST" and not perms & send) \
            or (bool(body.get("embeds")) and not perms & EMBED_LINKS) \
            or (bool(rec.files) and not perms & ATTACH_FILES)
        if missing:
            raise DiscordError(403, 50013, "Missing Permissions", violation=False)
