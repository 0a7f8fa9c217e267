"""The luck report of an ended game: each player's dice against what fair dice give on average,
and the good and bad cards they drew. Every number comes from replaying the move log from the
seed, which is revealed when the game ends, so anyone can check it (``gamemaster replay FILE``
prints the same report from an exported game).

Pure apart from ``load``::

    report = luck(replay)          # None: the game shows no luck (no dice, no draws)
    lines(report, names, locale)   # the report in words
"""
from __future__ import annotations

import asyncio
import hashlib
import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from bot.engine import registry
from bot.errors import IllegalAction
from bot.i18n import t
from bot.services.replay import Replay, events
from bot.services.replay import load as load_replay

if TYPE_CHECKING:
    from bot.services.table import GameService

DIE_MEAN = 3.5  # a fair six-sided die
DIE_VARIANCE = 35 / 12


@dataclass
class SeatLuck:
    rolls: int = 0  # times the seat rolled
    dice: int = 0  # dice thrown in all
    total: int = 0  # their sum
    good: int = 0  # good cards drawn
    bad: int = 0

    @property
    def expected(self) -> float:
        return self.dice * DIE_MEAN

    @property
    def sigmas(self) -> float:
        """How far the sum is from the average, in standard deviations (0 without dice)."""
        return (self.total - self.expected) / math.sqrt(self.dice * DIE_VARIANCE) if self.dice else 0.0


@dataclass
class LuckReport:
    game: str
    seed: str
    seats: list[SeatLuck] = field(default_factory=list)

    @property
    def commitment(self) -> str:
        return hashlib.sha256(self.seed.encode()).hexdigest()

    def luckiest(self) -> int | None:
        """The seat whose dice ran furthest above the average (None without dice)."""
        rolled = [seat for seat, luck in enumerate(self.seats) if luck.dice]
        return max(rolled, key=lambda seat: self.seats[seat].sigmas) if rolled else None


def luck(replay: Replay) -> LuckReport | None:
    """The report of an ended game; None when the game shows no luck at all."""
    game = registry.get(replay.game)
    report = LuckReport(replay.game, replay.seed, [SeatLuck() for _ in range(replay.players)])
    seen = False
    for _, happened in events(replay):
        for event in happened:
            for item in game.luck(event):
                if not 0 <= item.seat < replay.players:
                    continue
                seen = True
                seat = report.seats[item.seat]
                if item.kind == "dice":
                    seat.rolls, seat.dice, seat.total = seat.rolls + 1, seat.dice + item.dice, seat.total + item.value
                elif item.kind == "good":
                    seat.good += 1
                elif item.kind == "bad":
                    seat.bad += 1
    return report if seen else None


async def load(service: GameService, game_id: int) -> LuckReport | None:
    """The luck report of a stored game, replayed in a worker thread; only once it has ended
    (before, its seed is secret)."""
    replay = await load_replay(service, game_id)
    if not replay.ended:
        raise IllegalAction("luck.error.running")
    return await asyncio.to_thread(luck, replay)  # a long game's replay would hold the event loop


def lines(report: LuckReport, names: Sequence[str], locale: str | None) -> list[str]:
    """The report in words: a line per player, then how to check it."""
    out = []
    for seat, item in enumerate(report.seats):
        name = names[seat] if seat < len(names) else str(seat + 1)
        parts = []
        if item.dice:
            diff = item.total - item.expected
            parts.append(t("luck.dice", locale, count=item.rolls, total=item.total,
                           expected=f"{item.expected:.0f}", diff=f"{diff:+.0f}", sigmas=f"{item.sigmas:+.1f}"))
        if item.good or item.bad:
            parts.append(t("luck.cards", locale, good=item.good, bad=item.bad))
        out.append(f"**{name}**: " + ("; ".join(parts) if parts else t("luck.nothing", locale)))
    lucky = report.luckiest()
    if lucky is not None and report.seats[lucky].sigmas > 0:
        out.append(t("luck.luckiest", locale, name=names[lucky] if lucky < len(names) else str(lucky + 1)))
    out.append(t("luck.check", locale, seed=report.seed, commitment=report.commitment[:16]))
    return out
