"""Damaged pages found during play: the move is refused with a clear message, the damage is logged
once with the game's id, and the other tables play on."""
from __future__ import annotations

from datetime import datetime, timedelta
from pathlib import Path

import pytest

from tests.discord.conftest import BotFactory
from tests.fakediscord import FakeDiscord

PAGE = 4096


@pytest.mark.sqlite_only
async def test_a_table_on_damaged_pages_is_refused_and_the_others_play_on(fake: FakeDiscord, make_bot: BotFactory,
                                                                           tmp_path: Path) -> None:
    bot = await make_bot()
    alice, bob = fake.add_member("alice"), fake.add_member("bob")
    other = fake.add_channel("other")
    for user, channel in ((alice, fake.channel), (bob, other)):
        await fake.interact(bot, fake.slash(user, "game new", game="monopol", computers=5, channel=channel))
        await fake.interact(bot, fake.slash(user, "game start", channel=channel))
    damaged = await bot.service.current(fake.channel_id)
    healthy = await bot.service.current(other["id"])
    assert damaged is not None and healthy is not None
    await bot.db.conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    await fake.close_bot(bot)
    await bot.db.close()

    # zero the page that holds the first table's row (a Monopol row fills most of a page)
    path = Path(bot.db.path)
    data = bytearray(path.read_bytes())
    where = data.find(damaged.seed.encode())
    start = where // PAGE * PAGE
    assert where > PAGE and healthy.seed.encode() not in data[start:start + PAGE]
    data[start:start + PAGE] = bytes(PAGE)
    path.write_bytes(bytes(data))

    bot = await make_bot()
    refused = await fake.interact(bot, fake.slash(alice, "monopol roll"))
    assert refused.ephemeral and "could not be read (the database is damaged)" in refused.text
    assert len(fake.errors) == 1 and f"game {damaged.id} " in fake.errors[0], fake.errors
    status = await fake.interact(bot, fake.slash(alice, "game status"))
    assert status.ephemeral and "damaged" in status.text

    before = len(fake.channel_messages(other))
    edits = len(fake.channel_messages(other)[-1].history)
    seat = next(iter(bot.service.to_act(healthy)))
    assert healthy.user_of(seat) == bob["id"]
    played = await fake.interact(bot, fake.slash(bob, "monopol roll", channel=other))
    assert played.ok and "damaged" not in played.text
    after = fake.channel_messages(other)
    # the healthy table's board shows the roll (edited in place while bob goes on acting)
    assert (len(after) > before or len(after[-1].history) > edits) and after[-1].files
    assert "bob rolls" in after[-1].content
    fake.errors.clear()  # the two refusals above logged one line each, as they should

    # the scheduler: the damaged table (logged once) does not hold back the other table's reminder
    clock = bot.get_cog("Clock")
    deadline = datetime.fromisoformat(healthy.turn_deadline)
    dms = len(fake.dms_to(bob))
    for minutes in (2, 1):
        await clock.tick(deadline - timedelta(minutes=minutes))
    assert len(fake.dms_to(bob)) > dms and "Monopol" in fake.dms_to(bob)[-1].content, fake.dms_to(bob)
    assert len(fake.errors) == 1 and f"game {damaged.id} " in fake.errors[0], fake.errors
    fake.errors.clear()
    fake.assert_clean()
