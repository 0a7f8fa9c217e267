"""Plurals by CLDR rules (Babel) and money in each locale's CLDR format."""
from __future__ import annotations

import asyncio
import re

import pytest

from bot.i18n import LANGUAGES, catalog, money, placeholders, plural_forms, t

COUNTS = (0, 1, 2, 5, 22)  # Czech: 2–4 take "few", 0, 5 and 22 (not 2–4) take "other"


def _plural_keys() -> set[str]:
    return {key for lang in LANGUAGES for key, entry in catalog(lang).items() if isinstance(entry, dict)}


def test_the_languages_have_their_cldr_plural_forms() -> None:
    assert plural_forms("en") == plural_forms("sv") == plural_forms("nb") == {"one", "other"}
    assert plural_forms("cs") == {"one", "few", "many", "other"}


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_plural_key_has_every_plural_form_of_every_language(lang: str) -> None:
    keys = _plural_keys()
    assert len(keys) >= 30
    for key in keys:
        entry = catalog(lang)[key]
        assert isinstance(entry, dict), f"{lang}: {key} is plural elsewhere but a plain string here"
        forms = set(entry) - {"by"}
        assert forms == plural_forms(lang), (lang, key, forms)
        if "by" in entry:  # a plural chosen by another param shows that param
            assert entry["by"] in placeholders(entry), (lang, key)
        assert all(isinstance(text, str) and text for text in entry.values()), (lang, key)


def test_no_faked_plurals_are_left() -> None:
    faked = re.compile(r"\w\((s|er|e)\)|počet karet|\(karty: ")
    for lang in LANGUAGES:
        for key, entry in catalog(lang).items():
            texts = entry.values() if isinstance(entry, dict) else [entry]
            assert not any(faked.search(text) for text in texts), (lang, key)


CARDS = {
    "en": ["0 cards", "1 card", "2 cards", "5 cards", "22 cards"],
    "sv": ["0 kort", "1 kort", "2 kort", "5 kort", "22 kort"],
    "nb": ["0 kort", "1 kort", "2 kort", "5 kort", "22 kort"],
    "cs": ["0 karet", "1 karta", "2 karty", "5 karet", "22 karet"],
}
TURNS_LEFT = {
    "en": ["0 turns left", "1 turn left", "2 turns left", "5 turns left", "22 turns left"],
    "sv": ["0 kast kvar", "1 kast kvar", "2 kast kvar", "5 kast kvar", "22 kast kvar"],
    "nb": ["0 turer igjen", "1 tur igjen", "2 turer igjen", "5 turer igjen", "22 turer igjen"],
    "cs": ["zbývá 0 tahů", "zbývá 1 tah", "zbývají 2 tahy", "zbývá 5 tahů", "zbývá 22 tahů"],
}
BUILDINGS = {
    "en": ["builds 0 buildings", "builds 1 building", "builds 2 buildings", "builds 5 buildings",
           "builds 22 buildings"],
    "sv": ["bygger 0 byggnader", "bygger 1 byggnad", "bygger 2 byggnader", "bygger 5 byggnader",
           "bygger 22 byggnader"],
    "nb": ["bygger 0 bygninger", "bygger 1 bygning", "bygger 2 bygninger", "bygger 5 bygninger",
           "bygger 22 bygninger"],
    "cs": ["staví 0 budov", "staví 1 budovu", "staví 2 budovy", "staví 5 budov", "staví 22 budov"],
}
KUNGS = {
    "en": ["0 Kung titles", "1 Kung title", "2 Kung titles", "5 Kung titles", "22 Kung titles"],
    "sv": ["0 kungatitlar", "1 kungatitel", "2 kungatitlar", "5 kungatitlar", "22 kungatitlar"],
    "nb": ["0 Kung-titler", "1 Kung-tittel", "2 Kung-titler", "5 Kung-titler", "22 Kung-titler"],
    "cs": ["s 0 tituly Kung", "s 1 titulem Kung", "se 2 tituly Kung", "s 5 tituly Kung", "s 22 tituly Kung"],
}


@pytest.mark.parametrize("lang", LANGUAGES)
def test_plural_forms_for_0_1_2_5_and_22(lang: str) -> None:
    for count, cards, turns, buildings, kungs in zip(COUNTS, CARDS[lang], TURNS_LEFT[lang], BUILDINGS[lang],
                                                    KUNGS[lang], strict=True):
        assert t("tolp.ui.cards", lang, count=count) == cards
        assert t("tolp.ui.your_hand", lang, count=count).endswith(cards)
        assert cards in t("zlodej.render.open_count", lang, count=count)
        assert turns in t("tjuv.event.waits", lang, seat="Åsa", turns=count)  # chosen by its "by" param
        assert buildings in t("monopol.event.build", lang, seat="Åsa", count=count, place="Kongens gate",
                              amount=150)
        assert kungs in t("tolp.event.game_won", lang, winner="Åsa", kungs=count)


def test_a_plural_entry_without_its_count_falls_back_to_the_other_form() -> None:
    assert t("tolp.ui.cards", "cs") == "{count} karet"
    assert t("tolp.ui.cards", "cs", count="3") == "3 karet"


MONEY = {"en": "kr\u00a01,500", "sv": "1\u00a0500\u00a0kr", "nb": "1\u00a0500\u00a0kr", "cs": "1\u00a0500\u00a0kr"}


@pytest.mark.parametrize("lang", LANGUAGES)
def test_money_is_written_one_way_per_locale(lang: str) -> None:
    assert money(1500, lang) == MONEY[lang]
    assert money(150, lang) == MONEY[lang].replace("1\u00a0500", "150").replace("1,500", "150")
    # every money param of every message, on the board as in the chat, comes out the same way
    assert MONEY[lang] in t("monopol.render.price", lang, amount=1500)
    assert MONEY[lang] in t("monopol.event.buy", lang, seat="Åsa", place="Kongens gate", amount=1500)
    assert MONEY[lang] in t("tjuv.event.escape_boat", lang, seat="Åsa", fare=1500)
    for key, entry in catalog(lang).items():
        texts = entry.values() if isinstance(entry, dict) else [entry]
        for text in texts:
            assert not re.search(r"\{(amount|money|price|fare|reward)\}\s*kr|kr\s*\{(amount|money|price|fare|reward)\}",
                                 text), (lang, key)


def test_money_follows_the_locale_for_negative_amounts_too() -> None:
    assert money(-300, "en") == "-kr\u00a0300"
    assert money(-300, "sv").endswith("300\u00a0kr") and money(-300, "sv")[0] in "-\u2212"


def test_the_leaderboard_row_counts_its_games() -> None:
    row = {"rank": 1, "player": "Åsa", "wins": 1, "average": "1.0"}
    assert "won 1 of 1 game," in t("stats.row", "en", games=1, **row)
    assert "won 1 of 5 games," in t("stats.row", "en", games=5, **row)
    assert "z 1 hry" in t("stats.row", "cs", games=1, **row) and "ze 2 her" in t("stats.row", "cs", games=2, **row)


def test_the_translation_audit_runs_and_finds_nothing_missing() -> None:
    from bot.i18n import audit
    from cogs.audit import command_strings

    commands = asyncio.run(command_strings())
    assert len(commands) > 50 and "game" in commands
    for lang in LANGUAGES[1:]:
        assert audit.missing(lang, commands) == [], lang


def test_labels_with_several_counts_put_each_in_its_form() -> None:
    from rendering.zlodej import piles_line

    assert piles_line(1, 1, 0, "en") == "Your piles: 1 card, 1 point, 0 locked"
    assert piles_line(22, 5, 2, "cs") == "Vaše balíčky: 22 karet, 5 bodů, 2 zamčené"
    bank = t("monopol.render.bank_stock", "en", houses=t("monopol.render.houses", "en", count=1),
             hotels=t("monopol.render.hotels", "en", count=12))
    assert bank == "Bank: 1 house · 12 hotels"
