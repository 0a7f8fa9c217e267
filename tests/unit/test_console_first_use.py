"""What a first-time player meets at the console table: Ctrl-C leaves at once without a traceback,
a refusal quotes what was typed, rule hints name the console's own `rules` command, and the start
menu says that a new game ends the saved one; PostgreSQL without its driver is one line saying how
to install it; .env.example names every setting."""
from __future__ import annotations

import asyncio
import os
import re
import select
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from dotenv import dotenv_values

from bot.cli import main
from bot.console import run_console
from bot.console.seats import to_board, to_engine
from bot.console.table import plain
from bot.settings import Settings
from tests.unit.test_console_menu import Script as Typed

NAMES = ["Anna", "Björn"]


class Script(Typed):
    """Types the given answers in order and records every prompt and every printed line apart."""

    def say(self, text: str) -> None:
        self.lines.extend(str(text).split("\n"))


def play(tmp_path: Path, script: Script, locale: str = "en", **kwargs: object) -> int:
    settings = Settings(database_path=tmp_path / "gm.sqlite3", boards_dir=tmp_path / "boards", default_locale=locale)
    return asyncio.run(run_console(settings, db_path=str(tmp_path / "console.sqlite3"), ask=script.ask,
                                   say=script.say, **kwargs))  # type: ignore[arg-type]


def read_until(stream: int, marker: bytes, seconds: float) -> bytes:
    """What the process wrote until ``marker`` appeared (or the time ran out)."""
    seen = b""
    deadline = time.monotonic() + seconds
    while marker not in seen and time.monotonic() < deadline:
        ready, _, _ = select.select([stream], [], [], 0.2)
        if ready:
            chunk = os.read(stream, 65536)
            if not chunk:
                break
            seen += chunk
    return seen


def test_ctrl_c_at_a_prompt_leaves_at_once_without_a_traceback(tmp_path: Path) -> None:
    env = dict(os.environ, GAMEMASTER_DB=str(tmp_path / "gm.sqlite3"), GAMEMASTER_BOARDS_DIR=str(tmp_path / "b"),
               PYTHONUNBUFFERED="1")
    env.pop("DISCORD_TOKEN", None)
    process = subprocess.Popen([sys.executable, "-m", "bot", "console", "--game", "tolp", "--players", "Anna,Björn",
                                "--seed", "ctrl-c"], cwd=tmp_path, env=env, stdin=subprocess.PIPE,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        assert process.stdout is not None and process.stderr is not None
        before = read_until(process.stdout.fileno(), b"your move", 60)
        assert b"your move" in before, before
        process.send_signal(signal.SIGINT)  # the player presses Ctrl-C at the prompt (nobody presses Enter)
        out, err = process.communicate(timeout=20)
    finally:
        if process.poll() is None:
            process.kill()
    assert process.returncode == 130
    assert b"Traceback" not in err and b"KeyboardInterrupt" not in err, err
    assert out.decode().strip().endswith(f"Goodbye. The game is saved in {tmp_path / 'console.sqlite3'}."), out


def test_a_refused_move_with_a_seat_quotes_it_as_typed(tmp_path: Path) -> None:
    # Zloděj: "steal Björn" (no cards) is read as "steal 1"; the refusal must not say "steal 1",
    # which would be Anna's number on the board
    script = Script(["steal Björn", "steal 2", "q"])  # "q" leaves the game's prompt too
    play(tmp_path, script, game="zlodej", players=NAMES, seed="typed", options={"first_player": "creator"})
    refusals = [line for line in script.lines if line.startswith("I cannot read")]
    assert refusals == ['I cannot read "steal Björn". Try: new 7H 7S, add 7C, steal 2 7D, take 7D, discard 3C or end.',
                        'I cannot read "steal 2". Try: new 7H 7S, add 7C, steal 2 7D, take 7D, discard 3C or end.']


def test_rule_hints_name_the_console_rules_command_in_the_players_language(tmp_path: Path) -> None:
    script = Script(["play 3C", "rules start", "quit"])
    play(tmp_path, script, game="tolp", players=NAMES, seed="hint", options={})
    refusal = next(line for line in script.lines if "must contain" in line)
    assert refusal.endswith("(Type rules start for the rule.)") and "/rules" not in refusal
    assert "Who starts a round" in script.text  # and that command shows the rule
    script = Script(["rules exchange", "quit"])  # a rule written with Discord's commands says so
    play(tmp_path / "exchange", script, game="tolp", players=NAMES, seed="hint", options={})
    assert "`/tolp give cards:3C 4D`" in script.text
    assert "(The rules write moves as Discord's /commands; at this table type them as help lists them.)" \
        in script.lines
    script = Script(["play 3C", "quit"])
    play(tmp_path / "cs", script, locale="cs", game="tolp", players=NAMES, seed="hint", options={})
    refusal = next(line for line in script.lines if "♥2" in line and line.startswith("První"))
    assert refusal.endswith("(Pravidlo ukáže rules start.)") and "/pravidla" not in refusal


def test_the_menu_says_a_new_game_ends_the_saved_one_and_lists_stratego_for_two(tmp_path: Path) -> None:
    play(tmp_path, Script(["quit"]), game="tolp", players=NAMES, seed="menu", options={})
    script = Script(["q"])
    assert play(tmp_path, script) == 0
    assert "r = resume it, n = new game (ends the saved one), q = quit:" in script.lines
    script = Script(["n", "chess", "q"])  # the game list; "q" leaves where the game is chosen too
    assert play(tmp_path, script) == 0
    assert "3. stratego — Stratego, 2 players" in script.lines and "2–2" not in script.text
    assert script.lines[-3:] == ["Which game (number or name)?", "Which game (number or name)?",
                                 f"Goodbye. The game is saved in {tmp_path / 'console.sqlite3'}."]


def test_at_an_80_column_terminal_long_lines_wrap_between_words(tmp_path: Path) -> None:
    narrow, whole = Script(["help", "hand", "quit"]), Script(["help", "hand", "quit"])
    play(tmp_path / "tty", narrow, game="tolp", players=NAMES, seed="narrow", options={}, width=80)
    play(tmp_path / "pipe", whole, game="tolp", players=NAMES, seed="narrow", options={})
    # only a word longer than a line (a board's path under pytest's long temporary folder) goes past 80
    assert all(len(line) <= 80 or " " not in line.split(": ")[-1].strip() for line in narrow.lines)
    assert max(len(line) for line in whole.lines) > 200  # into a pipe (no width) lines stay whole
    # the same words in the same order: wrapped between words, none cut in two
    assert narrow.text.replace(str(tmp_path / "tty"), "~").split() == whole.text.replace(
        str(tmp_path / "pipe"), "~").split()
    hand = narrow.lines.index(next(line for line in narrow.lines if line.startswith("Your hand:")))
    assert narrow.lines[hand + 1].startswith("  2") and narrow.lines[hand + 2].startswith("  ")  # indented on
    assert "Commands: status (the board and who is to play), log (the moves so far), rules" in narrow.lines
    listed = "Some legal moves: " + " | ".join(f"move P{n % 3 + 1} M{n}" for n in range(1, 16))
    wrapped = plain(listed, 80).split("\n")
    assert len(wrapped) > 1 and all(len(line) <= 80 for line in wrapped)
    parts = [part.strip() for line in wrapped for part in line.split("|") if part.strip()]
    assert all(re.fullmatch(r"(Some legal moves: )?move P\d M\d+", part) for part in parts), wrapped  # none cut


def test_the_log_joins_a_moves_sentences_as_sentences(tmp_path: Path) -> None:
    script = Script(["roll", "log", "quit"])
    play(tmp_path, script, game="monopol", players=NAMES, seed="log", options={})
    row = next(line for line in script.lines if line.startswith("   1  "))
    assert " rolls " in row and " moves to " in row and ".;" not in row, row
    assert row.count(". ") >= 1  # "Anna rolls 3 and 4 (7). Anna moves to …"


def test_postgresql_without_its_driver_says_how_to_install_it_in_one_line(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setitem(sys.modules, "asyncpg", None)  # as after `make run`: the postgres extra not installed
    assert main(["db", "migrate", "--db", "postgresql://gm:secret@127.0.0.1:9/gamemaster"]) == 3
    said = capsys.readouterr()
    lines = [line for line in (said.out + said.err).splitlines() if line.strip()]
    assert lines == ["The database postgresql://gm:***@127.0.0.1:9/gamemaster is a PostgreSQL server, and its driver "
                     "is not installed. Install it with .venv/bin/pip install -e \".[postgres]\" and start again."]


def test_env_example_names_every_setting_the_bot_reads_and_works_as_it_is(monkeypatch: pytest.MonkeyPatch) -> None:
    root = Path(__file__).resolve().parents[2]
    example = (root / ".env.example").read_text()
    read = {name for folder in ("bot", "cogs", "rendering") for source in (root / folder).rglob("*.py")
            for name in re.findall(r"(?:environ\.get|_env|_read)\(\s*\"([A-Z_]+)\"", source.read_text())}
    assert {"DISCORD_TOKEN", "DATABASE_URL", "GAMEMASTER_SHARDS"} <= read
    assert [name for name in sorted(read) if not re.search(rf"^#? ?{name}=", example, re.MULTILINE)] == []
    for name, value in dotenv_values(root / ".env.example").items():  # copied to .env unchanged
        monkeypatch.setenv(name, value or "")
    settings = Settings.from_env(env_file=None)
    assert settings.token is None and settings.database == "data/gamemaster.sqlite3" and settings.shards is None
    assert settings.render_processes >= 1 and settings.announce_slots == 8
    assert settings.computer_processes == 1  # strong searches away from the event loop by default


def test_monopol_deeds_are_typed_and_listed_by_name(tmp_path: Path) -> None:
    assert to_engine("monopol", "build Kongens gate 2", NAMES) == "build 6 2"
    assert to_engine("monopol", "keep-mortgage rådhus", NAMES) == "keep-mortgage 39"
    assert to_engine("monopol", "sell 37 1", NAMES) == "sell 37 1"  # the number still works
    assert to_board("monopol", "unmortgage 5") == "unmortgage Oslo Sentralstasjon"
    script = Script(["roll", "buy", "mortgage prinsens", "mortgage Nowhere", "help", "quit"])
    play(tmp_path, script, game="monopol", players=NAMES, seed="street-2", options={})
    assert "Anna buys Prinsens gate for kr\u00a0100." in script.lines
    assert "Anna mortgages Prinsens gate and gets kr\u00a050." in script.lines
    assert "There is no deed called “Nowhere”. Type a deed's name (or a part of it only it has) or its square " \
           "number; help lists the moves you can make now." in script.lines
    assert "Some legal moves: end | unmortgage Prinsens gate" in script.lines


def test_monopol_status_tells_each_players_money_square_and_deeds_in_words(tmp_path: Path) -> None:
    script = Script(["roll", "buy", "mortgage prinsens", "end", "status", "quit"])
    play(tmp_path, script, game="monopol", players=NAMES, seed="street-2", options={})
    status = script.lines.index("Monopol #1, move 4: Björn to play.")
    assert script.lines[status - 2:status] == [
        "Anna: kr\u00a01,450 in cash, worth kr\u00a01,500, on Prinsens gate · deeds: Prinsens gate (mortgaged)",
        "Björn: kr\u00a01,500 in cash, worth kr\u00a01,500, on Start"]
    # buildings, a hotel, jail and bankruptcy as the player panel shows them
    from rendering.monopol_words import describe_public
    owner, level = [None] * 40, [0] * 40
    owner[37] = owner[39] = owner[6] = 0
    level[37], level[39] = 2, 5
    pub = {"players": 2, "bankrupt": [False, True], "in_jail": [True, False], "position": [10, 0],
           "cash": [200, 0], "net_worth": [900, 0], "owner": owner, "level": level, "mortgaged": [False] * 40,
           "jail_cards": [1, 0]}
    assert describe_public({"public": pub}, names=NAMES, locale="en").split("\n") == [
        "Anna: kr\u00a0200 in cash, worth kr\u00a0900, in jail · deeds: Kongens gate, Ullevål hageby (2 houses), "
        "Rådhusplassen (1 hotel) · jail cards: 1", "Björn: bankrupt"]


def test_db_verify_speaks_the_configured_language_for_each_game(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    play(tmp_path, Script(["quit"]), game="tolp", players=NAMES, seed="verify", options={})
    monkeypatch.setenv("GAMEMASTER_LOCALE", "sv")
    capsys.readouterr()
    assert main(["db", "verify", "--db", str(tmp_path / "console.sqlite3")]) == 0
    assert "spel 1 (tolp): ok" in capsys.readouterr().out.splitlines()


def test_a_wrong_player_count_says_why_and_stratego_setup_says_what_to_type(tmp_path: Path) -> None:
    script = Script(["n", "monopol", "7", "two", "q"])
    play(tmp_path / "count", script)
    assert script.lines.count("Type a number from 2 to 6.") == 2
    script = Script(["quit"])
    play(tmp_path, script, game="stratego", players=NAMES, seed="setup", options={})
    assert any(line.startswith("Set up: swap two squares (swap A1 B2), setup random, setup preset classic, then "
                               "ready. Your draft as a code (setup code …, M = Marshal 10): ") for line in script.lines)
