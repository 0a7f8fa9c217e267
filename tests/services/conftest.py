from __future__ import annotations

from collections.abc import AsyncIterator, Iterator

import pytest
import pytest_asyncio

from bot.engine import registry
from bot.services.table import GameService
from bot.storage.db import Database
from tests.toygame import ToyGame


@pytest.fixture
def toy() -> Iterator[ToyGame]:
    game = ToyGame()
    registry.register(game)
    yield game
    registry._GAMES.pop(game.name, None)


@pytest_asyncio.fixture
async def db(database_url: str) -> AsyncIterator[Database]:
    database = Database(database_url)
    await database.connect()
    yield database
    await database.close()


@pytest_asyncio.fixture
async def service(db: Database, toy: ToyGame) -> GameService:
    return GameService(db)
