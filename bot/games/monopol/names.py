"""Monopol's deeds by name, as players type them: the Norwegian name in any case, accents
optional, a unique beginning or part of it enough (Discord's commands and the console table)."""
from __future__ import annotations

import unicodedata
from collections.abc import Iterable

from bot.errors import InvalidAction

from .board import DEEDS, SQUARES


def fold(text: str) -> str:
    """Lower case without accents, so "ovre slottsgate" finds "Øvre Slottsgate"."""
    text = text.casefold().replace("ø", "o").replace("æ", "ae").replace("å", "a")
    text = unicodedata.normalize("NFKD", text)
    return " ".join("".join(c for c in text if not unicodedata.combining(c)).split())


_BY_NAME: dict[str, int] = {fold(SQUARES[sq].name): sq for sq in DEEDS}


def square_of(text: str, squares: Iterable[int] = DEEDS) -> int:
    """The square a player means by ``text``: a deed's name (any case, accents optional, a unique
    beginning or part of it is enough) or, for the canonical grammar, its number."""
    allowed = tuple(squares)
    wanted = fold(text)
    if wanted.isdigit() and int(wanted) in allowed:
        return int(wanted)
    exact = _BY_NAME.get(wanted)
    if exact is not None and exact in allowed:
        return exact
    for match in (lambda name: name.startswith(wanted), lambda name: wanted in name):
        found = [sq for sq in allowed if wanted and match(fold(SQUARES[sq].name))]
        if len(found) == 1:
            return found[0]
    raise InvalidAction("monopol.ui.unknown_street", text=text.strip()[:60])
