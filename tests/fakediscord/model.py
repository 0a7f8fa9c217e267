"""The fake's model of Discord: ids, permissions, the records it keeps (requests, messages,
files, violations, interactions) and the guild it plays (members, roles, channels, threads, DMs)."""

from __future__ import annotations

import asyncio
import functools
import itertools
import logging
import re
import time
import traceback
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

API = "/api/v10"
MiB = 1024 * 1024
EPOCH = 1420070400000

# permission bits
ADMINISTRATOR = 1 << 3
MANAGE_GUILD = 1 << 5
DEFAULT_PERMISSIONS = (
    (1 << 6) | (1 << 10) | (1 << 11) | (1 << 14) | (1 << 15) | (1 << 16) | (1 << 18)
    | (1 << 31) | (1 << 35) | (1 << 38)
)
BOT_PERMISSIONS = DEFAULT_PERMISSIONS | (1 << 13) | (1 << 34) | (1 << 36) | (1 << 17)

EPHEMERAL = 1 << 6
MASS_MENTION = re.compile(r"@(everyone|here)\b")   # escape_mentions puts a zero-width space after @
ROLE_MENTION = re.compile(r"<@&(\d+)>")
LOADING = 1 << 7
COMPONENTS_V2 = 1 << 15

SETTLE_PREFIXES = ("CommandTree-invoker", "discord-ui-", "discord.py: ", "gamemaster")

_counter = itertools.count(1)
_last_snowflake = 0


def snowflake() -> str:
    """A real-looking, strictly increasing snowflake (snowflake_time() etc. behave)."""
    global _last_snowflake
    value = ((int(time.time() * 1000) - EPOCH) << 22) + (next(_counter) & 0xFFF)
    value = max(value, _last_snowflake + 1)
    _last_snowflake = value
    return str(value)


def guild_snowflake(shard: int, shard_count: int) -> str:
    """A fresh snowflake whose guild lands on ``shard``: (id >> 22) % shard_count == shard."""
    base = int(snowflake())
    stamp = base >> 22
    stamp += (shard - stamp) % shard_count
    return str((stamp << 22) | (base & 0x3FFFFF))


def shard_of(guild_id: str | None, shard_count: int) -> int:
    """Discord's routing: a guild's events go to (guild_id >> 22) % shard_count; DMs to shard 0."""
    return (int(guild_id) >> 22) % shard_count if guild_id else 0


def iso_now() -> str:
    return datetime.now(UTC).isoformat(timespec="microseconds")





def _id_of(obj: Any) -> str:
    if obj is None:
        raise ValueError("expected a user/channel/message, got None")
    if isinstance(obj, StoredMessage):
        return obj.id
    if isinstance(obj, dict):
        return str(obj["id"])
    if isinstance(obj, (str, int)):
        return str(obj)
    if hasattr(obj, "id"):
        return str(obj.id)
    raise TypeError(f"cannot take an id from {obj!r}")


def walk_components(components: Iterable[dict] | None) -> Iterable[dict]:
    """Every component in a message/modal component tree, depth first."""
    for c in components or []:
        yield c
        yield from walk_components(c.get("components"))
        if isinstance(c.get("component"), dict):  # label (18)
            yield from walk_components([c["component"]])
        if isinstance(c.get("accessory"), dict):  # section (9)
            yield from walk_components([c["accessory"]])


# --------------------------------------------------------------------------- records


@dataclass
class StoredFile:
    name: str  # multipart field, e.g. "files[0]"
    filename: str
    content_type: str | None
    data: bytes

    @property
    def size(self) -> int:
        return len(self.data)

    def __repr__(self) -> str:
        return f"StoredFile({self.filename!r}, {self.size} bytes)"


@dataclass
class Recorded:
    method: str
    path: str
    query: dict[str, str]
    json: Any = None
    files: list[StoredFile] = field(default_factory=list)
    status: int | None = None
    response: Any = None
    interaction_id: str | None = None
    authorization: str = ""
    at: float = field(default_factory=time.monotonic)  # when the fake received it

    @functools.cached_property
    def route(self) -> str:
        """Path without the /api/v10 prefix."""
        return self.path[len(API):] if self.path.startswith(API) else self.path

    def __repr__(self) -> str:
        return f"<Recorded {self.method} {self.route} -> {self.status}>"


@dataclass
class Violation:
    code: int | str
    status: int
    message: str
    request: Recorded | None = None

    def __repr__(self) -> str:
        where = f" at {self.request.method} {self.request.route}" if self.request else ""
        return f"Violation({self.status}/{self.code}: {self.message}{where})"


class _ErrorCollector(logging.Handler):
    """Collects ERROR log records (discord.py logs exceptions swallowed from handlers there)."""

    def __init__(self, sink: list[str]) -> None:
        super().__init__(logging.ERROR)
        self.sink = sink

    def emit(self, record: logging.LogRecord) -> None:
        text = f"{record.name}: {record.getMessage()}"
        if record.exc_info and record.exc_info[1] is not None:
            exc = record.exc_info[1]
            root = exc
            while (root.__cause__ or root.__context__) is not None:
                root = root.__cause__ or root.__context__
            text += "\n" + "".join(traceback.format_exception(root)[-2:]).rstrip()
            if root is not exc:
                text += "\n  (surfaced as) " + "".join(traceback.format_exception_only(exc)).strip()
        self.sink.append(text)


class Opt:
    """Force an option type: ``fake.slash(u, "x", when=Opt("2024", 3))``."""

    def __init__(self, value: Any, type: int) -> None:
        self.value, self.type = value, type


class StoredMessage:
    """A message as the fake stores it: full Discord payload plus the uploaded file bytes."""

    def __init__(self, payload: dict, files: list[StoredFile], kind: str,
                 interaction_id: str | None = None) -> None:
        self.payload = payload
        self.files = files
        self.kind = kind
        self.interaction_id = interaction_id
        self.deleted = False
        self.history: list[dict] = []
        # the allowed_mentions of the request that created (or last edited) the message; None when
        # the request carried none, which makes Discord parse every mention in the content
        self.allowed_mentions: dict | None = None
        # every attachment with its file, those the embeds show too (Discord lists only the others
        # in the message's ``attachments``)
        self.stored_attachments: list[dict] = []

    id = property(lambda self: self.payload["id"])
    channel_id = property(lambda self: self.payload["channel_id"])
    content = property(lambda self: self.payload.get("content") or "")
    embeds = property(lambda self: self.payload.get("embeds") or [])
    components = property(lambda self: self.payload.get("components") or [])
    attachments = property(lambda self: self.payload.get("attachments") or [])
    flags = property(lambda self: self.payload.get("flags") or 0)
    ephemeral = property(lambda self: bool(self.flags & EPHEMERAL))
    loading = property(lambda self: bool(self.flags & LOADING))
    author_id = property(lambda self: self.payload["author"]["id"])

    def embed_files(self) -> list[StoredFile | None]:
        """The file each embed's image shows (None: its URL points at nothing the message holds)."""
        by_url = {a["url"]: f for a, f in zip(self.stored_attachments, self.files, strict=False)}
        return [by_url.get(((e.get("image") or {}).get("url")) or "") for e in self.embeds]

    @property
    def mentions(self) -> list[str]:
        return [u["id"] for u in self.payload.get("mentions") or []]

    @property
    def custom_ids(self) -> list[str]:
        return [c["custom_id"] for c in walk_components(self.components) if "custom_id" in c]

    @property
    def buttons(self) -> list[dict]:
        return [c for c in walk_components(self.components) if c.get("type") == 2]

    def component(self, custom_id: str | None = None, *, label: str | None = None) -> dict:
        for c in walk_components(self.components):
            if c.get("type") in (1, 9, 10, 12, 14, 17):
                continue
            if custom_id is not None and c.get("custom_id") == custom_id:
                return c
            if label is not None and c.get("label") == label:
                return c
        have = [(c.get("custom_id"), c.get("label")) for c in walk_components(self.components)
                if "custom_id" in c or "label" in c]
        raise LookupError(f"message {self.id} has no component custom_id={custom_id!r} "
                          f"label={label!r}; it has {have}")

    def __repr__(self) -> str:
        extra = f" files={[f.filename for f in self.files]}" if self.files else ""
        return (f"<StoredMessage {self.kind} {self.id} in {self.channel_id}"
                f"{' ephemeral' if self.ephemeral else ''}: {self.content[:60]!r}{extra}"
                f" ids={self.custom_ids}>")


class _Interaction:
    def __init__(self, payload: dict) -> None:
        self.payload = payload
        self.id: str = payload["id"]
        self.token: str = payload["token"]
        self.type: int = payload["type"]
        self.injected_at = time.monotonic()
        self.injected = False
        self.acked = False
        self.response_type: int | None = None
        self.original_id: str | None = None
        self.followup_ids: list[str] = []
        self.choices: list | None = None
        self.modal: dict | None = None
        self.answered = asyncio.Event()

    @property
    def user_id(self) -> str:
        u = self.payload.get("user") or self.payload["member"]["user"]
        return u["id"]


class DiscordError(Exception):
    def __init__(self, status: int, code: int | str, message: str, errors: dict | None = None,
                 violation: bool = True, detail: str | None = None, *, retry_after: float | None = None,
                 scope: str | None = None) -> None:
        super().__init__(message)
        self.status, self.code, self.message, self.errors = status, code, message, errors
        self.violation, self.detail = violation, detail or message
        self.retry_after, self.scope = retry_after, scope  # a 429's wait and its X-RateLimit-Scope

    def body(self) -> dict:
        b: dict[str, Any] = {"message": self.message, "code": self.code if isinstance(self.code, int) else 0}
        if self.status == 429:
            b.update(retry_after=round(self.retry_after or 0.0, 3), **{"global": self.scope == "global"})
        if self.errors:
            b["errors"] = {k: {"_errors": [{"code": "INVALID", "message": v}]}
                           for k, v in self.errors.items()}
        return b


def _invalid(errors: dict[str, str]) -> DiscordError:
    detail = "; ".join(f"{k}: {v}" for k, v in errors.items())
    return DiscordError(400, 50035, "Invalid Form Body", errors, detail=detail)


# --------------------------------------------------------------------------- the guild


class Model:
    """The guild the fake plays: members, roles, channels, threads and DM channels."""

    @staticmethod
    def _user_dict(uid: str, name: str, bot: bool = False) -> dict:
        return {"id": uid, "username": name, "global_name": name, "discriminator": "0",
                "avatar": None, "bot": bot, "flags": 0, "public_flags": 0}

    @staticmethod
    def _role(rid: str, name: str, perms: int, position: int) -> dict:
        return {"id": rid, "name": name, "permissions": str(perms), "position": position, "color": 0,
                "hoist": False, "managed": False, "mentionable": False, "flags": 0, "icon": None,
                "unicode_emoji": None}

    @staticmethod
    def _member_record(perms: int, roles: list[str], locale: str) -> dict:
        return {"permissions": perms, "roles": roles, "locale": locale, "joined_at": iso_now()}

    def _add_user(self, u: dict) -> None:
        self.users[u["id"]] = u

    def add_member(self, name: str, *, permissions: int | Any = None, manage_guild: bool = False,
                   locale: str = "en-US", bot: bool = False) -> dict:
        """Add a guild member; returns the user dict (use it as ``user`` everywhere)."""
        u = self._user_dict(snowflake(), name, bot=bot)
        perms = DEFAULT_PERMISSIONS if permissions is None else int(getattr(permissions, "value", permissions))
        roles: list[str] = []
        if manage_guild:
            perms |= MANAGE_GUILD
            roles.append(self._manager_role["id"])
        extra = perms & ~(DEFAULT_PERMISSIONS | (MANAGE_GUILD if manage_guild else 0))
        if extra:
            role = self._role(snowflake(), f"{name}-perms", extra, len(self.roles))
            self.roles.append(role)
            roles.append(role["id"])
        self._add_user(u)
        self.members[u["id"]] = self._member_record(perms, roles, locale)
        self.locales[u["id"]] = locale
        return u

    def add_members(self, n: int, prefix: str = "player", **kw: Any) -> list[dict]:
        """``n`` members named prefix1..prefixN (keywords as for add_member)."""
        return [self.add_member(f"{prefix}{i}", **kw) for i in range(1, n + 1)]

    def member_payload(self, user: Any) -> dict:
        uid = _id_of(user)
        rec = self.members[uid]
        return {"user": self.users[uid], "roles": list(rec["roles"]), "joined_at": rec["joined_at"],
                "deaf": False, "mute": False, "flags": 0, "nick": None, "pending": False,
                "avatar": None, "premium_since": None, "communication_disabled_until": None,
                "permissions": str(rec["permissions"])}

    def add_guild(self, name: str, *, shard: int = 0, shard_count: int = 1) -> str:
        """Another server with the bot and every member in it, on the given shard; returns its id
        (add channels to it with ``add_channel(..., guild=...)``)."""
        gid = guild_snowflake(shard, shard_count)
        self.guild_names[gid] = name
        return gid

    def add_channel(self, name: str, *, type: int = 0, parent_id: str | None = None,
                    guild: str | None = None) -> dict:
        ch = {"id": snowflake(), "type": type, "name": name, "guild_id": guild or self.guild_id,
              "position": len(self.channels), "permission_overwrites": [], "parent_id": parent_id,
              "nsfw": False, "topic": None, "last_message_id": None, "rate_limit_per_user": 0,
              "flags": 0}
        self.channels[ch["id"]] = ch
        return ch

    def add_thread(self, name: str, parent: Any = None, *, private: bool = False,
                   owner: Any = None) -> dict:
        parent_id = _id_of(parent) if parent is not None else self.channel_id
        ch = {"id": snowflake(), "type": 12 if private else 11, "name": name, "guild_id": self.guild_id,
              "parent_id": parent_id, "owner_id": _id_of(owner) if owner else self.bot_user["id"],
              "last_message_id": None, "rate_limit_per_user": 0, "flags": 0, "message_count": 0,
              "member_count": 1, "total_message_sent": 0,
              "thread_metadata": {"archived": False, "auto_archive_duration": 1440, "locked": False,
                                  "archive_timestamp": iso_now(), "invitable": True,
                                  "create_timestamp": iso_now()}}
        self.channels[ch["id"]] = ch
        return ch

    def dm_channel(self, user: Any) -> dict:
        uid = _id_of(user)
        cid = self._dm_by_user.get(uid)
        if cid is None:
            u = self.users.get(uid) or self._user_dict(uid, f"user{uid[-4:]}")
            ch = {"id": snowflake(), "type": 1, "last_message_id": None, "recipients": [u], "flags": 0}
            self.channels[ch["id"]] = ch
            self._dm_by_user[uid] = cid = ch["id"]
        return self.channels[cid]

    def mute_channel(self, channel: Any) -> None:
        """Take the bot's Send Messages permission in ``channel`` (posts answer 403 / 50013)."""
        self.muted_channels.add(_id_of(channel))

    def close_dms(self, user: Any) -> None:
        self.closed_dm_users.add(_id_of(user))

    def open_dms(self, user: Any) -> None:
        self.closed_dm_users.discard(_id_of(user))

    def _channel(self, channel: Any) -> dict:
        if channel is None:
            return self.channel
        cid = _id_of(channel)
        if cid not in self.channels:
            raise LookupError(f"unknown channel {cid}")
        return self.channels[cid]

    def guild_payload(self, gid: str | None = None) -> dict:
        gid = gid or self.guild_id
        mine = [c for c in self.channels.values() if c.get("guild_id") == gid]
        chans = [c for c in mine if c["type"] not in (1, 3, 10, 11, 12)]
        threads = [c for c in mine if c["type"] in (10, 11, 12)]
        roles = self.roles if gid == self.guild_id else \
            [dict(self.roles[0], id=gid), *self.roles[1:]]  # each guild's @everyone has the guild's id
        return {
            "id": gid, "name": self.guild_names[gid], "icon": None, "splash": None,
            "discovery_splash": None, "owner_id": self.owner["id"], "unavailable": False,
            "member_count": len(self.members), "large": False, "features": [],
            "preferred_locale": self.guild_locale, "verification_level": 0,
            "default_message_notifications": 0, "explicit_content_filter": 0, "mfa_level": 0,
            "nsfw_level": 0, "premium_tier": 0, "system_channel_flags": 0, "system_channel_id": None,
            "roles": roles, "channels": chans, "threads": threads,
            "members": [self.member_payload(uid) for uid in self.members],
            "emojis": [], "stickers": [], "stage_instances": [], "guild_scheduled_events": [],
            "soundboard_sounds": [], "presences": [], "voice_states": [], "joined_at": iso_now(),
        }


def _describe(payload: dict) -> str:
    data = payload.get("data") or {}
    if payload.get("type") in (2, 4):
        names = [data.get("name", "?")]
        opts = data.get("options") or []
        while opts and opts[0].get("type") in (1, 2):
            names.append(opts[0]["name"])
            opts = opts[0].get("options") or []
        kind = "/" if payload["type"] == 2 else "autocomplete /"
        return kind + " ".join(names)
    if payload.get("type") == 3:
        return f"component {data.get('custom_id')!r}"
    if payload.get("type") == 5:
        return f"modal {data.get('custom_id')!r}"
    return f"interaction type {payload.get('type')}"
