"""The console's start menu, its commands, seats typed as the boards show them, and the command
line around it (game list, database file named, db verify on an empty file, Discord unreachable)."""
from __future__ import annotations

import asyncio
import os
import re
import subprocess
import sys
from collections.abc import Iterable
from pathlib import Path

import pytest

from bot.cli import main
from bot.console import run_console
from bot.console.seats import seat_of, to_board, to_engine
from bot.errors import InvalidAction
from bot.settings import Settings

NAMES = ["Anna", "Björn", "Cecilia"]


class Script:
    """Types the given answers in order and records every prompt and line."""

    def __init__(self, answers: Iterable[str]) -> None:
        self.answers = list(answers)
        self.lines: list[str] = []

    def ask(self, prompt: str) -> str:
        self.lines.append(prompt.strip())
        if not self.answers:
            raise EOFError
        return self.answers.pop(0)

    def say(self, text: str) -> None:
        self.lines.append(str(text))

    @property
    def text(self) -> str:
        return "\n".join(self.lines)


def play(tmp_path: Path, script: Script, **kwargs: object) -> int:
    settings = Settings(database_path=tmp_path / "gm.sqlite3", boards_dir=tmp_path / "boards")
    return asyncio.run(run_console(settings, db_path=str(tmp_path / "console.sqlite3"), ask=script.ask,
                                   say=script.say, **kwargs))  # type: ignore[arg-type]


def test_seats_are_read_as_the_boards_number_them_or_by_name() -> None:
    assert [seat_of(w, NAMES) for w in ("1", "#2", "3", "cecilia", "Bj", "björn")] == [0, 1, 2, 2, 1, 1]
    assert [seat_of(w, NAMES) for w in ("0", "4", "#9", "Zed", "")] == [None] * 5
    assert to_engine("zlodej", "steal #2 7D 7H", NAMES) == "steal 1 7D 7H"
    assert to_engine("zlodej", "steal Anna 7D", NAMES) == "steal 0 7D"
    assert to_engine("monopol", "trade 3 give:c100 get:-", NAMES) == "trade 2 give:c100 get:-"
    assert to_engine("tolp", "play 7D", NAMES) == "play 7D"
    with pytest.raises(InvalidAction) as refused:
        to_engine("zlodej", "steal 4 7D", NAMES)
    assert refused.value.params["seats"] == "1 Anna, 2 Björn, 3 Cecilia"
    # the legal moves are listed the same way
    assert to_board("zlodej", "steal 0 7D") == "steal 1 7D" and to_board("monopol", "roll") == "roll"


def test_the_menu_chooses_a_game_by_number_and_never_asks_two_player_stratego_for_a_count(tmp_path: Path) -> None:
    script = Script(["n", "3", "Ann", "Bo", "", "quit"])
    assert play(tmp_path, script) == 0
    assert "n = new game, q = quit:" in script.text
    assert "3. stratego — Stratego, 2 players" in script.text
    assert "How many players" not in script.text
    assert "Name of player 2:" in script.text and "Name of player 3:" not in script.text
    assert "Stratego" in script.text and "The game has started" in script.text


def test_a_saved_game_is_offered_to_resume_or_left(tmp_path: Path) -> None:
    first = Script(["quit"])
    play(tmp_path, first, game="tolp", players=NAMES, seed="menu", options={})
    resumed = Script(["r", "status", "log", "rules", "rules pass", "hand", "end game", "no", "quit"])
    assert play(tmp_path, resumed) == 0
    text = resumed.text
    assert "A game is saved: #1 Tölp with Anna, Björn, Cecilia." in text
    assert "Resuming game #1 (Tölp)." in text
    assert re.search(r"^Tölp #1, move 0: (Anna|Björn|Cecilia) to play\.$", text, re.MULTILINE)  # status
    assert "No moves yet." in text  # log
    assert "Rules topics: " in text and "Type: rules <topic>" in text
    assert "Your hand: 1" in text  # hand, again, at Anna's prompt
    assert "End this game for everyone? (yes/no)" in text
    left = Script(["q"])
    assert play(tmp_path, left) == 0
    assert "r = resume it, n = new game (ends the saved one), q = quit:" in left.text and "Resuming" not in left.text


def test_end_game_ends_it_for_everyone_and_new_starts_afresh(tmp_path: Path) -> None:
    play(tmp_path, Script(["quit"]), game="tolp", players=NAMES, seed="end", options={})
    script = Script(["r", "end game", "yes"])
    play(tmp_path, script)
    assert "The seed was `end`" in script.text
    again = Script(["n", "zlodej", "3", "A", "B", "C", "", "quit"])
    play(tmp_path, again)
    assert "A game is saved" not in again.text and "resume" not in again.text  # the ended game is gone
    assert "n = new game, q = quit:" in again.text and "How many players (2–10)?" in again.text


def test_a_forced_tolp_pass_is_made_without_a_handover(tmp_path: Path) -> None:
    from tests.unit.test_console import Typist

    typist = Typist()
    settings = Settings(database_path=tmp_path / "gm.sqlite3", boards_dir=tmp_path / "boards")
    asyncio.run(run_console(settings, game="tolp", players=NAMES, seed="forced", hotseat=True,
                            options={"scoring": "rounds", "rounds": "1"}, ask=typist.ask, say=typist.say))
    out = typist.output
    forced = [i for i, line in enumerate(out) if line.endswith("cannot play and passes.")]
    assert forced
    for index in forced:
        player = out[index].split()[0]  # the line may be indented (repeated to the next player)
        assert player in NAMES, out[index]
        # the next line is the pass itself, not a cleared screen or a handover to that player
        assert out[index + 1].strip() == f"{player} passes.", out[index:index + 2]
        assert out[index - 1] != f"Pass the keyboard to {player} and press Enter (the others look away)."


def test_monopol_needs_no_handover(tmp_path: Path) -> None:
    script = Script(["roll", "end", "roll", "end", "quit"])
    play(tmp_path, script, game="monopol", players=["Ann", "Bo"], seed="nohandover", options={}, hotseat=True)
    assert "Pass the keyboard" not in script.text and "\033[2J" not in script.text
    assert "Ann rolls" in script.text and "Bo rolls" in script.text


def test_the_game_option_lists_the_games(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["console", "--game"]) == 0
    listed = capsys.readouterr().out
    assert all(name in listed for name in ("tolp", "zlodej", "stratego", "monopol", "tjuv"))
    assert main(["console", "--game", "chess"]) == 2
    captured = capsys.readouterr()
    assert 'There is no game called "chess".' in captured.err and "monopol" in captured.out


def test_db_commands_name_their_file_and_verify_speaks_on_an_empty_database(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "empty.sqlite3"
    assert main(["db", "migrate", "--db", str(path)]) == 0
    out = capsys.readouterr().out
    assert f"Database: {path}" in out and "Applied migrations: " in out
    assert main(["db", "verify", "--db", str(path)]) == 0
    out = capsys.readouterr().out
    assert f"Database: {path}" in out and f"No started games in {path}: nothing to verify." in out


def test_an_unreachable_discord_is_one_line_not_a_traceback(tmp_path: Path) -> None:
    env = dict(os.environ, DISCORD_TOKEN="some-token", GAMEMASTER_API_BASE="http://127.0.0.1:9/api/v10",
               GAMEMASTER_DB=str(tmp_path / "offline.sqlite3"), GAMEMASTER_LOG_LEVEL="WARNING")
    done = subprocess.run([sys.executable, "-m", "bot", "run"], env=env, cwd=tmp_path, capture_output=True,
                          text=True, timeout=60)
    assert done.returncode == 4
    assert "Traceback" not in done.stdout + done.stderr
    lines = [line for line in (done.stdout + done.stderr).splitlines() if line.strip()]
    assert len(lines) == 1 and lines[0].startswith("Cannot reach Discord ("), lines


def test_tjuv_seats_with_nothing_hidden_need_no_handover(tmp_path: Path) -> None:
    # setup first: the thieves choose their nests and the police place the radio car
    script = Script(["nest A5", "nest A13", "car P11 Q11", "roll", "help", "quit"])
    play(tmp_path, script, game="tjuv", players=NAMES, seed="nohandover", options={}, hotseat=True)
    assert "rolls" in script.text  # the game went on at the prompt
    assert "Pass the keyboard" not in script.text and "\033[2J" not in script.text
