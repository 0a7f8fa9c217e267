"""The fake Discord holds the bot to Discord's global rate limit and answers in Discord's message
shape: past 50 counted requests per second per token a global 429 with Discord's headers (the
interaction endpoints do not count), bucket headers on every answer, files used by embeds left out
of a message's attachments, ``attachment://`` turned into a URL."""
from __future__ import annotations

import asyncio
import json

import aiohttp
import discord

from tests.fakediscord import API, FakeDiscord

RATE_HEADERS = ("Retry-After", "X-RateLimit-Limit", "X-RateLimit-Remaining", "X-RateLimit-Reset",
                "X-RateLimit-Reset-After", "X-RateLimit-Bucket", "X-RateLimit-Scope")


async def test_past_fifty_counted_requests_a_second_the_fake_answers_a_global_429(fake: FakeDiscord) -> None:
    fake.global_rate = (5, 60.0)
    base = f"http://127.0.0.1:{fake.port}{API}"
    async with aiohttp.ClientSession(headers={"Authorization": "Bot fake-token"}) as http:
        for _ in range(5):
            async with http.get(f"{base}/users/@me") as r:
                assert r.status == 200
        async with http.get(f"{base}/channels/{fake.channel_id}") as r:
            body, headers = await r.json(), r.headers
            assert r.status == 429
    assert body["global"] is True and 0 < body["retry_after"] <= 60
    assert all(name in headers for name in RATE_HEADERS), dict(headers)
    assert headers["X-RateLimit-Global"] == "true" and headers["X-RateLimit-Scope"] == "global"
    assert headers["Via"]  # discord.py waits and retries only a 429 that came through Discord's proxy
    assert [v.code for v in fake.global_violations()] == ["global rate limit"]
    assert fake.busiest_second(60.0) == 5
    fake.violations.clear()  # broken on purpose


async def test_another_token_has_a_budget_of_its_own(fake: FakeDiscord) -> None:
    fake.global_rate = (2, 60.0)
    base = f"http://127.0.0.1:{fake.port}{API}"
    for token in ("one", "two"):
        async with aiohttp.ClientSession(headers={"Authorization": f"Bot {token}"}) as http:
            for _ in range(2):
                async with http.get(f"{base}/users/@me") as r:
                    assert r.status == 200
    assert fake.global_violations() == []


async def test_interaction_endpoints_do_not_count(fake: FakeDiscord) -> None:
    fake.global_rate = (1, 60.0)
    alice = fake.add_member("alice")
    payload = fake.slash(alice, "toy hand")
    base = f"http://127.0.0.1:{fake.port}{API}"
    async with aiohttp.ClientSession() as http:
        form = {"type": 5}
        async with http.post(f"{base}/interactions/{payload['id']}/{payload['token']}/callback",
                             json=form) as r:
            assert r.status == 204  # no callback resource asked for: no body, as Discord
        for n in range(3):
            async with http.post(f"{base}/webhooks/{fake.app_id}/{payload['token']}?wait=true",
                                 json={"content": f"follow-up {n}"}) as r:
                assert r.status == 200, await r.text()
                message = await r.json()
            async with http.patch(f"{base}/webhooks/{fake.app_id}/{payload['token']}/messages/{message['id']}",
                                  json={"content": "edited"}) as r:
                assert r.status == 200
    async with aiohttp.ClientSession(headers={"Authorization": "Bot fake-token"}) as http:
        async with http.get(f"{base}/users/@me") as r:
            assert r.status == 200
            assert "X-RateLimit-Bucket" in r.headers and "X-RateLimit-Remaining" in r.headers
    assert fake.global_violations() == [] and fake.busiest_second() == 1


async def test_discord_py_waits_out_a_global_429_itself(fake: FakeDiscord) -> None:
    fake.global_rate = (3, 0.3)
    client = discord.Client(intents=discord.Intents.none())
    await fake.login(client)  # two counted calls
    channel = client.get_partial_messageable(int(fake.channel_id))
    loop = asyncio.get_running_loop()
    started = loop.time()
    for n in range(3):
        await channel.send(f"message {n}")
    assert loop.time() - started >= 0.05  # one global 429 waited out by discord.py
    assert [m.content for m in fake.channel_messages()] == ["message 0", "message 1", "message 2"]
    refused = [r for r in fake.requests if r.status == 429]
    assert refused and all(r.response["global"] for r in refused)
    fake.violations.clear()


async def test_files_an_embed_shows_are_not_in_the_attachments_and_come_back_as_urls(fake: FakeDiscord) -> None:
    base = f"http://127.0.0.1:{fake.port}{API}"
    payload = {"content": "board", "embeds": [{"image": {"url": "attachment://board.png"}},
                                              {"image": {"url": "attachment://focus.png"}}],
               "attachments": [{"id": 0, "filename": "board.png"}, {"id": 1, "filename": "focus.png"},
                               {"id": 2, "filename": "notes.txt"}]}
    form = aiohttp.FormData(quote_fields=False)
    form.add_field("payload_json", json.dumps(payload), content_type="application/json")
    for n, (name, data) in enumerate((("board.png", b"\x89PNG board"), ("focus.png", b"\x89PNG focus"),
                                      ("notes.txt", b"notes"))):
        form.add_field(f"files[{n}]", data, filename=name)
    async with aiohttp.ClientSession(headers={"Authorization": "Bot fake-token"}) as http:
        async with http.post(f"{base}/channels/{fake.channel_id}/messages", data=form) as r:
            message = await r.json()
        assert [a["filename"] for a in message["attachments"]] == ["notes.txt"]
        urls = [e["image"]["url"] for e in message["embeds"]]
        assert all(url.startswith("http://127.0.0.1:") for url in urls)
        shown = []
        for url in urls:
            async with http.get(url) as r:
                shown.append(await r.read())
        assert shown == [b"\x89PNG board", b"\x89PNG focus"]
        # an edit keeping the attachments it can see drops what the embeds showed
        async with http.patch(f"{base}/channels/{fake.channel_id}/messages/{message['id']}",
                              json={"attachments": [{"id": message["attachments"][0]["id"]}]}) as r:
            edited = await r.json()
        for url in urls:
            async with http.get(url) as r:
                assert r.status == 404
    stored = fake.message(edited["id"])
    assert [f.filename for f in stored.files] == ["notes.txt"]
    assert stored.embed_files() == [None, None]  # the embeds point at nothing
