"""Translations: ``t(key, locale, **params)`` over JSON catalogs.

Catalogs: ``bot/i18n/catalogs/<lang>.json`` (core) merged with every game package's
``bot/games/<game>/locale/<lang>.json``. Keys are flat dotted strings; values use ``{name}``
placeholders. Languages: en (complete, the fallback), sv, nb, cs.
"""
from __future__ import annotations

import json
from collections.abc import Mapping
from functools import cache
from pathlib import Path
from typing import Any

LANGUAGES = ("en", "sv", "nb", "cs")
DEFAULT = "en"
_ROOT = Path(__file__).resolve().parent
_GAMES = _ROOT.parent / "games"

# Discord locale -> our language
_DISCORD = {"sv-SE": "sv", "no": "nb", "nb": "nb", "nn": "nb", "cs": "cs", "en-US": "en", "en-GB": "en"}
# our language -> Discord locale (for command localizations)
DISCORD_LOCALES = {"sv": "sv-SE", "nb": "no", "cs": "cs"}


def normalize(locale: str | None) -> str:
    """Map a Discord locale or a language code to one of LANGUAGES (English when unknown)."""
    if not locale:
        return DEFAULT
    text = str(locale)
    if text in _DISCORD:
        return _DISCORD[text]
    lang = text.split("-")[0].split("_")[0].lower()
    if lang == "no":
        return "nb"
    return lang if lang in LANGUAGES else DEFAULT


def catalog_files(lang: str) -> list[Path]:
    files = [_ROOT / "catalogs" / f"{lang}.json"]
    files += sorted(_GAMES.glob(f"*/locale/{lang}.json"))
    return [f for f in files if f.exists()]


@cache
def catalog(lang: str) -> Mapping[str, str]:
    merged: dict[str, str] = {}
    for path in catalog_files(lang):
        data = json.loads(path.read_text(encoding="utf-8"))
        merged.update(data)
    return merged


class _Params(dict[str, Any]):
    def __missing__(self, key: str) -> str:
        return "{" + key + "}"


def has(key: str, locale: str | None = None) -> bool:
    return key in catalog(normalize(locale)) or key in catalog(DEFAULT)


def t(key: str, locale: str | None = None, /, **params: Any) -> str:
    """Translate ``key`` into ``locale`` (falls back to English, then to the key itself)."""
    lang = normalize(locale)
    text = catalog(lang).get(key)
    if text is None:
        text = catalog(DEFAULT).get(key, key)
    return text.format_map(_Params(params))
