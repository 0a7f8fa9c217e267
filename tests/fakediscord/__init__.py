"""Loopback fake Discord (REST + gateway) for driving the real discord.py 2.7.1 bot in tests.

The package along Discord's own seams: ``model`` (ids, records, the guild), ``payloads`` (what the
gateway delivers), ``injection`` (driving the bot, ``Responses``, ``settle``), ``messages`` (stored
messages), ``validation`` (Discord's limits on a body), ``rest`` (routes and handlers), ``webhooks``
(interaction callback, follow-ups, webhook edits) and ``gateway`` (the websocket). ``FakeDiscord``
is their sum; import everything from ``tests.fakediscord``.

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
    followup / edit with a token older than ``fake.token_lifetime`` (15 min) -> 401 50027 Invalid
    Webhook Token (not a violation: tests shorten the lifetime to see the bot fall back)
    editing another user's message -> 403 50005; editing a message in an archived thread ->
    400 50083; request to a route the fake does not know -> 404
    (recorded as a violation "unhandled route" so gaps in the fake are loud)
Rate limits (ratelimits.py; each 429 carries Discord's headers, and ``Via``, so discord.py waits and
retries by itself; successful answers carry the bucket headers)
    the channel limit ``fake.channel_rate`` (5 posts and edits per 5 s) -> 429 20028
    the global limit ``fake.global_rate`` (50 counted requests per 1 s per bot token, every route
    but the interaction callback and the interaction webhook's messages) -> 429 ``global: true``;
    ``fake.global_violations()``, ``fake.busiest_second()``, ``fake.counted_requests``,
    ``fake.is_counted(recorded)``; the ``fake`` fixture fails a test that broke the global limit
Message shape: the interaction callback answers 200 with the interaction callback resource only
when the request asks for it (``?with_response=1`` or ``true``, as discord.py's own responses do),
else 204 with no body, as Discord does; files an embed shows (``attachment://name``) are left out
of ``attachments`` and the embed gets the file's URL (``StoredMessage.files`` keeps every file; ``.embed_files()``).

The world changing (faults.py): ``fake.moderator_delete(message)`` (10008 and MESSAGE_DELETE),
``fake.delete_channel(channel)`` (10003 and CHANNEL_DELETE / THREAD_DELETE), ``fake.deny(channel,
"send_messages" | "embed_links" | "attach_files" | "view_channel")`` / ``fake.allow(...)`` (posts
and edits checked against the bot's permissions: 50001 / 50013; CHANNEL_UPDATE),
``fake.set_role_permissions(role, bits)`` (GUILD_ROLE_UPDATE), ``fake.server_errors(503, count)``
(Discord's 5xx bodies), ``fake.global_outage(seconds, count)`` (global 429s with their headers).

Not violations (Discord behaviour a bot must cope with): closed DMs (403 50007), unknown
channel/message lookups (404 10003/10008), rate limits: ``fake.ratelimit_next = n`` makes the
next n requests to /channels/* and /users/@me/channels answer 429 with a ``Via`` header and
``retry_after = fake.ratelimit_retry_after`` (0.05 s); discord.py retries transparently.

Gateway: HELLO, heartbeat ACK, IDENTIFY -> READY + GUILD_CREATE (all members, channels, threads),
REQUEST_GUILD_MEMBERS -> GUILD_MEMBERS_CHUNK, RESUME (replays missed frames, then RESUMED),
bot-created non-ephemeral messages are echoed as MESSAGE_CREATE / MESSAGE_UPDATE / MESSAGE_DELETE to the
clients that identified with the intent for them (GUILD_MESSAGES for a server's channels,
DIRECT_MESSAGES for DMs; the bot asks for neither, cogs/client.py).
``fake.gateway_log`` holds client->server frames; ``fake.identified`` / ``fake.resumed`` events.
Use ``guild_ready_timeout=0.05`` on the bot to keep tests fast.

Relies on discord.py internals (checked by tests/discord/test_canary.py): ``discord.http.Route.BASE``,
``DiscordWebSocket.DEFAULT_GATEWAY``, ``ConnectionState.parsers["INTERACTION_CREATE"]`` and the
task names above.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

from aiohttp import web

from tests.fakediscord.faults import Faults
from tests.fakediscord.gateway import Gateway
from tests.fakediscord.injection import Injection, Responses, settle
from tests.fakediscord.messages import Messages
from tests.fakediscord.model import (
    ADMINISTRATOR,
    API,
    BOT_PERMISSIONS,
    COMPONENTS_V2,
    DEFAULT_PERMISSIONS,
    EPHEMERAL,
    EPOCH,
    LOADING,
    MANAGE_GUILD,
    MASS_MENTION,
    ROLE_MENTION,
    SETTLE_PREFIXES,
    DiscordError,
    MiB,
    Model,
    Opt,
    Recorded,
    StoredFile,
    StoredMessage,
    Violation,
    _ErrorCollector,
    _Interaction,
    guild_snowflake,
    iso_now,
    shard_of,
    snowflake,
    walk_components,
)
from tests.fakediscord.payloads import Payloads
from tests.fakediscord.ratelimits import RateLimits
from tests.fakediscord.rest import Rest, jresp
from tests.fakediscord.validation import Validation
from tests.fakediscord.webhooks import Webhooks

__all__ = [
    "API",
    "MiB",
    "EPOCH",
    "ADMINISTRATOR",
    "MANAGE_GUILD",
    "DEFAULT_PERMISSIONS",
    "BOT_PERMISSIONS",
    "EPHEMERAL",
    "MASS_MENTION",
    "ROLE_MENTION",
    "LOADING",
    "COMPONENTS_V2",
    "SETTLE_PREFIXES",
    "snowflake",
    "guild_snowflake",
    "shard_of",
    "iso_now",
    "walk_components",
    "StoredFile",
    "Recorded",
    "Violation",
    "Opt",
    "StoredMessage",
    "DiscordError",
    "FakeDiscord",
    "Responses",
    "jresp",
    "settle",
]


class FakeDiscord(Model, Payloads, Injection, Messages, Validation, RateLimits, Faults, Rest, Webhooks, Gateway):
    """The loopback Discord: one aiohttp server for REST, the interaction webhooks and the gateway."""

    def __init__(self, *, guild_locale: str = "en-US", guild_name: str = "Test Guild") -> None:
        self.response_deadline = 3.0
        self.token_lifetime = 15 * 60.0  # an interaction token's webhook serves 15 minutes
        self.attachment_size_limit = 10 * MiB
        self.ratelimit_next = 0
        self.ratelimit_retry_after = 0.05
        self.echo_gateway = True
        self._init_ratelimits()  # the channel and global limits (ratelimits.py)
        self._init_faults()  # moderators, permissions, 5xx minutes, global outages (faults.py)
        self._nonces: dict[str, str] = {}  # enforce_nonce: nonce -> message id

        self.requests: list[Recorded] = []
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
        self.socket_intents: dict[web.WebSocketResponse, int] = {}  # IDENTIFY's intents
        self.session_intents: dict[str, int] = {}
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


    async def _attachment(self, request: web.Request) -> web.Response:
        aid = request.match_info["aid"]
        for m in self.messages.values():
            for a, f in zip(m.stored_attachments, m.files, strict=False):
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
        self.lift_faults()  # faults.py
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
