"""A hand that did not change is not drawn again: Tölp says what its hand picture depends on
(``private_key``) and the render workers hand out a picture drawn lately under the same key. Focus
views go to the render workers as boards do."""
from __future__ import annotations

import io
import pickle
import random
from functools import partial

from PIL import Image

from bot.engine import registry
from bot.engine.core import Event
from bot.services.renders import Renders, _draw
from rendering import tolp as tolp_pictures

NAMES = ["Ann", "Bo", "Cy", "Di"]


def decoded(data: bytes) -> Image.Image:
    """The picture decoded by Pillow (not just its header read)."""
    image = Image.open(io.BytesIO(data))
    image.load()
    return image


def observations(moves: int = 12) -> list[list[dict]]:
    """Each seat's observation after each of ``moves`` moves of a four-player Tölp game."""
    tolp = registry.get("tolp")
    state = tolp.new(4, tolp.resolve_options({}), "memo")
    rng = random.Random(5)
    out = []
    for _ in range(moves):
        seat = min(tolp.to_act(state))
        tolp.apply(state, seat, rng.choice(list(tolp.legal_actions(state, seat))))
        out.append([tolp.observe(state, s) for s in range(4)])
    return out


def test_the_same_key_is_the_same_hand_picture_and_a_changed_hand_another_key() -> None:
    seen: dict[str, bytes] = {}
    same = 0
    views = observations()
    for obs in (o for seats in views for o in seats):
        key = tolp_pictures.private_key(obs)
        picture = tolp_pictures.render_private(obs, names=NAMES, locale="en")
        assert picture is not None
        if key in seen:
            assert seen[key] == picture  # the rest of the observation moved on; the picture did not
            same += 1
        seen[key] = picture
    assert same > 0
    hands = {(s, tuple(obs["private"]["hand"])) for seats in views for s, obs in enumerate(seats)}
    assert len(hands) > 4  # some hands changed, and each change gave another key
    assert len({(s, tolp_pictures.private_key(obs)) for seats in views for s, obs in enumerate(seats)}) >= len(hands)


async def test_a_picture_under_a_known_key_is_handed_out_again_undrawn() -> None:
    renders = Renders(0, threads=1)
    try:
        obs = observations(3)[-1][1]
        key = ("tolp", tolp_pictures.private_key(obs), tuple(NAMES), "en")
        first = await renders.draw("rendering.tolp", "render_private", obs, names=NAMES, locale="en", memo=key)
        again = await renders.draw("rendering.tolp", "render_private", obs, names=NAMES, locale="en", memo=key)
        assert renders.memo_hits == 1 and again == first
        other = await renders.draw("rendering.tolp", "render_private", obs, names=NAMES, locale="sv",
                                   memo=key[:3] + ("sv",))
        assert renders.memo_hits == 1 and other != first
        assert decoded(first).size[0] > 0
    finally:
        renders.close()


def test_a_focus_view_and_its_event_hint_travel_to_a_worker_process() -> None:
    """Focus views are drawn by the render workers too: the work item must survive pickling."""
    monopol = registry.get("monopol")
    state = monopol.new(3, monopol.resolve_options({}), "focus")
    obs = monopol.observe(state, None)
    hint = Event("monopol.event.moved", {"seat": 0, "square": 5})
    item = pickle.loads(pickle.dumps(partial(_draw, "rendering.monopol", "render_focus", (obs,),
                                             {"names": NAMES[:3], "locale": "en", "event_hint": hint})))
    picture = item()
    assert decoded(picture).size[0] > 0
