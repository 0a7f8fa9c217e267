"""The longest inputs a player can type (#27): the CPU time of one /rules lookup for the longest
question Discord lets through (the topic option's max_length) and for inputs far past it, so a
regression of the matcher's bounds shows as a number.

    python -m bench.bench_longest_inputs

The loop-hold goal itself (≤ 50 ms for any command or autocomplete) is asserted by
tests/discord/test_longest_inputs.py; this measures the lookup alone, in the worst language.
"""
from __future__ import annotations

import time

from bot.engine import registry
from bot.services import rules
from bot.services.rules import MAX_QUERY

INPUTS = {
    f"{MAX_QUERY} letters, one word": "k" * MAX_QUERY,
    f"{MAX_QUERY} characters of words": ("jailbreak ødegård hromádku " * 20)[:MAX_QUERY],
    "6,000 letters, one word (refused by Discord)": "ř" * 6000,
    "6,000 characters of words (refused by Discord)": ("chanskorten " * 600)[:6000],
}


def main() -> None:
    rules.warm()
    for label, text in INPUTS.items():
        worst = 0.0
        for game in registry.names():
            for lang in ("en", "sv", "nb", "cs"):
                start = time.process_time()
                rules.search(game, text, lang)
                worst = max(worst, time.process_time() - start)
        print(f"{label:50} worst lookup {worst * 1000:7.2f} ms CPU")


if __name__ == "__main__":
    main()
