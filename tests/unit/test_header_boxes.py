"""``header_boxes`` names every pixel ``draw_header`` draws text on: outside the boxes the header
is its ground colour (the Monopol board maps only the boxes onto its palette)."""
from __future__ import annotations

import pytest
from PIL import Image

from rendering.theme import Header, draw_header, header_boxes, header_height, theme_of

HEADERS = [
    Header("Monopol · Runde 12", acting="Bjørn Ødegård to play · kr 1 234", news="Åse bought Rådhusplassen.",
           right="Ends 2030-01-02 17:30 UTC"),
    Header("Tölp", acting="محمد عبد الله و 李小龙 to play", news="A very long piece of news " * 12),
    Header("Monopol · Round 3 of 40", acting="Game over", news="Kari won with kr 12 345", finished=True),
    Header("A title long enough to be cut with an ellipsis because nothing holds it " * 3, right="6 + 5"),
]


@pytest.mark.parametrize("theme", ["dark", "light"])
@pytest.mark.parametrize("width", [1100, 800])
def test_outside_the_boxes_the_header_is_its_ground(theme: str, width: int) -> None:
    th = theme_of(theme)
    for head in HEADERS:
        height = header_height(head, width)
        drawn = Image.new("RGB", (width, height), th.background)
        draw_header(drawn, head, th)
        ground = Image.new("RGB", (width, height), th.header)
        boxes = header_boxes(head, width)
        assert len(boxes) >= 2
        for box in boxes:
            ground.paste(drawn.crop(box), box[:2])
        assert ground.tobytes() == drawn.tobytes(), head.title
        assert any(drawn.crop(box).getcolors(1) is None for box in boxes)  # the boxes do hold text
