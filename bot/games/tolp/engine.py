"""The Tölp engine: the game's rules, options and views, wiring the round (``rounds``), the
exchanges between rounds (``exchange``), the trick play (``play``) and the standings
(``standings``). Its computer players (``computer``) are registered beside it, in the package.

Decisions beyond the seed are explained in rules/en.md.
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bot.engine.cards import Card, rank_text
from bot.engine.core import Event, Game, OptionSpec, Outcome, Seat
from bot.engine.rng import Rng
from bot.errors import NotYourTurn

from . import exchange, play
from .actions import Action, parse_action
from .combos import WILD_RANKS
from .rounds import event, illegal, start_round
from .standings import by_kungs
from .state import TolpState


class TolpGame(Game[TolpState]):
    name = "tolp"
    min_players = 2
    max_players = 10
    FORMAT_VERSION = 1
    rules_languages = ("en", "sv", "nb", "cs")
    turn_hours = 12.0
    options = (
        OptionSpec("two_decks", False, description_key="tolp.option.two_decks"),
        OptionSpec("tolp_leads", False, description_key="tolp.option.tolp_leads"),
        OptionSpec("exchange_cap", 0, minimum=0, maximum=5, description_key="tolp.option.exchange_cap"),
        OptionSpec("wild", "none", choices=tuple(WILD_RANKS), description_key="tolp.option.wild"),
        OptionSpec("scoring", "endless", choices=("endless", "rounds", "three"),
                   description_key="tolp.option.scoring"),
        OptionSpec("rounds", 10, minimum=1, maximum=100, description_key="tolp.option.rounds"),
    )
    playout_options = {"scoring": "rounds", "rounds": 2}
    max_playout_actions = 6000

    # ------------------------------------------------------------------ lifecycle
    def check_players(self, players: int, options: Mapping[str, Any]) -> None:
        super().check_players(players, options)
        if options.get("two_decks") and players < 8:
            raise illegal("two_decks_players", "setup", count=players)

    def new(self, players: int, options: Mapping[str, Any], seed: str) -> TolpState:
        resolved = self.resolve_options(options)
        self.check_players(players, resolved)
        state = TolpState(players=players, options=resolved, rng=Rng(seed),
                          titles=[None] * players, kungs=[0] * players)
        start_round(state, [])
        return state

    def dump(self, state: TolpState) -> dict[str, Any]:
        return state.dump()

    def load(self, data: Mapping[str, Any]) -> TolpState:
        return TolpState.load(dict(data))

    def close(self, state: TolpState) -> list[Event] | None:
        """An endless game ended by the table keeps its protocol: places by Kung titles."""
        if state.options["scoring"] != "endless" or state.phase == "over" or state.round <= 1:
            return None
        state.result = {"places": by_kungs(state, range(state.players)), "reason": "tolp.end.closed"}
        state.phase, state.turn = "over", None
        return []

    def opening_events(self, state: TolpState) -> list[Event]:
        """Who leads the first round, and with which card, for the table's first message."""
        if state.phase != "play" or state.turn is None:
            return []
        if state.must_include is not None:
            return [event("leads_with", seat=state.turn, card=str(state.must_include))]
        return [event("leads", seat=state.turn)]

    # ------------------------------------------------------------------ turns
    def to_act(self, state: TolpState) -> frozenset[Seat]:
        if state.phase == "exchange":
            return frozenset(ex.high for ex in state.exchanges if not ex.done)
        if state.phase == "play" and state.turn is not None:
            return frozenset({state.turn})
        return frozenset()

    def parse_action(self, text: str) -> Action:
        return parse_action(text)

    def legal_actions(self, state: TolpState, seat: Seat) -> list[Action]:
        if seat not in self.to_act(state):
            return []
        if state.phase == "exchange":
            return exchange.legal_exchange(state, seat)
        return play.legal_plays(state, seat)

    def apply(self, state: TolpState, seat: Seat, action: Action) -> list[Event]:
        if state.phase == "over":
            raise illegal("game_over", "scoring")
        if seat not in self.to_act(state):
            raise NotYourTurn()
        events: list[Event] = []
        if state.phase == "play":
            play.act(state, seat, action, events)
        else:
            exchange.act(state, seat, action, events)
        return events

    # ------------------------------------------------------------------ views
    def observe(self, state: TolpState, seat: Seat | None) -> dict[str, Any]:
        public = {
            "round": state.round,
            "phase": state.phase,
            "players": state.players,
            "counts": [len(h) for h in state.hands],
            "set_aside": len(state.set_aside),
            "titles": list(state.titles),
            "table": [{"seat": s, "cards": [str(c) for c in cards]} for s, cards in state.table],
            "passed": list(state.passed),
            "turn": state.turn,
            "to_act": sorted(self.to_act(state)),
            "must_include": str(state.must_include) if state.must_include else None,
            "places": [state.place_of(s) for s in range(state.players)],
            "stuck": list(state.stuck),
            "exchanges": [{"high": e.high, "low": e.low, "count": e.count, "laid": bool(e.laid),
                           "done": e.done} for e in state.exchanges],
            "protocol": [list(r) for r in state.protocol],
            "kungs": list(state.kungs),
            "streak": list(state.streak),
            "options": {k: state.options[k] for k in ("wild", "scoring", "rounds", "exchange_cap",
                                                      "two_decks", "tolp_leads")},
            "result": state.result,
        }
        private: dict[str, Any] | None = None
        if seat is not None:
            private = {"hand": [str(c) for c in state.hands[seat]], "exchange": None}
            # the exchange belongs to the exchange phase: once play starts the hand is just the hand
            ex = exchange.exchange_of(state, seat) if state.phase == "exchange" else None
            if ex is not None:
                high = ex.high == seat
                private["exchange"] = {
                    "role": "high" if high else "low",
                    "partner": ex.low if high else ex.high,
                    "count": ex.count,
                    # the low player sees the laid-down cards only when picking them up
                    "laid": [str(c) for c in ex.laid] if high or ex.done else None,
                    "asked": [{"rank": rank_text(r), "count": n} for r, n in ex.asked],
                    "taken": [str(c) for c in ex.taken] if ex.done else None,
                    "done": ex.done,
                }
        return {"game": self.name, "seat": seat, "public": public, "private": private}

    def outcome(self, state: TolpState) -> Outcome | None:
        if state.result is None:
            return None
        return Outcome(places=tuple(tuple(p) for p in state.result["places"]),
                       reason=str(state.result["reason"]),
                       scores={s: state.kungs[s] for s in range(state.players)})

    def resign(self, state: TolpState, seat: Seat) -> list[Event]:
        """The game ends at once: the others ranked by Kung titles (ties share), ``seat`` last."""
        if state.phase == "over":
            raise illegal("game_over", "scoring")
        rest = by_kungs(state, (s for s in range(state.players) if s != seat))
        state.result = {"places": [*rest, [seat]], "reason": "tolp.end.resign"}
        state.phase, state.turn = "over", None
        # the service announces the resignation itself; the engine tells who is ahead
        return [event("game_won", winner=rest[0][0], kungs=state.kungs[rest[0][0]])]

    def scramble_hidden(self, state: TolpState, viewer: Seat | None, rng: Rng) -> TolpState:
        """Re-deal every card the viewer cannot see: other hands, the set-aside cards and cards
        laid down for an exchange the viewer does not drive (sizes kept)."""
        copy = self.copy(state)
        slots: list[list[Card]] = [h for s, h in enumerate(copy.hands) if s != viewer]
        slots.append(copy.set_aside)
        slots.extend(e.laid for e in copy.exchanges if not e.done and e.high != viewer)
        pool = sorted(c for slot in slots for c in slot)  # in no order the hidden deal could show
        rng.shuffle(pool)
        for slot in slots:
            size = len(slot)
            slot[:] = sorted(pool[:size])
            del pool[:size]
        return copy
