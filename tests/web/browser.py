"""A real browser for the tests: Playwright driving Debian's Chromium (never a downloaded one).

Playwright's sync API runs in one thread of its own, so a session's browser serves tests whose
event loops come and go; ``await browser.run(fn, …)`` calls ``fn(page, …)`` there while the test's
loop goes on serving the bot and the web pages the browser talks to.
"""
from __future__ import annotations

import asyncio
import os
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, TypeVar

import pytest

CHROMIUM = Path("/usr/bin/chromium")
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
        "--disable-sync", "--no-first-run", "--disable-dev-shm-usage"]
T = TypeVar("T")


class Browser:
    def __init__(self) -> None:
        self._thread = ThreadPoolExecutor(max_workers=1, thread_name_prefix="playwright")
        self._playwright: Any = None
        self._chromium: Any = None

    @classmethod
    def launch(cls) -> Browser:
        if not CHROMIUM.exists():
            message = "Chromium is not installed (.ci/run installs it: apt-get install chromium)"
            if os.environ.get("CI"):
                pytest.fail(message)
            pytest.skip(message)
        opened = cls()
        opened._thread.submit(opened._start).result()
        return opened

    def _start(self) -> None:
        from playwright.sync_api import sync_playwright

        self._playwright = sync_playwright().start()
        self._chromium = self._playwright.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)

    async def run(self, work: Callable[..., T], *args: Any, width: int = 1280, height: int = 900,
                  locale: str = "en-US") -> T:
        """``work(page, *args)`` in a fresh page (its own context: no cookies or cache shared)."""
        def in_thread() -> T:
            context = self._chromium.new_context(viewport={"width": width, "height": height}, locale=locale)
            try:
                page = context.new_page()
                page.set_default_timeout(10_000)
                return work(page, *args)
            finally:
                context.close()

        return await asyncio.get_running_loop().run_in_executor(self._thread, in_thread)

    def close(self) -> None:
        def stop() -> None:
            self._chromium.close()
            self._playwright.stop()

        self._thread.submit(stop).result()
        self._thread.shutdown()
