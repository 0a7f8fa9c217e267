"""Zloděj benchmark: median render time and PNG size of each view, and the median engine apply time.

Run: .venv/bin/python bench/bench_zlodej.py
"""
from __future__ import annotations

import random
import statistics
import sys
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.games.zlodej.engine import ZlodejGame  # noqa: E402
from bot.games.zlodej.state import ZlodejState  # noqa: E402
from rendering.zlodej import render_private, render_public  # noqa: E402

GAME = ZlodejGame()
NAMES = ["Anežka", "Bořivoj", "Čeněk", "Dáša", "Ema", "František", "Gustav", "Hana", "Ivo", "Jiří"]
RUNS = 60


def midgame(players: int) -> ZlodejState:
    state = GAME.new(players, {}, f"bench-{players}")
    chooser = random.Random(players)
    for _ in range(25 * players):
        GAME.apply(state, state.turn, chooser.choice(GAME.legal_actions(state, state.turn)))
    return state


def median_ms(call: Callable[[], object]) -> float:
    call()  # warm the caches
    times = []
    for _ in range(RUNS):
        start = time.perf_counter()
        call()
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times)


def apply_ms() -> float:
    times = []
    for seed in range(20):
        state = GAME.new(4, {}, f"apply-{seed}")
        chooser = random.Random(seed)
        while GAME.outcome(state) is None:
            seat = state.turn
            action = chooser.choice(GAME.legal_actions(state, seat))
            start = time.perf_counter()
            GAME.apply(state, seat, action)
            times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times)


def main() -> None:
    for players in (2, 4, 10):
        state = midgame(players)
        public, private = GAME.observe(state, None), GAME.observe(state, state.turn)
        names = NAMES[:players]
        table = partial(render_public, public, names=names, locale="en")
        hand = partial(render_private, private, names=names, locale="en")
        print(f"{players:2d} players  table {median_ms(table):6.1f} ms {len(table()) / 1024:6.1f} KB   "
              f"hand {median_ms(hand):5.1f} ms {len(hand() or b'') / 1024:5.1f} KB")
    print(f"engine apply (4 players, random games): median {apply_ms():.3f} ms")


if __name__ == "__main__":
    main()
