"""Web pages benchmark, in a real browser (Debian's Chromium through Playwright) against the web
server on loopback, beside a GameService on a SQLite file (no Discord):

- first paint: from navigation to the table page's first contentful paint (the browser's own
  ``first-contentful-paint`` entry), and the page's server time (time to first byte);
- move shown: from the commit of a move (``GameService.act`` returning) to the open page's log
  showing it (a MutationObserver stamps the time in the page; same machine, same clock);
- ``--screenshots``: the README's pictures, a Monopol table on a phone (400 px) with the board
  zoomed in, and on a desktop (docs/web-phone.png, docs/web-desktop.png).

Live viewers and the bot's acks under load: ``bench.bench_load --viewers 1000`` (the real bot).

    .venv/bin/python -m bench.bench_web                # 20 page loads, 20 moves
    .venv/bin/python -m bench.bench_web --screenshots
"""
from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

from bot.services.table import GameService
from bot.settings import Settings
from bot.storage.db import Database
from bot.web.server import WebServer
from tests.web.browser import Browser

WEB = Settings(web_enabled=True, web_port=0, web_rate=100_000)
ROOT = Path(__file__).resolve().parent.parent


async def table(service: GameService, game: str, players: int, seed: str) -> int:
    await service.create(guild_id="g", channel_id="c", game=game, user_id="u0", name="Ann", seed=seed)
    for n, name in enumerate(["Bo", "Cy", "Di"][:players - 1], start=1):
        await service.join("c", f"u{n}", name)
    return (await service.start("c", "u0")).record.id


async def move(service: GameService, prefer: tuple[str, ...] = ()) -> None:
    record = await service.require_current("c")
    seat = min(service.to_act(record))
    legal = service.legal_texts(record, seat)
    action = next((a for p in prefer for a in legal if a.startswith(p)), legal[0])
    await service.act(user_id=record.user_of(seat) or "", channel_id="c", action=action)


def until(page: Any, condition: str, seconds: float = 30) -> None:
    """Poll ``condition`` in the page (the pages' CSP forbids the eval wait_for_function uses)."""
    deadline = time.monotonic() + seconds
    while not page.evaluate(condition):
        if time.monotonic() > deadline:
            raise TimeoutError(condition)
        page.wait_for_timeout(20)


def pct(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


async def paints(browser: Browser, url: str, runs: int) -> tuple[list[float], list[float]]:
    def load(page: Any) -> tuple[list[float], list[float]]:
        fcp, ttfb = [], []
        for _ in range(runs + 1):  # the first load warms the pictures' cache, as any viewer after the first
            page.goto(url + "?r=" + str(time.time()))
            until(page, "performance.getEntriesByName('first-contentful-paint').length > 0")
            fcp.append(page.evaluate("performance.getEntriesByName('first-contentful-paint')[0].startTime"))
            ttfb.append(page.evaluate("performance.getEntriesByType('navigation')[0].responseStart"))
        return fcp[1:], ttfb[1:]

    return await browser.run(load)


async def moves_shown(browser: Browser, service: GameService, url: str, runs: int) -> list[float]:
    ready = threading.Event()
    seen: list[float] = []

    def watch(page: Any) -> list[float]:
        page.goto(url)
        page.evaluate("""() => { window.shown = [];
            new MutationObserver(() => window.shown.push(performance.timeOrigin + performance.now()))
              .observe(document.getElementById('log'), {childList: true}); }""")
        ready.set()
        until(page, f"window.shown.length >= {runs}", seconds=120)
        return list(page.evaluate("window.shown"))

    watching = asyncio.ensure_future(browser.run(watch))
    await asyncio.to_thread(ready.wait, 30)
    await asyncio.sleep(1.0)  # the page's event stream is open
    committed = []
    for _ in range(runs):
        await move(service)
        committed.append(time.time() * 1000)
        await asyncio.sleep(0.3)  # one move at a time: each is its own update
    shown = await watching
    for when in committed:
        seen.append(min(s for s in shown if s >= when - 5) - when)
    return seen


async def screenshots(browser: Browser, web: WebServer, service: GameService) -> None:
    game_id = await table(service, "monopol", 3, "web-readme")
    for _ in range(60):
        await move(service, prefer=("buy", "roll", "end", "pay"))
    url = web.links.table_url(game_id) + "?lang=en"

    def phone(page: Any) -> None:
        page.goto(url)
        until(page, "document.getElementById('board').naturalWidth > 0")
        page.get_by_role("button", name="Zoom in").click()
        page.locator(".viewport").focus()
        for _ in range(12):  # to the board's top left corner, with the keys
            page.keyboard.press("ArrowLeft")
            page.keyboard.press("ArrowUp")
        page.screenshot(path=str(ROOT / "docs" / "web-phone.png"))

    def desktop(page: Any) -> None:
        page.goto(url)
        until(page, "document.getElementById('board').naturalWidth > 0")
        page.screenshot(path=str(ROOT / "docs" / "web-desktop.png"))

    await browser.run(phone, width=400, height=860)
    await browser.run(desktop, width=1366, height=900)
    print("# wrote docs/web-phone.png and docs/web-desktop.png", file=sys.stderr)


async def run(args: argparse.Namespace) -> None:
    browser = Browser.launch()
    try:
        with tempfile.TemporaryDirectory() as folder:
            async with Database(Path(folder) / "web.sqlite3") as db:
                service = GameService(db)
                async with WebServer(WEB, service, default_public=True) as web:
                    if args.screenshots:
                        await screenshots(browser, web, service)
                        return
                    game_id = await table(service, "tolp", 4, "web-bench")
                    await asyncio.sleep(0.2)  # its address stored (on the commit)
                    url = web.links.table_url(game_id)
                    fcp, ttfb = await paints(browser, url, args.loads)
                    shown = await moves_shown(browser, service, url, args.moves)
        print("| measure | p50 ms | p90 ms | max ms | goal (#26) |\n|---|---|---|---|---|")
        for name, values, goal in (("table page, first contentful paint", fcp, 300),
                                   ("table page, time to first byte", ttfb, None),
                                   ("a move's commit → shown on the open page", shown, 1000)):
            met = "" if goal is None else f"≤ {goal}: {'met' if max(values) <= goal else 'NOT met'} (max)"
            print(f"| {name} | {statistics.median(values):.0f} | {pct(values, 0.9):.0f} | {max(values):.0f} | {met} |")
    finally:
        browser.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--loads", type=int, default=20, help="page loads measured")
    parser.add_argument("--moves", type=int, default=20, help="moves measured on the open page")
    parser.add_argument("--screenshots", action="store_true", help="write the README's pictures into docs/")
    asyncio.run(run(parser.parse_args()))


if __name__ == "__main__":
    main()
