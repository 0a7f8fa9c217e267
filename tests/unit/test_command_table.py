"""README's promise, every command and option in all four languages' Discord names, is kept by
docs/commands.md's generated table: it must match the real command tree and the catalogs (after
adding or renaming a command or option, run ``python -m cogs.command_table``)."""
from __future__ import annotations

import asyncio

from cogs import command_table


def test_the_command_table_in_docs_is_current() -> None:
    commands = asyncio.run(command_table.payload())
    table = command_table.markdown(commands)
    text = command_table.DOC.read_text(encoding="utf-8")
    assert command_table.current(text) == command_table.section(table), (
        "docs/commands.md's command table is stale: run `python -m cogs.command_table`")


def test_the_table_names_every_command_and_option_in_each_language() -> None:
    commands = asyncio.run(command_table.payload())
    table = command_table.markdown(commands)
    rows = table.splitlines()[2:]
    assert len(rows) == sum(1 for _ in command_table.leaves(commands)) >= 40
    row = next(r for r in rows if r.startswith("| `/notify "))
    assert row.startswith("| `/notify mute: early: max_per:` | `/aviseringar tysta: tidigt: högst_per:` "
                          "| `/varsler demp: tidlig: maks_per:` | `/upozornění ztlumit: předem: nejvýš_za:` |")
    prefs = next(r for r in rows if r.startswith("| `/game prefs "))
    assert "`/spel inställningar " in prefs and " sammandrag:` |" in prefs
    stale = command_table.rewritten("# Commands\n", table.replace("`/notify", "`/notifyx"))
    assert command_table.current(stale) != command_table.section(table)  # a changed name is caught
    assert command_table.current(command_table.rewritten(stale, table)) == command_table.section(table)
