"""Catalogs and rules text: every key the engine emits exists in English and Norwegian with the
same placeholders, and every rules topic an error points at has a section in both languages."""
from __future__ import annotations

import json
import random
import re
from pathlib import Path

import pytest

from bot.games.monopol.board import CARDS
from bot.i18n import placeholders

from .helpers import GAME, new

PACKAGE = Path(__file__).resolve().parents[3] / "bot" / "games" / "monopol"
SOURCES = "\n".join(p.read_text(encoding="utf-8") for p in PACKAGE.glob("*.py"))


def catalog(lang: str) -> dict[str, str]:
    return dict(json.loads((PACKAGE / "locale" / f"{lang}.json").read_text(encoding="utf-8")))


def topics(lang: str) -> set[str]:
    text = (PACKAGE / "rules" / f"{lang}.md").read_text(encoding="utf-8")
    return set(re.findall(r"^## ([a-z]+) \| ", text, flags=re.M))


def used_keys() -> set[str]:
    keys = {f"monopol.error.{code}" for code in re.findall(r'_illegal\("([a-z_]+)"', SOURCES)}
    keys |= set(re.findall(r'"(monopol\.(?:error|end|option)\.[a-z_]+)"', SOURCES))
    keys |= {f"monopol.card.{card}" for card in CARDS}
    keys |= {f"monopol.event.{lot}_{what}" for lot in ("house", "hotel") for what in ("won", "shortage")}
    s = new(4, "keys", max_rounds=20)
    chooser = random.Random(4)
    while not GAME.outcome(s):
        seat = chooser.choice(sorted(GAME.to_act(s)))
        keys |= {e.key for e in GAME.apply(s, seat, chooser.choice(GAME.legal_actions(s, seat)))}
    return keys


@pytest.mark.parametrize("lang", ["en", "nb"])
def test_every_key_the_engine_uses_is_translated(lang: str) -> None:
    missing = used_keys() - set(catalog(lang))
    assert not missing


def test_norwegian_and_english_have_the_same_keys_and_placeholders() -> None:
    en, nb = catalog("en"), catalog("nb")
    assert set(en) == set(nb)
    for key in en:
        assert placeholders(en[key]) == placeholders(nb[key]), key


def test_rules_topics_match_and_cover_every_error_topic() -> None:
    assert topics("en") == topics("nb")
    named = set(re.findall(r'_illegal\("[a-z_]+", "([a-z]+)"', SOURCES))
    assert named <= topics("en")


ROOT = Path(__file__).resolve().parents[3]


def _catalog(lang: str) -> dict[str, str]:
    return dict(json.loads((PACKAGE / "locale" / f"{lang}.json").read_text(encoding="utf-8")))


@pytest.mark.parametrize("lang", ["en", "nb", "sv", "cs"])
def test_every_literal_key_is_translated_with_the_same_placeholders(lang: str) -> None:
    sources = "\n".join(p.read_text(encoding="utf-8") for p in PACKAGE.glob("*.py"))
    sources += (ROOT / "rendering" / "monopol.py").read_text(encoding="utf-8")
    used = set(re.findall(r'"(monopol\.(?:event|render|error|end|option)\.[a-z_]+)"', sources))
    en, other = _catalog("en"), _catalog(lang)
    assert not used - set(other)
    for key in used:
        assert placeholders(en[key]) == placeholders(other[key]), key
