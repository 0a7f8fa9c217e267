"""Regressions from the quality pass: who starts, round counting, jail visits, the winner on the
final board, the order of the event log on the board, and translations of every key."""
from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from bot.games.monopol.board import JAIL
from bot.i18n import placeholders
from rendering.monopol import recent_lines

from .helpers import GAME, LoadedDice, act, dice, keys, new

ROOT = Path(__file__).resolve().parents[3]
PACKAGE = ROOT / "bot" / "games" / "monopol"


def test_the_highest_opening_roll_starts_and_ties_roll_again(monkeypatch: pytest.MonkeyPatch) -> None:
    # seats 1 and 2 tie on 11 and roll again: 4 against 12, so seat 2 starts
    faces = [3, 4, 6, 5, 5, 6, 1, 1, 2, 2, 6, 6]
    monkeypatch.setattr("bot.games.monopol.engine.Rng", lambda seed: LoadedDice(faces))
    s = GAME.new(4, GAME.resolve_options({}), "open")
    assert s.turn == s.first == 2 and GAME.to_act(s) == {2}
    rolls = [(e["params"]["seat"], e["params"]["total"]) for e in s.recent if e["key"] == "monopol.event.start_roll"]
    assert rolls[-2:] == [(1, 4), (2, 12)]  # only the tied seats rolled again
    assert s.recent[-1] == {"key": "monopol.event.starts", "params": {"seat": 2}}


def test_the_opening_roll_is_seeded_and_not_always_seat_0() -> None:
    starters = {GAME.new(4, GAME.resolve_options({}), f"open-{n}").turn for n in range(30)}
    assert len(starters) > 1
    assert GAME.new(4, GAME.resolve_options({}), "same").turn == GAME.new(4, GAME.resolve_options({}), "same").turn


def test_the_first_board_shows_the_opening_roll() -> None:
    s = GAME.new(3, GAME.resolve_options({}), "open-board")
    assert s.recent[-1] == {"key": "monopol.event.starts", "params": {"seat": s.turn}}
    assert s.first == s.turn and GAME.to_act(s) == {s.turn}


def test_a_round_starts_when_the_starting_seat_is_on_turn_again_and_stops_at_the_limit() -> None:
    s = new(3, first=1, max_rounds=2)
    for seat, roll in ((1, (1, 2)), (2, (1, 2)), (0, (1, 2))):
        assert s.turn == seat and s.round == 1
        dice(s, *roll)
        act(s, seat, "roll")
        act(s, seat, "decline") if s.phase == "buy" else None
        while s.auction:
            act(s, sorted(GAME.to_act(s))[0], "pass")
        act(s, seat, "end")
    assert s.turn == 1 and s.round == 2
    for seat in (1, 2, 0):
        dice(s, 2, 1)
        act(s, seat, "roll")
        if s.phase == "buy":
            act(s, seat, "decline")
            while s.auction:
                act(s, sorted(GAME.to_act(s))[0], "pass")
        events = act(s, seat, "end")
    assert s.finished == "monopol.end.rounds" and "monopol.event.rounds_over" in keys(events)
    assert s.round == 2  # not "Round 3 of 2"
    assert GAME.observe(s, None)["public"]["round"] == 2


def test_landing_on_the_jail_square_is_a_visit() -> None:
    s = new(2)
    dice(s, 4, 6)
    events = act(s, 0, "roll")
    assert s.position[0] == JAIL and not s.in_jail[0]
    assert "monopol.event.visit" in keys(events) and "monopol.event.move" not in keys(events)


def test_the_final_observation_names_the_winner() -> None:
    s = new(3, max_rounds=1)
    assert GAME.observe(s, None)["public"]["winners"] == []
    s.cash[2] += 500
    s.bank -= 500
    GAME.resign(s, 0)
    s.finished = "monopol.end.rounds"
    assert GAME.observe(s, None)["public"]["winners"] == [2]


def test_the_board_log_reads_oldest_first_and_keeps_the_newest() -> None:
    pub = {"recent": [{"key": "monopol.event.roll", "params": {"seat": 0, "d1": 1, "d2": n, "total": 1 + n}}
                      for n in range(1, 7)]}
    lines = recent_lines(pub, ["Ann", "Bo"], "en", 600, 3 * 30)
    assert [line[0] for line in lines] == ["Ann rolls 1 and 4 (5).", "Ann rolls 1 and 5 (6).",
                                           "Ann rolls 1 and 6 (7)."]


def _catalog(lang: str) -> dict[str, str]:
    return dict(json.loads((PACKAGE / "locale" / f"{lang}.json").read_text(encoding="utf-8")))


@pytest.mark.parametrize("lang", ["en", "nb", "sv", "cs"])
def test_every_literal_key_is_translated_with_the_same_placeholders(lang: str) -> None:
    sources = "\n".join(p.read_text(encoding="utf-8") for p in PACKAGE.glob("*.py"))
    sources += (ROOT / "rendering" / "monopol.py").read_text(encoding="utf-8")
    used = set(re.findall(r'"(monopol\.(?:event|render|error|end|option)\.[a-z_]+)"', sources))
    en, other = _catalog("en"), _catalog(lang)
    assert not used - set(other)
    for key in used:
        assert placeholders(en[key]) == placeholders(other[key]), key


def test_the_auction_timer_is_described_as_closing_by_itself() -> None:
    by_itself = {"en": "closes by itself", "nb": "avsluttes av seg selv", "sv": "avslutas av sig själv",
                 "cs": "sama uzavře"}
    for lang, words in by_itself.items():
        text = _catalog(lang)["monopol.option.auction_minutes"]
        assert words in text, (lang, text)
        assert not re.search(r"anyone|hvem som helst|vem som helst|kdokoli", text), lang
        rules = (PACKAGE / "rules" / f"{lang}.md").read_text(encoding="utf-8")
        assert "`auction close`" not in rules and "auction_minutes" in rules, lang
