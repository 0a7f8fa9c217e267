"""What a game's renderer module provides (its plugin entry names it: ``GamePlugin.renderer``).

Every function draws or tells from an observation (``Game.observe``), never from a state, and
never reads a clock. A module is the renderer: ``rendering/tolp.py`` is Tölp's. A view a game does
not have is declared ``None`` (Tölp has no focus view: ``render_focus = None``), so that a
renderer states everything and ``tests/unit/test_wiring.py`` can check every registered game's.

- ``render_public(obs, *, names, locale, theme)``: the table's board (PNG bytes);
- ``render_private(obs, *, names, locale, theme)``: a player's own view (None: nothing private);
- ``render_focus(obs, *, names, locale, event_hint, theme)`` or None: the close-up on what changed;
- ``private_key(obs)`` or None: what the private picture depends on (drawn once per change);
- ``describe(view, obs, names, locale)``: the picture in sentences, for its alt text
  (rendering.alt.describe clips and completes them);
- ``describe_private(obs, *, locale)`` or None: the private view in words (the console, DMs);
- ``describe_public(obs, *, names, locale)`` or None: the table in words (the console's status);
- ``render_result(obs, *, names, locale, theme)``: the standings picture at the end;
- ``result_places(public)``: (places, reason key, scores by seat, seats out) of a finished game;
- ``score_text(score, locale)``: a player's result in the game's own terms ("12 points").
"""
from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, Protocol, runtime_checkable

from rendering.standings import Places

Obs = Mapping[str, Any]


@runtime_checkable
class Renderer(Protocol):
    render_public: Callable[..., bytes]
    render_private: Callable[..., bytes | None]
    render_focus: Callable[..., bytes | None] | None
    private_key: Callable[[Obs], Any] | None
    describe: Callable[[str, Obs, Any, str], list[str]]
    describe_private: Callable[..., str] | None
    describe_public: Callable[..., str] | None
    render_result: Callable[..., bytes]
    result_places: Callable[[Obs], Places]
    score_text: Callable[[int, str], str]


MEMBERS: tuple[str, ...] = tuple(Renderer.__annotations__)
# members a renderer may declare None (a view or text the game does not have)
OPTIONAL: frozenset[str] = frozenset({"render_focus", "private_key", "describe_private", "describe_public"})
