"""A move whose first response comes after Discord's 3 s (a machine short of CPU): Discord refuses
it (10062 Unknown interaction) and will refuse any reply, so the bot logs one line and sends
nothing more; the move was not made."""
from __future__ import annotations

import logging

import pytest

from tests.discord.conftest import BotFactory
from tests.discord.helpers import tolp_command
from tests.fakediscord import FakeDiscord, settle


async def test_a_move_acknowledged_too_late_is_logged_in_one_line_and_answered_no_more(
        fake: FakeDiscord, make_bot: BotFactory, caplog: pytest.LogCaptureFixture) -> None:
    bot = await make_bot()
    users = fake.add_members(3)
    new = await fake.interact(bot, fake.slash(users[0], "game new", game="tolp"))
    for user in users[1:]:
        await fake.interact(bot, fake.slash(user, "game join"))
    await fake.interact(bot, fake.click(users[0], new.original, label="Start"))
    await settle(bot)
    record = await bot.service.current(fake.channel_id)
    seat = min(bot.service.to_act(record))
    player = next(u for u in users if u["id"] == record.user_of(seat))
    legal = bot.service.legal_texts(record, seat)
    command, options = tolp_command(legal[0])
    before = len(fake.requests)
    fake.response_deadline = 0.0  # every first response now comes too late
    with caplog.at_level(logging.WARNING):
        late = await fake.interact(bot, fake.slash(player, command, options))
        await settle(bot)
    fake.response_deadline = 3.0
    assert late.status == 404 and late.initial.response["code"] == 10062
    assert [f"{r.method} {r.route.split('/')[1]}" for r in fake.requests[before:]] == ["POST interactions"]
    assert fake.errors == [] and [v.code for v in fake.violations] == [10062]
    warned = [r for r in caplog.records if "not acknowledged within" in r.getMessage()]
    assert len(warned) == 1 and warned[0].exc_info is None
    assert (await bot.service.current(fake.channel_id)).ply == record.ply  # the move was not made
