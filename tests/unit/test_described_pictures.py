"""A picture's alt text is written by the render worker that draws it (off the event loop): the
same words as ``rendering.alt.describe`` on the event loop, in a worker thread and in a worker
process; a hand picture handed out again from the memo gets the words of the new observation."""
from __future__ import annotations

import io

import pytest
from PIL import Image

from bot.services.renders import Renders
from rendering import tolp as tolp_pictures
from rendering.alt import LIMIT, describe
from tests.unit.test_render_memo import NAMES, observations


def decoded(data: bytes) -> Image.Image:
    image = Image.open(io.BytesIO(data))
    image.load()
    return image


@pytest.mark.parametrize("processes", [0, 1])
async def test_the_worker_writes_the_words_the_loop_would(processes: int) -> None:
    renders = Renders(processes, threads=1)
    try:
        await renders.start(("rendering.tolp",))
        seats = observations(6)[-1]
        public, hand = seats[0], seats[2]
        hand = {**hand, "public": public["public"]}
        news = "Bo played two sevens"
        board, words = await renders.draw("rendering.tolp", "render_public", public, names=NAMES, locale="sv",
                                          described=("tolp", "public", public, NAMES, "sv", news))
        assert words == describe("tolp", "public", public, names=NAMES, locale="sv", news=news)[:LIMIT]
        assert news in words and len(words) <= LIMIT
        assert board == await renders.draw("rendering.tolp", "render_public", public, names=NAMES, locale="sv")
        assert decoded(board).size[0] > 0
        picture, private_words = await renders.draw("rendering.tolp", "render_private", hand, names=NAMES,
                                                    locale="en", described=("tolp", "private", hand, NAMES, "en", ""))
        assert private_words == describe("tolp", "private", hand, names=NAMES, locale="en")[:LIMIT]
        assert picture is not None and decoded(picture).size[0] > 0
    finally:
        renders.close()


async def test_a_remembered_hand_gets_the_words_of_its_new_observation() -> None:
    """The memo keeps the picture, never the words: the turn moved on, the hand did not."""
    renders = Renders(0, threads=1)
    try:
        pair = None
        views = observations(12)
        for before, after in zip(views, views[1:], strict=False):
            for seat in range(4):
                old, new = before[seat], after[seat]
                if tolp_pictures.private_key(old) == tolp_pictures.private_key(new) and \
                        describe("tolp", "private", old, names=NAMES, locale="en") != \
                        describe("tolp", "private", new, names=NAMES, locale="en"):
                    pair = (old, new)
        assert pair is not None, "no unchanged hand whose words changed in these moves"
        old, new = pair
        key = ("tolp", tolp_pictures.private_key(old), tuple(NAMES), "en")
        first, first_words = await renders.draw("rendering.tolp", "render_private", old, names=NAMES, locale="en",
                                                memo=key, described=("tolp", "private", old, NAMES, "en", ""))
        again, again_words = await renders.draw("rendering.tolp", "render_private", new, names=NAMES, locale="en",
                                                memo=key, described=("tolp", "private", new, NAMES, "en", ""))
        assert renders.memo_hits == 1 and again == first
        assert first_words == describe("tolp", "private", old, names=NAMES, locale="en")[:LIMIT]
        assert again_words == describe("tolp", "private", new, names=NAMES, locale="en")[:LIMIT] != first_words
    finally:
        renders.close()
