"""Readable on a phone: at 400 px display width the text a player needs to act is at least 9 px high.

Measure: the type size (em height, in the picture's pixels) of every text drawn through the kit,
as ``rendering.kit.recording`` lists it, times 400 / the picture's width. Monopol's board and the
Tjuv och Polis map are too big for that; their focus views (a turn's second picture) carry it.
"""
from __future__ import annotations

import io
import math

import pytest
from PIL import Image

from bot.engine.core import Event
from bot.games.monopol.board import GROUP_COLOURS, SQUARES
from rendering import monopol, monopol_board, stratego, tjuv
from rendering.kit import recording
from tests.unit.observations import played, public_observation

BAR = 9.0
PHONE = 400
NAMES = ["Alfa Åström", "Bravo Ødegård", "Charlie Čermák", "Delta", "Echo", "Foxtrot", "Golf", "Hotel",
         "India", "Juliett"]
RANKS = {"2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"}


def shown_at_phone(size: float, width: int) -> float:
    return size * PHONE / width


def width_of(png: bytes) -> int:
    return Image.open(io.BytesIO(png)).size[0]


def needed(drawn, names):  # type: ignore[no-untyped-def]
    """Texts that name a player (or a shortened name) and card ranks."""
    return [d for d in drawn if any(name[:4] in d.text for name in names) or d.text in RANKS]


@pytest.mark.parametrize("game", ["tolp", "zlodej", "stratego", "tjuv"])
def test_names_and_card_ranks_on_every_table_are_9_px_at_400_px(game: str) -> None:
    module = __import__(f"rendering.{game}", fromlist=["render_public"])
    obs, players = public_observation(game)
    names = NAMES[:players]
    module.render_public(obs, names=names, locale="cs")  # the palette's sample is drawn once, not shown
    with recording() as drawn:
        png = module.render_public(obs, names=names, locale="cs")
    texts = needed(drawn, names)
    assert any(name[:4] in d.text for d in texts for name in names)
    small = [(d.text, d.size) for d in texts if shown_at_phone(d.size, width_of(png)) < BAR]
    assert not small, small


@pytest.mark.parametrize("game", ["tolp", "zlodej"])
def test_card_ranks_in_a_hand_are_9_px_at_400_px(game: str) -> None:
    module = __import__(f"rendering.{game}", fromlist=["render_private"])
    g, state = played(game, 4, 6)
    with recording() as drawn:
        png = module.render_private(g.observe(state, 0), names=NAMES[:4], locale="en")
    assert png is not None
    ranks = [d for d in drawn if d.text in RANKS]
    assert ranks and all(shown_at_phone(d.size, width_of(png)) >= BAR for d in ranks)


def test_stratego_coordinates_are_9_px_at_400_px() -> None:
    stratego._background.cache_clear()  # the coordinates are drawn into the cached board
    obs, _ = public_observation("stratego")
    with recording() as drawn:
        png = stratego.render_public(obs, names=NAMES[:2], locale="en")
    coordinates = [d for d in drawn if d.text in set("ABCDEFGHIJ") | {str(n) for n in range(1, 11)}]
    assert len(coordinates) >= 20
    assert all(shown_at_phone(d.size, width_of(png)) >= BAR for d in coordinates)


# ----------------------------------------------------------------------------- Monopol
def _monopol_obs():  # type: ignore[no-untyped-def]
    game, state = played("monopol", 6, 400)
    return game.observe(state, None)


def test_the_full_monopol_board_is_too_small_for_a_phone_so_a_focus_view_exists() -> None:
    monopol_board.static_board.cache_clear()
    obs = _monopol_obs()
    with recording() as drawn:
        png = monopol.render_public(obs, names=NAMES[:6], locale="nb")
    prices = [d for d in drawn if "kr" in d.text and any(c.isdigit() for c in d.text) and d.size < 20]
    assert prices and all(shown_at_phone(d.size, width_of(png)) < BAR for d in prices)
    focus = monopol.render_focus(obs, names=NAMES[:6], locale="nb")
    assert focus is not None
    with Image.open(io.BytesIO(focus)) as image:
        image.load()  # a real picture, drawn larger than the board's own squares
        assert image.format == "PNG" and 0 < image.width < width_of(png)


def test_street_names_and_prices_in_every_monopol_focus_view_are_9_px_at_400_px() -> None:
    monopol_board.static_board.cache_clear()
    with recording() as drawn:
        monopol_board.static_board()
    street_texts = [d for d in drawn if not d.text.isdigit()]  # the small square numbers are extra
    smallest = min(d.size for d in street_texts)
    assert smallest >= 12
    obs = _monopol_obs()
    for square in range(40):
        _, scale = monopol.focus_area(square, crowded=True)
        png = monopol.render_focus(obs, names=NAMES[:6], locale="nb", event_hint=square)
        assert shown_at_phone(smallest * scale, width_of(png)) >= BAR, square


def test_the_monopol_focus_card_names_the_square_its_price_owner_and_rent_readably() -> None:
    obs = _monopol_obs()
    pub = obs["public"]
    owned = next(i for i, owner in enumerate(pub["owner"]) if owner >= 0 and SQUARES[i].kind == "street")
    monopol.render_focus(obs, names=NAMES[:6], locale="en", event_hint=owned)  # the cached board and palette
    with recording() as drawn:
        png = monopol.render_focus(obs, names=NAMES[:6], locale="en", event_hint=owned)
    texts = {d.text: d.size for d in drawn if not d.text.isdigit()}  # seat numbers on the enlarged tokens
    owner_line = next(text for text in texts if text.startswith("Owner:"))
    assert NAMES[pub["owner"][owned]][:4] in owner_line
    assert SQUARES[owned].name in texts
    assert any(text.startswith("Price") for text in texts)
    assert any(text.startswith(("Rent", "With", "Mortgaged")) for text in texts)
    assert all(shown_at_phone(size, width_of(png)) >= BAR for size in texts.values())


def test_the_focus_is_the_square_of_the_newest_event_or_the_acting_players_token() -> None:
    pub = {"recent": [{"key": "x", "params": {"seat": 0, "square": 7}}, {"key": "y", "params": {"seat": 1}}],
           "position": [3, 12], "turn": 1}
    assert monopol.focus_square(pub) == 7
    assert monopol.focus_square({**pub, "recent": []}) == 12
    assert monopol.focus_square(pub, event_hint=39) == 39
    assert monopol.focus_square(pub, event_hint=Event("monopol.event.buy", {"seat": 0, "square": 21})) == 21
    assert monopol.focus_square(pub, event_hint=Event("monopol.event.turn", {"seat": 1})) == 7


def test_a_private_event_never_steers_the_public_focus() -> None:
    game, state = played("tjuv", 4, 30)
    public = game.observe(state, None)["public"]
    nest = Event("tjuv.event.hid_private", {"money": 1000, "square": "A5"}, visible_to=frozenset({1}))
    assert tjuv.focus_square(public, event_hint=nest) == tjuv.focus_square(public)
    over = {**public, "finished": True}  # no one to follow: a public event's square is shown
    assert tjuv.focus_square(over, event_hint=nest) == tjuv.focus_square(over)
    assert tjuv.focus_square(over, event_hint=Event("x", {"square": tjuv.board().gate})) == tjuv.board().gate


def test_tokens_never_cover_a_street_name_or_price() -> None:
    reach = monopol_board.TOKEN_R + 6  # with the ring of the player to act
    for index in range(40):
        for slot in range(6):
            for jailed in (False, True) if index == 10 else (False,):
                x, y = monopol_board.token_spot(index, slot, jailed)
                for square in SQUARES:
                    if square.index % 10 == 0:
                        continue  # corners hold no street name
                    x0, y0, x1, y1 = monopol_board.text_box(square.index)
                    apart = x + reach <= x0 or x - reach >= x1 or y + reach <= y0 or y - reach >= y1
                    assert apart, (index, slot, square.name)


def test_player_colours_differ_from_every_group_colour_and_each_has_its_own_shape() -> None:
    groups = [monopol_board.hex_colour(colour) for colour in GROUP_COLOURS.values()]
    for colour in monopol_board.PLAYER_COLOURS:
        assert min(math.dist(colour, group) for group in groups) >= 50, colour
    assert len(set(monopol_board.PLAYER_SHAPES)) == len(monopol_board.PLAYER_COLOURS)


# ----------------------------------------------------------------------------- Tjuv och Polis
def test_tjuv_focus_view_coordinates_sums_and_pieces_are_9_px_at_400_px() -> None:
    tjuv._map.cache_clear()
    tjuv._big_map.cache_clear()
    with recording() as static:
        tjuv._map()
    sums = [d for d in static if d.text.endswith("k")]
    # the static layers, drawn once (the map by its theme's name, as the palette asks for it): what
    # they draw is enlarged in the focus view, measured above, not the close-up's own texts below
    tjuv._map("dark")
    tjuv._palette("dark")
    game, state = played("tjuv", 7, 40)
    obs = game.observe(state, None)
    with recording() as drawn:
        png = tjuv.render_focus(obs, names=NAMES[:7], locale="sv")
    assert png is not None
    width = width_of(png)
    enlarged = tjuv.ZOOM_STEP / tjuv.CELL
    assert sums and all(shown_at_phone(d.size * enlarged, width) >= BAR for d in sums)
    coordinates = [d for d in drawn if d.text.isdigit() or (len(d.text) == 1 and d.text.isupper())]
    pieces = [d for d in drawn if d.text[:1] in "PCT" and d.text[1:].isdigit() or d.text in ("P", "C")]
    assert len(coordinates) >= 2 * tjuv.FOCUS_CELLS and pieces
    assert all(shown_at_phone(d.size, width) >= BAR for d in coordinates + pieces + needed(drawn, NAMES))
    with recording() as full:
        board_png = tjuv.render_public(obs, names=NAMES[:7], locale="sv")
    map_coordinates = [d for d in full if d.text in ("A", "Z", "22")]
    assert all(shown_at_phone(d.size, width_of(board_png)) < BAR for d in map_coordinates)  # hence the focus


def test_the_tjuv_focus_follows_the_player_to_act_and_else_the_last_move() -> None:
    game, state = played("tjuv", 4, 30)
    public = game.observe(state, None)["public"]
    acting = tjuv.acting_piece(public)
    assert acting is not None and tjuv.focus_square(public) == acting == tjuv.home_square(public, public["turn"])
    over = {**public, "finished": True}
    path = [s for s in public["last_path"] if s != "house"]
    if path:
        assert tjuv.focus_square(over) == path[-1]
    assert tjuv.focus_square({**over, "last_path": []}, event_hint=tjuv.board().gate) == tjuv.board().gate


# ----------------------------------------------------------------------------- both themes, whole names
LONG_NAMES = [f"{base}{i}"[:32] for i, base in enumerate(["BjörnTheGreat_1987_Ødegård_Čech_", "W" * 31,
                                                             "Ženíšek Příliš Žluťoučký Kůňový", "Åsa" * 10 + "_",
                                                             "Gus_the_very_long_named_player_"])]


@pytest.mark.parametrize("theme", ["dark", "light"])
@pytest.mark.parametrize("game", ["tolp", "zlodej", "stratego", "monopol", "tjuv"])
def test_every_header_draws_a_32_character_name_whole_at_9_px_in_both_themes(game: str, theme: str) -> None:
    """The header names the player to act; a 32-character name is drawn whole (shrunk, or on a
    line of its own) at 9 px or more when the picture is shown 400 px wide."""
    module = __import__(f"rendering.{game}", fromlist=["render_public"])
    players = {"tolp": 4, "zlodej": 3, "stratego": 2, "monopol": 4, "tjuv": 4}[game]
    g, state = played(game, players, 40)
    obs = g.observe(state, None)
    acting = LONG_NAMES[obs["public"]["to_act"][0]] if obs["public"]["to_act"] else None
    assert acting is not None and len(acting) == 32
    calls = [module.render_public]
    if module.render_focus is not None:
        calls.append(module.render_focus)
    for call in calls:
        call(obs, names=LONG_NAMES[:players], locale="cs", theme=theme)  # palettes and caches drawn once
        with recording() as drawn:
            png = call(obs, names=LONG_NAMES[:players], locale="cs", theme=theme)
        width = width_of(png)
        texts = [d.text for d in drawn if shown_at_phone(d.size, width) >= BAR]
        lines = texts + [a + b for a, b in zip(texts, texts[1:], strict=False)]
        assert any(acting in line for line in lines), (call.__name__, acting)


@pytest.mark.parametrize("theme", ["dark", "light"])
@pytest.mark.parametrize("game", ["tolp", "zlodej", "stratego", "tjuv"])
def test_names_and_card_ranks_on_every_table_are_9_px_in_both_themes(game: str, theme: str) -> None:
    module = __import__(f"rendering.{game}", fromlist=["render_public"])
    obs, players = public_observation(game)
    names = NAMES[:players]
    module.render_public(obs, names=names, locale="cs", theme=theme)
    with recording() as drawn:
        png = module.render_public(obs, names=names, locale="cs", theme=theme)
    texts = needed(drawn, names)
    assert texts
    small = [(d.text, d.size) for d in texts if shown_at_phone(d.size, width_of(png)) < BAR]
    assert not small, small
