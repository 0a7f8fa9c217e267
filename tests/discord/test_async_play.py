"""A game that sits for days in the fake Discord with the clock driven by the test: the deadline
on the board, a reminder by DM, a last call in the channel when DMs are closed, the timeout vote,
and the computer player taking the absent player's seat with the others' consent."""
from __future__ import annotations

from datetime import UTC, datetime, timedelta

from bot.services.scheduler import Scheduler
from tests.backends import on_both_backends
from tests.discord.conftest import BotFactory
from tests.discord.helpers import board_posts, latest_board, tolp_command
from tests.fakediscord import FakeDiscord


class Clock:
    def __init__(self) -> None:
        self.now = datetime(2026, 5, 4, 9, 0, tzinfo=UTC)

    def __call__(self) -> datetime:
        return self.now


@on_both_backends
async def test_an_absent_player_is_reminded_then_replaced_by_the_computer(fake: FakeDiscord,
                                                                          make_bot: BotFactory) -> None:
    clock = Clock()
    bot = await make_bot(clock=clock)
    cog = bot.get_cog("Clock")
    users = fake.add_members(3)
    stranger = fake.add_member("stranger")
    by_id = {u["id"]: u for u in users}
    await fake.interact(bot, fake.slash(users[0], "game new", game="tolp", options="scoring=rounds rounds=1",
                                        turn_hours=10.0))
    for user in users[1:]:
        await fake.interact(bot, fake.slash(user, "game join"))
    await fake.interact(bot, fake.slash(users[0], "game start"))
    board = latest_board(fake)
    assert "Time to move: until <t:" in board.content

    record = await bot.service.current(fake.channel_id)
    absent = by_id[record.user_of(min(bot.service.to_act(record)))]
    others = [u for u in users if u is not absent]
    dms_before = len(fake.dms_to(absent))

    # nothing is due after 5 hours of a 10 h turn + 24 h bank
    clock.now += timedelta(hours=5)
    assert await cog.tick(clock.now) == 0
    # half of the 34 hours: a friendly reminder by DM, once
    clock.now += timedelta(hours=13)
    assert await cog.tick(clock.now) == 1
    assert await cog.tick(clock.now + timedelta(minutes=1)) == 0
    # marked delivered once Discord took the DM: neither a lease's end nor a restart sends it again
    assert await cog.tick(clock.now + timedelta(hours=1)) == 0
    bot.scheduler = Scheduler(bot.db, owner=bot.scheduler.owner)
    assert await cog.tick(clock.now + timedelta(hours=1)) == 0
    reminder = fake.dms_to(absent)[dms_before:]
    assert len(reminder) == 1 and "Friendly reminder" in reminder[0].content
    # the player closes their DMs; the last call comes in the channel, mentioning them
    fake.close_dms(absent)
    clock.now += timedelta(hours=13)
    assert await cog.tick(clock.now) == 1
    last_call = fake.channel_messages()[-1]
    assert "Last call" in last_call.content and f"<@{absent['id']}>" in last_call.content

    # the deadline passes: the table gets the vote buttons
    clock.now += timedelta(hours=4)
    assert await cog.tick(clock.now) == 1
    vote = fake.channel_messages()[-1]
    assert "run out of time" in vote.content and len(vote.buttons) == 3
    own = await fake.interact(bot, fake.click(absent, vote, label="Computer takes over"))
    assert own.ephemeral and "your own timeout" in own.text
    outsider = await fake.interact(bot, fake.click(stranger, vote, label="Computer takes over"))
    assert outsider.ephemeral and "not a player" in outsider.text
    first = await fake.interact(bot, fake.click(others[0], vote, label="Computer takes over"))
    assert first.ephemeral and "1 of 2" in first.text
    second = await fake.interact(bot, fake.click(others[1], vote, label="Computer takes over"))
    # the vote carried: its answer is the new board, riding the click's interaction (cogs/rides.py)
    assert second.ok and all(m.ephemeral or m in board_posts(fake) for m in second.messages), second.text
    record = await bot.service.current(fake.channel_id)
    seat = next(s.seat for s in record.seats if s.user_id == absent["id"])
    assert record.seats[seat].is_computer and record.ply >= 1
    assert any("computer player took over" in m.content for m in fake.channel_messages())

    # the absent player comes back and takes the seat again; a stranger cannot join a running game
    back = await fake.interact(bot, fake.slash(absent, "game join"))
    assert not back.ephemeral and "is back" in back.text
    assert not (await bot.service.current(fake.channel_id)).seats[seat].is_computer
    late = await fake.interact(bot, fake.slash(stranger, "game join"))
    assert late.ephemeral and "already started" in late.text

    # /game mine shows the game and a link to its board
    mine = await fake.interact(bot, fake.slash(others[0], "game mine"))
    assert "Tölp" in mine.text and f"/channels/{fake.guild_id}/{fake.channel_id}/" in mine.text

    # the three humans finish the game
    for _ in range(300):
        record = await bot.service.current(fake.channel_id)
        if record is None:
            break
        seat = min(bot.service.to_act(record))
        user = by_id[record.user_of(seat)]
        legal = bot.service.legal_texts(record, seat)
        action = next((a for a in legal if a.startswith("play")), legal[0])
        command, options = tolp_command(action)
        assert (await fake.interact(bot, fake.slash(user, command, options))).ok
    assert await bot.service.current(fake.channel_id) is None
    stats = await fake.interact(bot, fake.slash(others[0], "game stats"))
    assert "Leaderboard" in stats.text and "1 finished game" in stats.text
    fake.assert_clean()
