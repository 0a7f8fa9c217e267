"""Tjuv och Polis actions and their canonical text.

    roll                 roll the die (then move)
    move P2 K14          move a piece to a square with the roll (the engine picks the path)
    ride T1 S16          ride the tram from the stop the piece ended on, instead of rolling
    hide 3000            hide carried money in the nest the thief stands in
    fetch                take everything hidden in this nest (makes the thief wanted)
    end                  end the turn after entering a nest
    wait                 sit one turn in jail
    breakout             try to break out of jail (needs a 6, then move 6)
    nest N1              setup: the thief to choose takes this nest as his starting square
    car P11 Q11          setup: the police place the radio car on two street squares, tail then
                         front (one of them in front of the police-house gate); it drives forward
    arrest P2            the police name the piece that arrests an encircled thief

Pieces: P1.. policemen, C the radio car, T<seat> thieves. Squares: letter across, number down.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from bot.errors import InvalidAction

_PIECE = re.compile(r"^(C|P[1-9]|T[1-9])$")  # the engine says which exist
_SQUARE = re.compile(r"^([A-Z])0*([1-9][0-9]?)$")


@dataclass(frozen=True)
class Roll:
    def __str__(self) -> str:
        return "roll"


@dataclass(frozen=True)
class Move:
    piece: str
    to: str

    def __str__(self) -> str:
        return f"move {self.piece} {self.to}"


@dataclass(frozen=True)
class Ride:
    piece: str
    to: str

    def __str__(self) -> str:
        return f"ride {self.piece} {self.to}"


@dataclass(frozen=True)
class Hide:
    amount: int

    def __str__(self) -> str:
        return f"hide {self.amount}"


@dataclass(frozen=True)
class Fetch:
    def __str__(self) -> str:
        return "fetch"


@dataclass(frozen=True)
class EndTurn:
    def __str__(self) -> str:
        return "end"


@dataclass(frozen=True)
class Wait:
    def __str__(self) -> str:
        return "wait"


@dataclass(frozen=True)
class Breakout:
    def __str__(self) -> str:
        return "breakout"


@dataclass(frozen=True)
class ChooseNest:
    square: str

    def __str__(self) -> str:
        return f"nest {self.square}"


@dataclass(frozen=True)
class PlaceCar:
    tail: str
    front: str

    def __str__(self) -> str:
        return f"car {self.tail} {self.front}"


@dataclass(frozen=True)
class Arrest:
    piece: str

    def __str__(self) -> str:
        return f"arrest {self.piece}"


Action = Roll | Move | Ride | Hide | Fetch | EndTurn | Wait | Breakout | ChooseNest | PlaceCar | Arrest
_SINGLE: dict[str, Action] = {"roll": Roll(), "fetch": Fetch(), "end": EndTurn(), "wait": Wait(),
                              "breakout": Breakout()}


def parse_action(text: str) -> Action:
    words = text.strip().split()
    if not words or len(text) > 60:
        raise InvalidAction("tjuv.error.syntax", text=text[:60])
    verb = words[0].lower()
    if len(words) == 1 and verb in _SINGLE:
        return _SINGLE[verb]
    if verb == "hide" and len(words) == 2 and words[1].isdigit() and len(words[1]) <= 7:
        return Hide(int(words[1]))
    if verb == "nest" and len(words) == 2 and (square := _SQUARE.match(words[1].upper())):
        return ChooseNest(f"{square.group(1)}{square.group(2)}")
    if verb == "arrest" and len(words) == 2 and _PIECE.match(words[1].upper()) and not words[1].upper().startswith("T"):
        return Arrest(words[1].upper())
    if verb == "car" and len(words) == 3:
        tail, front = _SQUARE.match(words[1].upper()), _SQUARE.match(words[2].upper())
        if tail and front:
            return PlaceCar(f"{tail.group(1)}{tail.group(2)}", f"{front.group(1)}{front.group(2)}")
    if verb in ("move", "ride") and len(words) == 3:
        piece, square = words[1].upper(), _SQUARE.match(words[2].upper())
        if _PIECE.match(piece) and square:
            to = f"{square.group(1)}{square.group(2)}"
            return Move(piece, to) if verb == "move" else Ride(piece, to)
    raise InvalidAction("tjuv.error.syntax", text=text)
