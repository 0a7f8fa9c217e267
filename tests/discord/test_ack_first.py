"""Acknowledge first: while the database writer is busy (a long transaction holds its lock), a move
is still deferred at once and a read-only command (/rules, /game status) is answered in full; the
move itself goes through once the writer is free."""
from __future__ import annotations

import asyncio

from bot.storage import games
from tests.backends import on_both_backends
from tests.discord.conftest import BotFactory
from tests.discord.helpers import latest_board, tolp_command
from tests.fakediscord import FakeDiscord, settle


async def start_tolp(fake: FakeDiscord, bot, users):  # type: ignore[no-untyped-def]
    await fake.interact(bot, fake.slash(users[0], "game new", game="tolp"))
    for user in users[1:]:
        await fake.interact(bot, fake.slash(user, "game join"))
    await fake.interact(bot, fake.slash(users[0], "game start"))
    return latest_board(fake)


@on_both_backends
async def test_acks_and_reads_do_not_wait_for_the_writer(fake: FakeDiscord, make_bot: BotFactory) -> None:
    bot = await make_bot()
    users = fake.add_members(3)
    await start_tolp(fake, bot, users)
    record = await bot.service.current(fake.channel_id)
    assert record is not None
    seat = min(bot.service.to_act(record))
    mover = next(u for u in users if u["id"] == record.user_of(seat))
    command, options = tolp_command(bot.service.legal_texts(record, seat)[0])
    move = fake.slash(mover, command, **options)

    holding, release = asyncio.Event(), asyncio.Event()

    async def hold_the_writer() -> None:
        async with bot.db.transaction() as conn:  # SQLite: the one writer; PostgreSQL: the table's row
            await games.get(conn, record.id, lock=True)
            holding.set()
            await release.wait()

    holder = asyncio.create_task(hold_the_writer())
    await holding.wait()
    try:
        fake.inject(bot, move)
        ack = await fake.wait_request(lambda r: r.interaction_id == move["id"] and r.path.endswith("/callback"),
                                      timeout=5)
        assert ack.status == 204 and ack.json["type"] == 5  # deferred while the writer is still held
        rules = await fake.interact(bot, fake.slash(users[1], "rules", game="tolp", topic=""))
        assert rules.ok and "Topics" in rules.text
        status = await fake.interact(bot, fake.slash(users[2], "game status"))
        assert status.ok and status.files
        assert (await bot.service.current(fake.channel_id)).version == record.version  # not applied yet
    finally:
        release.set()
        await holder
    await settle(bot)
    after = await bot.service.current(fake.channel_id)
    assert after is not None and after.ply > record.ply
    fake.assert_clean()


@on_both_backends
async def test_a_dm_after_a_restart_is_one_rest_call(fake: FakeDiscord, make_bot: BotFactory) -> None:
    bot = await make_bot()
    users = fake.add_members(3)
    await start_tolp(fake, bot, users)
    # the first hands of the players not at the table went by DM: their DM channels opened once
    # (the starter's and the seat on turn's rode their own interactions)
    opened = {str((r.json or {})["recipient_id"]) for r in fake.requests if r.route == "/users/@me/channels"}
    assert opened
    for user in users:  # turn DMs: a player's view with its controls when their turn comes
        assert (await fake.interact(bot, fake.slash(user, "game prefs", ping=True))).ok
    await fake.close_bot(bot)

    restarted = await make_bot()  # a new process: discord.py's own DM cache is empty
    record = await restarted.service.current(fake.channel_id)
    assert record is not None
    since = len(fake.requests)
    for _ in range(3):
        seat = min(restarted.service.to_act(record))
        mover = next(u for u in users if u["id"] == record.user_of(seat))
        command, options = tolp_command(restarted.service.legal_texts(record, seat)[0])
        assert (await fake.interact(restarted, fake.slash(mover, command, **options))).ok
        record = await restarted.service.current(fake.channel_id)
        assert record is not None
    later = fake.requests[since:]
    dm_ids = {fake.dm_channel(u)["id"] for u in users}
    assert any(r.method == "POST" and r.route == f"/channels/{dm}/messages" for r in later for dm in dm_ids)
    assert not [r for r in later if r.route == "/users/@me/channels" and str((r.json or {})["recipient_id"]) in opened]
    fake.assert_clean()
