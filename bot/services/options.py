"""Game options typed by players as ``name=value`` pairs (``/game new options:``, the console)."""
from __future__ import annotations

import shlex

from bot.errors import InvalidOption


def parse_options(text: str) -> dict[str, str]:
    options: dict[str, str] = {}
    try:
        tokens = shlex.split(text or "")
    except ValueError:
        raise InvalidOption("error.option_syntax") from None
    for token in tokens:
        name, sep, value = token.partition("=")
        if not sep or not name:
            raise InvalidOption("error.option_syntax")
        options[name.strip().lower()] = value.strip()
    return options
