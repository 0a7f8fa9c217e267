"""Benchmark Stratego: median render time and PNG size per view, median engine apply time.

Run: .venv/bin/python -m bench.bench_stratego  (or python bench/bench_stratego.py from the root)
"""
from __future__ import annotations

import random
import statistics
import time

from bench.timing import median_ms
from bot.games.stratego import GAME
from rendering import stratego as R

NAMES = ["Anna", "Björn"]


def midgame():
    state = GAME.new(2, GAME.resolve_options({}), "bench")
    for seat in (0, 1):
        GAME.apply(state, seat, GAME.parse_action("ready"))
    chooser = random.Random(1)
    apply_ms = []
    for _ in range(150):
        seat = min(GAME.to_act(state))
        action = chooser.choice(GAME.legal_actions(state, seat))
        start = time.perf_counter()
        GAME.apply(state, seat, action)
        apply_ms.append((time.perf_counter() - start) * 1000)
    return state, apply_ms


def _sized(call, runs: int = 40) -> tuple[float, int]:  # type: ignore[no-untyped-def]
    ms, data = median_ms(call, runs)
    return ms, len(data)


def main() -> None:
    state, apply_ms = midgame()
    views = {
        "public board": lambda: R.render_public(GAME.observe(state, None), names=NAMES),
        "private board (red)": lambda: R.render_private(GAME.observe(state, 0), names=NAMES) or b"",
        "private board (blue, turned)": lambda: R.render_private(GAME.observe(state, 1),
                                                                 names=NAMES) or b"",
    }
    for label, fn in views.items():
        ms, size = _sized(fn)
        print(f"{label:30s} {ms:6.1f} ms  {size / 1000:6.1f} KB")
    print(f"{'engine apply (median)':30s} {statistics.median(apply_ms):6.3f} ms")


if __name__ == "__main__":
    main()
