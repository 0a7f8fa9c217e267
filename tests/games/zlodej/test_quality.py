"""Regressions from playing Zloděj through Discord: clear refusals, skipping a timed-out turn,
labels that fit their panels and rules texts that name players as the board does."""
from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

import bot.games.zlodej as package
from bot.errors import InvalidAction
from bot.games.zlodej.actions import Discard, EndTurn
from bot.i18n import t
from rendering import zlodej as render
from rendering.kit import text_length

from .helpers import GAME, act, assert_cards_conserved, card, make_state

ROOT = Path(package.__file__).resolve().parent
LANGS = ("en", "cs", "sv", "nb")


def refusal(text: str) -> InvalidAction:
    with pytest.raises(InvalidAction) as caught:
        GAME.parse_action(text)
    return caught.value


def test_discarding_more_than_one_card_is_refused_with_its_own_reason() -> None:
    error = refusal("discard 7H 7S")
    assert error.key == "zlodej.error.discard_one"
    assert refusal("discard").key == "zlodej.error.discard_one"


@pytest.mark.parametrize("text", ["new AH AH AH AH AH AH", "new AH,AH,AH,AH,AH,AH", "steal 1 7H 7H 7S 7S 7C 7D"])
def test_more_cards_than_a_hand_holds_are_refused_with_their_own_reason(text: str) -> None:
    error = refusal(text)
    assert error.key == "zlodej.error.too_many_cards"
    assert error.params["count"] == 6


def test_a_timed_out_turn_is_skipped_by_discarding_the_cheapest_card_or_ending_after_a_lay() -> None:
    state = make_state(hands=["AS KS 7H 7S 2C", "5C 5D 6H 6S 8C"], stock="QS JS 9D")
    skip = GAME.skip_action(state, 0)
    assert skip == Discard(card("2C"))
    act(state, 0, "new 7H 7S")
    assert GAME.skip_action(state, 0) == EndTurn()
    GAME.apply(state, 0, EndTurn())
    assert state.turn == 1 and len(state.hands[0]) == 5
    assert_cards_conserved(state)


def test_a_skipped_turn_keeps_the_jokers_and_pairs() -> None:
    state = make_state(hands=["JK 9H 9S 3C", "5C 5D 6H 6S 8C"], stock="QS JS 9D KD")
    skip = GAME.skip_action(state, 0)
    assert skip == Discard(card("3C"))
    GAME.apply(state, 0, skip)
    assert state.turn == 1 and state.discard[-1] == card("3C")
    assert GAME.skip_action(state, 0) is None  # not their turn any more


def catalog(lang: str) -> dict[str, str]:
    return json.loads((ROOT / "locale" / f"{lang}.json").read_text(encoding="utf-8"))


@pytest.mark.parametrize("lang", LANGS)
def test_the_empty_open_pile_label_is_never_cut_short(lang: str) -> None:
    text = catalog(lang)["zlodej.render.no_open_pile"]
    lines = render.wrap(text, render.SMALL_TEXT, render.LABEL_W)
    assert " ".join(lines) == text
    assert all(text_length(line, render.SMALL_TEXT) <= render.LABEL_W for line in lines)
    assert len(lines) <= 2


def test_a_long_word_is_shortened_only_when_nothing_else_fits() -> None:
    lines = render.wrap("Nejdelšíslovonasvětěkterénikdonevyslovíbezzakoktání", render.SMALL_TEXT, 120)
    assert len(lines) == 1 and lines[0].endswith("…")


@pytest.mark.parametrize("lang", LANGS)
def test_the_locked_cards_badge_says_what_it_counts(lang: str) -> None:
    label = t("zlodej.render.locked_cards", lang, count=37)
    assert "37" in label and label != "37"


@pytest.mark.parametrize("lang", LANGS)
def test_turning_the_discard_over_never_says_one_cards(lang: str) -> None:
    assert "1 cards" not in t("zlodej.event.turned", lang, count=1)


@pytest.mark.parametrize(("lang", "command"), [("en", "/zlodej steal target:#2 cards:7D"),
                                               ("cs", "/zloděj ukrást oběť:#2 karty:7D"),
                                               ("sv", "/zlodej stjäl offer:#2 kort:7D"),
                                               ("nb", "/zlodej stjel spiller:#2 kort:7D")])
def test_the_rules_explain_stealing_with_the_number_the_board_shows(lang: str, command: str) -> None:
    """The slash command as the player's Discord shows it, naming the victim by the board's #number."""
    text = (ROOT / "rules" / f"{lang}.md").read_text(encoding="utf-8")
    laying = text.split("## laying |", 1)[1].split("\n## ", 1)[0]
    assert f"`{command}`" in laying
    # the engine's own text counts seats from 0, which nobody sees on Discord
    assert not re.search(r"`steal [0-9]", text)
