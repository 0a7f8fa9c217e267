"""Discord's limits on a message body (content, embeds, components, files), enforced as 400/413."""

from __future__ import annotations

from tests.fakediscord.model import (
    COMPONENTS_V2,
    DiscordError,
    StoredFile,
    _invalid,
    walk_components,
)


class Validation:
    """Checks a message body against Discord's documented limits."""

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
        for i, spec in enumerate(body.get("attachments") or []):
            if len(str(spec.get("description") or "")) > 1024:  # an attachment's alt text
                errors[f"attachments.{i}.description"] = "Must be 1024 or fewer in length"
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
