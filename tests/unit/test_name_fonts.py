"""Every name draws: emoji, CJK, Arabic, Hebrew, combining marks: never the missing-glyph box."""
from __future__ import annotations

import io

import pytest
from PIL import Image, ImageDraw

from rendering import fonts
from rendering.fonts import REPLACEMENT, clusters, draw_text, face_font, fit, runs, text_length

NAMES = ["😀 Anna 🎲", "李小龙", "さくら", "김민수", "محمد علي", "שלום", "Zoë ź̷a̵l", "👨‍👩‍👧 Familj",
         "🇸🇪 Sven", "❤️ Love", "Dmitrij Дмитрий", "नमस्ते", "👍🏽 Ok", "Åse Ødegård"]
NOWHERE = "\U0010fffd"  # a private-use code point that no font maps: it draws as .notdef


def _mask(face: int, char: str, size: int = 40) -> bytes:
    mask = face_font(face, size).getmask(char)
    return bytes(mask) + bytes(str(mask.size), "ascii")


@pytest.mark.parametrize("name", NAMES)
def test_no_character_of_a_name_draws_as_the_missing_glyph_box(name: str) -> None:
    assert fonts.missing_glyphs(name) == []
    for part, face in runs(name):
        notdef = _mask(face, NOWHERE)
        for cluster in clusters(part):
            base = cluster[0]
            if base.isspace():
                continue
            assert ord(base) in fonts.coverage(face), (name, base, face)
            assert _mask(face, base) != notdef, (name, base, face)


def test_a_character_no_font_has_becomes_a_clean_replacement_not_a_box() -> None:
    assert "".join(part for part, _ in runs(f"a{NOWHERE}b")) == f"a{REPLACEMENT}b"
    assert fonts.missing_glyphs(f"a{NOWHERE}b") == [REPLACEMENT]


def test_scripts_go_to_their_fonts_and_spaces_stay_inside_an_arabic_name() -> None:
    assert runs("Åse Ødegård") == (("Åse Ødegård", 0),)  # our own letters stay in Roboto
    assert len(runs("محمد علي")) == 1  # one run, so raqm lays it out right to left as a whole
    emoji_face = runs("😀")[0][1]
    assert runs("👨‍👩‍👧")[0] == ("👨‍👩‍👧", emoji_face)  # a joined sequence stays one cluster
    assert runs("李")[0][1] not in (0, emoji_face)


def test_names_with_emoji_and_cjk_are_drawn_with_ink_and_shortened_as_before() -> None:
    image = Image.new("L", (900, 60 * len(NAMES)), 0)
    draw = ImageDraw.Draw(image)
    for row, name in enumerate(NAMES):
        draw_text(draw, (10, 10 + 60 * row), name, 34, bold=row % 2 == 0, fill=255)
        ink = image.crop((0, 60 * row, 900, 60 * row + 60)).getbbox()
        assert ink is not None and ink[2] - ink[0] >= 0.8 * text_length(name, 34, row % 2 == 0)
    long = "😀 Maximilián 李小龙 Dvořáček-Novotný"
    cut = fit(long, 30, 250, True)
    assert cut.endswith("…") and text_length(cut, 30, True) <= 250
    assert "\u200d" not in cut[-2:]  # whole clusters are cut, never half an emoji sequence


@pytest.mark.parametrize("game", ["tolp", "zlodej", "stratego", "monopol", "tjuv"])
def test_every_board_renders_names_in_any_script(game: str) -> None:
    from tests.unit.observations import public_observation

    module = __import__(f"rendering.{game}", fromlist=["render_public"])
    obs, players = public_observation(game)
    names = [NAMES[n % len(NAMES)] for n in range(players)]
    with fonts.recording() as drawn:
        png = module.render_public(obs, names=names, locale="en")
    image = Image.open(io.BytesIO(png))
    image.load()  # decodes, not just its header
    assert image.size[0] >= 1000
    shown = " ".join(d.text for d in drawn)
    assert any(ch in shown for ch in "😀李김"), "names are drawn through the kit's fallback"


@pytest.mark.parametrize("text", [
    "Kari Nordmann kjøpte Rådhusplassen for 4 000 kr", "Čeněk Řehoř", "e\u0301 combining", "a\u200db joined",
    "Bjørn 🎲 rolled", "محمد علي", "東京 Tokyo", "x\ufe0f", "", " ", "—‘’…", "Ünïcödé ÆØÅ æøå",
])
def test_a_text_the_first_face_draws_whole_is_one_run_as_the_cluster_walk_makes_it(text: str) -> None:
    """runs() skips the per-cluster walk when Roboto has every character; it must give what the
    walk gives (one run of face 0 then), and walk as before otherwise."""
    assert runs(text) == fonts._runs_by_cluster(text)
    if text and fonts._first_face_chars().issuperset(text):
        assert runs(text) == ((text, 0),)


LINES = ["p12x3 spelade 7♣ 7♦", "مرحبا Ali 7♠", "李小龙 played K♥", "Zoë 🎲👍🏽 x", "नमस्ते ♣♦", "Ωmega ☃ 10♠"]


@pytest.mark.parametrize("mode", ["L", "RGB"])
def test_a_line_of_several_runs_drawn_from_kept_runs_is_pillows_own_drawing(mode: str,
                                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    """Runs are pasted from kept rasterizations; the pixels are those of ``draw.text`` run by run,
    at every fractional position, anchor, size and weight."""
    ink = 200 if mode == "L" else (250, 200, 100)
    cases = [(text, (left + x / 7, 40 + x / 5), size, bold, anchor) for x, text in enumerate(LINES * 3)
             for size, bold, anchor, left in ((22, False, "la", 4), (33, True, "mm", 320), (27, False, "ra", 630))]

    def drawn(runs_drawn: bool) -> list[bytes]:
        if not runs_drawn:
            monkeypatch.setattr(fonts, "_draw_run", lambda draw, xy, part, face, size, bold, fill: draw.text(
                xy, part, font=face_font(face, size, bold), fill=fill, anchor="ls"))
        out = []
        for text, xy, size, bold, anchor in cases:
            image = Image.new(mode, (640, 110), 0)
            fonts._draw_runs(ImageDraw.Draw(image), xy, text, size, bold=bold, fill=ink, anchor=anchor)
            out.append(image.tobytes())
        monkeypatch.undo()
        return out

    kept = drawn(True)
    assert all(any(page) for page in kept)
    assert kept == drawn(False)


def test_the_suits_of_a_new_line_are_not_rasterized_again(monkeypatch: pytest.MonkeyPatch) -> None:
    image = Image.new("L", (600, 60), 0)
    fonts._draw_runs(ImageDraw.Draw(image), (10, 30), "p1x1 played 7♣ 7♦", 33, bold=False, fill=255, anchor="la")
    rasterized: list[str] = []
    original = type(face_font(0, 33)).getmask2

    def counted(self, text, *args, **kwargs):  # type: ignore[no-untyped-def]
        rasterized.append(text)
        return original(self, text, *args, **kwargs)

    monkeypatch.setattr(type(face_font(0, 33)), "getmask2", counted)
    fonts._draw_runs(ImageDraw.Draw(image), (10, 30), "p2x1 played 7♣ 7♦", 33, bold=False, fill=255, anchor="la")
    assert rasterized == ["p2x1 played 7"]  # the new name's run only: the suits and " 7" were kept
