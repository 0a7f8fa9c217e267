"""Replay frames: the position after each move in force. While a game runs a frame is the public
view only (the conformance suite's leak check holds for every frame: re-dealing what the public
cannot see changes nothing); once it has ended every frame shows everything."""
from __future__ import annotations

import random

import pytest

from bot.engine import registry
from bot.engine.rng import Rng
from bot.errors import IllegalAction
from bot.services import replay as replays
from bot.services.movelog import in_force, replay
from bot.services.table import GameService

registry.load_all()
GAMES = ["tolp", "zlodej", "stratego", "monopol", "tjuv"]


def playout(name: str, players: int, moves: int, seed: str = "replay") -> list[tuple[int, str]]:
    game = registry.get(name)
    state = game.new(players, game.resolve_options(game.playout_options), seed)
    chooser = random.Random(f"{name}/{seed}")
    log: list[tuple[int, str]] = []
    for _ in range(moves):
        if game.outcome(state) is not None:
            break
        seat = chooser.choice(sorted(game.to_act(state)))
        action = chooser.choice(list(game.legal_actions(state, seat)))
        game.apply(state, seat, action)
        log.append((seat, str(action)))
    return log


def replay_of(name: str, players: int, moves: list[tuple[int, str]], ended: bool) -> replays.Replay:
    game = registry.get(name)
    return replays.Replay(1, name, players, game.resolve_options(game.playout_options), "replay", tuple(moves),
                          ended, tuple(f"P{i}" for i in range(players)))


@pytest.mark.parametrize("name", GAMES)
def test_a_running_games_frames_show_nothing_hidden(name: str) -> None:
    game = registry.get(name)
    players = min(game.max_players, 3)
    moves = playout(name, players, 60)
    running = replay_of(name, players, moves, ended=False)
    rng = Rng("replay-leak")
    state = game.new(players, running.options, "replay")
    frames = list(running.frames())
    assert [f.number for f in frames] == list(range(len(moves) + 1))
    for frame in frames:
        if frame.number:
            seat, action = moves[frame.number - 1]
            game.apply(state, seat, game.parse_action(action))
            assert (frame.seat, frame.action) == (seat, action)
        assert frame.privates is None and frame.observation["private"] is None
        assert frame.observation == game.observe(state, None)
        assert all(event.visible_to is None for event in frame.events)
        scrambled = game.scramble_hidden(state, None, rng)
        if scrambled is not None:  # the leak check: what the public cannot see changes no frame
            assert game.observe(scrambled, None) == frame.observation, f"frame {frame.number} leaks"


def test_a_finished_stratego_replay_shows_every_rank_from_the_first_move() -> None:
    moves = playout("stratego", 2, 12)
    running = list(replay_of("stratego", 2, moves, ended=False).frames([len(moves)]))[0]
    ended = replay_of("stratego", 2, moves, ended=True).frame(len(moves))
    hidden = [sq for sq, piece in running.observation["public"]["board"].items() if piece["rank"] is None]
    assert hidden, "mid-game, the public sees unrevealed pieces"
    assert all(piece["rank"] for piece in ended.observation["public"]["board"].values())
    assert ended.privates is not None and len(ended.privates) == 2


@pytest.mark.parametrize("name", ["zlodej", "tolp"])
def test_a_finished_card_games_replay_names_every_hand(name: str) -> None:
    moves = playout(name, 2, 5)
    frame = replay_of(name, 2, moves, ended=True).frame(2)
    assert frame.privates is not None
    hands = [replays.hidden_items(name, private) for private in frame.privates]
    assert all(hands) and hands == [private["hand"] for private in frame.privates if private]
    assert replay_of(name, 2, moves, ended=False).frame(2).privates is None


def test_frames_outside_the_game_are_refused() -> None:
    moves = playout("zlodej", 2, 4)
    running = replay_of("zlodej", 2, moves, ended=False)
    for number in (-1, len(moves) + 1):
        with pytest.raises(IllegalAction) as refusal:
            running.frame(number)
        assert refusal.value.key == "replay.error.range"


def test_the_last_frame_is_the_stored_position_with_undone_moves_left_out() -> None:
    game = registry.get("zlodej")
    log = playout("zlodej", 2, 6)
    stored = [*log[:4], (log[3][0], "!undo 2"), *log[2:4]]  # two moves taken back, then made again
    kept = in_force(stored)
    assert kept == log[:4]
    frame = replay_of("zlodej", 2, kept, ended=False).frame(len(kept))
    state = replay(game, 2, game.resolve_options(game.playout_options), "replay", stored)
    assert frame.total == 4 and frame.observation == game.observe(state, None)


def test_pick_spreads_frames_keeping_the_start_and_the_end() -> None:
    assert replays.pick(3, 10) == [0, 1, 2, 3]
    picked = replays.pick(1000, 50)
    assert picked[0] == 0 and picked[-1] == 1000 and len(picked) == 50


async def test_load_reads_the_moves_in_force_and_whether_the_game_ended(service: GameService) -> None:
    game = registry.get("zlodej")
    await service.create(guild_id="g", channel_id="c", game="zlodej", user_id="u0", name="Ann", computers=1)
    record = (await service.start("c", "u0")).record
    loaded = await replays.load(service, record.id)
    assert not loaded.ended and loaded.total == record.ply and loaded.names == ("Ann", "Computer 1 (normal)")
    assert loaded.frame(loaded.total).observation == service.observe(record, None)
    await service.resign("c", "u0")
    ended = await replays.load(service, record.id)
    assert ended.ended and ended.total == loaded.total + 1 and ended.frame(ended.total).privates is not None
    assert game.outcome(ended_state(ended)) is not None


def ended_state(loaded: replays.Replay):  # type: ignore[no-untyped-def]
    game = registry.get(loaded.game)
    return replay(game, loaded.players, loaded.options, loaded.seed, list(loaded.moves))
