"""Registry of games by name: their plugin entries (``bot.engine.plugin.GamePlugin``: engine,
computers by level, renderer, cog, console adapter, reveal hook, rules and catalogs), their engines
and their computer players by level. Each game package registers its plugin entry on import
(``register_plugin``); engines never import their computers. Shared code asks the registry, never
names a game."""
from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Callable, Mapping
from typing import Any

from bot import i18n
from bot.engine.core import Game, Seat
from bot.engine.plugin import GamePlugin
from bot.engine.rng import Rng
from bot.errors import IllegalAction, NotFound

_GAMES: dict[str, Game[Any]] = {}
_PLUGINS: dict[str, GamePlugin] = {}

# A computer player: ``choose(state, seat, legal, rng) -> action``. It decides from what the seat
# may know (its observation and the public log); ``legal`` is the seat's non-empty legal actions;
# ``rng`` is a stream seeded from the game (``computer_rng``), so a replay repeats every decision.
Choose = Callable[[Any, Seat, list[Any], Rng], Any]

LEVELS: tuple[str, ...] = ("easy", "normal", "strong")
DEFAULT_LEVEL = "normal"
_COMPUTERS: dict[tuple[str, str], Choose] = {}

_loaded = False


def register(game: Game[Any]) -> Game[Any]:
    """An engine alone (service and storage tests); a playable game registers a plugin entry."""
    _GAMES[game.name] = game
    return game


def register_plugin(plugin: GamePlugin) -> GamePlugin:
    """A game with everything it brings: its engine, its computers, its catalogs (merged into the
    translations) and the rest of its entry, looked up by ``plugin(name)``."""
    register(plugin.engine)
    register_computers(plugin.name, plugin.computers)
    _PLUGINS[plugin.name] = plugin
    i18n.add_catalog_dir(plugin.locale_dir)
    return plugin


def unregister(name: str) -> None:
    """Forget a game (tests registering one of their own)."""
    _GAMES.pop(name, None)
    plugin_entry = _PLUGINS.pop(name, None)
    for level in LEVELS:
        _COMPUTERS.pop((name, level), None)
    if plugin_entry is not None:
        i18n.remove_catalog_dir(plugin_entry.locale_dir)


def plugin(name: str) -> GamePlugin:
    """The plugin entry of game ``name`` (NotFound for an unknown game or an engine registered
    without one)."""
    entry = _PLUGINS.get(name)
    if entry is None:
        get(name)
        entry = _PLUGINS.get(name)
        if entry is None:
            raise NotFound("error.unknown_game", game=name)
    return entry


def plugins() -> list[GamePlugin]:
    """Every playable game's plugin entry, in display order."""
    return [_PLUGINS[name] for name in names() if name in _PLUGINS]


def renderer(name: str) -> Any:
    """The renderer module of game ``name`` (a rendering.protocol.Renderer)."""
    return importlib.import_module(plugin(name).renderer)


def packages() -> list[str]:
    """The game packages: every package under bot/games (each registers its plugin entry)."""
    import bot.games

    return sorted(module.name for module in pkgutil.iter_modules(bot.games.__path__) if module.ispkg)


def load_all() -> None:
    """Import every game package once (their imports register their plugin entries)."""
    global _loaded
    if _loaded:
        return
    for package in packages():
        try:
            importlib.import_module(f"bot.games.{package}")
        except ModuleNotFoundError as exc:
            if exc.name != f"bot.games.{package}":
                raise
    _loaded = True


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
    """Every registered game: the plugin entries in display order (``GamePlugin.order``, then the
    name), then engines registered without one."""
    load_all()
    listed = sorted(_PLUGINS.values(), key=lambda entry: (entry.order, entry.name))
    return [entry.name for entry in listed] + sorted(set(_GAMES) - set(_PLUGINS))


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
