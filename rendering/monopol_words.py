"""Monopol's public table in words, for the console's ``status``: per player the cash, the net
worth, the square the token stands on (or jail, or bankrupt) and the deeds with their buildings and
mortgages, as the board's player panel shows them in the picture."""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from bot.games.monopol.board import HOTEL, SQUARES
from bot.i18n import t
from rendering.kit import seat_name


def deed_words(pub: Mapping[str, Any], square: int, locale: str) -> str:
    """``Kongens gate (2 houses)``, ``Oslo Sentralstasjon (mortgaged)``."""
    name = SQUARES[square].name
    level = pub["level"][square]
    if pub["mortgaged"][square]:
        return t("monopol.ui.status_mortgaged", locale, place=name)
    if level:
        built = t("monopol.render.hotels", locale, count=1) if level >= HOTEL else \
            t("monopol.render.houses", locale, count=level)
        return f"{name} ({built})"
    return name


def describe_public(obs: Mapping[str, Any], *, names: Sequence[str], locale: str = "en") -> str:
    pub = obs["public"]
    lines = []
    for seat in range(pub["players"]):
        if pub["bankrupt"][seat]:
            lines.append(f"{seat_name(names, seat)}: {t('monopol.render.bankrupt', locale)}")
            continue
        key = "monopol.ui.status_jailed" if pub["in_jail"][seat] else "monopol.ui.status_player"
        line = t(key, locale, name=seat_name(names, seat), money=pub["cash"][seat], amount=pub["net_worth"][seat],
                 place=SQUARES[pub["position"][seat]].name)
        deeds = [deed_words(pub, sq, locale) for sq, owner in enumerate(pub["owner"]) if owner == seat]
        if deeds:
            line += " · " + t("monopol.ui.status_deeds", locale, deeds=", ".join(deeds))
        if pub["jail_cards"][seat]:
            line += " · " + t("monopol.render.jail_cards", locale, count=pub["jail_cards"][seat])
        lines.append(line)
    return "\n".join(lines)
