"""The gateway websocket: HELLO, heartbeats, IDENTIFY (READY + GUILD_CREATE), RESUME, member
chunks, and the MESSAGE_* echoes of what the bot posted, each guild's events to its shard."""

from __future__ import annotations

import copy
import json
import time

from aiohttp import WSMsgType, web

from tests.fakediscord.model import (
    StoredMessage,
    shard_of,
    snowflake,
)

# the IDENTIFY intents a client needs to hear of messages (Discord sends no MESSAGE_* event without them)
GUILD_MESSAGES = 1 << 9
DIRECT_MESSAGES = 1 << 12
ALL_INTENTS = (1 << 26) - 1


class Gateway:
    """The websocket server and DISPATCH frames, routed per shard."""

    async def _echo(self, event: str, msg: StoredMessage) -> None:
        """A message the bot posted, edited or deleted, to the clients whose IDENTIFY asked for such
        events: GUILD_MESSAGES for a server's channels, DIRECT_MESSAGES for DMs (as Discord does)."""
        if not (self.echo_gateway and self.sockets) or msg.ephemeral:
            return
        intent = GUILD_MESSAGES if "guild_id" in msg.payload else DIRECT_MESSAGES
        if not any(self.socket_intents.get(ws, ALL_INTENTS) & intent for ws in self.sockets):
            return
        if event == "MESSAGE_DELETE":
            data = {"id": msg.id, "channel_id": msg.channel_id}
            if "guild_id" in msg.payload:
                data["guild_id"] = msg.payload["guild_id"]
        else:
            data = copy.deepcopy(msg.payload)
        await self.dispatch(event, data, intent=intent)

    def _routed(self, ws: web.WebSocketResponse, frame: dict) -> bool:
        """Whether a frame goes to this socket: a guild's events to the guild's shard, the rest
        (DMs, interactions in DMs) to shard 0; READY only to the socket that identified."""
        target = frame.get("_socket")
        if target is not None:
            return target is ws
        intent = frame.get("_intent")
        if intent is not None and not self.socket_intents.get(ws, ALL_INTENTS) & intent:
            return False
        shard, count = self.socket_shards.get(ws, (0, 1))
        return count == 1 or shard_of(frame.get("_guild"), count) == shard

    async def dispatch(self, event: str, data: dict, *, only: web.WebSocketResponse | None = None,
                       intent: int | None = None) -> None:
        """Send a DISPATCH frame to connected clients, each guild's events to its shard only
        (buffered for RESUME); with ``intent``, only to the clients that identified with it."""
        if event == "INTERACTION_CREATE" and data.get("id") in self.interactions:
            rec = self.interactions[data["id"]]
            rec.injected_at = time.monotonic()
            rec.injected = True
        self.seq += 1
        frame = {"op": 0, "t": event, "s": self.seq, "d": data}
        routing = {"_guild": data.get("id") if event == "GUILD_CREATE" else data.get("guild_id"), "_socket": only,
                   "_intent": intent}
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
                    self.socket_intents[ws] = self.session_intents[self.session_id] = \
                        int(frame["d"].get("intents", ALL_INTENTS))
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
                    self.socket_intents[ws] = self.session_intents.get(d.get("session_id"), ALL_INTENTS)
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
            self.socket_intents.pop(ws, None)
        return ws
