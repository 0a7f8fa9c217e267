"""A short scripted Stratego game at the console table: both setups typed, a refused move, and a
scout taking the flag; each player's text board shows only what that player may know."""
from __future__ import annotations

from pathlib import Path

from bot.console import run_console
from bot.games.stratego.setups import PRESETS
from bot.settings import Settings

CLASSIC = PRESETS["classic"]
# classic with the flag on Blue's A7 (the last character: Blue reads each row from J to A)
BLUE_CODE = CLASSIC[0] + CLASSIC[39] + CLASSIC[2:39] + CLASSIC[1]

SCRIPT = [
    ("Ann", "setup preset classic"),
    ("Ann", "ready"),
    ("Bo", f"setup code {BLUE_CODE}"),
    ("Bo", "swap J10 I10"),
    ("Bo", "ready"),
    ("Ann", "help"),
    ("Ann", "move B4 B5"),
    ("Bo", "move A7 A6"),  # the flag never moves: refused, Bo asked again
    ("Bo", "move J7 J6"),
    ("Ann", "move A4 A7"),
]


def row(board_text: str, number: int) -> list[str]:
    for line in board_text.splitlines():
        parts = line.split()
        if parts and parts[0] == str(number) and len(parts) == 11:
            return parts[1:]
    raise AssertionError(f"row {number} not in {board_text!r}")


async def test_scripted_game_at_the_console_ends_with_the_flag(tmp_path: Path) -> None:
    out: list[str] = []
    script = list(SCRIPT)
    prompts: list[tuple[str, str]] = []  # (whose prompt, everything said since the last prompt)

    def ask(prompt: str) -> str:
        assert script, f"asked again after the script ended: {prompt!r}"
        player, answer = script.pop(0)
        assert player in prompt, (player, prompt, out[-5:])
        prompts.append((player, "\n".join(out)))
        out.clear()
        return answer

    settings = Settings(database_path=tmp_path / "bot.sqlite3", boards_dir=tmp_path / "boards")
    result = await run_console(settings, game="stratego", players=["Ann", "Bo"], seed="console-test",
                               ask=ask, say=out.append)
    assert result == 0 and script == []
    tail = "\n".join(out)
    assert "captures Bo's flag on A7" in tail
    assert "1. Ann" in out and "2. Bo" in out
    assert "The seed was `console-test`" in tail

    # Ann's draft at her first prompt was random; after the preset her board is the classic one
    ann_play = next(text for player, text in prompts if player == "Ann" and "B4 → B5" not in text
                    and "Both armies" in text)
    assert row(ann_play, 4) == list(CLASSIC[30:40])
    assert row(ann_play, 7) == ["##"] * 10  # Bo's ranks are hidden from Ann
    bo_view = next(text for player, text in prompts if player == "Bo" and "B4 → B5" in text)
    assert row(bo_view, 7) == list(BLUE_CODE[30:40])  # Bo sits opposite: J..A
    assert row(bo_view, 4)[8] == "."  # Ann's B4 left; her other pieces are backs to Bo
    assert set(row(bo_view, 4)) == {"##", "."}
    assert "#." in row(bo_view, 5)  # the piece that moved is marked
    refused = next(text for player, text in prompts if player == "Bo" and "never move" in text)
    assert "A7" in refused
    assert any("move A4 A5" in text for _, text in prompts)  # "help" listed Ann's legal moves
    assert sorted(p.name for p in (tmp_path / "boards").glob("stratego-*-seat1.png"))
