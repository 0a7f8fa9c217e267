"""Tjuv och Polis pictures: decodable and wide, pieces drawn where they stand, nothing hidden shown."""
from __future__ import annotations

import io

from PIL import Image

from bot.engine.registry import computer_action
from bot.engine.rng import Rng
from rendering.tjuv import POLICE, WIDTH, _centre, map_shift, render_private, render_public

from .helpers import GAME, position

NAMES = ["Åsa", "Björn", "Cecilia", "Dörte", "Erik", "Fanny", "Göran"]


def decode(data: bytes) -> Image.Image:
    return Image.open(io.BytesIO(data)).convert("RGB")


def played(players: int, actions: int):  # type: ignore[no-untyped-def]
    state = GAME.new(players, GAME.resolve_options({"max_rounds": 80}), "render")
    for _ in range(actions):
        if GAME.outcome(state) is not None:
            break
        seat = next(iter(GAME.to_act(state)))
        GAME.apply(state, seat, computer_action(GAME, state, seat))
    return state


def test_the_map_is_a_wide_png_with_each_policeman_on_his_square() -> None:
    state = position(3, police={"P1": "B11"})
    obs = GAME.observe(state, None)
    image = decode(render_public(obs, names=NAMES, locale="sv"))
    assert image.width == WIDTH >= 1000 and image.height > 1000
    x, y = _centre("B11")
    y += map_shift(obs, NAMES, "sv")
    assert all(abs(a - b) < 30 for a, b in zip(image.getpixel((x - 10, y + 8)), POLICE, strict=True))
    empty_obs = GAME.observe(position(3), None)
    empty = decode(render_public(empty_obs, names=NAMES, locale="sv"))
    ey = y - map_shift(obs, NAMES, "sv") + map_shift(empty_obs, NAMES, "sv")
    assert empty.getpixel((x - 10, ey + 8)) != image.getpixel((x - 10, y + 8))


def test_the_public_image_does_not_change_when_stashes_are_scrambled() -> None:
    state = played(5, 300)
    assert any(t.stashes for t in state.thieves)
    before = render_public(GAME.observe(state, None), names=NAMES, locale="en")
    scrambled = GAME.scramble_hidden(state, None, Rng("other"))
    assert [t.stashes for t in scrambled.thieves] != [t.stashes for t in state.thieves]
    assert render_public(GAME.observe(scrambled, None), names=NAMES, locale="en") == before


def test_only_a_thief_gets_a_private_picture_of_his_stashes() -> None:
    state = position(3, thieves={1: {"stashes": {"A5": 3000}}, 2: {"stashes": {"Z5": 1000}}})
    assert render_private(GAME.observe(state, None), names=NAMES, locale="en") is None
    assert render_private(GAME.observe(state, 0), names=NAMES, locale="en") is None
    own = render_private(GAME.observe(state, 1), names=NAMES, locale="sv")
    other = render_private(GAME.observe(state, 2), names=NAMES, locale="sv")
    assert own is not None and other is not None and own != other
    assert decode(own).width >= 1000


def test_a_finished_game_still_renders() -> None:
    state = played(2, 2000)
    assert GAME.outcome(state) is not None
    assert decode(render_public(GAME.observe(state, None), names=NAMES, locale="en")).width >= 1000


def test_the_panel_is_only_as_tall_as_the_table_and_long_names_are_cut_with_an_ellipsis() -> None:
    from rendering.kit import fit, text_length

    two = decode(render_public(GAME.observe(position(2), None), names=NAMES, locale="en"))
    seven = decode(render_public(GAME.observe(position(7), None), names=NAMES, locale="en"))
    assert two.height < seven.height and seven.height - two.height >= 2 * 58
    long = "Maximilián Dvořáček-Novotný of Kutná Hora"
    cut = fit(long, 25, 300, True)
    assert cut.endswith("…") and text_length(cut, 25, True) <= 300
    assert fit("Åsa", 25, 300, True) == "Åsa"


def test_a_thief_with_nothing_hidden_gets_no_picture_and_the_picture_grows_with_the_stashes() -> None:
    state = position(3)
    assert render_private(GAME.observe(state, 1), names=NAMES, locale="en") is None
    state.thief(1).stashes = {"A5": 1000}
    one = decode(render_private(GAME.observe(state, 1), names=NAMES, locale="en") or b"")
    state.thief(1).stashes = {nest: 1000 for nest in ("A5", "A13", "A19", "Z5", "Z13")}
    five = decode(render_private(GAME.observe(state, 1), names=NAMES, locale="en") or b"")
    assert one.width == five.width >= 1000 and one.height < five.height <= 520  # with the shared header


def test_the_nest_hint_shows_only_when_there_is_something_to_hide_or_fetch() -> None:
    from rendering.tjuv import describe_private

    state = position(3, thieves={1: {"at": "A5"}}, turn=1)
    hint = "you may hide or fetch money before you roll"
    assert hint not in describe_private(GAME.observe(state, 1), locale="en")
    state.thief(1).money, state.bank_paid = 2000, 2000
    assert hint in describe_private(GAME.observe(state, 1), locale="en")
    state.thief(1).money, state.thief(1).stashes = 0, {"A5": 2000}
    assert hint in describe_private(GAME.observe(state, 1), locale="en")


def test_the_turn_hint_follows_the_setup_and_an_arrest_to_be_named() -> None:
    from rendering.tjuv import describe_private

    state = GAME.new(3, GAME.resolve_options({}), "hints")  # the police on seat 0, thieves T1, T2
    first = describe_private(GAME.observe(state, 1), locale="en")
    assert "choose your starting nest (nest <square>" in first and "roll" not in first
    assert "Your turn" not in describe_private(GAME.observe(state, 0), locale="en")
    for seat in (1, 2):
        GAME.apply(state, seat, GAME.legal_actions(state, seat)[0])
    police = describe_private(GAME.observe(state, 0), locale="sv")
    assert "ställ radiobilen" in police and "car <bak> <fram>" in police and "slå tärningen" not in police
    GAME.apply(state, 0, GAME.legal_actions(state, 0)[0])
    assert "roll the die (roll)" in describe_private(GAME.observe(state, 0), locale="en")
    state.pending = [{"thief": 1, "pieces": ["P1", "P2"]}]  # T1 encircled on the police's turn
    state.turn = 1
    assert "T1 is encircled: name the piece that makes the arrest (arrest <piece>: P1, P2)." in describe_private(
        GAME.observe(state, 0), locale="en")
    assert "Your turn" not in describe_private(GAME.observe(state, 1), locale="en")


def test_renderer_draws_the_radio_car_over_two_squares() -> None:
    from rendering.tjuv import CAR_COLOUR, _centre, map_shift, render_public

    state = position(police={"C": ("P11", "Q11")})
    obs = GAME.observe(state, None)
    image = Image.open(io.BytesIO(render_public(obs, names=["A", "B"], locale="en")))
    rgb = image.convert("RGB")
    shift = map_shift(obs, ["A", "B"], "en")  # the shared header stands over the map
    (fx, fy), (tx, ty) = _centre("P11"), _centre("Q11")
    fy, ty = fy + shift, ty + shift
    midway = ((fx + tx) // 2, (fy + ty) // 2)
    scale = rgb.width / image.width
    for x, y in (midway, (tx + 8, ty + 8)):
        assert rgb.getpixel((int(x * scale), int(y * scale))) == CAR_COLOUR
