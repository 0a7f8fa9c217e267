"""A window is not a turn: a Monopol auction is one panel, edited as bids and passes come in,
that pings each bidder once when it opens and again (by DM) only when it waits on them alone;
its bid buttons sit together and Pass in a row of its own."""
from __future__ import annotations

from typing import Any

from bot.engine import registry
from bot.games.monopol.state import MonopolState
from tests.discord.conftest import BotFactory
from tests.discord.helpers import board_posts
from tests.discord.news_checks import assert_first_line_is_news, notifications
from tests.fakediscord import FakeDiscord

GAME = registry.get("monopol")
BIDS = 4


def command_for(action: str) -> tuple[str, dict[str, Any]]:
    if action.startswith("bid "):
        return "monopol bid", {"amount": int(action.split()[1])}
    return f"monopol {action}", {}


async def test_an_auction_is_one_panel_that_pings_each_bidder_at_most_twice(fake: FakeDiscord,
                                                                           make_bot: BotFactory) -> None:
    bot = await make_bot()
    members = fake.add_members(4)
    await fake.interact(bot, fake.slash(members[0], "game new", game="monopol"), timeout=30)
    for member in members[1:]:
        await fake.interact(bot, fake.slash(member, "game join"), timeout=30)
    await fake.interact(bot, fake.slash(members[0], "game start"), timeout=30)
    by_id = {m["id"]: m for m in members}

    async def play(seat: int, action: str) -> None:
        record = await bot.service.current(fake.channel_id)
        assert record is not None
        command, options = command_for(action)
        answer = await fake.interact(bot, fake.slash(by_id[record.user_of(seat)], command, options), timeout=30)
        assert answer.ok and not answer.violations, answer.text

    # the players roll and end their turns until someone stands on a deed for sale and declines it
    for _ in range(60):
        record = await bot.service.current(fake.channel_id)
        assert record is not None
        state: MonopolState = GAME.load(record.state)
        if state.auction is not None:
            break
        seat = min(bot.service.to_act(record))
        legal = bot.service.legal_texts(record, seat)
        action = next(a for a in ("decline", "roll", "end", "jail pay") if a in legal)
        await play(seat, action)
    assert state.auction is not None, "no auction opened"

    panel = board_posts(fake)[-1]
    posts_at_open = len(board_posts(fake))
    pinged_before = len(notifications(fake))
    bids = [c for c in panel.buttons if c["label"].startswith(("Bid", "bid"))]
    passing = next(c for c in panel.buttons if c["label"] == "Pass")
    rows = [[c.get("label") for c in row["components"]] for row in panel.components]
    assert len(bids) == 2 and any(row[:2] == [b["label"] for b in bids] for row in rows), rows
    assert ["Pass"] in [[label for label in row if label == "Pass"] for row in rows]
    assert not any("Pass" in row and any(label.startswith("Bid") for label in row) for row in rows), rows
    assert passing

    # BIDS bids, then everyone else passes: the auction closes
    made = 0
    while True:
        record = await bot.service.current(fake.channel_id)
        assert record is not None
        state = GAME.load(record.state)
        if state.auction is None:
            break
        seat = min(bot.service.to_act(record))
        action = f"bid {max(10, state.auction.high + 10)}" if made < BIDS else "pass"
        made += 1
        await play(seat, action)
        if GAME.load((await bot.service.current(fake.channel_id)).state).auction is not None:
            # still open: no new message in the channel, the panel was edited
            assert len(board_posts(fake)) == posts_at_open, [m.content[:60] for m in board_posts(fake)]
    assert made > BIDS
    assert len(fake.message(panel.id).history) >= BIDS  # the panel followed the bids

    # pings of the auction: the panel's post (everyone who may bid) and at most one DM each when
    # it waited on them alone; the board that follows the auction's close does not count
    window = notifications(fake)[pinged_before - 1:]
    seen: dict[str, int] = {}
    opening_content, opening_users = window[0]
    assert_first_line_is_news(opening_content.splitlines()[0])
    for user in opening_users:
        seen[user] = seen.get(user, 0) + 1
    for member in members:
        alone = [m for m in fake.dms_to(member) if "alone" in m.content.splitlines()[0]]
        seen[member["id"]] = seen.get(member["id"], 0) + len(alone)
        for message in alone:
            assert_first_line_is_news(message.content.splitlines()[0])
    assert seen and max(seen.values()) <= 2, seen
    fake.assert_clean()
