"""Catalogs and rules texts: every key and topic the engine uses exists, in English and Swedish."""
from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from bot.games.stratego import GAME

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


@pytest.mark.parametrize("lang", ["en", "sv"])
def test_every_key_the_code_uses_is_translated(lang: str) -> None:
    keys = used(r'"(stratego\.[a-z_]+\.[a-z_]+)"')
    assert keys and keys <= set(catalog(lang))
    assert all(key.startswith("stratego.") for key in catalog(lang))


def test_swedish_catalog_has_the_same_keys_and_placeholders_as_english() -> None:
    en, sv = catalog("en"), catalog("sv")
    assert en.keys() == sv.keys()
    for key in en:
        assert set(re.findall(r"{(\w+)}", en[key])) == set(re.findall(r"{(\w+)}", sv[key])), key


def test_option_descriptions_exist() -> None:
    for spec in GAME.options:
        assert spec.description_key in catalog("en") and spec.description_key in catalog("sv")


@pytest.mark.parametrize("lang", ["en", "sv"])
def test_every_rules_topic_named_by_a_refusal_exists(lang: str) -> None:
    named = used(r'topic="([a-z-]+)"')
    assert named and named <= topics(lang)
    assert topics(lang) == topics("en")
