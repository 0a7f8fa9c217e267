"""Rules lookup: each game's rules text as topic sections, searchable with SQLite FTS5.

Texts live in ``bot/games/<game>/rules/<lang>.md`` as sections headed ``## <topic-id> | <Title>``.
The index is an in-memory SQLite database built once per process.
"""
from __future__ import annotations

import re
import sqlite3
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from bot.i18n import DEFAULT, normalize

GAMES_DIR = Path(__file__).resolve().parent.parent / "games"
_HEADING = re.compile(r"^##\s+([a-z0-9][a-z0-9_-]*)\s*\|\s*(.+?)\s*$")


@dataclass(frozen=True)
class Section:
    game: str
    lang: str
    topic: str
    title: str
    body: str


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


@cache
def all_sections() -> tuple[Section, ...]:
    out: list[Section] = []
    for path in sorted(GAMES_DIR.glob("*/rules/*.md")):
        out.extend(parse_rules(path.parent.parent.name, path.stem, path.read_text(encoding="utf-8")))
    return tuple(out)


@cache
def _index() -> sqlite3.Connection:
    conn = sqlite3.connect(":memory:", check_same_thread=False)
    conn.execute("CREATE VIRTUAL TABLE rules USING fts5(game UNINDEXED, lang UNINDEXED, topic, title, body, "
                 "tokenize = 'unicode61 remove_diacritics 2')")
    conn.executemany("INSERT INTO rules (game, lang, topic, title, body) VALUES (?, ?, ?, ?, ?)",
                     [(s.game, s.lang, s.topic, s.title, s.body) for s in all_sections()])
    return conn


def languages(game: str) -> list[str]:
    return sorted({s.lang for s in all_sections() if s.game == game})


def _pick_lang(game: str, locale: str | None) -> str:
    lang = normalize(locale)
    available = languages(game)
    return lang if lang in available else DEFAULT


def topics(game: str, locale: str | None = None) -> list[Section]:
    lang = _pick_lang(game, locale)
    return [s for s in all_sections() if s.game == game and s.lang == lang]


def lookup(game: str, query: str, locale: str | None = None) -> Section | None:
    """A topic id, or else the best full-text match, in the reader's language where we have it."""
    lang = _pick_lang(game, locale)
    query = query.strip()
    for section in topics(game, lang):
        if section.topic == query.lower():
            return section
    words = re.findall(r"\w+", query)
    if not words:
        return None
    match = " OR ".join(f'"{w}"*' for w in words)
    for wanted in (lang, DEFAULT, None):
        sql = "SELECT topic, lang FROM rules WHERE rules MATCH ? AND game = ?"
        params: list[str] = [match, game]
        if wanted:
            sql += " AND lang = ?"
            params.append(wanted)
        row = _index().execute(sql + " ORDER BY bm25(rules, 0, 0, 5, 10, 1) LIMIT 1", params).fetchone()
        if row:
            return next(s for s in all_sections() if s.game == game and s.lang == row[1] and s.topic == row[0])
    return None
