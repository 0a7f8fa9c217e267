"""#27 point 1: the rules matcher's work is bounded whatever a player types: a word is cut to
MAX_WORD letters before it is stemmed (a compound split stems every prefix of a word), and a
question is read up to MAX_QUERY characters. Counted in stemmings, not timed."""
from __future__ import annotations

import pytest

from bot.services import rules, rules_match
from bot.services.rules_match import MAX_WORD


class CountingStemmer:
    def __init__(self, real: object) -> None:
        self.real, self.calls, self.longest = real, 0, 0

    def stemWord(self, word: str) -> str:  # noqa: N802 - snowballstemmer's name
        self.calls += 1
        self.longest = max(self.longest, len(word))
        return self.real.stemWord(word)  # type: ignore[attr-defined]


@pytest.mark.parametrize("query", ["x" * 6000, "ř" * 3000, "jailbreakerstreet" * 300, "hur " * 1500])
def test_rules_lookup_word_length_capped_in_the_matcher(query: str, monkeypatch: pytest.MonkeyPatch) -> None:
    rules.warm()
    counters: dict[str, CountingStemmer] = {}

    def stemmer(lang: str) -> CountingStemmer:
        real = rules_match.snowballstemmer.stemmer(rules_match.SNOWBALL[lang])
        return counters.setdefault(lang, CountingStemmer(real))

    monkeypatch.setattr(rules_match, "_stemmer", stemmer)
    rules_match.term_of.cache_clear()
    for game in ("monopol", "tolp"):
        for lang in ("en", "cs"):
            rules.search(game, query, lang)
    calls = sum(c.calls for c in counters.values())
    assert max(c.longest for c in counters.values()) <= MAX_WORD
    # a few hundred stemmings of words of at most MAX_WORD letters, not thousands of long prefixes
    assert calls <= 4 * 4 * MAX_WORD * 4, calls


def test_rules_lookup_long_words_still_find_their_rule() -> None:
    assert rules.search("monopol", "jail " + "x" * 5000, "en")[0].section.topic == \
        rules.search("monopol", "jail", "en")[0].section.topic
