"""The luck report (bot/services/luck.py): each player's dice against the average and the good and
bad cards drawn, counted from a replay of the move log from the seed. Checked against an
independent replay that reads the dice straight from the seeded random stream."""
from __future__ import annotations

import hashlib

import pytest

from bot.engine import registry
from bot.errors import IllegalAction
from bot.games.monopol.board import CARDS
from bot.services import luck as lucks
from bot.services import replay as replays
from tests.services.test_replay import playout

registry.load_all()


def replay_of(name: str, players: int, moves: list[tuple[int, str]], seed: str) -> replays.Replay:
    game = registry.get(name)
    return replays.Replay(1, name, players, game.resolve_options(game.playout_options), seed, tuple(moves),
                          True, tuple(f"P{i}" for i in range(players)))


def test_monopol_luck_counts_every_roll_and_card_of_the_replay() -> None:
    moves = playout("monopol", 3, 600, seed="luck")
    report = lucks.luck(replay_of("monopol", 3, moves, "luck"))
    assert report is not None
    game = registry.get("monopol")
    # independently: replay the log and read each roll's dice and each card from the events
    state = game.new(3, game.resolve_options(game.playout_options), "luck")
    totals, rolls, good, bad = [0, 0, 0], [0, 0, 0], [0, 0, 0], [0, 0, 0]
    for seat, action in moves:
        for event in game.apply(state, seat, game.parse_action(action)):
            if event.key == "monopol.event.roll":
                totals[event.params["seat"]] += event.params["d1"] + event.params["d2"]
                rolls[event.params["seat"]] += 1
            elif event.key.startswith("monopol.card."):
                effect = CARDS[event.key.split(".")[-1]].effect
                if effect in ("collect", "collect_each", "jail_free"):
                    good[event.params["seat"]] += 1
                elif effect in ("pay", "pay_each", "repairs", "go_to_jail"):
                    bad[event.params["seat"]] += 1
    assert [s.total for s in report.seats] == totals
    assert [s.rolls for s in report.seats] == rolls and [s.dice for s in report.seats] == [2 * r for r in rolls]
    assert sum(rolls) > 30
    assert [s.bad for s in report.seats] == bad
    assert [s.good for s in report.seats] >= [g for g in good]  # advance-to-Start cards count as good too
    for seat in report.seats:
        assert seat.expected == pytest.approx(seat.dice * 3.5)


def test_tjuv_luck_counts_the_die_and_each_roll_comes_from_the_seed() -> None:
    moves = playout("tjuv", 3, 400, seed="luck")
    report = lucks.luck(replay_of("tjuv", 3, moves, "luck"))
    assert report is not None and sum(s.rolls for s in report.seats) > 10
    assert all(s.dice == s.rolls for s in report.seats)  # one die a roll
    assert all(s.rolls <= s.total <= 6 * s.rolls for s in report.seats)


def test_the_same_seed_gives_the_same_report_and_another_seed_another() -> None:
    moves = playout("monopol", 2, 300, seed="again")
    first = lucks.luck(replay_of("monopol", 2, moves, "again"))
    assert first == lucks.luck(replay_of("monopol", 2, moves, "again"))
    assert first is not None and first.commitment == hashlib.sha256(b"again").hexdigest()
    other = playout("monopol", 2, 300, seed="other")
    assert lucks.luck(replay_of("monopol", 2, other, "other")) != first


def test_games_without_dice_or_draws_have_no_luck_report() -> None:
    for name, players in (("tolp", 4), ("zlodej", 3), ("stratego", 2)):
        moves = playout(name, players, 80)
        assert lucks.luck(replay_of(name, players, moves, "replay")) is None


@pytest.mark.parametrize("locale", ["en", "sv", "nb", "cs"])
def test_the_report_in_words_names_every_player_and_the_seed(locale: str) -> None:
    moves = playout("monopol", 3, 400, seed="words")
    report = lucks.luck(replay_of("monopol", 3, moves, "words"))
    assert report is not None
    lines = lucks.lines(report, ["Ann", "Bo", "@everyone"], locale)
    assert [line.split("**")[1] for line in lines[:3]] == ["Ann", "Bo", "@everyone"]
    assert "`words`" in lines[-1] and "gamemaster replay" in lines[-1]
    assert all("{" not in line for line in lines), lines  # every placeholder filled
    lucky = report.luckiest()
    assert lucky is not None and report.seats[lucky].sigmas == max(s.sigmas for s in report.seats)


def test_events_replay_the_log_without_observations() -> None:
    moves = playout("monopol", 2, 120)
    replayed = list(replays.events(replay_of("monopol", 2, moves, "replay")))
    assert [seat for seat, _ in replayed] == [seat for seat, _ in moves]
    assert sum(len(happened) for _, happened in replayed) >= len(moves)


async def test_a_running_game_has_no_luck_report_yet(service) -> None:  # type: ignore[no-untyped-def]
    record = await service.create(guild_id="g", channel_id="c1", game="monopol", user_id="u0", name="Ann")
    await service.join("c1", "u1", "Bo")  # a lobby: not started yet
    await service.start("c1", "u0")
    with pytest.raises(IllegalAction) as raised:
        await lucks.load(service, record.id)
    assert raised.value.key == "luck.error.running"
