"""The Tölp round: the deal, who exchanges with whom, who leads, the places players take as they
go out, and the round's end with its titles (after which the next round is dealt or the game
ends). Also the game's events and refusals, which every part of the engine speaks.

Two players always set ten cards aside; the round's first play must contain the lowest natural
card dealt (♥2 unless it is wild or set aside); a player left with only wild cards can never go
out, so they leave the round at once and take the lowest free place.
"""
from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from bot.engine.cards import Card, standard_deck
from bot.engine.core import Event, Seat
from bot.errors import IllegalAction

from .combos import is_wild
from .standings import final_result
from .state import Exchange, TolpState, exchange_pairs, title_for

SET_ASIDE_TWO_PLAYERS = 10
# Suit order that picks the start card among equal ranks: hearts first, as the seed names ♥2.
START_SUITS = ("H", "S", "D", "C")


def event(key: str, visible_to: Iterable[int] | None = None, **params: Any) -> Event:
    """A Tölp event (``tolp.event.<key>``), to everyone or only to ``visible_to``."""
    return Event(f"tolp.event.{key}", params, None if visible_to is None else frozenset(visible_to))


def illegal(code: str, topic: str, **params: Any) -> IllegalAction:
    """A Tölp refusal (``tolp.error.<code>``) pointing at the rules ``topic`` that explains it."""
    return IllegalAction(f"tolp.error.{code}", topic=topic, **params)


def start_round(state: TolpState, events: list[Event]) -> None:
    """Deal the next round and begin its exchanges (from the second round on) or its play."""
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
    events.append(event("round_started", round=state.round))
    state.exchanges = []
    if state.protocol:
        wild = state.wild()
        last = state.protocol[-1]
        cap = int(state.options["exchange_cap"])
        for hi, lo, count in exchange_pairs(state.players, cap):
            high, low = last[hi], last[lo]
            # wild cards never change hands; a hand short of natural cards swaps fewer
            count = min(count, *(sum(1 for c in state.hands[s] if not is_wild(c, wild))
                                 for s in (high, low)))
            if count > 0:
                state.exchanges.append(Exchange(high=high, low=low, count=count))
                events.append(event("exchange_begun", seat=high, target=low, count=count))
    if state.exchanges:
        state.phase = "exchange"
    else:
        begin_play(state, events)


def begin_play(state: TolpState, events: list[Event]) -> None:
    """The exchanges are over (or there were none): the leader opens the trick play."""
    state.phase = "play"
    wild = state.wild()
    if state.options["tolp_leads"] and state.protocol:
        leader = state.protocol[-1][-1]
    else:
        start = min((c for hand in state.hands for c in hand if not is_wild(c, wild)),
                    key=lambda c: (c.rank, START_SUITS.index(c.suit)))
        leader = next(s for s in range(state.players) if start in state.hands[s])
        state.must_include = start
    for seat in range(state.players):
        if all(is_wild(c, wild) for c in state.hands[seat]):
            place(state, seat, events, stuck=True)
    if len(state.active()) <= 1:
        end_round(state, events)
        return
    if leader not in state.active():
        leader = state.next_active(leader)
    state.turn = leader
    if state.must_include is not None:
        events.append(event("leads_with", seat=leader, card=str(state.must_include)))
    else:
        events.append(event("leads", seat=leader))


def place(state: TolpState, seat: Seat, events: list[Event], *, stuck: bool, key: str = "went_out") -> None:
    """Give ``seat`` the best free place (went out, or left over when the round ends) or the
    worst one (stuck on wild cards)."""
    free = [i for i, s in enumerate(state.ranking) if s is None]
    spot = free[-1] if stuck else free[0]
    state.ranking[spot] = seat
    if stuck:
        state.stuck.append(seat)
    events.append(event("stuck" if stuck else key, seat=seat, place=spot + 1))


def leave_after_play(state: TolpState, seat: Seat, events: list[Event], *, stuck: bool) -> None:
    """``seat`` just played its way out of the round (or down to wild cards only): it takes its
    place, the table clears and the next player still in the round leads (or the round ends)."""
    place(state, seat, events, stuck=stuck)
    state.table, state.passed = [], []
    if len(state.active()) <= 1:
        end_round(state, events)
        return
    state.turn = state.next_active(seat)
    events.append(event("cleared", seat=state.turn))


def end_round(state: TolpState, events: list[Event]) -> None:
    """The round's places become titles and the protocol's next line; then the next round is
    dealt, or the game ends when its scoring says so."""
    for seat in state.active():  # the one player still holding cards did not go out
        place(state, seat, events, stuck=False, key="last")
    order = [s for s in state.ranking if s is not None]
    state.protocol.append(order)
    state.titles = [None] * state.players
    for spot, seat in enumerate(order):
        state.titles[seat] = title_for(spot, state.players)
    kung = order[0]
    state.kungs[kung] += 1
    state.streak = [kung, state.streak[1] + 1 if state.streak[0] == kung else 1]
    state.table, state.passed, state.turn = [], [], None
    events.append(event("round_over", round=state.round, kung_seat=kung, tolp_seat=order[-1]))
    for seat in order:
        events.append(event(f"title_{state.titles[seat]}", seat=seat))
    result = final_result(state)
    if result is None:
        start_round(state, events)
        return
    state.result = result
    state.phase = "over"
    events.append(event("game_won", winner=result["places"][0][0], kungs=state.kungs[
        result["places"][0][0]]))
