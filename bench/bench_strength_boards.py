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
     [--pairing strong-normal ...] [--seed strength] [--first 0] [--partial results.jsonl]
     .venv/bin/python -m bench.bench_strength_boards --summarize shard1.jsonl shard2.jsonl
"""
from __future__ import annotations

import argparse
import dataclasses
import json
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
from bot.games.tjuv import computer_strong as tjuv_strong
from bot.games.tjuv.view import role_of

Choose = Callable[[Any, int, list[Any], Rng], Any]
PLAYERS = {"stratego": 2, "tjuv": 3}
MAX_ACTIONS = {"stratego": 6000, "tjuv": 8000}  # a cap no computer game comes near
PAIRINGS = ("normal-random", "normal-greedy", "strong-greedy", "strong-normal")


def random_player(state: Any, seat: int, legal: list[Any], rng: Rng) -> Any:
    return legal[rng.randint(0, len(legal) - 1)]


LEVELS: dict[str, dict[str, Choose]] = {
    "stratego": {"normal": stratego_normal.choose, "strong": stratego_strong.choose},
    "tjuv": {"normal": tjuv_normal.choose, "strong": tjuv_strong.choose},
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

    def add(self, other: Tally) -> None:
        self.games += other.games
        self.wins += other.wins
        self.shared += other.shared
        self.unfinished += other.unfinished
        self.lengths += other.lengths
        self.times += other.times
        self.cpu += other.cpu
        for role, (wins, games) in other.by_role.items():
            mine = self.by_role.setdefault(role, [0, 0])
            mine[0] += wins
            mine[1] += games


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


def run(game_name: str, pairing: str, games: int, seed: str = "strength", first: int = 0,
        partial: str = "") -> Tally:
    """Games ``first`` .. ``first + games - 1`` of the pairing, seeded ``{seed}/{game}/{pairing}/{n}``;
    with ``partial``, each game's result is appended to that file as a JSON line as it ends (a
    long run can be sharded and summed with ``--summarize``)."""
    level, opponent = pairing.split("-")
    players = PLAYERS[game_name]
    tally = Tally()
    for n in range(first, first + games):
        measured = n % players
        chooses = [player(game_name, opponent)] * players
        chooses[measured] = player(game_name, level)
        one = Tally()
        play(game_name, chooses, f"{seed}/{game_name}/{pairing}/{n}", measured, one)
        tally.add(one)
        if partial:
            with open(partial, "a", encoding="utf-8") as out:
                out.write(json.dumps({"game": game_name, "pairing": pairing, "seed": seed, "n": n,
                                      **dataclasses.asdict(one)}) + "\n")
    return tally


def summarize(paths: list[str]) -> dict[tuple[str, str], Tally]:
    """The tallies of every game in the partial files, by (game, pairing); a game listed twice
    (a shard run again) counts once."""
    seen: set[tuple[str, str, str, int]] = set()
    tallies: dict[tuple[str, str], Tally] = {}
    for path in paths:
        with open(path, encoding="utf-8") as lines:
            for line in lines:
                row = json.loads(line)
                key = (row.pop("game"), row.pop("pairing"), row.pop("seed"), row.pop("n"))
                if key in seen:
                    continue
                seen.add(key)
                tallies.setdefault(key[:2], Tally()).add(Tally(**row))
    return tallies


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
    parser.add_argument("--seed", default="strength", help="seeds are {seed}/{game}/{pairing}/{n}")
    parser.add_argument("--first", type=int, default=0, help="the first game's number n")
    parser.add_argument("--partial", default="", help="append each game's result to this file (JSON lines)")
    parser.add_argument("--summarize", nargs="*", help="only sum up these partial files")
    args = parser.parse_args()
    if args.summarize is not None:
        print("| game | pairing | games | wins [95 % CI] | fair share | shared first | unfinished | "
              "wins by seat | length median / max | decision p50 / p99 | CPU p50 / p99 |")
        print("|---|---|---|---|---|---|---|---|---|---|---|")
        for (game_name, pairing), tally in sorted(summarize(args.summarize).items()):
            print(report(game_name, pairing, tally))
        return
    print("| game | pairing | games | wins [95 % CI] | fair share | shared first | unfinished | "
          "wins by seat | length median / max | decision p50 / p99 | CPU p50 / p99 |")
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    for game_name in args.game or sorted(PLAYERS):
        for pairing in args.pairing or PAIRINGS:
            if pairing.split("-")[0] not in LEVELS[game_name]:
                continue
            tally = run(game_name, pairing, args.games, args.seed, args.first, args.partial)
            print(report(game_name, pairing, tally), flush=True)


if __name__ == "__main__":
    main()
