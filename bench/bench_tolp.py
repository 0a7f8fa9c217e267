"""Benchmark Tölp: median render time and PNG size of each view, and the median engine apply.

Run (from the repository root): .venv/bin/python -m bench.bench_tolp
"""
from __future__ import annotations

import statistics
import time

from bench.timing import median_ms
from bot.engine.registry import computer_action, get
from rendering.tolp import render_private, render_public

NAMES = [f"Player {i + 1}" for i in range(10)]


def main() -> None:
    game = get("tolp")
    state = game.new(10, {"two_decks": True, "scoring": "rounds", "rounds": 3}, "bench")
    applies: list[float] = []
    # play into round 1 until a trick has several combinations on the table
    while len(state.table) < 4:
        seat = min(game.to_act(state))
        action = computer_action(game, state, seat)
        start = time.perf_counter()
        game.apply(state, seat, action)
        applies.append((time.perf_counter() - start) * 1000)
    views = {
        "public (10 players, trick)": lambda: render_public(game.observe(state, None), names=NAMES),
        "private (hand)": lambda: render_private(game.observe(state, 0), names=NAMES),
    }
    state4 = game.new(4, {}, "bench4")
    while state4.round == 1:
        seat = min(game.to_act(state4))
        game.apply(state4, seat, computer_action(game, state4, seat))
    views["public (4 players, exchange)"] = lambda: render_public(game.observe(state4, None), names=NAMES)
    for label, work in views.items():
        render_public(game.observe(state, None), names=NAMES)  # warm the caches
        ms, png = median_ms(work)
        print(f"{label:32s} {ms:6.1f} ms  {len(png) / 1024:6.1f} KB")
    while game.outcome(state) is None:
        seat = min(game.to_act(state))
        action = computer_action(game, state, seat)
        start = time.perf_counter()
        game.apply(state, seat, action)
        applies.append((time.perf_counter() - start) * 1000)
    print(f"{'engine apply (median of ' + str(len(applies)) + ')':32s} {statistics.median(applies):6.3f} ms")


if __name__ == "__main__":
    main()
