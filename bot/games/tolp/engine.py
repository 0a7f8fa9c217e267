"""The Tölp engine: dealing, the trick play, going out, titles, the exchanges and scoring.

Decisions beyond the seed are explained in rules/en.md; the main ones: two players always set
ten cards aside; the round's first play must contain the lowest natural card dealt (♥2 unless it
is wild or set aside); a player left with only wild cards can never go out, so they leave the
round at once and take the lowest free place.
"""
from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from bot.engine.cards import Card, cards_text, rank_text, standard_deck
from bot.engine.core import Event, Game, OptionSpec, Outcome, Seat
from bot.engine.rng import Rng
from bot.errors import IllegalAction, NotYourTurn

from .actions import MAX_PLAY_CARDS, Action, Ask, Claim, Give, High, Pass, Play, parse_action
from .combos import WILD_RANKS, Combination, candidate_plays, check_beats, combination_of, is_wild
from .state import Exchange, TolpState, exchange_pairs, title_for

SET_ASIDE_TWO_PLAYERS = 10
# Suit order that picks the start card among equal ranks: hearts first, as the seed names ♥2.
START_SUITS = ("H", "S", "D", "C")


def _event(key: str, visible_to: Iterable[int] | None = None, **params: Any) -> Event:
    return Event(f"tolp.event.{key}", params, None if visible_to is None else frozenset(visible_to))


def _illegal(code: str, topic: str, **params: Any) -> IllegalAction:
    return IllegalAction(f"tolp.error.{code}", topic=topic, **params)


def _cards_of_rank_high_first(hand: Sequence[Card], rank: int) -> list[Card]:
    return sorted((c for c in hand if c.rank == rank), reverse=True)


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
            raise _illegal("two_decks_players", "setup", count=players)

    def new(self, players: int, options: Mapping[str, Any], seed: str) -> TolpState:
        resolved = self.resolve_options(options)
        self.check_players(players, resolved)
        state = TolpState(players=players, options=resolved, rng=Rng(seed),
                          titles=[None] * players, kungs=[0] * players)
        self._start_round(state, [])
        return state

    def dump(self, state: TolpState) -> dict[str, Any]:
        return state.dump()

    def load(self, data: Mapping[str, Any]) -> TolpState:
        return TolpState.load(dict(data))

    # ------------------------------------------------------------------ helpers
    @staticmethod
    def _wild(state: TolpState) -> frozenset[int]:
        return WILD_RANKS[str(state.options["wild"])]

    def _exchange_of(self, state: TolpState, seat: Seat) -> Exchange | None:
        for ex in state.exchanges:
            if seat in (ex.high, ex.low):
                return ex
        return None

    def _table_combos(self, state: TolpState) -> list[Combination]:
        wild = self._wild(state)
        return [combination_of(cards, wild) for _, cards in state.table]

    # ------------------------------------------------------------------ round flow
    def _start_round(self, state: TolpState, events: list[Event]) -> None:
        state.round += 1
        decks = 2 if state.options["two_decks"] else 1
        jokers = 2 if state.options["wild"] == "jokers" else 0
        deck = standard_deck(decks, jokers)
        state.rng.shuffle(deck)
        state.set_aside = []
        if state.players == 2:
            state.set_aside = sorted(deck[:SET_ASIDE_TWO_PLAYERS])
            deck = deck[SET_ASIDE_TWO_PLAYERS:]
        # the deal moves one seat to the left each round, so the odd cards go round too
        first = (state.round - 1) % state.players
        hands: list[list[Card]] = [[] for _ in range(state.players)]
        for i, card in enumerate(deck):
            hands[(first + i) % state.players].append(card)
        state.hands = [sorted(h) for h in hands]
        state.ranking = [None] * state.players
        state.stuck, state.table, state.passed = [], [], []
        state.turn, state.must_include = None, None
        events.append(_event("round_started", round=state.round))
        state.exchanges = []
        if state.protocol:
            wild = self._wild(state)
            last = state.protocol[-1]
            cap = int(state.options["exchange_cap"])
            for hi, lo, count in exchange_pairs(state.players, cap):
                high, low = last[hi], last[lo]
                # wild cards never change hands; a hand short of natural cards swaps fewer
                count = min(count, *(sum(1 for c in state.hands[s] if not is_wild(c, wild))
                                     for s in (high, low)))
                if count > 0:
                    state.exchanges.append(Exchange(high=high, low=low, count=count))
                    events.append(_event("exchange_begun", seat=high, target=low, count=count))
        if state.exchanges:
            state.phase = "exchange"
        else:
            self._begin_play(state, events)

    def close(self, state: TolpState) -> list[Event] | None:
        """An endless game ended by the table keeps its protocol: places by Kung titles."""
        if state.options["scoring"] != "endless" or state.phase == "over" or state.round <= 1:
            return None
        state.result = {"places": self._by_kungs(state, range(state.players)), "reason": "tolp.end.closed"}
        state.phase, state.turn = "over", None
        return []

    def opening_events(self, state: TolpState) -> list[Event]:
        """Who leads the first round, and with which card, for the table's first message."""
        if state.phase != "play" or state.turn is None:
            return []
        if state.must_include is not None:
            return [_event("leads_with", seat=state.turn, card=str(state.must_include))]
        return [_event("leads", seat=state.turn)]

    def _begin_play(self, state: TolpState, events: list[Event]) -> None:
        state.phase = "play"
        wild = self._wild(state)
        if state.options["tolp_leads"] and state.protocol:
            leader = state.protocol[-1][-1]
        else:
            start = min((c for hand in state.hands for c in hand if not is_wild(c, wild)),
                        key=lambda c: (c.rank, START_SUITS.index(c.suit)))
            leader = next(s for s in range(state.players) if start in state.hands[s])
            state.must_include = start
        for seat in range(state.players):
            if all(is_wild(c, wild) for c in state.hands[seat]):
                self._place(state, seat, events, stuck=True)
        if len(state.active()) <= 1:
            self._end_round(state, events)
            return
        if leader not in state.active():
            leader = state.next_active(leader)
        state.turn = leader
        if state.must_include is not None:
            events.append(_event("leads_with", seat=leader, card=str(state.must_include)))
        else:
            events.append(_event("leads", seat=leader))

    def _place(self, state: TolpState, seat: Seat, events: list[Event], *, stuck: bool,
               key: str = "went_out") -> None:
        """Give ``seat`` the best free place (went out, or left over when the round ends) or the
        worst one (stuck on wild cards)."""
        free = [i for i, s in enumerate(state.ranking) if s is None]
        place = free[-1] if stuck else free[0]
        state.ranking[place] = seat
        if stuck:
            state.stuck.append(seat)
        events.append(_event("stuck" if stuck else key, seat=seat, place=place + 1))

    def _leave_after_play(self, state: TolpState, seat: Seat, events: list[Event], *, stuck: bool) -> None:
        self._place(state, seat, events, stuck=stuck)
        state.table, state.passed = [], []
        if len(state.active()) <= 1:
            self._end_round(state, events)
            return
        state.turn = state.next_active(seat)
        events.append(_event("cleared", seat=state.turn))

    def _end_round(self, state: TolpState, events: list[Event]) -> None:
        for seat in state.active():  # the one player still holding cards did not go out
            self._place(state, seat, events, stuck=False, key="last")
        order = [s for s in state.ranking if s is not None]
        state.protocol.append(order)
        state.titles = [None] * state.players
        for place, seat in enumerate(order):
            state.titles[seat] = title_for(place, state.players)
        kung = order[0]
        state.kungs[kung] += 1
        state.streak = [kung, state.streak[1] + 1 if state.streak[0] == kung else 1]
        state.table, state.passed, state.turn = [], [], None
        events.append(_event("round_over", round=state.round, kung_seat=kung, tolp_seat=order[-1]))
        for seat in order:
            events.append(_event(f"title_{state.titles[seat]}", seat=seat))
        result = self._scoring_result(state)
        if result is None:
            self._start_round(state, events)
            return
        state.result = result
        state.phase = "over"
        events.append(_event("game_won", winner=result["places"][0][0], kungs=state.kungs[
            result["places"][0][0]]))

    def _by_kungs(self, state: TolpState, seats: Iterable[int]) -> list[list[int]]:
        groups: dict[int, list[int]] = {}
        for seat in seats:
            groups.setdefault(state.kungs[seat], []).append(seat)
        return [sorted(groups[k]) for k in sorted(groups, reverse=True)]

    def _scoring_result(self, state: TolpState) -> dict[str, Any] | None:
        scoring = state.options["scoring"]
        if scoring == "rounds" and state.round >= int(state.options["rounds"]):
            places = self._by_kungs(state, range(state.players))
            if len(places[0]) == 1:  # a tie for most Kung titles plays another round
                return {"places": places, "reason": "tolp.end.rounds"}
        if scoring == "three" and state.streak[1] >= 3:
            winner = state.streak[0]
            rest = self._by_kungs(state, (s for s in range(state.players) if s != winner))
            return {"places": [[winner], *rest], "reason": "tolp.end.three"}
        return None

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
            return self._legal_exchange(state, seat)
        hand = state.hands[seat]
        wild = self._wild(state)
        must = state.must_include if not state.table else None
        table = self._table_combos(state)
        actions: list[Action] = []
        for cards in candidate_plays(hand, wild, max_cards=MAX_PLAY_CARDS, must_include=must):
            combo = combination_of(cards, wild)
            if table and (combo.rank <= max(c.rank for c in table)
                          or combo.size < max(c.size for c in table)):
                continue
            if len(cards) == len(hand) and combo.wilds:
                continue
            actions.append(Play(cards))
        if state.table:
            actions.append(Pass())
        return actions

    def _legal_exchange(self, state: TolpState, seat: Seat) -> list[Action]:
        ex = self._exchange_of(state, seat)
        assert ex is not None
        wild = self._wild(state)
        hand = state.hands[seat]
        if not ex.laid:
            natural = sorted(c for c in hand if not is_wild(c, wild))
            gives = {tuple(combo) for combo in itertools.combinations(natural, ex.count)}
            return [Give(cards) for cards in sorted(gives)]
        actions: list[Action] = [High()]
        asked = {rank for rank, _ in ex.asked}
        held = sorted({c.rank for c in hand if not is_wild(c, wild)} - asked)
        actions.extend(Ask(rank) for rank in held)
        ranges = [range(answer + 1) for _, answer in ex.asked]
        for counts in itertools.product(*ranges):
            if 0 < sum(counts) <= ex.count:
                ranks = tuple(r for (r, _), n in zip(ex.asked, counts, strict=True) for _ in range(n))
                actions.append(Claim(ranks))
        return actions

    # ------------------------------------------------------------------ apply
    def apply(self, state: TolpState, seat: Seat, action: Action) -> list[Event]:
        if state.phase == "over":
            raise _illegal("game_over", "scoring")
        if seat not in self.to_act(state):
            raise NotYourTurn()
        events: list[Event] = []
        if state.phase == "play":
            if isinstance(action, Play):
                self._play(state, seat, action, events)
            elif isinstance(action, Pass):
                self._pass(state, seat, events)
            else:
                raise _illegal("not_exchanging", "exchange")
            return events
        if isinstance(action, (Play, Pass)):
            raise _illegal("exchanging", "exchange")
        ex = self._exchange_of(state, seat)
        assert ex is not None and ex.high == seat
        if isinstance(action, Give):
            self._give(state, ex, action, events)
        elif isinstance(action, High):
            self._check_laid(ex)
            events.append(_event("said_high", (ex.high, ex.low), seat=ex.high, target=ex.low))
            self._finish_exchange(state, ex, [], events)
        elif isinstance(action, Ask):
            self._ask(state, ex, action, events)
        else:
            self._claim(state, ex, action, events)
        return events

    def _play(self, state: TolpState, seat: Seat, action: Play, events: list[Event]) -> None:
        hand = state.hands[seat]
        cards = list(action.cards)
        if Counter(cards) - Counter(hand):
            raise _illegal("not_in_hand", "play", cards=cards_text(cards))
        wild = self._wild(state)
        combo = combination_of(cards, wild)
        if not state.table and state.must_include is not None and state.must_include not in cards:
            raise _illegal("must_include", "start", card=str(state.must_include))
        check_beats(combo, self._table_combos(state))
        if len(cards) == len(hand) and combo.wilds:
            raise _illegal("out_on_wild", "wild")
        # valid: mutate from here on
        remaining = Counter(hand) - Counter(cards)
        state.hands[seat] = sorted(remaining.elements())
        state.table.append((seat, sorted(cards)))
        state.passed = []
        state.must_include = None
        events.append(_event("played", seat=seat, cards=cards_text(sorted(cards)), count=len(cards),
                             rank=rank_text(combo.rank)))
        if not state.hands[seat]:
            self._leave_after_play(state, seat, events, stuck=False)
        elif all(is_wild(c, wild) for c in state.hands[seat]):
            self._leave_after_play(state, seat, events, stuck=True)
        else:
            state.turn = state.next_active(seat)

    def _pass(self, state: TolpState, seat: Seat, events: list[Event]) -> None:
        if not state.table:
            raise _illegal("must_lead", "pass")
        state.passed.append(seat)
        events.append(_event("passed", seat=seat))
        top_seat = state.table[-1][0]
        others = set(state.active()) - {top_seat}
        if others <= set(state.passed):
            state.table, state.passed = [], []
            state.turn = top_seat
            events.append(_event("cleared", seat=top_seat))
        else:
            state.turn = state.next_active(seat)

    # ------------------------------------------------------------------ exchanges
    @staticmethod
    def _check_laid(ex: Exchange) -> None:
        if not ex.laid:
            raise _illegal("lay_down_first", "exchange", count=ex.count)

    def _give(self, state: TolpState, ex: Exchange, action: Give, events: list[Event]) -> None:
        if ex.laid:
            raise _illegal("already_laid", "exchange")
        cards = list(action.cards)
        if len(cards) != ex.count:
            raise _illegal("give_count", "exchange", count=ex.count)
        hand = state.hands[ex.high]
        if Counter(cards) - Counter(hand):
            raise _illegal("not_in_hand", "exchange", cards=cards_text(cards))
        if any(is_wild(c, self._wild(state)) for c in cards):
            raise _illegal("give_wild", "wild")
        state.hands[ex.high] = sorted((Counter(hand) - Counter(cards)).elements())
        ex.laid = sorted(cards)
        events.append(_event("laid_down", seat=ex.high, target=ex.low, count=ex.count))
        events.append(_event("you_laid", (ex.high,), seat=ex.high, target=ex.low,
                             cards=cards_text(ex.laid)))

    def _ask(self, state: TolpState, ex: Exchange, action: Ask, events: list[Event]) -> None:
        self._check_laid(ex)
        rank = action.rank
        if rank in self._wild(state):
            raise _illegal("ask_wild", "wild", rank=rank_text(rank))
        if not any(c.rank == rank for c in state.hands[ex.high]):
            raise _illegal("ask_not_held", "exchange", rank=rank_text(rank))
        if any(r == rank for r, _ in ex.asked):
            raise _illegal("already_asked", "exchange", rank=rank_text(rank))
        answer = sum(1 for c in state.hands[ex.low] if c.rank == rank)
        ex.asked.append((rank, answer))
        events.append(_event("asked", (ex.high, ex.low), seat=ex.high, target=ex.low,
                             rank=rank_text(rank), count=answer))

    def _claim(self, state: TolpState, ex: Exchange, action: Claim, events: list[Event]) -> None:
        self._check_laid(ex)
        if len(action.ranks) > ex.count:
            raise _illegal("claim_over_limit", "exchange", count=ex.count)
        answers = dict(ex.asked)
        for rank, wanted in Counter(action.ranks).items():
            if rank not in answers:
                raise _illegal("claim_not_asked", "exchange", rank=rank_text(rank))
            if wanted > answers[rank]:
                raise _illegal("claim_too_many", "exchange", rank=rank_text(rank), count=answers[rank])
        events.append(_event("claimed", (ex.high, ex.low), seat=ex.high, target=ex.low,
                             ranks=" ".join(rank_text(r) for r in action.ranks)))
        self._finish_exchange(state, ex, list(action.ranks), events)

    def _finish_exchange(self, state: TolpState, ex: Exchange, ranks: list[int],
                         events: list[Event]) -> None:
        """The low player hands over the claimed ranks plus their highest natural cards for any
        shortfall, then picks up what was laid down for them."""
        wild = self._wild(state)
        low_hand = list(state.hands[ex.low])
        taken: list[Card] = []
        for rank in ranks:
            card = _cards_of_rank_high_first(low_hand, rank)[0]
            low_hand.remove(card)
            taken.append(card)
        highest = sorted((c for c in low_hand if not is_wild(c, wild)), reverse=True)
        for card in highest[:ex.count - len(taken)]:
            low_hand.remove(card)
            taken.append(card)
        state.hands[ex.low] = sorted(low_hand + ex.laid)
        state.hands[ex.high] = sorted(state.hands[ex.high] + taken)
        ex.taken = sorted(taken)
        ex.done = True
        events.append(_event("exchange_done", seat=ex.high, target=ex.low, count=ex.count))
        events.append(_event("you_received", (ex.high,), seat=ex.high, cards=cards_text(ex.taken)))
        events.append(_event("you_received", (ex.low,), seat=ex.low, cards=cards_text(ex.laid)))
        if all(e.done for e in state.exchanges):
            self._begin_play(state, events)

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
            ex = self._exchange_of(state, seat) if state.phase == "exchange" else None
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
            raise _illegal("game_over", "scoring")
        rest = self._by_kungs(state, (s for s in range(state.players) if s != seat))
        state.result = {"places": [*rest, [seat]], "reason": "tolp.end.resign"}
        state.phase, state.turn = "over", None
        # the service announces the resignation itself; the engine tells who is ahead
        return [_event("game_won", winner=rest[0][0], kungs=state.kungs[rest[0][0]])]

    def scramble_hidden(self, state: TolpState, viewer: Seat | None, rng: Rng) -> TolpState:
        """Re-deal every card the viewer cannot see: other hands, the set-aside cards and cards
        laid down for an exchange the viewer does not drive (sizes kept)."""
        copy = self.copy(state)
        slots: list[list[Card]] = [h for s, h in enumerate(copy.hands) if s != viewer]
        slots.append(copy.set_aside)
        slots.extend(e.laid for e in copy.exchanges if not e.done and e.high != viewer)
        pool = [c for slot in slots for c in slot]
        rng.shuffle(pool)
        for slot in slots:
            size = len(slot)
            slot[:] = sorted(pool[:size])
            del pool[:size]
        return copy

    # ------------------------------------------------------------------ computer player
    def bot_action(self, state: TolpState, seat: Seat) -> Action:
        """Give the lowest cards and say "högt"; play the lowest natural combination that fits,
        keeping wild cards for the end of the hand; pass otherwise."""
        legal = self.legal_actions(state, seat)
        if not legal:
            raise IllegalAction("error.no_legal_action")
        if state.phase == "exchange":
            ex = self._exchange_of(state, seat)
            assert ex is not None
            if not ex.laid:
                wild = self._wild(state)
                lowest = sorted(c for c in state.hands[seat] if not is_wild(c, wild))
                return Give(tuple(lowest[:ex.count]))
            return High()
        wild = self._wild(state)
        plays = [a for a in legal if isinstance(a, Play)]
        natural = [p for p in plays if not combination_of(p.cards, wild).wilds]
        leading = not state.table

        def key(play: Play) -> tuple[int, int]:
            combo = combination_of(play.cards, wild)
            # leading: keep equal cards together; following: spend as few as the table needs
            return combo.rank, (-combo.size if leading else combo.size)

        if natural:
            return min(natural, key=key)
        if plays and len(state.hands[seat]) <= 4:
            return min(plays, key=lambda p: (combination_of(p.cards, wild).wilds, key(p)))
        return Pass() if state.table else plays[0]
