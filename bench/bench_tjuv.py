"""Tjuv och Polis benchmark: median render time and PNG size of each view (the map, the focus view and
both together, as a turn's board message carries them), and the median engine apply time.

Run (from the repository root): .venv/bin/python -m bench.bench_tjuv
"""
from __future__ import annotations

import statistics
import time
from functools import partial

from bench.timing import median_cpu_ms, median_ms
from bot.engine.registry import computer_action
from bot.games.tjuv.engine import TjuvGame
from bot.games.tjuv.state import TjuvState
from rendering.tjuv import render_focus, render_private, render_public

GAME = TjuvGame()
NAMES = ["Åsa", "Björn", "Cecilia", "Dörte", "Erik", "Fanny", "Göran"]
RUNS = 40


def midgame(players: int) -> TjuvState:
    state = GAME.new(players, GAME.resolve_options({"max_rounds": 80}), f"bench-{players}")
    for _ in range(40 * players):
        if GAME.outcome(state) is not None:
            break
        seat = next(iter(GAME.to_act(state)))
        GAME.apply(state, seat, computer_action(GAME, state, seat))
    return state


def _ms(call) -> float:  # type: ignore[no-untyped-def]
    return median_ms(call, RUNS)[0]


def apply_ms() -> float:
    times = []
    for seed in range(10):
        state = GAME.new(5, GAME.resolve_options({"max_rounds": 60}), f"apply-{seed}")
        while GAME.outcome(state) is None:
            seat = next(iter(GAME.to_act(state)))
            action = computer_action(GAME, state, seat)
            start = time.perf_counter()
            GAME.apply(state, seat, action)
            times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times)


def main() -> None:
    for players in (2, 4, 7):
        state = midgame(players)
        thief = max(range(1, players), key=lambda s: len(state.thief(s).stashes))
        public, private = GAME.observe(state, None), GAME.observe(state, thief)
        names = NAMES[:players]
        board = partial(render_public, public, names=names, locale="sv")
        stash = partial(render_private, private, names=names, locale="sv")
        focus = partial(render_focus, public, names=names, locale="sv")
        both = _ms(lambda board=board, focus=focus: (board(), focus()))
        print(f"{players} players  map {_ms(board):6.1f} ms {len(board()) / 1024:6.1f} KB   "
              f"focus {_ms(focus):5.1f} ms {len(focus() or b'') / 1024:5.1f} KB   map + focus {both:5.1f} ms   "
              f"stashes {_ms(stash):5.1f} ms {len(stash() or b'') / 1024:5.1f} KB")
    public = GAME.observe(midgame(7), None)
    map_cpu = median_cpu_ms(partial(render_public, public, names=NAMES, locale="sv"))
    focus_cpu = median_cpu_ms(partial(render_focus, public, names=NAMES, locale="sv"))
    print(f"CPU time, 7 players (steadier on a busy machine): map {map_cpu:.1f} ms + focus {focus_cpu:.1f} ms "
          f"= {map_cpu + focus_cpu:.1f} ms")
    print(f"engine apply (5 players, computer games): median {apply_ms():.3f} ms")


if __name__ == "__main__":
    main()
