"""Translation audit: every catalog key and every command string (``cmd.<English text>``) that a
language still lacks, and placeholder mismatches.

The command strings come from the real command tree, which lives with the Discord adapters:
``python -m cogs.audit [lang …]`` collects them and runs this audit.
"""
from __future__ import annotations

from bot.i18n import LANGUAGES, catalog, placeholders


def missing(lang: str, commands: list[str]) -> list[str]:
    english, other = catalog("en"), catalog(lang)
    out = [key for key in english if key not in other]
    out += [f"cmd.{text}" for text in commands if f"cmd.{text}" not in other]
    for key, text in other.items():
        if key in english and placeholders(text) != placeholders(english[key]):
            out.append(f"{key} (placeholders differ)")
    return out


def main(argv: list[str], commands: list[str]) -> int:
    """Print each language's gaps; 1 when any language lacks something."""
    langs = argv or [lang for lang in LANGUAGES if lang != "en"]
    total = 0
    for lang in langs:
        gaps = missing(lang, commands)
        total += len(gaps)
        print(f"[{lang}] {len(gaps)} missing")
        for key in gaps:
            print(f"  {key}")
    return 1 if total else 0

