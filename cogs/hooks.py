"""Lean calls through an interaction's webhook: the board's follow-up, a player's private view, and
the edits of the interaction's own messages, with nothing read from Discord's answer but the
message's id and content.

discord.py's ``followup.send``/``edit_message``/``edit_original_response`` turn every answer into
a full message object (its author, embeds, attachments, components) and keep a view with a
15-minute timer for every private view that has buttons, though our buttons are DynamicItems that
any message dispatches; and its request body is an ``aiohttp.FormData`` rebuilt part by part on
each call. Here the body is one piece of bytes, built once per call, and the answer is two fields:
a follow-up with two pictures, embeds and buttons costs the loop 1.80 ms instead of 2.20 ms, and
on 1,000 tables the two cores carry 171 Tölp moves/s instead of 138 (docs/benchmarks.md).

The parameters are checked and laid out by discord.py's own ``handle_message_parameters`` (the
same JSON as its calls); the request waits and retries as discord.py's webhook adapter does: on the
webhook bucket's lock it shares with that adapter (holding it while the bucket is empty), on a
rate limit for ``retry_after``, on a server error 1, 3, 5 and 7 s.
"""
from __future__ import annotations

import asyncio
import os
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any
from urllib.parse import quote

import aiohttp
import discord
from discord import utils
from discord.http import json_or_text
from discord.webhook.async_ import AsyncDeferredLock, AsyncWebhookAdapter, async_context

ATTEMPTS = 5  # as discord.py's webhook adapter
SERVER_ERROR_WAITS = (1.0, 3.0, 5.0, 7.0)  # seconds before each retry of a 5xx, as discord.py's


@dataclass(frozen=True)
class Sent:
    """What the callers read of a message a follow-up posted."""

    id: int
    content: str


def lean(view: Any) -> bool:
    """A view any message dispatches (no view, or only our DynamicItems): discord.py need not keep
    it; any other view goes the library's way, which keeps it listening."""
    if view is None or view is utils.MISSING:
        return True
    return all(isinstance(item, discord.ui.DynamicItem) or not item.is_dispatchable() for item in view.children)


def _quoted(value: str) -> str:
    return value.replace("\\", "\\\\").replace('"', '\\"').replace("\r", " ").replace("\n", " ")


def _parts(multipart: list[dict[str, Any]], boundary: bytes) -> Iterator[bytes]:
    for part in multipart:
        head = f'Content-Disposition: form-data; name="{_quoted(part["name"])}"'
        if part.get("filename"):
            head += f'; filename="{_quoted(part["filename"])}"'
        value = part["value"]
        data = value.read() if hasattr(value, "read") else str(value).encode()
        yield b"--" + boundary + b"\r\n" + head.encode() + b"\r\nContent-Type: " + \
            part.get("content_type", "text/plain").encode() + b"\r\n\r\n" + data + b"\r\n"
    yield b"--" + boundary + b"--\r\n"


def body(multipart: list[dict[str, Any]], files: list[discord.File]) -> tuple[bytes, str]:
    """The multipart body in one piece, and its content type (the files read from their start)."""
    for file in files:
        file.reset()
    boundary = os.urandom(16).hex().encode()
    return b"".join(_parts(multipart, boundary)), "multipart/form-data; boundary=" + boundary.decode()


class LeanAdapter(AsyncWebhookAdapter):
    """discord.py's webhook routes with a one-piece body; the bucket locks are the library's."""

    async def request(self, route: Any, session: aiohttp.ClientSession, *, payload: dict[str, Any] | None = None,
                      multipart: list[dict[str, Any]] | None = None, proxy: str | None = None,
                      proxy_auth: aiohttp.BasicAuth | None = None, files: Any = None,
                      reason: str | None = None, auth_token: str | None = None,
                      params: dict[str, Any] | None = None) -> Any:
        headers: dict[str, str] = {}
        data: bytes | str | None = None
        if multipart:
            data, headers["Content-Type"] = body(multipart, list(files or []))
        elif payload is not None:
            data, headers["Content-Type"] = utils._to_json(payload), "application/json"
        locks = async_context.get()._locks  # shared with the library's calls on the same webhook
        bucket = (route.webhook_id, route.webhook_token)
        lock = locks.get(bucket)
        if lock is None:
            locks[bucket] = lock = asyncio.Lock()
        async with AsyncDeferredLock(lock) as held:
            for attempt in range(ATTEMPTS):
                last = attempt == ATTEMPTS - 1
                async with session.request(route.method, route.url, data=data, headers=headers, params=params,
                                           proxy=proxy, proxy_auth=proxy_auth) as response:
                    answer = await json_or_text(response)
                    if response.headers.get("X-Ratelimit-Remaining") == "0" and response.status != 429:
                        held.delay_by(utils._parse_ratelimit_header(response))
                    if 200 <= response.status < 300:
                        return answer
                    if response.status == 429 and response.headers.get("Via") and not last:
                        await asyncio.sleep(float(answer["retry_after"]))  # type: ignore[index]
                        continue
                    if response.status >= 500 and not last:
                        await asyncio.sleep(SERVER_ERROR_WAITS[attempt])
                        continue
                    if response.status == 403:
                        raise discord.Forbidden(response, answer)
                    if response.status == 404:
                        raise discord.NotFound(response, answer)
                    if response.status >= 500:
                        raise discord.DiscordServerError(response, answer)
                    raise discord.HTTPException(response, answer)
        raise RuntimeError("unreachable")


ADAPTER = LeanAdapter()


def _session(interaction: discord.Interaction) -> dict[str, Any]:
    state = interaction._state
    return {"session": interaction._session, "proxy": state.http.proxy, "proxy_auth": state.http.proxy_auth}


def _parameters(interaction: discord.Interaction, ephemeral: bool = False, **fields: Any) -> Any:
    flags = utils.MISSING
    if ephemeral:
        flags = discord.MessageFlags._from_value(0)
        flags.ephemeral = True
    return discord.http.handle_message_parameters(flags=flags,
                                                  previous_allowed_mentions=interaction._state.allowed_mentions,
                                                  **fields)


async def follow_up(interaction: discord.Interaction, *, ephemeral: bool = False, **fields: Any) -> Sent:
    """Post a follow-up message of the interaction (``wait``: Discord answers with the message)."""
    if not lean(fields.get("view")):
        message = await interaction.followup.send(wait=True, ephemeral=ephemeral, **fields)
        return Sent(message.id, message.content)
    with _parameters(interaction, ephemeral, **fields) as params:
        data: Any = await ADAPTER.execute_webhook(interaction.application_id, interaction.token,
                                                  **_session(interaction), payload=params.payload,
                                                  multipart=params.multipart, files=params.files, wait=True,
                                                  with_components="view" in fields)
    return Sent(int(data["id"]), str(data.get("content") or ""))


async def edit_follow_up(interaction: discord.Interaction, message_id: int, **fields: Any) -> None:
    """Edit a message the interaction's webhook posted."""
    if not lean(fields.get("view")):
        await interaction.followup.edit_message(message_id, **fields)
        return
    with _parameters(interaction, **fields) as params:
        await ADAPTER.edit_webhook_message(interaction.application_id, interaction.token, message_id,
                                           **_session(interaction), payload=params.payload,
                                           multipart=params.multipart, files=params.files,
                                           with_components="view" in fields)


async def edit_original(interaction: discord.Interaction, **fields: Any) -> None:
    """Edit the interaction's ``@original``: its answer, or the message a deferred click was on."""
    if not lean(fields.get("view")):
        await interaction.edit_original_response(**fields)
        return
    with _parameters(interaction, **fields) as params:
        await ADAPTER.edit_original_interaction_response(interaction.application_id, interaction.token,
                                                         **_session(interaction), payload=params.payload,
                                                         multipart=params.multipart, files=params.files)


@dataclass(frozen=True)
class _Callback:
    """The one route ``LeanAdapter.request`` reads for an interaction's callback (shaped as
    discord.py's webhook ``Route``: its method, its path template and its URL)."""

    webhook_id: int
    webhook_token: str
    method: str = "POST"
    path: str = "/interactions/{webhook_id}/{webhook_token}/callback"

    @property
    def url(self) -> str:
        token = quote(self.webhook_token, safe="")
        return f"{discord.http.Route.BASE}/interactions/{self.webhook_id}/{token}/callback"


def _deferral(interaction: discord.Interaction, ephemeral: bool, thinking: bool) -> dict[str, Any] | None:
    """The callback's body as discord.py's ``defer`` sends it (None: this kind is not deferred)."""
    kind = interaction.type
    if kind is discord.InteractionType.component or kind is discord.InteractionType.modal_submit:
        answer = (discord.InteractionResponseType.deferred_channel_message if thinking
                  else discord.InteractionResponseType.deferred_message_update)
        ephemeral = ephemeral and thinking
    elif kind is discord.InteractionType.application_command:
        answer = discord.InteractionResponseType.deferred_channel_message
    else:
        return None
    payload: dict[str, Any] = {"type": answer.value}
    if ephemeral:
        payload["data"] = {"flags": discord.MessageFlags(ephemeral=True).value}
    return payload


async def defer(interaction: discord.Interaction, *, ephemeral: bool = False, thinking: bool = False) -> None:
    """``interaction.response.defer`` without asking for the callback's resource.

    discord.py asks Discord for the interaction callback resource (``with_response``) and turns the
    answer into an ``InteractionCallbackResponse`` that nobody here reads. This sends the same
    deferral type and flags on the library's webhook lock, lets Discord answer 204 with no body, and
    marks the response done as the library does (a second answer raises ``InteractionResponded``)."""
    response = interaction.response
    if response.is_done():
        raise discord.InteractionResponded(interaction)
    payload = _deferral(interaction, ephemeral, thinking)
    if payload is None:
        return
    await ADAPTER.request(_Callback(interaction.id, interaction.token), **_session(interaction), payload=payload)
    response._response_type = discord.InteractionResponseType(payload["type"])
