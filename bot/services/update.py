"""What one service call changed (``Update``), for the front end to announce and the outbox to
record; and an outcome as stored."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from bot.engine.core import Event, Outcome
from bot.storage.games import GameRow


@dataclass
class Update:
    """What one service call changed, for the front end to announce."""

    record: GameRow
    events: list[Event] = field(default_factory=list)
    outcome: Outcome | None = None
    to_act: frozenset[int] = frozenset()
    previous_to_act: frozenset[int] | None = None  # who had to act before (None: unknown, e.g. at start)
    private_changed: frozenset[int] = frozenset()
    started: bool = False
    finished: bool = False
    reply_privately: bool = False  # the caller shows a private-only change itself (no outbox entry)


def outcome_to_dict(outcome: Outcome) -> dict[str, Any]:
    return {"places": [list(p) for p in outcome.places], "reason": outcome.reason,
            "scores": {str(k): v for k, v in outcome.scores.items()}}
