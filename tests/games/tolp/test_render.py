"""Tölp pictures: decodable palette PNGs wide enough for a phone that show nothing hidden."""
from __future__ import annotations

import io

import pytest
from PIL import Image, ImageChops

from bot.engine.registry import computer_action
from bot.engine.rng import Rng
from bot.games.tolp.state import TolpState
from rendering import tolp as render
from rendering.kit import new_canvas
from rendering.theme import THEMES, marker, theme_of

from .build import GAME, act, exchange_state

NAMES = ["Anna", "Björn", "Cecilia", "David", "Eva", "Fredrik"]


def decode(png: bytes) -> Image.Image:
    image = Image.open(io.BytesIO(png))
    image.load()
    return image


def midgame(players: int = 5) -> TolpState:
    state = GAME.new(players, {}, "render")
    for _ in range(7):
        seat = min(GAME.to_act(state))
        GAME.apply(state, seat, computer_action(GAME, state, seat))
    return state


def test_the_table_is_a_palette_png_at_least_1000_pixels_wide() -> None:
    image = decode(render.render_public(GAME.observe(midgame(), None), names=NAMES, locale="sv"))
    assert image.format == "PNG" and image.mode == "P" and image.width >= 1000


@pytest.mark.parametrize("theme", THEMES)
def test_the_seat_to_act_is_framed_in_the_turn_colour(theme: str) -> None:
    state = midgame()
    obs = GAME.observe(state, None)
    image = decode(render.render_public(obs, names=NAMES, theme=theme)).convert("RGB")
    top = render.body_top(obs["public"], NAMES, "en")
    for seat, (x, y, _) in enumerate(render._layout(state.players, top)):
        pixel = image.getpixel((x + 2, y + render.PANEL_H // 2))
        close = all(abs(a - b) < 40 for a, b in zip(pixel, theme_of(theme).turn, strict=True))
        assert close == (seat == state.turn), (seat, pixel)


def test_the_table_does_not_change_when_hidden_cards_are_redealt() -> None:
    states = [midgame(), midgame(2)]
    exchange = exchange_state(["3C 5D 9H KS AC", "4C 6D 8H QS", "5C 7D 7H JS", "6C 8D 9S 9D AH AS"],
                              [0, 1, 2, 3])
    act(exchange, 0, "give 3C 5D")
    act(exchange, 0, "ask 9")
    states.append(exchange)
    rng = Rng("redeal")
    for state in states:
        png = render.render_public(GAME.observe(state, None), names=NAMES)
        for viewer in (None, 0, 1):
            scrambled = GAME.scramble_hidden(state, viewer, rng)
            assert scrambled.hands != state.hands
            assert render.render_public(GAME.observe(scrambled, None), names=NAMES) == png


def test_the_hand_shows_for_players_only_and_wraps_long_hands() -> None:
    assert render.render_private(GAME.observe(midgame(), None), names=NAMES) is None
    five = decode(render.render_private(GAME.observe(GAME.new(5, {}, "h"), 0), names=NAMES) or b"")
    two = decode(render.render_private(GAME.observe(GAME.new(2, {}, "h"), 0), names=NAMES) or b"")
    assert five.width >= 1000 and two.width >= 1000 and five.mode == "P"
    assert two.height > five.height  # 21 cards take two rows


def test_the_hand_carries_the_viewers_exchange() -> None:
    state = exchange_state(["3C 5D 9H KS AC", "4C 6D 8H QS", "5C 7D 7H JS", "6C 8D 9S 9D AH AS"],
                           [0, 1, 2, 3])
    plain = decode(render.render_private(GAME.observe(GAME.new(4, {}, "h"), 0), names=NAMES) or b"")
    act(state, 0, "give 3C 5D")
    act(state, 0, "ask 9")
    high = decode(render.render_private(GAME.observe(state, 0), names=NAMES) or b"")
    assert high.height > plain.height


def test_a_tie_break_round_is_not_shown_as_round_five_of_two() -> None:
    state = GAME.new(4, {"scoring": "rounds", "rounds": 2}, "render")
    state.round = 2
    public = GAME.observe(state, None)["public"]
    assert render.scoring_line(public, "en") == "2 of 2 rounds"
    state.round = 5
    public = GAME.observe(state, None)["public"]
    assert render.scoring_line(public, "en") == "Tie-break: round 5 after 2"
    assert "5" in render.scoring_line(public, "sv") and "av 2" not in render.scoring_line(public, "sv")


def test_the_exchange_view_says_who_gave_and_who_received() -> None:
    state = exchange_state(["5H 9S JC QD KH AS", "4C 6D 7H 8S", "4D 6C 7S 8H", "3C 5D 9H 9C AC AD"],
                           [0, 1, 2, 3])
    act(state, 0, "give 5H 9S")
    act(state, 0, "high")
    high = GAME.observe(state, 0) | {"names": NAMES}
    low = GAME.observe(state, 3) | {"names": NAMES}
    assert "You gave: 5H 9S" in render.describe_private(high) and "You received: AC AD" in render.describe_private(high)
    assert "You received: 5H 9S" in render.describe_private(low) and "You gave: AC AD" in render.describe_private(low)


@pytest.mark.parametrize("theme", ["dark", "light"])
def test_a_pasted_panel_ground_is_the_panel_drawn_in_place(theme: str) -> None:
    """The panel's box and turn ring are drawn once and pasted (``panel_ground``): pixel for pixel
    what drawing them at the panel's place on the board's background gives."""
    th = theme_of(theme)
    for seat, (x, y, w) in enumerate(render._layout(5, 137)):
        for acting, out in ((False, False), (True, False), (False, True)):
            drawn, draw = new_canvas(render.WIDTH, 700, th.background)
            fill = th.surface_turn if acting else th.header if out else th.surface
            draw.rounded_rectangle([x, y, x + w, y + render.PANEL_H], radius=14, fill=fill, outline=th.line,
                                   width=2)
            if acting:
                marker(draw, [x, y, x + w, y + render.PANEL_H], th, turn=True, radius=14, width=6)
            pasted, _ = new_canvas(render.WIDTH, 700, th.background)
            pasted.paste(render.panel_ground(w, acting, out, th.name), (x, y))
            assert ImageChops.difference(drawn, pasted).getbbox() is None, (seat, acting, out)


LONG = ["Anna-Karin Wilhelmina Öberg-Lindqvist", "Björn", "Сергей Александрович", "محمد", "李小龍 Bruce"]


@pytest.mark.parametrize(("players", "seed", "locale", "theme"),
                         [(4, "same-a", "en", "dark"), (5, "same-b", "sv", "light")])
def test_pictures_drawn_on_the_palette_are_the_pictures_drawn_whole(players: int, seed: str, locale: str,
                                                                     theme: str,
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    """The fast way (``Fast``: kept parts, card faces and texts mapped onto the palette once and
    pasted as indices) gives the same pixels and bytes as drawing the whole picture in RGB and
    mapping it (``Whole``), for every board and hand over whole seeded games: a text pasted on the
    wrong ground or a part kept under too short a key would show."""
    state = GAME.new(players, {"scoring": "rounds", "rounds": 2}, seed)
    pictures, redrawn = 0, render.REDRAWN[0]
    while GAME.outcome(state) is None and pictures < 240:
        seat = min(GAME.to_act(state))
        GAME.apply(state, seat, computer_action(GAME, state, seat))
        for obs, draw in ((GAME.observe(state, None), render.render_public),
                          (GAME.observe(state, seat), render.render_private)):
            names = LONG if pictures % 3 else NAMES
            monkeypatch.setattr(render, "SURFACE", render.Whole)
            whole = draw(obs, names=names, locale=locale, theme=theme)
            monkeypatch.setattr(render, "SURFACE", render.Fast)
            fast = draw(obs, names=names, locale=locale, theme=theme)
            if whole is None:
                assert fast is None
                continue
            assert fast is not None
            assert decode(fast).tobytes() == decode(whole).tobytes(), (pictures, obs["public"]["phase"])
            assert fast == whole
            pictures += 1
    assert pictures >= 200
    assert render.REDRAWN[0] - redrawn < pictures // 10  # nearly all drawn the fast way


def test_a_kept_text_is_pasted_without_its_mask_looked_up_again(monkeypatch: pytest.MonkeyPatch) -> None:
    """A text already mapped onto the palette, landing on its ground, is pasted as it was kept:
    its coverage mask is not fetched again (at a thousand tables that fetch and the masked paste
    were a third of a board's time), yet it is still counted as drawn, and the pixels are the
    same as the first time."""
    from rendering.fonts import recording

    obs = GAME.observe(midgame(), None)
    first = render.render_public(obs, names=NAMES, locale="sv", theme="dark")
    fetched: list[str] = []
    kept_mask = render.text_mask

    def counted(text: str, *args: object, **kwargs: object) -> object:
        fetched.append(text)
        return kept_mask(text, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(render, "text_mask", counted)
    with recording() as drawn:
        again = render.render_public(obs, names=NAMES, locale="sv", theme="dark")
    assert again == first
    assert fetched == []
    assert {"Anna", "Björn", "Cecilia"} <= {text.text for text in drawn}
