"""Computer players by level: the registry maps (game, level) to a ``choose`` function, engines
do not know their computers, and a decision depends only on the position and the game's stream."""
from __future__ import annotations

import ast
from pathlib import Path

import pytest

from bot.engine import registry
from bot.engine.rng import Rng
from bot.errors import NotFound

GAMES = registry.names()


@pytest.mark.parametrize("name", GAMES)
@pytest.mark.parametrize("level", registry.LEVELS)
def test_every_game_has_a_computer_at_every_level(name: str, level: str) -> None:
    assert callable(registry.computer(name, level))


def test_an_unknown_level_is_refused_by_name() -> None:
    with pytest.raises(NotFound) as caught:
        registry.computer("tolp", "grandmaster")
    assert caught.value.key == "error.unknown_level"


def test_a_level_a_game_lacks_plays_as_the_next_weaker_one() -> None:
    def easy(state: object, seat: int, legal: list[object], rng: Rng) -> object:
        return legal[0]

    def strong(state: object, seat: int, legal: list[object], rng: Rng) -> object:
        return legal[-1]

    registry.register_computers("toy-levels", {"easy": easy, "strong": strong})
    assert registry.computer("toy-levels", "normal") is easy
    assert registry.computer("toy-levels", "strong") is strong
    with pytest.raises(ValueError):
        registry.register_computers("toy-levels", {"normal": easy})


def test_the_computer_stream_is_the_same_at_every_replay_and_differs_by_ply_and_seat() -> None:
    first = registry.computer_rng("seed", 7, 1)
    draws = [first.randint(0, 10**9) for _ in range(3)]
    assert [registry.computer_rng("seed", 7, 1).randint(0, 10**9) for _ in range(1)] == draws[:1]
    assert registry.computer_rng("seed", 8, 1).randint(0, 10**9) != draws[0]
    assert registry.computer_rng("seed", 7, 2).randint(0, 10**9) != draws[0]
    assert Rng("seed").randint(0, 10**9) != draws[0]  # not the game's own dice


@pytest.mark.parametrize("name", GAMES)
def test_no_engine_imports_its_computer(name: str) -> None:
    root = Path(__file__).resolve().parents[2] / "bot" / "games" / name
    for path in root.glob("*.py"):
        if path.name in ("__init__.py",) or path.stem.startswith("computer"):
            continue
        tree = ast.parse(path.read_text())
        for node in ast.walk(tree):
            names: list[str] = []
            if isinstance(node, ast.ImportFrom):
                names = [node.module or "", *(a.name for a in node.names)]
            elif isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            assert not any(n.split(".")[-1].startswith("computer") for n in names), (path.name, names)
