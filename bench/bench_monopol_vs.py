"""The Monopol board's CPU per board on a game's successive positions, to compare two renderers.

A seeded 6-player game of computers is played with this tree's engine and its public observations
from the 100th action on are written to a JSON file (``--dump``); each renderer then draws the same
positions in its own process (``--obs``, run with that tree's python and PYTHONPATH), one action
apart as a game's turns come, and prints the median CPU time per board. Only ``render_public(obs,
names=..., locale=...)`` is called, which the pre-wave-3 renderer (107dad8) has too.

    .venv/bin/python -m bench.bench_monopol_vs --dump /tmp/obs.json
    PYTHONPATH=/work/wt/pre21 /work/wt/pre21/.venv/bin/python bench/bench_monopol_vs.py --obs /tmp/obs.json
    PYTHONPATH=$PWD .venv/bin/python bench/bench_monopol_vs.py --obs /tmp/obs.json
"""
from __future__ import annotations

import argparse
import json
import statistics
import time

NAMES = ["Åse", "Bjørn Ødegård", "Čeněk", "Kari Nordmann", "Ola", "Siri"]


def dump(path: str, start: int = 95, count: int = 305, seed: str = "vs") -> None:
    from bot.engine import registry
    from bot.engine.registry import computer_action

    game = registry.get("monopol")
    state = game.new(6, game.resolve_options({}), seed)
    positions = []
    for n in range(start + count):
        if game.outcome(state):
            break
        if n >= start:
            positions.append(game.observe(state, None))
        seat = min(game.to_act(state))
        game.apply(state, seat, computer_action(game, state, seat))
    with open(path, "w", encoding="utf-8") as out:
        json.dump(positions, out)
    print(f"{len(positions)} positions written to {path}")


def measure(path: str, warm: int = 5, locale: str = "nb") -> float:
    from rendering.monopol import render_public

    with open(path, encoding="utf-8") as source:
        positions = json.load(source)
    times, size = [], 0
    for n, obs in enumerate(positions):
        start = time.process_time()
        data = render_public(obs, names=NAMES, locale=locale)
        if n >= warm:
            times.append((time.process_time() - start) * 1000)
            size += len(data)
    median = statistics.median(times)
    print(f"{median:.2f} ms median CPU per board over {len(times)} positions, {size / len(times) / 1000:.0f} KB mean")
    return median


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--dump")
    parser.add_argument("--obs")
    args = parser.parse_args()
    if args.dump:
        dump(args.dump)
    if args.obs:
        measure(args.obs)
