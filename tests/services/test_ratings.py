"""Ratings with openskill from stored results: places and ties, computer seats, and the same
numbers for the same games in the same order."""
from __future__ import annotations

from bot.services.ratings import ladder, rate
from bot.storage.games import GameRow, SeatRow


def finished(game_id: int, places: list[list[int]], seats: list[tuple[str | None, str]]) -> GameRow:
    return GameRow(id=game_id, guild_id="g", channel_id="c", game="tolp", status="finished", creator_id="a",
                   options={}, seed="s", state=None, version=1, ply=1, locale="en",
                   outcome={"places": places, "reason": "", "scores": {}},
                   seats=[SeatRow(i, u, n, u is None) for i, (u, n) in enumerate(seats)])


def test_places_ties_and_computers_rate_deterministically() -> None:
    seats = [("a", "Ann"), ("b", "Bo"), (None, "CPU 1")]
    games = [finished(1, [[0], [1, 2]], seats), finished(2, [[0, 1], [2]], seats),
             finished(3, [[0], [1], [2]], seats)]
    ratings = rate(games, "tolp")
    assert set(ratings) == {"a", "b", "computer:CPU 1"}
    assert ratings["a"].wins == 3 and ratings["b"].wins == 1 and ratings["computer:CPU 1"].wins == 0
    assert all(r.games == 3 for r in ratings.values())
    assert [r.name for r in ladder(ratings)] == ["Ann", "Bo", "CPU 1"]
    tied = rate(games[:1], "tolp")
    assert tied["b"].mu == tied["computer:CPU 1"].mu < tied["a"].mu  # a tie shares the place
    again = rate(games, "tolp")  # the same games in the same order: the same numbers
    assert {k: (r.mu, r.sigma) for k, r in again.items()} == {k: (r.mu, r.sigma) for k, r in ratings.items()}
    reordered = rate(list(reversed(games)), "tolp")  # rated in the order given (the order they finished)
    assert reordered["a"].mu != ratings["a"].mu and reordered["a"].wins == 3
    assert rate(games, "zlodej") == {}
