"""Standing orders through the service, on both backends: stored per (game, seat), applied by the move
pipeline as the seat's own logged moves (the log replays from the seed to the stored state), marked
for the log, refused for strangers and out-of-range values, dropped with a private note when their
move would break a rule, ended with the game, by ``clear_orders``, by a seat changing hands and by
the privacy forget."""
from __future__ import annotations

from typing import Any

import pytest

from bot.engine import registry
from bot.engine.orders import decide
from bot.errors import Forbidden, IllegalAction
from bot.services import orders as standing
from bot.services import privacy
from bot.services.movelog import replay
from bot.services.orders import StandingOrders
from bot.services.players import Players
from bot.services.seats import Seats
from bot.services.table import GameService
from bot.storage import orders as orders_repo
from bot.storage.db import Database

MONOPOL = registry.get("monopol")
USERS = {0: "1", 1: "2"}


async def monopol(service: GameService, seed: str = "orders-1", **options: Any) -> int:
    await service.create(guild_id="g", channel_id="c", game="monopol", user_id="1", name="Ann", seed=seed,
                         options=options)
    await service.join("c", "2", "Bo")
    await service.start("c", "1")
    record = await service.current("c")
    assert record is not None
    return record.id


async def state_of(service: GameService) -> Any:
    record = await service.current("c")
    assert record is not None
    return MONOPOL.load(record.state)


async def to_auction(service: GameService) -> Any:
    """Roll and end until a deed can be declined, decline it (the bank auctions it: the same moves
    every run) and return the state after that move."""
    for _ in range(40):
        s = await state_of(service)
        action = {"roll": "roll", "buy": "decline", "end": "end"}[s.phase]
        await service.act(user_id=USERS[s.turn], action=action, channel_id="c")
        if action == "decline":
            return await state_of(service)
    raise AssertionError("no auction")


async def assert_replays(service: GameService, game_id: int) -> None:
    record = await service.get(game_id)
    moves = [(seat, action) for _, seat, action, _ in await service.moves(game_id)]
    state = replay(MONOPOL, len(record.seats), record.options, record.seed, moves)
    assert MONOPOL.dump(state) == record.state


async def test_max_bids_answer_an_auction_as_logged_moves_that_replay(db: Database) -> None:
    service, orders = GameService(db), StandingOrders(db)
    game_id = await monopol(service)
    await orders.set(game_id, "1", None, "max_bid", 120)
    await orders.set(game_id, "2", 1, "max_bid", 75)
    s = await to_auction(service)  # the decline opened it: both orders answered at once
    assert s.auction is None
    moves = await service.moves(game_id)
    bids = [(seat, action) for _, seat, action, _ in moves if action.startswith(("bid", "pass"))]
    # Bo raises to his 75 at most, Ann 10 over it; the next bid would pass his maximum: he passes
    assert bids[-3:] == [(1, "bid 75"), (0, "bid 85"), (1, "pass")]
    assert all(int(a.split()[1]) <= (120 if seat == 0 else 75) for seat, a in bids if a.startswith("bid"))
    async with db.reading() as conn:
        marked = await orders_repo.marked_moves(conn, game_id)
    plies = {ply for ply, _, action, _ in moves if action.startswith(("bid", "pass"))}
    assert plies == set(marked) and set(marked.values()) == {"max_bid"}
    await assert_replays(service, game_id)
    log = await Players(db).log_in_words(await service.get(game_id), "en", limit=200)
    marked_lines = [(ply, text) for ply, _, text in log if "(standing order)" in text]
    assert {ply for ply, _ in marked_lines} == set(marked)
    assert "Bo passes (standing order)." in [text for _, text in marked_lines][-1]


async def test_a_group_maximum_overrides_the_general_one_and_passes_above_it(db: Database) -> None:
    service, orders = GameService(db), StandingOrders(db)
    game_id = await monopol(service)
    s = await state_of(service)
    # the first auction of this seed is Oslo Sentralstasjon (a station)
    await orders.set(game_id, "1", None, "max_bid", 300)
    await orders.set(game_id, "1", None, "group_max", ("station", 10))
    view = await orders.show(game_id, "1")
    assert view.orders == {"max_bid": 300, "group_max": {"station": 10}}
    s = await to_auction(service)
    assert s.auction is not None and s.auction.high == 10 and s.auction.bidder == 0  # Ann's 10, Bo to answer
    await service.act(user_id="2", action="bid 20", channel_id="c")
    s = await state_of(service)
    assert s.auction is None and s.owner[5] == 1  # Ann's order passed above 10: Bo won at 20
    await assert_replays(service, game_id)


async def test_a_trade_from_a_named_player_is_declined_and_others_are_not(db: Database) -> None:
    service, orders = GameService(db), StandingOrders(db)
    game_id = await monopol(service)
    s = await state_of(service)
    assert s.turn == 0
    await orders.set(game_id, "2", None, "decline_from", [0])
    update = await service.act(user_id="1", action="trade 1 give:c50 get:-", channel_id="c")
    assert [e.key for e in update.events][-1] == "monopol.event.trade_declined"
    assert (await state_of(service)).trade is None
    assert (await service.moves(game_id))[-1][1:3] == (1, "decline trade")
    await assert_replays(service, game_id)
    with pytest.raises(IllegalAction):
        await orders.set(game_id, "2", None, "decline_from", [1])  # oneself
    with pytest.raises(IllegalAction):
        await orders.set(game_id, "2", None, "decline_from", [7])  # no such seat


async def test_an_order_that_would_break_a_rule_is_dropped_with_a_note_to_its_owner(db: Database) -> None:
    service, orders = GameService(db), StandingOrders(db)
    game_id = await monopol(service, start_money=500)
    # Ann gives Bo most of her money; then her order to buy cannot pay for the deed she lands on
    await service.act(user_id="1", action="trade 1 give:c490 get:-", channel_id="c")
    await service.act(user_id="2", action="accept", channel_id="c")
    await orders.set(game_id, "1", None, "buy_up_to", 400)
    await orders.set(game_id, "1", None, "only_pass", True)
    update = await service.act(user_id="1", action="roll", channel_id="c")
    notes = [e for e in update.events if e.key == "orders.dropped.buy_up_to"]
    assert len(notes) == 1 and notes[0].visible_to == frozenset({0}) and notes[0].params["amount"] == 400
    s = await state_of(service)
    assert s.phase == "buy" and s.owner[s.position[0]] == -1  # nothing was bought: Ann decides herself
    view = await orders.show(game_id, "1")
    assert view.orders == {"only_pass": True} and [n["key"] for n in view.notes] == ["orders.dropped.buy_up_to"]
    assert (await orders.show(game_id, "1")).notes == []  # a note is shown once


async def test_buy_up_to_a_price_and_end_the_turn_when_nothing_is_left(db: Database) -> None:
    service, orders = GameService(db), StandingOrders(db)
    game_id = await monopol(service)
    await orders.set(game_id, "1", None, "buy_up_to", 199)
    await orders.set(game_id, "1", None, "auto_end", True)
    await service.act(user_id="1", action="roll", channel_id="c")  # Oslo Sentralstasjon, kr 200: above 199
    s = await state_of(service)
    assert s.phase == "buy" and s.turn == 0
    await orders.set(game_id, "1", None, "buy_up_to", 200)
    await standing.apply_now(db, service.pipeline, game_id)  # set while her turn waits: it acts at once
    s = await state_of(service)
    assert s.owner[5] == 0 and s.turn == 1 and s.phase == "roll"  # bought, then the turn ended
    moves = await service.moves(game_id)
    assert [m[2] for m in moves[-2:]] == ["buy", "end"]
    async with db.reading() as conn:
        marked = await orders_repo.marked_moves(conn, game_id)
    assert [marked[m[0]] for m in moves[-2:]] == ["buy_up_to", "auto_end"]
    await assert_replays(service, game_id)


async def test_orders_are_the_players_own_and_checked(db: Database) -> None:
    service, orders = GameService(db), StandingOrders(db)
    game_id = await monopol(service)
    with pytest.raises(Forbidden):
        await orders.set(game_id, "3", None, "max_bid", 100)  # not seated
    with pytest.raises(Forbidden):
        await orders.set(game_id, "2", 0, "max_bid", 100)  # Ann's seat
    for bad in (0, 9, 100_001):
        with pytest.raises(IllegalAction):
            await orders.set(game_id, "1", None, "max_bid", bad)
    with pytest.raises(IllegalAction):
        await orders.set(game_id, "1", None, "tolp_pass", "cannot")  # no Monopol order
    with pytest.raises(IllegalAction):
        standing.parse_amount("x" * 4000, 10)
    assert standing.parse_amount(" kr 1 500 ", 10) == 1500 and standing.parse_amount("", 10) is None
    assert (await orders.show(game_id, "1")).orders == {}


async def test_orders_end_with_the_game_a_seat_change_and_clear_orders(db: Database) -> None:
    service, orders = GameService(db), StandingOrders(db)
    game_id = await monopol(service)
    await orders.set(game_id, "1", None, "max_bid", 100)
    await orders.set(game_id, "2", None, "max_bid", 100)
    async with db.transaction() as conn:
        await standing.clear_orders(conn, game_id, 0)
        assert set(await orders_repo.of_game(conn, game_id)) == {1}
        # a seat now held by someone else: Bo's orders stand no more
        record = await service.get(game_id)
        record.seats[1].user_id = "99"
        assert standing.applicable(record, await orders_repo.of_game(conn, game_id)) == {}
    await service.resign("c", "2")
    async with db.reading() as conn:
        assert await orders_repo.of_game(conn, game_id) == {}
    # a table the creator ends takes its orders along too
    second = await monopol(service, seed="orders-2")
    await orders.set(second, "1", None, "max_bid", 100)
    await service.end("c", "1")
    async with db.reading() as conn:
        assert await orders_repo.of_game(conn, second) == {}


async def test_a_seat_changing_hands_ends_its_orders(db: Database) -> None:
    service, orders = GameService(db), StandingOrders(db)
    game_id = await monopol(service)
    await orders.set(game_id, "1", None, "max_bid", 100)
    await orders.set(game_id, "2", None, "max_bid", 100)
    await Seats(service).sit(channel_id="c", owner_id="2", sitter_id="3", sitter_name="Cy", sitter_bot=False)
    async with db.reading() as conn:
        assert set(await orders_repo.of_game(conn, game_id)) == {0}  # Bo's seat is Cy's now: no orders
    assert (await orders.show(game_id, "3")).orders == {}


async def test_forget_me_drops_the_users_orders(db: Database) -> None:
    service = GameService(db)
    game_id = await monopol(service)
    async with db.transaction() as conn:
        await orders_repo.save(conn, orders_repo.OrdersRow(game_id, 1, "2", {"max_bid": 50}))
        await conn.execute("UPDATE games SET status = 'aborted' WHERE id = ?", (game_id,))
    await privacy.forget(db, "2")
    async with db.reading() as conn:
        assert await orders_repo.of_game(conn, game_id) == {}


def test_orders_decide_from_the_observation_alone() -> None:
    tolp = registry.get("tolp")
    state = tolp.new(3, tolp.resolve_options({}), "orders-tolp")
    seat = next(iter(tolp.to_act(state)))
    obs = tolp.observe(state, seat)
    legal = [str(a) for a in tolp.legal_actions(state, seat)]
    # leading a trick: passing is no move, nothing to decide
    assert decide("tolp", {"tolp_pass": "cannot", "only_pass": True}, obs, legal, seat) is None
    assert decide("zlodej", {"only_pass": True}, {"public": {}}, ["pass"], 0) is not None
    assert decide("zlodej", {"only_pass": True}, {"public": {}}, ["pass", "take 1"], 0) is None


async def test_tolp_exchange_is_played_by_the_order_from_the_hand_alone(db: Database) -> None:
    tolp = registry.get("tolp")
    service, orders = GameService(db), StandingOrders(db)
    await service.create(guild_id="g", channel_id="t", game="tolp", user_id="1", name="Ann", seed="orders-x",
                         options={"wild": "2"})
    for user in ("2", "3"):
        await service.join("t", user, f"P{user}")
    await service.start("t", "1")
    record = await service.current("t")
    assert record is not None
    for user in ("1", "2", "3"):
        await orders.set(record.id, user, None, "auto_exchange", True)
    for _ in range(200):  # the first round by the computer's choice, until its exchange is over
        record = await service.current("t")
        assert record is not None
        s = tolp.load(record.state)
        if s.round > 1 and s.phase == "play":
            break
        seat = min(service.to_act(record))
        action = str(registry.computer_action(tolp, s, seat))
        await service.act(user_id=record.seats[seat].user_id, action=action, channel_id="t")
    assert s.round == 2 and s.phase == "play"
    async with db.reading() as conn:
        marked = await orders_repo.marked_moves(conn, record.id)
    moves = {ply: (seat, action) for ply, seat, action, _ in await service.moves(record.id)}
    made = [moves[p] for p in sorted(marked)]
    assert marked and set(marked.values()) == {"auto_exchange"}
    gives = [(seat, a) for seat, a in made if a.startswith("give ")]
    assert gives and all((seat, "high") in made for seat, _ in gives)  # each higher player: give, then "högt"
    first = tolp.new(3, record.options, record.seed)
    for seat, action in [moves[p] for p in sorted(moves) if p < min(marked)]:
        tolp.apply(first, seat, tolp.parse_action(action))
    for seat, action in gives:  # the lowest cards that are not wild (twos are)
        hand = sorted(c for c in first.hands[seat] if c.rank != 2)
        assert action == str(tolp.parse_action("give " + " ".join(str(c) for c in hand[:len(action.split()) - 1])))
    record = await service.current("t")
    assert record is not None
    assert tolp.dump(replay(tolp, 3, record.options, record.seed, list(moves.values()))) == record.state
