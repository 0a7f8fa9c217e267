"""REST calls per move that count against Discord's global limit (channel posts and edits, DMs;
interaction responses and their follow-ups do not count), and admission control: while every
delivery slot of the announcer is taken, moves are still acknowledged and answered, and the
table's board then shows the newest position once."""
from __future__ import annotations

from typing import Any

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


async def test_a_tolp_move_costs_a_board_a_fold_and_at_most_the_next_players_dm(
        fake: FakeDiscord, make_bot: BotFactory) -> None:
    bot = await make_bot()
    users = fake.add_members(4)
    await start_tolp(fake, bot, users)
    dm_channels = {fake.dm_channel(user)["id"]: user for user in users}
    total = moves = 0
    for _ in range(6):
        mover, payload, before = await next_move(fake, bot, users)
        since = len(fake.requests)
        answer = await fake.interact(bot, payload)
        await settle(bot)
        assert_moved(answer)
        assert answer.files, "the mover sees their new hand in the move's private answer"
        calls = [r for r in fake.requests[since:] if counted(r)]
        dms = [dm_channels[r.route.split("/")[2]] for r in calls if r.route.split("/")[2] in dm_channels]
        in_channel = [r for r in calls if r.route.startswith(f"/channels/{fake.channel_id}/")]
        after = await bot.service.current(fake.channel_id)
        turn_came = {after.user_of(s) for s in bot.service.to_act(after)} - {
            before.user_of(s) for s in bot.service.to_act(before)}
        assert mover not in dms, "no DM for the mover's own move: its answer showed the new hand"
        assert {u["id"] for u in dms} <= turn_came, calls
        assert len(in_channel) <= 2, calls  # the new board and the superseded one's summary
        assert len(calls) == len(dms) + len(in_channel), calls
        total += len(calls)
        moves += 1
    assert total <= 3 * moves
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
            assert ack.status == 200 and ack.json["type"] == 5
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
