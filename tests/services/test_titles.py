"""#25 point 6: end-of-game titles, computed from the public events of a replay from the seed:
each title goes to the one seat that leads its count (checked against counts made independently
from the engine's events), a seat gets at most one, everybody gets one, the same game always gets
the same titles, and the luck line agrees with the luck report. Whole seeded games played by the
computer players."""
from __future__ import annotations

from collections import Counter

import pytest

from bot.engine import registry
from bot.engine.core import Event
from bot.i18n import t
from bot.services.luck import luck
from bot.services.replay import Replay, played_by_computers
from bot.services.titles import FALLBACK, LUCKIEST, TITLES, luck_line, title_line, titles

SHORT = {"tolp": {"scoring": "rounds", "rounds": "1"}}  # one round of Tölp is a whole game


def played(game_name: str, players: int, seed: str, cap: int = 3000) -> Replay:
    """A whole game played by the easy computers, as its move log."""
    return played_by_computers(game_name, players, SHORT.get(game_name, {}), seed, cap=cap)


def public_events(replay: Replay) -> list[Event]:
    """An independent replay of the log through the engine: every public event."""
    game = registry.get(replay.game)
    state = game.new(replay.players, replay.options, replay.seed)
    return [event for seat, action in replay.moves for event in game.apply(state, seat, game.parse_action(action))
            if event.visible_to is None]


def counted(happened: list[Event], key: str, param: str, weight: str | None) -> Counter[int]:
    out: Counter[int] = Counter()
    for event in happened:
        if event.key == key and isinstance(event.params.get(param), int):
            out[event.params[param]] += event.params.get(weight, 1) if weight else 1
    return out


@pytest.mark.parametrize(("game_name", "players", "seed"), [("zlodej", 3, "titles-z1"), ("zlodej", 4, "titles-z2"),
                                                            ("monopol", 3, "titles-m1"), ("tjuv", 3, "titles-t1"),
                                                            ("tolp", 3, "titles-p1"), ("stratego", 2, "titles-s1")])
def test_titles_go_to_the_leaders_of_the_public_counts(game_name: str, players: int, seed: str) -> None:
    replay = played(game_name, players, seed)
    report = luck(replay)
    keys = titles(replay, report)
    assert keys == titles(replay, report)  # deterministic
    assert set(keys) - {FALLBACK}, keys  # the game handed out at least one title
    assert len(keys) == players
    given = [k for k in keys if k != FALLBACK]
    assert len(given) == len(set(given))  # no title twice
    lucky = report.luckiest() if report is not None else None
    if lucky is not None and report is not None and report.seats[lucky].sigmas > 0:
        assert keys[lucky] == LUCKIEST
    handed = {lucky} if LUCKIEST in keys else set()
    happened = public_events(replay)
    for title in TITLES[game_name]:
        total: Counter[int] = Counter()
        for event_key in title.events:
            for param in title.params:
                total += counted(happened, event_key, param, title.weight)
        ranking = total.most_common()
        if title.key in keys:
            seat = keys.index(title.key)
            assert ranking and ranking[0][0] == seat and (len(ranking) == 1 or ranking[1][1] < ranking[0][1])
            assert seat not in handed
            handed.add(seat)
        elif ranking and (len(ranking) == 1 or ranking[1][1] < ranking[0][1]):
            assert ranking[0][0] in handed  # its leader already had a title
    if game_name == "zlodej":
        steals = counted(happened, "zlodej.event.steal", "seat", "count")
        assert steals, "the computers stole nothing: pick another seed"


def test_the_luck_and_title_lines_in_words() -> None:
    replay = played("monopol", 2, "titles-m2")
    report = luck(replay)
    assert report is not None
    line = luck_line(report, replay.names, "sv")
    for seat, item in enumerate(report.seats):
        assert f"P{seat} {item.total - item.expected:+.0f} ({item.sigmas:+.1f} σ)" in line
    assert line.startswith("🎲 Tur mot genomsnittet")
    keys = titles(replay, report)
    words = title_line(keys, replay.names, "cs")
    assert words.startswith("🏅 Tituly")
    for seat, key in enumerate(keys):
        assert f"P{seat}: {t(key, 'cs')}" in words
