"""Seeded, replayable randomness. Every die and shuffle in every game comes from here.

The state keeps the game's seed and a draw counter; draw n uses a ``random.Random`` seeded from
sha256(seed/n), so replaying the move log from the seed reproduces every die and shuffle, and the
global ``random`` module state is never touched.
"""
from __future__ import annotations

import hashlib
import random
import secrets
from collections.abc import MutableSequence, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

T = TypeVar("T")


def new_seed() -> str:
    """A fresh secret seed (called by the service, never by engines)."""
    return secrets.token_hex(16)


def commitment(seed: str) -> str:
    """What the public sees at the start: sha256 of the seed, hex."""
    return hashlib.sha256(seed.encode()).hexdigest()


@dataclass
class Rng:
    seed: str
    draws: int = 0

    def _next(self) -> random.Random:
        digest = hashlib.sha256(f"{self.seed}/{self.draws}".encode()).digest()
        self.draws += 1
        return random.Random(int.from_bytes(digest, "big"))

    def randint(self, low: int, high: int) -> int:
        return self._next().randint(low, high)

    def die(self, sides: int = 6) -> int:
        return self.randint(1, sides)

    def shuffle(self, items: MutableSequence[T]) -> None:
        self._next().shuffle(items)

    def choice(self, items: Sequence[T]) -> T:
        return items[self._next().randrange(len(items))]

    def dump(self) -> dict[str, Any]:
        return {"seed": self.seed, "draws": self.draws}

    @classmethod
    def load(cls, data: dict[str, Any]) -> Rng:
        return cls(seed=str(data["seed"]), draws=int(data["draws"]))
