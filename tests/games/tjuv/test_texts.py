"""Tjuv och Polis catalogs and rules texts: complete in all four languages, every used key present."""
from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

import bot.games.tjuv as package
from bot.games.tjuv.board import board
from bot.i18n import placeholders

ROOT = Path(package.__file__).resolve().parent
SOURCES = ["play.py", "engine.py", "moves.py", "view.py"]
LANGS = ("en", "sv", "nb", "cs")


def catalog(lang: str) -> dict[str, str]:
    return json.loads((ROOT / "locale" / f"{lang}.json").read_text(encoding="utf-8"))


def test_every_key_the_engine_and_renderer_use_is_in_both_catalogs() -> None:
    code = "".join((ROOT / name).read_text(encoding="utf-8") for name in SOURCES)
    code += (ROOT.parents[2] / "rendering" / "tjuv.py").read_text(encoding="utf-8")
    used = set(re.findall(r'"(tjuv\.[a-z_]+\.[a-z_]+)"', code))
    used |= {f"tjuv.error.{c}" for c in re.findall(r'_illegal\("([a-z_]+)"', code)}
    used |= {f"tjuv.error.{c}" for c in ("roll_first", "already_rolled", "in_nest", "cannot_reach", "cannot_ride")}
    used |= {f"tjuv.event.rob_{k}" for k in ("bank", "post", "agency")}
    used |= {f"tjuv.event.escape_{e.kind}" for e in board().escapes.values()}
    assert {"tjuv.event.arrest", "tjuv.error.not_in_nest", "tjuv.render.wanted"} <= used
    for lang in LANGS:
        assert used <= set(catalog(lang)), (lang, used - set(catalog(lang)))


@pytest.mark.parametrize("lang", LANGS[1:])
def test_catalogs_have_the_same_keys_and_placeholders(lang: str) -> None:
    english, other = catalog("en"), catalog(lang)
    assert set(english) == set(other) and all(k.startswith("tjuv.") for k in english)
    for key, text in english.items():
        assert placeholders(text) == placeholders(other[key]), key


def test_rules_texts_have_the_same_topics_including_every_error_topic() -> None:
    topics = {}
    for lang in LANGS:
        text = (ROOT / "rules" / f"{lang}.md").read_text(encoding="utf-8")
        topics[lang] = re.findall(r"^## ([a-z]+) \| .+$", text, flags=re.MULTILINE)
    assert all(topics[lang] == topics["en"] for lang in LANGS) and len(topics["en"]) >= 10
    code = "".join((ROOT / name).read_text(encoding="utf-8") for name in SOURCES)
    assert set(re.findall(r'topic="([a-z]+)"', code)) | set(re.findall(r'_illegal\("[a-z_]+", "([a-z]+)"', code)) \
        <= set(topics["en"])
