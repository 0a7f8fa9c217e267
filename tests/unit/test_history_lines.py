"""A /game history line in every language: a finished game names its winner and links its result;
a game ended early says who ended it after how many moves (the language's plural), or only after
how many moves when that is not known, and links the last board it left, never a result."""
from __future__ import annotations

from typing import Any

import pytest

from bot.i18n import LANGUAGES
from bot.storage.games import SeatRow
from bot.storage.history import PastGame
from cogs.history import jump_link, outcome


def entry(board: str | None = "99", **fields: Any) -> PastGame:
    seats = [SeatRow(0, "1", "Ann"), SeatRow(1, "2", "Bo_b")]
    return PastGame(7, "10", "20", "zlodej", board, {"places": [[1], [0]]} if "status" not in fields else {},
                        "2026-01-01T00:00:00+00:00", seats=seats, **fields)


def test_a_finished_game_names_its_winner_and_links_its_result() -> None:
    assert outcome(entry(), "en") == "winner: **Bo\\_b**"
    assert jump_link(entry(), "en") == "[result](https://discord.com/channels/10/20/99)"
    assert jump_link(entry(board=None), "en") == "[channel](https://discord.com/channels/10/20)"


@pytest.mark.parametrize("locale", LANGUAGES)
def test_a_game_ended_early_says_who_ended_it_and_after_how_many_moves(locale: str) -> None:
    ended = entry(status="aborted", moves=3, ended_by="Bo_b")
    text = outcome(ended, locale)
    assert "**Bo\\_b**" in text and " 3 " in text
    unknown = outcome(entry(status="aborted", moves=3), locale)
    assert " 3 " in unknown and "**" not in unknown
    link = jump_link(ended, locale)
    assert link.endswith("(https://discord.com/channels/10/20/99)") and link != jump_link(entry(), locale)


def test_the_moves_take_the_languages_plural() -> None:
    assert outcome(entry(status="aborted", moves=1, ended_by="Ann"), "en") == "ended early by **Ann** after 1 move"
    assert outcome(entry(status="aborted", moves=0), "en") == "ended early after 0 moves"
    assert outcome(entry(status="aborted", moves=1, ended_by="Ann"), "cs").endswith("po 1 tahu")
    assert outcome(entry(status="aborted", moves=3, ended_by="Ann"), "cs").endswith("po 3 tazích")
    assert outcome(entry(status="aborted", moves=2, ended_by="Ann"), "sv").endswith("efter 2 drag")
    assert jump_link(entry(status="aborted"), "en") == "[last board](https://discord.com/channels/10/20/99)"


def test_shared_places_are_counted_as_in_a_race() -> None:
    from bot.services.text import place_lines

    lines = place_lines([[0], [1, 2], [3]], ["A", "B", "C", "D"], "en")
    assert lines == ["1. A", "2. B, C", "4. D"]
