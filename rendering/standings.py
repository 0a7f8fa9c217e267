"""The end of a game as a reader sees it, from an observation: every player's place (equal results
share one), score and whether they won, and the reason in words.

An observation may carry the game's stored outcome (``obs["outcome"]``: ``places``, ``reason``,
``scores``, as bot.services writes it); without one the places are read from the public view the
way each engine ranks them, so the result picture and its alt text never need a state.
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from bot.engine import registry

# (places, reason key, scores by seat, seats out): what a game's renderer reads from a finished
# game's public view (``result_places``)
Places = tuple[list[list[int]], str, dict[int, int], set[int]]


@dataclass(frozen=True)
class Standing:
    place: int  # 1-based; tied players share it
    seat: int
    score: int | None
    winner: bool
    out: bool = False  # resigned, bankrupt or left the town


@dataclass(frozen=True)
class Standings:
    rows: tuple[Standing, ...]
    reason: str  # an i18n key

    @property
    def winners(self) -> tuple[int, ...]:
        return tuple(row.seat for row in self.rows if row.winner)


def ranked(scores: Mapping[int, int], playing: Sequence[int], out: Sequence[int]) -> list[list[int]]:
    """Places by score, highest first (equal scores share), then everyone out, together."""
    places = [[s for s in playing if scores[s] == value] for value in sorted({scores[s] for s in playing},
                                                                             reverse=True)]
    return places + [list(out)] if out else places


def _from_public(game: str, pub: Mapping[str, Any]) -> Places:
    """(places, reason key, scores by seat, seats out) read from a finished game's public view, the
    way the game ranks them (its renderer's ``result_places``)."""
    places: Places = registry.renderer(game).result_places(pub)
    return places


def standings(obs: Mapping[str, Any]) -> Standings:
    game = str(obs["game"])
    places, reason, scores, out = _from_public(game, obs["public"])
    stored = obs.get("outcome")
    if stored:
        places = [list(p) for p in stored["places"]]
        reason = str(stored.get("reason") or reason)
        scores = {int(k): int(v) for k, v in (stored.get("scores") or {}).items()} or scores
    # everyone sharing the only place is a draw: nobody is crowned
    drawn = len(places) == 1 and len(places[0]) > 1
    rows: list[Standing] = []
    place = 1
    for group in places:
        for seat in group:
            rows.append(Standing(place, seat, scores.get(seat), place == 1 and not drawn and seat not in out,
                                 seat in out))
        place += len(group)
    return Standings(tuple(rows), reason)


def score_text(game: str, score: int | None, locale: str) -> str:
    """A player's result in the game's own terms (its renderer's ``score_text``): points, Kung
    titles, net worth or money."""
    if score is None:
        return ""
    text: str = registry.renderer(game).score_text(score, locale)
    return text
