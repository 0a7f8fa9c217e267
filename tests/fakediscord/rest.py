"""The REST side: the route table, reading requests, the channel message limit and the handlers
for users, guilds, channels, messages and threads."""

from __future__ import annotations

import asyncio
import json
import re
from collections.abc import Callable
from functools import lru_cache
from typing import Any

from aiohttp import web
from aiohttp.multipart import content_disposition_filename, parse_content_disposition

from tests.fakediscord.model import (
    DiscordError,
    Recorded,
    StoredFile,
    StoredMessage,
    Violation,
    snowflake,
)


@lru_cache(maxsize=4096)
def _disposition(header: str) -> tuple[str | None, str | None]:
    """A part's (name, filename) from its Content-Disposition, as aiohttp reads them (its parser
    is slow: it escapes 128 characters on every call, and a body part calls it several times)."""
    _, params = parse_content_disposition(header)
    return content_disposition_filename(params, "name"), content_disposition_filename(params, "filename")


def multipart_parts(body: bytes, content_type: str) -> list[tuple[str, str, str | None, bytes]]:
    """The parts of a multipart body, each (name, filename, content type, data), read at once."""
    boundary = next((p.strip()[len("boundary="):] for p in content_type.split(";")
                     if p.strip().startswith("boundary=")), "")
    delimiter = b"--" + boundary.strip('"').encode()
    parts = []
    for chunk in body.split(delimiter)[1:]:
        if chunk.startswith(b"--"):  # the close delimiter
            break
        head, _, data = chunk[2:].partition(b"\r\n\r\n")  # after the delimiter's CRLF
        headers = {}
        for line in head.decode("utf-8", "replace").split("\r\n"):
            key, _, value = line.partition(":")
            headers[key.strip().lower()] = value.strip()
        name, filename = _disposition(headers.get("content-disposition", ""))
        parts.append((name or "", filename or "", headers.get("content-type"), data[:-2]))  # the CRLF before the next
    return parts


def jresp(obj: Any, status: int = 200, headers: dict | None = None) -> web.Response:
    # discord.py decodes JSON only when Content-Type is exactly application/json
    h = {"Content-Type": "application/json"}
    h.update(headers or {})
    return web.Response(body=json.dumps(obj).encode(), status=status, headers=h)


class Rest:
    """REST routes and their handlers (interaction webhooks live in webhooks.py)."""

    def _route_table(self) -> list[tuple[str, re.Pattern, Callable]]:
        t = [
            ("GET", r"/users/@me", self.r_me),
            ("GET", r"/oauth2/applications/@me", self.r_app),
            ("GET", r"/applications/@me", self.r_app),
            ("GET", r"/gateway", self.r_gateway),
            ("GET", r"/gateway/bot", self.r_gateway),
            ("PUT", r"/applications/(?P<app>\d+)/commands", self.r_sync),
            ("PUT", r"/applications/(?P<app>\d+)/guilds/(?P<gid>\d+)/commands", self.r_sync),
            ("GET", r"/applications/(?P<app>\d+)/commands", self.r_get_commands),
            ("GET", r"/applications/(?P<app>\d+)/guilds/(?P<gid>\d+)/commands", self.r_get_commands),
            ("POST", r"/interactions/(?P<iid>\d+)/(?P<tok>[^/]+)/callback", self.r_callback),
            ("POST", r"/webhooks/(?P<app>\d+)/(?P<tok>[^/]+)", self.r_followup),
            ("GET", r"/webhooks/(?P<app>\d+)/(?P<tok>[^/]+)/messages/(?P<mid>@original|\d+)", self.r_wh_message),
            ("PATCH", r"/webhooks/(?P<app>\d+)/(?P<tok>[^/]+)/messages/(?P<mid>@original|\d+)", self.r_wh_message),
            ("DELETE", r"/webhooks/(?P<app>\d+)/(?P<tok>[^/]+)/messages/(?P<mid>@original|\d+)", self.r_wh_message),
            ("POST", r"/users/@me/channels", self.r_open_dm),
            ("GET", r"/users/(?P<uid>\d+)", self.r_user),
            ("GET", r"/guilds/(?P<gid>\d+)", self.r_guild),
            ("GET", r"/guilds/(?P<gid>\d+)/channels", self.r_guild_channels),
            ("GET", r"/guilds/(?P<gid>\d+)/members/(?P<uid>\d+)", self.r_member),
            ("GET", r"/guilds/(?P<gid>\d+)/members", self.r_members),
            ("GET", r"/guilds/(?P<gid>\d+)/roles", lambda rec, gid: (200, self.roles)),
            ("GET", r"/channels/(?P<cid>\d+)", self.r_get_channel),
            ("POST", r"/channels/(?P<cid>\d+)/messages", self.r_send),
            ("GET", r"/channels/(?P<cid>\d+)/messages", self.r_history),
            ("GET", r"/channels/(?P<cid>\d+)/messages/(?P<mid>\d+)", self.r_get_message),
            ("PATCH", r"/channels/(?P<cid>\d+)/messages/(?P<mid>\d+)", self.r_edit_message),
            ("DELETE", r"/channels/(?P<cid>\d+)/messages/(?P<mid>\d+)", self.r_delete_message),
            ("POST", r"/channels/(?P<cid>\d+)/typing", lambda rec, cid: (204, None)),
            ("PUT", r"/channels/(?P<cid>\d+)/messages/(?P<mid>\d+)/reactions/[^/]+/@me", self.r_noop),
            ("DELETE", r"/channels/(?P<cid>\d+)/messages/(?P<mid>\d+)/reactions/.*", self.r_noop),
            ("PUT", r"/channels/(?P<cid>\d+)/(?:messages/)?pins/(?P<mid>\d+)", self.r_noop),
            ("DELETE", r"/channels/(?P<cid>\d+)/(?:messages/)?pins/(?P<mid>\d+)", self.r_noop),
            ("POST", r"/channels/(?P<cid>\d+)/threads", self.r_thread),
            ("POST", r"/channels/(?P<cid>\d+)/messages/(?P<mid>\d+)/threads", self.r_thread),
            ("PUT", r"/channels/(?P<cid>\d+)/thread-members/(?P<uid>@me|\d+)", self.r_noop),
            ("PATCH", r"/channels/(?P<cid>\d+)", self.r_edit_channel),
            ("DELETE", r"/channels/(?P<cid>\d+)", self.r_delete_channel),
        ]
        return [(m, re.compile(p), h) for m, p, h in t]

    async def _read(self, request: web.Request) -> Recorded:
        rec = Recorded(request.method, request.path, dict(request.query))
        rec.authorization = request.headers.get("Authorization", "")
        ctype = request.headers.get("Content-Type", "")
        if ctype.startswith("multipart/"):
            for name, filename, part_type, data in multipart_parts(await request.read(), ctype):
                if name == "payload_json":
                    rec.json = json.loads(data)
                else:
                    rec.files.append(StoredFile(name, filename, part_type, data))
        elif request.can_read_body:
            raw = await request.read()
            if raw:
                rec.json = json.loads(raw)
        return rec

    async def _rest(self, request: web.Request) -> web.Response:
        rec = await self._read(request)
        route = rec.route
        self.requests.append(rec)
        error: DiscordError | None = None
        faulty = self.fault_answer(rec)  # faults.py: a 5xx minute, a global outage
        if faulty is not None:
            await self._notify()
            return faulty
        try:
            if self.ratelimit_next > 0 and (route.startswith("/channels/") or route == "/users/@me/channels"):
                self.ratelimit_next -= 1  # a 429 a test asked for: Discord behaviour, not a violation
                raise DiscordError(429, 0, "You are being rate limited.", violation=False,
                                   retry_after=self.ratelimit_retry_after, scope="user")
            self._check_global(rec)
            for method, pattern, handler in self._routes:
                m = pattern.fullmatch(route)
                if m and method == request.method:
                    result = handler(rec, **m.groupdict())
                    if asyncio.iscoroutine(result):
                        result = await result
                    status, body = result
                    break
            else:
                raise DiscordError(404, 0, "404: Not Found",
                                   detail=f"unhandled route {request.method} {route} (fake has no handler)")
        except DiscordError as e:
            error = e
            status, body = e.status, e.body()
            if e.violation:
                self.violations.append(Violation(e.code, e.status, e.detail, rec))
        rec.status, rec.response = status, body
        self._note_write(rec, status, request.method)
        headers = self.ratelimit_headers(rec, status, error)
        await self._notify()
        if status == 204:
            return web.Response(status=204, headers=headers)
        return jresp(body, status, headers)

    # simple handlers --------------------------------------------------------
    def r_me(self, rec: Recorded) -> tuple:
        if self.rejected_token and rec.authorization == f"Bot {self.rejected_token}":
            raise DiscordError(401, 0, "401: Unauthorized", violation=False)
        return 200, self.bot_user

    def r_app(self, rec: Recorded) -> tuple:
        return 200, {"id": self.app_id, "name": "GameMaster", "description": "", "icon": None,
                     "bot_public": True, "bot_require_code_grant": False, "owner": self.owner,
                     "verify_key": "0" * 64, "flags": 0, "team": None, "summary": "",
                     "interactions_endpoint_url": None, "bot": self.bot_user}

    def r_gateway(self, rec: Recorded) -> tuple:
        return 200, {"url": f"ws://127.0.0.1:{self.port}/gw", "shards": 1,
                     "session_start_limit": {"total": 1000, "remaining": 1000, "reset_after": 0,
                                             "max_concurrency": 1}}

    def r_sync(self, rec: Recorded, app: str, gid: str | None = None) -> tuple:
        out = []
        for c in rec.json or []:
            c = dict(c, id=self._command_id(c["name"]), application_id=self.app_id, version=snowflake())
            if gid:
                c["guild_id"] = gid
            c.setdefault("default_member_permissions", None)
            c.setdefault("type", 1)
            out.append(c)
        self.synced_commands[gid or "global"] = out
        return 200, out

    def r_get_commands(self, rec: Recorded, app: str, gid: str | None = None) -> tuple:
        return 200, self.synced_commands.get(gid or "global", [])

    def r_user(self, rec: Recorded, uid: str) -> tuple:
        if uid not in self.users:
            raise DiscordError(404, 10013, "Unknown User", violation=False)
        return 200, self.users[uid]

    def r_guild(self, rec: Recorded, gid: str) -> tuple:
        if gid not in self.guild_names:
            raise DiscordError(404, 10004, "Unknown Guild", violation=False)
        g = self.guild_payload(gid)
        for k in ("channels", "threads", "members", "presences", "voice_states"):
            g.pop(k)
        return 200, g

    def r_guild_channels(self, rec: Recorded, gid: str) -> tuple:
        return 200, self.guild_payload()["channels"]

    def r_member(self, rec: Recorded, gid: str, uid: str) -> tuple:
        if uid not in self.members:
            raise DiscordError(404, 10007, "Unknown Member", violation=False)
        return 200, self.member_payload(uid)

    def r_members(self, rec: Recorded, gid: str) -> tuple:
        return 200, [self.member_payload(u) for u in self.members]

    def r_get_channel(self, rec: Recorded, cid: str) -> tuple:
        if cid not in self.channels:
            raise DiscordError(404, 10003, "Unknown Channel", violation=False)
        return 200, self.channels[cid]

    def r_edit_channel(self, rec: Recorded, cid: str) -> tuple:
        ch = self._known_channel(cid)
        for k, v in (rec.json or {}).items():
            if k in ("name", "topic", "archived", "locked"):
                if k in ("archived", "locked") and "thread_metadata" in ch:
                    ch["thread_metadata"][k] = v
                else:
                    ch[k] = v
        return 200, ch

    def r_delete_channel(self, rec: Recorded, cid: str) -> tuple:
        return 200, self.channels.pop(self._known_channel(cid)["id"])

    def r_noop(self, rec: Recorded, **kw: str) -> tuple:
        return 204, None

    def r_open_dm(self, rec: Recorded) -> tuple:
        rid = str((rec.json or {}).get("recipient_id"))
        return 200, self.dm_channel(rid)

    def _known_channel(self, cid: str) -> dict:
        if cid not in self.channels:
            raise DiscordError(404, 10003, "Unknown Channel", violation=False)
        return self.channels[cid]

    def _known_message(self, cid: str, mid: str) -> StoredMessage:
        msg = self.messages.get(mid)
        if msg is None or msg.deleted or msg.channel_id != cid or msg.ephemeral:
            raise DiscordError(404, 10008, "Unknown Message", violation=False)
        return msg

    async def r_send(self, rec: Recorded, cid: str) -> tuple:
        ch = self._known_channel(cid)
        body = rec.json or {}
        if body.get("nonce") and body.get("enforce_nonce"):
            # Discord returns the message already created with this nonce instead of a second one
            known = self.messages.get(self._nonces.get(str(body["nonce"]), ""))
            if known is not None and not known.deleted:
                return 200, known.payload
        self._check_rate(rec, cid)
        if ch["type"] == 1:
            uid = ch["recipients"][0]["id"]
            if uid in self.closed_dm_users:
                raise DiscordError(403, 50007, "Cannot send messages to this user", violation=False)
        if cid in self.muted_channels:
            raise DiscordError(403, 50013, "Missing Permissions", violation=False)
        self.check_permissions(rec, cid)  # faults.py: the bot's permissions in the channel
        self._check_message(rec.json, rec.files, creating=True, size_limit=self.attachment_size_limit)
        if ch.get("thread_metadata", {}).get("archived"):
            ch["thread_metadata"]["archived"] = False  # a post unarchives the thread (bot may post there)
            self.unarchived.append(cid)
        msg = self._create(ch, rec.json or {}, rec.files, "dm" if ch["type"] == 1 else "channel")
        if body.get("nonce"):
            msg.payload["nonce"] = str(body["nonce"])
            if body.get("enforce_nonce"):
                self._nonces[str(body["nonce"])] = msg.id
        await self._echo("MESSAGE_CREATE", msg)
        return 200, msg.payload

    def r_history(self, rec: Recorded, cid: str) -> tuple:
        self._known_channel(cid)
        limit = int(rec.query.get("limit", 50))
        msgs = [m.payload for m in self.channel_messages(cid)]
        return 200, list(reversed(msgs))[:limit]

    def r_get_message(self, rec: Recorded, cid: str, mid: str) -> tuple:
        return 200, self._known_message(cid, mid).payload

    async def r_edit_message(self, rec: Recorded, cid: str, mid: str) -> tuple:
        msg = self._known_message(cid, mid)
        if msg.author_id != self.bot_user["id"]:
            raise DiscordError(403, 50005, "Cannot edit a message authored by another user")
        if self.channels.get(cid, {}).get("thread_metadata", {}).get("archived"):
            raise DiscordError(400, 50083, "Thread is archived")  # only a new post unarchives it
        self.check_permissions(rec, cid)
        self._check_rate(rec, cid)
        self._check_message(rec.json, rec.files, creating=False, size_limit=self.attachment_size_limit)
        self._edit(msg, rec.json or {}, rec.files)
        await self._echo("MESSAGE_UPDATE", msg)
        return 200, msg.payload

    async def r_delete_message(self, rec: Recorded, cid: str, mid: str) -> tuple:
        msg = self._known_message(cid, mid)
        msg.deleted = True
        await self._echo("MESSAGE_DELETE", msg)
        return 204, None

    async def r_thread(self, rec: Recorded, cid: str, mid: str | None = None) -> tuple:
        self._known_channel(cid)
        body = rec.json or {}
        private = body.get("type") == 12
        th = self.add_thread(body.get("name", "thread"), cid, private=private)
        if mid:
            th["id_of_starter"] = mid
        if self.sockets:
            await self.dispatch("THREAD_CREATE", dict(th, newly_created=True))
        return 201, th
