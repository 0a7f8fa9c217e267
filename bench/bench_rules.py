"""The /rules lookup: top-1 accuracy on the evaluation set and the median time of one lookup.

    python -m bench.bench_rules            # accuracy per language and game, median and p95 time
    python -m bench.bench_rules --misses   # also list every question answered wrongly

The evaluation set (tests/data/rules_eval.tsv) holds questions written as players write them, each
with the topics that answer it; tests/unit/test_rules_eval.py asserts the accuracy goals.
"""
from __future__ import annotations

import argparse
import os
import statistics
import time
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path

from bot.services import rules

# RULES_EVAL=other.tsv measures another set (e.g. fresh questions the keywords were not written for).
DEFAULT_SET = Path(__file__).resolve().parent.parent / "tests" / "data" / "rules_eval.tsv"
EVAL_SET = Path(os.environ.get("RULES_EVAL") or DEFAULT_SET)


@dataclass(frozen=True)
class Question:
    game: str
    lang: str
    topics: frozenset[str]
    text: str


@dataclass
class Result:
    total: int
    right: int
    by_lang: dict[str, tuple[int, int]]
    by_game: dict[str, tuple[int, int]]
    misses: list[tuple[Question, str | None]]

    @property
    def accuracy(self) -> float:
        return self.right / self.total if self.total else 0.0


def questions(path: Path = EVAL_SET) -> list[Question]:
    out = []
    for line in path.read_text(encoding="utf-8").splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        game, lang, topics, text = line.split("\t")
        out.append(Question(game, lang, frozenset(topics.split(",")), text))
    return out


def evaluate(items: list[Question]) -> Result:
    counts: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    games: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    misses: list[tuple[Question, str | None]] = []
    for question in items:
        hits = rules.search(question.game, question.text, question.lang, limit=1)
        got = hits[0].section.topic if hits else None
        ok = got in question.topics
        for table, key in ((counts, question.lang), (games, question.game)):
            table[key][0] += ok
            table[key][1] += 1
        if not ok:
            misses.append((question, got))
    right = sum(r for r, _ in counts.values())
    return Result(len(items), right, {k: (v[0], v[1]) for k, v in counts.items()},
                  {k: (v[0], v[1]) for k, v in games.items()}, misses)


def timings(items: list[Question], rounds: int) -> list[float]:
    out = []
    for _ in range(rounds):
        for question in items:
            start = time.perf_counter()
            rules.search(question.game, question.text, question.lang)
            out.append(time.perf_counter() - start)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3, help="timed passes over the set")
    parser.add_argument("--misses", action="store_true", help="list the questions answered wrongly")
    args = parser.parse_args()
    start = time.perf_counter()
    rules.warm()
    print(f"index built in {(time.perf_counter() - start) * 1000:.0f} ms")
    items = questions()
    result = evaluate(items)
    print(f"top-1 accuracy {result.accuracy:.1%} ({result.right}/{result.total})")
    for name, table in (("language", result.by_lang), ("game", result.by_game)):
        print(f"  by {name}: " + ", ".join(f"{k} {r}/{n} ({r / n:.0%})" for k, (r, n) in sorted(table.items())))
    times = sorted(timings(items, args.rounds))
    print(f"lookup median {statistics.median(times) * 1000:.2f} ms, p95 {times[int(len(times) * 0.95)] * 1000:.2f} ms "
          f"({len(times)} lookups)")
    if args.misses:
        for question, got in result.misses:
            print(f"  miss {question.game}/{question.lang}: {question.text!r} -> {got} "
                  f"(want {', '.join(sorted(question.topics))})")


if __name__ == "__main__":
    main()
