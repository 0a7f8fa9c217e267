"""Registry of games by name, and of their computer players by level. Each game package
registers its engine and its computers on import; engines never import their computers."""
from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from typing import Any

from bot.engine.core import Game, Seat
from bot.engine.rng import Rng
from bot.errors import IllegalAction, NotFound

_GAMES: dict[str, Game[Any]] = {}

# A computer player: ``choose(state, seat, legal, rng) -> action``. It decides from what the seat
# may know (its observation and the public log); ``legal`` is the seat's non-empty legal actions;
# ``rng`` is a stream seeded from the game (``computer_rng``), so a replay repeats every decision.
Choose = Callable[[Any, Seat, list[Any], Rng], Any]

LEVELS: tuple[str, ...] = ("easy", "normal", "strong")
DEFAULT_LEVEL = "normal"
_COMPUTERS: dict[tuple[str, str], Choose] = {}

# Game packages loaded by ``load_all`` (order = display order).
GAME_PACKAGES: tuple[str, ...] = ("tolp", "zlodej", "stratego", "monopol", "tjuv")


def register(game: Game[Any]) -> Game[Any]:
    _GAMES[game.name] = game
    return game


def load_all() -> None:
    for package in GAME_PACKAGES:
        try:
            importlib.import_module(f"bot.games.{package}")
        except ModuleNotFoundError as exc:
            if exc.name != f"bot.games.{package}":
                raise


def get(name: str) -> Game[Any]:
    game = _GAMES.get(name)
    if game is not None:  # the hot path: a move looks its game up several times
        return game
    load_all()
    try:
        return _GAMES[name]
    except KeyError:
        raise NotFound("error.unknown_game", game=name) from None


def names() -> list[str]:
    load_all()
    return [p for p in GAME_PACKAGES if p in _GAMES] + sorted(set(_GAMES) - set(GAME_PACKAGES))


def register_computers(game_name: str, levels: Mapping[str, Choose]) -> None:
    """A game's computer players by level. ``easy`` is required; a level the game lacks plays as
    the next weaker one it has (strong as normal, normal as easy)."""
    unknown = sorted(set(levels) - set(LEVELS))
    if unknown or "easy" not in levels:
        raise ValueError(f"computer levels of {game_name}: need easy, unknown {unknown}")
    weaker = levels["easy"]
    for level in LEVELS:
        weaker = levels.get(level, weaker)
        _COMPUTERS[(game_name, level)] = weaker


def computer(game_name: str, level: str) -> Choose:
    """The computer player of ``game_name`` at ``level`` (one of ``LEVELS``)."""
    if level not in LEVELS:
        raise NotFound("error.unknown_level", level=level, levels=", ".join(LEVELS))
    choose = _COMPUTERS.get((game_name, level))
    if choose is None:
        get(game_name)  # loads the game package, which registers its computers (or raises NotFound)
        choose = _COMPUTERS.get((game_name, level), first_legal)
    return choose


def first_legal(state: Any, seat: Seat, legal: list[Any], rng: Rng) -> Any:
    """The computer of a game that registered none: its first legal action."""
    return legal[0]


def computer_rng(seed: str, ply: int, seat: Seat) -> Rng:
    """The stream a computer seat decides with at ``ply`` of the game seeded ``seed``: the same
    at every replay, independent of the game's own dice and shuffles (a different sha256 input)."""
    return Rng(f"{seed}/computer/{ply}/{seat}")


def computer_action(game: Game[Any], state: Any, seat: Seat, level: str = "easy", rng: Rng | None = None) -> Any:
    """The computer's action for ``seat`` now (tests, benchmarks and the console's playouts)."""
    legal = list(game.legal_actions(state, seat))
    if not legal:
        raise IllegalAction("error.no_legal_action")
    return computer(game.name, level)(state, seat, legal, rng or Rng(f"computer/{game.name}/{seat}"))
