"""The Zloděj game (Czech stealing card game): dealing, turns, legal actions, outcome, resigning."""
from __future__ import annotations

from collections.abc import Mapping
from itertools import combinations
from typing import Any, ClassVar

from bot.engine.cards import standard_deck
from bot.engine.core import Event, Game, OptionSpec, Outcome, Seat
from bot.engine.rng import Rng
from bot.errors import NotYourTurn

from .actions import Action, AddToGroup, Discard, EndTurn, NewGroup, Steal, TakeDiscard, parse_action
from .play import (
    cheapest_discard,
    check_end,
    check_lay,
    do_discard,
    do_lay,
    end_turn,
    final_scores,
    matches,
    pass_turn,
    standings,
    top_rank,
)
from .state import HAND_SIZE, JOKERS_PER_DECK, ZlodejState, decks_for, dump_state, load_state
from .view import private_view, public_view, scramble

FIRST_PLAYER = ("random", "creator")


class ZlodejGame(Game[ZlodejState]):
    name: ClassVar[str] = "zlodej"
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 10
    FORMAT_VERSION: ClassVar[int] = 1
    rules_languages: ClassVar[tuple[str, ...]] = ("en", "cs", "sv", "nb")
    max_playout_actions: ClassVar[int] = 5000
    # The seed: the first player is "by agreement". random (default): drawn from the game's seeded
    # Rng after the deal; creator: the table's creator (seat 0) starts.
    options: ClassVar[tuple[OptionSpec, ...]] = (
        OptionSpec("first_player", "random", choices=FIRST_PLAYER, description_key="zlodej.option.first_player"),
    )

    def new(self, players: int, options: Mapping[str, Any], seed: str) -> ZlodejState:
        rng = Rng(seed)
        decks = decks_for(players)
        stock = standard_deck(decks, JOKERS_PER_DECK)
        rng.shuffle(stock)
        hands = [[stock.pop() for _ in range(HAND_SIZE)] for _ in range(players)]
        # games stored before the option existed have no first_player and began with the creator
        first = rng.randint(0, players - 1) if options.get("first_player", "creator") == "random" else 0
        return ZlodejState(players=players, decks=decks, rng=rng, hands=hands, stock=stock, discard=[],
                           open_piles=[[] for _ in range(players)],
                           locked=[[] for _ in range(players)], resigned=[False] * players, turn=first)

    def opening_events(self, state: ZlodejState) -> list[Event]:
        """Who plays first (option first_player)."""
        return [Event("zlodej.event.first", {"seat": state.turn})]

    def dump(self, state: ZlodejState) -> dict[str, Any]:
        return dump_state(state)

    def load(self, data: Mapping[str, Any]) -> ZlodejState:
        return load_state(dict(data))

    def to_act(self, state: ZlodejState) -> frozenset[Seat]:
        return frozenset() if state.finished else frozenset({state.turn})

    def legal_actions(self, state: ZlodejState, seat: Seat) -> list[Action]:
        if state.finished or seat != state.turn:
            return []
        hand = sorted(state.hands[seat])
        found: dict[str, Action] = {}
        subsets = {combo for size in range(1, len(hand) + 1) for combo in combinations(hand, size)}
        own = top_rank(state, seat)
        targets = [(t, top_rank(state, t)) for t in range(state.players) if t != seat]
        for cards in sorted(subsets):
            if len({c.rank for c in cards if not c.is_joker}) > 1:
                continue
            options: list[Action] = []
            if len(cards) >= 2:
                options.append(NewGroup(cards))
            if own is not None and matches(cards, own):
                options.append(AddToGroup(cards))
            options += [Steal(t, cards) for t, rank in targets if rank is not None and matches(cards, rank)]
            if state.discard and matches(cards, state.discard[-1].rank):
                options.append(TakeDiscard(cards))
            found.update((str(a), a) for a in options)
        found.update((str(a), a) for a in (Discard(c) for c in hand))
        if state.laid:
            found["end"] = EndTurn()
        return list(found.values())

    def parse_action(self, text: str) -> Action:
        return parse_action(text)

    def apply(self, state: ZlodejState, seat: Seat, action: Action) -> list[Event]:
        if state.finished or seat != state.turn:
            raise NotYourTurn()
        if isinstance(action, Discard):
            return do_discard(state, seat, action.card)
        if isinstance(action, EndTurn):
            check_end(state)
            return end_turn(state, seat)
        check_lay(state, seat, action)
        return do_lay(state, seat, action)

    def observe(self, state: ZlodejState, seat: Seat | None) -> dict[str, Any]:
        private = None if seat is None else private_view(state, seat)
        return {"game": self.name, "seat": seat, "public": public_view(state), "private": private}

    def outcome(self, state: ZlodejState) -> Outcome | None:
        if not state.finished:
            return None
        scores = {seat: state.pile_points(seat) for seat in range(state.players)}
        playing = [s for s in range(state.players) if not state.resigned[s]]
        places = standings(state)
        reason = "zlodej.end.resigned" if len(playing) < 2 else "zlodej.end.cards_out"
        return Outcome(places=tuple(places), reason=reason, scores=scores)

    def resign(self, state: ZlodejState, seat: Seat) -> list[Event]:
        """The seat leaves: its hand goes face down under the stock, its piles stay on the table."""
        state.resigned[seat] = True
        state.stock[:0] = state.hands[seat]
        state.hands[seat] = []
        state.public_draws[seat] = []
        state.stock_public = state.stock_public and not state.stock
        events = [Event("zlodej.event.resigned", {"seat": seat})]
        if sum(not r for r in state.resigned) < 2:
            state.finished = True
            return [*events, *final_scores(state)]
        if seat == state.turn:
            events += pass_turn(state, seat)
        return events

    def scramble_hidden(self, state: ZlodejState, viewer: Seat | None, rng: Rng) -> ZlodejState:
        return scramble(state, viewer, rng)

    def skip_action(self, state: ZlodejState, seat: Seat) -> Action | None:
        """A turn the table votes to skip: ended as it stands after a lay, else the least useful
        card is discarded (a turn cannot pass without laying or discarding)."""
        if state.finished or seat != state.turn or not state.hands[seat]:
            return None
        return EndTurn() if state.laid else cheapest_discard(state, seat)
