"""The fake Discord reads a multipart body at once (tests/fakediscord/rest.py ``multipart_parts``):
the same parts, names, file names, types and bytes as aiohttp's streaming reader gives."""
from __future__ import annotations

import json
from typing import Any

import aiohttp
from aiohttp import web

from tests.fakediscord.rest import multipart_parts


def form() -> aiohttp.FormData:
    """A body as discord.py sends a message with files: payload_json, then files[n]."""
    data = aiohttp.FormData(quote_fields=False)
    data.add_field("payload_json", json.dumps({"content": 'hé "x"', "attachments": [{"id": 0}]}),
                   content_type="application/json")
    data.add_field("files[0]", b"\x89PNG\r\n--\r\n\r\ndata\r\n" * 500, filename='tölp "1".png',
                   content_type="image/png")
    data.add_field("files[1]", b"", filename="empty.txt", content_type="text/plain")
    return data


async def test_multipart_parts_match_aiohttps_reader() -> None:
    got: dict[str, Any] = {}

    async def mine(request: web.Request) -> web.Response:
        got["mine"] = multipart_parts(await request.read(), request.headers["Content-Type"])
        return web.json_response({})

    async def reference(request: web.Request) -> web.Response:
        parts = []
        async for part in await request.multipart():
            assert isinstance(part, aiohttp.BodyPartReader)
            parts.append((part.name or "", part.filename or "", part.headers.get("Content-Type"),
                          bytes(await part.read())))
        got["reference"] = parts
        return web.json_response({})

    app = web.Application()
    app.router.add_post("/mine", mine)
    app.router.add_post("/reference", reference)
    runner = web.AppRunner(app)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    port = runner.addresses[0][1]
    try:
        async with aiohttp.ClientSession() as session:
            for path in ("mine", "reference"):
                async with session.post(f"http://127.0.0.1:{port}/{path}", data=form()) as answer:
                    assert answer.status == 200
    finally:
        await runner.cleanup()
    assert [p[:3] for p in got["mine"]] == [("payload_json", "", "application/json"),
                                            ("files[0]", 'tölp "1".png', "image/png"),
                                            ("files[1]", "empty.txt", "text/plain")]
    assert got["mine"] == got["reference"]
