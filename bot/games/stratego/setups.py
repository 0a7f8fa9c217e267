"""Setups: the 40-character setup code, the named presets (data/presets.json), random setups
and validation with a specific message for each way a setup can be wrong."""
from __future__ import annotations

import json
from collections import Counter
from collections.abc import Mapping
from pathlib import Path

from bot.engine.rng import Rng
from bot.errors import IllegalAction
from bot.games.stratego.board import LAKES, neighbours, setup_squares
from bot.games.stratego.pieces import BOMB, BY_CODE, BY_RANK, FLAG, KINDS

CODE_LENGTH = 40
# Friendly aliases accepted in typed codes: 0 for the marshal (10), 1 for the spy.
_ALIASES = {"0": "M", "1": "S"}


def _load_presets() -> dict[str, str]:
    data = json.loads((Path(__file__).parent / "data" / "presets.json").read_text(encoding="utf-8"))
    return {name: "".join(rows) for name, rows in data["presets"].items()}


PRESETS: dict[str, str] = _load_presets()


def normalize_code(text: str) -> str:
    """Upper-case, aliases resolved, separators (spaces, '/', '-', '|') dropped."""
    kept = [c for c in text.upper() if c not in " /-|"]
    return "".join(_ALIASES.get(c, c) for c in kept)


def from_code(code: str, seat: int) -> dict[str, str]:
    """A setup (square -> rank) from a code; raises IllegalAction with the exact fault."""
    code = normalize_code(code)
    if len(code) != CODE_LENGTH:
        raise IllegalAction("stratego.error.code_length", topic="setup", length=len(code),
                            expected=CODE_LENGTH)
    for char in code:
        if char not in BY_CODE:
            raise IllegalAction("stratego.error.code_char", topic="setup", char=char)
    setup = {sq: BY_CODE[char].rank for sq, char in zip(setup_squares(seat), code, strict=True)}
    validate(setup, seat)
    return setup


def to_code(setup: Mapping[str, str], seat: int) -> str:
    return "".join(BY_RANK[setup[sq]].code for sq in setup_squares(seat))


def validate(setup: Mapping[str, str], seat: int) -> None:
    """Every piece on a square of the seat's four rows, none on a lake, exact counts."""
    own = set(setup_squares(seat))
    for sq in sorted(setup):
        if sq in LAKES:
            raise IllegalAction("stratego.error.setup_lake", topic="setup", square=sq)
        if sq not in own:
            raise IllegalAction("stratego.error.setup_outside", topic="setup", square=sq)
    counts = Counter(setup.values())
    for kind in KINDS:
        if counts[kind.rank] != kind.count:
            raise IllegalAction("stratego.error.setup_count", topic="setup", rank=kind.rank,
                                expected=kind.count, found=counts[kind.rank])


def preset(name: str, seat: int) -> dict[str, str]:
    if name not in PRESETS:
        raise IllegalAction("stratego.error.unknown_preset", topic="setup", preset=name,
                            presets=", ".join(PRESETS))
    return from_code(PRESETS[name], seat)


def random_setup(rng: Rng, seat: int) -> dict[str, str]:
    """A random setup that is still playable: the flag on a random square of the back row, bombs
    on its neighbours inside the setup area (two or three of them), everything else shuffled. A
    uniform shuffle puts the flag in the front row one time in four, where the first scout takes it.
    """
    order = setup_squares(seat)
    own = set(order)
    flag = rng.choice(order[:10])
    guards = [sq for sq in neighbours(flag) if sq in own]
    fixed = {flag: FLAG, **{sq: BOMB for sq in guards}}
    ranks = [kind.rank for kind in KINDS for _ in range(kind.count)]
    for rank in fixed.values():
        ranks.remove(rank)
    rng.shuffle(ranks)
    rest = iter(ranks)
    return {sq: fixed[sq] if sq in fixed else next(rest) for sq in order}
