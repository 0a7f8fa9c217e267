"""How strong the computer players are: each level in a rotating seat against a uniformly random
player, against a casual greedy player that sees only its own observation, and strong against
normal, in all five games; seeded, with 95 % Wilson intervals and decision times (p50/p99).

    python -m bench.bench_strength --games 40              # every game, every pairing
    python -m bench.bench_strength --games 10 --only tolp zlodej --pairings normal-greedy
    python -m bench.bench_strength --games 100 --only tolp --setting "wild twos" --pairings strong-normal

Decision times are the CPU time of the deciding thread (one core), steady on a busy machine.
A game counts as a win for the measured seat by its share of first place (a shared first place
is split); the fair share is 1/players. Games that hit the action cap are reported as unended.
"""
from __future__ import annotations

import argparse
import math
import statistics
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from bench.strength_baselines import Player, greedy_player, random_player
from bot.engine import registry

# (name, game, players, options, action cap)
SETTINGS: tuple[tuple[str, str, int, dict[str, Any], int], ...] = (
    ("Tölp, 4 players", "tolp", 4, {"scoring": "rounds", "rounds": 3}, 6000),
    ("Tölp with wild twos", "tolp", 4, {"scoring": "rounds", "rounds": 3, "wild": "2"}, 6000),
    ("Zloděj, 4 players", "zlodej", 4, {}, 5000),
    ("Stratego", "stratego", 2, {"max_moves": 1500}, 3200),
    ("Monopol, 4 players", "monopol", 4, {"max_rounds": 40}, 12000),
    ("Tjuv och Polis, 3 players", "tjuv", 3, {"max_rounds": 40, "police": "roll"}, 6000),
)
# (label, measured player, opponents)
PAIRINGS: tuple[tuple[str, str, str], ...] = (
    ("easy-random", "easy", "random"), ("easy-greedy", "easy", "greedy"),
    ("normal-random", "normal", "random"), ("normal-greedy", "normal", "greedy"),
    ("strong-random", "strong", "random"), ("strong-greedy", "strong", "greedy"),
    ("strong-normal", "strong", "normal"),
)


def wilson(wins: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """The 95 % Wilson score interval of a proportion (wins may be fractional: shared places)."""
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def select(only: Sequence[str] | None, setting: str | None,
           ) -> list[tuple[str, str, int, dict[str, Any], int]]:
    """The settings of the games named in ``only`` (all when none) whose name contains ``setting``
    (case-insensitive; e.g. "wild twos" for that Tölp variant alone, "4 players" for plain Tölp)."""
    return [s for s in SETTINGS if (not only or s[1] in only)
            and (setting is None or setting.casefold() in s[0].casefold())]


def player(game: str, kind: str) -> Player:
    if kind == "random":
        return random_player
    if kind == "greedy":
        return greedy_player(game)
    return registry.computer(game, kind)


@dataclass
class Result:
    games: int = 0
    wins: float = 0.0
    unended: int = 0
    times: list[float] = field(default_factory=list)  # the measured seat's decisions, seconds

    def row(self, label: str, fair: float) -> str:
        low, high = wilson(self.wins, self.games)
        share = self.wins / self.games if self.games else 0.0
        times = sorted(self.times) or [0.0]
        p50 = statistics.median(times) * 1000
        p99 = times[min(len(times) - 1, int(len(times) * 0.99))] * 1000
        return (f"| {label} | {self.games} | {share:.0%} [{low:.0%}, {high:.0%}] | {share / fair:.2f}× | "
                f"{self.unended} | {p50:.1f} | {p99:.1f} |")


def play_one(game_name: str, players: int, options: dict[str, Any], cap: int, seed: str,
             measured: Player, others: Player, seat_measured: int, result: Result) -> None:
    game = registry.get(game_name)
    state = game.new(players, game.resolve_options(options), seed)
    chooser = {s: (measured if s == seat_measured else others) for s in range(players)}
    for ply in range(cap):
        if game.outcome(state) is not None:
            break
        acting = sorted(game.watchers(state) | game.to_act(state))
        if not acting:
            break
        seat = acting[0]
        legal = list(game.legal_actions(state, seat))
        if not legal:
            acting = sorted(game.to_act(state))
            seat = acting[0]
            legal = list(game.legal_actions(state, seat))
        rng = registry.computer_rng(seed, ply, seat)
        started = time.thread_time()
        action = chooser[seat](state, seat, legal, rng)
        if seat == seat_measured:
            result.times.append(time.thread_time() - started)
        game.apply(state, seat, action)
    result.games += 1
    outcome = game.outcome(state)
    if outcome is None:
        result.unended += 1
        return
    first = outcome.places[0]
    if seat_measured in first:
        result.wins += 1 / len(first)


def run(settings: Sequence[tuple[str, str, int, dict[str, Any], int]], pairings: Sequence[tuple[str, str, str]],
        games: int, seed: str) -> list[str]:
    lines = ["| game · level vs opponents | games | wins [95 % CI] | × fair share | unended | "
             "decision p50 ms | p99 ms |", "|---|---|---|---|---|---|---|"]
    for title, game_name, players, options, cap in settings:
        fair = 1 / players
        for label, mine, theirs in pairings:
            result = Result()
            measured, others = player(game_name, mine), player(game_name, theirs)
            for n in range(games):
                play_one(game_name, players, options, cap, f"{seed}/{game_name}/{label}/{n}",
                         measured, others, n % players, result)
            lines.append(result.row(f"{title} · {mine} vs {theirs}", fair))
            print(lines[-1], flush=True)
    return lines


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2, help="games per pairing (seats rotate); `make bench` runs 2")
    parser.add_argument("--only", nargs="*", help="game names (tolp zlodej stratego monopol tjuv)")
    parser.add_argument("--pairings", nargs="*", help="e.g. normal-greedy strong-normal")
    parser.add_argument("--setting", help='only the settings whose name contains this, e.g. "wild twos"')
    parser.add_argument("--seed", default="strength")
    args = parser.parse_args(argv)
    settings = select(args.only, args.setting)
    if not settings:
        parser.error(f"no setting matches --only {args.only} --setting {args.setting!r}")
    pairings = [p for p in PAIRINGS if not args.pairings or p[0] in args.pairings]
    print(f"{args.games} games per pairing, seed {args.seed!r}")
    run(settings, pairings, args.games, args.seed)


if __name__ == "__main__":
    main()
