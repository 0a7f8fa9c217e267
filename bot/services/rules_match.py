"""Language-aware matching for the rules lookup: words to terms, and a small BM25F index.

A word becomes a term by dropping the language's stop words (bot/i18n/words/<lang>.stop.txt), mapping
irregular forms (<lang>.forms.txt: thieves -> thief, vunnit -> vinna), Snowball stemming in its
language and folding diacritics (ø, æ, å, č, ř … to plain letters). A query word the
index does not know is looked up again as the folded surface form of a word in the texts (players
often leave out diacritics), then as a word within one letter of a known one (typos), then by its
first five letters. Two neighbouring terms also form a phrase term, so "get out" outweighs "out".
"""
from __future__ import annotations

import math
import re
import unicodedata
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cache, lru_cache
from pathlib import Path

import snowballstemmer

WORDS_DIR = Path(__file__).resolve().parent.parent / "i18n" / "words"
SNOWBALL = {"en": "english", "sv": "swedish", "nb": "norwegian", "cs": "czech"}
_WORD = re.compile(r"\w+")
_SPECIAL = str.maketrans({"ø": "o", "æ": "ae", "œ": "oe", "ß": "ss", "đ": "d", "ł": "l"})
K1, B = 1.2, 0.75
# How much a word counts by how it matched: as written (or stemmed), as a folded surface form, as
# the two known words of a compound ("chanskorten" = chans + korten), within one letter of a known
# word, or only by its first letters.
EXACT, SURFACE, COMPOUND, FUZZY, PREFIX = 1.0, 1.0, 0.8, 0.7, 0.4
PREFIX_LEN = 5
# No word of a rules text is longer; a longer one typed is cut here, so a typed word costs a bounded
# number of stemmings (a compound split stems each of its prefixes: quadratic in the word's length)
MAX_WORD = 32
# Fields whose neighbouring words count as phrases: titles and the phrasings players use, where word
# pairs are meant; in body text a pair is often chance ("a player in jail still collects rent").
PHRASE_FIELDS = frozenset({"title", "keywords"})


def fold(word: str) -> str:
    decomposed = unicodedata.normalize("NFKD", word.lower().translate(_SPECIAL))
    return "".join(ch for ch in decomposed if not unicodedata.combining(ch))


def _lines(lang: str, kind: str) -> list[str]:
    path = WORDS_DIR / f"{lang}.{kind}.txt"
    if not path.exists():
        return []
    return [line.split("#", 1)[0].strip() for line in path.read_text(encoding="utf-8").splitlines()]


@cache
def stopwords(lang: str) -> frozenset[str]:
    """Words that say nothing about which rule is meant (bot/i18n/words/<lang>.stop.txt), folded."""
    return frozenset(fold(word) for line in _lines(lang, "stop") for word in line.split())


@cache
def forms(lang: str) -> dict[str, str]:
    """Irregular forms -> the form the stemmer knows (bot/i18n/words/<lang>.forms.txt)."""
    return dict(line.split(None, 1) for line in _lines(lang, "forms") if len(line.split()) == 2)


@cache
def _stemmer(lang: str) -> snowballstemmer.stemmer:
    return snowballstemmer.stemmer(SNOWBALL.get(lang, "english"))


@lru_cache(maxsize=65536)
def term_of(word: str, lang: str) -> str:
    """A word's term: stemmed in its language, then folded. Stop words give ''."""
    lower = word.lower()
    folded = fold(lower)
    if folded in stopwords(lang):
        return ""
    return fold(_stemmer(lang).stemWord(forms(lang).get(lower, lower)))


def words(text: str) -> list[str]:
    """The words of a text, lower-cased, each cut to MAX_WORD letters."""
    return [word[:MAX_WORD] for word in _WORD.findall(text.lower())]


def analyze(text: str, lang: str, *, phrases: bool = True) -> list[str]:
    """Terms of a text in reading order (stop words left out), with a phrase term for each neighbouring pair."""
    terms = [t for t in (term_of(w, lang) for w in words(text)) if t]
    return terms + ([f"{a} {b}" for a, b in zip(terms, terms[1:], strict=False)] if phrases else [])


@lru_cache(maxsize=4096)
def _terms_of(text: str, lang: str) -> frozenset[str]:
    return frozenset(analyze(text, lang))


def _deletions(word: str) -> set[str]:
    return {word[:i] + word[i + 1:] for i in range(len(word))}


@dataclass
class Document:
    key: str
    fields: dict[str, str]
    tf: dict[str, float] = field(default_factory=dict)
    length: float = 0.0


class Index:
    """BM25F over a handful of documents (the topics of one game in one language)."""

    def __init__(self, lang: str, documents: Sequence[Document], weights: dict[str, float]) -> None:
        self.lang = lang
        self.documents = list(documents)
        self.surface: dict[str, str] = {}  # folded word as written -> its term
        self.df: Counter[str] = Counter()
        for doc in self.documents:
            for name, text in doc.fields.items():
                weight = weights.get(name, 1.0)
                for term in analyze(text, lang, phrases=name in PHRASE_FIELDS):
                    doc.tf[term] = doc.tf.get(term, 0.0) + weight
                    doc.length += weight
                for word in words(text):
                    term = term_of(word, lang)
                    if term:
                        self.surface.setdefault(fold(word), term)
            self.df.update(doc.tf.keys())
        self.avg_length = sum(d.length for d in self.documents) / max(1, len(self.documents))
        self.by_deletion: dict[str, set[str]] = {}
        self.by_prefix: dict[str, set[str]] = {}
        for word, term in self.surface.items():
            if len(word) >= 4:
                for key in {word} | _deletions(word):
                    self.by_deletion.setdefault(key, set()).add(word)
            if len(term) >= PREFIX_LEN:
                self.by_prefix.setdefault(term[:PREFIX_LEN], set()).add(term)

    def idf(self, term: str) -> float:
        n = self.df.get(term, 0)
        return math.log(1 + (len(self.documents) - n + 0.5) / (n + 0.5)) if n else 0.0

    def query_terms(self, text: str, *, loose: bool = True) -> tuple[dict[str, float], list[str]]:
        """The query's terms as this index knows them, each with how sure the match is, and the
        words it does not know. ``loose`` also tries words within one letter and first letters."""
        out: dict[str, float] = {}
        unknown: list[str] = []

        def add(term: str, weight: float) -> None:
            if weight > out.get(term, 0.0):
                out[term] = weight

        found: list[str] = []
        for word in words(text):
            term = term_of(word, self.lang)
            if not term:
                continue
            folded = fold(word)
            if term in self.df:
                add(term, EXACT)
            elif folded in self.surface:
                term = self.surface[folded]
                add(term, SURFACE)
            elif loose and (parts := self._split(word)):
                for part in parts:
                    add(part, COMPOUND)
                term = parts[-1]
            elif loose and (near := self._near(folded)):
                for other in near:
                    add(other, FUZZY)
                term = near[0]
            elif loose and len(term) >= PREFIX_LEN and term[:PREFIX_LEN] in self.by_prefix:
                for other in self.by_prefix[term[:PREFIX_LEN]]:
                    add(other, PREFIX)
                term = ""
            else:
                term = ""
                unknown.append(word)
            found.append(term)
        for a, b in zip(found, found[1:], strict=False):
            if a and b and f"{a} {b}" in self.df:
                add(f"{a} {b}", EXACT)
        return out, unknown

    def _known(self, word: str) -> str:
        term = term_of(word, self.lang)
        if term in self.df:
            return term
        return self.surface.get(fold(word), "")

    def _split(self, word: str) -> list[str]:
        """A compound as two words the texts know, the longest first part first (a linking s allowed)."""
        for cut in range(len(word) - 3, 2, -1):
            head, tail = word[:cut], word[cut:]
            first = self._known(head) or (head.endswith("s") and self._known(head[:-1]))
            second = first and self._known(tail)
            if first and second:
                return [first, second]
        return []

    def _near(self, word: str) -> list[str]:
        """Terms of known words within one letter of ``word`` (insert, delete, change, swap)."""
        if len(word) < 4:
            return []
        words_near: set[str] = set()
        for key in {word} | _deletions(word):
            words_near |= self.by_deletion.get(key, set())
        # Four letters leave too many neighbours ("stan": star, utan): there only a swap counts.
        swap_only = len(word) == 4
        return sorted({self.surface[w] for w in words_near
                       if _one_apart(word, w) and (not swap_only or (len(w) == 4 and sorted(w) == sorted(word)))})

    def scores(self, terms: dict[str, float]) -> list[float]:
        out = []
        for doc in self.documents:
            norm = K1 * (1 - B + B * doc.length / self.avg_length) if self.avg_length else K1
            score = 0.0
            for term, weight in terms.items():
                tf = doc.tf.get(term, 0.0)
                if tf:
                    score += weight * self.idf(term) * tf * (K1 + 1) / (tf + norm)
            out.append(score)
        return out

    def paragraph_score(self, paragraph: str, terms: dict[str, float]) -> float:
        present = _terms_of(paragraph, self.lang)
        return sum(weight * self.idf(term) for term, weight in terms.items() if term in present)


def _one_apart(a: str, b: str) -> bool:
    if a == b:
        return True
    if abs(len(a) - len(b)) > 1:
        return False
    if len(a) == len(b):
        diff = [i for i in range(len(a)) if a[i] != b[i]]
        return len(diff) == 1 or (len(diff) == 2 and diff[1] == diff[0] + 1
                                  and a[diff[0]] == b[diff[1]] and a[diff[1]] == b[diff[0]])
    short, long_ = (a, b) if len(a) < len(b) else (b, a)
    return any(long_[:i] + long_[i + 1:] == short for i in range(len(long_)))
