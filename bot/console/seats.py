"""Seats as the console's players name them: by the number the boards show (1, #1, counted from
one), or by the player's name. The engines' own texts count seats from 0; this module turns typed
moves into engine texts and engine texts back into what the boards show."""
from __future__ import annotations

from collections.abc import Sequence

from bot.errors import InvalidAction
from bot.games.monopol.board import SQUARES
from bot.games.monopol.names import square_of

# the moves whose second word is a seat, per game (``steal 2 7D``, ``trade 2 give:c100 get:-``)
SEAT_VERBS: dict[str, frozenset[str]] = {"zlodej": frozenset({"steal"}), "monopol": frozenset({"trade"})}
# Monopol's moves on a deed, typed with its name (``mortgage Oslo S``, ``build Kongens gate 2``) or
# its square number as the engine reads it; build and sell end with a count
STREET_VERBS = frozenset({"build", "sell", "mortgage", "unmortgage", "lift", "keep-mortgage"})
COUNTED = frozenset({"build", "sell"})


def seat_of(word: str, names: Sequence[str]) -> int | None:
    """The seat a typed word means: the board's number ("2", "#2"), a player's name, or the
    start of exactly one name (any case); None when it names no seat or several."""
    text = word.strip().removeprefix("#")
    if text.isdigit():
        number = int(text)
        return number - 1 if 1 <= number <= len(names) else None
    folded = text.casefold()
    exact = [seat for seat, name in enumerate(names) if name.casefold() == folded]
    if exact:
        return exact[0]
    starts = [seat for seat, name in enumerate(names) if folded and name.casefold().startswith(folded)]
    return starts[0] if len(starts) == 1 else None


def seat_list(names: Sequence[str]) -> str:
    return ", ".join(f"{seat + 1} {name}" for seat, name in enumerate(names))


def street_to_engine(words: Sequence[str]) -> list[str]:
    """``build Kongens gate 2`` as the engine reads it (``build 37 2``); a number stays as it is."""
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


def to_engine(game: str, text: str, names: Sequence[str]) -> str:
    """A typed move as the engine reads it: its seat word replaced by the engine's seat index, a
    Monopol deed's name by its square. A seat word that names nobody is refused with the seats
    listed."""
    words = text.split()
    if game == "monopol" and len(words) >= 2 and words[0].lower() in STREET_VERBS:
        return " ".join(street_to_engine(words))
    if len(words) < 2 or words[0].lower() not in SEAT_VERBS.get(game, frozenset()):
        return text
    seat = seat_of(words[1], names)
    if seat is None:
        raise InvalidAction("console.unknown_seat", word=words[1], seats=seat_list(names))
    return " ".join([words[0], str(seat), *words[2:]])


def to_board(game: str, text: str) -> str:
    """An engine text as a player types it: seats counted from one, as on the boards; a Monopol
    deed by its name."""
    words = text.split()
    if game == "monopol" and len(words) >= 2 and words[0] in STREET_VERBS and words[1].isdigit() \
            and int(words[1]) < len(SQUARES):
        return " ".join([words[0], SQUARES[int(words[1])].name, *words[2:]])
    if len(words) < 2 or words[0] not in SEAT_VERBS.get(game, frozenset()) or not words[1].isdigit():
        return text
    return " ".join([words[0], str(int(words[1]) + 1), *words[2:]])
