"""Benchmark Stratego: median render time and PNG size per view, median engine apply time.

Run: .venv/bin/python -m bench.bench_stratego  (or python bench/bench_stratego.py from the root)
"""
from __future__ import annotations

import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.games.stratego import GAME  # noqa: E402
from rendering import stratego as R  # noqa: E402

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


def median_ms(fn, runs: int = 40) -> tuple[float, int]:
    fn()  # warm the caches
    times, size = [], 0
    for _ in range(runs):
        start = time.perf_counter()
        size = len(fn())
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times), size


def main() -> None:
    state, apply_ms = midgame()
    views = {
        "public board": lambda: R.render_public(GAME.observe(state, None), names=NAMES),
        "private board (red)": lambda: R.render_private(GAME.observe(state, 0), names=NAMES) or b"",
        "private board (blue, turned)": lambda: R.render_private(GAME.observe(state, 1),
                                                                 names=NAMES) or b"",
    }
    for label, fn in views.items():
        ms, size = median_ms(fn)
        print(f"{label:30s} {ms:6.1f} ms  {size / 1000:6.1f} KB")
    print(f"{'engine apply (median)':30s} {statistics.median(apply_ms):6.3f} ms")


if __name__ == "__main__":
    main()
