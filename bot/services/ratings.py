"""Ratings per server and per game with openskill (Plackett-Luce): multiplayer places and ties,
computer seats rated too (by their seat name). Games are rated in the order they finished, each on
top of the ratings before it; rating the same games in the same order always gives the same
numbers, and each game also yields every seat's rating before and after it (a player's own history
in ``/game stats``). The ratings are kept in the database (bot/services/ratings_kept.py)."""
from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Protocol

from openskill.models import PlackettLuce

from bot.storage.ratings import Change, Rating, shown
from bot.storage.standings import places_of

__all__ = ["Change", "Rated", "Rating", "Result", "ladder", "player_key", "rate", "recompute", "shown"]


class _Seat(Protocol):
    """A seat as ratings read it (a stored SeatRow or a frozen ratings Seat): read only."""

    @property
    def seat(self) -> int: ...

    @property
    def user_id(self) -> str | None: ...

    @property
    def name(self) -> str: ...


class Result(Protocol):
    """A finished game as ratings read it (a stored GameRow or a history row)."""

    @property
    def id(self) -> int: ...

    @property
    def game(self) -> str: ...

    @property
    def outcome(self) -> dict[str, Any] | None: ...

    @property
    def seats(self) -> Sequence[_Seat]: ...


@dataclass
class Rated:
    ratings: dict[str, Rating] = field(default_factory=dict)
    changes: list[Change] = field(default_factory=list)  # every seat of every rated game, in rating order

    def history(self, player: str) -> list[Change]:
        """The player's games, oldest first."""
        return [c for c in self.changes if c.player == player]


def player_key(user_id: str | None, name: str) -> str:
    return user_id or f"computer:{name}"


def recompute(finished: Iterable[Result], game: str, start: Rated | None = None) -> Rated:
    """Every player's rating in ``game`` after the finished games, rated in the order given (the
    order they finished), and each game's changes; continued from ``start`` (left unchanged) when
    given: the ratings after the games before these (only those of the players in these games are
    needed)."""
    model = PlackettLuce()
    out = Rated() if start is None else Rated({k: replace(r) for k, r in start.ratings.items()}, list(start.changes))
    ratings = out.ratings
    for record in finished:
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
        number = getattr(record, "number", 0)
        out.changes += [Change(record.id, finished_at, key, place_of.get(s.seat), len(record.seats), before[key],
                               ratings[key].shown, s.seat, number) for s, key in zip(record.seats, keys, strict=True)]
    return out


def rate(finished: Iterable[Result], game: str) -> dict[str, Rating]:
    """Every player's rating in ``game`` after the finished games (in the order given)."""
    return recompute(finished, game).ratings


def ladder(ratings: dict[str, Rating]) -> list[Rating]:
    return sorted(ratings.values(), key=lambda r: (-r.shown, r.name))
