"""#27 point 6, /game forget-me: it asks first (only to the asker, with a confirm button nobody else
can press), Cancel deletes nothing, Forget me deletes the player's preferences and anonymises
them in their games; their history, replays and exports then show the anonymous name."""
from __future__ import annotations

from tests.backends import on_both_backends
from tests.discord.conftest import BotFactory
from tests.fakediscord import FakeDiscord


@on_both_backends
async def test_privacy_forget_me_asks_then_forgets(fake: FakeDiscord, make_bot: BotFactory) -> None:
    bot = await make_bot()
    ann, bo = fake.add_members(2)
    await fake.interact(bot, fake.slash(ann, "game prefs", timezone="Europe/Oslo"))
    await fake.interact(bot, fake.slash(ann, "game new", game="tolp"))
    await fake.interact(bot, fake.slash(bo, "game join"))
    await fake.interact(bot, fake.slash(ann, "game start"))
    record = await bot.service.current(fake.channel_id)
    assert record is not None

    busy = await fake.interact(bot, fake.slash(ann, "game forget-me"))
    asked = busy.messages[-1]
    assert asked.ephemeral and "Forget me?" in asked.content
    confirm = next(b["custom_id"] for b in asked.buttons if b["custom_id"].endswith(":yes"))
    cancel = next(b["custom_id"] for b in asked.buttons if b["custom_id"].endswith(":no"))
    refused = await fake.interact(bot, fake.click(ann, asked, confirm))  # still at the running table
    assert f"#{record.id}" in refused.text and "/game resign" in refused.text
    await fake.interact(bot, fake.slash(ann, "game end"))

    stranger = await fake.interact(bot, fake.click(bo, asked, confirm))
    assert "Only the player who asked" in stranger.text
    kept = await fake.interact(bot, fake.click(ann, asked, cancel))
    assert "Nothing was deleted" in fake.message(asked.id).content and kept.ok
    assert (await bot.players.prefs(str(ann["id"]))).time_zone == "Europe/Oslo"

    again = (await fake.interact(bot, fake.slash(ann, "game forget-me"))).messages[-1]
    done = await fake.interact(bot, fake.click(ann, again, confirm))
    assert done.ok
    said = fake.message(again.id).content
    assert "Done" in said and "Anon " in said and not fake.message(again.id).buttons
    async with bot.db.reading() as conn:
        rows = await conn.execute_fetchall("SELECT time_zone, locale, dm_channel_id FROM user_prefs WHERE user_id = ?",
                                           (str(ann["id"]),))
    assert [tuple(r) for r in rows] in ([], [(None, None, None)])
    assert (await bot.players.prefs(str(ann["id"]))).time_zone is None
    ended = await bot.service.get(record.id)
    assert str(ann["id"]) not in [s.user_id for s in ended.seats] and "player1" not in ended.names
    history = await fake.interact(bot, fake.slash(bo, "game history"))
    assert "Anon " in history.text and "player1" not in history.text
    fake.assert_clean()
