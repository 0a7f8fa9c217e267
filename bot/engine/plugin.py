"""A game as one plugin entry (DESIGN §2): everything the shared code needs to know about a game,
in one place, so that adding a game touches its own package and this entry only.

A game package builds one ``GamePlugin`` and hands it to ``bot.engine.registry.register_plugin``::

    PLUGIN = register_plugin(GamePlugin(
        engine=TolpGame(),                          # the rules (bot.engine.core.Game)
        computers={"easy": computer.choose, ...},   # computer players by level ("easy" required)
        renderer="rendering.tolp",                  # a module implementing rendering.protocol.Renderer
        cog="cogs.tolp",                            # the Discord extension with the game's commands
        home=Path(__file__).parent,                 # rules/<lang>.md, rules/<lang>.keywords.txt, locale/
        console=ConsoleAdapter(seat_verbs=frozenset({"steal"})),
        reveal=None, hidden=hand_items))

Modules are named, not imported, so that the engine side never loads Pillow or discord: render
workers import ``renderer`` themselves and the Discord application loads ``cog`` as an extension.
"""
from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bot.engine.core import Game, Seat
from bot.engine.rng import Rng

# A computer player: ``choose(state, seat, legal, rng) -> action`` (see bot.engine.registry).
Choose = Callable[[Any, Seat, list[Any], Rng], Any]
Private = Mapping[str, Any] | None
# Folds what every seat kept hidden into the public view, where the board can draw it (an ended
# game's replay: a finished Stratego shows every rank).
Reveal = Callable[[dict[str, Any], Sequence[Private]], dict[str, Any]]
# What a seat kept hidden that the board does not show, as short tokens ("7D", "B4 3000").
Hidden = Callable[[Private], list[str]]
# Typed words of a console move -> the engine's words (None: not this game's business).
Words = Callable[[list[str]], list[str] | None]


def _nothing(words: list[str]) -> list[str] | None:
    return None


@dataclass(frozen=True)
class ConsoleAdapter:
    """How console players type this game's moves. ``seat_verbs``: the moves whose second word is
    a seat (``steal 2 7D``), typed as the board's number or a name and counted from 0 by the
    engine. ``to_engine``/``to_board``: the game's own rewriting of the typed words (a Monopol
    deed by its name), tried first; None leaves the words to the seat rewriting."""

    seat_verbs: frozenset[str] = frozenset()
    to_engine: Words = _nothing
    to_board: Words = _nothing


def no_hidden(private: Private) -> list[str]:
    return []


def hand_items(private: Private) -> list[str]:
    """A hand of cards (``private["hand"]``, canonical card texts)."""
    return [str(card) for card in (private or {}).get("hand") or []]


@dataclass(frozen=True)
class GamePlugin:
    engine: Game[Any]
    computers: Mapping[str, Choose]
    renderer: str  # module path of the game's rendering.protocol.Renderer
    cog: str | None  # the Discord extension module (None: the game has no commands of its own)
    home: Path  # the package folder: rules/<lang>.md, rules/<lang>.keywords.txt, locale/<lang>.json
    console: ConsoleAdapter = field(default_factory=ConsoleAdapter)
    reveal: Reveal | None = None
    hidden: Hidden = no_hidden
    order: int = 100  # where the game stands in lists (/game new's choices, the console's menu)

    @property
    def name(self) -> str:
        return self.engine.name

    @property
    def rules_dir(self) -> Path:
        return self.home / "rules"

    @property
    def locale_dir(self) -> Path:
        return self.home / "locale"
