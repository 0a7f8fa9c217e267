"""Cards are immutable values, so every parsed state shares one object per card: a thousand cached
Tölp states then hold 53 Card objects, not 52,000 that the garbage collector keeps walking."""
from __future__ import annotations

import gc
import json

from bot.engine.cards import JOKER, Card, parse_card, parse_cards, standard_deck
from bot.engine.registry import get
from bot.games.tolp.state import TolpState


def test_one_object_per_card_however_it_is_written() -> None:
    assert parse_card("7H") is parse_card("7h") is parse_card("♥7") is parse_card(" 7H ")
    assert parse_card("10S") is parse_card("TS") is parse_card("♠10")
    assert parse_card("JK") is parse_card("joker") is JOKER
    deck = standard_deck(decks=2, jokers_per_deck=1)
    assert len(deck) == 106 and len({id(c) for c in deck}) == 53
    assert set(map(id, standard_deck())) <= set(map(id, deck))
    assert parse_card("QD") == Card(12, "D") and parse_card("QD") < parse_card("KD")  # still values


def test_loaded_states_share_their_cards() -> None:
    game = get("tolp")
    state = game.new(4, {}, "shared-cards")
    text = json.dumps(state.dump())
    before = _cards_alive()
    loaded = [TolpState.load(json.loads(text)) for _ in range(50)]
    assert _cards_alive() <= before  # fifty states with every card dealt: not one new Card object
    ids = {id(c) for s in loaded for hand in s.hands for c in hand}
    assert sum(len(hand) for hand in loaded[0].hands) >= 52
    assert ids <= {id(c) for c in standard_deck(jokers_per_deck=1)}
    assert [str(c) for c in parse_cards("2c 3d")] == ["2C", "3D"]


def _cards_alive() -> int:
    return sum(1 for o in gc.get_objects() if type(o) is Card)
