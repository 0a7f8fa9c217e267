"""Alt text: every picture told in words from its observation, in the reader's language, within
Discord's 1024 characters, and a private view tells only what its seat may see."""
from __future__ import annotations

import pytest

from bot.engine.cards import parse_card
from bot.i18n import LANGUAGES, t
from rendering.alt import LIMIT, describe
from tests.unit.observations import played

GAMES = {"tolp": 4, "zlodej": 3, "stratego": 2, "monopol": 4, "tjuv": 4}
NAMES = ["Ann", "Bo", "Cecilia", "Dan", "Eve", "Fay"]
LONG = [f"{chr(65 + i)}" * 32 for i in range(10)]  # ten players with 32-character names


def finished(name: str, players: int):  # type: ignore[no-untyped-def]
    """A game played to its end (a resignation ends the games random moves do not finish)."""
    game, state = played(name, players, 4000)
    if game.outcome(state) is None:
        game.resign(state, players - 1)
    assert game.outcome(state) is not None
    return game, state


@pytest.mark.parametrize("locale", LANGUAGES)
@pytest.mark.parametrize("view", ["public", "private", "focus"])
@pytest.mark.parametrize("name", sorted(GAMES))
def test_every_view_of_every_game_is_told_in_the_readers_language(name: str, view: str, locale: str) -> None:
    game, state = played(name, GAMES[name], 30)
    obs = game.observe(state, 1 if view == "private" else None)
    text = describe(name, view, obs, names=NAMES, locale=locale)
    assert 0 < len(text) <= LIMIT
    assert text.startswith(t(f"game.name.{name}", locale))
    acting = obs["public"]["to_act"]
    if view == "private" and acting == [1]:
        assert t("render.alt.your_turn", locale) in text
    else:
        assert all(NAMES[seat] in text for seat in acting)
    if locale != "en":
        assert text != describe(name, view, obs, names=NAMES, locale="en")


@pytest.mark.parametrize("name", ["tolp", "zlodej"])
def test_a_private_description_names_the_own_hand_and_no_other(name: str) -> None:
    game, state = played(name, GAMES[name], 20)
    text = describe(name, "private", game.observe(state, 1), names=NAMES, locale="en")
    own = game.observe(state, 1)["private"]["hand"]
    assert " ".join(parse_card(card).pretty for card in own) in text
    for seat in (0, 2):
        other = game.observe(state, seat)["private"]["hand"]
        if other and other != own:
            assert " ".join(parse_card(card).pretty for card in other) not in text
    assert "Your hand" not in describe(name, "public", game.observe(state, None), names=NAMES, locale="en")


def test_the_tjuv_private_description_tells_the_own_stashes_only() -> None:
    game, state = played("tjuv", 4, 400)
    for seat in range(1, 4):
        private = game.observe(state, seat)["private"]
        text = describe("tjuv", "private", game.observe(state, seat), names=NAMES, locale="en")
        assert private["piece"] in text
        for nest in private["stashes"]:
            assert nest in text
    public = describe("tjuv", "public", game.observe(state, None), names=NAMES, locale="en")
    assert "stash" not in public


def test_a_monopol_auction_is_told_with_its_lot_high_bid_and_bidder() -> None:
    game, state = played("monopol", 4, 60)
    auction = game.observe(state, None)["public"]["auction"]
    assert auction is not None and auction["bidder"] >= 0  # the seeded game is mid-auction here
    text = describe("monopol", "focus", game.observe(state, None), names=NAMES, locale="en")
    assert f"high bid kr\u00a0{auction['high']:,} by {NAMES[auction['bidder']]}" in text


@pytest.mark.parametrize("name", sorted(GAMES))
def test_ten_long_names_still_fit_in_1024_characters(name: str) -> None:
    players = min(10, __import__("bot.engine.registry", fromlist=["get"]).get(name).max_players)
    game, state = played(name, players, 30)
    for view in ("public", "private", "focus"):
        text = describe(name, view, game.observe(state, 0), names=LONG, locale="cs")
        assert len(text) <= LIMIT
    game, state = finished(name, players)
    assert len(describe(name, "result", game.observe(state, None), names=LONG, locale="cs")) <= LIMIT


@pytest.mark.parametrize("locale", LANGUAGES)
@pytest.mark.parametrize("name", sorted(GAMES))
def test_the_result_description_crowns_the_winner_and_lists_every_place(name: str, locale: str) -> None:
    game, state = finished(name, GAMES[name])
    outcome = game.outcome(state)
    text = describe(name, "result", game.observe(state, None), names=NAMES, locale=locale)
    assert t(outcome.reason, locale).rstrip(".") in text
    for seat in range(GAMES[name]):
        assert NAMES[seat] in text
    winners = outcome.places[0]
    if len(winners) == 1:
        assert t("render.result.winner", locale, names=NAMES[winners[0]], count=1) in text


def test_the_news_of_the_move_comes_right_after_whose_turn_it_is() -> None:
    game, state = played("zlodej", 3, 30)
    text = describe("zlodej", "public", game.observe(state, None), names=NAMES, locale="en",
                    news="Bo stole Ann's three kings")
    assert text.index("Bo stole Ann's three kings.") < text.index("Stock")
