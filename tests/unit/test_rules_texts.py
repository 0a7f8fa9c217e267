"""The rules texts as Discord readers get them: one line per paragraph, short enough for a message,
and every command written the way a Discord user types it (the slash command, in the reader's
language), never the console's syntax."""
from __future__ import annotations

import importlib
import re

import pytest
from discord import app_commands

from bot.engine import registry
from bot.i18n import LANGUAGES, catalog
from bot.services import rules
from cogs.replies import MAX_CONTENT
from cogs.rules import MAX_PARAGRAPH, section_text

COGS = ("cogs.lobby", "cogs.rules", "cogs.tolp", "cogs.zlodej", "cogs.stratego", "cogs.monopol", "cogs.tjuv")
CODE = re.compile(r"`([^`]+)`")


def _local(lang: str, name: str) -> str:
    return name if lang == "en" else catalog(lang).get(f"cmd.{name}", name)


def _commands() -> list[tuple[str | None, app_commands.Command]]:  # type: ignore[type-arg]
    out: list[tuple[str | None, app_commands.Command]] = []  # type: ignore[type-arg]
    for module_name in COGS:
        module = importlib.import_module(module_name)
        for value in vars(module).values():
            if isinstance(value, type) and value.__module__ == module_name and hasattr(value, "__cog_app_commands__"):
                for item in value.__cog_app_commands__:
                    if isinstance(item, app_commands.Group):
                        out += [(item.name, sub) for sub in item.commands if isinstance(sub, app_commands.Command)]
                    elif isinstance(item, app_commands.Command):
                        out.append((None, item))
    return out


def _slash_forms(lang: str) -> dict[str, set[str]]:
    """'/group sub' (as the reader's Discord shows it) -> the option names it takes."""
    forms: dict[str, set[str]] = {}
    for group, command in _commands():
        path = f"/{_local(lang, group)} {_local(lang, command.name)}" if group else f"/{_local(lang, command.name)}"
        forms[path] = {_local(lang, p.display_name) for p in command.parameters}
    return forms


def _console_words() -> set[str]:
    """Every command word in any language: a code span starting with one (without a slash) is console syntax."""
    words = set()
    for _group, command in _commands():
        words |= {_local(lang, command.name) for lang in LANGUAGES}
    return words


def _sections() -> list[rules.Section]:
    return [s for s in rules.all_sections() if s.game in registry.names()]


def test_the_commands_are_found() -> None:
    forms = _slash_forms("sv")
    assert "/monopol bygg" in forms and forms["/monopol bygg"] == {"gata", "antal"}
    assert "/tölp lägg" in forms and "/regler" in forms


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_command_in_the_rules_is_a_slash_command_of_the_readers_discord(lang: str) -> None:
    forms = _slash_forms(lang)
    console = _console_words()
    seen = 0
    for section in _sections():
        if section.lang != lang:
            continue
        for span in CODE.findall(section.body):
            where = f"{section.game}/{lang}/{section.topic}: `{span}`"
            if span.startswith("/"):
                seen += 1
                path = next((p for p in sorted(forms, key=len, reverse=True)
                             if span == p or span.startswith(p + " ")), None)
                assert path is not None, f"no such command in {lang}: {where}"
                for option in re.findall(r"(?:^| )([^\s:]+):", span[len(path):]):
                    assert option in forms[path], f"{path} has no option {option!r}: {where}"
            else:
                assert span.split()[0].lower() not in console, f"console syntax: {where}"
    assert seen >= 20, lang


def test_paragraphs_are_single_lines_and_short() -> None:
    for section in _sections():
        for line in section.body.splitlines():
            assert not line.startswith(" "), f"continued line in {section.game}/{section.lang}/{section.topic}"
            assert len(line) <= MAX_PARAGRAPH, (section.game, section.lang, section.topic, len(line))


def test_every_section_fits_one_discord_message_as_rules_sends_it() -> None:
    """reply() clips at MAX_CONTENT (under Discord's 2000): a section must fit whole."""
    for section in _sections():
        text = section_text(section, section.lang)
        assert len(text) <= MAX_CONTENT, (section.game, section.lang, section.topic, len(text))
        assert section.body in text, "a section is sent whole"


def test_no_hard_wrapped_sentences() -> None:
    """A line that ends without a full stop, colon or closing bracket and is followed by more text
    is a sentence broken in two (the break would show in Discord)."""
    for section in _sections():
        lines = section.body.splitlines()
        for line, following in zip(lines, lines[1:], strict=False):
            if not line or not following or re.match(r"^(- |\d+\. )", following):
                continue
            assert re.search(r"[.:;!?)…”\"*`]$", line), f"{section.game}/{section.lang}/{section.topic}: {line[-60:]!r}"
