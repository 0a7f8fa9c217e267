"""CPU per Tölp board and per hand picture over whole seeded games (4 and 5 players, both themes,
en and sv), and a digest of every PNG's bytes, so that a faster renderer can be shown to give the
same bytes. CPU time (time.process_time), the median of ``--passes`` passes after a warm-up pass.

    .venv/bin/python -m bench.bench_tolp_render [--passes 5] [--digest FILE]

With ``--tables N`` it draws instead what one render worker draws under the load benchmark: N
tables of four players, each with names of its own (``p{table}x{seat}``, as bench_load's), a
move at each table in turn, so a table's names come back only after every other table's: the
texts' caches must hold every table's to keep them (docs/bench/tolp-render.md).

    .venv/bin/python -m bench.bench_tolp_render --tables 1000 [--moves 8]
"""
from __future__ import annotations

import argparse
import hashlib
import statistics
import time
from typing import Any

from bot.engine.registry import computer_action, get
from rendering.tolp import REDRAWN, render_private, render_public

NAMES = ["Anna", "Björn", "Cecilia", "David", "Eva"]


def positions(limit: int = 60) -> list[tuple[dict[str, Any], dict[str, Any], str, str]]:
    """(public observation, mover's observation, locale, theme) after each of ``limit`` moves of
    four seeded games."""
    game = get("tolp")
    out = []
    for players, seed, locale, theme in ((4, "r1", "en", "dark"), (5, "r2", "sv", "light"),
                                         (5, "r3", "en", "dark"), (4, "r4", "sv", "dark")):
        state = game.new(players, {"scoring": "rounds", "rounds": 2}, seed)
        for _ in range(limit):
            if game.outcome(state) is not None:
                break
            seat = min(game.to_act(state))
            game.apply(state, seat, computer_action(game, state, seat))
            out.append((game.observe(state, None), game.observe(state, seat), locale, theme))
    return out


def tables(count: int, moves: int) -> list[tuple[dict[str, Any], dict[str, Any], str, str, list[str]]]:
    """(public observation, mover's observation, locale, theme, names) after each of ``moves``
    moves at each of ``count`` tables, the tables taking turns."""
    game = get("tolp")
    states = [game.new(4, {}, f"bench-{n}") for n in range(count)]
    out = []
    for _ in range(moves):
        for n, state in enumerate(states):
            if game.outcome(state) is not None:
                continue
            seat = min(game.to_act(state))
            game.apply(state, seat, computer_action(game, state, seat))
            out.append((game.observe(state, None), game.observe(state, seat), ("en", "sv")[n % 2],
                        ("dark", "light")[n % 2], [f"p{n}x{i}" for i in range(4)]))
    return out


def run(cases: list[Any]) -> tuple[float, float, list[bytes]]:
    pngs: list[bytes] = []
    board = hand = 0.0
    for public, private, locale, theme, *named in cases:
        names = named[0] if named else NAMES
        start = time.process_time()
        pngs.append(render_public(public, names=names, locale=locale, theme=theme))
        middle = time.process_time()
        pngs.append(render_private(private, names=names, locale=locale, theme=theme) or b"")
        hand += time.process_time() - middle
        board += middle - start
    return board / len(cases) * 1000, hand / len(cases) * 1000, pngs


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--passes", type=int, default=5)
    parser.add_argument("--digest", default="")
    parser.add_argument("--tables", type=int, default=0)
    parser.add_argument("--moves", type=int, default=8)
    args = parser.parse_args()
    if args.tables:
        cases = tables(args.tables, args.moves)
        warm = len(cases) // 2  # the first half's moves fill the caches as a running bot's are
        run(cases[:warm])
        board, hand, _ = run(cases[warm:])
        print(f"{args.tables} tables, {len(cases) - warm} positions measured: board {board:.2f} ms, "
              f"hand {hand:.2f} ms, {REDRAWN[0]} pictures drawn whole")
        return
    cases = positions()
    _, _, pngs = run(cases)  # warm the caches
    boards, hands = [], []
    for _ in range(args.passes):
        board, hand, again = run(cases)
        assert again == pngs
        boards.append(board)
        hands.append(hand)
    digest = hashlib.sha256(b"".join(hashlib.sha256(p).digest() for p in pngs)).hexdigest()
    print(f"{len(cases)} positions: board {statistics.median(boards):.2f} ms (min {min(boards):.2f}), "
          f"hand {statistics.median(hands):.2f} ms (min {min(hands):.2f}), digest {digest[:16]}, "
          f"{REDRAWN[0]} of {len(pngs) * (args.passes + 1)} pictures drawn whole")
    if args.digest:
        with open(args.digest, "w") as out:
            out.write("\n".join(hashlib.sha256(p).hexdigest() for p in pngs) + "\n")


if __name__ == "__main__":
    main()
