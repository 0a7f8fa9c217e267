"""The bot's process hands the interpreter's lock to a waiting thread (a database connection's)
within half a millisecond, not CPython's default 5 ms (bot/gil.py)."""
from __future__ import annotations

import sys

from bot.gil import SWITCH_SECONDS, short_switches


def test_the_switch_interval_is_short_and_the_old_one_is_returned() -> None:
    before = sys.getswitchinterval()
    try:
        assert short_switches() == before
        assert sys.getswitchinterval() == SWITCH_SECONDS < 0.005
    finally:
        sys.setswitchinterval(before)
