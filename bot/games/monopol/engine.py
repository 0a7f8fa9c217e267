"""The Monopol engine (Norwegian edition): the game's lifecycle, who acts, applying actions,
the views and the outcome. The rules in play live beside it, along the game's own seams:
``turns`` (dice, jail, buying), ``movement`` (the board, rent, cards), ``auctions``, ``building``,
``mortgages``, ``trades``, ``money`` (payments and debts) and ``bankruptcy`` (settling debts,
going bankrupt).

Who acts: interrupts come before the turn, in this order: the first unpaid debt's debtor, a won
building to place, a mortgaged deed to decide on (lift or keep), the open auction's bidders; only
then the turn's seat. A pending trade adds its receiver. Building, selling, mortgaging, lifting,
offering trades and claiming rent are open to every solvent player at any time.
"""
from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from bot.engine.core import TIMER, Event, Game, Luck, OptionSpec, Outcome, Seat
from bot.engine.rng import Rng
from bot.errors import GameMasterError, NotYourTurn
from bot.games.monopol import actions as act
from bot.games.monopol import auctions, bankruptcy, building, mortgages, movement, moves, rules, trades, turns
from bot.games.monopol.actions import Action, Bid, Buildings, OnSquare, Simple
from bot.games.monopol.board import CARDS, DECKS, HOTELS, HOUSES, JAIL_FINE, START_MONEY
from bot.games.monopol.money import BANK, Perform, illegal
from bot.games.monopol.state import ROLL, MonopolState

# what a card's effect means for the seat that drew it (the luck report; moving cards are neither)
CARD_LUCK = {"collect": "good", "collect_each": "good", "jail_free": "good",
             "pay": "bad", "pay_each": "bad", "repairs": "bad", "go_to_jail": "bad"}
TIMER_ACTIONS = ("auction close", "time up")  # applied by the service's clock, never by a player
RECENT = 8  # events kept in the state for the board image
# what each action does (``act.SIMPLE`` and ``act.SQUARE_VERBS``): validate, return the Perform
SIMPLE_ACTIONS: dict[str, Callable[[MonopolState, int], Perform]] = {
    "roll": turns.do_roll, "buy": turns.do_buy, "decline": turns.do_decline, "end": turns.do_end,
    "jail pay": turns.do_jail_pay, "jail card": turns.do_jail_card, "time up": turns.do_time_up,
    "pass": auctions.do_pass, "auction close": auctions.do_auction_close, "claim": movement.do_claim,
    "accept": trades.do_accept, "decline trade": trades.do_decline_trade, "bankrupt": bankruptcy.do_bankrupt,
}
SQUARE_ACTIONS: dict[str, Callable[[MonopolState, int, int], Perform]] = {
    "mortgage": mortgages.do_mortgage, "unmortgage": mortgages.do_unmortgage, "lift": mortgages.do_lift,
    "keep-mortgage": mortgages.do_keep_mortgage,
}


class MonopolGame(Game[MonopolState]):
    name = "monopol"
    min_players = 2
    max_players = 6
    FORMAT_VERSION = 1
    rules_languages = ("en", "sv", "nb", "cs")
    options = (
        OptionSpec("rent_must_be_claimed", False, description_key="monopol.option.rent_must_be_claimed"),
        OptionSpec("auction_minutes", 10, minimum=1, maximum=1440,
                   description_key="monopol.option.auction_minutes"),
        OptionSpec("max_rounds", 0, minimum=0, maximum=1000, description_key="monopol.option.max_rounds"),
        OptionSpec("end_time", "", time=True, description_key="monopol.option.end_time"),
        # house rules (rules text "House rules"); the printed rules are the defaults
        OptionSpec("free_parking_jackpot", False, description_key="monopol.option.free_parking_jackpot"),
        OptionSpec("double_start", False, description_key="monopol.option.double_start"),
        OptionSpec("start_money", START_MONEY, minimum=500, maximum=10000,
                   description_key="monopol.option.start_money"),
        OptionSpec("auctions", True, description_key="monopol.option.auctions"),
        OptionSpec("even_building", True, description_key="monopol.option.even_building"),
        OptionSpec("jail_fine", JAIL_FINE, minimum=0, maximum=500, description_key="monopol.option.jail_fine"),
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
        money = int(options.get("start_money", START_MONEY))
        state = MonopolState(players=players, options=dict(options), rng=rng, cash=[money] * players,
                             position=[0] * players, bank=-money * players, in_jail=[False] * players,
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
        return act.parse_action(text)

    # ---------------------------------------------------------------------- turns
    def to_act(self, state: MonopolState) -> frozenset[Seat]:
        return frozenset(rules.acting(state))

    def legal_actions(self, state: MonopolState, seat: Seat) -> list[Action]:
        return moves.legal_actions(self.is_legal, state, seat)

    def luck(self, event: Event) -> tuple[Luck, ...]:
        """Each roll of both dice, and each Sjanse or Prøv lykken card: money or a free way out of
        jail is good, paying or going to jail is bad (moving cards are neither)."""
        seat = event.params.get("seat")
        if not isinstance(seat, int):
            return ()
        if event.key == "monopol.event.roll":
            return (Luck(seat, "dice", int(event.params["total"]), 2),)
        if event.key.startswith("monopol.card."):
            card = CARDS.get(event.key.removeprefix("monopol.card."))
            kind = CARD_LUCK.get(card.effect) if card else None
            if card and card.effect == "advance" and int(card.params.get("square", -1)) == 0:
                kind = "good"  # straight to Start: the salary
            return (Luck(seat, kind),) if kind else ()
        return ()

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
            raise illegal("game_over")
        if seat != TIMER and (not 0 <= seat < s.players or s.bankrupt[seat]):
            raise NotYourTurn()
        handler = self._handler(s, seat, action)
        events: list[Event] = []
        handler(events)
        bankruptcy.settle(s, events)
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

    def _handler(self, s: MonopolState, seat: int, action: Action) -> Perform:
        """Validate ``action`` completely and return a closure that performs it."""
        if seat == TIMER and str(action) not in TIMER_ACTIONS:
            raise NotYourTurn()
        if isinstance(action, Simple):
            return SIMPLE_ACTIONS[action.verb](s, seat)
        if isinstance(action, Bid):
            return auctions.do_bid(s, seat, action.amount)
        if isinstance(action, Buildings):
            if action.verb == "build":
                return building.do_build(s, seat, action.square, action.count)
            return building.do_sell(s, seat, action.square, action.count)
        if isinstance(action, OnSquare):
            return SQUARE_ACTIONS[action.verb](s, seat, action.square)
        return trades.do_trade(s, seat, action)

    def resign(self, state: MonopolState, seat: Seat) -> list[Event]:
        events: list[Event] = []
        if not state.finished and not state.bankrupt[seat]:
            bankruptcy.bankrupt(state, seat, BANK, events)
            bankruptcy.settle(state, events)
        return events

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
            "pot": s.pot,
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

