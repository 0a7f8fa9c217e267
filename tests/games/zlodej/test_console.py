"""A whole three-player Zloděj game at the console table (bot.console.run_console), typed move by
move: the hand shown at each prompt is the prompted player's, refusals change nothing, and the
game ends with the piles counted."""
from __future__ import annotations

import asyncio
import re
from pathlib import Path

from bot.console import run_console
from bot.engine.cards import cards_text
from bot.engine.registry import computer_action
from bot.games.zlodej.actions import Steal
from bot.settings import Settings
from bot.storage.db import Database
from bot.storage.games import open_in_channel
from rendering.zlodej import pretty

from .helpers import GAME

SEED = "zlodej-console-1"
NAMES = ["Anežka", "Bořivoj", "Čeněk"]


class Typist:
    """Answers the console's prompts with the computer player's choice for the player prompted,
    keeping its own copy of the game (replayed from the same seed) to know what is legal. Along
    the way it tries a few moves the console must refuse."""

    def __init__(self) -> None:
        self.state = GAME.new(3, GAME.resolve_options({}), SEED)
        self.said: list[str] = []
        self.moves = 0
        self.refusals: list[str] = []
        self.tried_end = self.tried_help = self.tried_locked = False
        self.shown_hands: list[tuple[str, str]] = []
        self.steals = 0

    def say(self, text: str) -> None:
        self.said.append(str(text))

    def ask(self, prompt: str) -> str:
        state, seat = self.state, self.state.turn
        assert not state.finished
        assert prompt.startswith(f"{NAMES[seat]}, your move"), prompt
        # the private view printed just before this prompt is the prompted player's own
        hand = sorted(state.hands[seat])
        shown = next(line for line in reversed(self.said) if line.startswith("Your hand:"))
        self.shown_hands.append((shown, " ".join(str(c) for c in hand)))
        self.said.append(f"> {prompt}")
        if not self.tried_end:
            self.tried_end = True
            self.refusals.append("end")
            return "end"  # nothing laid yet: refused
        if not self.tried_help:
            self.tried_help = True
            return "help"
        if not self.tried_locked:
            victim = next((o for o in range(3) if o != seat and state.locked[o] and not state.open_piles[o]), None)
            if victim is not None:
                self.tried_locked = True
                self.refusals.append("locked")
                return f"steal #{victim + 1} {hand[0]}"
        action = computer_action(GAME, state, seat)
        GAME.apply(state, seat, action)
        self.moves += 1
        if isinstance(action, Steal):
            # robbed as the board shows the seats: by number, by "#number" or by name, in turn
            self.steals += 1
            who = [str(action.target + 1), f"#{action.target + 1}", NAMES[action.target]][self.steals % 3]
            return f"steal {who} {cards_text(action.cards)}"
        return str(action)


def run(tmp_path: Path, typist: Typist) -> int:
    settings = Settings(database_path=tmp_path / "unused.sqlite3", boards_dir=tmp_path / "boards")
    return asyncio.run(run_console(settings, game="zlodej", players=NAMES, db_path=str(tmp_path / "console.sqlite3"),
                                   seed=SEED, ask=typist.ask, say=typist.say))


def test_three_players_play_a_whole_game_at_the_console(tmp_path: Path) -> None:
    typist = Typist()
    assert run(tmp_path, typist) == 0
    said = "\n".join(typist.said)
    state = typist.state
    assert state.finished and typist.moves > 60

    # every prompt came with the prompted player's own hand, codes and suit symbols
    assert len(typist.shown_hands) > typist.moves
    for shown, codes in typist.shown_hands:
        assert shown.splitlines()[0] == f"Your hand: {codes}  ({pretty(codes.split())})"
        assert "Your turn:" in shown
    # refusals: ending a turn before laying, robbing a locked pile (named, not numbered)
    assert typist.refusals == ["end", "locked"]
    assert "You must lay at least once or discard a card before your turn can end." in said
    assert re.search(rf"({'|'.join(NAMES)})'s piles are locked under jokers", said)
    assert "Some legal moves: " in said
    # the other seats' top groups are listed with the command that steals them
    assert re.search(r"#([23]): top group \S+ ×\d+ \(to steal it: steal \1 <cards>\)", said)
    # steals typed by board number, "#number" and name all robbed the seat meant
    assert typist.steals >= 3
    assert re.search(rf"({'|'.join(NAMES)}) steals ({'|'.join(NAMES)})'s top group", said)

    # the end: the piles counted, best first, then the places and the seed
    scores = {seat: state.pile_points(seat) for seat in range(3)}
    lines = typist.said[typist.said.index("All cards are played: the piles are counted."):]
    order = sorted(range(3), key=lambda s: (-scores[s], s))
    assert lines[1:4] == [f"{NAMES[s]}: {scores[s]} points." for s in order]
    assert any(line.startswith("1. ") and NAMES[order[0]] in line for line in lines)
    assert any(SEED in line for line in lines)
    assert sorted((tmp_path / "boards").glob("zlodej-*-seat*.png"))

    async def stored() -> None:
        async with Database(tmp_path / "console.sqlite3") as db:
            async with db.transaction() as conn:
                assert await open_in_channel(conn, "console") is None
            row = await db.fetchone("SELECT status, outcome FROM games")
            assert row["status"] == "finished" and '"scores"' in row["outcome"]

    asyncio.run(stored())


def test_an_unreadable_move_is_explained_and_the_game_goes_on(tmp_path: Path) -> None:
    answers = iter(["steal", "new 7H", "quit"])
    said: list[str] = []
    settings = Settings(database_path=tmp_path / "unused.sqlite3", boards_dir=tmp_path / "boards")
    code = asyncio.run(run_console(settings, game="zlodej", players=NAMES, db_path=str(tmp_path / "c.sqlite3"),
                                   seed=SEED, ask=lambda prompt: next(answers), say=said.append))
    assert code == 0
    text = "\n".join(said)
    assert 'I cannot read "steal"' in text
    hand = sorted(GAME.new(3, {}, SEED).hands[0])
    expected = "A new group needs at least two cards" if any(str(c) == "7H" for c in hand) else "You do not hold ♥7"
    assert expected in text
