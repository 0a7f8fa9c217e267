"""The web pages over HTTP on both backends: what a table's page shows and never shows, who may
open what, the headers every answer carries, /healthz and /metrics."""
from __future__ import annotations

import asyncio
import json
import re
from typing import Any

import aiohttp
import pytest

from bot.engine import registry
from bot.engine.cards import parse_card
from bot.services.table import GameService
from bot.storage.games import GameRow
from bot.web.server import WebServer

SEED = "web-pages-1"


async def zlodej(service: GameService, channel: str = "c1", guild: str | None = "g1") -> GameRow:
    await service.create(guild_id=guild, channel_id=channel, game="zlodej", user_id="u0", name="Ann", seed=SEED)
    await service.join(channel, "u1", "Bo")
    await service.join(channel, "u2", "Cy")
    return (await service.start(channel, "u0")).record


async def published(web: WebServer, game_id: int) -> None:
    """The table's address is stored once its commit is heard (a task of its own): wait for it."""
    for _ in range(200):
        if web.links.known(game_id):
            return
        await asyncio.sleep(0.01)
    raise AssertionError("the table's address was never stored")


async def get(url: str, **kwargs: Any) -> tuple[int, dict[str, str], bytes]:
    async with aiohttp.ClientSession() as http, http.get(url, **kwargs) as response:
        return response.status, dict(response.headers), await response.read()


def hidden_cards(service: GameService, record: GameRow, but: int | None) -> set[str]:
    """Every card in a hand other than seat ``but``'s, as code and as drawn (♦4), that the public
    observation does not show."""
    public = json.dumps(service.observe(record, None))
    out: set[str] = set()
    for seat in range(len(record.seats)):
        if seat == but:
            continue
        for code in service.observe(record, seat)["private"]["hand"]:
            if code not in public:
                out |= {code, parse_card(code).pretty}
    return out


async def test_a_table_page_shows_the_board_who_acts_and_the_log_in_the_readers_language(
        web: WebServer) -> None:
    record = await zlodej(web.service)
    await published(web, record.id)
    url = web.links.table_url(record.id)
    status, headers, body = await get(url, headers={"Accept-Language": "sv-SE,sv;q=0.9,en;q=0.5"})
    page = body.decode()
    assert status == 200 and '<html lang="sv">' in page and "Väntar på" in page
    board = re.search(r'<img id="board" src="([^"]+)" alt="([^"]+)"', page)
    assert board and board.group(2)
    status, headers, png = await get(url.rsplit("/t/", 1)[0] + board.group(1).replace("&amp;", "&"))
    assert status == 200 and headers["Content-Type"] == "image/png" and png.startswith(b"\x89PNG")
    status, _, body = await get(url + "?lang=cs")
    assert '<html lang="cs">' in body.decode()
    status, _, data = await get(url + "/state.json?lang=nb")
    state = json.loads(data)
    assert state["status"].startswith("Venter på") and state["version"] == record.version


async def test_public_pages_and_their_json_hold_no_hand(web: WebServer) -> None:
    record = await zlodej(web.service)
    await published(web, record.id)
    url = web.links.table_url(record.id)
    texts = [(await get(url + path))[2].decode() for path in ("", "/state.json", "/replay", "/replay?n=0")]
    secret = hidden_cards(web.service, record, None)
    assert secret
    for text in texts:
        assert not [card for card in secret if re.search(rf"(?<![\w♠♥♦♣]){re.escape(card)}(?!\w)", text)]


async def test_an_address_nobody_was_given_and_a_hidden_channels_table_answer_alike(web: WebServer) -> None:
    record = await zlodej(web.service)
    await published(web, record.id)
    base = web.links.base_url
    unknown = await get(f"{base}/t/{'A' * 22}")
    by_number = await get(f"{base}/t/{record.id}")
    await web.links.publish(record.id, "g1", public=False)  # the channel turned out to be private
    hidden = await get(web.links.table_url(record.id))
    assert unknown[0] == by_number[0] == hidden[0] == 404
    assert unknown[2] == hidden[2]


async def test_a_server_that_turns_its_pages_off_has_none(web: WebServer) -> None:
    record = await zlodej(web.service)
    await published(web, record.id)
    assert (await get(web.links.guild_url("g1")))[0] == 200
    await web.links.set_pages("g1", False)
    assert (await get(web.links.table_url(record.id)))[0] == 404
    assert (await get(web.links.guild_url("g1")))[0] == 404
    await web.links.set_pages("g1", True)
    assert (await get(web.links.table_url(record.id)))[0] == 200


async def test_a_private_link_shows_its_seat_only_and_a_forged_expired_or_revoked_one_is_refused(
        web: WebServer) -> None:
    record = await zlodej(web.service)
    link = web.links.private_url(record.id, 1, "u1")
    status, headers, body = await get(link + "/state.json")
    own = web.service.observe(record, 1)["private"]["hand"]
    assert status == 200 and headers["Cache-Control"] == "no-store" and json.loads(body)["hand"]
    token = link.rsplit("/", 1)[1]
    page = (await get(link))[2].decode().replace(token, "")  # its own address holds any two letters
    others = hidden_cards(web.service, record, 1)
    assert own and not [c for c in others if re.search(rf"(?<![\w♠♥♦♣]){re.escape(c)}(?!\w)", page)]
    hand = await get(link + "/hand.png")
    assert hand[0] == 200 and hand[2].startswith(b"\x89PNG")

    body_part, mac = link.rsplit("/", 1)[1].split(".")
    forged = f"{web.links.base_url}/p/{body_part}.{mac[:-2]}{'AA' if mac[-2:] != 'AA' else 'BB'}"
    assert (await get(forged))[0] == 403
    other_seat = link.replace(body_part, body_part[:-1])  # a body that is not what was signed
    assert (await get(other_seat))[0] == 403
    expired = web.links.private_token(record.id, 1, "u1", seconds=-1)
    status, _, body = await get(f"{web.links.base_url}/p/{expired}")
    assert status == 403 and "expired" in body.decode()
    stranger = web.links.private_url(record.id, 1, "someone-else")  # signed, but not that seat's player
    assert (await get(stranger))[0] == 403
    await web.links.revoke("u1")  # /game forget-me
    assert (await get(link))[0] == 403
    assert (await get(web.links.private_url(record.id, 1, "u1")))[0] == 200  # a new link works again


async def test_every_answer_carries_the_security_headers_and_only_get_is_served(web: WebServer) -> None:
    record = await zlodej(web.service)
    await published(web, record.id)
    url = web.links.table_url(record.id)
    _, headers, _ = await get(url)
    policy = headers["Content-Security-Policy"]
    assert "frame-ancestors 'none'" in policy and "script-src 'self'" in policy and "unsafe-inline" not in policy
    assert headers["X-Content-Type-Options"] == "nosniff" and headers["Referrer-Policy"] == "no-referrer"
    page = (await get(url))[2].decode()
    assert "<script>" not in page and " style=" not in page and "onclick" not in page
    async with aiohttp.ClientSession() as http:
        for method in ("POST", "PUT", "DELETE", "PATCH"):
            async with http.request(method, url) as response:
                assert response.status == 405 and "Content-Security-Policy" in response.headers
    assert (await get(f"{web.links.base_url}/nowhere"))[1]["X-Frame-Options"] == "DENY"


async def test_one_address_asking_too_fast_is_slowed_down(db: Any) -> None:
    import dataclasses

    from tests.web.conftest import WEB

    slow = dataclasses.replace(WEB, web_rate=1)  # a burst of ten, then one a minute
    answers = []
    async with WebServer(slow, GameService(db)) as web, aiohttp.ClientSession() as http:
        for _ in range(12):
            async with http.get(f"{web.links.base_url}/healthz") as response:
                answers.append(response.status)
                if response.status == 429:
                    assert int(response.headers["Retry-After"]) > 0
                    assert "Content-Security-Policy" in response.headers
    assert answers[:10] == [200] * 10 and answers[10:] == [429, 429]


def test_the_rate_limit_refills_with_time() -> None:
    from bot.web.app import RateLimit

    now = [0.0]
    limit = RateLimit(30, clock=lambda: now[0])  # one each two seconds, a burst of ten
    assert all(limit.allow("a") for _ in range(10)) and not limit.allow("a")
    assert limit.allow("b")  # another address has its own bucket
    now[0] += 2.0
    assert limit.allow("a") and not limit.allow("a")


async def test_healthz_and_metrics(web: WebServer) -> None:
    record = await zlodej(web.service)
    seat = min(web.service.to_act(record))
    hand = web.service.observe(record, seat)["private"]["hand"]
    await web.service.act(user_id=record.user_of(seat) or "", channel_id="c1", action=f"discard {hand[0]}")
    status, _, body = await get(f"{web.links.base_url}/healthz")
    assert status == 200 and json.loads(body) == {"ok": True, "database": True}
    status, headers, text = await get(f"{web.links.base_url}/metrics")
    exposition = text.decode()
    assert status == 200 and headers["Content-Type"].startswith("text/plain")
    for name in ("gamemaster_moves_total", "gamemaster_outbox_depth", "gamemaster_acks_total",
                 "gamemaster_rest_requests_total", "gamemaster_render_seconds", "gamemaster_event_loop_lag_seconds"):
        assert f"# TYPE {name.removesuffix('_total')}" in exposition, name
    assert re.search(r"^gamemaster_outbox_depth [1-9]", exposition, re.M)  # nobody announced them here


@pytest.mark.parametrize("locale", ["en", "sv", "nb", "cs"])
def test_every_page_text_is_translated(locale: str) -> None:
    from bot.i18n import catalog

    english = {k for k in catalog("en") if k.startswith("web.")}
    assert english and english <= set(catalog(locale)), english - set(catalog(locale))
    if locale != "en":
        same = [k for k in english if catalog(locale)[k] == catalog("en")[k] and "{" not in str(catalog("en")[k])]
        assert len(same) <= 3, same  # "Zoom", a name or two may read the same


def test_the_registry_games_all_draw_a_public_board() -> None:
    from bot.web.pictures import has_renderer

    assert all(has_renderer(name, "render_public") for name in registry.names())


async def test_a_table_started_before_the_pages_ran_has_its_page(db: Any) -> None:
    from tests.web.conftest import WEB

    service = GameService(db)
    record = await zlodej(service)
    async with WebServer(WEB, service, default_public=True) as web:
        assert (await get(web.links.table_url(record.id)))[0] == 200


async def test_healthz_says_which_check_fails(db: Any) -> None:
    from tests.web.conftest import WEB

    up = {"gateway": True, "lease": True}

    async def gateway() -> bool:
        return up["gateway"]

    async def lease() -> bool:
        return up["lease"]

    async with WebServer(WEB, GameService(db), gateway=gateway, lease=lease) as web:
        status, _, body = await get(f"{web.links.base_url}/healthz")
        assert status == 200 and json.loads(body) == {"ok": True, "database": True, "gateway": True, "lease": True}
        up["gateway"] = False
        status, _, body = await get(f"{web.links.base_url}/healthz")
        assert status == 503 and json.loads(body)["gateway"] is False and json.loads(body)["lease"] is True
