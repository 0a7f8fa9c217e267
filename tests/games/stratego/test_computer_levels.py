"""The normal and strong computers: their own sound setups, what they infer from the public
record, the opening without revealing scout strikes, the ending (draw offers), and decisions that
never depend on the enemy's hidden ranks."""
from __future__ import annotations

import random
from collections import Counter

import pytest

from bot.engine.rng import Rng
from bot.games.stratego import GAME, setups
from bot.games.stratego import computer as easy
from bot.games.stratego import computer_normal as normal
from bot.games.stratego import computer_strong as strong
from bot.games.stratego.actions import AcceptDraw, DeclineDraw, Move, OfferDraw, Ready, SetupCode
from bot.games.stratego.board import adjacent, setup_squares
from bot.games.stratego.knowledge import START_COUNTS, Knowledge
from bot.games.stratego.pieces import BOMB, FLAG, SCOUT

from .helpers import BLUE, RED, move, position

LEVELS = {"normal": normal.choose, "strong": strong.choose}
EVERY_LEVEL = {"easy": easy.choose, **LEVELS}


def decide(level: str, state, seat: int, seed: str = "t"):  # type: ignore[no-untyped-def]
    return EVERY_LEVEL[level](state, seat, list(GAME.legal_actions(state, seat)), Rng(seed))


@pytest.mark.parametrize("seat", [RED, BLUE])
def test_normal_setups_are_sound_random_and_never_a_public_preset(seat: int) -> None:
    codes = set()
    for n in range(30):
        setup = normal.sound_setup(random.Random(n), seat)
        setups.validate(setup, seat)
        assert normal.is_sound(setup, seat)
        back = setup_squares(seat)[:10]
        flag = next(sq for sq, rank in setup.items() if rank == FLAG)
        assert flag in back
        assert all(setup[sq] != BOMB for sq in setup_squares(seat)[30:])
        assert sum(setup[sq] == SCOUT for sq in setup_squares(seat)[30:]) >= 2
        codes.add(setups.to_code(setup, seat))
    assert len(codes) == 30
    assert not codes & set(setups.PRESETS.values())
    assert not any(normal.is_sound(setups.preset(name, seat), seat) and
                   setups.to_code(setups.preset(name, seat), seat) in codes for name in setups.PRESETS)


@pytest.mark.parametrize("level", LEVELS)
def test_a_computer_submits_its_own_setup_then_declares_ready(level: str) -> None:
    state = GAME.new(2, GAME.resolve_options({}), "setup")
    action = decide(level, state, BLUE)
    assert isinstance(action, SetupCode)
    GAME.apply(state, BLUE, action)
    sound = strong.is_strong_sound if level == "strong" else normal.is_sound
    assert sound(state.drafts[BLUE], BLUE)
    assert decide(level, state, BLUE) == Ready()
    GAME.apply(state, BLUE, Ready())
    assert state.ready[BLUE]


def test_knowledge_a_piece_that_moved_is_no_bomb_or_flag_and_counts_shrink() -> None:
    state = position({"A1": (RED, "F"), "E4": (RED, "9"), "E6": (BLUE, "5"), "J10": (BLUE, "F"),
                      "A10": (BLUE, "B"), "B10": (BLUE, "8")})
    move(state, RED, "move E4 E5")
    move(state, BLUE, "move B10 B9")
    knowledge = Knowledge.from_observation(GAME.observe(state, RED))
    assert knowledge.moved == ["B9"]
    assert set(knowledge.distribution("B9")).isdisjoint({BOMB, FLAG})
    move(state, RED, "move E5 E6")  # the general takes the major: its rank is now known, and gone
    knowledge = Knowledge.from_observation(GAME.observe(state, RED))
    assert knowledge.enemy_lost["5"] == 1 and knowledge.remaining["5"] == 3
    for n in range(20):
        guess = knowledge.determinize(random.Random(n))
        assert guess["B9"] not in (BOMB, FLAG)
        assert set(guess) == {"B9", "J10", "A10"}


def test_normal_takes_a_known_win_and_never_makes_a_known_losing_attack() -> None:
    state = position({"A1": (RED, "F"), "E4": (RED, "7"), "E5": (BLUE, "6"), "J10": (BLUE, "F"),
                      "D4": (RED, "4"), "D5": (BLUE, "9")})
    for sq in ("E5", "D5"):
        state.board[sq].revealed = True
        state.board[sq].moved = True
    assert decide("normal", state, RED) == Move("E4", "E5")
    for seed in ("a", "b", "c"):
        assert decide("normal", state, RED, seed) != Move("D4", "D5")


@pytest.mark.parametrize("level", LEVELS)
def test_no_scout_strikes_from_afar_in_the_opening(level: str) -> None:
    state = GAME.new(2, GAME.resolve_options({}), "opening")
    for seat in (RED, BLUE):
        GAME.apply(state, seat, decide(level, state, seat, f"setup{seat}"))
        GAME.apply(state, seat, Ready())
    for ply in range(normal.OPENING):
        seat = state.turn
        action = decide(level, state, seat, f"o{ply}")
        assert isinstance(action, Move)
        src = state.board[action.src]
        if src.rank == SCOUT and not src.revealed:
            assert adjacent(action.src, action.dst), f"{level}: scout strike {action} at ply {ply}"
        GAME.apply(state, seat, action)


@pytest.mark.parametrize("level", LEVELS)
def test_a_long_game_is_offered_as_a_draw_and_the_offer_accepted(level: str) -> None:
    state = position({"A1": (RED, "F"), "E4": (RED, "5"), "J10": (BLUE, "F"), "E7": (BLUE, "5")})
    state.moves = normal.DRAW_ALWAYS
    assert decide(level, state, RED) == OfferDraw()
    GAME.apply(state, RED, OfferDraw())
    assert decide(level, state, BLUE) == AcceptDraw()


def _endgame(pieces: dict[str, tuple[int, str]], turn: int = RED):  # type: ignore[no-untyped-def]
    """``pieces`` on the board, every other piece of both armies captured (so the counts agree)."""
    state = position(pieces, turn=turn)
    for seat in (RED, BLUE):
        left = Counter(rank for owner, rank in pieces.values() if owner == seat)
        state.captured[seat] = sorted((Counter(START_COUNTS) - left).elements())
    return state


def test_strong_plays_on_a_game_it_leads_until_late_and_takes_a_draw_when_behind() -> None:
    ahead = {"A1": (RED, "F"), "E4": (RED, "9"), "D4": (RED, "5"), "J10": (BLUE, "F"), "E7": (BLUE, "5")}
    state = _endgame(ahead)
    state.moves = normal.DRAW_ALWAYS
    assert isinstance(decide("strong", state, RED), Move)  # ahead: no offer
    offered = _endgame(ahead, turn=BLUE)
    offered.moves = normal.DRAW_ALWAYS
    GAME.apply(offered, BLUE, OfferDraw())
    assert decide("strong", offered, RED) == DeclineDraw()  # ahead: played on for the win
    assert decide("normal", offered, RED) == AcceptDraw()
    late = _endgame(ahead)
    late.moves = strong.DRAW_LATE
    assert decide("strong", late, RED) == OfferDraw()  # late: the game must end
    behind = _endgame({"A1": (RED, "F"), "E4": (RED, "5"), "J10": (BLUE, "F"), "E7": (BLUE, "9"),
                       "D7": (BLUE, "5")})
    behind.moves = normal.DRAW_TALK
    assert decide("strong", behind, RED) == OfferDraw()
    behind.moves = normal.DRAW_TALK - 1
    assert isinstance(decide("strong", behind, RED), Move)  # not before DRAW_TALK


def test_the_easy_computer_too_offers_a_long_game_as_a_draw_and_accepts_one() -> None:
    pieces = {"A1": (RED, "F"), "E4": (RED, "5"), "J10": (BLUE, "F"), "E7": (BLUE, "5")}
    state = position(pieces)
    state.moves = easy.LONG_GAME - 1
    assert isinstance(decide("easy", state, RED), Move)  # not yet
    state.moves = easy.LONG_GAME
    assert decide("easy", state, RED) == OfferDraw()
    GAME.apply(state, RED, OfferDraw())
    assert decide("easy", state, BLUE) == AcceptDraw()
    GAME.apply(state, BLUE, AcceptDraw())
    assert GAME.outcome(state) is not None
    early = position(pieces)
    GAME.apply(early, RED, OfferDraw())
    assert decide("easy", early, BLUE) == DeclineDraw()  # even material, early: played on


def test_early_in_the_game_an_even_draw_offer_is_declined() -> None:
    state = position({"A1": (RED, "F"), "E4": (RED, "5"), "J10": (BLUE, "F"), "E7": (BLUE, "5")})
    GAME.apply(state, RED, OfferDraw())
    assert decide("normal", state, BLUE) == DeclineDraw()


def _midgame(seed: str, plies: int):  # type: ignore[no-untyped-def]
    state = GAME.new(2, GAME.resolve_options({}), seed)
    for seat in (RED, BLUE):
        GAME.apply(state, seat, decide("normal", state, seat, f"{seed}{seat}"))
        GAME.apply(state, seat, Ready())
    for ply in range(plies):
        if GAME.outcome(state) is not None:
            break
        GAME.apply(state, state.turn, decide("normal", state, state.turn, f"{seed}/{ply}"))
    return state


@pytest.mark.parametrize("level", LEVELS)
def test_decisions_do_not_change_when_the_enemy_ranks_are_redealt(level: str) -> None:
    scramble = Rng("redeal")
    for plies in (0, 25, 60):
        state = _midgame(f"redeal{plies}", plies)
        seat = state.turn
        before = decide(level, state, seat, "same")
        for _ in range(3):
            scrambled = GAME.scramble_hidden(state, seat, scramble)
            assert decide(level, scrambled, seat, "same") == before


def test_games_between_normal_computers_end_well_within_the_move_limit() -> None:
    state = _midgame("ending", 1500)
    outcome = GAME.outcome(state)
    assert outcome is not None and state.moves <= 1500


# each side walled in by its own bombs (rows 5 and 6 with the lakes): nobody can reach a flag or
# attack anything, so only a draw (or the move limit) can end the game
WALLED = {"A1": (RED, "F"), "E2": (RED, "5"), **{f"{c}5": (RED, "B") for c in "ABEFIJ"},
          "J10": (BLUE, "F"), "E9": (BLUE, "5"), **{f"{c}6": (BLUE, "B") for c in "ABEFIJ"}}


@pytest.mark.parametrize("blue", sorted(EVERY_LEVEL))
@pytest.mark.parametrize("red", sorted(EVERY_LEVEL))
def test_a_game_nobody_can_win_ends_in_an_agreed_draw_before_1500_moves(red: str, blue: str) -> None:
    """Games between computers of any levels end within 1,500 moves (normal against normal played
    out above): from move 1,200 of a game neither side can win, a draw is agreed in time, never
    the default move limit (2,000) or, with ``max_moves`` 0, no end at all."""
    for limit in (2000, 0):
        state = position(WALLED, max_moves=limit)
        state.moves = 1200
        levels = (red, blue)
        for ply in range(600):
            if GAME.outcome(state) is not None:
                break
            seat = min(GAME.to_act(state))
            GAME.apply(state, seat, decide(levels[seat], state, seat, f"walled/{ply}"))
        outcome = GAME.outcome(state)
        assert outcome is not None and outcome.reason == "stratego.end.agreed", (red, blue, limit, state.moves)
        assert state.moves <= 1500

