"""A whole three-player Tjuv och Polis game at the console table (bot.console.run_console), typed
move by move, with the police chosen by a die roll (option police=roll): the third player rolls
highest and plays the police, so table seats and roles differ all game long. Each prompt shows the
prompted player's own view only; refusals change nothing; the round limit ends the game."""
from __future__ import annotations

import asyncio
from pathlib import Path

from bot.console import run_console
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
        action = GAME.bot_action(state, seat)
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

    # the rolled police player moves first and is told so; thieves T1, T2 follow in seat order
    assert typist.views[0][0] == 2
    for seat, view in typist.views:
        if seat == 2:
            assert view.startswith("You play the police: the policemen P1…P3 and the radio car C.")
        else:
            assert view.startswith(f"You play the thief T{seat + 1}, carrying ")
    assert "Cecilia rolls 6." in said and "Cecilia moves C to Y14." in said and "Anna moves T1 to B5." in said
    assert "Some legal moves: roll" in said
    assert typist.refusals == ["roll_first", "not_your_piece"]
    assert "Roll the die first." in said and "C is not a piece you can move now." in said

    # robbery, arrest by the radio car, the hidden stash: the sum only in Anna's own view
    assert "Bertil robs the bank at X18 of kr\u00a05,000!" in said and "Anna robs the post office at D3" in said
    assert "C arrests Bertil at X18" in said and "Bertil goes to jail" in said
    assert "Anna hides money in a nest." in said
    hid = typist.said.index("You hid kr\u00a02,000 in the nest at A5.")
    assert typist.said[hid + 1].startswith("You play the thief T1")
    stash_views = [seat for seat, view in typist.views if "A5: kr\u00a02,000" in view]
    assert stash_views and set(stash_views) == {0}
    assert sorted((tmp_path / "boards").glob("tjuv-*-seat0.png"))

    # the end: the round limit; Bertil's last robbery wins; no extra "game over" line from the engine
    assert typist.said[-9:-7] == ["Bertil moves T2 to R14.", "Bertil robs the post office at R14 of kr\u00a05,000!"]
    assert typist.said[-7].startswith("Board image:")
    assert typist.said[-6].startswith("Game over.")  # said once, by the table, with the reason
    assert typist.said[-5:-2] == ["1. Bertil", "2. Cecilia", "3. Anna"]
    assert state.reason == "tjuv.end.rounds" and state.round == 6
    assert any(SEED in line for line in typist.said)

    async def stored() -> None:
        async with Database(tmp_path / "console.sqlite3") as db:
            row = await db.fetchone("SELECT status, outcome FROM games")
            assert row["status"] == "finished" and '"2": 1000' in row["outcome"]

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
        assert GAME.to_act(state) == {state.police_seat}
        assert GAME.observe(state, state.police_seat)["private"]["role"] == "police"
        assert [th["seat"] for th in GAME.observe(state, None)["public"]["thieves"]] == [
            (state.police_seat + n) % 4 for n in (1, 2, 3)]
