"""Interaction endpoints: the initial response (callback), follow-ups and the edits of the
interaction's own messages through its webhook token."""

from __future__ import annotations

import time
from typing import Any

from tests.fakediscord.model import (
    EPHEMERAL,
    LOADING,
    DiscordError,
    Recorded,
    _describe,
    _Interaction,
    _invalid,
)


class Webhooks:
    """The interaction callback and the interaction webhook's messages."""

    def _token_rec(self, app: str, tok: str) -> _Interaction:
        rec = self._by_token.get(tok)
        if rec is None or app != self.app_id:
            raise DiscordError(404, 10015, "Unknown Webhook", detail=f"unknown webhook token {tok[:24]!r}")
        if time.monotonic() - rec.injected_at > self.token_lifetime:
            raise DiscordError(401, 50027, "Invalid Webhook Token", violation=False)
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
        if req.query.get("with_response", "").lower() in ("1", "true"):
            return 200, {"interaction": interaction_info, "resource": resource}
        return 204, None  # as Discord: the callback resource only when asked for

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
