"""`/game new thread:` — a table in its own public thread: lobby link in the parent, the game
played inside the thread, the thread archived once the result is posted."""
from __future__ import annotations

from tests.backends import on_both_backends
from tests.discord.conftest import BotFactory
from tests.discord.helpers import decoded, tolp_command
from tests.fakediscord import FakeDiscord, settle


@on_both_backends
async def test_a_table_in_its_own_thread_is_played_there_and_archived(fake: FakeDiscord,
                                                                       make_bot: BotFactory) -> None:
    bot = await make_bot()
    users = fake.add_members(2)
    by_id = {u["id"]: u for u in users}

    r = await fake.interact(bot, fake.slash(users[0], "game new", game="tolp", thread=True,
                                            options="scoring=rounds rounds=1"))
    assert r.ok, r.text
    await settle(bot)
    threads = [c for c in fake.channels.values() if c.get("parent_id") == fake.channel_id and c["type"] == 11]
    assert len(threads) == 1
    thread = threads[0]
    assert "Tölp" in thread["name"]

    # the parent channel links to the thread; the lobby with its buttons is in the thread
    parent = [m for m in fake.channel_messages() if m.kind == "channel"]
    assert len(parent) == 1 and f"<#{thread['id']}>" in parent[0].content and not parent[0].components
    lobby = next(m for m in fake.channel_messages(thread) if m.components)
    assert await bot.service.current(fake.channel_id) is None  # the parent has no table of its own
    record = await bot.service.current(thread["id"])
    assert record is not None and record.status == "lobby"

    # join and start inside the thread; a join in the parent finds no table there
    outside = await fake.interact(bot, fake.slash(users[1], "game join"))
    assert outside.ephemeral
    assert (await fake.interact(bot, fake.click(users[1], lobby, label="Join"))).ok
    assert (await fake.interact(bot, fake.slash(users[0], "game start", channel=thread))).ok

    moves = 0
    while (record := await bot.service.current(thread["id"])) is not None:
        seat = min(bot.service.to_act(record))
        legal = bot.service.legal_texts(record, seat)
        action = next((a for a in legal if a.startswith("play")), legal[0])
        command, options = tolp_command(action)
        r = await fake.interact(bot, fake.slash(by_id[record.user_of(seat)], command, options, channel=thread))
        assert r.ok, r.text
        moves += 1
        assert moves < 300
    await settle(bot)

    finished = await bot.service.latest(thread["id"])
    assert finished.status == "finished"
    # the boards are in the thread, none in the parent; the last one carries the result
    posted = [m for m in fake.channel_messages(thread) if m.kind == "channel" or (m.kind == "followup"
                                                                                  and not m.ephemeral)]
    assert [m for m in posted if m.files] == [posted[-1]]
    assert "seed" in posted[-1].content
    decoded(posted[-1].files[0].data)
    assert not [m for m in fake.channel_messages() if m.files]
    # archived after the result was posted
    assert thread["thread_metadata"]["archived"] is True
    archive = next(i for i, q in enumerate(fake.requests) if q.method == "PATCH"
                   and q.path.endswith(f"/channels/{thread['id']}") and (q.json or {}).get("archived"))
    result_post = max(i for i, q in enumerate(fake.requests) if q.method == "POST" and q.status == 200
                      and (q.response or {}).get("id") == posted[-1].id)
    assert result_post < archive

    # a later post (the rematch's lobby) unarchives the thread
    rematch = await fake.interact(bot, fake.click(users[0], posted[-1], label="Rematch"))
    assert rematch.ok, rematch.text
    await settle(bot)
    again = await bot.service.current(thread["id"])
    assert again is not None and again.status == "lobby"
    assert thread["thread_metadata"]["archived"] is False and fake.unarchived == [thread["id"]]
    fake.assert_clean()


async def test_a_thread_table_cannot_be_opened_from_inside_a_thread(fake: FakeDiscord, make_bot: BotFactory) -> None:
    bot = await make_bot()
    user = fake.add_member("ann")
    inner = fake.add_thread("talk", owner=user)
    before = len(fake.channels)
    r = await fake.interact(bot, fake.slash(user, "game new", game="tolp", thread=True, channel=inner))
    assert r.ephemeral and "text channel" in r.text
    assert len(fake.channels) == before
    assert await bot.service.current(inner["id"]) is None
    fake.assert_clean()


async def test_ending_a_thread_table_archives_its_thread_after_the_last_board(fake: FakeDiscord,
                                                                            make_bot: BotFactory) -> None:
    bot = await make_bot()
    users = fake.add_members(2)
    assert (await fake.interact(bot, fake.slash(users[0], "game new", game="zlodej", thread=True))).ok
    await settle(bot)
    (thread,) = [c for c in fake.channels.values() if c.get("parent_id") == fake.channel_id and c["type"] == 11]
    assert (await fake.interact(bot, fake.slash(users[1], "game join", channel=thread))).ok
    assert (await fake.interact(bot, fake.slash(users[0], "game start", channel=thread))).ok
    await settle(bot)
    board = next(m for m in reversed(fake.channel_messages(thread)) if m.files)

    end = await fake.interact(bot, fake.slash(users[0], "game end", channel=thread))
    assert end.ok and not end.ephemeral and "seed" in end.text
    await settle(bot)
    assert (await bot.service.latest(thread["id"])).status == "aborted"
    assert thread["thread_metadata"]["archived"] is True
    # the answer and the superseded board (edited down to its summary) come before the archiving
    archive = next(i for i, q in enumerate(fake.requests) if q.method == "PATCH"
                   and q.path.endswith(f"/channels/{thread['id']}") and (q.json or {}).get("archived"))
    superseded = max(i for i, q in enumerate(fake.requests) if q.method == "PATCH"
                     and q.path.endswith(f"/messages/{board.id}"))
    answered = max(fake.requests.index(q) for q in end.requests)
    assert answered < archive and superseded < archive
    assert not board.files and not board.components
    assert fake.unarchived == []
    fake.assert_clean()


async def test_ending_a_thread_table_in_its_lobby_archives_its_thread(fake: FakeDiscord,
                                                                      make_bot: BotFactory) -> None:
    bot = await make_bot()
    user = fake.add_member("ann")
    assert (await fake.interact(bot, fake.slash(user, "game new", game="tolp", thread=True))).ok
    await settle(bot)
    (thread,) = [c for c in fake.channels.values() if c.get("parent_id") == fake.channel_id and c["type"] == 11]
    assert thread["thread_metadata"]["archived"] is False
    end = await fake.interact(bot, fake.slash(user, "game end", channel=thread))
    assert end.ok and not end.ephemeral
    await settle(bot)
    assert (await bot.service.latest(thread["id"])).status == "aborted"
    assert thread["thread_metadata"]["archived"] is True
    fake.assert_clean()
