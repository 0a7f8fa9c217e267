"""Seats as the console's players name them: by the number the boards show (1, #1, counted from
one), or by the player's name. The engines' own texts count seats from 0; this module turns typed
moves into engine texts and engine texts back into what the boards show."""
from __future__ import annotations

from collections.abc import Sequence

from bot.engine import registry
from bot.errors import InvalidAction


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


def to_engine(game: str, text: str, names: Sequence[str]) -> str:
    """A typed move as the engine reads it: the game's own rewriting first (its console adapter:
    a Monopol deed's name by its square), else a seat word replaced by the engine's seat index. A
    seat word that names nobody is refused with the seats listed."""
    words = text.split()
    adapter = registry.plugin(game).console
    rewritten = adapter.to_engine(words)
    if rewritten is not None:
        return " ".join(rewritten)
    if len(words) < 2 or words[0].lower() not in adapter.seat_verbs:
        return text
    seat = seat_of(words[1], names)
    if seat is None:
        raise InvalidAction("console.unknown_seat", word=words[1], seats=seat_list(names))
    return " ".join([words[0], str(seat), *words[2:]])


def to_board(game: str, text: str) -> str:
    """An engine text as a player types it: seats counted from one, as on the boards; the game's
    own rewriting (a Monopol deed by its name) first."""
    words = text.split()
    adapter = registry.plugin(game).console
    rewritten = adapter.to_board(words)
    if rewritten is not None:
        return " ".join(rewritten)
    if len(words) < 2 or words[0] not in adapter.seat_verbs or not words[1].isdigit():
        return text
    return " ".join([words[0], str(int(words[1]) + 1), *words[2:]])
