"""The command-sync payload carries Swedish, Norwegian and Czech names and descriptions for every
command and option, valid by Discord's rules."""
from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

from tests.discord.conftest import BotFactory
from tests.discord.helpers import latest_board, own_view
from tests.discord.news_checks import private_reader, uploads
from tests.fakediscord import FakeDiscord

LOCALES = ("sv-SE", "no", "cs")
NAME = re.compile(r"^[-_\w]{1,32}$")


def walk(commands: list[dict[str, Any]], path: str = "") -> Iterator[tuple[str, dict[str, Any]]]:
    for command in commands:
        here = f"{path} {command['name']}".strip()
        yield here, command
        for option in command.get("options", []) or []:
            if option.get("type") in (1, 2):
                yield from walk([option], here)
            else:
                yield f"{here}:{option['name']}", option


async def test_every_command_and_option_is_localized(fake: FakeDiscord, make_bot: BotFactory) -> None:
    await make_bot()
    payload = fake.synced_commands["global"]
    assert payload
    missing = []
    for path, item in walk(payload):
        names = item.get("name_localizations") or {}
        descriptions = item.get("description_localizations") or {}
        for locale in LOCALES:
            if locale not in names:
                missing.append(f"{path} name [{locale}]")
            elif not (NAME.match(names[locale]) and names[locale] == names[locale].lower()):
                missing.append(f"{path} invalid name {names[locale]!r} [{locale}]")
            if locale not in descriptions:
                missing.append(f"{path} description [{locale}]")
            elif not 1 <= len(descriptions[locale]) <= 100:
                missing.append(f"{path} description length [{locale}]")
    assert missing == [], "\n".join(missing[:60]) + f"\n... {len(missing)} in all"


def siblings(commands: list[dict[str, Any]], path: str = "") -> Iterator[tuple[str, list[dict[str, Any]]]]:
    yield path or "/", commands
    for command in commands:
        options = command.get("options", []) or []
        if options:
            yield from siblings(options, f"{path} {command['name']}".strip())


async def test_localized_names_are_unique_among_siblings(fake: FakeDiscord, make_bot: BotFactory) -> None:
    await make_bot()
    clashes = []
    for path, items in siblings(fake.synced_commands["global"]):
        for locale in LOCALES:
            names = [(item.get("name_localizations") or {}).get(locale, item["name"]) for item in items]
            duplicates = {n for n in names if names.count(n) > 1}
            if duplicates:
                clashes.append(f"{path} [{locale}]: {sorted(duplicates)}")
    assert clashes == []


async def test_every_extension_loads_and_every_game_has_its_command_group(fake: FakeDiscord,
                                                                         make_bot: BotFactory) -> None:
    from bot.engine import registry
    from cogs.app import extensions

    bot = await make_bot()
    assert bot.loaded_extensions == list(extensions())
    synced = {command["name"] for command in fake.synced_commands["global"]}
    assert {"game", "rules", *registry.names()} <= synced


async def test_the_table_is_told_who_leads_and_dms_speak_the_clients_language(fake: FakeDiscord,
                                                                             make_bot: BotFactory) -> None:
    bot = await make_bot()
    anna = fake.add_member("anna")
    bo = fake.add_member("bo", locale="sv-SE")
    cia = fake.add_member("cia", locale="cs")
    created = await fake.interact(bot, fake.slash(anna, "game new", game="tolp", options="tolp_leads=yes"))
    assert "tolp_leads=on" in created.text and "two_decks=off" in created.text
    await fake.interact(bot, fake.slash(bo, "game join"))
    await fake.interact(bot, fake.slash(cia, "game join"))
    await fake.interact(bot, fake.slash(anna, "game start"))
    board = latest_board(fake)
    assert "starts" in board.content.lower() or "leads" in board.content.lower(), board.content
    # each DM opens with its reader's news in their language and names its table in the footer
    for user, first, footer in ((bo, "bo — ", "Din privata vy"), (cia, "cia — ", "Váš soukromý pohled"),
                                (anna, "anna — ", "Your private view")):
        lines = own_view(fake, user).content.splitlines()  # by DM, or under their own interaction
        assert lines[0].startswith(first) and footer in lines[-1], lines
    # and each hand picture's alt text tells the reader's own hand in the reader's language
    names = {u["id"]: u["username"] for u in (anna, bo, cia)}
    hands = {names[reader]: text for rec, name, text in uploads(fake)
             if "-private-" in name and (reader := private_reader(fake, rec)) in names}
    assert hands["anna"].startswith("Tölp") and "Your hand" in hands["anna"], hands
    assert "Din hand" in hands["bo"] and "Vaše ruka" in hands["cia"], hands
    fake.assert_clean()
