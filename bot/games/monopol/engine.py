"""The Monopol engine (Norwegian edition): turns, dice, deeds, auctions, rent, cards, jail,
building, mortgages, trades, debts and bankruptcy.

Who acts: interrupts come before the turn, in this order: the first unpaid debt's debtor, a won
building to place, a mortgaged deed to decide on (lift or keep), the open auction's bidders; only
then the turn's seat. A pending trade adds its receiver. Building, selling, mortgaging, lifting,
offering trades and claiming rent are open to every solvent player at any time.
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bot.engine.core import TIMER, Event, Game, OptionSpec, Outcome, Seat
from bot.engine.rng import Rng
from bot.errors import GameMasterError, IllegalAction, NotYourTurn
from bot.games.monopol import actions as act
from bot.games.monopol import computer, moves, rules
from bot.games.monopol.actions import Action, Bid, Buildings, Bundle, OnSquare, Simple, Trade
from bot.games.monopol.board import (
    AUCTION_START,
    CARDS,
    DECKS,
    DEEDS,
    GO_TO_JAIL,
    HOTEL,
    HOTELS,
    HOUSES,
    JAIL,
    JAIL_FINE,
    PASS_START,
    SQUARES,
    START_MONEY,
    interest,
)
from bot.games.monopol.state import (
    BUY,
    END,
    ROLL,
    Auction,
    Claim,
    Debt,
    MonopolState,
    MortgageChoice,
    PendingTrade,
)

BANK = -1
TIMER_ACTIONS = ("auction close", "time up")  # applied by the service's clock, never by a player
RECENT = 8  # events kept in the state for the board image


def _illegal(code: str, topic: str = "", **params: Any) -> IllegalAction:
    return IllegalAction(f"monopol.error.{code}", topic=topic or None, **params)


class MonopolGame(Game[MonopolState]):
    name = "monopol"
    min_players = 2
    max_players = 6
    FORMAT_VERSION = 1
    rules_languages = ("en", "nb")
    options = (
        OptionSpec("rent_must_be_claimed", False, description_key="monopol.option.rent_must_be_claimed"),
        OptionSpec("auction_minutes", 10, minimum=1, maximum=1440,
                   description_key="monopol.option.auction_minutes"),
        OptionSpec("max_rounds", 0, minimum=0, maximum=1000, description_key="monopol.option.max_rounds"),
        OptionSpec("end_time", "", time=True, description_key="monopol.option.end_time"),
    )
    playout_options = {"max_rounds": 12}
    max_playout_actions = 6000

    # ------------------------------------------------------------------ lifecycle
    def new(self, players: int, options: Mapping[str, Any], seed: str) -> MonopolState:
        rng = Rng(seed)
        decks = {}
        for deck, ids in DECKS.items():
            cards = list(ids)
            rng.shuffle(cards)
            decks[deck] = cards
        # the bank pays out the start money, so its balance starts at minus the total
        state = MonopolState(players=players, options=dict(options), rng=rng, cash=[START_MONEY] * players,
                             position=[0] * players, bank=-START_MONEY * players, in_jail=[False] * players,
                             jail_tries=[0] * players, jail_cards=[[] for _ in range(players)],
                             bankrupt=[False] * players, offered=[0] * players, decks=decks,
                             bank_houses=HOUSES, bank_hotels=HOTELS)
        state.turn = state.first = self._opening_roll(state)
        return state

    def _opening_roll(self, s: MonopolState) -> int:
        """Everyone rolls both dice; the highest total starts (tied seats roll again). The rolls go
        into ``recent`` so the first board shows them."""
        rolling = list(range(s.players))
        while True:
            totals = {seat: s.rng.die() + s.rng.die() for seat in rolling}
            for seat, total in totals.items():
                s.recent.append({"key": "monopol.event.start_roll", "params": {"seat": seat, "total": total}})
            best = max(totals.values())
            rolling = [seat for seat in rolling if totals[seat] == best]
            if len(rolling) == 1:
                s.recent.append({"key": "monopol.event.starts", "params": {"seat": rolling[0]}})
                s.recent = s.recent[-RECENT:]
                return rolling[0]

    def opening_events(self, state: MonopolState) -> list[Event]:
        """The opening rolls, told to the table when the game starts."""
        return [Event(item["key"], dict(item["params"])) for item in state.recent
                if item["key"] in ("monopol.event.start_roll", "monopol.event.starts")]

    def dump(self, state: MonopolState) -> dict[str, Any]:
        return state.dump()

    def load(self, data: Mapping[str, Any]) -> MonopolState:
        return MonopolState.load(dict(data))

    def parse_action(self, text: str) -> Action:
        return act.parse(text)

    # ---------------------------------------------------------------------- turns
    def to_act(self, state: MonopolState) -> frozenset[Seat]:
        return frozenset(rules.acting(state))

    def legal_actions(self, state: MonopolState, seat: Seat) -> list[Action]:
        return moves.legal_actions(self, state, seat)

    def bot_action(self, state: MonopolState, seat: Seat) -> Action:
        return computer.choose(self, state, seat)

    def watchers(self, state: MonopolState) -> frozenset[Seat]:
        """Owners with rent to claim (option rent_must_be_claimed): the claim lapses at the next roll."""
        return frozenset(claim.owner for claim in state.claims) - self.to_act(state)

    def waits_for(self, state: MonopolState) -> frozenset[Seat]:
        """Owners whose rent claim the turn's next roll would end (it lapses at the next roll)."""
        s = state
        if s.finished or s.phase != ROLL or s.debts or s.placement or s.choices or s.auction:
            return frozenset()
        return frozenset(c.owner for c in s.claims if c.payer != s.turn) - {s.turn}

    def time_limit(self, state: MonopolState) -> tuple[str, Seat, Action] | None:
        """The agreed end (option end_time): the service applies "time up" once it has passed."""
        end = str(state.options.get("end_time") or "")
        if state.finished or not end:
            return None
        return end, TIMER, Simple("time up")

    def timer_action(self, state: MonopolState) -> tuple[int, Seat, Action] | None:
        """An open auction closes with the best bid so far once nothing has happened for
        auction_minutes (the service keeps the clock; every bid or pass restarts it)."""
        s = state
        if s.finished or s.auction is None:
            return None
        return int(s.options.get("auction_minutes", 10)) * 60, TIMER, Simple("auction close")

    # ---------------------------------------------------------------------- apply
    def apply(self, state: MonopolState, seat: Seat, action: Action) -> list[Event]:
        s = state
        if s.finished:
            raise _illegal("game_over")
        if seat != TIMER and (not 0 <= seat < s.players or s.bankrupt[seat]):
            raise NotYourTurn()
        handler = self._handler(s, seat, action)
        events: list[Event] = []
        handler(events)
        self._settle(s, events)
        s.recent = (s.recent + [{"key": e.key, "params": dict(e.params)} for e in events])[-RECENT:]
        return events

    def is_legal(self, state: MonopolState, seat: Seat, action: Action) -> bool:
        """Whether ``apply`` would accept the action (validation only; nothing changes)."""
        if state.finished or not 0 <= seat < state.players or state.bankrupt[seat]:
            return False
        try:
            self._handler(state, seat, action)
        except GameMasterError:
            return False
        return True

    def _handler(self, s: MonopolState, seat: int, action: Action) -> Any:
        """Validate ``action`` completely and return a closure that performs it."""
        if seat == TIMER and str(action) not in TIMER_ACTIONS:
            raise NotYourTurn()
        if isinstance(action, Simple):
            return getattr(self, "_do_" + action.verb.replace(" ", "_"))(s, seat)
        if isinstance(action, Bid):
            return self._do_bid(s, seat, action.amount)
        if isinstance(action, Buildings):
            if action.verb == "build":
                return self._do_build(s, seat, action.square, action.count)
            return self._do_sell(s, seat, action.square, action.count)
        if isinstance(action, OnSquare):
            return getattr(self, "_do_" + action.verb.replace("-", "_"))(s, seat, action.square)
        return self._do_trade(s, seat, action)

    # --------------------------------------------------------------- turn actions
    def _turn_check(self, s: MonopolState, seat: int, phase: str) -> None:
        if seat != s.turn:
            raise NotYourTurn()
        if s.debts or s.placement or s.choices or s.auction:
            raise _illegal("busy")
        if s.phase != phase:
            raise _illegal("not_now")

    def _do_roll(self, s: MonopolState, seat: int) -> Any:
        self._turn_check(s, seat, ROLL)

        def run(events: list[Event]) -> None:
            for claim in [c for c in s.claims if c.payer != seat]:
                events.append(Event("monopol.event.claim_lapsed", {"owner_seat": claim.owner,
                                                                   "seat": claim.payer, "amount": claim.amount}))
            s.claims = [c for c in s.claims if c.payer == seat]
            d1, d2 = s.rng.die(), s.rng.die()
            s.last_roll = [d1, d2]
            events.append(Event("monopol.event.roll", {"seat": seat, "d1": d1, "d2": d2, "total": d1 + d2}))
            if s.in_jail[seat]:
                self._jail_roll(s, seat, d1, d2, events)
                return
            if d1 == d2:
                s.doubles += 1
                if s.doubles == 3:
                    events.append(Event("monopol.event.third_double", {"seat": seat}))
                    self._to_jail(s, seat, events)
                    return
            else:
                s.doubles = 0
            self._move(s, seat, d1 + d2, events)
        return run

    def _jail_roll(self, s: MonopolState, seat: int, d1: int, d2: int, events: list[Event]) -> None:
        if d1 == d2:
            s.in_jail[seat] = False
            s.jail_tries[seat] = 0
            s.doubles = 0  # out with a double, but no extra roll
            events.append(Event("monopol.event.jail_out_double", {"seat": seat}))
            self._move(s, seat, d1 + d2, events)
            return
        s.jail_tries[seat] += 1
        if s.jail_tries[seat] < 3:
            events.append(Event("monopol.event.jail_stay", {"seat": seat, "tries": s.jail_tries[seat]}))
            s.phase = END
            return
        s.in_jail[seat] = False
        s.jail_tries[seat] = 0
        s.doubles = 0
        events.append(Event("monopol.event.jail_forced_fine", {"seat": seat, "amount": JAIL_FINE}))
        self._charge(s, seat, BANK, JAIL_FINE, events)
        self._move(s, seat, d1 + d2, events)

    def _do_jail_pay(self, s: MonopolState, seat: int) -> Any:
        self._turn_check(s, seat, ROLL)
        if not s.in_jail[seat]:
            raise _illegal("not_in_jail", "jail")
        if s.cash[seat] < JAIL_FINE:
            raise _illegal("cannot_afford", "jail", amount=JAIL_FINE)

        def run(events: list[Event]) -> None:
            self._pay(s, seat, BANK, JAIL_FINE)
            s.in_jail[seat] = False
            s.jail_tries[seat] = 0
            events.append(Event("monopol.event.jail_pay", {"seat": seat, "amount": JAIL_FINE}))
        return run

    def _do_jail_card(self, s: MonopolState, seat: int) -> Any:
        self._turn_check(s, seat, ROLL)
        if not s.in_jail[seat]:
            raise _illegal("not_in_jail", "jail")
        if not s.jail_cards[seat]:
            raise _illegal("no_jail_card", "jail")

        def run(events: list[Event]) -> None:
            card = s.jail_cards[seat].pop(0)
            s.decks[CARDS[card].deck].append(card)  # back under its own deck
            s.in_jail[seat] = False
            s.jail_tries[seat] = 0
            events.append(Event("monopol.event.jail_card", {"seat": seat}))
        return run

    def _do_buy(self, s: MonopolState, seat: int) -> Any:
        self._turn_check(s, seat, BUY)
        square = s.position[seat]
        price = SQUARES[square].price
        if s.cash[seat] < price:
            raise _illegal("cannot_afford", "buying", amount=price)

        def run(events: list[Event]) -> None:
            self._pay(s, seat, BANK, price)
            s.owner[square] = seat
            events.append(Event("monopol.event.buy", {"seat": seat, "square": square,
                                                      "place": SQUARES[square].name, "amount": price}))
            s.phase = self._after_landing(s, seat)
        return run

    def _do_decline(self, s: MonopolState, seat: int) -> Any:
        self._turn_check(s, seat, BUY)
        square = s.position[seat]

        def run(events: list[Event]) -> None:
            s.phase = self._after_landing(s, seat)
            self._open_deed_auction(s, square, events)
        return run

    def _do_end(self, s: MonopolState, seat: int) -> Any:
        self._turn_check(s, seat, END)

        def run(events: list[Event]) -> None:
            self._advance_turn(s, events)
        return run

    # ------------------------------------------------------------------ auctions
    def _do_bid(self, s: MonopolState, seat: int, amount: int) -> Any:
        auction = s.auction
        if auction is None:
            raise _illegal("no_auction", "auction")
        if seat not in rules.bidders(s):
            raise NotYourTurn()
        if amount < max(AUCTION_START, auction.high + 1):
            raise _illegal("bid_too_low", "auction", amount=max(AUCTION_START, auction.high + 1))
        if amount > s.cash[seat]:
            raise _illegal("cannot_afford", "auction", amount=amount)

        def run(events: list[Event]) -> None:
            assert s.auction is not None
            s.auction.high, s.auction.bidder, s.auction.passed = amount, seat, []
            events.append(Event("monopol.event.bid", {"seat": seat, "amount": amount}))
            self._maybe_close_auction(s, events)
        return run

    def _do_pass(self, s: MonopolState, seat: int) -> Any:
        if s.auction is None:
            raise _illegal("no_auction", "auction")
        if seat not in rules.bidders(s):
            raise NotYourTurn()

        def run(events: list[Event]) -> None:
            assert s.auction is not None
            s.auction.passed.append(seat)
            events.append(Event("monopol.event.pass", {"seat": seat}))
            self._maybe_close_auction(s, events)
        return run

    def _do_auction_close(self, s: MonopolState, seat: int) -> Any:
        """The service's timer ran out (option auction_minutes): close with the best bid so far.
        No player can close an auction: it closes by itself once every other solvent player has
        bid or passed since the last bid, or on its timer (applied as the TIMER seat)."""
        if seat != TIMER:
            raise _illegal("auction_timer_only", "auction")
        if s.auction is None:
            raise _illegal("no_auction", "auction")

        def run(events: list[Event]) -> None:
            self._close_auction(s, events)
        return run

    def _do_time_up(self, s: MonopolState, seat: int) -> Any:
        """The agreed end time (option end_time) has passed: the game ends by net worth."""
        if seat != TIMER:
            raise _illegal("time_up_timer_only", "winning")

        def run(events: list[Event]) -> None:
            s.finished = "monopol.end.time"
            s.auction = None
            events.append(Event("monopol.event.time_up", {}))
        return run

    def _open_deed_auction(self, s: MonopolState, square: int, events: list[Event]) -> None:
        s.auction = Auction(lot="deed", square=square, eligible=s.solvent())
        events.append(Event("monopol.event.auction", {"square": square, "place": SQUARES[square].name}))

    def _maybe_close_auction(self, s: MonopolState, events: list[Event]) -> None:
        if s.auction is not None and not rules.bidders(s):
            self._close_auction(s, events)

    def _close_auction(self, s: MonopolState, events: list[Event]) -> None:
        auction = s.auction
        assert auction is not None
        s.auction = None
        winner, price = auction.bidder, auction.high
        if auction.lot == "deed":
            name = SQUARES[auction.square].name
            if winner < 0:
                events.append(Event("monopol.event.unsold", {"square": auction.square, "place": name}))
                return
            s.owner[auction.square] = winner
            events.append(Event("monopol.event.auction_won", {"seat": winner, "square": auction.square,
                                                              "place": name, "amount": price}))
            self._charge(s, winner, BANK, price, events)
            return
        if winner < 0 or not rules.can_build_lot(s, winner, auction.lot):
            events.append(Event("monopol.event.building_unsold", {"lot": auction.lot}))
            return
        if auction.lot == "house":
            s.bank_houses -= 1
        else:
            s.bank_hotels -= 1
        s.placement = {"seat": winner, "lot": auction.lot}
        events.append(Event(f"monopol.event.{auction.lot}_won", {"seat": winner, "amount": price}))
        self._charge(s, winner, BANK, price, events)

    # ------------------------------------------------------------------ building
    def _free_check(self, s: MonopolState, seat: int) -> None:
        """Checks for actions open to anyone at any time: a won building is placed first
        (unless its buyer must raise money for it)."""
        if s.placement and s.placement["seat"] == seat and not rules.in_debt(s, seat):
            raise _illegal("place_first", "building")

    def _do_build(self, s: MonopolState, seat: int, square: int, count: int) -> Any:
        if s.placement and s.placement["seat"] == seat:
            return self._place(s, seat, square, count)
        if rules.in_debt(s, seat):
            raise _illegal("in_debt", "debt")
        plan = rules.build_plan(s, seat, square, count, check_stock=False)
        if isinstance(plan, str):
            raise _illegal(plan.split(".")[-1], "building")
        lot = "hotel" if s.level[square] == HOTEL - 1 else "house"
        bidders = rules.shortage_bidders(s, lot)
        stock = s.bank_hotels if lot == "hotel" else s.bank_houses
        if len(bidders) > 1 and seat in bidders and 0 < stock < len(bidders):
            if count > 1:
                raise _illegal("shortage_one", "building")
            return self._shortage(s, seat, lot, bidders)
        plan = rules.build_plan(s, seat, square, count)
        if isinstance(plan, str):
            raise _illegal(plan.split(".")[-1], "building")
        cost = SQUARES[square].house_cost * count
        if s.cash[seat] < cost:
            raise _illegal("cannot_afford", "building", amount=cost)

        def run(events: list[Event]) -> None:
            for target in plan:
                self._raise_level(s, target)
            self._pay(s, seat, BANK, cost)
            events.append(Event("monopol.event.build", {"seat": seat, "square": square, "count": count,
                                                        "place": SQUARES[square].name, "amount": cost}))
        return run

    def _shortage(self, s: MonopolState, seat: int, lot: str, bidders: list[int]) -> Any:
        if s.auction or s.debts or s.choices:
            raise _illegal("busy", "building")

        def run(events: list[Event]) -> None:
            # the request opens the auction with the asker's opening bid
            s.auction = Auction(lot=lot, square=-1, eligible=bidders, high=AUCTION_START, bidder=seat)
            events.append(Event(f"monopol.event.{lot}_shortage", {"seat": seat, "amount": AUCTION_START}))
            self._maybe_close_auction(s, events)
        return run

    def _place(self, s: MonopolState, seat: int, square: int, count: int) -> Any:
        assert s.placement is not None
        lot = str(s.placement["lot"])
        if count != 1 or square not in rules.can_build_lot(s, seat, lot):
            raise _illegal("place_where", "building")

        def run(events: list[Event]) -> None:
            # the building left the bank's stock when the auction closed; a hotel returns 4 houses
            if lot == "hotel":
                s.bank_houses += 4
            s.level[square] += 1
            s.placement = None
            events.append(Event("monopol.event.placed", {"seat": seat, "square": square,
                                                         "place": SQUARES[square].name, "lot": lot}))
        return run

    def _raise_level(self, s: MonopolState, square: int) -> None:
        if s.level[square] == HOTEL - 1:
            s.bank_houses += 4
            s.bank_hotels -= 1
        else:
            s.bank_houses -= 1
        s.level[square] += 1

    def _do_sell(self, s: MonopolState, seat: int, square: int, count: int) -> Any:
        self._free_check(s, seat)
        plan = rules.sell_plan(s, seat, square, count)
        if isinstance(plan, str):
            raise _illegal(plan.split(".")[-1], "selling")

        def run(events: list[Event]) -> None:
            levels = rules.sell_levels(s, square, plan)
            units = sum(s.level[x] - levels[x] for x in levels)
            for target, level in levels.items():
                self._set_level(s, target, level)
            amount = units * SQUARES[square].house_cost // 2
            self._bank_pays(s, seat, amount)
            events.append(Event("monopol.event.sell", {"seat": seat, "square": square, "count": units,
                                                       "place": SQUARES[square].name, "amount": amount}))
            if units > count:
                # the bank had too few houses to break a hotel down: the set went down further, evenly
                events.append(Event("monopol.event.sell_shortage", {"seat": seat, "count": units - count,
                                                                    "place": SQUARES[square].name}))
        return run

    def _set_level(self, s: MonopolState, square: int, level: int) -> None:
        """Put ``level`` buildings on a street, taking houses and hotels from the bank or
        returning them (the caller keeps within the bank's stock)."""
        old = s.level[square]
        s.bank_houses += (old if old < HOTEL else 0) - (level if level < HOTEL else 0)
        s.bank_hotels += (old == HOTEL) - (level == HOTEL)
        s.level[square] = level

    # ------------------------------------------------------------------ mortgages
    def _own_deed(self, s: MonopolState, seat: int, square: int, topic: str) -> None:
        if not SQUARES[square].is_deed:
            raise _illegal("not_a_deed", topic)
        if s.owner[square] != seat:
            raise _illegal("not_owner", topic)

    def _do_mortgage(self, s: MonopolState, seat: int, square: int) -> Any:
        self._free_check(s, seat)
        self._own_deed(s, seat, square, "mortgage")
        if rules.undecided(s, square):
            raise _illegal("deed_undecided", "mortgage", place=SQUARES[square].name)
        if s.mortgaged[square]:
            raise _illegal("mortgaged", "mortgage")
        if rules.set_has_buildings(s, square):
            raise _illegal("has_buildings", "mortgage")

        def run(events: list[Event]) -> None:
            s.mortgaged[square] = True
            amount = SQUARES[square].mortgage
            self._bank_pays(s, seat, amount)
            events.append(Event("monopol.event.mortgage", {"seat": seat, "square": square,
                                                           "place": SQUARES[square].name, "amount": amount}))
        return run

    def _do_unmortgage(self, s: MonopolState, seat: int, square: int) -> Any:
        self._free_check(s, seat)
        self._own_deed(s, seat, square, "mortgage")
        if rules.in_debt(s, seat):
            raise _illegal("in_debt", "debt")
        if not s.mortgaged[square]:
            raise _illegal("not_mortgaged", "mortgage")
        if any(c.square == square for c in s.choices):
            raise _illegal("choose_first", "mortgage")
        cost = rules.lift_cost(square)
        if s.cash[seat] < cost:
            raise _illegal("cannot_afford", "mortgage", amount=cost)

        return lambda events: self._lift_mortgage(s, seat, square, cost, events)

    def _lift_mortgage(self, s: MonopolState, seat: int, square: int, cost: int, events: list[Event]) -> None:
        s.mortgaged[square] = False
        self._pay(s, seat, BANK, cost)
        events.append(Event("monopol.event.unmortgage", {"seat": seat, "square": square,
                                                         "place": SQUARES[square].name, "amount": cost}))

    def _choice_check(self, s: MonopolState, seat: int, square: int) -> None:
        if s.debts or s.placement or not s.choices:
            raise _illegal("no_choice", "mortgage")
        head = s.choices[0]
        if head.seat != seat or s.owner[head.square] != seat:
            raise NotYourTurn()
        if head.square != square:
            raise _illegal("choose_other", "mortgage", square=head.square, place=SQUARES[head.square].name)

    def _do_lift(self, s: MonopolState, seat: int, square: int) -> Any:
        self._choice_check(s, seat, square)
        cost = rules.lift_cost(square)
        if s.cash[seat] < cost:
            raise _illegal("cannot_afford", "mortgage", amount=cost)

        def run(events: list[Event]) -> None:
            s.choices.pop(0)
            self._lift_mortgage(s, seat, square, cost, events)
        return run

    def _do_keep_mortgage(self, s: MonopolState, seat: int, square: int) -> Any:
        self._choice_check(s, seat, square)

        def run(events: list[Event]) -> None:
            s.choices.pop(0)
            amount = interest(square)
            events.append(Event("monopol.event.keep_mortgage", {"seat": seat, "square": square,
                                                                "place": SQUARES[square].name, "amount": amount}))
            self._charge(s, seat, BANK, amount, events)
        return run

    # ------------------------------------------------------------------ rent claims
    def _do_claim(self, s: MonopolState, seat: int) -> Any:
        mine = [c for c in s.claims if c.owner == seat]
        if not mine:
            raise _illegal("no_claim", "rent")

        def run(events: list[Event]) -> None:
            s.claims = [c for c in s.claims if c.owner != seat]
            for claim in mine:
                self._rent_paid(s, claim.payer, seat, claim.square, claim.amount, events)
        return run

    # ------------------------------------------------------------------ trades
    def _do_trade(self, s: MonopolState, seat: int, trade: Trade) -> Any:
        self._free_check(s, seat)
        if s.trade:
            raise _illegal("trade_pending", "trading")
        self._check_trade(s, seat, trade)

        def run(events: list[Event]) -> None:
            s.trade = PendingTrade(proposer=seat, text=str(trade))
            s.offered[seat] = s.round
            events.append(Event("monopol.event.trade_offer", {
                "seat": seat, "target": trade.target, "give": rules.describe(trade.give),
                "get": rules.describe(trade.get)}))
        return run

    def _check_trade(self, s: MonopolState, seat: int, trade: Trade) -> None:
        target = trade.target
        if target == seat or not 0 <= target < s.players or s.bankrupt[target]:
            raise _illegal("bad_partner", "trading")
        if trade.give.empty and trade.get.empty:
            raise _illegal("empty_trade", "trading")
        for side, bundle in ((seat, trade.give), (target, trade.get)):
            if bundle.cash > s.cash[side]:
                raise _illegal("trade_cash", "trading", seat=side, amount=bundle.cash)
            if bundle.cash and rules.in_debt(s, side):
                # money owed goes to the creditor first: a debtor may sell deeds for cash, not give cash
                raise _illegal("trade_cash_debt", "debt", seat=side)
            if bundle.cards > len(s.jail_cards[side]):
                raise _illegal("trade_cards", "trading", seat=side)
            for square in bundle.deeds:
                if not SQUARES[square].is_deed or s.owner[square] != side:
                    raise _illegal("trade_deed", "trading", seat=side, place=SQUARES[square].name)
                if rules.undecided(s, square):
                    raise _illegal("deed_undecided", "mortgage", place=SQUARES[square].name)
                if rules.set_has_buildings(s, square):
                    raise _illegal("trade_buildings", "trading", place=SQUARES[square].name)

    def _do_accept(self, s: MonopolState, seat: int) -> Any:
        if s.trade is None:
            raise _illegal("no_trade", "trading")
        trade = rules.trade_of(s)
        if seat != trade.target:
            raise NotYourTurn("monopol.error.not_your_trade")
        if s.placement and s.placement["seat"] == seat:
            raise _illegal("place_first", "building")
        proposer = s.trade.proposer
        self._check_trade(s, proposer, trade)

        def run(events: list[Event]) -> None:
            s.trade = None
            self._hand_over(s, proposer, trade.target, trade.give)
            self._hand_over(s, trade.target, proposer, trade.get)
            events.append(Event("monopol.event.trade_done", {"seat": trade.target, "target": proposer}))
        return run

    def _hand_over(self, s: MonopolState, giver: int, taker: int, bundle: Bundle) -> None:
        self._pay(s, giver, taker, bundle.cash)
        for square in bundle.deeds:
            s.owner[square] = taker
            if s.mortgaged[square]:
                s.choices.append(MortgageChoice(taker, square))
        for _ in range(bundle.cards):
            s.jail_cards[taker].append(s.jail_cards[giver].pop(0))

    def _do_decline_trade(self, s: MonopolState, seat: int) -> Any:
        if s.trade is None:
            raise _illegal("no_trade", "trading")
        if seat not in (s.trade.proposer, rules.trade_of(s).target):
            raise NotYourTurn("monopol.error.not_your_trade")

        def run(events: list[Event]) -> None:
            s.trade = None
            events.append(Event("monopol.event.trade_declined", {"seat": seat}))
        return run

    # ------------------------------------------------------------------ bankruptcy
    def _do_bankrupt(self, s: MonopolState, seat: int) -> Any:
        if not s.debts or s.debts[0].debtor != seat:
            raise _illegal("not_in_debt", "bankruptcy")
        debts = [d for d in s.debts if d.debtor == seat]
        total = sum(d.amount for d in debts)
        if rules.liquidation_value(s, seat) >= total:
            raise _illegal("can_still_pay", "bankruptcy", amount=total)
        creditors = {d.creditor for d in debts}

        def run(events: list[Event]) -> None:
            if len(creditors) > 1:
                self._share_out(s, seat, debts, events)
            self._bankrupt(s, seat, creditors.pop() if len(creditors) == 1 else BANK, events)
        return run

    def _share_out(self, s: MonopolState, seat: int, debts: list[Debt], events: list[Event]) -> None:
        """A bankrupt owing several creditors (a card's "pay each player"): no single player
        takes everything. The buildings go back to the bank at half price and the cash is shared
        out in proportion to what each is owed; the deeds then go to the bank, which auctions
        them (as in a bankruptcy to the bank)."""
        for square in DEEDS:
            if s.owner[square] == seat and s.level[square]:
                self._bank_pays(s, seat, s.level[square] * SQUARES[square].house_cost // 2)
                self._set_level(s, square, 0)
        cash, total = s.cash[seat], sum(d.amount for d in debts)
        for debt in debts:
            share = min(debt.amount, cash * debt.amount // total)
            self._pay(s, seat, debt.creditor, share)
            if debt.creditor != BANK:
                events.append(Event("monopol.event.share", {"seat": seat, "target": debt.creditor, "amount": share}))

    def resign(self, state: MonopolState, seat: Seat) -> list[Event]:
        events: list[Event] = []
        if not state.finished and not state.bankrupt[seat]:
            self._bankrupt(state, seat, BANK, events)
            self._settle(state, events)
        return events

    def _bankrupt(self, s: MonopolState, seat: int, creditor: int, events: list[Event]) -> None:
        for square in DEEDS:
            if s.owner[square] == seat:
                if s.level[square]:
                    self._bank_pays(s, seat, s.level[square] * SQUARES[square].house_cost // 2)
                    self._set_level(s, square, 0)
        s.debts = [d for d in s.debts if d.debtor != seat and d.creditor != seat]
        s.bankrupt[seat] = True
        s.out_order.append(seat)
        deeds = [sq for sq in DEEDS if s.owner[sq] == seat]
        if creditor == BANK:
            events.append(Event("monopol.event.bankrupt_bank", {"seat": seat}))
            self._pay(s, seat, BANK, s.cash[seat])
            for square in deeds:
                s.owner[square] = -1
                s.mortgaged[square] = False
            for card in s.jail_cards[seat]:
                s.decks[CARDS[card].deck].append(card)
            s.auction_queue.extend(deeds)
        else:
            events.append(Event("monopol.event.bankrupt_player", {"seat": seat, "target": creditor}))
            self._pay(s, seat, creditor, s.cash[seat])
            for square in deeds:
                s.owner[square] = creditor
                if s.mortgaged[square]:
                    s.choices.append(MortgageChoice(creditor, square))
            s.jail_cards[creditor].extend(s.jail_cards[seat])
        s.jail_cards[seat] = []
        s.in_jail[seat] = False
        s.claims = [c for c in s.claims if seat not in (c.payer, c.owner)]
        s.choices = [c for c in s.choices if c.seat != seat]
        if s.trade and seat in (s.trade.proposer, rules.trade_of(s).target):
            s.trade = None
        if s.placement and s.placement["seat"] == seat:
            if s.placement["lot"] == "hotel":
                s.bank_hotels += 1
            else:
                s.bank_houses += 1
            s.placement = None
        if s.auction:
            if s.auction.bidder == seat:
                s.auction.bidder, s.auction.high = -1, 0
            s.auction.eligible = [e for e in s.auction.eligible if e != seat]
        if len(s.solvent()) <= 1:
            s.finished = "monopol.end.last"
            s.auction = None
            return
        if s.auction:
            self._maybe_close_auction(s, events)
        if seat == s.turn:
            self._advance_turn(s, events)

    # ------------------------------------------------------------------ movement
    def _move(self, s: MonopolState, seat: int, steps: int, events: list[Event]) -> None:
        target = (s.position[seat] + steps) % 40
        self._go(s, seat, target, events)

    def _go(self, s: MonopolState, seat: int, target: int, events: list[Event], *,
            card: bool = False) -> None:
        """Move forwards to ``target`` (collecting on passing Start), then resolve the square."""
        if target < s.position[seat] or (target == 0 and s.position[seat] != 0):
            self._bank_pays(s, seat, PASS_START)
            events.append(Event("monopol.event.pass_start", {"seat": seat, "amount": PASS_START}))
        s.position[seat] = target
        key = "monopol.event.visit" if target == JAIL else "monopol.event.move"  # landing on jail is a visit
        events.append(Event(key, {"seat": seat, "square": target, "place": SQUARES[target].name}))
        self._land(s, seat, events, card=card)

    def _land(self, s: MonopolState, seat: int, events: list[Event], *, card: bool = False) -> None:
        square = s.position[seat]
        sq = SQUARES[square]
        s.phase = self._after_landing(s, seat)
        if sq.is_deed:
            owner = s.owner[square]
            if owner < 0:
                s.phase = BUY
            elif owner != seat and not s.mortgaged[square]:
                dice = sum(s.last_roll)
                if card and sq.kind == "utility":
                    dice = s.rng.die() + s.rng.die()
                    events.append(Event("monopol.event.utility_roll", {"seat": seat, "total": dice}))
                amount = rules.rent(s, square, dice, card=card)
                if s.options.get("rent_must_be_claimed"):
                    s.claims.append(Claim(seat, owner, square, amount))
                    events.append(Event("monopol.event.claimable", {"seat": seat, "owner_seat": owner,
                                                                    "place": sq.name, "amount": amount}))
                else:
                    self._rent_paid(s, seat, owner, square, amount, events)
        elif sq.kind == "tax":
            events.append(Event("monopol.event.tax", {"seat": seat, "place": sq.name, "amount": sq.amount}))
            self._charge(s, seat, BANK, sq.amount, events)
        elif sq.kind in DECKS:
            self._draw(s, seat, sq.kind, events)
        elif square == GO_TO_JAIL:
            self._to_jail(s, seat, events)

    def _after_landing(self, s: MonopolState, seat: int) -> str:
        return ROLL if s.doubles and not s.in_jail[seat] else END

    def _to_jail(self, s: MonopolState, seat: int, events: list[Event]) -> None:
        # straight to jail: never passes Start
        s.position[seat] = JAIL
        s.in_jail[seat] = True
        s.jail_tries[seat] = 0
        s.doubles = 0
        if seat == s.turn:
            s.phase = END
        events.append(Event("monopol.event.to_jail", {"seat": seat}))

    def _rent_paid(self, s: MonopolState, payer: int, owner: int, square: int, amount: int,
                   events: list[Event]) -> None:
        events.append(Event("monopol.event.rent", {"seat": payer, "owner_seat": owner,
                                                   "place": SQUARES[square].name, "amount": amount}))
        self._charge(s, payer, owner, amount, events)

    # ------------------------------------------------------------------ cards
    def _draw(self, s: MonopolState, seat: int, deck: str, events: list[Event]) -> None:
        card_id = s.decks[deck].pop(0)
        card = CARDS[card_id]
        events.append(Event(f"monopol.card.{card_id}", {"seat": seat}))
        if card.effect == "jail_free":
            s.jail_cards[seat].append(card_id)  # kept until used or traded
        else:
            s.decks[deck].append(card_id)
        params = card.params
        if card.effect == "advance":
            self._go(s, seat, int(params["square"]), events)
        elif card.effect == "nearest":
            square = s.position[seat]
            kind = str(params["kind"])
            while True:
                square = (square + 1) % 40
                if SQUARES[square].kind == kind:
                    break
            self._go(s, seat, square, events, card=True)
        elif card.effect == "collect":
            self._bank_pays(s, seat, int(params["amount"]))
        elif card.effect == "pay":
            self._charge(s, seat, BANK, int(params["amount"]), events)
        elif card.effect == "back":
            s.position[seat] = (s.position[seat] - int(params["steps"])) % 40
            events.append(Event("monopol.event.move", {"seat": seat, "square": s.position[seat],
                                                       "place": SQUARES[s.position[seat]].name}))
            self._land(s, seat, events)
        elif card.effect == "go_to_jail":
            self._to_jail(s, seat, events)
        elif card.effect == "repairs":
            houses = sum(lv for sq, lv in enumerate(s.level) if s.owner[sq] == seat and lv < HOTEL)
            hotels = sum(1 for sq, lv in enumerate(s.level) if s.owner[sq] == seat and lv == HOTEL)
            amount = houses * int(params["house"]) + hotels * int(params["hotel"])
            if amount:
                self._charge(s, seat, BANK, amount, events)
        elif card.effect == "pay_each":
            # each player gets an equal share: all at once, or each a debt of the same size
            others = [other for other in s.solvent() if other != seat]
            amount = int(params["amount"])
            if s.cash[seat] >= amount * len(others) and not rules.in_debt(s, seat):
                for other in others:
                    self._pay(s, seat, other, amount)
            else:
                for other in others:
                    self._owe(s, seat, other, amount, events)
        elif card.effect == "collect_each":
            for other in s.solvent():
                if other != seat:
                    self._charge(s, other, seat, int(params["amount"]), events)

    # ------------------------------------------------------------------ money
    def _pay(self, s: MonopolState, payer: int, creditor: int, amount: int) -> None:
        s.cash[payer] -= amount
        if creditor == BANK:
            s.bank += amount
        else:
            s.cash[creditor] += amount

    def _bank_pays(self, s: MonopolState, seat: int, amount: int) -> None:
        s.cash[seat] += amount
        s.bank -= amount

    def _charge(self, s: MonopolState, payer: int, creditor: int, amount: int, events: list[Event]) -> None:
        """Pay now if possible; otherwise the payer owes it and must raise money (or go bankrupt)."""
        if amount <= 0:
            return
        if s.cash[payer] >= amount and not rules.in_debt(s, payer):
            self._pay(s, payer, creditor, amount)
            return
        self._owe(s, payer, creditor, amount, events)

    def _owe(self, s: MonopolState, payer: int, creditor: int, amount: int, events: list[Event]) -> None:
        s.debts.append(Debt(payer, creditor, amount))
        if creditor == BANK:
            events.append(Event("monopol.event.debt_bank", {"seat": payer, "amount": amount}))
        else:
            events.append(Event("monopol.event.debt", {"seat": payer, "target": creditor, "amount": amount}))

    def _settle(self, s: MonopolState, events: list[Event]) -> None:
        """Pay debts that can be paid now, and start the bank's auctions of a bankrupt's deeds."""
        while not s.finished:
            if s.debts and s.cash[s.debts[0].debtor] >= rules.owed(s, s.debts[0].debtor):
                # all of a debtor's debts at once, so that creditors sharing a card's debt are
                # paid alike (or, should the debtor go bankrupt, share alike)
                debtor = s.debts[0].debtor
                for debt in [d for d in s.debts if d.debtor == debtor]:
                    s.debts.remove(debt)
                    self._pay(s, debtor, debt.creditor, debt.amount)
                    events.append(Event("monopol.event.debt_paid", {"seat": debtor, "amount": debt.amount}))
                continue
            if s.placement and not s.debts and not rules.can_build_lot(s, int(s.placement["seat"]),
                                                                        str(s.placement["lot"])):
                # the buyer sold off what the building needed: it goes back to the bank
                lot = str(s.placement["lot"])
                if lot == "hotel":
                    s.bank_hotels += 1
                else:
                    s.bank_houses += 1
                events.append(Event("monopol.event.placement_lapsed", {"seat": s.placement["seat"], "lot": lot}))
                s.placement = None
                continue
            if s.auction_queue and not (s.debts or s.auction or s.placement or s.choices):
                self._open_deed_auction(s, s.auction_queue.pop(0), events)
                continue
            break

    def _advance_turn(self, s: MonopolState, events: list[Event]) -> None:
        seat = s.turn
        for step in range(1, s.players + 1):
            nxt = (seat + step) % s.players
            if not s.bankrupt[nxt]:
                break
        first = s.first
        if (nxt - first) % s.players <= (seat - first) % s.players:  # the turn passes the first seat
            limit = int(s.options.get("max_rounds", 0))
            if limit and s.round >= limit:
                s.finished = "monopol.end.rounds"
                s.auction = None
                events.append(Event("monopol.event.rounds_over", {"rounds": limit}))
                return
            s.round += 1
        s.turn, s.phase, s.doubles = nxt, ROLL, 0
        events.append(Event("monopol.event.turn", {"seat": nxt}))

    # ------------------------------------------------------------------ views
    def observe(self, state: MonopolState, seat: Seat | None) -> dict[str, Any]:
        s = state
        trade = None
        if s.trade:
            parsed = rules.trade_of(s)
            trade = {"proposer": s.trade.proposer, "target": parsed.target, "text": s.trade.text,
                     "give": rules.describe(parsed.give), "get": rules.describe(parsed.get)}
        auction = None
        if s.auction:
            auction = {"lot": s.auction.lot, "square": s.auction.square, "high": s.auction.high,
                       "bidder": s.auction.bidder, "passed": list(s.auction.passed),
                       "eligible": list(s.auction.eligible)}
        public = {
            "players": s.players, "cash": list(s.cash), "position": list(s.position), "bank": s.bank,
            "in_jail": list(s.in_jail), "jail_tries": list(s.jail_tries),
            "jail_cards": [len(c) for c in s.jail_cards], "bankrupt": list(s.bankrupt),
            "owner": list(s.owner), "level": list(s.level), "mortgaged": list(s.mortgaged),
            "bank_houses": s.bank_houses, "bank_hotels": s.bank_hotels, "turn": s.turn, "phase": s.phase,
            "doubles": s.doubles, "round": s.round, "max_rounds": int(s.options.get("max_rounds", 0)),
            "last_roll": list(s.last_roll), "auction": auction, "auction_queue": list(s.auction_queue),
            "debts": [{"debtor": d.debtor, "creditor": d.creditor, "amount": d.amount} for d in s.debts],
            "choices": [{"seat": c.seat, "square": c.square} for c in s.choices],
            "placement": dict(s.placement) if s.placement else None,
            "claims": [{"payer": c.payer, "owner": c.owner, "square": c.square, "amount": c.amount}
                       for c in s.claims],
            "trade": trade, "deck_sizes": {k: len(v) for k, v in s.decks.items()},
            "net_worth": [rules.net_worth(s, p) for p in range(s.players)],
            "to_act": sorted(self.to_act(s)), "recent": [dict(e) for e in s.recent],
            "finished": s.finished, "options": dict(s.options), "winners": self._winners(s),
        }
        return {"game": self.name, "seat": seat, "public": public, "private": None}

    def _winners(self, s: MonopolState) -> list[int]:
        """The seats sharing first place once the game is over (empty while it runs)."""
        outcome = self.outcome(s)
        return list(outcome.places[0]) if outcome and outcome.places else []

    def scramble_hidden(self, state: MonopolState, viewer: Seat | None, rng: Rng) -> MonopolState:
        copy = self.copy(state)
        for deck in copy.decks.values():
            rng.shuffle(deck)
        return copy

    def outcome(self, state: MonopolState) -> Outcome | None:
        s = state
        if not s.finished:
            return None
        scores = {p: rules.net_worth(s, p) for p in range(s.players)}
        alive = sorted(s.solvent(), key=lambda p: -scores[p])
        places: list[tuple[int, ...]] = []
        for p in alive:
            if places and scores[places[-1][0]] == scores[p]:
                places[-1] += (p,)
            else:
                places.append((p,))
        places.extend((p,) for p in reversed(s.out_order))
        return Outcome(tuple(places), s.finished, scores)

