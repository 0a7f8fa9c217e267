"""A server chooses its pictures' theme (``/game settings theme:``): dark unless it chose light,
kept with its settings, read with every game, and nothing else accepted."""
from __future__ import annotations

import pytest

from bot.errors import IllegalAction
from bot.services.players import Players
from bot.storage import prefs as prefs_repo
from bot.storage.db import Database
from cogs.drawing import theme


async def test_a_server_chooses_light_and_its_games_are_drawn_light(db: Database) -> None:
    players = Players(db)
    await players.set_guild_settings("g", turn_hours=5)
    await players.set_guild_settings("g", theme="light")
    async with db.reading() as conn:
        _, settings = await prefs_repo.get_guild(conn, "g")
    assert settings["theme"] == "light" and settings["turn_hours"] == 5  # the other settings stay
    await players.set_guild_settings("g", theme="dark")
    async with db.reading() as conn:
        _, settings = await prefs_repo.get_guild(conn, "g")
    assert settings["theme"] == "dark"


async def test_only_dark_and_light_are_themes(db: Database) -> None:
    with pytest.raises(IllegalAction) as refused:
        await Players(db).set_guild_settings("g", theme="sepia")
    assert refused.value.key == "prefs.error.theme"


def test_a_game_is_drawn_in_its_servers_theme_and_dark_by_default() -> None:
    from bot.storage.games import GameRow
    row = GameRow.__new__(GameRow)
    row.guild_settings = {"theme": "light"}
    assert theme(row) == "light"
    row.guild_settings = None
    assert theme(row) == "dark"
    row.guild_settings = {"theme": "<script>"}
    assert theme(row) == "dark"
