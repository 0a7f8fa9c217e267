"""Strength benchmark for the board games' computers (Stratego, Tjuv och Polis), issue 22.

Each pairing plays seeded games with the measured computer in a rotating seat (Stratego: red and
blue in turn; Tjuv och Polis with 3 players: the police, the first and the second thief in turn)
against opponents of one kind (the easy level is in ai-cards' benchmark): a uniformly random
player, the casual greedy baseline (``bench/board_baselines.py``, sees only its own observation)
or the normal computer. A win is
sole first place; draws and shared places are counted apart. Shown: wins with a 95 % Wilson
interval, the fair share, game lengths, and the measured computer's decision time (p50, p99),
wall clock and CPU time (the CPU time holds steady on a busy machine).

Run: .venv/bin/python -m bench.bench_strength_boards [--games 100] [--game stratego|tjuv]
     [--pairing strong-normal ...]
"""
from __future__ import annotations

import argparse
import math
import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from bench.board_baselines import stratego_greedy, tjuv_greedy
from bot.engine import registry
from bot.engine.rng import Rng
from bot.games.stratego import computer_normal as stratego_normal
from bot.games.stratego import computer_strong as stratego_strong
from bot.games.tjuv import computer_normal as tjuv_normal
from bot.games.tjuv.view import role_of

Choose = Callable[[Any, int, list[Any], Rng], Any]
PLAYERS = {"stratego": 2, "tjuv": 3}
MAX_ACTIONS = {"stratego": 6000, "tjuv": 8000}  # a cap no computer game comes near
PAIRINGS = ("normal-random", "normal-greedy", "strong-greedy", "strong-normal")


def random_player(state: Any, seat: int, legal: list[Any], rng: Rng) -> Any:
    return legal[rng.randint(0, len(legal) - 1)]


LEVELS: dict[str, dict[str, Choose]] = {
    "stratego": {"normal": stratego_normal.choose, "strong": stratego_strong.choose},
    "tjuv": {"normal": tjuv_normal.choose},  # strong plays as normal (see docs/benchmarks.md)
}


def player(game: str, name: str) -> Choose:
    if name == "random":
        return random_player
    if name == "greedy":
        return stratego_greedy if game == "stratego" else tjuv_greedy
    return LEVELS[game][name]


def computer_rng(seed: str, ply: int, seat: int) -> Rng:
    """A computer's stream at ``ply``, apart from the game's own dice (as the service seeds it)."""
    return Rng(f"{seed}/computer/{ply}/{seat}")


def wilson(wins: int, n: int, z: float = 1.96) -> tuple[float, float]:
    if n == 0:
        return 0.0, 0.0
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


@dataclass
class Tally:
    games: int = 0
    wins: int = 0
    shared: int = 0
    unfinished: int = 0
    lengths: list[int] = field(default_factory=list)
    times: list[float] = field(default_factory=list)  # wall clock per decision
    cpu: list[float] = field(default_factory=list)  # CPU time per decision (steady on a busy machine)
    by_role: dict[str, list[int]] = field(default_factory=dict)


def play(game_name: str, chooses: list[Choose], seed: str, measured: int, tally: Tally) -> None:
    game = registry.get(game_name)
    state = game.new(len(chooses), game.resolve_options({}), seed)
    actions = 0
    while game.outcome(state) is None and actions < MAX_ACTIONS[game_name]:
        seat = min(game.to_act(state))
        legal = list(game.legal_actions(state, seat))
        rng = computer_rng(seed, actions, seat)
        start, cpu = time.perf_counter(), time.thread_time()
        action = chooses[seat](state, seat, legal, rng)
        if seat == measured:
            tally.times.append(time.perf_counter() - start)
            tally.cpu.append(time.thread_time() - cpu)
        game.apply(state, seat, action)
        actions += 1
    outcome = game.outcome(state)
    tally.games += 1
    role = ("red", "blue")[measured] if game_name == "stratego" else (
        "police" if role_of(state, measured) == 0 else "thief")
    tally.by_role.setdefault(role, [0, 0])[1] += 1
    tally.lengths.append(state.moves if game_name == "stratego" else state.round)
    if outcome is None:
        tally.unfinished += 1
        return
    first = outcome.places[0] if outcome.places else ()
    if first == (measured,):
        tally.wins += 1
        tally.by_role[role][0] += 1
    elif measured in first:
        tally.shared += 1


def run(game_name: str, pairing: str, games: int) -> Tally:
    level, opponent = pairing.split("-")
    players = PLAYERS[game_name]
    tally = Tally()
    for n in range(games):
        measured = n % players
        chooses = [player(game_name, opponent)] * players
        chooses[measured] = player(game_name, level)
        play(game_name, chooses, f"strength/{game_name}/{pairing}/{n}", measured, tally)
    return tally


def report(game_name: str, pairing: str, tally: Tally) -> str:
    low, high = wilson(tally.wins, tally.games)
    share = 100 / PLAYERS[game_name]
    times = sorted(tally.times) or [0.0]
    p99 = times[min(len(times) - 1, int(len(times) * 0.99))]
    cpu = sorted(tally.cpu) or [0.0]
    cpu99 = cpu[min(len(cpu) - 1, int(len(cpu) * 0.99))]
    unit = "moves" if game_name == "stratego" else "rounds"
    roles = ", ".join(f"{r} {w}/{n}" for r, (w, n) in sorted(tally.by_role.items()))
    return (f"| {game_name} | {pairing.replace('-', ' vs ')} | {tally.games} | "
            f"{100 * tally.wins / tally.games:.0f} % [{100 * low:.0f}, {100 * high:.0f}] | {share:.0f} % | "
            f"{tally.shared} | {tally.unfinished} | {roles} | {statistics.median(tally.lengths):.0f} / "
            f"{max(tally.lengths)} {unit} | {1000 * statistics.median(times):.1f} / {1000 * p99:.0f} ms | "
            f"{1000 * statistics.median(cpu):.1f} / {1000 * cpu99:.0f} ms |")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--game", choices=sorted(PLAYERS), action="append")
    parser.add_argument("--pairing", choices=PAIRINGS, action="append")
    args = parser.parse_args()
    print("| game | pairing | games | wins [95 % CI] | fair share | shared first | unfinished | "
          "wins by seat | length median / max | decision p50 / p99 | CPU p50 / p99 |")
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    for game_name in args.game or sorted(PLAYERS):
        for pairing in args.pairing or PAIRINGS:
            if pairing.split("-")[0] not in LEVELS[game_name]:
                continue
            print(report(game_name, pairing, run(game_name, pairing, args.games)), flush=True)


if __name__ == "__main__":
    main()
