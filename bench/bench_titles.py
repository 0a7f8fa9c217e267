"""What a finished game's result costs for its luck line and titles (bot/services/titles.py): the
whole game replayed from the seed twice (the luck report, then the public events for the titles),
in a worker thread, once per finished game. Seeded whole games played by the easy computers.

    python -m bench.bench_titles --games 5

Prints per game: moves per game, and the CPU time of the thread (one core) for the result's lines
(median and worst over the games), beside the replay of the same log alone for comparison.
"""
from __future__ import annotations

import argparse
import statistics
import time
from typing import Any

from bot.services.replay import Replay, events, played_by_computers
from bot.services.titles import _compute

GAMES: tuple[tuple[str, int, dict[str, Any]], ...] = (
    ("monopol", 4, {}), ("tjuv", 4, {}), ("zlodej", 4, {}), ("tolp", 4, {"scoring": "rounds", "rounds": 3}),
    ("stratego", 2, {"max_moves": 1500}),
)
CAP = 6000


def played(name: str, players: int, options: dict[str, Any], seed: str) -> Replay:
    return played_by_computers(name, players, options, seed, cap=CAP)


def cpu(work: Any) -> float:
    started = time.thread_time()
    work()
    return time.thread_time() - started


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=5)
    args = parser.parse_args(argv)
    print("| game | players | moves (median) | luck + titles p50 ms | worst ms | one replay p50 ms |")
    print("|---|---|---|---|---|---|")
    for name, players, options in GAMES:
        lengths, lines, replays = [], [], []
        for n in range(args.games):
            replay = played(name, players, options, f"bench-titles-{name}-{n}")
            lengths.append(len(replay.moves))
            lines.append(cpu(lambda r=replay: _compute(r, r.names, "en", True)))
            replays.append(cpu(lambda r=replay: sum(1 for _ in events(r))))
        print(f"| {name} | {players} | {statistics.median(lengths):.0f} | {statistics.median(lines) * 1000:.0f} | "
              f"{max(lines) * 1000:.0f} | {statistics.median(replays) * 1000:.0f} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
