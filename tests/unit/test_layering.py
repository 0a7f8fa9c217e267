"""Arrows point down: the core (bot/) never imports its Discord adapters (cogs/), nothing below the
adapters imports discord, and no module imports itself through others (no import circle).

Walks every module's ast, imports inside functions and under ``TYPE_CHECKING`` included: a circle
dodged by a late import is still a circle."""
from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("bot", "cogs", "rendering")
NO_DISCORD = ("bot.engine", "bot.games", "bot.services", "bot.storage", "rendering")
# the runner builds the services and hands them to the Discord application: the one module of the
# core that knows its adapters (and discord.py's start-up errors)
WIRING = "bot.runner"


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def modules() -> dict[str, Path]:
    found = {}
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            found[module_name(path)] = path
    return found


def imported(name: str, path: Path, known: dict[str, Path]) -> Iterator[tuple[str, int]]:
    """Every module ``name`` imports (absolute names), with the line. ``from package import module``
    imports that module (the package itself is only being initialised)."""
    tree = ast.parse(path.read_text(), str(path))
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield alias.name, node.lineno
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[:len(base) - node.level + 1]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            submodules = [f"{target}.{alias.name}" for alias in node.names if f"{target}.{alias.name}" in known]
            for module in submodules or [target]:
                yield module, node.lineno


def within(name: str, prefix: str) -> bool:
    return name == prefix or name.startswith(prefix + ".")


def graph() -> dict[str, set[str]]:
    known = modules()
    edges: dict[str, set[str]] = {}
    for name, path in known.items():
        targets = set()
        for target, _ in imported(name, path, known):
            if target in known and target != name:
                targets.add(target)
        edges[name] = targets
    return edges


def test_the_core_never_imports_the_discord_adapters() -> None:
    known = modules()
    upward = [f"{name}:{line} imports {target}" for name, path in known.items()
              if within(name, "bot") and name != WIRING
              for target, line in imported(name, path, known) if within(target, "cogs")]
    assert upward == []


def test_discord_is_imported_only_by_the_adapters_and_the_runner() -> None:
    known = modules()
    below = [f"{name}:{line} imports {target}" for name, path in known.items()
             if any(within(name, layer) for layer in NO_DISCORD) or (within(name, "bot") and name != WIRING)
             for target, line in imported(name, path, known) if within(target, "discord")]
    assert below == []


def circles(edges: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components with more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for target in sorted(edges.get(node, ())):
            if target not in index:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in on_stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            component = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.append(member)
                if member == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for node in sorted(edges):
        if node not in index:
            visit(node)
    return found


def test_no_module_imports_itself_through_others() -> None:
    edges = graph()
    # a package importing its own submodules is no circle unless a submodule imports the package back
    assert circles(edges) == []


def test_the_walk_finds_a_circle_when_there_is_one() -> None:
    assert circles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert circles({"a": {"b"}, "b": set()}) == []
