"""A slash command's move is stored with its interaction id: the same interaction delivered again
(to this process after a restart, or to another) changes nothing."""
from __future__ import annotations

import pytest

from bot.errors import AlreadyApplied
from bot.services.table import GameService
from tests.services.test_table import started


async def test_the_same_interaction_delivered_twice_moves_once(service: GameService) -> None:
    await started(service)
    record = await service.current("c")
    assert record is not None
    await service.act(user_id="u0", action="add 2", channel_id="c", interaction_id="9001")
    after_first = await service.current("c")
    with pytest.raises(AlreadyApplied):
        await service.act(user_id="u1", action="add 3", channel_id="c", interaction_id="9001")
    again = await service.current("c")
    assert again is not None and after_first is not None
    assert (again.ply, again.version, again.state) == (after_first.ply, after_first.version, after_first.state)
    assert [m[2] for m in await service.moves(record.id)] == ["add 2"]
    await service.act(user_id="u1", action="add 3", channel_id="c", interaction_id="9002")  # a new one plays
