"""Monopol trade offers typed in words, in each of our languages."""
from __future__ import annotations

import pytest

from bot.errors import InvalidAction
from cogs.monopol_input import parse_bundle


@pytest.mark.parametrize(("text", "items"), [
    ("100 kr, Kongens gate, jail card", "c100,6,j1"),
    ("kr 250 og Rådhusplassen og fengselskort", "c250,39,j1"),
    ("200 kr och Kongens gate och fängelsekort", "c200,6,j1"),
    ("100 Kč a 2 karty z vězení", "c100,j2"),
    ("inget", "-"),
    ("c100,6,j1", "c100,6,j1"),
    # money as the boards write it, thousands grouped
    ("kr 1,500, Kongens gate", "c1500,6"),
    ("1\u00a0500\u00a0kr og Rådhusplassen", "c1500,39"),
    ("2 000 kr", "c2000"),
])
def test_a_trade_side_in_words_becomes_the_engines_items(text: str, items: str) -> None:
    assert parse_bundle(text) == items


def test_an_unknown_street_is_named_in_the_refusal() -> None:
    with pytest.raises(InvalidAction) as refused:
        parse_bundle("Karl Johan, Drottninggatan")
    assert refused.value.params["text"] == "Drottninggatan"
