"""Messages as Discord stores them: creation and edits from a request's body and files, mentions,
attachments, and the queries tests make of what the bot posted."""

from __future__ import annotations

import copy
import re
from typing import Any

from tests.fakediscord.model import (
    COMPONENTS_V2,
    EPHEMERAL,
    LOADING,
    MASS_MENTION,
    ROLE_MENTION,
    StoredFile,
    StoredMessage,
    _id_of,
    _Interaction,
    iso_now,
    snowflake,
)


class Messages:
    """The stored messages: building, editing and finding them."""

    keep_history = True  # every edited message keeps its earlier versions (``StoredMessage.history``)

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

    @staticmethod
    def _shape(msg: StoredMessage) -> None:
        """Discord's shape: an embed's ``attachment://name`` becomes the file's URL, and the files
        the embeds show are left out of the message's ``attachments``."""
        by_name = {a["filename"]: a for a in msg.stored_attachments}
        by_url = {a["url"]: a for a in msg.stored_attachments}
        shown: set[str] = set()
        for embed in msg.payload.get("embeds") or []:
            for key in ("image", "thumbnail"):
                part = embed.get(key)
                url = part.get("url") if isinstance(part, dict) else None
                if not url:
                    continue
                attachment = by_name.get(url[len("attachment://"):]) if url.startswith("attachment://") \
                    else by_url.get(url)
                if attachment is not None:
                    part.update(url=attachment["url"], proxy_url=attachment["proxy_url"])
                    shown.add(attachment["id"])
        msg.payload["attachments"] = [a for a in msg.stored_attachments if a["id"] not in shown]

    def _message_payload(self, ch: dict, author: dict, body: dict, files: list[StoredFile],
                         mid: str, *, flags: int = 0, attachments: list[dict] | None = None) -> dict:
        content = body.get("content") or ""
        p = {"id": mid, "channel_id": ch["id"], "author": author, "content": content,
             "timestamp": iso_now(), "edited_timestamp": None, "tts": bool(body.get("tts")),
             "mention_everyone": False, "mentions": self._mentions(content), "mention_roles": [],
             "attachments": attachments or [], "embeds": copy.deepcopy(body.get("embeds") or []), "pinned": False,
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
        msg.stored_attachments = atts
        self._shape(msg)
        self._note_mentions(msg, body)
        self.messages[mid] = msg
        ch["last_message_id"] = mid
        return msg

    def _edit(self, msg: StoredMessage, body: dict, files: list[StoredFile]) -> StoredMessage:
        if self.keep_history:  # the tests' record of earlier versions, not Discord's behaviour
            msg.history.append(copy.deepcopy(msg.payload))
        p = msg.payload
        if "content" in body:
            p["content"] = body["content"] or ""
            p["mentions"] = self._mentions(p["content"])
            self._note_mentions(msg, body)
        for key in ("embeds", "components"):
            if key in body:
                p[key] = copy.deepcopy(body[key] or [])
        if "attachments" in body or files:
            msg.stored_attachments, msg.files = self._attachments(body, files, msg.stored_attachments, msg.files)
        self._shape(msg)
        flags = p.get("flags", 0) & ~LOADING
        if body.get("flags") is not None:
            flags = (flags & EPHEMERAL) | (body["flags"] & (4 | COMPONENTS_V2))
        p["flags"] = flags
        p["edited_timestamp"] = iso_now()
        return msg
