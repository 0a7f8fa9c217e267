"""Translations: ``t(key, locale, **params)`` over JSON catalogs.

Catalogs: ``bot/i18n/catalogs/<lang>.json`` (core), ``bot/i18n/catalogs/<area>/<lang>.json`` (one
folder per area) and every game package's ``bot/games/<game>/locale/<lang>.json``, merged. Keys are
flat dotted strings; values use ``{name}`` placeholders. Languages: en (complete, the fallback), sv, nb, cs.

A value is either a plain string or a plural entry, an object with one text per CLDR plural
category of the language (``{"one": "{count} card", "other": "{count} cards"}``; Czech adds
``few`` and ``many``), chosen by the ``count`` param through Babel's plural rule for the locale
(or by the param named in the entry's ``"by"``, e.g. ``"by": "turns"``).
Money params (``amount``, ``money``, ``price``, ``fare``, ``reward``) given as integers are written
in the locale's CLDR currency pattern with the games' currency, kroner (``money()``).
"""
from __future__ import annotations

import json
import re
from collections.abc import Mapping
from functools import cache
from pathlib import Path
from typing import Any

from babel import Locale
from babel.numbers import format_decimal

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


# locale folders of games registered from outside bot/games (a plugin entry's ``locale_dir``)
_EXTRA: list[Path] = []


def add_catalog_dir(path: Path) -> None:
    """Merge ``path/<lang>.json`` into the catalogs (a game's plugin entry registers its own)."""
    path = path.resolve()
    if path.parent.parent != _GAMES and path not in _EXTRA:
        _EXTRA.append(path)
        catalog.cache_clear()


def remove_catalog_dir(path: Path) -> None:
    path = path.resolve()
    if path in _EXTRA:
        _EXTRA.remove(path)
        catalog.cache_clear()


def catalog_files(lang: str) -> list[Path]:
    files = [_ROOT / "catalogs" / f"{lang}.json"]
    files += sorted((_ROOT / "catalogs").glob(f"*/{lang}.json"))  # one folder per area: web/, ai/, …
    files += sorted(_GAMES.glob(f"*/locale/{lang}.json"))
    files += [folder / f"{lang}.json" for folder in _EXTRA]
    return [f for f in files if f.exists()]


Entry = str | dict[str, str]
MONEY_PARAMS = frozenset({"amount", "money", "price", "fare", "reward"})
CURRENCY = "kr"  # the games' currency in every language (Norwegian and Swedish kroner)
_PLACEHOLDER = re.compile(r"{(\w+)}")


@cache
def _locale(lang: str) -> Locale:
    return Locale.parse(lang)


def plural_forms(lang: str) -> frozenset[str]:
    """Every CLDR plural category the language distinguishes in cardinal numbers."""
    return frozenset(_locale(lang).plural_form.tags) | {"other"}


def plural_form(count: float, locale: str | None) -> str:
    """The CLDR plural category of ``count`` in ``locale`` ("one", "few", "many", "other")."""
    return str(_locale(normalize(locale)).plural_form(abs(count)))


def placeholders(entry: Entry) -> set[str]:
    """The ``{name}`` params of a catalog entry (of all its forms, for a plural entry)."""
    texts = [text for form, text in entry.items() if form != "by"] if isinstance(entry, dict) else [entry]
    return {name for text in texts for name in _PLACEHOLDER.findall(text)}


@cache
def _symbol_first(lang: str) -> bool:
    """Whether the locale's CLDR currency pattern puts the symbol before the number."""
    pattern = _locale(lang).currency_formats["standard"].pattern.split(";")[0]
    return pattern.strip().startswith("¤")


def money(amount: int, locale: str | None) -> str:
    """``amount`` kroner as the locale writes money: "kr 1,500" (en), "1 500 kr" (sv, nb, cs).
    The number is grouped by CLDR; the symbol stands where the locale's currency pattern puts it,
    with a no-break space between a letter symbol and the digits (CLDR's currency spacing)."""
    lang = normalize(locale)
    number = format_decimal(abs(amount), locale=_locale(lang))
    sign = _locale(lang).number_symbols["latn"]["minusSign"] if amount < 0 else ""
    return f"{sign}{CURRENCY}\u00a0{number}" if _symbol_first(lang) else f"{sign}{number}\u00a0{CURRENCY}"


@cache
def catalog(lang: str) -> Mapping[str, Entry]:
    merged: dict[str, Entry] = {}
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
    """Translate ``key`` into ``locale`` (falls back to English, then to the key itself).
    A plural entry picks its form by the ``count`` param; integer money params are formatted."""
    lang = normalize(locale)
    entry = catalog(lang).get(key)
    if entry is None:
        lang = DEFAULT
        entry = catalog(DEFAULT).get(key, key)
    if isinstance(entry, dict):
        count = params.get(entry.get("by", "count"))
        form = plural_form(count, lang) if isinstance(count, int | float) and not isinstance(count, bool) else "other"
        entry = entry.get(form) or entry["other"]
    for name in MONEY_PARAMS & params.keys():
        value = params[name]
        if isinstance(value, int) and not isinstance(value, bool):
            params[name] = money(value, lang)
    return entry.format_map(_Params(params))
