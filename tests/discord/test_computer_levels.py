"""Computer levels as a player sets them in Discord: ``/game new computers: level:``, the lobby's
"+ Computer" button (the table's level) and ``/game computer level:``; the seats are named with
their level, and an unknown level is refused by name, changing nothing."""
from __future__ import annotations

from tests.discord.conftest import BotFactory
from tests.fakediscord import FakeDiscord


async def test_a_table_seats_computers_at_the_levels_asked_for(fake: FakeDiscord, make_bot: BotFactory) -> None:
    bot = await make_bot()
    ann = fake.add_member("ann")
    r = await fake.interact(bot, fake.slash(ann, "game new", game="tolp", computers=1, level="strong"))
    assert r.ok, r.text
    lobby = fake.channel_messages()[-1]
    assert "Computer 1 (strong)" in lobby.content
    assert "+ Computer (strong)" in [b.get("label") for b in lobby.buttons]
    r = await fake.interact(bot, fake.click(ann, lobby, label="+ Computer (strong)"))
    assert r.ok, r.text
    assert "Computer 2 (strong) sat down" in fake.channel_messages()[-1].content
    r = await fake.interact(bot, fake.slash(ann, "game computer", level="easy"))
    assert r.ok, r.text
    record = await bot.service.current(fake.channel_id)
    assert record is not None
    assert [(s.name, s.level) for s in record.seats[1:]] == [
        ("Computer 1 (strong)", "strong"), ("Computer 2 (strong)", "strong"), ("Computer 3 (easy)", "easy")]
    assert (await fake.interact(bot, fake.slash(ann, "game start"))).ok
    fake.assert_clean()


async def test_an_unknown_level_is_refused_by_name(fake: FakeDiscord, make_bot: BotFactory) -> None:
    bot = await make_bot()
    ann = fake.add_member("ann")
    r = await fake.interact(bot, fake.slash(ann, "game new", game="tolp", computers=1, level="grandmaster"))
    assert "grandmaster" in r.text and "easy, normal, strong" in r.text, r.text
    assert await bot.service.current(fake.channel_id) is None
