"""Reading what Monopol players type: a street by its Norwegian name (any case, accents optional, a
unique part is enough) and one side of a trade ("100 kr, Kongens gate, jail card"), turned into the
engine's square numbers and item lists; and the autocomplete choices that offer them."""
from __future__ import annotations

import re
from collections.abc import Iterable

from discord import app_commands

from bot.errors import InvalidAction
from bot.games.monopol.actions import MAX_TEXT
from bot.games.monopol.board import DEEDS, SQUARES
from bot.games.monopol.names import fold, square_of

__all__ = ["MAX_CHOICES", "bundle_choices", "fold", "parse_bundle", "square_choices", "square_of", "trade_action"]

MAX_CHOICES = 25


# ----------------------------------------------------------------------------- trade bundles
_CANONICAL = re.compile(r"-|(?:c\d{1,6}|j\d{1,2}|\d{1,2})(?:,(?:c\d{1,6}|j\d{1,2}|\d{1,2}))*")
# amounts, jail cards, "and" and "nothing" in English, Norwegian, Swedish and Czech (folded: no accents)
_CASH = re.compile(r"(?:(?:kr|nok|kc)\.?\s*(\d{1,6})|(\d{1,6})\s*(?:kr|nok|kc|,-)?\.?|c(\d{1,6}))")
_CARDS = re.compile(r"(?:(\d{1,2})\s*[x×]?\s*)?(?:get out of jail(?: free)?(?: cards?)?|jail ?cards?|"
                    r"fengselskort|benadningskort|kom deg ut av fengselet(?:-kort)?|fangelsekort(?:en)?|"
                    r"frikort|karty? z vezeni|j(\d{1,2}))")
_NOTHING = {"", "-", "–", "nothing", "none", "ingenting", "intet", "inget", "nic"}


# an amount written with its currency and thousands separators, as the boards show money:
# "kr 1,500" (English), "1 500 kr" (Swedish, Norwegian, Czech)
_GROUPED = re.compile(r"(?i)(kr\.?\s*|nok\s*)?(\d{1,3}(?:[ ,.\u00a0\u202f]\d{3})+)(\s*(?:kr|nok|kč|kc)\b)?")


def _ungroup(match: re.Match[str]) -> str:
    if not (match.group(1) or match.group(3)):
        return match.group(0)
    return (match.group(1) or "") + re.sub(r"\D", "", match.group(2)) + (match.group(3) or "")


def parse_bundle(text: str) -> str:
    """A player's side of a trade ("100 kr, Kongens gate, jail card") as the engine's item list
    ("c100,6,j1"; "-" for nothing). The canonical grammar is accepted as it is; amounts may be
    written as the boards show them ("kr 1,500", "1 500 kr")."""
    text = _GROUPED.sub(_ungroup, text)
    compact = text.replace(" ", "").lower()
    if _CANONICAL.fullmatch(compact) and all(int(item) in DEEDS for item in compact.split(",")
                                             if item.isdigit()):
        items = compact.split(",") if compact != "-" else []
        text = ",".join(item if item[:1] in "cj" else SQUARES[int(item)].name for item in items)
    cash = cards = 0
    deeds: list[int] = []
    for raw in re.split(r"[,;+&]| og | och | and | a ", text):
        item = fold(raw)
        if item in _NOTHING:
            continue
        if (match := _CASH.fullmatch(item)) is not None:
            cash += int(next(g for g in match.groups() if g is not None))
        elif (match := _CARDS.fullmatch(item)) is not None:
            cards += int(match.group(1) or match.group(2) or 1)
        else:
            square = square_of(raw)
            if square in deeds:
                raise InvalidAction("monopol.ui.trade_twice", place=SQUARES[square].name)
            deeds.append(square)
    parts = ([f"c{cash}"] if cash else []) + [str(d) for d in sorted(deeds)] + ([f"j{cards}"] if cards else [])
    return ",".join(parts) or "-"


def trade_action(target: int, give: str, get: str) -> str:
    text = f"trade {target} give:{parse_bundle(give)} get:{parse_bundle(get)}"
    if len(text) > MAX_TEXT:
        raise InvalidAction("monopol.ui.trade_too_long")
    return text


# ----------------------------------------------------------------------------- autocomplete choices
def square_choices(squares: Iterable[int], current: str) -> list[app_commands.Choice[str]]:
    needle = fold(current)
    names = list(dict.fromkeys(SQUARES[sq].name for sq in squares if not needle or needle in fold(SQUARES[sq].name)))
    return [app_commands.Choice(name=name, value=name) for name in names[:MAX_CHOICES]]


def bundle_choices(current: str, deeds: list[int]) -> list[app_commands.Choice[str]]:
    """Complete the last comma-separated item of a trade side with one of ``deeds``."""
    head, _, last = current.rpartition(",")
    prefix = (head + ", ") if head else ""
    taken = {fold(part) for part in head.split(",")}
    needle = fold(last)
    out = []
    for sq in deeds:
        name = SQUARES[sq].name
        if fold(name) in taken or (needle and needle not in fold(name)):
            continue
        value = (prefix + name)[:100]
        out.append(app_commands.Choice(name=value, value=value))
    if current.strip() and not out:
        out.append(app_commands.Choice(name=current[:100], value=current[:100]))
    return out[:MAX_CHOICES]
