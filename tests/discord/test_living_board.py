"""The living table: a player who goes on acting keeps one board, edited in place, and moves made at
once end on the board of the latest position."""
from __future__ import annotations

import pytest

from bot.services import lobby
from tests.backends import on_both_backends
from tests.discord.conftest import BotFactory
from tests.discord.helpers import latest_board, own_view
from tests.fakediscord import FakeDiscord


async def test_a_player_who_goes_on_acting_keeps_one_board_edited_in_place(fake: FakeDiscord, make_bot: BotFactory,
                                                                monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(lobby, "new_seed", lambda: "polish-zlodej")
    bot = await make_bot()
    users = fake.add_members(2)
    by_id = {u["id"]: u for u in users}
    await fake.interact(bot, fake.slash(users[0], "game new", game="zlodej"))
    await fake.interact(bot, fake.slash(users[1], "game join"))
    await fake.interact(bot, fake.slash(users[0], "game start"))
    for _ in range(40):
        record = await bot.service.current(fake.channel_id)
        seat = min(bot.service.to_act(record))
        user = by_id[record.user_of(seat)]
        legal = bot.service.legal_texts(record, seat)
        lay = next((a for a in legal if a.split()[0] in ("new", "add", "take")), None)
        if lay is None:
            discard = next(a for a in legal if a.startswith("discard"))
            await fake.interact(bot, fake.slash(user, "zlodej discard", card=discard.split()[1]))
            continue
        verb, _, cards = lay.partition(" ")
        before = latest_board(fake)
        posted = len(fake.channel_messages())
        assert (await fake.interact(bot, fake.slash(user, f"zlodej {verb}", cards=cards))).ok
        # still their turn: no new message (an edit notifies no one), the board shows the lay
        assert len(fake.channel_messages()) == posted and latest_board(fake).id == before.id
        assert len(before.history) == 1 and "lays" in before.content and before.files
        assert f"{before.files[0].filename}" != before.history[0]["attachments"][0]["filename"]
        await fake.interact(bot, fake.slash(user, "zlodej end"))
        board = latest_board(fake)
        other = by_id[record.user_of(1 - seat)]
        assert board.id != before.id and f"<@{other['id']}>" in board.content  # the turn passed: a new board pings
        assert board.payload["mentions"] and {m["id"] for m in board.payload["mentions"]} == {other["id"]}
        folded = fake.message(before.id)  # the superseded board: one line, no image, no buttons
        assert not folded.files and not folded.components and "lays" in folded.content and "\n" not in folded.content
        break
    else:
        raise AssertionError("no lay happened")
    fake.assert_clean()


@on_both_backends
async def test_simultaneous_moves_end_on_the_board_of_the_latest_position(fake: FakeDiscord, make_bot: BotFactory,
                                                                  settle, monkeypatch: pytest.MonkeyPatch) -> None:  # type: ignore[no-untyped-def]
    import asyncio

    from cogs import drawing

    bot = await make_bot()
    red, blue = fake.add_members(2)
    await fake.interact(bot, fake.slash(red, "game new", game="stratego"))
    await fake.interact(bot, fake.slash(blue, "game join"))
    await fake.interact(bot, fake.slash(red, "game start"))

    # the second click arrives while the board of the first move is being drawn; that render
    # waits until the second move has been committed: the table's announcer must then end on the
    # newest state, and never leave an older one on top
    first_drawn, second_committed = asyncio.Event(), asyncio.Event()
    acts: list[int] = []
    overtaken: list[bool] = []
    real_act, real_render = bot.service.act, drawing.described_public

    async def counting_act(**kwargs):  # type: ignore[no-untyped-def]
        update = await real_act(**kwargs)
        acts.append(update.record.ply)
        if len(acts) == 2:
            second_committed.set()
        return update

    async def slow_first_render(record, obs, locale, *hint):  # type: ignore[no-untyped-def]
        if record.ply == 1:
            first_drawn.set()
            try:
                await asyncio.wait_for(second_committed.wait(), timeout=5)
            except TimeoutError:
                overtaken.append(False)  # fail below, after the render (a hang here would hide why)
            else:
                overtaken.append(True)
        return await real_render(record, obs, locale, *hint)

    monkeypatch.setattr(bot.service, "act", counting_act)
    monkeypatch.setattr(drawing, "described_public", slow_first_render)
    red_ready = fake.click(red, own_view(fake, red), label="Ready")  # their set-up views, privately
    blue_ready = fake.click(blue, own_view(fake, blue), label="Ready")
    fake.inject(bot, red_ready)
    await asyncio.wait_for(first_drawn.wait(), timeout=5)
    fake.inject(bot, blue_ready)  # pressed while the first board is being drawn
    await settle(bot)
    assert overtaken == [True], "the second move was not committed while the first board was drawn"
    plies = [int(m.files[0].filename.rsplit("-", 1)[1].split(".")[0]) for m in fake.channel_messages() if m.files]
    assert plies == [2]  # one board with an image, the latest position
    assert (await bot.service.current(fake.channel_id)).state["ready"] == [True, True]
    fake.assert_clean()
