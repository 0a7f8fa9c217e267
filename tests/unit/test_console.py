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
        image.load()  # decodes, not just its header
        assert image.width >= 1000
    # private views were printed only at their owner's prompt: each hand line follows a board of that seat
    assert any(p.name.endswith("seat0.png") for p in boards) and any(p.name.endswith("seat3.png") for p in boards)


async def test_the_hot_seat_hands_over_and_repeats_what_the_others_did(tmp_path: Path) -> None:
    settings = Settings(database_path=tmp_path / "gm.sqlite3", boards_dir=tmp_path / "boards")
    typist = Typist()
    names = ["Anna", "Björn", "Cecilia"]
    await run_console(settings, game="tolp", players=names, seed="hot-seat",
                      options={"scoring": "rounds", "rounds": "1"}, ask=typist.ask, say=typist.say, hotseat=True)
    out = typist.output
    handovers = [i for i, line in enumerate(out) if line.startswith("Pass the keyboard to")]
    hands = [i for i, line in enumerate(out) if line.startswith("Your hand:")]
    assert len(handovers) > 10 and hands
    # every hand shown comes after the screen and its scrollback were cleared and the keyboard
    # handed over to that very player
    for index in hands:
        before = max(i for i in handovers if i < index)
        assert out[before - 1] == "\033[2J\033[3J\033[H"
    prompts = [(i, line.split(",")[0]) for i, line in enumerate(out) if ", your move" in line]
    checked = 0
    for h in handovers:
        player = out[h].removeprefix("Pass the keyboard to ").split(" ")[0]
        earlier = [i for i, name in prompts if name == player and i < h]
        if not earlier:
            continue
        # the players prompted since this player's last turn, and what was said publicly meanwhile
        between = {name for i, name in prompts if earlier[-1] < i < h}
        recap_end = next(i for i in range(h + 1, len(out)) if not out[i].startswith("  ")
                         and out[i] != "Since your last turn:")
        recap = [line.removeprefix("  ") for line in out[h + 1:recap_end] if line.startswith("  ")]
        assert out[h + 1] == "Since your last turn:", out[h:h + 3]
        for other in between - {player}:
            assert any(line.startswith(other) for line in recap), (player, other, recap)
        # only public lines, each said before at the table, none of another player's hand
        assert all(line in out[earlier[-1]:h] for line in recap), recap
        assert not any(line.startswith(("Your hand", "You ")) for line in recap), recap
        checked += 1
    assert checked > 10
