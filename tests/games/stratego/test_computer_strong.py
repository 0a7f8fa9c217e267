"""The strong computer's own parts: the inference from the shape of the enemy's rear and from
the public record of play, the attacks it declines because of what they leave exposed, the
threats to its own flag it strikes, and its setups with the flag off the back row."""
from __future__ import annotations

import json
import random
from collections import Counter
from pathlib import Path

from bot.engine import registry
from bot.engine.rng import Rng
from bot.games.stratego import GAME, setups
from bot.games.stratego import computer_normal as normal
from bot.games.stratego import computer_strong as strong
from bot.games.stratego.actions import Move, SetupPreset
from bot.games.stratego.board import neighbours, setup_squares
from bot.games.stratego.knowledge import START_COUNTS, Knowledge, ShapeKnowledge
from bot.games.stratego.pieces import BOMB, FLAG, MINER
from bot.games.stratego.state import StrategoState

from .helpers import BLUE, RED, move, position


def _classic_game():  # type: ignore[no-untyped-def]
    state = GAME.new(2, GAME.resolve_options({}), "trail")
    for seat in (RED, BLUE):
        GAME.apply(state, seat, SetupPreset("classic"))
        GAME.apply(state, seat, GAME.parse_action("ready"))
    # Red's general (8) walks up and takes Blue's 7 on E7: its rank is shown to Blue
    for seat, text in ((RED, "E4 E5"), (BLUE, "J7 J6"), (RED, "E5 E6"), (BLUE, "J6 J5"), (RED, "E6 E7")):
        move(state, seat, f"move {text}")
    assert state.board["E7"].rank == "8" and state.board["E7"].revealed
    return state


def _lost_the_rest(state: StrategoState, seat: int) -> None:
    """The pieces ``seat`` does not have on the board counted as captured (the counts left then
    match the board, as in a real game)."""
    left = Counter(START_COUNTS)
    left.subtract(Counter(p.rank for p in state.board.values() if p.owner == seat))
    state.captured[seat] = sorted(left.elements())


def _p(dist: dict[str, float], ranks: set[str]) -> float:
    return sum(p for r, p in dist.items() if r in ranks)


def test_a_piece_that_comes_up_beside_a_shown_piece_is_likely_stronger() -> None:
    state = _classic_game()
    move(state, BLUE, "move J5 J6")
    move(state, RED, "move E7 E6")  # the shown 8 steps back
    move(state, BLUE, "move F7 F6")  # and a hidden Blue piece comes up beside it
    assert len(state.trail) == state.moves
    plain = Knowledge.from_observation(GAME.observe(state, RED))
    sharp = strong.knowledge_of(state, RED)
    assert "F6" in sharp.evidence and "F6" in plain.moved
    stronger = {"9", "10"}
    assert _p(sharp.distribution("F6"), stronger) > 1.5 * _p(plain.distribution("F6"), stronger)


def test_a_piece_that_backs_away_from_a_shown_piece_is_likely_weaker() -> None:
    state = _classic_game()
    move(state, BLUE, "move F7 F6")  # Blue's piece beside the shown 8 steps away from it
    plain = Knowledge.from_observation(GAME.observe(state, RED))
    sharp = strong.knowledge_of(state, RED)
    weaker = {"7", "6", "5", "4", "3", "2", "S"}
    assert _p(sharp.distribution("F6"), weaker) > _p(plain.distribution("F6"), weaker) + 0.05


def test_a_record_that_does_not_lead_to_the_board_is_ignored() -> None:
    state = _classic_game()
    state.trail = state.trail[:2]  # a game stored before the record was kept
    move(state, BLUE, "move F7 F6")
    assert strong.knowledge_of(state, RED).evidence == {}


def test_the_flag_is_looked_for_where_the_wall_of_unmoved_pieces_stands() -> None:
    # two unmoved pieces on Blue's back row: one with all its neighbours unmoved, one whose
    # neighbour has moved (no wall there)
    pieces = {"A1": (RED, FLAG), "E4": (RED, "9"),
              "B10": (BLUE, FLAG), "A10": (BLUE, BOMB), "C10": (BLUE, BOMB), "B9": (BLUE, BOMB),
              "H10": (BLUE, "4"), "G10": (BLUE, "5"), "I10": (BLUE, "6"), "H9": (BLUE, "7")}
    state = position(pieces)
    state.board["H9"].moved = True
    _lost_the_rest(state, BLUE)
    sharp = ShapeKnowledge.from_observation(GAME.observe(state, RED))
    plain = Knowledge.from_observation(GAME.observe(state, RED))
    assert plain.distribution("B10")[FLAG] == plain.distribution("H10")[FLAG]
    assert sharp.distribution("B10")[FLAG] > 2 * sharp.distribution("H10")[FLAG]
    # and the bombs beside the likely flag
    assert sharp.distribution("A10")[BOMB] > sharp.distribution("G10")[BOMB]


def test_strong_declines_a_won_attack_that_leaves_its_piece_beside_a_stronger_one() -> None:
    # Red's hidden 7 can take Blue's shown 4 on E5, but Blue's shown 9 on E6 would take it back
    pieces = {"A1": (RED, FLAG), "E4": (RED, "7"), "E5": (BLUE, "4"), "E6": (BLUE, "9"), "J10": (BLUE, FLAG),
              **{f"{col}10": (BLUE, BOMB if col in "HI" else "4") for col in "ABCDEFGHI"}}
    state = position(pieces)
    for sq in ("E5", "E6"):
        state.board[sq].revealed = True
    legal = list(GAME.legal_actions(state, RED))
    take = Move("E4", "E5")
    assert normal.choose(state, RED, legal, Rng("t")) == take
    assert strong.choose(state, RED, legal, Rng("t")) != take
    state.board["E6"].rank = "6"  # a weaker neighbour: the attack is safe again
    assert strong.choose(state, RED, legal, Rng("t")) == take


def test_strong_setups_are_sound_and_half_keep_the_flag_off_the_back_row() -> None:
    off = 0
    codes = set()
    for n in range(40):
        seat = n % 2
        setup = strong.strong_setup(random.Random(n), seat)
        setups.validate(setup, seat)
        assert strong.is_strong_sound(setup, seat)
        order = setup_squares(seat)
        flag = next(sq for sq in order if setup[sq] == FLAG)
        area = set(order)
        assert all(setup[n] == BOMB for n in neighbours(flag) if n in area)
        off += flag not in order[:10]
        codes.add(setups.to_code(setup, seat))
    assert 10 <= off <= 30
    assert len(codes) == 40 and not codes & set(setups.PRESETS.values())


def test_strong_strikes_a_piece_at_its_flags_wall_that_may_be_a_miner() -> None:
    """Move 80 of a benchmark game against the greedy baseline (seed strength/stratego/
    strong-greedy/14): Red's flag on J2 is walled in by bombs on J1, I2 and J3; Blue's miner came
    down the J file to J4, beside Red's shown 5 on I4. The inference reads that approach as a
    strong piece's (a miner is 1 % likely); the miner defused J3 and took the flag two moves later
    while the 5 stepped away. Counted by the ranks left a moved piece is a miner one time in seven,
    and a 5 removes any miner: it strikes."""
    saved = json.loads((Path(__file__).parent / "positions" / "miner_at_the_flags_wall.json").read_text())
    state, seat = GAME.load(saved["state"]), saved["seat"]
    knowledge = strong.knowledge_of(state, seat)
    assert knowledge.distribution("J4").get("3", 0.0) < 0.05  # the inference alone would not defend
    assert Knowledge.distribution(knowledge, "J4")["3"] > 0.1
    legal = list(GAME.legal_actions(state, seat))
    decided = strong.choose(state, seat, legal, registry.computer_rng(saved["seed"], saved["ply"], seat))
    assert decided == Move("I4", "J4")


def test_strong_strikes_the_piece_beside_its_flag() -> None:
    """Blue's shown miner stands on J3 (it defused the bomb before Red's flag on J2); Red's 5 on
    I3 strikes it rather than take Blue's shown 4 with its 6."""
    state = position({"J2": (RED, "F"), "J1": (RED, "B"), "I2": (RED, "B"), "I3": (RED, "5"),
                      "J3": (BLUE, "3"), "E5": (RED, "6"), "E6": (BLUE, "4"), "A10": (BLUE, "F")})
    for sq in ("J3", "E6"):
        state.board[sq].revealed = state.board[sq].moved = True
    scores = strong.defended(RED, strong.knowledge_of(state, RED), [Move("I3", "J3"), Move("E5", "E6")],
                             {Move("I3", "J3"): 0.0, Move("E5", "E6"): 0.0})
    assert scores[Move("I3", "J3")] == strong.FLAG_WORTH and scores[Move("E5", "E6")] == 0.0
    assert strong.choose(state, RED, list(GAME.legal_actions(state, RED)), Rng("x")) == Move("I3", "J3")


def test_late_in_the_game_the_unmoved_pieces_left_are_read_as_bombs_and_the_flag() -> None:
    """Blue has the flag, two bombs and one mover left: the mover has moved, so the three unmoved
    pieces are the flag and the bombs, even on rows where setups seldom put them (the counts
    make it so; the rows alone would call the front ones movers)."""
    pieces = {"A1": (RED, FLAG), "E2": (RED, "9"), "B2": (RED, BOMB),
              "A7": (BLUE, BOMB), "E7": (BLUE, BOMB), "J10": (BLUE, FLAG), "E9": (BLUE, "6")}
    state = position(pieces)
    state.board["E9"].moved = True
    _lost_the_rest(state, BLUE)
    sharp = strong.knowledge_of(state, RED)
    for sq in ("A7", "E7", "J10"):
        assert _p(sharp.distribution(sq), {BOMB, FLAG}) > 0.95
    assert sharp.distribution("J10")[FLAG] > sharp.distribution("E7")[FLAG]
    assert sharp.distribution("E9") == {"6": 1.0}


def test_strong_stands_guard_at_its_flags_wall_when_a_possible_miner_comes() -> None:
    """Red's flag on J2 walled in by bombs on J1, I2 and J3; a hidden Blue mover (it may be a
    miner) on F3, a few steps from the squares a miner strikes the wall from (H2, I1, I3, J4).
    Red's 6 on H4, the nearest piece that beats a miner, is pulled towards them (a step closer
    is worth more than a step away); nothing is added for a piece far off, nor when no raider is
    near."""
    pieces = {"J2": (RED, FLAG), "J1": (RED, BOMB), "I2": (RED, BOMB), "J3": (RED, BOMB), "H4": (RED, "6"),
              "A1": (RED, "5"), "F3": (BLUE, MINER), "A10": (BLUE, FLAG), "B10": (BLUE, "4")}
    state = position(pieces)
    state.board["F3"].moved = True
    knowledge = strong.knowledge_of(state, RED)
    moves = [Move("H4", "H3"), Move("H4", "G4"), Move("A1", "A2")]
    scores = strong.guarded(RED, knowledge, moves, dict.fromkeys(moves, 0.0))
    assert scores[Move("H4", "H3")] > scores[Move("H4", "G4")]
    assert scores[Move("A1", "A2")] == 0.0
    state.board["F10"] = state.board.pop("F3")  # the raider far away: no guard needed
    knowledge = strong.knowledge_of(state, RED)
    assert strong.guarded(RED, knowledge, moves, dict.fromkeys(moves, 0.0)) == dict.fromkeys(moves, 0.0)
