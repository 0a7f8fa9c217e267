"""The crash tests' hook, put on a bot subprocess's PYTHONPATH by tests/e2e/test_crash_announce.py
(never part of the bot): ``GAMEMASTER_TEST_KILL=before_post:N`` kills the process (SIGKILL, as a
power cut would) just before its N-th board post to channel ``GAMEMASTER_TEST_KILL_CHANNEL``
leaves (committed, not yet announced), ``after_post:N`` right after Discord accepted it (posted,
not yet recorded as posted). A board post is a channel message post or a public follow-up with
files of an interaction in that channel (a board riding its mover's interaction)."""
from __future__ import annotations

import json
import os
import signal
from typing import Any

_KILL = os.environ.get("GAMEMASTER_TEST_KILL", "")
_CHANNEL = os.environ.get("GAMEMASTER_TEST_KILL_CHANNEL", "")

if _KILL and _CHANNEL:
    import discord.http
    import discord.webhook.async_

    _point, _, _nth = _KILL.partition(":")
    _posts = 0

    async def _around(board_post: bool, call: Any) -> Any:
        global _posts
        if board_post:
            _posts += 1
            if _point == "before_post" and _posts == int(_nth):
                os.kill(os.getpid(), signal.SIGKILL)
        result = await call
        if board_post and _point == "after_post" and _posts == int(_nth):
            os.kill(os.getpid(), signal.SIGKILL)
        return result

    _request = discord.http.HTTPClient.request

    async def _request_or_die(self: Any, route: Any, **kwargs: Any) -> Any:
        board_post = route.method == "POST" and route.path == "/channels/{channel_id}/messages" \
            and str(route.channel_id) == _CHANNEL
        return await _around(board_post, _request(self, route, **kwargs))

    def _public_with_files(kwargs: dict[str, Any]) -> bool:
        payload = kwargs.get("payload")
        for part in kwargs.get("multipart") or []:
            if part.get("name") == "payload_json":
                payload = json.loads(part["value"])
        return bool(kwargs.get("files")) and not (payload or {}).get("flags", 0) & 64

    def _dying(webhook: Any) -> Any:
        async def _webhook_or_die(self: Any, route: Any, session: Any, **kwargs: Any) -> Any:
            # a follow-up: POST /webhooks/{app}/{token}; the interactions of this test are all in the channel
            board_post = route.method == "POST" and route.path == "/webhooks/{webhook_id}/{webhook_token}" \
                and _public_with_files(kwargs)
            return await _around(board_post, webhook(self, route, session, **kwargs))
        return _webhook_or_die

    import cogs.hooks  # the bot's lean follow-ups (its own webhook adapter) as well as discord.py's

    discord.http.HTTPClient.request = _request_or_die  # type: ignore[method-assign]
    for adapter in (discord.webhook.async_.AsyncWebhookAdapter, cogs.hooks.LeanAdapter):
        adapter.request = _dying(adapter.request)  # type: ignore[method-assign]
