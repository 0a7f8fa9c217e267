"""Setup, options, action text, the computer player and the data behind messages."""
from __future__ import annotations

import json
import re
from collections import Counter
from pathlib import Path

import pytest

from bot.engine.cards import parse_card
from bot.engine.registry import computer_action
from bot.errors import IllegalAction, InvalidAction
from bot.games.tolp.actions import Ask, Claim, Give, High, Pass, Play
from bot.i18n import placeholders

from .build import GAME, act, exchange_state, play_state

PACKAGE = Path(GAME.__class__.__module__.replace(".", "/")).parent
ROOT = Path(__file__).resolve().parents[3]


def test_the_deal_is_as_even_as_possible_and_uses_the_whole_deck() -> None:
    state = GAME.new(5, {}, "deal")
    assert sorted(len(h) for h in state.hands) == [10, 10, 10, 11, 11]
    assert Counter(c for h in state.hands for c in h) == Counter(
        parse_card(f"{r}{s}") for r in [*range(2, 11), "J", "Q", "K", "A"] for s in "CDHS")


def test_two_players_set_ten_cards_aside_every_round() -> None:
    state = GAME.new(2, {}, "duel")
    assert [len(h) for h in state.hands] == [21, 21] and len(state.set_aside) == 10
    first_aside = list(state.set_aside)
    while state.round == 1:
        seat = next(iter(GAME.to_act(state)))
        GAME.apply(state, seat, computer_action(GAME, state, seat))
    assert len(state.set_aside) == 10 and state.set_aside != first_aside
    assert [(e.count) for e in state.exchanges] == [1]
    assert GAME.observe(state, None)["public"]["set_aside"] == 10


def test_two_players_start_with_the_lowest_card_dealt() -> None:
    for seed in ("a", "b", "c", "d", "e", "f"):
        state = GAME.new(2, {}, seed)
        dealt = [c for h in state.hands for c in h]
        lowest = min(dealt, key=lambda c: (c.rank, "HSDC".index(c.suit)))
        assert state.must_include == lowest and lowest in state.hands[state.turn]


def test_two_decks_need_eight_to_ten_players() -> None:
    with pytest.raises(IllegalAction) as err:
        GAME.new(6, {"two_decks": True}, "x")
    assert err.value.key == "tolp.error.two_decks_players"
    state = GAME.new(8, {"two_decks": True}, "x")
    assert sum(len(h) for h in state.hands) == 104


@pytest.mark.parametrize("action", [
    Play((parse_card("7S"), parse_card("7H"))), Pass(), Give((parse_card("4D"), parse_card("3C"))),
    High(), Ask(9), Ask(14), Claim((13, 9, 9)), Play((parse_card("10H"),) * 12),
])
def test_actions_round_trip_through_their_canonical_text(action: object) -> None:
    text = str(action)
    assert GAME.parse_action(text) == action and len(text) <= 60 and text.isascii()


def test_canonical_texts_are_sorted_and_lenient_input_is_read() -> None:
    assert str(GAME.parse_action("play 7s 7h")) == "play 7H 7S"
    assert str(GAME.parse_action("claim k 9 9")) == "claim 9 9 K"
    assert str(GAME.parse_action("ask a")) == "ask A"


@pytest.mark.parametrize("text", ["", "fold", "play", "play 7X", "ask", "ask 9 10", "pass 7H",
                                  "play " + " ".join(["10H"] * 13)])
def test_unreadable_text_is_an_invalid_action(text: str) -> None:
    with pytest.raises(InvalidAction):
        GAME.parse_action(text)


def test_the_computer_gives_its_lowest_cards_and_says_high() -> None:
    state = exchange_state(["3C 5D 9H KS AC", "4C 6D 8H QS", "5C 7D 7H JS", "6C 8D 9S 9D AH"],
                           [0, 1, 2, 3])
    assert str(computer_action(GAME, state, 0)) == "give 3C 5D"
    act(state, 0, "give 3C 5D")
    assert str(computer_action(GAME, state, 0)) == "high"


def test_the_computer_plays_the_lowest_combination_that_fits_without_wild_cards() -> None:
    state = play_state(["5C 5D 2S 9C 9D JC", "6C 6D 6H 3D", "8C"], options={"wild": "2"})
    assert str(computer_action(GAME, state, 0)) == "play 5C 5D"  # leads keep pairs together
    act(state, 0, "play 5C 5D")
    state.turn = 0
    state.passed = []
    assert str(computer_action(GAME, state, 0)) == "play 9C 9D"
    act(state, 0, "play 9C 9D")
    state.turn = 0
    assert str(computer_action(GAME, state, 0)) == "pass"  # a pair of jacks would need the wild 2


def test_the_computer_finishes_a_whole_game() -> None:
    state = GAME.new(5, {"scoring": "rounds", "rounds": 3, "wild": "23"}, "bots")
    for _ in range(3000):
        if GAME.outcome(state):
            break
        seat = min(GAME.to_act(state))
        GAME.apply(state, seat, computer_action(GAME, state, seat))
    assert GAME.outcome(state) is not None


def _used_keys() -> set[str]:
    source = " ".join(p.read_text(encoding="utf-8") for p in PACKAGE.glob("*.py"))
    events = {f"tolp.event.{k}" for k in re.findall(r'\bevent\(\s*f?"([a-z_]+)"', source)}
    # keys built from a variable
    events |= {f"tolp.event.title_{t}" for t in ("kung", "greve", "bonde", "tolp")}
    events |= {"tolp.event.went_out", "tolp.event.stuck", "tolp.event.last"}
    errors = {f"tolp.error.{k}" for k in re.findall(r'\billegal\(\s*"([a-z_]+)"', source)}
    full = set(re.findall(r'"(tolp\.[a-z_]+\.[a-z_]+)"', source))
    options = {spec.description_key for spec in GAME.options}
    return events | errors | full | options


@pytest.mark.parametrize("lang", ["en", "sv", "nb", "cs"])
def test_catalogs_hold_every_key_the_engine_uses_with_the_same_placeholders(lang: str) -> None:
    catalog = json.loads((ROOT / PACKAGE / "locale" / f"{lang}.json").read_text(encoding="utf-8"))
    english = json.loads((ROOT / PACKAGE / "locale" / "en.json").read_text(encoding="utf-8"))
    assert _used_keys() <= set(catalog)
    assert set(catalog) == set(english) and all(k.startswith("tolp.") for k in catalog)
    for key, text in catalog.items():
        assert placeholders(text) == placeholders(english[key]), key


@pytest.mark.parametrize("lang", ["en", "sv", "nb", "cs"])
def test_rules_text_covers_every_topic_an_error_names(lang: str) -> None:
    text = (ROOT / PACKAGE / "rules" / f"{lang}.md").read_text(encoding="utf-8")
    topics = set(re.findall(r"^## ([a-z]+) \| .+$", text, flags=re.M))
    source = " ".join(p.read_text(encoding="utf-8") for p in PACKAGE.glob("*.py"))
    named = set(re.findall(r'\billegal\(\s*"[a-z_]+",\s*"([a-z]+)"', source))
    named |= set(re.findall(r'topic="([a-z]+)"', source))
    assert named and named <= topics


def test_replaying_the_log_from_the_seed_reproduces_the_state() -> None:
    options = {"two_decks": True, "wild": "jokers", "scoring": "rounds", "rounds": 2, "exchange_cap": 3}
    state = GAME.new(9, options, "replay")
    log: list[tuple[int, str]] = []
    while GAME.outcome(state) is None:
        seat = max(GAME.to_act(state))
        action = computer_action(GAME, state, seat)
        GAME.apply(state, seat, action)
        log.append((seat, str(action)))
    replay = GAME.new(9, options, "replay")
    for seat, text in log:
        GAME.apply(replay, seat, GAME.parse_action(text))
    assert json.dumps(GAME.dump(replay), sort_keys=True) == json.dumps(GAME.dump(state), sort_keys=True)
    assert [len(e) for e in state.protocol] == [9, 9]
