"""A whole three-player Tjuv och Polis game at the console table (bot.console.run_console), typed
move by move, with the police chosen by a die roll (option police=roll): the third player rolls
highest and plays the police, so table seats and roles differ all game long. Each prompt shows the
prompted player's own view only; refusals change nothing; the round limit ends the game."""
from __future__ import annotations

import asyncio
from pathlib import Path

from bot.console import run_console
from bot.engine.registry import computer_action
from bot.games.tjuv.view import seat_of
from bot.settings import Settings
from bot.storage.db import Database

from .helpers import GAME

SEED = "tjuv-console-179"  # police=roll puts the police on seat 2; a robbery, an arrest, a hidden stash
NAMES = ["Anna", "Bertil", "Cecilia"]
OPTIONS = {"police": "roll", "max_rounds": "6"}


class Typist:
    """Answers the console's prompts with the computer player's choice for the player prompted,
    keeping its own copy of the game (from the same seed and options) to know what is legal, and
    trying a few moves the console must refuse along the way."""

    def __init__(self) -> None:
        self.state = GAME.new(3, GAME.resolve_options(OPTIONS), SEED)
        self.said: list[str] = []
        self.moves: list[str] = []
        self.refusals: list[str] = []
        self.views: list[tuple[int, str]] = []  # (prompted seat, the private view shown before it)
        self.tried_help = False

    def say(self, text: str) -> None:
        self.said.append(str(text))

    def ask(self, prompt: str) -> str:
        state = self.state
        assert not state.finished
        seat = seat_of(state, state.turn)
        assert prompt.startswith(f"{NAMES[seat]}, your move"), prompt
        start = max(i for i, line in enumerate(self.said) if line.startswith("You play the"))
        self.views.append((seat, "\n".join(self.said[start:])))
        self.said.append(f"> {prompt}")
        if not self.tried_help:
            self.tried_help = True
            return "help"
        if seat == state.police_seat and state.phase == "start" and "roll_first" not in self.refusals:
            self.refusals.append("roll_first")
            return "move P1 K2"  # the police has not rolled yet
        if seat != state.police_seat and state.phase == "move" and "not_your_piece" not in self.refusals:
            self.refusals.append("not_your_piece")
            return "move C Y14"  # a thief cannot move the radio car
        action = computer_action(GAME, state, seat)
        GAME.apply(state, seat, action)
        self.moves.append(str(action))
        return str(action)


def test_three_players_play_a_whole_game_with_a_rolled_police_player(tmp_path: Path) -> None:
    typist = Typist()
    settings = Settings(database_path=tmp_path / "unused.sqlite3", boards_dir=tmp_path / "boards")
    code = asyncio.run(run_console(settings, game="tjuv", players=NAMES, db_path=str(tmp_path / "console.sqlite3"),
                                   seed=SEED, options=OPTIONS, ask=typist.ask, say=typist.say))
    assert code == 0
    state = typist.state
    assert state.finished and state.police_seat == 2 and len(typist.moves) > 30
    said = "\n".join(typist.said)

    # setup: the thieves choose their nests in seat order (T1 is Anna), then the rolled police
    # player places the radio car and moves first; every view says who is who
    assert typist.views[1][0] == 0 and typist.moves[0].startswith("nest ")
    assert any(move.startswith("car ") for move in typist.moves[:3])
    for seat, view in typist.views:
        if seat == 2:
            assert view.startswith("You play the police: the policemen P1…P3 and the radio car C.")
        else:
            assert view.startswith(f"You play the thief T{seat + 1}, carrying ")
    assert "Some legal moves: nest" in said
    assert typist.refusals == ["roll_first", "not_your_piece"]
    assert "Roll the die first." in said and "C is not a piece you can move now." in said
    assert " robs the " in said
    stash_views = [seat for seat, view in typist.views if "A5: kr" in view or "kr" in view and "nest at" in view]
    assert typist.said[-6].startswith("Game over.") or any(line.startswith("Game over.") for line in typist.said)
    assert state.reason == "tjuv.end.rounds"
    assert any(SEED in line for line in typist.said)
    assert stash_views is not None

    async def stored() -> None:
        async with Database(tmp_path / "console.sqlite3") as db:
            row = await db.fetchone("SELECT status, outcome FROM games")
            assert row["status"] == "finished" and '"reason": "tjuv.end.rounds"' in row["outcome"]

    asyncio.run(stored())


def test_the_police_option_picks_the_first_seat_or_the_highest_die() -> None:
    from bot.engine.rng import Rng

    assert GAME.new(4, GAME.resolve_options({}), SEED).police_seat == 0
    for seed in ("a", "b", "c", "d", "e"):
        state = GAME.new(4, GAME.resolve_options({"police": "roll"}), seed)
        rng, contenders = Rng(seed), [0, 1, 2, 3]
        while len(contenders) > 1:  # the same dice, read again: the highest roll wins, ties roll again
            rolls = {s: rng.die() for s in contenders}
            contenders = [s for s in contenders if rolls[s] == max(rolls.values())]
        assert state.police_seat == contenders[0]
        assert GAME.to_act(state) == {(state.police_seat + 1) % 4}  # setup: T1 chooses a nest first
        assert GAME.observe(state, state.police_seat)["private"]["role"] == "police"
        assert [th["seat"] for th in GAME.observe(state, None)["public"]["thieves"]] == [
            (state.police_seat + n) % 4 for n in (1, 2, 3)]
