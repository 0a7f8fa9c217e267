"""Catalogs, the translator's locale mapping, and the /rules index."""
from __future__ import annotations

from bot.engine import registry
from bot.i18n import LANGUAGES, catalog, normalize, placeholders, t
from bot.services import rules


def test_discord_locales_map_to_our_languages() -> None:
    assert normalize("sv-SE") == "sv" and normalize("no") == "nb" and normalize("cs") == "cs"
    assert normalize("en-GB") == "en" and normalize("ja") == "en" and normalize(None) == "en"


def test_missing_translation_falls_back_to_english_then_to_the_key() -> None:
    english = catalog("en")["error.not_your_turn"]
    assert t("error.not_your_turn", "cs") == catalog("cs").get("error.not_your_turn", english)
    assert t("no.such.key", "sv") == "no.such.key"
    assert "{" not in t("error.player_count", "en", game="x", count=1, minimum=2, maximum=4)


def test_every_placeholder_in_a_translation_exists_in_english() -> None:
    english = catalog("en")
    for lang in LANGUAGES:
        for key, text in catalog(lang).items():
            if key.startswith("cmd."):  # command names and descriptions, keyed by their English text
                continue
            assert key in english, f"{lang}: {key} has no English original"
            assert placeholders(text) == placeholders(english[key]), (lang, key)


def test_every_game_has_english_rules_with_unique_topics() -> None:
    for game in registry.names():
        sections = rules.topics(game, "en")
        assert len(sections) >= 3, game
        ids = [s.topic for s in sections]
        assert len(ids) == len(set(ids)), game
        assert all(s.body for s in sections)


def test_rules_lookup_by_topic_and_by_words_in_the_readers_language() -> None:
    game = "tolp"
    first = rules.topics(game, "en")[0]
    assert rules.lookup(game, first.topic, "en") == first
    swedish = rules.topics(game, "sv")
    assert swedish, "Tölp rules must exist in Swedish"
    assert rules.lookup(game, swedish[0].topic, "sv-SE") == swedish[0]
    word = max(first.body.split(), key=len).strip(".,;:()")
    found = rules.lookup(game, word, "en")
    assert found is not None and found.game == game
    assert rules.lookup(game, "zzzyyyxxx", "en") is None


def test_every_catalog_key_exists_in_every_language() -> None:
    english = set(catalog("en"))
    for lang in LANGUAGES:
        missing = sorted(english - set(catalog(lang)))
        assert missing == [], f"{lang} lacks {len(missing)} keys, e.g. {missing[:8]}"


def test_every_game_has_rules_in_every_language_with_the_same_topics() -> None:
    for game in registry.names():
        english = [s.topic for s in rules.topics(game, "en")]
        for lang in LANGUAGES:
            assert rules.languages(game).count(lang) == 1, (game, lang)
            assert [s.topic for s in rules.topics(game, lang)] == english, (game, lang)
