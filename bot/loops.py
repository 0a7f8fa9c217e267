"""The bot's event loop: uvloop where it is installed (a dependency on Linux and macOS), the
standard library's otherwise or when ``GAMEMASTER_EVENT_LOOP=asyncio`` asks for it.

uvloop runs the loop's own work in C: ready callbacks, the selector, socket reads and writes,
timers. Under load that work was about a third of the loop's samples (asyncio and selectors in
py-spy at 1,000 tables and 200 moves/s, docs/bench/load.md), the loop that must also answer every
interaction within Discord's 3 s. Nothing in the bot depends on which loop it runs on; the tests
run on the standard loop (pytest-asyncio's), and one test runs the bot on each.
"""
from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Coroutine
from typing import Any, TypeVar

log = logging.getLogger(__name__)
T = TypeVar("T")


def loop_factory(choice: str = "auto") -> Callable[[], asyncio.AbstractEventLoop] | None:
    """The factory of the loop ``choice`` names ("auto", "uvloop", "asyncio"); None: the standard
    loop. "uvloop" when uvloop is not installed raises ImportError (asked for by name)."""
    if choice == "asyncio":
        return None
    try:
        import uvloop
    except ImportError:
        if choice == "uvloop":
            raise
        return None
    return uvloop.new_event_loop


def run(main: Coroutine[Any, Any, T], choice: str = "auto") -> T:
    """``asyncio.run(main)`` on the loop ``choice`` names."""
    factory = loop_factory(choice)
    with asyncio.Runner(loop_factory=factory) as runner:
        loop = runner.get_loop()
        log.info("event loop: %s.%s", type(loop).__module__, type(loop).__name__)
        return runner.run(main)
