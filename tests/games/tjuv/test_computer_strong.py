"""The strong computer: the police keep sentries a roll away from a telegraph instead of standing on
one, a thief boards only when the police are unlikely to stop him, and its reach is walked exactly."""
from __future__ import annotations

from collections.abc import Callable
from types import ModuleType

import pytest

from bot.engine import registry
from bot.engine.rng import Rng
from bot.games.tjuv import computer_normal as normal
from bot.games.tjuv import computer_strong as strong
from bot.games.tjuv.actions import Action, Move, Ride
from bot.games.tjuv.board import board
from bot.games.tjuv.state import ESCAPING, TjuvState

from .helpers import GAME, act, position


def decide(module: ModuleType, state: TjuvState, seat: int) -> Action:
    return module.choose(state, seat, GAME.legal_actions(state, seat), Rng("t"))


def test_the_strong_level_is_registered() -> None:
    assert registry.computer("tjuv", "strong") is strong.choose
    assert registry.computer("tjuv", "normal") is normal.choose


def test_a_square_by_a_telegraph_with_two_doors_reaches_it_with_two_rolls() -> None:
    # C8 opens to C7 and B8: from C7 straight in (1) or round by B7 and B8 (3)
    assert strong.telegraph_rolls("C7") == {1, 3}
    assert strong.telegraph_rolls("F7") == {4, 6}
    assert strong.telegraph_rolls("K11") == frozenset()
    # no two squares cover more than four rolls between them
    for posts in strong.sentry_posts(2):
        assert len(strong.telegraph_rolls(posts[0]) | strong.telegraph_rolls(posts[1])) == 4


def test_the_stop_chance_counts_the_rolls_that_land_a_policeman_on_a_telegraph() -> None:
    state = position(3, police={"P1": "C7", "P2": "F7"}, thieves={1: {"at": "B5", "money": 8000}}, turn=1)
    assert strong.stop_chance(state) == 4 / 6
    state = position(3, police={"P1": "O3"}, thieves={1: {"at": "B5", "money": 8000}}, turn=1)
    assert strong.stop_chance(state) == 1.0
    assert strong.stop_chance(position(3, thieves={1: {"at": "B5", "money": 8000}}, turn=1)) == 0.0


def test_a_thief_does_not_board_when_sentries_would_likely_stop_him() -> None:
    # nobody stands on a telegraph, so normal boards the train; two policemen a roll from C8 stop
    # him on four rolls of six
    state = position(3, police={"P1": "C7", "P2": "F7"}, thieves={1: {"at": "B5", "money": 8000, "wanted": True}},
                     turn=1, roll=4)
    assert decide(normal, state, 1) == Move("T1", "B1")
    assert decide(strong, state, 1) != Move("T1", "B1")


def test_a_thief_boards_when_no_policeman_can_reach_a_telegraph() -> None:
    state = position(3, thieves={1: {"at": "B5", "money": 8000, "wanted": True}}, turn=1, roll=4)
    assert decide(strong, state, 1) == Move("T1", "B1")


def test_the_police_do_not_stand_on_a_telegraph_while_nobody_escapes() -> None:
    state = position(3, police={"P1": "M2"}, thieves={1: {"at": "B9", "money": 8000, "wanted": True}}, roll=3)
    assert decide(normal, state, 0) == Move("P1", "O3")
    action = decide(strong, state, 0)
    assert isinstance(action, Move) and action.to not in board().telegraphs


def test_the_police_rush_to_a_telegraph_when_a_thief_escapes() -> None:
    state = position(3, police={"P1": "M2"}, thieves={1: {"at": "B5", "money": 8000}}, turn=1, roll=4)
    act(state, 1, "move T1 B1")
    assert state.thief(1).status == ESCAPING
    state.turn, state.phase, state.roll = 0, "move", 3
    assert decide(strong, state, 0) == Move("P1", "O3")


def test_a_policeman_walks_to_a_sentry_post_while_the_thieves_are_far() -> None:
    for roll in (1, 2):
        state = position(3, police={"P1": "B13", "P2": "G7"}, thieves={1: {"at": "Z13"}, 2: {"at": "T22"}}, roll=roll)
        action = decide(strong, state, 0)
        assert isinstance(action, Move) and strong.telegraph_rolls(action.to), (roll, action)


def test_the_strong_police_and_thieves_finish_a_game_against_normal_computers() -> None:
    state = GAME.new(3, GAME.resolve_options({"max_rounds": 40, "police": "roll"}), "strong-game")
    for n in range(3000):
        if GAME.outcome(state) is not None:
            break
        seat = min(GAME.to_act(state))
        module = strong if seat in (0, 1) else normal
        GAME.apply(state, seat, module.choose(state, seat, GAME.legal_actions(state, seat),
                                              registry.computer_rng("strong-game", n, seat)))
    assert GAME.outcome(state) is not None


def test_a_thief_whom_leaving_cannot_put_first_robs_on_until_the_last_rounds() -> None:
    """With the round limit near, normal sends a thief home whatever he carries; strong keeps a
    thief who would leave no richer than a rival robbing while two rounds remain, and sends him
    once they do not, or once he is richer than every rival."""
    state = position(3, thieves={1: {"money": 3000}, 2: {"money": 6000}})
    state.max_rounds = 40
    state.round = 36  # normal's time is short from round 34
    assert normal._time_short(state)
    assert not strong.leaving(state, 1)  # 3,000 kr against the other thief's 6,000: rob on
    assert strong.leaving(state, 2)  # the richest player at the table: leave
    state.round = 39  # one round left: leave with what he has
    assert strong.leaving(state, 1)
    state.round, state.max_rounds = 36, 0  # no round limit: normal's rule, rich enough or not
    assert not strong.leaving(state, 1)
    state.thief(1).money = 30000
    assert strong.leaving(state, 1)


def test_a_thief_robs_when_rollouts_to_the_end_show_the_robbery_wins() -> None:
    """In the last round a thief behind the police heads for a way out he cannot reach (normal's
    rule, and strong's without rollouts); played out to the end, the post office his roll reaches puts
    him first before the police move again."""
    state = position(3, thieves={1: {"at": "G2", "money": 9000}, 2: {"at": "T22", "money": 2000}}, turn=1, roll=4)
    state.max_rounds, state.round, state.police_money = 40, 40, 10000
    legal = GAME.legal_actions(state, 1)
    assert Move("T1", "D3") in legal and board().kind["D3"] == "post"
    assert decide(normal, state, 1) != Move("T1", "D3")
    assert strong._thief(state, 1, legal, {}, strong.leaving(state, 1)) != Move("T1", "D3")
    assert decide(strong, state, 1) == Move("T1", "D3")
    assert strong.rollout(state, 1, Move("T1", "D3"), "w") == 1.0
    assert strong.rollout(state, 1, Move("T1", "C2"), "w") == 0.0


def _late_position(round_: int, turn: int = 0) -> TjuvState:
    """The police (or thief ``turn``) to move with a roll of 4 at ``round_`` of 40, every piece
    free to go, a wanted thief T1 with money on him and a stash, and T2 with two stashes."""
    state = position(3, police={"P1": "C7", "P2": "F7", "P3": "M2"},
                     thieves={1: {"at": "G2", "money": 6000, "wanted": True, "stashes": {"A5": 3000}},
                              2: {"at": "T22", "money": 2000, "stashes": {"A5": 2000, "Z13": 4000}}},
                     turn=turn, roll=4)
    state.max_rounds, state.round, state.police_money = 40, round_, 5000
    return state


def test_the_strong_police_weigh_their_move_against_other_pieces_by_rollouts_in_the_last_rounds(
        monkeypatch: pytest.MonkeyPatch) -> None:
    weighed: list[tuple[Action, list[Action]]] = []
    weigh = strong.weigh

    def recording(state: TjuvState, role: int, action: Action, others: list[Action], rng: Rng) -> Action:
        weighed.append((action, list(others)))
        return weigh(state, role, action, others, rng)
    monkeypatch.setattr(strong, "weigh", recording)
    state = _late_position(40 - strong.POLICE_LATE)  # not yet late: no rollouts
    decide(strong, state, 0)
    assert not weighed
    state = _late_position(41 - strong.POLICE_LATE)
    legal = GAME.legal_actions(state, 0)
    action = decide(strong, state, 0)
    assert action in legal
    assert len(weighed) == 1
    mine, others = weighed[0]
    assert isinstance(mine, Move) and 1 <= len(others) <= strong.POLICE_OTHERS
    pieces = [o.piece for o in others if isinstance(o, Move | Ride)]
    assert len(set(pieces)) == len(others) and mine.piece not in pieces  # one best move of each other piece
    assert all(o in legal for o in others) and action in [mine, *others]


def _assert_late_rollouts_see_no_hidden_stash(position_at: Callable[[int], TjuvState], late: int, seat: int) -> None:
    """In each of the last ``late`` rounds ``seat``'s move is the same for the same stream and
    after any re-deal of what it cannot see (the other thief's stashes; a thief's own stay)."""
    for round_ in range(41 - late, 41):
        state = position_at(round_)
        legal = GAME.legal_actions(state, seat)
        action = strong.choose(state, seat, legal, Rng(f"late/{round_}"))
        assert action in legal
        assert strong.choose(state, seat, legal, Rng(f"late/{round_}")) == action
        for n in range(2):
            world = GAME.scramble_hidden(state, seat, Rng(f"redeal/{round_}/{n}"))
            assert world.thief(2).stashes != state.thief(2).stashes
            if seat:
                assert world.thief(seat).stashes == state.thief(seat).stashes
            assert strong.choose(world, seat, GAME.legal_actions(world, seat), Rng(f"late/{round_}")) == action


def test_the_strong_police_rollouts_read_no_stash_and_follow_the_stream() -> None:
    """The police see no stash: their late rollouts deal every thief's stashes afresh, so a
    re-deal changes no decision, and the same stream gives the same move."""
    _assert_late_rollouts_see_no_hidden_stash(_late_position, strong.POLICE_LATE, 0)


def _late_thief_position(round_: int) -> TjuvState:
    """Thief T1 to move in the same position (the other thief's stashes he cannot see)."""
    return _late_position(round_, turn=1)


def test_a_thief_weighs_his_move_against_his_next_best_ones_by_rollouts_in_the_last_rounds(
        monkeypatch: pytest.MonkeyPatch) -> None:
    assert strong.THIEF_LATE > 0
    weighed: list[tuple[Action, list[Action]]] = []
    late_thief, weigh = strong.late_thief, strong.weigh
    calls: list[int] = []

    def counting(*args: object) -> Action:
        calls.append(1)
        return late_thief(*args)  # type: ignore[arg-type]

    def recording(state: TjuvState, role: int, action: Action, others: list[Action], rng: Rng) -> Action:
        weighed.append((action, list(others)))
        return weigh(state, role, action, others, rng)
    monkeypatch.setattr(strong, "late_thief", counting)
    monkeypatch.setattr(strong, "weigh", recording)
    decide(strong, _late_thief_position(40 - strong.THIEF_LATE), 1)  # not yet late: rob or not only
    assert not calls
    state = _late_thief_position(41 - strong.THIEF_LATE)
    legal = GAME.legal_actions(state, 1)
    action = decide(strong, state, 1)
    assert calls and action in legal
    mine, others = weighed[-1]
    assert isinstance(mine, Move | Ride) and 1 <= len(others) <= strong.THIEF_OTHERS + 1
    squares = [o.to for o in others if isinstance(o, Move | Ride)]
    assert len(set(squares)) == len(others) and mine.to not in squares  # other squares, each once
    assert all(o in legal for o in others) and action in [mine, *others]


def test_a_thiefs_late_rollouts_read_no_other_stash_and_follow_the_stream() -> None:
    """The other thief's stashes are dealt afresh in the late rollouts, so a re-deal of them
    changes no decision, and the same stream gives the same move."""
    _assert_late_rollouts_see_no_hidden_stash(_late_thief_position, strong.THIEF_LATE, 1)
