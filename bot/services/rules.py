"""Rules lookup: each game's rules text as topic sections, found by the words players type.

Texts live in each game's plugin entry's ``rules_dir`` (``bot/games/<game>/rules/<lang>.md``) as
sections headed ``## <topic-id> | <Title>``, one paragraph per line. Beside each text,
``<lang>.keywords.txt`` lists per topic the words and phrasings players use (``topic: phrase;
phrase``). An in-memory index (bot/services/rules_match.py) is built once per process from these
files; no database is involved.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from bot.engine import registry
from bot.i18n import DEFAULT, LANGUAGES, normalize
from bot.services.rules_match import Document, Index, fold

_HEADING = re.compile(r"^##\s+([a-z0-9][a-z0-9_-]*)\s*\|\s*(.+?)\s*$")
WEIGHTS = {"title": 4.0, "keywords": 3.0, "body": 1.0}
# A word only another language's text knows counts this much (a Swede typing "jail").
OTHER_LANGUAGE = 0.6
# What a question is read up to (the /rules topic option's max_length): longer input costs no more
MAX_QUERY = 200


@dataclass(frozen=True)
class Section:
    game: str
    lang: str
    topic: str
    title: str
    body: str

    @property
    def paragraphs(self) -> list[str]:
        return [line for line in self.body.splitlines() if line.strip()]


@dataclass(frozen=True)
class Hit:
    """A section found for a query, in the asker's language, with its most relevant paragraph."""
    section: Section
    score: float
    paragraph: str


def parse_rules(game: str, lang: str, text: str) -> list[Section]:
    sections: list[Section] = []
    current: tuple[str, str] | None = None
    body: list[str] = []
    for line in text.splitlines():
        match = _HEADING.match(line)
        if match:
            if current:
                sections.append(Section(game, lang, current[0], current[1], "\n".join(body).strip()))
            current, body = (match.group(1), match.group(2)), []
        elif current:
            body.append(line)
    if current:
        sections.append(Section(game, lang, current[0], current[1], "\n".join(body).strip()))
    return sections


def parse_keywords(text: str) -> dict[str, list[str]]:
    """``topic: phrase; phrase`` lines (``#`` starts a comment) -> phrases per topic."""
    out: dict[str, list[str]] = {}
    for raw in text.splitlines():
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        topic, _, phrases = line.partition(":")
        out.setdefault(topic.strip(), []).extend(p.strip() for p in phrases.split(";") if p.strip())
    return out


def all_sections() -> tuple[Section, ...]:
    """Every registered game's rules sections (games ordered by name, then the languages)."""
    return _sections(tuple(sorted((plugin.name, plugin.rules_dir) for plugin in registry.plugins())))


@cache
def _sections(games: tuple[tuple[str, Path], ...]) -> tuple[Section, ...]:
    out: list[Section] = []
    for game, folder in games:
        for path in sorted(folder.glob("*.md")):
            out.extend(parse_rules(game, path.stem, path.read_text(encoding="utf-8")))
    return tuple(out)


@cache
def keywords(game: str, lang: str) -> dict[str, list[str]]:
    path = registry.plugin(game).rules_dir / f"{lang}.keywords.txt"
    return parse_keywords(path.read_text(encoding="utf-8")) if path.exists() else {}


def languages(game: str) -> list[str]:
    return sorted({s.lang for s in all_sections() if s.game == game})


def _pick_lang(game: str, locale: str | None) -> str:
    lang = normalize(locale)
    available = languages(game)
    return lang if lang in available else DEFAULT


def topics(game: str, locale: str | None = None) -> list[Section]:
    lang = _pick_lang(game, locale)
    return [s for s in all_sections() if s.game == game and s.lang == lang]


def section(game: str, topic: str, locale: str | None = None) -> Section | None:
    return next((s for s in topics(game, locale) if s.topic == topic), None)


@cache
def index(game: str, lang: str) -> Index:
    sections = topics(game, lang)
    phrases = keywords(game, lang)
    documents = [Document(s.topic, {"title": s.title, "keywords": "\n".join(phrases.get(s.topic, [])),
                                    "body": s.body}) for s in sections]
    return Index(lang, documents, WEIGHTS)


@cache
def _names(game: str) -> dict[str, str]:
    """Topic ids and section titles in every language (folded) -> topic id."""
    out: dict[str, str] = {}
    for candidate in all_sections():
        if candidate.game == game:
            out[candidate.topic] = out[fold(candidate.title)] = candidate.topic
    return out


def warm() -> None:
    """Build every index now (start-up), so the first question is as fast as the rest."""
    for game in sorted({s.game for s in all_sections()}):
        for lang in languages(game):
            index(game, lang)


def search(game: str, query: str, locale: str | None = None, limit: int = 3) -> list[Hit]:
    """The best sections for a question, best first, in the asker's language where we have it.

    A topic id or a section title (in any language) answers with that section alone. Otherwise every
    language's text of the game is searched; a match in another language counts less, so it only
    decides where the asker's language finds nothing better."""
    lang = _pick_lang(game, locale)
    query = query[:MAX_QUERY].strip()
    own = topics(game, lang)
    if not own or not query:
        return []
    named = _names(game).get(fold(query))
    if named is not None:
        chosen = next(s for s in own if s.topic == named)
        return [Hit(chosen, float("inf"), chosen.paragraphs[0] if chosen.paragraphs else "")]
    own_index = index(game, lang)
    terms, unknown = own_index.query_terms(query)
    totals = own_index.scores(terms) if terms else [0.0] * len(own)
    via: list[tuple[Index, dict[str, float]] | None] = [(own_index, terms) if score else None for score in totals]
    extra = [0.0] * len(own)
    if unknown:  # words the asker's language does not know: look for them in the other texts of the game
        rest = " ".join(unknown)
        for other in [x for x in LANGUAGES if x != lang and x in languages(game)]:
            other_index = index(game, other)
            other_terms, _ = other_index.query_terms(rest, loose=False)
            if not other_terms:
                continue
            for i, score in enumerate(other_index.scores(other_terms)):
                if score * OTHER_LANGUAGE > extra[i]:
                    extra[i], via[i] = score * OTHER_LANGUAGE, via[i] or (other_index, other_terms)
    totals = [own + more for own, more in zip(totals, extra, strict=True)]
    ranked = sorted((i for i in range(len(own)) if totals[i] > 0), key=lambda i: (-totals[i], i))[:limit]
    return [Hit(own[i], totals[i], _paragraph(own[i], via[i], lang)) for i in ranked]


def _paragraph(chosen: Section, found: tuple[Index, dict[str, float]] | None, lang: str) -> str:
    """The paragraph of ``chosen`` that best answers the query (the first one if none stands out)."""
    paragraphs = chosen.paragraphs
    if not paragraphs:
        return ""
    if found is None:
        return paragraphs[0]
    found_index, found_terms = found
    if found_index.lang == lang:
        scores = [found_index.paragraph_score(p, found_terms) for p in paragraphs]
    else:  # matched in another language: the same paragraph there, when the texts line up
        other = next(s for s in topics(chosen.game, found_index.lang) if s.topic == chosen.topic)
        if len(other.paragraphs) != len(paragraphs):
            return paragraphs[0]
        scores = [found_index.paragraph_score(p, found_terms) for p in other.paragraphs]
    best = max(range(len(paragraphs)), key=lambda i: (scores[i], -i))
    return paragraphs[best]


def lookup(game: str, query: str, locale: str | None = None) -> Section | None:
    """A topic id, or else the best match, in the reader's language where we have it."""
    hits = search(game, query, locale, limit=1)
    return hits[0].section if hits else None
