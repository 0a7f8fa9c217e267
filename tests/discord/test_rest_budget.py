"""REST calls per move that count against Discord's global limit (channel posts and edits, DMs;
interaction responses and their follow-ups do not count), and admission control: while every
delivery slot of the announcer is taken, moves are still acknowledged and answered, and the
table's board then shows the newest position once."""
from __future__ import annotations

from typing import Any

import pytest

from cogs import moves
from tests.discord.conftest import BotFactory
from tests.discord.helpers import assert_moved, board_posts, latest_board, tolp_command
from tests.fakediscord import FakeDiscord, Recorded, settle


def counted(request: Recorded) -> bool:
    return request.method in ("POST", "PATCH") and (
        request.route.startswith("/channels/") or request.route == "/users/@me/channels")


async def start_tolp(fake: FakeDiscord, bot: Any, users: list[dict]) -> None:
    await fake.interact(bot, fake.slash(users[0], "game new", game="tolp"))
    for user in users[1:]:
        await fake.interact(bot, fake.slash(user, "game join"))
    await fake.interact(bot, fake.slash(users[0], "game start"))


async def next_move(fake: FakeDiscord, bot: Any, users: list[dict]) -> tuple[dict, dict, Any]:
    record = await bot.service.current(fake.channel_id)
    seat = min(bot.service.to_act(record))
    mover = next(u for u in users if u["id"] == record.user_of(seat))
    command, options = tolp_command(bot.service.legal_texts(record, seat)[0])
    return mover, fake.slash(mover, command, **options), record


async def test_a_tolp_move_costs_a_board_and_a_fold(fake: FakeDiscord, make_bot: BotFactory) -> None:
    """At most 2 counted calls per move: the new board (it pings the next player) and the old
    board's summary. The mover sees their new hand in the move's answer; whoever's turn came is
    pinged by the board and opens their controls with "Show my hand" (no DM spent on it)."""
    bot = await make_bot()
    users = fake.add_members(4)
    await start_tolp(fake, bot, users)
    await settle(bot)
    total = moves = 0
    for _ in range(6):
        _, payload, _ = await next_move(fake, bot, users)
        since = len(fake.requests)
        answer = await fake.interact(bot, payload)
        await settle(bot)
        assert_moved(answer)
        assert answer.files, "the mover sees their new hand in the move's private answer"
        calls = [r for r in fake.requests[since:] if counted(r)]
        assert len(calls) <= 2, calls  # the new board and the superseded one's summary
        assert all(r.route.startswith(f"/channels/{fake.channel_id}/") for r in calls), calls
        total += len(calls)
        moves += 1
    assert total <= 2 * moves
    # the player whose turn came opens their controls from the board, privately
    record = await bot.service.current(fake.channel_id)
    seat = min(bot.service.to_act(record))
    player = next(u for u in users if u["id"] == record.user_of(seat))
    shown = await fake.interact(bot, fake.click(player, latest_board(fake), label="Show my hand"))
    assert shown.ephemeral and shown.files and any(m.components for m in shown.messages)
    fake.assert_clean()


async def test_a_turn_dm_asked_for_is_one_dm_with_the_controls(fake: FakeDiscord, make_bot: BotFactory) -> None:
    """`/game prefs ping:True`: when a player's turn comes, one DM carries the "your turn" line,
    the link and their view with its controls (not a line and a view in two DMs)."""
    bot = await make_bot()
    users = fake.add_members(3)
    for user in users:
        assert (await fake.interact(bot, fake.slash(user, "game prefs", ping=True))).ok
    await start_tolp(fake, bot, users)
    await settle(bot)
    dm_channels = {fake.dm_channel(user)["id"]: user["id"] for user in users}
    for _ in range(4):
        _, payload, _ = await next_move(fake, bot, users)
        since = len(fake.requests)
        assert_moved(await fake.interact(bot, payload))
        await settle(bot)
        after = await bot.service.current(fake.channel_id)
        turn = {after.user_of(s) for s in bot.service.to_act(after)}
        posts = [r for r in fake.requests[since:] if counted(r) and r.route.split("/")[2] in dm_channels]
        assert [dm_channels[r.route.split("/")[2]] for r in posts] == sorted(turn), posts
        (dm,) = [m for m in fake.dms_to(next(u for u in users if u["id"] in turn))][-1:]
        assert "your turn" in dm.content and dm.files and dm.components
    fake.assert_clean()


async def test_moves_are_answered_while_every_delivery_slot_is_taken(fake: FakeDiscord,
                                                                     make_bot: BotFactory) -> None:
    bot = await make_bot()
    users = fake.add_members(4)
    await start_tolp(fake, bot, users)
    await settle(bot)
    admission = bot.get_cog("Announcer").admission  # type: ignore[union-attr]
    posted = len(board_posts(fake))
    held = [admission.slot() for _ in range(admission.slots)]
    for slot in held:
        await slot.__aenter__()
    try:
        for _ in range(3):
            _, payload, _ = await next_move(fake, bot, users)
            fake.inject(bot, payload)
            move = payload["id"]
            ack = await fake.wait_request(lambda r, move=move: r.interaction_id == move
                                          and r.route.endswith("/callback"))
            assert ack.status == 204 and ack.json["type"] == 5
            await fake.wait_request(lambda r, move=move: r.interaction_id == move and r.route.startswith("/webhooks/"))
            assert_moved(fake.responses_for(payload))
        assert admission.pressed and len(board_posts(fake)) == posted  # nothing delivered meanwhile
    finally:
        for slot in held:
            await slot.__aexit__(None, None, None)
    await settle(bot)
    record = await bot.service.current(fake.channel_id)
    new_boards = board_posts(fake)[posted:]
    assert len(new_boards) == 1, new_boards  # three moves, one board: the newest position
    assert latest_board(fake).files[0].filename == f"tolp-{record.ply}.png"
    fake.assert_clean()


async def test_a_turn_dm_to_closed_dms_leaves_the_game_going(fake: FakeDiscord, make_bot: BotFactory) -> None:
    """A player who asked for turn DMs but closed them: the board still pings them and the game
    goes on; the bot stops trying their DMs (no error, no stuck delivery)."""
    bot = await make_bot()
    users = fake.add_members(3)
    for user in users:
        assert (await fake.interact(bot, fake.slash(user, "game prefs", ping=True))).ok
    closed = users[1]
    fake.close_dms(closed)
    await start_tolp(fake, bot, users)
    await settle(bot)
    for _ in range(6):
        _, payload, _ = await next_move(fake, bot, users)
        assert_moved(await fake.interact(bot, payload))
        await settle(bot)
    assert fake.dms_to(closed) == []
    assert not (await bot.players.prefs(closed["id"])).dm_ok
    assert any(f"<@{closed['id']}>" in m.content for m in board_posts(fake))
    record = await bot.service.current(fake.channel_id)
    assert record is not None and record.ply >= 6
    fake.assert_clean()


async def test_a_move_whose_own_view_cannot_be_drawn_is_still_announced(
        fake: FakeDiscord, make_bot: BotFactory, monkeypatch: pytest.MonkeyPatch) -> None:
    """The move is committed before its answer is drawn: when drawing the mover's own view fails,
    the board still goes out at once and the mover hears their move went through (no "unexpected
    error" for a move that was made)."""
    bot = await make_bot()
    users = fake.add_members(4)
    await start_tolp(fake, bot, users)
    await settle(bot)
    _, payload, record = await next_move(fake, bot, users)
    before = len(board_posts(fake))

    async def broken(*args: Any, **kwargs: Any) -> Any:
        raise RuntimeError("the render worker died")

    monkeypatch.setattr(moves, "private_message", broken)
    answer = await fake.interact(bot, payload)
    await settle(bot)
    assert answer.ok and "unexpected" not in answer.text.lower(), answer.text
    assert (await bot.service.current(fake.channel_id)).ply == record.ply + 1
    assert len(board_posts(fake)) == before + 1  # the new board, without waiting for a sweep
