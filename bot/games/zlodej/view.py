"""Zloděj observations (what each seat may see) and scrambling of what a viewer cannot see.

Public: hand and pile counts, the top two groups of every open pile (rank, count, top card), each
locked pile's count and its joker, the discard top and size, the stock size, whose turn it is.
Private: the viewer's sorted hand, the full contents of the viewer's own piles and whether it is
the viewer's turn.
"""
from __future__ import annotations

from typing import Any

from bot.engine.cards import Card, rank_text
from bot.engine.rng import Rng

from .play import standings
from .state import Group, ZlodejState, dump_state, load_state

VISIBLE_GROUPS = 2


def _group_view(group: Group) -> dict[str, Any]:
    return {"rank": rank_text(group[0].rank), "count": len(group), "top": str(group[-1])}


def _texts(cards: list[Card]) -> list[str]:
    return [str(c) for c in cards]


def public_view(state: ZlodejState) -> dict[str, Any]:
    seats = []
    for seat in range(state.players):
        pile = state.open_piles[seat]
        seats.append({
            "hand": len(state.hands[seat]),
            "open_count": sum(len(g) for g in pile),
            # top group first
            "top_groups": [_group_view(g) for g in reversed(pile[-VISIBLE_GROUPS:])],
            "locked": [{"count": len(p), "top": str(p[-1])} for p in state.locked[seat]],
            "resigned": state.resigned[seat],
        })
    view: dict[str, Any] = {
        "to_act": [] if state.finished else [state.turn],
        "turn": None if state.finished else state.turn,
        "laid": state.laid,
        "decks": state.decks,
        "stock": len(state.stock),
        "discard_top": str(state.discard[-1]) if state.discard else None,
        "discard_count": len(state.discard),
        "drawing_over": state.drawing_over,
        "finished": state.finished,
        "seats": seats,
        "scores": None,
    }
    if state.finished:
        # At the end every pile is turned up and counted in front of everyone.
        view["scores"] = [state.pile_points(seat) for seat in range(state.players)]
        view["winners"] = list(standings(state)[0])
    return view


def private_view(state: ZlodejState, seat: int) -> dict[str, Any]:
    return {
        "hand": _texts(sorted(state.hands[seat])),
        "open_groups": [_texts(g) for g in state.open_piles[seat]],
        "locked": [_texts(p) for p in state.locked[seat]],
        "points": state.pile_points(seat),
        # so that a player's private view (and their DM with the action menus) changes when their
        # turn comes; whose turn it is is public anyway
        "your_turn": not state.finished and state.turn == seat,
    }


def scramble(state: ZlodejState, viewer: int | None, rng: Rng) -> ZlodejState:
    """A copy with other hands, the stock, others' deeper groups and locked contents re-dealt; a stock
    turned over from the discard pile and the cards drawn from it are public (``ZlodejState.stock_public``,
    ``public_draws``: every discard and take is announced, and the pile is turned without shuffling)."""
    copy = load_state(dump_state(state))
    if state.finished:
        return copy  # every pile has been turned up and scored: nothing is hidden any more
    others = [s for s in range(copy.players) if s != viewer]
    # a stock turned over from the discard pile and the cards drawn from it are public: they stay
    pool: list[Card] = [] if copy.stock_public else list(copy.stock)
    hidden_hands = {seat: _without(copy.hands[seat], copy.public_draws[seat]) for seat in others}
    for seat in others:
        pool += hidden_hands[seat]
        pool += [c for g in copy.open_piles[seat][:-VISIBLE_GROUPS] for c in g]
        pool += [c for p in copy.locked[seat] for c in p[:-1]]
    pool.sort()  # in no order the hidden deal could show: the re-deal depends on the viewer's knowledge only
    rng.shuffle(pool)
    # Open piles hold no jokers, so the hidden groups are dealt from natural cards first.
    naturals = [c for c in pool if not c.is_joker]
    rest = [c for c in pool if c.is_joker]
    for seat in others:
        pile = copy.open_piles[seat]
        hidden = sum(len(g) for g in pile[:-VISIBLE_GROUPS])
        dealt, naturals = naturals[:hidden], naturals[hidden:]
        pile[:-VISIBLE_GROUPS] = _regroup(dealt)
    rest += naturals
    rng.shuffle(rest)
    if not copy.stock_public:
        copy.stock, rest = rest[:len(copy.stock)], rest[len(copy.stock):]
    for seat in others:
        size = len(hidden_hands[seat])
        copy.hands[seat], rest = copy.public_draws[seat] + rest[:size], rest[size:]
        for pile_cards in copy.locked[seat]:
            size = len(pile_cards) - 1
            pile_cards[:-1], rest = rest[:size], rest[size:]
    return copy


def _without(cards: list[Card], known: list[Card]) -> list[Card]:
    """``cards`` less one of each card in ``known`` (all of them among ``cards``)."""
    rest = list(cards)
    for card in known:
        rest.remove(card)
    return rest


def _regroup(cards: list[Card]) -> list[Group]:
    groups: list[Group] = []
    for card in sorted(cards):
        if groups and groups[-1][0].rank == card.rank:
            groups[-1].append(card)
        else:
            groups.append([card])
    return groups
