"""Loopback fake Discord (REST + gateway) for driving the real discord.py 2.7.1 bot in tests.

A real ``aiohttp`` server on 127.0.0.1 plays Discord: discord.py's own HTTP client, webhook
adapter (interaction responses, followups) and gateway websocket talk to it unchanged. The fake
keeps a model of one guild (members, channels, threads, DM channels), records every REST request,
stores every message the bot creates, builds interaction payloads exactly as the gateway delivers
them, and enforces Discord's side of the contract (3-second window, limits, codes), recording each
breach in ``fake.violations``.

Quick start (fixtures ``fake`` and ``settle`` live in ``tests/conftest.py``)::

    async def test_new_game(fake):
        alice = fake.add_member("alice", locale="sv-SE")
        bot = GameMasterBot(...)                  # any discord.Client / commands.Bot
        await fake.login(bot)                     # REST login + setup_hook; closed at teardown
        r = await fake.interact(bot, fake.slash(alice, "game new", game="tolp"))
        assert r.type == 4 and "Tölp" in r.content
        board = fake.last_message_with_components()
        r2 = await fake.interact(bot, fake.click(alice, board, label="Join"))
        assert fake.dms_to(alice)[-1].files[0].data.startswith(b"\\x89PNG")
        assert fake.violations == []

Model (ids are snowflake strings; "user"/"channel"/"message" arguments accept the dict, the id
as str/int, a discord.py object with ``.id`` or a StoredMessage)
    FakeDiscord(*, guild_locale="en-US", guild_name="Test Guild")
    fake.bot_user / fake.app_id / fake.guild_id / fake.owner     the bot, application, guild, owner
    fake.channel / fake.channel_id                                the default text channel "game"
    fake.add_member(name, *, permissions=None, manage_guild=False, locale="en-US", bot=False)
                                              -> user dict; ``manage_guild`` grants Manage Server
                                              (via a "Managers" role and the payload permissions)
    fake.add_members(n, prefix="player", **kw) -> [user dict]     player1..playerN
    fake.add_channel(name, *, type=0, parent_id=None) -> channel dict (0 text, 2 voice, 4 category)
    fake.add_thread(name, parent=None, *, private=False) -> thread channel dict (type 11/12); a bot
        post into an archived thread unarchives it (recorded in fake.unarchived); DELETE removes it
    fake.dm_channel(user) -> the user's DM channel dict (same one the bot opens)
    fake.close_dms(user) / fake.open_dms(user)      bot POST to the DM -> 403 {"code": 50007}
    fake.mute_channel(channel)                      bot POST to that channel -> 403 {"code": 50013}
    fake.user_message(user, content, channel=None) -> StoredMessage written by a user (inject it
                                              with fake.inject(bot, msg.payload, "MESSAGE_CREATE"))

Interaction builders (return the payload dict the gateway would send; the 3 s clock starts now
and restarts when injected)
    fake.slash(user, "game new", [extra path], {options}, locale=None, channel=None, **options)
        "a b c" resolves into nested sub-command groups/sub-commands; option types from Python
        values: str 3, int 4, bool 5, float 10, user dict 6 (with ``resolved``), channel dict 7;
        ``Opt(value, type)`` forces a type. Use the ``{options}`` dict for option names that
        clash with keywords (user, channel, locale).
    fake.autocomplete(user, "tolp play", focused="cards", cards="7", ...)   type 4 payload
    fake.click(user, message, custom_id=None, *, label=None, locale=None, channel=None)  button; looks the
        component up in the stored message (LookupError lists what exists; disabled -> error)
        and sends the full stored message, so DynamicItems rebuild. DM messages -> DM context.
    fake.select(user, message, custom_id, values, *, locale=None)   string/user/... select
    fake.submit_modal(user, interaction_or_handle, {field_custom_id: value}, *, locale=None)
        answers the modal the bot opened (response type 9) for that interaction

Driving the bot
    await fake.login(bot, token="fake-token")       REST login (GET /users/@me, app info, setup_hook)
    await fake.connect(bot, timeout=5) -> task       real gateway: IDENTIFY -> READY + GUILD_CREATE
    await fake.close_bot(bot, task=None)             close (and await the connect task)
    fake.inject(bot, payload, event="INTERACTION_CREATE")   parser injection, like the gateway
    await fake.interact(bot, payload, *, timeout=5, gateway=False, expect_response=True)
        -> Responses: injects (or sends over the websocket when gateway=True), waits until the
        initial response was POSTed and the CommandTree-invoker / discord-ui / event tasks
        finished; raises AssertionError when the bot never answered (unless expect_response=False)
    await settle(bot=None, timeout=5, *, ignore=(), prefixes=SETTLE_PREFIXES)
        waits for tasks named CommandTree-invoker*, discord-ui-*, "discord.py: *", gamemaster*
        (name your own background tasks "gamemaster..." to have them awaited)
    await fake.dispatch(event, data)                 DISPATCH frame to every connected client
    await fake.drop_connection(code=4000)            close sockets; discord.py RESUMEs
    Bot in a subprocess (e2e): pass ``fake.api_base`` / ``fake.gateway_url`` to it, wait for
    ``fake.identified``, then ``await fake.interact(None, payload, gateway=True)`` (waits for the
    initial response only) and ``await fake.wait_message(...)`` / ``wait_request(...)`` for the rest.
    Restart: ``await fake.close_bot(bot1)``, build a new bot, ``await fake.login(bot2)``: the fake
    keeps its guild, stored messages and DM channels, so old buttons can be clicked.

Observing
    fake.requests: list[Recorded]  (.method .path .route .query .json .files[StoredFile] .status
                                    .response .interaction_id)
    await fake.wait_request(pred, timeout=5, *, since=0) -> Recorded
    await fake.wait_message(pred, timeout=5) -> StoredMessage
    fake.messages: dict[id, StoredMessage]; fake.message(id)
    fake.channel_messages(channel=None, *, include_ephemeral=False) -> [StoredMessage]
    fake.dms_to(user) -> [StoredMessage]                 messages the bot delivered to the DM
    fake.ephemerals_for(user) -> [StoredMessage]         ephemeral responses/followups to user
    fake.last_message_with_components(channel=None, *, include_ephemeral=True) -> StoredMessage
    fake.responses_for(interaction) -> Responses (live view)
    fake.synced_commands: {"global": [...], guild_id: [...]}  last PUT payloads
    fake.violations: [Violation]; fake.unanswered() -> payloads never acknowledged
    fake.errors: [str]    ERROR log records while the fake ran (exceptions discord.py swallowed
                          in command/view handlers, with the last traceback lines)
    fake.assert_clean()   no violations, no logged errors, every injected interaction acknowledged
    Attachment URLs in stored messages are served by the fake (``await attachment.read()`` works).
    StoredMessage: .id .channel_id .kind ('channel'|'dm'|'response'|'followup'|'user') .content
        .embeds .components .attachments .files[StoredFile(.filename .data .content_type)]
        .flags .ephemeral .deleted .history (earlier versions) .custom_ids .buttons .mentions
        .interaction_id .payload (full Discord message dict) .component(custom_id=, label=)
    Responses: .initial (Recorded) .callbacks .status .ok .type .deferred .ephemeral
        .original (StoredMessage) .followups .messages .content .contents .text .files
        .choices (autocomplete) .modal (type 9 data) .edits .requests .violations

Enforced (HTTP error + entry in fake.violations)
    initial response later than ``fake.response_deadline`` (3.0 s) -> 404 10062 Unknown interaction
    second initial response -> 400 40060; response type invalid for the interaction type -> 400
    autocomplete > 25 choices, choice name/value longer than 100 -> 400 50035
    content > 2000, > 10 embeds or embed limits, > 5 action rows, > 5 buttons per row, select not
    alone in its row, custom_id > 100, duplicate custom_id, button label > 80, select options
    outside 1..25, > 10 files -> 400 50035; empty new message -> 400 50006
    file larger than the interaction's attachment_size_limit / ``fake.attachment_size_limit``
    (10 MiB) -> 413 40005
    followup / edit with an unknown (or not yet acknowledged) token -> 404 10015
    editing another user's message -> 403 50005; editing a message in an archived thread ->
    400 50083; request to a route the fake does not know -> 404
    (recorded as a violation "unhandled route" so gaps in the fake are loud)
Not violations (Discord behaviour a bot must cope with): closed DMs (403 50007), unknown
channel/message lookups (404 10003/10008), rate limits: ``fake.ratelimit_next = n`` makes the
next n requests to /channels/* and /users/@me/channels answer 429 with a ``Via`` header and
``retry_after = fake.ratelimit_retry_after`` (0.05 s); discord.py retries transparently.

Gateway: HELLO, heartbeat ACK, IDENTIFY -> READY + GUILD_CREATE (all members, channels, threads),
REQUEST_GUILD_MEMBERS -> GUILD_MEMBERS_CHUNK, RESUME (replays missed frames, then RESUMED),
bot-created non-ephemeral messages are echoed as MESSAGE_CREATE / MESSAGE_UPDATE / MESSAGE_DELETE.
``fake.gateway_log`` holds client->server frames; ``fake.identified`` / ``fake.resumed`` events.
Use ``guild_ready_timeout=0.05`` on the bot to keep tests fast.

Relies on discord.py internals (checked by tests/discord/test_canary.py): ``discord.http.Route.BASE``,
``DiscordWebSocket.DEFAULT_GATEWAY``, ``ConnectionState.parsers["INTERACTION_CREATE"]`` and the
task names above.
"""

from __future__ import annotations

import asyncio
import copy
import functools
import itertools
import json
import logging
import re
import time
import traceback
from collections import defaultdict
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from aiohttp import WSMsgType, web

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


def jresp(obj: Any, status: int = 200, headers: dict | None = None) -> web.Response:
    # discord.py decodes JSON only when Content-Type is exactly application/json
    h = {"Content-Type": "application/json"}
    h.update(headers or {})
    return web.Response(body=json.dumps(obj).encode(), status=status, headers=h)


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
    def __init__(self, status: int, code: int, message: str, errors: dict | None = None,
                 violation: bool = True, detail: str | None = None) -> None:
        super().__init__(message)
        self.status, self.code, self.message, self.errors = status, code, message, errors
        self.violation, self.detail = violation, detail or message

    def body(self) -> dict:
        b: dict[str, Any] = {"message": self.message, "code": self.code}
        if self.errors:
            b["errors"] = {k: {"_errors": [{"code": "INVALID", "message": v}]}
                           for k, v in self.errors.items()}
        return b


def _invalid(errors: dict[str, str]) -> DiscordError:
    detail = "; ".join(f"{k}: {v}" for k, v in errors.items())
    return DiscordError(400, 50035, "Invalid Form Body", errors, detail=detail)


class Responses:
    """Live view of everything the bot answered to one interaction."""

    def __init__(self, fake: FakeDiscord, rec: _Interaction) -> None:
        self._fake, self._rec = fake, rec
        self.payload = rec.payload
        self.id = rec.id
        self.token = rec.token

    @property
    def requests(self) -> list[Recorded]:
        return [r for r in self._fake.requests if r.interaction_id == self.id]

    @property
    def callbacks(self) -> list[Recorded]:
        return [r for r in self.requests if r.route.endswith("/callback")]

    @property
    def initial(self) -> Recorded | None:
        cbs = self.callbacks
        return cbs[0] if cbs else None

    @property
    def status(self) -> int | None:
        return self.initial.status if self.initial else None

    @property
    def ok(self) -> bool:
        return self.status is not None and 200 <= self.status < 300

    @property
    def type(self) -> int | None:
        """Type of the accepted initial response (4 reply, 5 defer, 6 deferred update, 7 update,
        8 autocomplete, 9 modal); for a rejected one, the type that was attempted."""
        if self._rec.response_type is not None:
            return self._rec.response_type
        return self.initial.json.get("type") if self.initial and self.initial.json else None

    @property
    def deferred(self) -> bool:
        return self.type in (5, 6)

    @property
    def original(self) -> StoredMessage | None:
        return self._fake.messages.get(self._rec.original_id) if self._rec.original_id else None

    @property
    def _answer(self) -> StoredMessage | None:
        """The original response, unless it was a placeholder removed to answer by a follow-up
        (a refusal after a public "thinking…" defer is a new, ephemeral message)."""
        o = self.original
        return None if o is not None and o.deleted and self._rec.followup_ids else o

    @property
    def followups(self) -> list[StoredMessage]:
        return [self._fake.messages[m] for m in self._rec.followup_ids]

    @property
    def messages(self) -> list[StoredMessage]:
        """What the bot answered: the response and followups (after a deferred update, type 6, the
        original is the message clicked, not an answer)."""
        out = [self._answer] if self._answer is not None and self.type != 6 else []
        return out + [m for m in self.followups if m not in out]

    @property
    def ephemeral(self) -> bool:
        o = self._answer
        if o is not None and o.kind == "response":
            return o.ephemeral
        return bool(self.messages) and self.messages[0].ephemeral

    @property
    def content(self) -> str | None:
        o = self._answer
        return o.content if o is not None else (self.followups[0].content if self.followups else None)

    @property
    def contents(self) -> list[str]:
        return [m.content for m in self.messages]

    @property
    def text(self) -> str:
        return "\n".join(self.contents)

    @property
    def files(self) -> list[StoredFile]:
        return [f for m in self.messages for f in m.files]

    @property
    def choices(self) -> list[dict] | None:
        return self._rec.choices

    @property
    def modal(self) -> dict | None:
        return self._rec.modal

    @property
    def edits(self) -> list[Recorded]:
        return [r for r in self.requests if r.method == "PATCH"]

    @property
    def violations(self) -> list[Violation]:
        reqs = self.requests
        return [v for v in self._fake.violations if v.request in reqs]

    def __repr__(self) -> str:
        return (f"<Responses {self.id} status={self.status} type={self.type} "
                f"contents={self.contents!r} choices={self.choices!r}>")


async def settle(bot: Any = None, timeout: float = 5.0, *, ignore: Iterable[asyncio.Task] = (),
                 prefixes: tuple[str, ...] = SETTLE_PREFIXES) -> None:
    """Wait until the tasks discord.py spawned for events/interactions (and tasks named
    ``gamemaster*``) are done, including tasks they spawn. Raises AssertionError on timeout."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    ignored = set(ignore)
    me = asyncio.current_task()
    while True:
        pending = [t for t in asyncio.all_tasks() if t is not me and t not in ignored
                   and not t.done() and t.get_name().startswith(prefixes)]
        if not pending:
            return
        remaining = deadline - loop.time()
        if remaining <= 0:
            raise AssertionError(f"settle: still running after {timeout}s: "
                                 f"{sorted(t.get_name() for t in pending)}")
        await asyncio.wait(pending, timeout=remaining)


# --------------------------------------------------------------------------- the fake


class FakeDiscord:
    def __init__(self, *, guild_locale: str = "en-US", guild_name: str = "Test Guild") -> None:
        self.response_deadline = 3.0
        self.attachment_size_limit = 10 * MiB
        self.ratelimit_next = 0
        self.ratelimit_retry_after = 0.05
        self.echo_gateway = True
        # Discord's per-channel message limit (posts + edits of channel messages): (count, seconds);
        # exceeding it answers 429 and records a violation
        self.channel_rate: tuple[int, float] = (5, 5.0)
        self._nonces: dict[str, str] = {}  # enforce_nonce: nonce -> message id

        self.requests: list[Recorded] = []
        # per channel, the bot's successful posts and edits of its messages in the order they were
        # answered: the channel limit looks only at these (a scan of every request was quadratic)
        self._channel_writes: dict[str, list[Recorded]] = defaultdict(list)
        self.violations: list[Violation] = []
        self.errors: list[str] = []    # ERROR log records (exceptions in bot handlers, fake bugs)
        self.mass_pings: list[str] = []  # messages whose content would ping everyone, here or a role
        self._log_handler = _ErrorCollector(self.errors)
        self.messages: dict[str, StoredMessage] = {}
        self.synced_commands: dict[str, list[dict]] = {}
        self.interactions: dict[str, _Interaction] = {}   # by id
        self._by_token: dict[str, _Interaction] = {}
        self._changed = asyncio.Condition()

        self.app_id = snowflake()
        self.bot_user = self._user_dict(self.app_id, "GameMaster", bot=True)
        self.guild_id = snowflake()
        self.guild_names: dict[str, str] = {self.guild_id: guild_name}  # every guild the bot is in
        self.guild_name = guild_name
        self.guild_locale = guild_locale
        self.users: dict[str, dict] = {}
        self.members: dict[str, dict] = {}     # uid -> {roles, permissions, locale, joined_at}
        self.locales: dict[str, str] = {}
        self.roles: list[dict] = [self._role(self.guild_id, "@everyone", DEFAULT_PERMISSIONS, 0)]
        self._manager_role = self._role(snowflake(), "Managers", DEFAULT_PERMISSIONS | MANAGE_GUILD, 1)
        self.roles.append(self._manager_role)
        self.channels: dict[str, dict] = {}
        self._dm_by_user: dict[str, str] = {}
        self.closed_dm_users: set[str] = set()
        self.muted_channels: set[str] = set()  # the bot lacks Send Messages there: 403 / 50013
        self.unarchived: list[str] = []  # archived threads a bot post unarchived, in order
        self.rejected_token: str | None = None  # login with this token answers 401 (a wrong token)

        self._add_user(self.bot_user)
        self.members[self.bot_user["id"]] = self._member_record(BOT_PERMISSIONS, [], "en-US")
        self.owner = self.add_member("owner", permissions=ADMINISTRATOR | DEFAULT_PERMISSIONS)
        self.channel = self.add_channel("game")
        self.channel_id: str = self.channel["id"]

        # gateway
        self.seq = 0
        self.session_id = ""
        self.sent_frames: list[dict] = []
        self.sockets: list[web.WebSocketResponse] = []
        self.socket_shards: dict[web.WebSocketResponse, tuple[int, int]] = {}  # IDENTIFY's [shard, count]
        self.identified_shards: set[int] = set()
        self.session_shards: dict[str, tuple[int, int]] = {}
        self.delivered: list[tuple[int, str, Any]] = []  # (shard, event, the payload's id) per frame sent
        self.gateway_log: list[dict] = []
        self.identified = asyncio.Event()
        self.resumed = asyncio.Event()

        self.port: int | None = None
        self._runner: web.AppRunner | None = None
        self._bots: list[Any] = []
        self._saved: tuple | None = None
        self._routes = self._route_table()

    # ------------------------------------------------------------------ model
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

    # ------------------------------------------------------------- payloads
    def _interaction(self, user: Any, itype: int, data: dict, *, channel: Any = None,
                     locale: str | None = None, message: StoredMessage | None = None) -> dict:
        uid = _id_of(user)
        u = self.users[uid]
        if channel is None and message is not None:
            channel = message.channel_id
        ch = self._channel(channel)
        p: dict[str, Any] = {
            "id": snowflake(), "application_id": self.app_id, "type": itype, "data": data,
            "token": "itok-" + snowflake(), "version": 1,
            "locale": locale or self.locales.get(uid, "en-US"),
            "app_permissions": str(BOT_PERMISSIONS), "attachment_size_limit": self.attachment_size_limit,
            "entitlements": [], "channel_id": ch["id"], "channel": copy.deepcopy(ch),
        }
        if ch["type"] == 1:
            p.update(user=u, context=1, authorizing_integration_owners={"0": "0"})
        else:
            if uid not in self.members:
                raise LookupError(f"user {uid} is not a member of the guild")
            gid = ch.get("guild_id", self.guild_id)
            p.update(guild_id=gid, guild_locale=self.guild_locale,
                     guild={"id": gid, "locale": self.guild_locale, "features": []},
                     member=self.member_payload(uid), context=0,
                     authorizing_integration_owners={"0": gid})
        if message is not None:
            p["message"] = copy.deepcopy(message.payload)
        rec = _Interaction(p)
        self.interactions[rec.id] = rec
        self._by_token[rec.token] = rec
        return p

    def _options(self, kw: dict, resolved: dict) -> list[dict]:
        out = []
        for name, value in kw.items():
            if isinstance(value, Opt):
                out.append({"name": name, "type": value.type, "value": value.value})
                continue
            if isinstance(value, bool):
                t = 5
            elif isinstance(value, int):
                t = 4
            elif isinstance(value, float):
                t = 10
            elif isinstance(value, str):
                t = 3
            elif isinstance(value, dict) and "username" in value:
                t = 6
                resolved.setdefault("users", {})[value["id"]] = value
                if value["id"] in self.members:
                    m = self.member_payload(value["id"])
                    m.pop("user")
                    resolved.setdefault("members", {})[value["id"]] = m
                value = value["id"]
            elif isinstance(value, dict) and "type" in value and "id" in value:
                t = 7
                c = {k: value.get(k) for k in ("id", "type", "name", "parent_id", "thread_metadata")
                     if k in value}
                c["permissions"] = str(BOT_PERMISSIONS)
                resolved.setdefault("channels", {})[value["id"]] = c
                value = value["id"]
            else:
                raise TypeError(f"cannot infer option type for {name}={value!r}; use Opt(value, type)")
            out.append({"name": name, "type": t, "value": value})
        return out

    def _command_data(self, command: str | list | tuple, args: tuple, options: dict,
                      focused: str | None = None) -> dict:
        path = command.split() if isinstance(command, str) else list(command)
        opts = dict()
        for a in args:
            if isinstance(a, dict):
                opts.update(a)
            elif isinstance(a, (list, tuple)):
                path.extend(a)
            elif isinstance(a, str):
                path.extend(a.split())
            else:
                raise TypeError(f"unexpected positional {a!r}")
        opts.update(options)
        if focused is not None:
            opts.setdefault(focused, "")
        resolved: dict = {}
        leaf = self._options(opts, resolved)
        if focused is not None:
            for o in leaf:
                if o["name"] == focused:
                    o["focused"] = True
        # nest: [top, group?, sub?]
        inner = leaf
        for depth in range(len(path) - 1, 0, -1):
            kind = 1 if depth == len(path) - 1 else 2
            inner = [{"name": path[depth], "type": kind, "options": inner}]
        top = path[0]
        data: dict[str, Any] = {"id": self._command_id(top), "name": top, "type": 1, "options": inner}
        if resolved:
            data["resolved"] = resolved
        gcmds = self.synced_commands.get(self.guild_id, [])
        if any(c["name"] == top for c in gcmds) and not any(
                c["name"] == top for c in self.synced_commands.get("global", [])):
            data["guild_id"] = self.guild_id
        return data

    def _command_id(self, name: str) -> str:
        for cmds in self.synced_commands.values():
            for c in cmds:
                if c.get("name") == name and "id" in c:
                    return c["id"]
        return snowflake()

    def slash(self, user: Any, command: str | list, *args: Any, locale: str | None = None,
              channel: Any = None, **options: Any) -> dict:
        """Chat-input command payload; "game new" -> sub-command ``new`` of ``game``."""
        return self._interaction(user, 2, self._command_data(command, args, options),
                                 channel=channel, locale=locale)

    def autocomplete(self, user: Any, command: str | list, *args: Any, focused: str,
                     locale: str | None = None, channel: Any = None, **options: Any) -> dict:
        """Autocomplete payload (type 4); ``focused`` names the option being typed."""
        return self._interaction(user, 4, self._command_data(command, args, options, focused),
                                 channel=channel, locale=locale)

    def _stored(self, message: Any) -> StoredMessage:
        if isinstance(message, StoredMessage):
            return message
        if isinstance(message, Responses):
            if message.original is None:
                raise LookupError(f"{message!r} has no message")
            return message.original
        mid = _id_of(message)
        if mid not in self.messages:
            raise LookupError(f"unknown message {mid}")
        return self.messages[mid]

    def click(self, user: Any, message: Any, custom_id: str | None = None, *,
              label: str | None = None, locale: str | None = None, channel: Any = None) -> dict:
        """Button click on a stored message (by custom_id or label); ``channel`` overrides the
        channel the interaction comes from (a forged or forwarded message)."""
        msg = self._stored(message)
        comp = msg.component(custom_id, label=label)
        if comp.get("type") != 2:
            raise LookupError(f"{comp} is not a button")
        if comp.get("disabled"):
            raise LookupError(f"button {comp.get('custom_id')!r} is disabled; Discord would not send it")
        if "custom_id" not in comp:
            raise LookupError(f"button {comp} is a link/premium button; it has no interaction")
        data = {"custom_id": comp["custom_id"], "component_type": 2}
        return self._interaction(user, 3, data, locale=locale, message=msg, channel=channel)

    def select(self, user: Any, message: Any, custom_id: str, values: list, *,
               locale: str | None = None) -> dict:
        """Select-menu choice on a stored message."""
        msg = self._stored(message)
        comp = msg.component(custom_id)
        ctype = comp.get("type")
        if ctype not in (3, 5, 6, 7, 8):
            raise LookupError(f"{custom_id!r} is not a select menu")
        lo, hi = comp.get("min_values", 1), comp.get("max_values", 1)
        if not lo <= len(values) <= hi:
            raise ValueError(f"select {custom_id!r} takes {lo}..{hi} values, got {values}")
        data: dict[str, Any] = {"custom_id": custom_id, "component_type": ctype}
        if ctype == 3:
            allowed = [o["value"] for o in comp.get("options", [])]
            bad = [v for v in values if v not in allowed]
            if bad:
                raise ValueError(f"{bad} are not options of {custom_id!r}: {allowed}")
            data["values"] = list(values)
        else:
            resolved: dict = {}
            ids = []
            for v in values:
                if isinstance(v, dict) and "username" in v:
                    resolved.setdefault("users", {})[v["id"]] = v
                    if v["id"] in self.members:
                        m = self.member_payload(v["id"])
                        m.pop("user")
                        resolved.setdefault("members", {})[v["id"]] = m
                elif isinstance(v, dict) and "type" in v:
                    resolved.setdefault("channels", {})[v["id"]] = {
                        "id": v["id"], "type": v["type"], "name": v.get("name"),
                        "permissions": str(BOT_PERMISSIONS)}
                ids.append(_id_of(v))
            data["values"] = ids
            data["resolved"] = resolved
        return self._interaction(user, 3, data, locale=locale, message=msg)

    def submit_modal(self, user: Any, interaction: Any, values: dict[str, str], *,
                     locale: str | None = None) -> dict:
        """Modal-submit payload (type 5) answering the modal the bot opened for ``interaction``."""
        rec = self._rec_for(interaction)
        if rec.modal is None:
            raise LookupError(f"interaction {rec.id} did not open a modal")
        modal = rec.modal
        known = {c["custom_id"] for c in walk_components(modal.get("components")) if c.get("type") == 4}
        unknown = set(values) - known
        if unknown:
            raise LookupError(f"modal has no text inputs {unknown}; it has {known}")
        comps: list[dict] = []
        for top in modal.get("components", []):
            if top.get("type") == 1:
                kids = [{"type": 4, "custom_id": c["custom_id"], "value": values.get(c["custom_id"], "")}
                        for c in top.get("components", []) if c.get("type") == 4]
                comps.append({"type": 1, "components": kids})
            elif top.get("type") == 18 and top.get("component", {}).get("type") == 4:
                c = top["component"]
                comps.append({"type": 18, "id": top.get("id", 0), "component": {
                    "type": 4, "custom_id": c["custom_id"], "value": values.get(c["custom_id"], "")}})
        data = {"custom_id": modal["custom_id"], "components": comps}
        message = self.messages.get(rec.payload.get("message", {}).get("id", ""))
        ch = rec.payload["channel_id"]
        return self._interaction(user, 5, data, channel=ch, locale=locale, message=message)

    def user_message(self, user: Any, content: str, channel: Any = None) -> StoredMessage:
        """A message written by a member (stored; inject/dispatch it as MESSAGE_CREATE)."""
        ch = self._channel(channel)
        u = self.users[_id_of(user)]
        payload = self._message_payload(ch, u, {"content": content}, [], snowflake())
        if ch["type"] != 1 and u["id"] in self.members:
            m = self.member_payload(u["id"])
            m.pop("user")
            payload["member"] = m
        msg = StoredMessage(payload, [], "user")
        self.messages[msg.id] = msg
        return msg

    # ------------------------------------------------------------- injection
    def _rec_for(self, interaction: Any) -> _Interaction:
        if isinstance(interaction, Responses):
            return interaction._rec
        if isinstance(interaction, dict):
            key = str(interaction["id"])
        else:
            key = _id_of(interaction)
        if key in self.interactions:
            return self.interactions[key]
        if key in self._by_token:
            return self._by_token[key]
        raise LookupError(f"unknown interaction {key}")

    def inject(self, bot: Any, payload: dict, event: str = "INTERACTION_CREATE") -> None:
        """Hand a DISPATCH payload to the bot's parser exactly as the gateway would."""
        if event == "INTERACTION_CREATE":
            rec = self._rec_for(payload)
            rec.injected_at = time.monotonic()
            rec.injected = True
        bot._connection.parsers[event](payload)

    async def interact(self, bot: Any, payload: dict, *, timeout: float = 5.0, gateway: bool = False,
                       expect_response: bool = True) -> Responses:
        """Inject an interaction, wait for the answer and the tasks it spawned; return a handle."""
        rec = self._rec_for(payload)
        before = set(asyncio.all_tasks())
        n_errors = len(self.errors)
        if gateway:
            if not self.sockets:
                raise AssertionError("interact(gateway=True) but no client is connected")
            await self.dispatch("INTERACTION_CREATE", payload)
            try:
                await asyncio.wait_for(rec.answered.wait(), timeout)
            except TimeoutError:
                if expect_response:
                    raise AssertionError(f"bot never answered interaction {rec.id} "
                                         f"({_describe(payload)}) within {timeout}s") from None
        else:
            self.inject(bot, payload)
        await settle(bot, timeout, ignore=before)
        if expect_response and not rec.answered.is_set():
            logged = "".join(f"\n  logged: {e}" for e in self.errors[n_errors:])
            raise AssertionError(f"bot never answered interaction {rec.id} ({_describe(payload)}); "
                                 f"Discord would show 'This interaction failed'{logged}")
        return Responses(self, rec)

    def responses_for(self, interaction: Any) -> Responses:
        return Responses(self, self._rec_for(interaction))

    def unanswered(self) -> list[dict]:
        return [r.payload for r in self.interactions.values() if r.injected and not r.acked]

    def assert_clean(self) -> None:
        assert self.violations == [], f"Discord rule violations: {self.violations}"
        assert self.errors == [], "errors were logged:\n" + "\n".join(self.errors)
        assert self.mass_pings == [], f"messages that would ping everyone, here or a role: {self.mass_pings}"
        missing = self.unanswered()
        assert not missing, f"interactions never acknowledged: {[_describe(p) for p in missing]}"

    # ---------------------------------------------------------- bot lifecycle
    async def login(self, bot: Any, token: str = "fake-token") -> Any:
        self._bots.append(bot)
        await bot.login(token)
        return bot

    async def connect(self, bot: Any, timeout: float = 5.0) -> asyncio.Task:
        if bot not in self._bots:
            await self.login(bot)
        task = asyncio.create_task(bot.connect(reconnect=True), name="fakediscord-connect")
        ready = asyncio.create_task(bot.wait_until_ready())
        done, _ = await asyncio.wait({task, ready}, timeout=timeout, return_when=asyncio.FIRST_COMPLETED)
        if ready not in done:
            ready.cancel()
            if task.done():
                task.result()
            raise AssertionError(f"bot did not become ready within {timeout}s")
        bot._fake_connect_task = task
        return task

    async def close_bot(self, bot: Any, task: asyncio.Task | None = None) -> None:
        await bot.close()
        task = task or getattr(bot, "_fake_connect_task", None)
        if task is not None:
            await asyncio.wait_for(task, 5)

    # ------------------------------------------------------------- observing
    async def _notify(self) -> None:
        async with self._changed:
            self._changed.notify_all()

    async def wait_request(self, pred: Callable[[Recorded], bool], timeout: float = 5.0, *,
                           since: int = 0) -> Recorded:
        async def scan() -> Recorded:
            async with self._changed:
                while True:
                    for r in self.requests[since:]:
                        if r.status is not None and pred(r):
                            return r
                    await self._changed.wait()
        return await asyncio.wait_for(scan(), timeout)

    async def wait_message(self, pred: Callable[[StoredMessage], bool], timeout: float = 5.0) -> StoredMessage:
        async def scan() -> StoredMessage:
            async with self._changed:
                while True:
                    for m in self.messages.values():
                        if not m.deleted and pred(m):
                            return m
                    await self._changed.wait()
        return await asyncio.wait_for(scan(), timeout)

    def message(self, message_id: Any) -> StoredMessage:
        return self.messages[_id_of(message_id)]

    def channel_messages(self, channel: Any = None, *, include_ephemeral: bool = False) -> list[StoredMessage]:
        cid = self._channel(channel)["id"]
        return [m for m in self.messages.values() if m.channel_id == cid and not m.deleted
                and (include_ephemeral or not m.ephemeral)]

    def dms_to(self, user: Any) -> list[StoredMessage]:
        cid = self._dm_by_user.get(_id_of(user))
        if cid is None:
            return []
        return [m for m in self.messages.values() if m.channel_id == cid and not m.deleted
                and m.author_id == self.bot_user["id"]]

    def ephemerals_for(self, user: Any) -> list[StoredMessage]:
        uid = _id_of(user)
        out = []
        for m in self.messages.values():
            if m.ephemeral and not m.deleted and m.interaction_id in self.interactions:
                if self.interactions[m.interaction_id].user_id == uid:
                    out.append(m)
        return out

    def last_message_with_components(self, channel: Any = None, *,
                                     include_ephemeral: bool = True) -> StoredMessage | None:
        cid = self._channel(channel)["id"] if channel is not None else None
        for m in reversed(list(self.messages.values())):
            if m.deleted or not m.components or (m.ephemeral and not include_ephemeral):
                continue
            if cid is None or m.channel_id == cid:
                return m
        return None

    # ------------------------------------------------------------- messages
    def _mentions(self, content: str) -> list[dict]:
        ids = dict.fromkeys(re.findall(r"<@!?(\d+)>", content or ""))
        return [self.users[i] for i in ids if i in self.users]

    def _note_mentions(self, msg: StoredMessage, body: dict) -> None:
        """Record the request's allowed_mentions and, as Discord would resolve them, whether the
        content pings @everyone, @here or a role (Discord parses everything when the request
        carries no allowed_mentions)."""
        allowed = body.get("allowed_mentions")
        msg.allowed_mentions = allowed
        content = str(body.get("content") or "")
        parse = set(allowed.get("parse") or []) if allowed is not None else {"everyone", "roles", "users"}
        roles = {str(r) for r in (allowed.get("roles") or [])} if allowed is not None else set()
        everyone = "everyone" in parse and bool(MASS_MENTION.search(content))
        pinged_roles = [r for r in ROLE_MENTION.findall(content) if "roles" in parse or r in roles]
        msg.payload["mention_everyone"] = everyone
        msg.payload["mention_roles"] = pinged_roles
        if everyone or pinged_roles:
            self.mass_pings.append(f"{msg.kind} {msg.id}: {content[:120]!r} allowed_mentions={allowed}")

    def _attachments(self, body: dict, files: list[StoredFile], existing: list[dict],
                     existing_files: list[StoredFile]) -> tuple[list[dict], list[StoredFile]]:
        """Resolve discord.py's ``attachments`` spec: kept ones by id, new ones by files[n] index."""
        by_index: dict[int, StoredFile] = {}
        for f in files:
            m = re.fullmatch(r"files\[(\d+)\]", f.name or "")
            if m:
                by_index[int(m.group(1))] = f
        old = {str(a["id"]): (a, f) for a, f in zip(existing, existing_files, strict=False)}
        spec = body.get("attachments")
        if spec is None:
            spec = [{"id": a["id"]} for a in existing] + [{"id": i} for i in sorted(by_index)]
        atts: list[dict] = []
        out_files: list[StoredFile] = []
        for s in spec:
            sid = str(s.get("id"))
            if sid in old:
                a, f = old[sid]
            elif sid.isdigit() and int(sid) in by_index:
                f = by_index[int(sid)]
                aid = snowflake()
                url = f"http://127.0.0.1:{self.port}/attachments/{aid}/{f.filename}"
                a = {"id": aid, "filename": s.get("filename") or f.filename, "size": f.size, "url": url,
                     "proxy_url": url, "content_type": f.content_type or "application/octet-stream"}
                if s.get("description"):
                    a["description"] = s["description"]
            else:
                continue
            atts.append(a)
            out_files.append(f)
        return atts, out_files

    def _message_payload(self, ch: dict, author: dict, body: dict, files: list[StoredFile],
                         mid: str, *, flags: int = 0, attachments: list[dict] | None = None) -> dict:
        content = body.get("content") or ""
        p = {"id": mid, "channel_id": ch["id"], "author": author, "content": content,
             "timestamp": iso_now(), "edited_timestamp": None, "tts": bool(body.get("tts")),
             "mention_everyone": False, "mentions": self._mentions(content), "mention_roles": [],
             "attachments": attachments or [], "embeds": body.get("embeds") or [], "pinned": False,
             "type": 0, "flags": flags, "components": body.get("components") or []}
        if ch["type"] != 1:
            p["guild_id"] = ch.get("guild_id", self.guild_id)
        if body.get("message_reference"):
            p["type"] = 19
            p["message_reference"] = dict(body["message_reference"], channel_id=ch["id"])
        if body.get("poll"):
            p["poll"] = body["poll"]
        return p

    def _create(self, ch: dict, body: dict, files: list[StoredFile], kind: str, *,
                rec: _Interaction | None = None, flags: int = 0, mid: str | None = None) -> StoredMessage:
        mid = mid or snowflake()
        atts, kept = self._attachments(body, files, [], [])
        flags |= (body.get("flags") or 0) & (EPHEMERAL | COMPONENTS_V2 | 4 | 4096)
        p = self._message_payload(ch, self.bot_user, body, files, mid, flags=flags, attachments=atts)
        if rec is not None:
            p["webhook_id"] = self.app_id
            p["application_id"] = self.app_id
            if rec.type == 2 and kind == "response":
                p["type"] = 20
            p["interaction_metadata"] = {
                "id": rec.id, "type": rec.type, "user": self.users[rec.user_id],
                "authorizing_integration_owners": rec.payload.get("authorizing_integration_owners", {})}
        msg = StoredMessage(p, kept, kind, rec.id if rec else None)
        self._note_mentions(msg, body)
        self.messages[mid] = msg
        ch["last_message_id"] = mid
        return msg

    def _edit(self, msg: StoredMessage, body: dict, files: list[StoredFile]) -> StoredMessage:
        msg.history.append(copy.deepcopy(msg.payload))
        p = msg.payload
        if "content" in body:
            p["content"] = body["content"] or ""
            p["mentions"] = self._mentions(p["content"])
            self._note_mentions(msg, body)
        for key in ("embeds", "components"):
            if key in body:
                p[key] = body[key] or []
        if "attachments" in body or files:
            p["attachments"], msg.files = self._attachments(body, files, p["attachments"], msg.files)
        flags = p.get("flags", 0) & ~LOADING
        if body.get("flags") is not None:
            flags = (flags & EPHEMERAL) | (body["flags"] & (4 | COMPONENTS_V2))
        p["flags"] = flags
        p["edited_timestamp"] = iso_now()
        return msg

    # ---------------------------------------------------------- validation
    def _check_message(self, body: dict | None, files: list[StoredFile], *, creating: bool,
                       size_limit: int) -> None:
        body = body or {}
        for f in files:
            if f.size > size_limit:
                raise DiscordError(413, 40005, "Request entity too large",
                                   detail=f"{f.filename} is {f.size} bytes > limit {size_limit}")
        errors: dict[str, str] = {}
        if len(files) > 10:
            errors["files"] = f"{len(files)} files > 10"
        content = body.get("content")
        if content is not None and len(str(content)) > 2000:
            errors["content"] = f"Must be 2000 or fewer in length (got {len(str(content))})"
        embeds = body.get("embeds") or []
        if len(embeds) > 10:
            errors["embeds"] = f"{len(embeds)} embeds > 10"
        total = 0
        for i, e in enumerate(embeds):
            limits = [("title", e.get("title"), 256), ("description", e.get("description"), 4096),
                      ("footer.text", (e.get("footer") or {}).get("text"), 2048),
                      ("author.name", (e.get("author") or {}).get("name"), 256)]
            fields = e.get("fields") or []
            if len(fields) > 25:
                errors[f"embeds.{i}.fields"] = f"{len(fields)} fields > 25"
            for j, fl in enumerate(fields):
                limits += [(f"fields.{j}.name", fl.get("name"), 256), (f"fields.{j}.value", fl.get("value"), 1024)]
            for name, val, lim in limits:
                if val is not None:
                    total += len(str(val))
                    if len(str(val)) > lim:
                        errors[f"embeds.{i}.{name}"] = f"Must be {lim} or fewer in length"
        if total > 6000:
            errors["embeds"] = f"embeds total {total} characters > 6000"
        comps = body.get("components") or []
        flags = body.get("flags") or 0
        if flags & COMPONENTS_V2:
            n = sum(1 for _ in walk_components(comps))
            if n > 40:
                errors["components"] = f"{n} components > 40"
            if content or embeds:
                errors["content"] = "content/embeds cannot be used with IS_COMPONENTS_V2"
        else:
            if len(comps) > 5:
                errors["components"] = f"{len(comps)} action rows > 5"
            for i, row in enumerate(comps):
                if row.get("type") != 1:
                    errors[f"components.{i}.type"] = "top-level component must be an action row"
                    continue
                kids = row.get("components") or []
                if not 1 <= len(kids) <= 5:
                    errors[f"components.{i}.components"] = f"{len(kids)} components in a row (1..5)"
                if any(k.get("type") in (3, 5, 6, 7, 8) for k in kids) and len(kids) > 1:
                    errors[f"components.{i}.components"] = "a select menu must be alone in its row"
        seen: set[str] = set()
        for c in walk_components(comps):
            cid = c.get("custom_id")
            if cid is not None:
                if len(cid) > 100:
                    errors[f"custom_id {cid[:20]}..."] = f"custom_id must be 100 or fewer in length ({len(cid)})"
                if cid in seen:
                    errors[f"custom_id {cid}"] = "duplicate custom_id"
                seen.add(cid)
            if c.get("type") == 2:
                if len(c.get("label") or "") > 80:
                    errors[f"button {cid}.label"] = "label must be 80 or fewer in length"
                if c.get("style") == 5 and not c.get("url"):
                    errors[f"button {cid}.url"] = "link button needs a url"
                if c.get("style") not in (5, 6) and cid is None:
                    errors["button.custom_id"] = "non-link button needs a custom_id"
            if c.get("type") == 3:
                opts = c.get("options") or []
                if not 1 <= len(opts) <= 25:
                    errors[f"select {cid}.options"] = f"{len(opts)} options (1..25)"
                for o in opts:
                    if len(str(o.get("label", ""))) > 100 or len(str(o.get("value", ""))) > 100:
                        errors[f"select {cid}.options"] = "option label/value must be 100 or fewer"
            if c.get("placeholder") and len(c["placeholder"]) > 150:
                errors[f"{cid}.placeholder"] = "placeholder must be 150 or fewer in length"
        if errors:
            raise _invalid(errors)
        if creating and not (content or embeds or files or comps or body.get("sticker_ids")
                             or body.get("poll") or body.get("attachments")):
            raise DiscordError(400, 50006, "Cannot send an empty message")

    # --------------------------------------------------------------- REST
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
            reader = await request.multipart()
            async for part in reader:
                data = await part.read()
                if part.name == "payload_json":
                    rec.json = json.loads(data)
                else:
                    rec.files.append(StoredFile(part.name or "", part.filename or "",
                                                part.headers.get("Content-Type"), bytes(data)))
        elif request.can_read_body:
            raw = await request.read()
            if raw:
                rec.json = json.loads(raw)
        return rec

    async def _rest(self, request: web.Request) -> web.Response:
        rec = await self._read(request)
        route = rec.route
        self.requests.append(rec)
        headers: dict[str, str] = {}
        try:
            if self.ratelimit_next > 0 and (route.startswith("/channels/") or route == "/users/@me/channels"):
                self.ratelimit_next -= 1
                ra = self.ratelimit_retry_after
                status, body = 429, {"message": "You are being rate limited.", "retry_after": ra,
                                     "global": False}
                headers = {"Via": "1.1 google", "X-RateLimit-Limit": "5", "X-RateLimit-Remaining": "0",
                           "X-RateLimit-Reset-After": str(ra), "X-RateLimit-Bucket": "fake-bucket",
                           "Retry-After": str(ra)}
            else:
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
            status, body = e.status, e.body()
            if e.violation:
                self.violations.append(Violation(e.code, e.status, e.detail, rec))
        rec.status, rec.response = status, body
        if status == 200 and request.method in ("POST", "PATCH") and route.startswith("/channels/"):
            cid, _, rest = route[len("/channels/"):].partition("/")
            if rest == "messages" or rest.startswith("messages/"):
                self._channel_writes[cid].append(rec)
        await self._notify()
        if status == 204:
            return web.Response(status=204)
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

    def channel_writes(self, channel: Any = None) -> list[Recorded]:
        """The bot's successful posts and edits of messages in a (non-DM) channel, oldest first."""
        cid = _id_of(channel) if channel is not None else self.channel_id
        return sorted(self._channel_writes.get(cid, ()), key=lambda r: r.at)

    def busiest_window(self, channel: Any = None, window: float | None = None) -> int:
        """The most posts and edits the channel took within any ``window`` seconds."""
        span = self.channel_rate[1] if window is None else window
        times = [r.at for r in self.channel_writes(channel)]
        return max((sum(1 for u in times[i:] if u - t < span) for i, t in enumerate(times)), default=0)

    def _check_rate(self, rec: Recorded, cid: str) -> None:
        ch = self.channels.get(cid)
        if ch is None or ch["type"] == 1:
            return
        limit, span = self.channel_rate
        recent = 0
        for r in reversed(self._channel_writes.get(cid, ())):
            if rec.at - r.at < span:
                recent += 1
            elif rec.at - r.at > span + 1.0:  # answered in about the order received: none older is recent
                break
        if recent >= limit:
            raise DiscordError(429, 20028, "You are being rate limited (channel message limit).",
                               detail=f"more than {limit} messages in {span}s in channel {cid}")

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

    # interactions -----------------------------------------------------------
    def _token_rec(self, app: str, tok: str) -> _Interaction:
        rec = self._by_token.get(tok)
        if rec is None or app != self.app_id:
            raise DiscordError(404, 10015, "Unknown Webhook", detail=f"unknown webhook token {tok[:24]!r}")
        return rec

    async def r_callback(self, req: Recorded, iid: str, tok: str) -> tuple:
        rec = self.interactions.get(iid)
        if rec is None or rec.token != tok:
            raise DiscordError(404, 10062, "Unknown interaction", detail=f"unknown interaction {iid}")
        req.interaction_id = iid
        late = time.monotonic() - rec.injected_at
        rec.answered.set()
        if late > self.response_deadline:
            raise DiscordError(404, 10062, "Unknown interaction",
                               detail=f"initial response {late:.2f}s after the interaction "
                                      f"(deadline {self.response_deadline}s): {_describe(rec.payload)}")
        if rec.acked:
            raise DiscordError(400, 40060, "Interaction has already been acknowledged.",
                               detail=f"second initial response to {_describe(rec.payload)}")
        body = req.json or {}
        rtype = body.get("type")
        data = body.get("data") or {}
        allowed = {2: {4, 5, 9}, 3: {4, 5, 6, 7, 9}, 4: {8}, 5: {4, 5, 6, 7}}[rec.type]
        if rec.type == 5 and "message" not in rec.payload:
            allowed = {4, 5}
        if rtype not in allowed:
            raise _invalid({"type": f"response type {rtype} is not valid for interaction type {rec.type}"})
        ch = self.channels.get(rec.payload["channel_id"]) or self._channel(None)
        limit = rec.payload["attachment_size_limit"]
        interaction_info: dict[str, Any] = {"id": iid, "type": rec.type}
        resource: dict[str, Any] = {"type": rtype}
        if rtype == 8:
            choices = data.get("choices") or []
            errors = {}
            if len(choices) > 25:
                errors["data.choices"] = f"{len(choices)} choices > 25"
            for i, c in enumerate(choices):
                if not 1 <= len(str(c.get("name", ""))) <= 100:
                    errors[f"data.choices.{i}.name"] = "Must be between 1 and 100 in length"
                if isinstance(c.get("value"), str) and len(c["value"]) > 100:
                    errors[f"data.choices.{i}.value"] = "Must be 100 or fewer in length"
            if errors:
                raise _invalid(errors)
            rec.choices = choices
        elif rtype == 9:
            errors = {}
            if len(data.get("custom_id", "")) > 100:
                errors["data.custom_id"] = "Must be 100 or fewer in length"
            if len(data.get("title", "")) > 45:
                errors["data.title"] = "Must be 45 or fewer in length"
            if errors:
                raise _invalid(errors)
            rec.modal = data
        elif rtype == 4:
            self._check_message(data, req.files, creating=True, size_limit=limit)
            msg = self._create(ch, data, req.files, "response", rec=rec)
            rec.original_id = msg.id
            resource["message"] = msg.payload
        elif rtype == 5:
            flags = LOADING | ((data.get("flags") or 0) & EPHEMERAL)
            msg = self._create(ch, {}, [], "response", rec=rec, flags=flags)
            rec.original_id = msg.id
            resource["message"] = msg.payload
        elif rtype in (6, 7):
            target = self.messages.get(rec.payload["message"]["id"])
            if target is None:
                raise DiscordError(404, 10008, "Unknown Message")
            rec.original_id = target.id
            if rtype == 7:
                self._check_message(data, req.files, creating=False, size_limit=limit)
                self._edit(target, data, req.files)
                resource["message"] = target.payload
        rec.acked = True
        rec.response_type = rtype
        orig = self.messages.get(rec.original_id or "")
        if orig is not None:
            interaction_info.update(response_message_id=orig.id, response_message_loading=orig.loading,
                                    response_message_ephemeral=orig.ephemeral)
        if orig is not None and rtype in (4, 5) and not orig.ephemeral:
            await self._echo("MESSAGE_CREATE", orig)
        elif orig is not None and rtype == 7 and not orig.ephemeral:
            await self._echo("MESSAGE_UPDATE", orig)
        return 200, {"interaction": interaction_info, "resource": resource}

    async def r_followup(self, req: Recorded, app: str, tok: str) -> tuple:
        rec = self._token_rec(app, tok)
        req.interaction_id = rec.id
        if not rec.acked:
            raise DiscordError(404, 10015, "Unknown Webhook",
                               detail=f"followup before the initial response to {_describe(rec.payload)}")
        body = req.json or {}
        self._check_message(body, req.files, creating=True, size_limit=rec.payload["attachment_size_limit"])
        orig = self.messages.get(rec.original_id or "")
        if rec.response_type == 5 and orig is not None and orig.loading and not orig.deleted:
            # the first followup after a "thinking" defer replaces the loading message
            msg = self._edit(orig, dict(body, flags=None), req.files)
            msg.payload["flags"] = orig.flags & EPHEMERAL
            event = "MESSAGE_UPDATE"
        else:
            ch = self.channels.get(rec.payload["channel_id"]) or self.channel
            msg = self._create(ch, body, req.files, "followup", rec=rec)
            event = "MESSAGE_CREATE"
        if msg.id not in rec.followup_ids and msg.id != rec.original_id:
            rec.followup_ids.append(msg.id)
        if not msg.ephemeral:
            await self._echo(event, msg)
        return 200, msg.payload

    async def r_wh_message(self, req: Recorded, app: str, tok: str, mid: str) -> tuple:
        rec = self._token_rec(app, tok)
        req.interaction_id = rec.id
        if mid == "@original":
            if not rec.acked:
                raise DiscordError(404, 10015, "Unknown Webhook",
                                   detail=f"@original of unacknowledged interaction {_describe(rec.payload)}")
            if rec.original_id is None:
                raise DiscordError(404, 10008, "Unknown Message", detail="interaction has no original message")
            mid = rec.original_id
        if mid != rec.original_id and mid not in rec.followup_ids:
            raise DiscordError(404, 10008, "Unknown Message", detail=f"message {mid} is not from this token")
        msg = self.messages[mid]
        if msg.deleted:
            raise DiscordError(404, 10008, "Unknown Message", violation=False)
        if req.method == "GET":
            return 200, msg.payload
        if req.method == "DELETE":
            msg.deleted = True
            await self._echo("MESSAGE_DELETE", msg)
            return 204, None
        self._check_message(req.json, req.files, creating=False, size_limit=rec.payload["attachment_size_limit"])
        self._edit(msg, req.json or {}, req.files)
        if not msg.ephemeral:
            await self._echo("MESSAGE_UPDATE", msg)
        return 200, msg.payload

    # ------------------------------------------------------------------ gateway
    async def _echo(self, event: str, msg: StoredMessage) -> None:
        if not (self.echo_gateway and self.sockets) or msg.ephemeral:
            return
        if event == "MESSAGE_DELETE":
            data = {"id": msg.id, "channel_id": msg.channel_id}
            if "guild_id" in msg.payload:
                data["guild_id"] = msg.payload["guild_id"]
        else:
            data = copy.deepcopy(msg.payload)
        await self.dispatch(event, data)

    def _routed(self, ws: web.WebSocketResponse, frame: dict) -> bool:
        """Whether a frame goes to this socket: a guild's events to the guild's shard, the rest
        (DMs, interactions in DMs) to shard 0; READY only to the socket that identified."""
        target = frame.get("_socket")
        if target is not None:
            return target is ws
        shard, count = self.socket_shards.get(ws, (0, 1))
        return count == 1 or shard_of(frame.get("_guild"), count) == shard

    async def dispatch(self, event: str, data: dict, *, only: web.WebSocketResponse | None = None) -> None:
        """Send a DISPATCH frame to connected clients, each guild's events to its shard only
        (buffered for RESUME)."""
        if event == "INTERACTION_CREATE" and data.get("id") in self.interactions:
            rec = self.interactions[data["id"]]
            rec.injected_at = time.monotonic()
            rec.injected = True
        self.seq += 1
        frame = {"op": 0, "t": event, "s": self.seq, "d": data}
        routing = {"_guild": data.get("id") if event == "GUILD_CREATE" else data.get("guild_id"), "_socket": only}
        self.sent_frames.append({**frame, **routing})
        for ws in list(self.sockets):
            if not ws.closed and self._routed(ws, routing):
                self.delivered.append((self.socket_shards.get(ws, (0, 1))[0], event, data.get("id")))
                await ws.send_str(json.dumps(frame))

    async def drop_connection(self, code: int = 4000) -> None:
        """Close every gateway socket (4000: client RESUMEs)."""
        socks, self.sockets = list(self.sockets), []
        self.resumed.clear()
        for ws in socks:
            await ws.close(code=code)

    async def _gateway(self, request: web.Request) -> web.WebSocketResponse:
        ws = web.WebSocketResponse(autoclose=False)
        await ws.prepare(request)
        await ws.send_str(json.dumps({"op": 10, "d": {"heartbeat_interval": 41250}, "s": None, "t": None}))
        try:
            async for msg in ws:
                if msg.type is WSMsgType.CLOSE:
                    await ws.close()
                    break
                if msg.type is not WSMsgType.TEXT:
                    continue
                frame = json.loads(msg.data)
                self.gateway_log.append(frame)
                op = frame.get("op")
                if op == 1:
                    await ws.send_str(json.dumps({"op": 11, "d": None, "s": None, "t": None}))
                elif op == 2:
                    self.session_id = "sess-" + snowflake()
                    self.sockets.append(ws)
                    shard = frame["d"].get("shard") or [0, 1]
                    self.socket_shards[ws] = (int(shard[0]), int(shard[1]))
                    self.session_shards[self.session_id] = self.socket_shards[ws]
                    guilds = [g for g in self.guild_names if shard_of(g, int(shard[1])) == int(shard[0])]
                    await self.dispatch("READY", {
                        "v": 10, "user": self.bot_user, "session_id": self.session_id, "shard": shard,
                        "resume_gateway_url": f"ws://127.0.0.1:{self.port}/gw-resume",
                        "guilds": [{"id": g, "unavailable": True} for g in guilds],
                        "application": {"id": self.app_id, "flags": 0},
                        "private_channels": [], "relationships": [], "presences": [],
                    }, only=ws)
                    for gid in guilds:
                        await self.dispatch("GUILD_CREATE", self.guild_payload(gid), only=ws)
                    self.identified_shards.add(int(shard[0]))
                    self.identified.set()
                elif op == 6:
                    d = frame["d"]
                    if d.get("session_id") != self.session_id and d.get("session_id") not in self.session_shards:
                        await ws.send_str(json.dumps({"op": 9, "d": False, "s": None, "t": None}))
                        continue
                    self.socket_shards[ws] = self.session_shards.get(d.get("session_id"), (0, 1))
                    self.sockets.append(ws)
                    last = d.get("seq") or 0
                    for f in self.sent_frames:
                        if f["s"] > last and f.get("_socket") is None and self._routed(ws, f):
                            await ws.send_str(json.dumps({k: v for k, v in f.items() if not k.startswith("_")}))
                    self.seq += 1
                    await ws.send_str(json.dumps({"op": 0, "t": "RESUMED", "s": self.seq, "d": {}}))
                    self.resumed.set()
                elif op == 8:
                    d = frame["d"]
                    await self.dispatch("GUILD_MEMBERS_CHUNK", {
                        "guild_id": self.guild_id, "chunk_index": 0, "chunk_count": 1,
                        "members": [self.member_payload(u) for u in self.members],
                        "not_found": [], "nonce": d.get("nonce")})
        finally:
            if ws in self.sockets:
                self.sockets.remove(ws)
            self.socket_shards.pop(ws, None)
        return ws

    async def _attachment(self, request: web.Request) -> web.Response:
        aid = request.match_info["aid"]
        for m in self.messages.values():
            for a, f in zip(m.attachments, m.files, strict=False):
                if a["id"] == aid:
                    return web.Response(body=f.data, content_type=f.content_type or "application/octet-stream")
        return web.Response(status=404)

    # -------------------------------------------------------------------- setup
    async def start(self) -> None:
        logging.getLogger().addHandler(self._log_handler)
        app = web.Application(client_max_size=64 * MiB)
        app.router.add_get("/gw", self._gateway)
        app.router.add_get("/gw-resume", self._gateway)
        app.router.add_get("/attachments/{aid}/{name}", self._attachment)
        app.router.add_route("*", API + "/{tail:.*}", self._rest)
        app.router.add_route("*", "/{tail:.*}", self._rest)
        self._runner = web.AppRunner(app, access_log=None, shutdown_timeout=0.5)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        self.port = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]

    @property
    def api_base(self) -> str:
        """REST base URL (for a bot in a subprocess: GAMEMASTER_API_BASE)."""
        return f"http://127.0.0.1:{self.port}{API}"

    @property
    def gateway_url(self) -> str:
        """Gateway URL (for a bot in a subprocess: GAMEMASTER_GATEWAY_URL)."""
        return f"ws://127.0.0.1:{self.port}/gw"

    def point_discord_py_here(self) -> None:
        import discord.gateway
        import discord.http
        import yarl

        if self._saved is None:
            self._saved = (discord.http.Route.BASE, discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY)
        discord.http.Route.BASE = f"http://127.0.0.1:{self.port}{API}"
        discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(f"ws://127.0.0.1:{self.port}/gw")

    async def stop(self) -> None:
        for bot in self._bots:
            if not bot.is_closed():
                await self.close_bot(bot)
        for ws in list(self.sockets):
            await ws.close()
        if self._runner:
            await self._runner.cleanup()
        logging.getLogger().removeHandler(self._log_handler)
        if self._saved is not None:
            import discord.gateway
            import discord.http

            discord.http.Route.BASE, discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = self._saved
            self._saved = None


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
