"""Every custom_id our messages carry, old ones included, reaches the cog that owns it
(cogs/routing.py), and the two DynamicItems keep the templates Discord sends back to us."""
from __future__ import annotations

import re

import pytest

from cogs import history, orders, replay, routing, undo
from cogs.components import ROUTES, ButtonRoute, GameButton, GameSelect, HandButton, LobbyButton, custom_id_act


@pytest.fixture(autouse=True)
def routes() -> None:
    routing.dynamic_items()  # what the bot's setup_hook does


def routed(custom_id: str) -> list[ButtonRoute]:
    assert custom_id.startswith("gm:")
    return [handler for pattern, handler in ROUTES.buttons if pattern.fullmatch(custom_id[3:])]


def test_the_registered_items_keep_their_templates() -> None:
    assert routing.dynamic_items() == (GameButton, GameSelect)
    assert GameButton.__discord_ui_compiled_template__.pattern == "gm:(?P<rest>.*)"
    assert GameSelect.__discord_ui_compiled_template__.pattern == "gms:(?P<rest>.*)"


@pytest.mark.parametrize(("custom_id", "owner"), [
    ("gm:a:12:3:play 7H", routing._move),
    ("gm:p:12:3:1:give 7H 8H", routing._move),
    ("gm:u:12:3:ask", undo.button),
    ("gm:u:12:3:yes", undo.button),
    ("gm:rp:12:0", replay.button),
    ("gm:rp:12:4:n", replay.button),
    ("gm:hi:o:40", history.page_button),
    ("gm:hi:n:40:tolp", history.page_button),
    ("gm:t:12:3:1:computer", routing._vote),
    ("gm:o:12:1:view", orders.button_route),
    ("gm:o:12:1:max_bid", orders.button_route),
    ("gm:h:12", routing._one),
    ("gm:j:12", routing._one),
    ("gm:s:12", routing._one),
    ("gm:r:12", routing._one),
])
def test_each_button_goes_to_exactly_the_cog_that_owns_it(custom_id: str, owner: ButtonRoute) -> None:
    assert routed(custom_id) == [owner]


@pytest.mark.parametrize("custom_id", ["gm:zzz", "gm:t:1:0:0:explode", "gm:x:12", "gm:a:12:3:"])
def test_a_forged_or_malformed_button_goes_nowhere(custom_id: str) -> None:
    assert routed(custom_id) == []


def test_the_buttons_and_menus_we_draw_carry_the_formats_old_messages_have() -> None:
    assert custom_id_act(12, 3, "play 7H") == "gm:a:12:3:play 7H"
    assert custom_id_act(12, 3, "play 7H", owner=1) == "gm:p:12:3:1:play 7H"
    assert HandButton(12, label="Hand").item.custom_id == "gm:h:12"
    assert LobbyButton("j", 12, label="Join").item.custom_id == "gm:j:12"
    menu = GameSelect(12, 3, 1, "give", 0)
    assert menu.item.custom_id == "gms:12:3:1:0:give"
    assert ROUTES.select is routing._choice
    assert re.fullmatch(GameSelect.__discord_ui_compiled_template__, menu.item.custom_id)
