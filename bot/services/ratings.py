"""Ratings per server and per game with openskill (Plackett-Luce): multiplayer places and ties,
computer seats rated too (by their seat name). Recomputed from the stored results in game order,
so a rebuild gives the same numbers."""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from openskill.models import PlackettLuce

from bot.storage.games import GameRow


@dataclass
class Rating:
    name: str
    mu: float
    sigma: float
    games: int = 0
    wins: int = 0

    @property
    def shown(self) -> float:
        """The conservative rating players see (mu - 3 sigma, scaled as on most ladders)."""
        return round((self.mu - 3 * self.sigma) * 40 + 1000, 1)


def player_key(user_id: str | None, name: str) -> str:
    return user_id or f"computer:{name}"


def rate(finished: Sequence[GameRow], game: str) -> dict[str, Rating]:
    """Every player's rating in ``game`` after the finished games (oldest first)."""
    model = PlackettLuce()
    ratings: dict[str, Rating] = {}
    for record in sorted(finished, key=lambda r: r.id):
        places = (record.outcome or {}).get("places", [])
        if record.game != game or len(record.seats) < 2 or not places:
            continue
        rank_of: dict[int, int] = {}
        for position, group in enumerate(places, start=1):
            for seat in group:
                rank_of[seat] = position
        keys = [player_key(s.user_id, s.name) for s in record.seats]
        for seat_row, key in zip(record.seats, keys, strict=True):
            entry = ratings.setdefault(key, Rating(seat_row.name, model.mu, model.sigma))
            entry.name = seat_row.name
        teams = [[model.rating(mu=ratings[k].mu, sigma=ratings[k].sigma)] for k in keys]
        last = max(rank_of.values(), default=0) + 1
        ranks = [float(rank_of.get(s.seat, last)) for s in record.seats]
        for key, (new,), rank in zip(keys, model.rate(teams, ranks=ranks), ranks, strict=True):
            entry = ratings[key]
            entry.mu, entry.sigma = new.mu, new.sigma
            entry.games += 1
            entry.wins += rank == 1
    return ratings


def ladder(ratings: dict[str, Rating]) -> list[Rating]:
    return sorted(ratings.values(), key=lambda r: (-r.shown, r.name))
