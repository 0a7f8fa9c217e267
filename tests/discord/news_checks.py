"""What a player's phone shows of the bot's messages: the first line of every message that pings
someone and of every DM. The whole-game tests of all five games end with ``assert_news_first``;
``pings`` counts the notifications a game sent each player (a post that mentions them and lets
the mention through; an edit notifies nobody)."""
from __future__ import annotations

import re
from collections import Counter
from typing import Any

from bot.services.text import shown
from tests.fakediscord import FakeDiscord, Recorded

HASH = re.compile(r"\b[0-9a-f]{64}\b")
MENTION = re.compile(r"<@!?(\d+)>")


def _body(rec: Recorded) -> dict[str, Any]:
    body = rec.json or {}
    return body.get("data") or {} if rec.route.endswith("/callback") else body


def pinged(body: dict[str, Any]) -> list[str]:
    """The users a created message notifies: mentioned in its content and let through by its
    allowed_mentions (Discord parses every mention when a request carries none)."""
    content = str(body.get("content") or "")
    allowed = body.get("allowed_mentions")
    mentioned = list(dict.fromkeys(MENTION.findall(content)))
    if allowed is None or "users" in (allowed.get("parse") or []):
        return mentioned
    users = {str(u) for u in allowed.get("users") or []}
    return [u for u in mentioned if u in users]


def notifications(fake: FakeDiscord) -> list[tuple[str, list[str]]]:
    """(content, pinged users) of every message the bot created that pinged someone."""
    out = []
    for rec in fake.requests:
        if rec.method != "POST" or rec.status not in (200, 204):
            continue
        if not (re.fullmatch(r"/channels/\d+/messages", rec.route) or "/webhooks/" in rec.route
                or rec.route.endswith("/callback")):
            continue
        body = _body(rec)
        if body.get("flags", 0) & 64:  # ephemeral: nobody is notified
            continue
        users = pinged(body)
        if users:
            out.append((str(body.get("content") or ""), users))
    return out


def pings(fake: FakeDiscord) -> Counter[str]:
    """How many notifications each user got from the bot's channel messages."""
    return Counter(user for _, users in notifications(fake) for user in users)


def display_names(user: dict[str, Any]) -> set[str]:
    return {shown(str(name)[:32]) for name in (user.get("global_name"), user.get("username")) if name}


def assert_first_line_is_news(first: str) -> None:
    assert not HASH.search(first), f"a hash in the first line: {first!r}"
    assert "https://" not in first, f"a link in the first line: {first!r}"
    assert " — " in first, f"no news in the first line: {first!r}"


def assert_news_first(fake: FakeDiscord, users: list[dict[str, Any]]) -> None:
    """The first line of every pinging message opens with the mentions of whom it pings and says
    what it means for them; every version of every DM the bot sent on its own opens with its
    reader's name and their news; no first line is a hash or a link."""
    seen = 0
    for content, users_pinged in notifications(fake):
        first = content.splitlines()[0]
        assert all(f"<@{u}>" in first.split(" — ")[0] for u in users_pinged), first
        assert_first_line_is_news(first)
        seen += 1
    assert seen, "nobody was pinged in a whole game"
    dms = 0
    for user in users:
        for message in fake.dms_to(user):
            if message.kind != "dm":  # the answer to the reader's own click in their DMs
                continue
            assert message.content, f"a DM with no text, only a picture: {user['username']}"
            for version in [*message.history, message.payload]:
                content = version.get("content") or ""
                if not content:
                    continue
                first = content.splitlines()[0]
                assert first.split(" — ")[0] in display_names(user), (user["username"], first)
                assert_first_line_is_news(first)
                dms += 1
    assert dms or not any(fake.dms_to(u) for u in users)


BOARD_LINK = re.compile(r"https://discord\.com/channels/[^/\s]+/\d+/(\d+)")


def dms_by_turn(fake: FakeDiscord, user: dict[str, Any]) -> dict[str, list[Any]]:
    """The DMs the bot sent a player on its own (not answers to their clicks), by the turn they
    belong to: the board message each links to in its footer (a new board is a new turn)."""
    turns: dict[str, list[Any]] = {}
    for message in fake.dms_to(user):
        if message.kind != "dm":
            continue
        found = BOARD_LINK.findall(message.content)
        turns.setdefault(found[-1] if found else "", []).append(message)
    return turns


def uploads(fake: FakeDiscord) -> list[tuple[Recorded, str, str]]:
    """(request, file name, description) of every picture the bot uploaded, as its request's
    ``attachments`` named it (the alt text Discord shows and screen readers read)."""
    out = []
    for rec in fake.requests:
        if not rec.files or rec.status not in (200, 204):
            continue
        specs = {str(spec.get("id")): spec for spec in _body(rec).get("attachments") or []}
        for file in rec.files:
            index = file.name[len("files["):-1] if file.name.startswith("files[") else ""
            out.append((rec, file.filename, str(specs.get(index, {}).get("description") or "")))
    return out


def private_reader(fake: FakeDiscord, rec: Recorded) -> str | None:
    """Whose private message a request sent or edited: a DM's recipient, or the player whose own
    interaction a private (ephemeral) follow-up answered; None for what the channel sees."""
    parts = rec.route.split("/")
    if rec.route.startswith("/channels/"):
        channel = fake.channels.get(parts[2])
        return channel["recipients"][0]["id"] if channel is not None and channel["type"] == 1 else None
    if rec.route.startswith("/webhooks/") and rec.interaction_id in fake.interactions:
        if int(_body(rec).get("flags") or 0) & 64:
            return fake.interactions[rec.interaction_id].user_id
    return None


def assert_pictures_described(fake: FakeDiscord) -> None:
    """Every image the bot sent carries a description within Discord's 1024 characters."""
    pictures = [(name, text) for _, name, text in uploads(fake) if name.endswith((".png", ".gif"))]
    assert pictures, "no picture was sent"
    for name, text in pictures:
        assert 0 < len(text) <= 1024, (name, text)
