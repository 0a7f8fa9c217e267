"""The crash tests' hook, put on a bot subprocess's PYTHONPATH by tests/e2e/test_crash_announce.py
(never part of the bot): ``GAMEMASTER_TEST_KILL=before_post:N`` kills the process (SIGKILL, as a
power cut would) just before its N-th message post to channel ``GAMEMASTER_TEST_KILL_CHANNEL``
leaves (committed, not yet announced), ``after_post:N`` right after Discord accepted it (posted,
not yet recorded as posted)."""
from __future__ import annotations

import os
import signal
from typing import Any

_KILL = os.environ.get("GAMEMASTER_TEST_KILL", "")
_CHANNEL = os.environ.get("GAMEMASTER_TEST_KILL_CHANNEL", "")

if _KILL and _CHANNEL:
    import discord.http

    _point, _, _nth = _KILL.partition(":")
    _posts = 0
    _request = discord.http.HTTPClient.request

    async def _request_or_die(self: Any, route: Any, **kwargs: Any) -> Any:
        global _posts
        board_post = route.method == "POST" and route.path == "/channels/{channel_id}/messages" \
            and str(route.channel_id) == _CHANNEL
        if board_post:
            _posts += 1
            if _point == "before_post" and _posts == int(_nth):
                os.kill(os.getpid(), signal.SIGKILL)
        result = await _request(self, route, **kwargs)
        if board_post and _point == "after_post" and _posts == int(_nth):
            os.kill(os.getpid(), signal.SIGKILL)
        return result

    discord.http.HTTPClient.request = _request_or_die  # type: ignore[method-assign]
