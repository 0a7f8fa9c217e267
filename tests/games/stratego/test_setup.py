"""The hidden, simultaneous setup: drafts, presets, codes, swaps, validation, submission."""
from __future__ import annotations

from collections import Counter

import pytest

from bot.errors import IllegalAction, NotYourTurn
from bot.games.stratego import GAME
from bot.games.stratego.board import setup_squares
from bot.games.stratego.pieces import KINDS
from bot.games.stratego.setups import PRESETS, from_code, to_code
from bot.games.stratego.state import PLAY, SETUP

from .helpers import BLUE, RED

CLASSIC = PRESETS["classic"]


def fresh():
    return GAME.new(2, GAME.resolve_options({}), "setup")


def act(state, seat: int, text: str):
    return GAME.apply(state, seat, GAME.parse_action(text))


def refusal(state, seat: int, text: str) -> IllegalAction:
    with pytest.raises(IllegalAction) as exc:
        act(state, seat, text)
    return exc.value


def test_piece_data_has_forty_pieces_of_twelve_kinds() -> None:
    counts = {kind.rank: kind.count for kind in KINDS}
    assert counts == {"10": 1, "9": 1, "8": 2, "7": 3, "6": 4, "5": 4, "4": 4, "3": 5, "2": 8,
                      "S": 1, "B": 6, "F": 1}
    assert len({kind.code for kind in KINDS}) == 12


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_every_preset_is_a_legal_setup_for_both_colours(name: str) -> None:
    assert len(PRESETS) >= 3
    for seat in (RED, BLUE):
        setup = from_code(PRESETS[name], seat)
        assert sorted(setup) == sorted(setup_squares(seat))
        assert Counter(setup.values()) == Counter({k.rank: k.count for k in KINDS})


def test_setup_is_simultaneous_and_play_starts_when_both_are_ready() -> None:
    state = fresh()
    assert GAME.to_act(state) == frozenset({RED, BLUE})
    events = act(state, BLUE, "ready")
    assert GAME.to_act(state) == frozenset({RED}) and state.phase == SETUP
    assert events[0].key == "stratego.event.ready" and events[0].visible_to is None
    with pytest.raises(IllegalAction) as exc:
        act(state, BLUE, "setup random")
    assert exc.value.key == "stratego.error.already_ready"
    events = act(state, RED, "setup preset classic")
    assert events[0].visible_to == frozenset({RED})
    act(state, RED, "ready")
    assert state.phase == PLAY and GAME.to_act(state) == frozenset({RED})
    assert len(state.board) == 80


def test_moving_during_setup_is_refused() -> None:
    state = fresh()
    assert refusal(state, RED, "move A4 A5").key == "stratego.error.setup_first"
    act(state, RED, "ready")
    with pytest.raises(NotYourTurn):
        act(state, RED, "move A4 A5")


def test_code_reads_back_row_first_left_to_right_from_the_owners_seat() -> None:
    state = fresh()
    act(state, RED, f"setup code {CLASSIC}")
    act(state, BLUE, f"setup code {CLASSIC.lower()}")
    red, blue = state.drafts
    assert red["A1"] == "B" and red["B1"] == "F" and red["J4"] == "2"
    # Blue sits opposite: its first character is J10, its last A7.
    assert blue["J10"] == "B" and blue["I10"] == "F" and blue["A7"] == "2"
    assert to_code(blue, BLUE) == CLASSIC


def test_code_accepts_separators_and_aliases() -> None:
    spaced = " / ".join(CLASSIC[i:i + 10] for i in range(0, 40, 10)).replace("M", "0").replace("S", "1")
    state = fresh()
    act(state, RED, f"setup code {spaced}")
    assert to_code(state.drafts[RED], RED) == CLASSIC


def test_wrong_code_length_is_named() -> None:
    error = refusal(fresh(), RED, "setup code BFB")
    assert error.key == "stratego.error.code_length" and error.params["length"] == 3


def test_unknown_code_character_is_named() -> None:
    error = refusal(fresh(), RED, "setup code " + "Q" + CLASSIC[1:])
    assert error.key == "stratego.error.code_char" and error.params["char"] == "Q"


def test_wrong_piece_counts_are_named() -> None:
    two_marshals = CLASSIC.replace("9", "M")
    error = refusal(fresh(), RED, "setup code " + two_marshals)
    assert error.key == "stratego.error.setup_count"
    assert (error.params["rank"], error.params["expected"], error.params["found"]) == ("10", 1, 2)


def test_swap_outside_ones_four_rows_or_on_a_lake_is_refused() -> None:
    state = fresh()
    assert refusal(state, RED, "swap A1 A5").key == "stratego.error.setup_outside"
    assert refusal(state, BLUE, "swap A1 A7").params["square"] == "A1"
    lake = refusal(state, RED, "swap A1 C5")
    assert lake.key == "stratego.error.setup_lake" and lake.params["square"] == "C5"
    assert refusal(state, RED, "swap A1 A1").key == "stratego.error.swap_same"


def test_swap_exchanges_two_squares_of_the_draft() -> None:
    state = fresh()
    act(state, RED, "setup preset classic")
    act(state, RED, "swap b1 j4")
    assert state.drafts[RED]["J4"] == "F" and state.drafts[RED]["B1"] == "2"
    act(state, RED, "ready")
    act(state, BLUE, "ready")
    assert state.board["J4"].rank == "F" and state.board["J4"].owner == RED


def test_unknown_preset_lists_the_presets() -> None:
    error = refusal(fresh(), RED, "setup preset nosuch")
    assert error.key == "stratego.error.unknown_preset" and "classic" in error.params["presets"]


def test_random_setup_comes_from_the_games_rng_and_replays() -> None:
    one, two = fresh(), fresh()
    act(one, RED, "setup random")
    act(two, RED, "setup random")
    assert one.drafts == two.drafts
    assert Counter(one.drafts[RED].values())["B"] == 6


def test_drafts_are_private() -> None:
    state = fresh()
    red_view = GAME.observe(state, RED)
    assert red_view["private"]["draft"] == state.drafts[RED]
    assert red_view["public"]["board"] == {}
    assert GAME.observe(state, None)["private"] is None
    assert set(red_view["private"]["draft"]) == set(setup_squares(RED))


@pytest.mark.parametrize("seed", ["a", "b", "c", "d", "e", "f", "g", "h"])
def test_random_setups_hide_the_flag_on_the_back_row_behind_bombs(seed: str) -> None:
    # A uniform shuffle put the flag in the front row, where a scout took it on the first move.
    state = GAME.new(2, GAME.resolve_options({}), seed)
    act(state, RED, "setup random")
    for seat in (RED, BLUE):
        draft = state.drafts[seat]
        order = setup_squares(seat)
        assert list(draft) == order and Counter(draft.values()) == {k.rank: k.count for k in KINDS}
        flag = next(sq for sq, rank in draft.items() if rank == "F")
        assert flag in order[:10]  # the back row
        guards = [sq for sq in order if sq != flag and abs(ord(sq[0]) - ord(flag[0])) + abs(
            int(sq[1:]) - int(flag[1:])) == 1]
        assert guards and all(draft[sq] == "B" for sq in guards)
