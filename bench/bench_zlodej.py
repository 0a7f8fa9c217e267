"""Zloděj benchmark: median render time and PNG size of each view, and the median engine apply time.

Run (from the repository root): .venv/bin/python -m bench.bench_zlodej
"""
from __future__ import annotations

import random
import statistics
import time
from functools import partial

from bench.timing import median_ms
from bot.games.zlodej.engine import ZlodejGame
from bot.games.zlodej.state import ZlodejState
from rendering.zlodej import render_private, render_public

GAME = ZlodejGame()
NAMES = ["Anežka", "Bořivoj", "Čeněk", "Dáša", "Ema", "František", "Gustav", "Hana", "Ivo", "Jiří"]
RUNS = 60


def midgame(players: int) -> ZlodejState:
    state = GAME.new(players, {}, f"bench-{players}")
    chooser = random.Random(players)
    for _ in range(25 * players):
        GAME.apply(state, state.turn, chooser.choice(GAME.legal_actions(state, state.turn)))
    return state


def _ms(call) -> float:  # type: ignore[no-untyped-def]
    return median_ms(call, RUNS)[0]


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
        print(f"{players:2d} players  table {_ms(table):6.1f} ms {len(table()) / 1024:6.1f} KB   "
              f"hand {_ms(hand):5.1f} ms {len(hand() or b'') / 1024:5.1f} KB")
    print(f"engine apply (4 players, random games): median {apply_ms():.3f} ms")


if __name__ == "__main__":
    main()
