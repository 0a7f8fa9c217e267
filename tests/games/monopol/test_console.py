"""A two-player Monopol game at the console table, typed move by move until the agreed rounds are
over: a refused move, a trade offered and accepted in the engine's grammar, board images written."""
from __future__ import annotations

from pathlib import Path

from bot.console import run_console
from bot.settings import Settings

PREFERENCE = ("accept", "keep-mortgage", "lift", "jail pay", "buy", "roll", "pass", "end")


class Player:
    """Answers the console's prompts: asks for "help", then picks from the listed moves."""

    def __init__(self, out: list[str]) -> None:
        self.out = out
        self.prompts: list[tuple[str, str]] = []
        self.answers: list[str] = []
        # a refused move, a trade with nobody, then a gift of 100 to Bo, named as the board names him
        self.script = ["buy", "trade Zed give:c100 get:-", "trade bo give:c100 get:-"]

    def __call__(self, prompt: str) -> str:
        said = "\n".join(self.out)
        self.out.clear()
        self.prompts.append((prompt, said))
        assert len(self.prompts) < 1500, "the game does not end"
        if "Ann" in prompt and self.script:
            answer = self.script.pop(0)
        elif self.answers and self.answers[-1] == "help":
            listed = [line for line in said.splitlines() if line.startswith("Some legal moves: ")]
            assert listed, said
            moves = listed[-1].removeprefix("Some legal moves: ").split(" | ")
            answer = next((m for want in PREFERENCE for m in moves if m == want or m.startswith(want + " ")),
                          None) or next((m for m in moves if m.startswith(("mortgage", "sell"))), moves[0])
        else:
            answer = "help"
        self.answers.append(answer)
        return answer


async def test_a_console_game_of_monopol_runs_to_the_end_of_the_rounds(tmp_path: Path) -> None:
    out: list[str] = []
    player = Player(out)
    settings = Settings(database_path=tmp_path / "bot.sqlite3", boards_dir=tmp_path / "boards")
    result = await run_console(settings, game="monopol", players=["Ann", "Bo"], seed="console-monopol",
                               options={"max_rounds": "2"}, ask=player, say=out.append)
    assert result == 0
    everything = "\n".join(said for _, said in player.prompts) + "\n" + "\n".join(out)
    # the refused first move explains itself, and Ann is asked again
    assert player.answers[:3] == ["buy", "trade Zed give:c100 get:-", "trade bo give:c100 get:-"]
    assert "That is not possible at this point of the turn." in player.prompts[1][1]
    assert '"Zed" is no seat at this table. Type a number as the board shows it, or a name: 1 Ann, 2 Bo.' \
        in player.prompts[2][1]
    assert "Ann offers Bo a trade: gives kr\u00a0100, wants –." in everything
    assert "accept" in player.answers and "Bo accepts the trade with Ann." in everything
    assert "Ann rolls" in everything and "Bo rolls" in everything
    assert "2 rounds are played: the game is over." in everything
    assert "1. " in everything and "2. " in everything
    assert "The seed was `console-monopol`" in everything
    boards = sorted((tmp_path / "boards").glob("monopol-*.png"))
    assert len(boards) > 5 and boards[-1].read_bytes().startswith(b"\x89PNG")
