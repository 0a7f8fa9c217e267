"""Bad input gets a clear, specific, ephemeral message and changes nothing: forged and malformed
custom_ids, out-of-range values, unknown options, a stranger ending a game."""
from __future__ import annotations

import copy

from tests.discord.conftest import BotFactory
from tests.discord.helpers import assert_moved, latest_board, tolp_command
from tests.fakediscord import FakeDiscord


async def started(fake: FakeDiscord, bot, users):  # type: ignore[no-untyped-def]
    await fake.interact(bot, fake.slash(users[0], "game new", game="tolp"))
    for user in users[1:]:
        await fake.interact(bot, fake.slash(user, "game join"))
    await fake.interact(bot, fake.slash(users[0], "game start"))
    return latest_board(fake)


def forged(fake: FakeDiscord, board, custom_id: str) -> dict:  # type: ignore[type-arg]
    """The board message with its first button's custom_id replaced, as a forging client would send."""
    payload = copy.deepcopy(fake.click(fake.add_member("forger"), board, label="Show my hand"))
    payload["data"]["custom_id"] = custom_id
    for row in payload["message"]["components"]:
        for item in row.get("components", []):
            if item.get("label") == "Show my hand":
                item["custom_id"] = custom_id
    return payload


async def test_forged_and_malformed_buttons_get_a_clear_answer(fake: FakeDiscord, make_bot: BotFactory) -> None:
    bot = await make_bot()
    users = fake.add_members(3)
    board = await started(fake, bot, users)
    before = (await bot.service.current(fake.channel_id)).version
    for custom_id, expected in [("gm:zzz", "not valid"), ("gm:a:999:0:pass", "no game"),
                                ("gm:a:1:0:" + "x" * 40, "not a player"), ("gm:t:1:0:0:explode", "not valid")]:
        answer = await fake.interact(bot, forged(fake, board, custom_id))
        assert answer.ephemeral and expected in answer.text.lower(), (custom_id, answer.text)
    assert (await bot.service.current(fake.channel_id)).version == before
    fake.assert_clean()


async def test_out_of_range_and_unknown_values_are_refused_specifically(fake: FakeDiscord,
                                                                       make_bot: BotFactory) -> None:
    bot = await make_bot()
    alice, bob = fake.add_members(2)
    cases = [
        (fake.slash(alice, "game new", game="chess"), "no game called"),
        (fake.slash(alice, "game new", game="tolp", options="speed=fast"), "no option called"),
        (fake.slash(alice, "game new", game="tolp", options="scoring=sometimes"), "cannot be"),
        (fake.slash(alice, "game new", game="tolp", options="rounds=0 scoring=rounds"), "between"),
        (fake.slash(alice, "game new", game="tolp", computers=40), "at most"),
        (fake.slash(alice, "game new", game="tolp", turn_hours=9999.0), "turn time"),
        (fake.slash(alice, "game start"), "no game"),
        (fake.slash(alice, "game new", game="tolp", channel=fake.dm_channel(alice)), "only in a server"),
    ]
    for payload, expected in cases:
        answer = await fake.interact(bot, payload)
        assert answer.ephemeral and expected in answer.text.lower(), (payload["data"], answer.text)
    assert await bot.service.current(fake.channel_id) is None
    await fake.interact(bot, fake.slash(alice, "game new", game="tolp"))
    too_few = await fake.interact(bot, fake.slash(alice, "game start"))
    assert too_few.ephemeral and "needs" in too_few.text
    ended = await fake.interact(bot, fake.slash(bob, "game end"))
    assert ended.ephemeral and "only the player who created" in ended.text.lower()
    assert (await bot.service.current(fake.channel_id)) is not None
    fake.assert_clean()


async def test_a_manager_may_end_someone_elses_game(fake: FakeDiscord, make_bot: BotFactory) -> None:
    bot = await make_bot()
    alice = fake.add_member("alice")
    boss = fake.add_member("boss", manage_guild=True)
    await fake.interact(bot, fake.slash(alice, "game new", game="tolp"))
    ended = await fake.interact(bot, fake.slash(boss, "game end"))
    assert not ended.ephemeral and "ended by boss" in ended.text and "seed was" in ended.text
    assert await bot.service.current(fake.channel_id) is None
    fake.assert_clean()


async def test_a_move_stands_when_the_board_cannot_be_posted(fake: FakeDiscord, make_bot: BotFactory) -> None:
    bot = await make_bot()
    users = fake.add_members(3)
    await started(fake, bot, users)
    record = await bot.service.current(fake.channel_id)
    seat = min(bot.service.to_act(record))
    user = next(u for u in users if u["id"] == record.user_of(seat))
    play = next(a for a in bot.service.legal_texts(record, seat) if a.startswith("play"))
    fake.mute_channel(fake.channel_id)
    # a board no interaction carries (a timer's move, a token past its 15 minutes) is a channel post
    bot.get_cog("Announcer").rides.of = lambda record: None
    answer = await fake.interact(bot, fake.slash(user, "tolp play", cards=play[5:]))
    assert_moved(answer)  # acknowledged (with the mover's own new hand); its announcement is the announcer's
    assert (await bot.service.current(fake.channel_id)).ply == record.ply + 1
    # the table waits for its permission (#27.7): no ERROR, its creator is told once which one
    assert not any("could not announce" in line for line in fake.errors)
    creator = next(u for u in users if u["id"] == record.creator_id)
    assert any("Send Messages" in m.content for m in fake.dms_to(creator))


async def test_the_board_a_move_makes_rides_its_interaction_even_without_send_messages(
        fake: FakeDiscord, make_bot: BotFactory) -> None:
    bot = await make_bot()
    users = fake.add_members(3)
    await started(fake, bot, users)
    record = await bot.service.current(fake.channel_id)
    seat = min(bot.service.to_act(record))
    user = next(u for u in users if u["id"] == record.user_of(seat))
    play = next(a for a in bot.service.legal_texts(record, seat) if a.startswith("play"))
    fake.mute_channel(fake.channel_id)  # an interaction's follow-up needs no Send Messages
    answer = await fake.interact(bot, fake.slash(user, "tolp play", cards=play[5:]))
    assert_moved(answer)
    board = next(m for m in answer.followups if not m.ephemeral)
    assert board.files[0].filename == f"tolp-{record.ply + 1}.png" and board.mentions
    # the next move: its board rides its interaction, and the fold of the board above through the
    # interaction that posted it
    record = await bot.service.current(fake.channel_id)
    seat = min(bot.service.to_act(record))
    user = next(u for u in users if u["id"] == record.user_of(seat))
    legal = bot.service.legal_texts(record, seat)
    action = next((a for a in legal if a.startswith("play")), legal[0])
    command, options = tolp_command(action)
    counted = len(fake.counted_requests)
    assert_moved(await fake.interact(bot, fake.slash(user, command, options)))
    # the board, its ping and the fold of the one before: nothing counted against the global limit
    # but DMs to players whose hand the move changed
    assert all(r.route.startswith(("/users/@me/channels", "/channels/")) and
               fake.channels.get(r.route.split("/")[2], {}).get("type", 1) == 1
               for r in fake.counted_requests[counted:] if r.route.startswith("/channels/")), \
        fake.counted_requests[counted:]
    assert fake.errors == []
