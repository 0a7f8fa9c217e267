"""Ratings per server and per game with openskill (Plackett-Luce): multiplayer places and ties,
computer seats rated too (by their seat name). Recomputed from the stored results in game order,
so a rebuild gives the same numbers; the recomputation also yields every seat's rating before and
after each game (a player's own history in ``/game stats``)."""
from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Protocol

from openskill.models import PlackettLuce

from bot.storage.standings import places_of


class _Seat(Protocol):
    seat: int
    user_id: str | None
    name: str


class Result(Protocol):
    """A finished game as ratings read it (a stored GameRow or a history row)."""

    id: int
    game: str

    @property
    def outcome(self) -> dict[str, Any] | None: ...

    @property
    def seats(self) -> Sequence[_Seat]: ...


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
        return shown(self.mu, self.sigma)


def shown(mu: float, sigma: float) -> float:
    return round((mu - 3 * sigma) * 40 + 1000, 1)


@dataclass(frozen=True)
class Change:
    """One seat's rating in one finished game: its place (1 = first; tied seats share it)."""

    game_id: int
    finished_at: str | None
    player: str
    place: int | None
    players: int
    before: float
    after: float


@dataclass
class Rated:
    ratings: dict[str, Rating] = field(default_factory=dict)
    changes: list[Change] = field(default_factory=list)  # every seat of every rated game, in game order

    def history(self, player: str) -> list[Change]:
        """The player's games, oldest first."""
        return [c for c in self.changes if c.player == player]


def player_key(user_id: str | None, name: str) -> str:
    return user_id or f"computer:{name}"


def recompute(finished: Iterable[Result], game: str, start: Rated | None = None) -> Rated:
    """Every player's rating in ``game`` after the finished games, and each game's changes;
    continued from ``start`` (left unchanged) when given: the ratings after the games before these."""
    model = PlackettLuce()
    out = Rated() if start is None else Rated({k: replace(r) for k, r in start.ratings.items()}, list(start.changes))
    ratings = out.ratings
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
        before = {k: ratings[k].shown for k in keys}
        teams = [[model.rating(mu=ratings[k].mu, sigma=ratings[k].sigma)] for k in keys]
        last = max(rank_of.values(), default=0) + 1
        ranks = [float(rank_of.get(s.seat, last)) for s in record.seats]
        for key, (new,), rank in zip(keys, model.rate(teams, ranks=ranks), ranks, strict=True):
            entry = ratings[key]
            entry.mu, entry.sigma = new.mu, new.sigma
            entry.games += 1
            entry.wins += rank == 1
        place_of = places_of(record.outcome or {})
        finished_at = getattr(record, "finished_at", None)
        out.changes += [Change(record.id, finished_at, key, place_of.get(s.seat), len(record.seats), before[key],
                               ratings[key].shown) for s, key in zip(record.seats, keys, strict=True)]
    return out


def rate(finished: Iterable[Result], game: str) -> dict[str, Rating]:
    """Every player's rating in ``game`` after the finished games (oldest first)."""
    return recompute(finished, game).ratings


def ladder(ratings: dict[str, Rating]) -> list[Rating]:
    return sorted(ratings.values(), key=lambda r: (-r.shown, r.name))
