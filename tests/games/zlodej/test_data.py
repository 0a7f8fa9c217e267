"""Zloděj data files: the deck rules, the four catalogs and the four rules texts are complete and consistent."""
from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

import bot.games.zlodej as package
from bot.engine.cards import JOKER, parse_card
from bot.games.zlodej.state import DECK_RULES, card_value, decks_for
from bot.i18n import placeholders, t

ROOT = Path(package.__file__).resolve().parent
SOURCES = ["play.py", "engine.py", "actions.py", "view.py"]
LANGS = ("en", "cs", "sv", "nb")


def test_card_values_follow_the_rules() -> None:
    assert card_value(JOKER) == 50
    assert card_value(parse_card("AS")) == 20
    assert {card_value(parse_card(c)) for c in ["10H", "JD", "QC", "KS"]} == {10}
    assert {card_value(parse_card(f"{r}H")) for r in range(2, 10)} == {5}
    assert DECK_RULES["hand_size"] == 5 and DECK_RULES["jokers_per_deck"] == 2


def test_deck_count_grows_by_one_per_three_players_after_six() -> None:
    assert [decks_for(n) for n in range(2, 11)] == [2, 2, 2, 2, 2, 3, 3, 3, 4]


def catalog(lang: str) -> dict[str, str]:
    return json.loads((ROOT / "locale" / f"{lang}.json").read_text(encoding="utf-8"))


def test_every_key_the_engine_and_renderer_use_is_in_both_catalogs() -> None:
    code = "".join((ROOT / name).read_text(encoding="utf-8") for name in SOURCES)
    code += (ROOT.parents[2] / "rendering" / "zlodej.py").read_text(encoding="utf-8")
    used = set(re.findall(r'"(zlodej\.[a-z_]+\.[a-z_]+)"', code))
    used |= {f"zlodej.error.{code}" for code in ("pile_locked", "nothing_to_steal")}
    assert {"zlodej.event.steal", "zlodej.error.end_without_lay", "zlodej.render.turn"} <= used
    for lang in LANGS:
        assert used <= set(catalog(lang)), lang


def test_catalogs_have_the_same_keys_and_placeholders() -> None:
    english = catalog("en")
    assert all(key.startswith("zlodej.") for key in english)
    for lang in LANGS[1:]:
        other = catalog(lang)
        assert set(english) == set(other), lang
        for key, text in english.items():
            assert placeholders(text) == placeholders(other[key]), (lang, key)


def test_rules_texts_have_the_same_topics_including_every_error_topic() -> None:
    topics = {}
    for lang in LANGS:
        text = (ROOT / "rules" / f"{lang}.md").read_text(encoding="utf-8")
        topics[lang] = re.findall(r"^## ([a-z]+) \| .+$", text, flags=re.MULTILINE)
        assert topics[lang] == topics["en"], lang
    code = "".join((ROOT / name).read_text(encoding="utf-8") for name in SOURCES)
    assert set(re.findall(r'topic="([a-z]+)"', code)) <= set(topics["en"])


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
