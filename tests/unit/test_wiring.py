"""Every registered game is wired everywhere (its plugin entry, bot/engine/plugin.py): the engine
passes the conformance suite, a computer plays at every level, the renderer has every view of the
protocol (rendering/protocol.py) and draws real pictures, the cog is an extension whose commands
speak every language, the console adapter turns its moves into board texts and back, the reveal and
hidden hooks answer, the rules text and its keywords exist in every language, and the catalogs
name the game. A half-registered game fails here, whatever it forgot (the last tests)."""
from __future__ import annotations

import importlib
import inspect
import io
import types
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from discord import app_commands
from discord.ext import commands
from PIL import Image

from bot.console.seats import to_board, to_engine
from bot.engine import registry
from bot.engine.core import Game
from bot.engine.plugin import ConsoleAdapter, GamePlugin
from bot.engine.rng import Rng
from bot.i18n import LANGUAGES, catalog
from bot.services.rules import parse_keywords, parse_rules
from cogs.audit import _walk
from rendering import alt
from rendering.protocol import MEMBERS, OPTIONAL, Renderer
from tests import toygame
from tests.engines import test_conformance as conformance

registry.load_all()
NAMES = ("Ann", "Bo", "Cy", "Di", "Ed", "Flo", "Gus", "Hal", "Ida", "Jo")


def picture(data: Any) -> Image.Image:
    assert isinstance(data, bytes), type(data)
    image = Image.open(io.BytesIO(data))
    image.load()
    return image


def start(plugin: GamePlugin) -> tuple[Game[Any], Any]:
    game = plugin.engine
    return game, game.new(game.min_players, game.resolve_options(game.playout_options), "wiring")


def engine_problems(plugin: GamePlugin) -> list[str]:
    game = plugin.engine
    if not isinstance(game, Game) or not game.name.isidentifier() or game.name != game.name.lower():
        return [f"engine: {game!r} is not a Game with a lowercase name"]
    problems = []
    if registry.get(game.name) is not game:
        problems.append("engine: not the registered engine")
    if game.name not in conformance.GAMES:
        problems.append("engine: not in the conformance suite (tests/engines/test_conformance.py)")
    return problems


def computer_problems(plugin: GamePlugin) -> list[str]:
    if "easy" not in plugin.computers:
        return ["computers: no easy level"]
    game, state = start(plugin)
    problems = []
    for level in registry.LEVELS:
        choose = registry.computer(plugin.name, level)
        seat = min(game.to_act(state))
        legal = list(game.legal_actions(state, seat))
        action = choose(game.copy(state), seat, legal, Rng(f"wiring/{level}"))
        if not game.is_legal(state, seat, action):
            problems.append(f"computers: {level} chose {action!r}, not a legal action")
    return problems


def renderer_problems(plugin: GamePlugin) -> list[str]:
    try:
        module = importlib.import_module(plugin.renderer)
    except ImportError as exc:
        return [f"renderer: {plugin.renderer} does not import ({exc})"]
    missing = [name for name in MEMBERS if not hasattr(module, name)]
    if missing or not isinstance(module, Renderer):
        return [f"renderer: {plugin.renderer} lacks {', '.join(missing)} (declare a view it has not as None)"]
    problems = [f"renderer: {name} is None" for name in MEMBERS
                if name not in OPTIONAL and getattr(module, name) is None]
    if problems:
        return problems
    game, state = start(plugin)
    public, private = game.observe(state, None), game.observe(state, min(game.to_act(state)))
    names = NAMES[:game.min_players]
    picture(module.render_public(public, names=names, locale="cs", theme="light"))
    drawn = module.render_private(private, names=names, locale="sv", theme="dark")
    if drawn is not None:
        picture(drawn)
    if module.render_focus is not None:
        focus = module.render_focus(public, names=names, locale="nb", event_hint=None, theme="dark")
        if focus is not None:
            picture(focus)
    for view, obs in (("public", public), ("private", private), ("focus", public)):
        text = alt.describe(plugin.name, view, obs, names=names, locale="cs")
        if not 0 < len(text) <= alt.LIMIT:
            problems.append(f"renderer: the {view} alt text is {len(text)} characters")
    for name in ("render_result", "result_places", "score_text"):
        if not callable(getattr(module, name)):
            problems.append(f"renderer: {name} is not callable")
    keywords = set(inspect.signature(module.render_result).parameters)
    if not {"names", "locale", "theme"} <= keywords:
        problems.append("renderer: render_result does not take names, locale and theme")
    return problems


def cog_problems(plugin: GamePlugin) -> list[str]:
    if plugin.cog is None:
        return []
    try:
        module = importlib.import_module(plugin.cog)
    except ImportError as exc:
        return [f"cog: {plugin.cog} does not import ({exc})"]
    if not inspect.iscoroutinefunction(getattr(module, "setup", None)):
        return [f"cog: {plugin.cog} has no async setup(bot): not an extension"]
    cogs = [value for value in vars(module).values()
            if isinstance(value, type) and issubclass(value, commands.Cog) and value.__module__ == module.__name__]
    texts = [text for cog in cogs for command in cog.__cog_app_commands__ for text in _walk(command)]
    if not texts:
        return [f"cog: {plugin.cog} declares no slash command"]
    groups = [c.name for cog in cogs for c in cog.__cog_app_commands__ if isinstance(c, app_commands.Group)]
    problems = [] if plugin.name in groups else [f"cog: no /{plugin.name} command group"]
    for lang in LANGUAGES[1:]:
        lacking = [text for text in texts if f"cmd.{text}" not in catalog(lang)]
        if lacking:
            problems.append(f"cog: command texts without a {lang} translation: {lacking[:3]}")
    return problems


def console_problems(plugin: GamePlugin) -> list[str]:
    if not isinstance(plugin.console, ConsoleAdapter):
        return ["console: not a ConsoleAdapter"]
    game, state = start(plugin)
    names = NAMES[:game.min_players]
    problems = []
    for seat in sorted(game.to_act(state)):
        for action in list(game.legal_actions(state, seat))[:50]:
            text = str(action)
            if to_engine(plugin.name, to_board(plugin.name, text), names) != text:
                problems.append(f"console: {text!r} does not come back from the board's words")
    return problems


def hook_problems(plugin: GamePlugin) -> list[str]:
    game, state = start(plugin)
    public = game.observe(state, None)["public"]
    privates = [game.observe(state, seat)["private"] for seat in range(game.min_players)]
    problems = []
    if plugin.reveal is not None and not isinstance(plugin.reveal(public, privates), dict):
        problems.append("reveal: does not give a public view")
    for private in privates:
        items = plugin.hidden(private)
        if not (isinstance(items, list) and all(isinstance(item, str) for item in items)):
            problems.append("hidden: does not give a list of texts")
    return problems


def rules_problems(plugin: GamePlugin) -> list[str]:
    problems = []
    topics: dict[str, set[str]] = {}
    for lang in LANGUAGES:
        text, words = plugin.rules_dir / f"{lang}.md", plugin.rules_dir / f"{lang}.keywords.txt"
        if not text.exists() or not words.exists():
            problems.append(f"rules: {lang}.md or {lang}.keywords.txt missing in {plugin.rules_dir}")
            continue
        sections = parse_rules(plugin.name, lang, text.read_text(encoding="utf-8"))
        topics[lang] = {s.topic for s in sections}
        if not sections:
            problems.append(f"rules: {lang}.md has no ## topic | Title section")
        unknown = set(parse_keywords(words.read_text(encoding="utf-8"))) - topics[lang]
        if unknown:
            problems.append(f"rules: {lang}.keywords.txt names topics the text lacks: {sorted(unknown)}")
    if len({frozenset(t) for t in topics.values()}) > 1:
        problems.append("rules: the languages' texts have different topics")
    if set(plugin.engine.rules_languages) != set(topics):
        problems.append(f"rules: rules_languages {plugin.engine.rules_languages} but texts in {sorted(topics)}")
    return problems


def catalog_problems(plugin: GamePlugin) -> list[str]:
    problems = []
    for lang in LANGUAGES:
        if not (plugin.locale_dir / f"{lang}.json").exists():
            problems.append(f"catalogs: {plugin.locale_dir}/{lang}.json missing")
        if f"game.name.{plugin.name}" not in catalog(lang):
            problems.append(f"catalogs: game.name.{plugin.name} has no {lang} text")
    for spec in plugin.engine.options:
        if spec.description_key and spec.description_key not in catalog("en"):
            problems.append(f"catalogs: option {spec.name}'s {spec.description_key} has no text")
    return problems


def layout_problems(plugin: GamePlugin) -> list[str]:
    """A game package under bot/games has one layout: the Game subclass in engine.py with observe,
    legal_actions and parse_action there, the action parser ``actions.parse_action``, data files
    under data/ (texts under locale/ and rules/)."""
    package = type(plugin.engine).__module__.rsplit(".", 1)[0]
    if not package.startswith("bot.games."):
        return []
    problems = []
    for method in ("observe", "legal_actions", "parse_action", "apply"):
        if getattr(type(plugin.engine), method).__module__ != f"{package}.engine":
            problems.append(f"layout: {method} is not defined in {package}.engine")
    try:
        actions = importlib.import_module(f"{package}.actions")
    except ImportError:
        actions = None
    if actions is None or not callable(getattr(actions, "parse_action", None)):
        problems.append(f"layout: {package}.actions has no parse_action")
    strays = [p.name for p in plugin.home.glob("*.json")]
    if strays:
        problems.append(f"layout: data files outside data/: {strays}")
    return problems


CHECKS = (layout_problems, engine_problems, computer_problems, renderer_problems, cog_problems, console_problems,
          hook_problems, rules_problems, catalog_problems)


def wiring_problems(plugin: GamePlugin) -> list[str]:
    return [problem for check in CHECKS for problem in check(plugin)]


@pytest.fixture
def toy() -> Iterator[GamePlugin]:
    plugin = toygame.register()
    conformance.GAMES.append(plugin.name)
    yield plugin
    conformance.GAMES.remove(plugin.name)
    registry.unregister(plugin.name)


@pytest.mark.parametrize("name", registry.names())
def test_every_registered_game_is_wired_everywhere(name: str) -> None:
    assert wiring_problems(registry.plugin(name)) == []


def test_the_toy_game_is_wired_everywhere_and_passes_the_conformance_suite(toy: GamePlugin) -> None:
    assert wiring_problems(toy) == []
    conformance.test_random_playout_finishes_and_replays("toy", 3)
    conformance.test_dump_load_round_trip_and_json("toy")
    conformance.test_illegal_actions_change_nothing("toy")
    conformance.test_observations_leak_nothing_hidden("toy")
    conformance.test_computer_players_finish_a_seeded_game_without_an_illegal_move("toy")


def _lacking(**members: Any) -> str:
    """A renderer module named in sys.modules with only ``members``."""
    import sys
    module = types.ModuleType("tests.unit.half_renderer")
    for name, value in members.items():
        setattr(module, name, value)
    sys.modules[module.__name__] = module
    return module.__name__


@pytest.mark.parametrize("half", ["no focus declared", "no cog", "cog without commands", "rules in English only",
                                  "no catalogs", "no renderer", "not in the conformance suite"])
def test_a_half_registered_game_fails_the_wiring_check(toy: GamePlugin, half: str, tmp_path: Path) -> None:
    import tests.toygame.render as toy_render
    broken = {
        "no focus declared": lambda: replace(toy, renderer=_lacking(**{n: getattr(toy_render, n) for n in MEMBERS
                                                                       if n != "render_focus"})),
        "no cog": lambda: replace(toy, cog="tests.toygame.no_such_cog"),
        "cog without commands": lambda: replace(toy, cog="tests.toygame.render"),
        "rules in English only": lambda: replace(toy, home=_home(tmp_path, toy.home, ["en"])),
        "no catalogs": lambda: replace(toy, home=_home(tmp_path, toy.home, list(LANGUAGES), locale=False)),
        "no renderer": lambda: replace(toy, renderer="tests.toygame.no_such_renderer"),
        "not in the conformance suite": lambda: (conformance.GAMES.remove("toy"), toy)[1],
    }[half]()
    try:
        assert wiring_problems(broken) != []
    finally:
        if "toy" not in conformance.GAMES:
            conformance.GAMES.append("toy")


def _home(tmp_path: Path, home: Path, languages: list[str], locale: bool = True) -> Path:
    """A copy of the toy's package folder with the rules of ``languages`` only (and no catalogs)."""
    (tmp_path / "rules").mkdir()
    for lang in languages:
        for suffix in (".md", ".keywords.txt"):
            (tmp_path / "rules" / f"{lang}{suffix}").write_text((home / "rules" / f"{lang}{suffix}").read_text("utf-8"),
                                                              "utf-8")
    if locale:
        (tmp_path / "locale").mkdir()
    return tmp_path
