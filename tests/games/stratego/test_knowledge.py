"""Hidden information: what the public and each player may see, and the computer player."""
from __future__ import annotations

import random

from bot.engine.registry import computer_action
from bot.engine.rng import Rng
from bot.games.stratego import GAME
from bot.games.stratego.actions import Move, Ready, SetupPreset
from bot.games.stratego.state import PLAY

from .helpers import BLUE, RED, position


def played(steps: int, seed: str = "leak"):
    """A seeded random game after ``steps`` actions (with attacks along the way)."""
    state = GAME.new(2, GAME.resolve_options({}), seed)
    chooser = random.Random(seed)
    for _ in range(steps):
        if GAME.outcome(state) is not None:
            break
        seat = chooser.choice(sorted(GAME.to_act(state)))
        GAME.apply(state, seat, chooser.choice(GAME.legal_actions(state, seat)))
        yield state


def test_public_view_never_shows_an_unrevealed_rank() -> None:
    hidden_seen = revealed_seen = 0
    for state in played(400):
        board = GAME.observe(state, None)["public"]["board"]
        for sq, piece in state.board.items():
            if piece.revealed:
                revealed_seen += 1
                assert board[sq]["rank"] == piece.rank
            else:
                hidden_seen += 1
                assert board[sq]["rank"] is None
    assert hidden_seen and revealed_seen


def test_red_never_sees_blues_unrevealed_ranks_or_draft() -> None:
    ranks_seen = known_seen = drafts_seen = 0
    for state in played(300):
        private = GAME.observe(state, RED)["private"]
        assert all(state.board[sq].owner == RED for sq in private["ranks"])
        assert all(state.board[sq].owner == BLUE and state.board[sq].revealed for sq in private["known"])
        if private["draft"] is not None:
            assert private["draft"] == state.drafts[RED]
            drafts_seen += 1
        ranks_seen += bool(private["ranks"])
        known_seen += bool(private["known"])
    assert ranks_seen and known_seen and drafts_seen  # each kind of private view was checked


def test_scrambling_what_red_cannot_see_leaves_reds_view_unchanged() -> None:
    rng = Rng("scramble")
    changed = 0
    for state in played(200):
        scrambled = GAME.scramble_hidden(state, RED, rng)
        assert GAME.observe(scrambled, RED) == GAME.observe(state, RED)
        changed += GAME.dump(scrambled) != GAME.dump(state)
    assert changed


def test_computer_never_makes_a_known_losing_attack_and_takes_a_known_win() -> None:
    state = position({"E4": (RED, "5"), "E5": (BLUE, "9"), "A4": (RED, "6"), "A5": (BLUE, "4"),
                      "J10": (BLUE, "2")})
    state.board["E5"].revealed = state.board["A5"].revealed = True
    assert computer_action(GAME, state, RED) == Move("A4", "A5")
    del state.board["A5"]
    state.board.pop("A4")
    assert computer_action(GAME, state, RED) != Move("E4", "E5")


def test_computer_choice_is_deterministic_and_legal_through_a_whole_game() -> None:
    state = GAME.new(2, GAME.resolve_options({"max_moves": 300}), "bot")
    assert computer_action(GAME, state, RED) == computer_action(GAME, GAME.copy(state), RED)
    assert isinstance(computer_action(GAME, state, RED), SetupPreset)
    while GAME.outcome(state) is None:
        seat = min(GAME.to_act(state))
        action = computer_action(GAME, state, seat)
        if state.phase == PLAY:
            assert action in GAME.legal_actions(state, seat)
        GAME.apply(state, seat, action)
    assert state.moves > 0


def test_the_computer_submits_a_preset_setup() -> None:
    state = GAME.new(2, GAME.resolve_options({}), "bot")
    GAME.apply(state, RED, computer_action(GAME, state, RED))
    assert computer_action(GAME, state, RED) == Ready()
