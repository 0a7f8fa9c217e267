"""Standing orders as players use them, through the real bot and the fake Discord: /orders opens a
private view (menus, toggles, a modal for amounts), the orders act when the seat is to act as the
seat's own moves marked "(standing order)" on the board, and the move log replays from the seed to
the stored state. Covered: a Monopol auction won and one lost by a maximum bid, a trade declined by
an order, a buy order dropped with a private note (DM, and on the next look), Tölp's pass when the
trick cannot be beaten and "pass when it is the only move" (set from the DM hand's button), bad
amounts and a stranger's press refused with nothing changed."""
from __future__ import annotations

from typing import Any

import pytest

from bot.engine import registry
from bot.services.movelog import replay
from bot.storage import orders as orders_repo
from tests.discord.conftest import BotFactory
from tests.discord.helpers import board_posts, play_tolp_move
from tests.fakediscord import FakeDiscord

MONOPOL = registry.get("monopol")
SEED = "orders-1"  # Ann (seat 0) rolls first and lands on Oslo Sentralstasjon (square 5, kr 200)


async def monopol_table(fake: FakeDiscord, make_bot: BotFactory, monkeypatch: pytest.MonkeyPatch,
                        options: str = "") -> tuple[Any, dict, dict]:
    monkeypatch.setattr("bot.services.lobby.new_seed", lambda: SEED)
    bot = await make_bot()
    ann, bo = fake.add_members(2)
    await fake.interact(bot, fake.slash(ann, "game new", game="monopol", options=options))
    await fake.interact(bot, fake.slash(bo, "game join"))
    await fake.interact(bot, fake.slash(ann, "game start"))
    return bot, ann, bo


async def state(bot: Any, fake: FakeDiscord) -> Any:
    record = await bot.service.current(fake.channel_id)
    assert record is not None
    return MONOPOL.load(record.state)


async def set_amount(fake: FakeDiscord, bot: Any, user: dict, button: str, value: str) -> Any:
    """Open /orders, press ``button`` (its modal opens) and type ``value``."""
    view = await fake.interact(bot, fake.slash(user, "orders"))
    assert view.ephemeral and "Your standing orders" in view.text
    pressed = await fake.interact(bot, fake.click(user, view.messages[0], label=button))
    assert pressed.modal is not None
    return await fake.interact(bot, fake.submit_modal(user, pressed, {"amount": value}))


async def assert_replays(bot: Any, fake: FakeDiscord) -> None:
    record = await bot.service.latest(fake.channel_id)
    moves = [(seat, action) for _, seat, action, _ in await bot.service.moves(record.id)]
    game = registry.get(record.game)
    assert game.dump(replay(game, len(record.seats), record.options, record.seed, moves)) == record.state


def news(fake: FakeDiscord) -> str:
    return "\n".join(m.content for m in board_posts(fake))


async def test_a_maximum_bid_wins_an_auction_for_its_player(fake: FakeDiscord, make_bot: BotFactory,
                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    bot, ann, bo = await monopol_table(fake, make_bot, monkeypatch)
    # a bad amount and the longest the field takes are refused in words, and nothing is set
    for bad in ("lots", "999999999"):
        r = await set_amount(fake, bot, ann, "Max bid…", bad)
        assert r.ephemeral and "is not an amount this order takes" in r.text and "from 10 to 100000" in r.text
    assert "No standing orders yet" in (await fake.interact(bot, fake.slash(ann, "orders"))).text
    r = await set_amount(fake, bot, ann, "Max bid…", "300")
    assert r.ephemeral and "In every auction, bid up to kr\xa0300, then pass" in r.text
    assert (await fake.interact(bot, fake.slash(ann, "monopol roll"))).ok
    assert (await fake.interact(bot, fake.slash(ann, "monopol decline"))).ok
    s = await state(bot, fake)
    assert s.auction is not None and (s.auction.high, s.auction.bidder) == (10, 0)  # Ann's order opened at 10
    assert (await fake.interact(bot, fake.slash(bo, "monopol bid", amount=200))).ok
    s = await state(bot, fake)
    assert (s.auction.high, s.auction.bidder) == (225, 0)  # her order answered at once, 25 over
    assert (await fake.interact(bot, fake.slash(bo, "monopol pass"))).ok
    s = await state(bot, fake)
    assert s.auction is None and s.owner[5] == 0 and s.cash[0] == 1500 - 225
    assert "bids kr\xa0225 (standing order)." in news(fake)
    await assert_replays(bot, fake)
    fake.assert_clean()


async def test_a_maximum_bid_passes_once_the_auction_goes_above_it(fake: FakeDiscord, make_bot: BotFactory,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    bot, ann, bo = await monopol_table(fake, make_bot, monkeypatch)
    view = await fake.interact(bot, fake.slash(ann, "orders"))
    pressed = await fake.interact(bot, fake.click(ann, view.messages[0], label="Max bid…"))
    await fake.close_bot(bot)
    bot = await make_bot()  # yesterday's view and a modal opened before the restart still work
    await fake.interact(bot, fake.submit_modal(ann, pressed, {"amount": "100"}))
    toggled = await fake.interact(bot, fake.click(ann, view.messages[0], label="Pass when it is the only move"))
    assert toggled.ok and "Pass when passing is the only move" in view.messages[0].content
    assert "bid up to kr\xa0100" in view.messages[0].content
    await fake.interact(bot, fake.slash(ann, "monopol roll"))
    await fake.interact(bot, fake.slash(ann, "monopol decline"))
    assert (await fake.interact(bot, fake.slash(bo, "monopol bid", amount=150))).ok
    s = await state(bot, fake)
    assert s.auction is None and s.owner[5] == 1 and s.cash[1] == 1500 - 150  # Bo won: Ann's order passed
    record = await bot.service.current(fake.channel_id)
    async with bot.db.reading() as conn:
        marked = await orders_repo.marked_moves(conn, record.id)
    moves = {ply: (seat, action) for ply, seat, action, _ in await bot.service.moves(record.id)}
    assert [moves[ply] for ply in sorted(marked)] == [(0, "bid 10"), (0, "pass")]
    assert "passes (standing order)." in news(fake)
    await assert_replays(bot, fake)
    fake.assert_clean()


async def test_a_trade_from_a_named_player_is_declined_by_the_order(fake: FakeDiscord, make_bot: BotFactory,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    bot, ann, bo = await monopol_table(fake, make_bot, monkeypatch)
    view = await fake.interact(bot, fake.slash(bo, "orders", locale="sv"))
    assert "Dina stående order" in view.text
    menu = next(i for i in view.messages[0].custom_ids if i.endswith(":decline_from"))
    # a stranger's press on Bo's view is refused and changes nothing
    stranger = fake.add_member("stranger")
    refused = await fake.interact(bot, fake.select(stranger, view.messages[0], menu, ["all"]))
    assert refused.ephemeral and "not a player in this game" in refused.text
    # nor may Ann, seated at the table, open Bo's modal from his view
    other = await fake.interact(bot, fake.click(ann, view.messages[0], label="Högsta bud…"))
    assert other.modal is None and other.ephemeral and "another player's seat" in other.text
    picked = await fake.interact(bot, fake.select(bo, view.messages[0], menu, ["s0"], locale="sv"))
    assert picked.ok and "Avböj byten som erbjuds av:" in view.messages[0].content
    # in a DM the command names its game; without it, it says so
    dm = fake.dm_channel(bo)
    unnamed = await fake.interact(bot, fake.slash(bo, "orders", channel=dm))
    assert "Name the game" in unnamed.text
    record = await bot.service.current(fake.channel_id)
    in_dm = await fake.interact(bot, fake.slash(bo, "orders", game=record.id, channel=dm))
    assert "Decline trades offered by: player1" in in_dm.text
    r = await fake.interact(bot, fake.slash(ann, "monopol trade", partner=bo, give="50 kr"))
    assert r.ok
    s = await state(bot, fake)
    assert s.trade is None and s.cash == [1500, 1500]
    assert (await bot.service.moves(record.id))[-1][1:3] == (1, "decline trade")
    assert "(standing order)" in news(fake)
    await assert_replays(bot, fake)
    fake.assert_clean()


async def test_a_buy_order_that_would_break_a_rule_is_dropped_with_a_private_note(
        fake: FakeDiscord, make_bot: BotFactory, monkeypatch: pytest.MonkeyPatch) -> None:
    bot, ann, bo = await monopol_table(fake, make_bot, monkeypatch, options="start_money=500")
    await fake.interact(bot, fake.slash(ann, "monopol trade", partner=bo, give="490 kr"))
    await fake.interact(bot, fake.slash(bo, "monopol accept"))
    r = await set_amount(fake, bot, ann, "Buy up to…", "400")
    assert "at most kr\xa0400" in r.text
    dms_before = len(fake.dms_to(ann))
    assert not any("was dropped" in m.content for m in fake.ephemerals_for(ann))
    assert (await fake.interact(bot, fake.slash(ann, "monopol roll"))).ok
    s = await state(bot, fake)
    assert s.phase == "buy" and s.owner[5] == -1 and s.cash[0] == 10  # nothing bought: Ann decides herself
    # the note goes to Ann alone: by DM, or in the private answer to her own move
    notes = [m for m in fake.dms_to(ann)[dms_before:] + fake.ephemerals_for(ann) if "was dropped" in m.content]
    assert len(notes) == 1 and "buy deeds up to kr\xa0400" in notes[0].content
    elsewhere = fake.dms_to(bo) + fake.ephemerals_for(bo) + board_posts(fake)
    assert not any("was dropped" in m.content for m in elsewhere)
    view = await fake.interact(bot, fake.slash(ann, "orders"))
    assert "⚠️" in view.text and "No standing orders yet" in view.text
    assert "⚠️" not in (await fake.interact(bot, fake.slash(ann, "orders"))).text  # told once
    await assert_replays(bot, fake)
    fake.assert_clean()


async def test_tolp_orders_pass_on_tricks_that_cannot_be_beaten(fake: FakeDiscord, make_bot: BotFactory,
                                                                monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("bot.services.lobby.new_seed", lambda: "orders-tolp-3")
    bot = await make_bot()
    users = fake.add_members(3)
    ann, bo, cy = users
    await fake.interact(bot, fake.slash(ann, "game new", game="tolp"))
    for user in (bo, cy):
        await fake.interact(bot, fake.slash(user, "game join"))
    await fake.interact(bot, fake.slash(ann, "game start"))
    # Bo sets his order from the button of his private view (the DM hand)
    record = await bot.service.current(fake.channel_id)
    opened = None
    for message in reversed(fake.dms_to(bo)):
        if any(b.get("label") == "Standing orders" for b in message.buttons):
            opened = await fake.interact(bot, fake.click(bo, message, label="Standing orders"))
            break
    if opened is None:  # not his turn yet: his private view comes with "Show my hand"
        shown = await fake.interact(bot, fake.click(bo, board_posts(fake)[-1], label="Show my hand"))
        opened = await fake.interact(bot, fake.click(bo, shown.messages[0], label="Standing orders"))
    assert opened.ephemeral and "Your standing orders" in opened.text
    menu = next(i for i in opened.messages[0].custom_ids if i.endswith(":tolp_pass"))
    await fake.interact(bot, fake.select(bo, opened.messages[0], menu, ["cannot"]))
    assert "Pass when I cannot beat the trick" in opened.messages[0].content
    view = await fake.interact(bot, fake.slash(cy, "orders"))
    await fake.interact(bot, fake.click(cy, view.messages[0], label="Pass when it is the only move"))
    async with bot.db.reading() as conn:
        kinds = set((await orders_repo.marked_moves(conn, record.id)).values())
    for _ in range(80):
        if {"tolp_pass", "only_pass"} <= kinds:
            break
        record = await bot.service.current(fake.channel_id)
        if record is None or record.status != "active":
            break
        await play_tolp_move(fake, bot, users)
        async with bot.db.reading() as conn:
            kinds = set((await orders_repo.marked_moves(conn, record.id)).values())
    assert {"tolp_pass", "only_pass"} <= kinds
    async with bot.db.reading() as conn:
        marked = await orders_repo.marked_moves(conn, record.id)
    moves = {ply: (seat, action) for ply, seat, action, _ in await bot.service.moves(record.id)}
    assert {moves[p] for p in marked} <= {(1, "pass"), (2, "pass")}
    assert {moves[p][0] for p, kind in marked.items() if kind == "tolp_pass"} == {1}
    assert "(standing order)" in news(fake)
    await assert_replays(bot, fake)
    fake.assert_clean()
