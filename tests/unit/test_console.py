"""The console table: a whole Tölp game typed at the prompts, as local players would."""
from __future__ import annotations

import re
from pathlib import Path

from PIL import Image

from bot.console import run_console
from bot.settings import Settings


class Typist:
    """Answers prompts like a player who asks for help and then plays the first legal move."""

    def __init__(self) -> None:
        self.output: list[str] = []
        self.legal: list[str] = []
        self.prompts = 0

    def say(self, text: str) -> None:
        self.output.append(str(text))
        match = re.match(r"Some legal moves: (.*)", str(text))
        if match:
            self.legal = match.group(1).split(" | ")

    def ask(self, prompt: str) -> str:
        self.output.append(prompt.strip())
        self.prompts += 1
        assert self.prompts < 3000, "the game did not end"
        if not self.legal:
            return "help"
        plays = [m for m in self.legal if m.startswith("play")]
        move = (plays or self.legal)[0]
        self.legal = []
        return move


async def test_four_local_players_finish_a_tolp_game(tmp_path: Path) -> None:
    settings = Settings(database_path=tmp_path / "gm.sqlite3", boards_dir=tmp_path / "boards")
    typist = Typist()
    result = await run_console(settings, game="tolp", players=["Anna", "Björn", "Cecilia", "Dag"],
                               seed="console-test", options={"scoring": "rounds", "rounds": "1"},
                               ask=typist.ask, say=typist.say)
    assert result == 0
    text = "\n".join(typist.output)
    assert "The game has started" in text and re.search(r"seed was `console-test`", text)
    assert re.search(r"^1\. \w+", text, re.MULTILINE)
    boards = sorted((tmp_path / "boards").glob("tolp-*.png"))
    assert len(boards) > 10
    with Image.open(boards[-1]) as image:
        assert image.width >= 1000
    # private views were printed only at their owner's prompt: each hand line follows a board of that seat
    assert any(p.name.endswith("seat0.png") for p in boards) and any(p.name.endswith("seat3.png") for p in boards)


async def test_the_hot_seat_clears_the_screen_and_hands_the_keyboard_over(tmp_path: Path) -> None:
    settings = Settings(database_path=tmp_path / "gm.sqlite3", boards_dir=tmp_path / "boards")
    typist = Typist()
    await run_console(settings, game="tolp", players=["Anna", "Björn", "Cecilia"], seed="hot-seat",
                      options={"scoring": "rounds", "rounds": "1"}, ask=typist.ask, say=typist.say, hotseat=True)
    out = typist.output
    handovers = [i for i, line in enumerate(out) if line.startswith("Pass the keyboard to")]
    hands = [i for i, line in enumerate(out) if line.startswith("Your hand:")]
    assert len(handovers) > 10
    # every hand shown comes after a cleared screen and a handover to that very player
    for index in hands:
        before = max(i for i in handovers if i < index)
        assert out[before - 1] == "\033[2J\033[H"
