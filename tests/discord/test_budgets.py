"""#27 point 2 at the table: expensive presses over budget get a clear, translated "try again in
N s" and cost nothing; /game new thread: checks the player's own Create Public Threads permission;
/game vacation answers once it is saved even when one of the player's tables sits in a deleted
channel (each table told after, paced, a failure logged in one line)."""
from __future__ import annotations

import logging

import pytest

from bot.services.user_budget import Budgets, Rate
from tests.discord.conftest import BotFactory
from tests.fakediscord import DEFAULT_PERMISSIONS, FakeDiscord

CREATE_PUBLIC_THREADS = 1 << 35


class Clock:
    now = 0.0

    def __call__(self) -> float:
        return self.now


async def test_budgets_replay_presses_over_budget_try_again_in_n_seconds(fake: FakeDiscord,
                                                                          make_bot: BotFactory) -> None:
    bot = await make_bot()
    clock = Clock()
    bot.budgets = Budgets(user=Rate(capacity=3, per_second=0.1), clock=clock)
    ann, bo = fake.add_members(2)
    swede = fake.add_member("sven", locale="sv-SE")
    await fake.interact(bot, fake.slash(ann, "game new", game="tolp"))
    await fake.interact(bot, fake.slash(bo, "game join"))
    await fake.interact(bot, fake.slash(ann, "game start"))
    record = await bot.service.current(fake.channel_id)
    assert record is not None
    await fake.interact(bot, fake.slash(ann, "game end"))
    opened = await fake.interact(bot, fake.slash(ann, "game replay", game=record.id))
    assert opened.files
    for _ in range(2):
        assert (await fake.interact(bot, fake.slash(ann, "game replay", game=record.id))).files
    over = await fake.interact(bot, fake.slash(ann, "game replay", game=record.id))
    assert "try again in 10 s" in over.text and over.messages[-1].ephemeral and not over.files
    for _ in range(4):  # the Swede's own budget (three), in Swedish
        said = await fake.interact(bot, fake.slash(swede, "game replay", game=record.id))
    assert "försök igen om 10 s" in said.text
    clock.now += 10
    assert (await fake.interact(bot, fake.slash(ann, "game replay", game=record.id))).files
    fake.assert_clean()


async def test_budgets_game_new_thread_checks_the_players_own_permission(fake: FakeDiscord,
                                                                         make_bot: BotFactory) -> None:
    bot = await make_bot()
    muted = fake.add_member("nothreads", permissions=DEFAULT_PERMISSIONS & ~CREATE_PUBLIC_THREADS)
    channels = len(fake.channels)
    refused = await fake.interact(bot, fake.slash(muted, "game new", game="tolp", thread=True))
    assert "may not create threads" in refused.text and refused.messages[-1].ephemeral
    assert len(fake.channels) == channels and await bot.service.current(fake.channel_id) is None
    allowed = fake.add_member("threads")
    assert (await fake.interact(bot, fake.slash(allowed, "game new", game="tolp", thread=True))).ok
    assert len(fake.channels) == channels + 1
    fake.assert_clean()


async def test_budgets_vacation_with_a_table_in_a_deleted_channel_answers_once_saved(
        fake: FakeDiscord, make_bot: BotFactory, caplog: pytest.LogCaptureFixture) -> None:
    bot = await make_bot()
    ann, bo = fake.add_members(2)
    gone = fake.add_channel("gone")
    for channel in (fake.channel, gone):
        await fake.interact(bot, fake.slash(ann, "game new", game="tolp", channel=channel))
        await fake.interact(bot, fake.slash(bo, "game join", channel=channel))
        await fake.interact(bot, fake.slash(ann, "game start", channel=channel))
    fake.channels.pop(gone["id"])  # a moderator deleted the channel
    caplog.set_level(logging.WARNING)
    answered = await fake.interact(bot, fake.slash(ann, "game vacation", days=2))
    assert "something went wrong" not in answered.text and answered.ok
    assert (await bot.players.prefs(str(ann["id"]))).vacation_until is not None
    told = [m for m in fake.channel_messages() if "player1" in m.content and m.kind == "channel"]
    assert told  # the table whose channel is still there heard it
    lines = [r for r in caplog.records if "vacation" in r.getMessage()]
    assert len(lines) == 1 and lines[0].exc_info is None
    fake.assert_clean()
