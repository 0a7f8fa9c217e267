"""cogs/ending.py keeps a finished game's luck and title lines until its result is written. Game ids
restart in another database the same process opens (each test's, a restored backup's), so two
games with the same id and version must never share lines: one game's luck line on another's
result (or none where it has dice) is what a stale key gave."""
from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from bot.storage.games import GameRow
from cogs import ending


def a_finished_game(**changes: Any) -> GameRow:
    fields = {name: None for name in GameRow.__dataclass_fields__}
    fields.update(id=1, version=5, channel_id="100", seed="seed-a", game="monopol", status="finished",
                  guild_settings={}, locale="en")
    return replace(GameRow(**fields), **changes)  # type: ignore[arg-type]


async def test_two_games_with_the_same_id_and_version_keep_their_own_lines(monkeypatch: pytest.MonkeyPatch) -> None:
    async def end_lines(service: Any, record: GameRow, locale: str) -> list[str]:
        return [f"luck of {record.seed} in {record.channel_id}"]

    monkeypatch.setattr(ending, "end_lines", end_lines)
    monkeypatch.setattr(ending, "_PREPARED", type(ending._PREPARED)())
    bot: Any = type("Bot", (), {"service": None})()
    first, other_db, other_channel = (a_finished_game(), a_finished_game(seed="seed-b"),
                                      a_finished_game(channel_id="200"))
    for record in (first, other_db, other_channel):
        await ending.prepare(bot, record)
    assert ending.lines(first) == "\nluck of seed-a in 100"
    assert ending.lines(other_db) == "\nluck of seed-b in 100"
    assert ending.lines(other_channel) == "\nluck of seed-a in 200"
