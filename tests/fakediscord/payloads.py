"""Interaction payloads exactly as the gateway delivers them: slash commands, autocomplete,
button clicks, selects, modal submits, and messages written by members."""

from __future__ import annotations

import copy
from typing import Any

from tests.fakediscord.injection import Responses
from tests.fakediscord.model import (
    BOT_PERMISSIONS,
    Opt,
    StoredMessage,
    _id_of,
    _Interaction,
    snowflake,
    walk_components,
)


class Payloads:
    """Builders of the payloads the gateway would send (the 3 s clock starts when built)."""

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
