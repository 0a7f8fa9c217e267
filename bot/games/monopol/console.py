"""How console players type Monopol's moves: a deed by its name (``mortgage Oslo S``, ``build
Kongens gate 2``) or by its square number as the engine reads it; build and sell end with a count.
The plugin entry's console adapter (bot.engine.plugin.ConsoleAdapter)."""
from __future__ import annotations

from bot.errors import InvalidAction
from bot.games.monopol.board import SQUARES
from bot.games.monopol.names import square_of

STREET_VERBS = frozenset({"build", "sell", "mortgage", "unmortgage", "lift", "keep-mortgage"})
COUNTED = frozenset({"build", "sell"})


def to_engine(words: list[str]) -> list[str] | None:
    """``build Kongens gate 2`` as the engine reads it (``build 37 2``); a number stays as it is.
    None: not a move on a deed."""
    if len(words) < 2 or words[0].lower() not in STREET_VERBS:
        return None
    verb, street, count = words[0].lower(), list(words[1:]), []
    if verb in COUNTED and len(street) > 1 and street[-1].isdigit():
        street, count = street[:-1], street[-1:]
    if not street or (len(street) == 1 and street[0].isdigit()):
        return list(words)
    try:
        square = square_of(" ".join(street))
    except InvalidAction:
        raise InvalidAction("console.unknown_street", text=" ".join(street)[:60]) from None
    return [verb, str(square), *count]


def to_board(words: list[str]) -> list[str] | None:
    """An engine text on a deed with the deed's name (``build Kongens gate 2``)."""
    if len(words) >= 2 and words[0] in STREET_VERBS and words[1].isdigit() and int(words[1]) < len(SQUARES):
        return [words[0], SQUARES[int(words[1])].name, *words[2:]]
    return None
