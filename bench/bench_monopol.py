"""Benchmark Monopol: median render time and PNG size of each view (the board, the focus view and
both together, as a turn's board message carries them), and the median engine apply.

Run (from the repository root): .venv/bin/python -m bench.bench_monopol
"""
from __future__ import annotations

import statistics
import time

from bench.timing import median_cpu_ms, median_ms
from bot.engine import registry
from bot.engine.registry import computer_action
from rendering.monopol import render_deed, render_focus, render_public

NAMES = ["Åse", "Bjørn Ødegård", "Čeněk", "Kari Nordmann", "Ola", "Siri"]


def _sized(call, runs: int = 30) -> tuple[float, int]:  # type: ignore[no-untyped-def]
    ms, data = median_ms(call, runs)
    return ms, len(data)


def main() -> None:
    game = registry.get("monopol")
    state = game.new(6, game.resolve_options({}), "bench")
    applies = []
    for _ in range(700):  # computer players well into the game: deeds, houses, mortgages
        if game.outcome(state):
            break
        seat = min(game.to_act(state))
        action = computer_action(game, state, seat)
        start = time.perf_counter()
        game.apply(state, seat, action)
        applies.append(time.perf_counter() - start)
    obs = game.observe(state, None)
    for locale in ("en", "nb"):
        ms, size = _sized(lambda locale=locale: render_public(obs, names=NAMES, locale=locale))
        print(f"board ({locale}, 6 players): {ms:.1f} ms median, {size / 1000:.0f} KB")
    ms, size = _sized(lambda: render_focus(obs, names=NAMES, locale="nb"))
    print(f"focus view (nb): {ms:.1f} ms median, {size / 1000:.0f} KB")
    ms, _ = _sized(lambda: (render_public(obs, names=NAMES, locale="nb"), render_focus(obs, names=NAMES, locale="nb")))
    print(f"board + focus (nb): {ms:.1f} ms median")
    board_cpu = median_cpu_ms(lambda: render_public(obs, names=NAMES, locale="nb"))
    focus_cpu = median_cpu_ms(lambda: render_focus(obs, names=NAMES, locale="nb"))
    print(f"CPU time (steadier on a busy machine): board {board_cpu:.1f} ms + focus {focus_cpu:.1f} ms "
          f"= {board_cpu + focus_cpu:.1f} ms")
    render_deed.cache_clear()
    ms, size = _sized(lambda: render_deed.__wrapped__(39, locale="nb"), runs=10)
    print(f"deed card (uncached): {ms:.1f} ms median, {size / 1000:.0f} KB (cached afterwards)")
    print(f"engine apply: {statistics.median(applies) * 1e6:.0f} µs median over {len(applies)} actions")


if __name__ == "__main__":
    main()
