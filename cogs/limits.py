"""Every string option of every slash command bounded to what its use needs (#27).

Discord lets a string option carry up to 6,000 characters unless the command declares a
``max_length``; a card list, a square or a rules question needs far less. ``bound_string_options``
gives each string option of the tree the length its use needs (``LENGTHS``, by option name; any
other string option gets ``DEFAULT``) before the tree is synced, so Discord itself refuses longer
input. ``overlong`` is the server-side check of the same bound (a client that ignores it, a
forged payload): the command is refused with a message naming the option, and an autocomplete
offers nothing."""
from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import discord
from discord import app_commands

# characters an option's value may have, by option name: what the longest real use needs, with room
LENGTHS: dict[str, int] = {
    "game": 32,          # a game's name, or its number in /game replay, history, export
    "options": 300,      # name=value pairs of /game new
    "language": 16,
    "timezone": 64,      # the longest IANA name is 32 characters
    "topic": 200,        # a rules topic or a question in the player's own words
    "cards": 100,        # card codes (13 cards of Tölp: "10H 10S …")
    "card": 8,
    "rank": 8,
    "ranks": 60,
    "target": 64,        # a player's name (32), #number or mention
    "preset": 32,
    "code": 60,          # Stratego's 40-character setup code, with the spaces it is shown with
    "first": 8, "second": 8, "from_": 8, "to": 16,  # squares (Tjuv: a tram stop's square)
    "square": 8, "tail": 8, "front": 8, "piece": 8,
    "street": 64,        # a Monopol street, a unique part being enough
    "give": 300, "get": 300,  # a Monopol trade: money and streets
    "answer": 16, "how": 16,
}
DEFAULT = 100  # a string option this table does not name yet


def commands_of(tree: app_commands.CommandTree[Any]) -> Iterator[app_commands.Command[Any, ..., Any]]:
    def walk(item: Any) -> Iterator[app_commands.Command[Any, ..., Any]]:
        if isinstance(item, app_commands.Group):
            for child in item.commands:
                yield from walk(child)
        elif isinstance(item, app_commands.Command):
            yield item
    for top in tree.get_commands():
        yield from walk(top)


def bound_string_options(tree: app_commands.CommandTree[Any]) -> None:
    """Give every string option without declared choices a ``max_length`` (kept where the command
    declared a smaller one)."""
    for command in commands_of(tree):
        for parameter in command._params.values():
            if parameter.type is not discord.AppCommandOptionType.string or parameter.choices:
                continue
            bound = LENGTHS.get(parameter.name, DEFAULT)
            if parameter.max_value is None or parameter.max_value > bound:
                parameter.max_value = bound


def overlong(interaction: discord.Interaction) -> tuple[str, int] | None:
    """(option's display name, its max_length) of the first string option longer than allowed."""
    command = interaction.command
    if not isinstance(command, app_commands.Command):
        return None
    data: Any = interaction.data or {}
    options = data.get("options", [])
    while options and options[0].get("type") in (1, 2):  # subcommand (group): its own options
        options = options[0].get("options", [])
    by_name = {p.name: p for p in command.parameters}
    for option in options:
        parameter = by_name.get(option.get("name", ""))
        value = option.get("value")
        if parameter is None or not isinstance(value, str):
            continue
        if parameter.max_value is not None and len(value) > parameter.max_value:
            return parameter.display_name, int(parameter.max_value)
    return None
