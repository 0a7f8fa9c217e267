"""Catalogs and rules texts: every key and topic the engine uses exists, in all four languages."""
from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from bot.engine.core import Event
from bot.games.stratego import GAME
from bot.i18n import placeholders
from bot.services.text import event_text

PACKAGE = Path(GAME.__module__.replace(".", "/")).parent
ROOT = Path(__file__).resolve().parents[3]
SOURCES = [*sorted((ROOT / PACKAGE).glob("*.py")), ROOT / "rendering" / "stratego.py"]


def catalog(lang: str) -> dict[str, str]:
    return json.loads((ROOT / PACKAGE / "locale" / f"{lang}.json").read_text(encoding="utf-8"))


def topics(lang: str) -> set[str]:
    text = (ROOT / PACKAGE / "rules" / f"{lang}.md").read_text(encoding="utf-8")
    return set(re.findall(r"^## ([a-z0-9-]+) \| .+$", text, flags=re.MULTILINE))


def used(pattern: str) -> set[str]:
    return {m for path in SOURCES for m in re.findall(pattern, path.read_text(encoding="utf-8"))}


LANGS = ["en", "sv", "nb", "cs"]


@pytest.mark.parametrize("lang", LANGS)
def test_every_key_the_code_uses_is_translated(lang: str) -> None:
    keys = used(r'"(stratego\.[a-z_]+\.[a-z_]+)"')
    assert keys and keys <= set(catalog(lang))
    assert all(key.startswith("stratego.") for key in catalog(lang))


@pytest.mark.parametrize("lang", LANGS[1:])
def test_every_catalog_has_the_same_keys_and_placeholders_as_english(lang: str) -> None:
    en, other = catalog("en"), catalog(lang)
    assert en.keys() == other.keys()
    for key in en:
        assert placeholders(en[key]) == placeholders(other[key]), key


def test_option_descriptions_exist() -> None:
    for spec in GAME.options:
        assert all(spec.description_key in catalog(lang) for lang in LANGS)


@pytest.mark.parametrize("lang", LANGS)
def test_every_rules_topic_named_by_a_refusal_exists(lang: str) -> None:
    named = used(r'topic="([a-z-]+)"')
    assert named and named <= topics(lang)
    assert topics(lang) == topics("en")


@pytest.mark.parametrize("lang", LANGS)
def test_rules_paragraphs_are_not_hard_wrapped(lang: str) -> None:
    """/rules posts a section as it is written; a line break inside a sentence shows on a phone
    as a ragged half-empty line. Each paragraph and each list item is one line."""
    text = (ROOT / PACKAGE / "rules" / f"{lang}.md").read_text(encoding="utf-8")
    lines = text.splitlines()
    for before, line in zip(lines, lines[1:], strict=False):
        if line.startswith("  "):
            raise AssertionError(f"continued list item: {line!r}")
        if before and not before.startswith(("## ", "- ")) and line and not line.startswith(("## ", "- ")):
            raise AssertionError(f"paragraph broken after {before!r}")


def test_attack_messages_name_the_ranks() -> None:
    event = Event("stratego.event.attack_won", {"seat": 0, "target": 1, "attacker_rank": "S",
                                                  "defender_rank": "10", "from_square": "A4", "to_square": "A5"})
    text = event_text(event, ["Anna", "Bo"], "en")
    assert "Spy" in text and "Anna" in text and "Bo" in text
