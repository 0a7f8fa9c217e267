"""The web pages in a real browser (Chromium from Debian's packages through Playwright) beside the
real bot and the fake Discord: a table page follows a move made in Discord without a reload, the
replay steps back and forth, the board zooms on a phone, a player's own link shows their hand and
nothing else, and a forged or expired link is refused."""
from __future__ import annotations

import asyncio
import io
import json
import re
import threading
from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import Any

import pytest
import pytest_asyncio
from PIL import Image
from playwright.sync_api import Page, expect

from bot.engine.cards import parse_card
from bot.services import lobby
from bot.web.server import WebServer
from cogs.client import GameMasterBot
from tests.discord.conftest import BotFactory
from tests.discord.helpers import latest_board, tolp_command
from tests.fakediscord import FakeDiscord, walk_components
from tests.web.browser import Browser
from tests.web.conftest import WEB

pytestmark = pytest.mark.parametrize("database_url", ["sqlite"], indirect=True)
SEED = "web-browser-1"
SLOW = 30.0  # the harness's wait for a start's board on a loaded machine (the board is drawn, not timed)


@dataclass
class Table:
    fake: FakeDiscord
    bot: GameMasterBot
    web: WebServer
    users: list[dict[str, Any]]

    async def record(self) -> Any:
        return await self.bot.service.current(self.fake.channel_id)

    async def move(self) -> str:
        """The player to act makes their first legal move by slash command, as they would type it."""
        record = await self.record()
        seat = min(self.bot.service.to_act(record))
        action = next(a for a in self.bot.service.legal_texts(record, seat) if a != "pass")
        user = next(u for u in self.users if u["id"] == record.user_of(seat))
        command, options = tolp_command(action)
        answer = await self.fake.interact(self.bot, self.fake.slash(user, command, **options), timeout=SLOW)
        assert answer.ok, answer.text
        return action


@pytest_asyncio.fixture
async def table(fake: FakeDiscord, make_bot: BotFactory, monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[Table]:
    monkeypatch.setattr(lobby, "new_seed", lambda: SEED)
    bot = await make_bot()
    await fake.connect(bot)  # the gateway's GUILD_CREATE: who may see the channel
    async with WebServer(WEB, bot.service, players=bot.players, history=bot.history) as web:
        bot.web_links = web.links
        users = fake.add_members(3)
        opened = await fake.interact(bot, fake.slash(users[0], "game new", game="tolp",
                                                     options="scoring=rounds rounds=1"), timeout=SLOW)
        for user in users[1:]:
            assert (await fake.interact(bot, fake.click(user, opened.original, label="Join"), timeout=SLOW)).ok
        await fake.interact(bot, fake.click(users[0], opened.original, label="Start"), timeout=SLOW)
        yield Table(fake, bot, web, users)
        bot.web_links = None


def web_view_link(fake: FakeDiscord) -> str:
    """The current board's "Web view" link button."""
    urls = [c["url"] for c in walk_components(latest_board(fake).components) if c.get("style") == 5]
    assert len(urls) == 1, latest_board(fake).components
    return str(urls[0])


async def test_a_move_made_in_discord_shows_on_the_open_page_without_a_reload(table: Table,
                                                                              browser: Browser) -> None:
    url = web_view_link(table.fake)
    address = url.removeprefix(table.web.links.base_url + "/t/").split("?")[0]
    assert len(address) == 22 and address != str((await table.record()).id)  # not the game's number
    loaded = threading.Event()

    def watch(page: Page) -> tuple[Any, str, str]:
        page.goto(url)
        expect(page.get_by_role("heading", level=1)).to_have_text(re.compile("Tölp"))
        expect(page.locator("#status")).to_contain_text("Waiting for")
        expect(page.locator("#log li")).to_have_count(0)
        before = page.locator("#board").get_attribute("src") or ""
        page.evaluate("window.stillTheSamePage = true")
        loaded.set()
        expect(page.locator("#log li")).to_have_count(1)  # the move, in words
        expect(page.locator("#board")).not_to_have_attribute("src", before)
        return page.evaluate("window.stillTheSamePage"), page.locator("#log").inner_text(), \
            page.locator("#board").get_attribute("alt") or ""

    watching = asyncio.ensure_future(browser.run(watch))
    assert await asyncio.to_thread(loaded.wait, 20)
    await table.move()
    same_page, log, alt = await watching
    assert same_page is True and log.strip() and alt


async def test_the_replay_steps_back_and_forth(table: Table, browser: Browser) -> None:
    await table.move()
    await table.move()
    url = web_view_link(table.fake)

    def step(page: Page) -> list[str]:
        seen = []
        page.goto(url)
        page.get_by_role("link", name="Replay").click()
        counter = page.locator("#counter")
        expect(counter).to_have_text("Move 0 of 2")
        seen.append(page.locator("#move").inner_text())
        page.get_by_role("link", name="Next ▶").click()
        expect(counter).to_have_text("Move 1 of 2")
        seen.append(page.locator("#move").inner_text())
        page.keyboard.press("ArrowRight")
        expect(counter).to_have_text("Move 2 of 2")
        expect(page.get_by_role("link", name="Next ▶")).to_have_count(0)  # the end: nothing further
        page.get_by_role("link", name="◀ Back").click()
        expect(counter).to_have_text("Move 1 of 2")
        image = page.locator("#board")
        expect(image).to_have_attribute("src", re.compile(r"/replay/1\.png"))
        assert page.evaluate("document.getElementById('board').naturalWidth") > 600
        return seen

    start, first = await browser.run(step)
    assert start != first


async def test_on_a_phone_the_board_zooms_in_at_full_resolution(table: Table, browser: Browser) -> None:
    url = web_view_link(table.fake)

    def zoom(page: Page) -> tuple[bytes, float, float]:
        page.goto(url)
        board = page.locator("#board")
        expect(board).to_be_visible()
        expect(board).to_have_js_property("complete", True)  # (the page's CSP forbids wait_for_function's eval)
        assert board.evaluate("image => image.naturalWidth") > 0
        fitted = board.bounding_box()["width"]
        page.get_by_role("button", name="Zoom in").click()
        page.get_by_role("button", name="Zoom in").click()
        expect(page.locator("figure.board")).to_have_attribute("data-zoom", "2.25")
        page.locator(".viewport").focus()
        page.keyboard.press("ArrowRight")  # pan with the keyboard
        zoomed = board.bounding_box()["width"]
        return page.screenshot(), fitted, zoomed

    shot, fitted, zoomed = await browser.run(zoom, width=400, height=860)
    image = Image.open(io.BytesIO(shot))
    image.load()
    assert image.width == 400 and fitted <= 400 and zoomed == pytest.approx(fitted * 2.25, rel=0.02)


async def test_a_players_own_link_shows_their_hand_and_the_pages_hold_no_other_hand(
        table: Table, browser: Browser) -> None:
    record = await table.record()
    user = table.users[0]
    seat = record.seat_of(user["id"])
    answer = await table.fake.interact(table.bot, table.fake.slash(user, "game web"), timeout=SLOW)
    assert answer.ok and answer.ephemeral and "DM" in answer.text
    dm = table.fake.dms_to(user)[-1].content
    link = re.search(r"http://\S+/p/\S+", dm)
    assert link, dm
    public = json.dumps(table.bot.service.observe(record, None))
    others = {text for s in range(len(record.seats)) if s != seat
              for code in table.bot.service.observe(record, s)["private"]["hand"] if code not in public
              for text in (code, parse_card(code).pretty)}
    base = table.web.links.base_url

    def look(page: Page, private: str, table_url: str) -> list[str]:
        texts = []
        page.goto(private)
        expect(page.get_by_role("heading", level=2, name=re.compile("only you"))).to_be_visible()
        expect(page.locator("#hand")).to_have_js_property("complete", True)
        assert page.locator("#hand").evaluate("image => image.naturalWidth") > 0
        texts += [page.content(), page.evaluate("fetch(location.pathname + '/state.json').then(r => r.text())")]
        page.goto(table_url)
        expect(page.locator("#hand")).to_have_count(0)
        texts += [page.content(), page.evaluate("fetch(location.pathname + '/state.json').then(r => r.text())")]
        forged = private[:-3] + ("AAA" if not private.endswith("AAA") else "BBB")
        page.goto(forged)
        expect(page.get_by_role("heading", level=1)).to_have_text("This link does not open")
        expired = f"{base}/p/{table.web.links.private_token(record.id, seat, user['id'], seconds=-60)}"
        page.goto(expired)
        expect(page.locator("main p")).to_contain_text("expired")
        return texts

    texts = await browser.run(look, link.group(0), web_view_link(table.fake))
    assert all(texts)
    token = link.group(0).rsplit("/", 1)[1]
    for text in (text.replace(token, "") for text in texts):  # its own address holds any two letters
        assert not [card for card in others if re.search(rf"(?<![\w♠♥♦♣]){re.escape(card)}(?!\w)", text)]


async def test_no_web_view_in_a_channel_everyone_cannot_see(fake: FakeDiscord, make_bot: BotFactory) -> None:
    hidden = fake.add_channel("secret")
    hidden["permission_overwrites"] = [{"id": fake.guild_id, "type": 0, "allow": "0", "deny": str(1 << 10)}]
    bot = await make_bot()
    await fake.connect(bot)
    async with WebServer(WEB, bot.service, players=bot.players, history=bot.history) as web:
        bot.web_links = web.links
        users = fake.add_members(3)
        opened = await fake.interact(bot, fake.slash(users[0], "game new", game="tolp", channel=hidden,
                                                     options="scoring=rounds rounds=1"), timeout=SLOW)
        for user in users[1:]:
            assert (await fake.interact(bot, fake.click(user, opened.original, label="Join"), timeout=SLOW)).ok
        await fake.interact(bot, fake.click(users[0], opened.original, label="Start"), timeout=SLOW)
        board = [m for m in fake.channel_messages(hidden) if m.files][-1]
        assert not [c for c in walk_components(board.components) if c.get("style") == 5]
        record = await bot.service.current(hidden["id"])
        for _ in range(100):  # the visibility is stored beside the board
            if web.links._public.get(record.id) is False:
                break
            await asyncio.sleep(0.01)
        import aiohttp

        async with aiohttp.ClientSession() as http, http.get(web.links.table_url(record.id)) as response:
            assert response.status == 404
        bot.web_links = None
