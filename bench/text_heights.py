"""Text heights at 400 px (a phone), per game, view and theme: for the pictures of the contact
sheet (bench/contact_sheet.py: each game's start, middle and end board, focus view, private view
and result, five players' names with a 32-character one), the kit's text recording gives every
text drawn and its type size; shown at 400 px wide that is ``size × 400 / picture width``.

Columns: the smallest text of the picture (and what it says), the smallest text of its shared
header (game and round, who acts, what just happened), and the smallest player name. The bar
for what a player needs to act is 9 px (docs/architecture.md, "Readable on a phone"); the Monopol
board's street names and the Tjuv och Polis map's coordinates are under it by design (their focus
views carry them). A focus view enlarges the board's cached layers: only the texts it draws itself
are counted there (the layers' texts, enlarged, are bigger than on the board). "JOKER" is the word
on the joker's card face, told by its picture (ranks are held to 9 px by tests/unit/test_legibility.py).

Run (from the repository root): .venv/bin/python -m bench.text_heights   (markdown on stdout)
"""
from __future__ import annotations

import importlib
import io
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from functools import partial
from typing import Any

from PIL import Image

from bench.contact_sheet import GAMES, NAMES, _positions
from rendering.fonts import DrawnText, recording

PHONE = 400
BAR = 9.0


def at_phone(size: float, width: int) -> float:
    return size * PHONE / width


@contextmanager
def headers_noted(module: Any, into: list[DrawnText]) -> Iterator[None]:
    """Collect the texts the module's shared header draws (its ``draw_header``) into ``into``."""
    original = getattr(module, "draw_header", None)
    if original is None:
        yield
        return

    def noted(*args: Any, **kwargs: Any) -> Any:
        with recording() as inner:
            result = original(*args, **kwargs)
        into.extend(inner)
        return result

    module.draw_header = noted
    try:
        yield
    finally:
        module.draw_header = original


def is_name(text: str) -> bool:
    """A player's name, whole or a line of it (a long name takes lines of its own)."""
    bare = text.replace("\u00a0", " ").strip(" #0123456789·:").strip()
    return len(bare) >= 2 and any(bare in name or name in text for name in NAMES)


def cold() -> None:
    """Forget every cached layer and text image of the renderers, so that a picture records the
    static layers it is drawn on too (a board shows them at their drawn size)."""
    for module in list(sys.modules.values()):
        if getattr(module, "__name__", "").startswith("rendering."):
            for value in list(vars(module).values()):
                if callable(getattr(value, "cache_clear", None)):
                    value.cache_clear()


def measure(module: Any, draw: Callable[[], bytes | None], *, warm: bool = False) -> dict[str, Any] | None:
    """The picture's text heights at 400 px. ``warm``: draw it once first, so that the cached
    static layers are left out (a focus view enlarges them: their drawn size is not the shown one)."""
    cold()
    if warm:
        draw()
    header: list[DrawnText] = []
    with headers_noted(module, header), recording() as drawn:
        png = draw()
    if not png:
        return None
    width = Image.open(io.BytesIO(png)).width
    drawn = [*drawn, *header]
    texts = [d for d in drawn if d.text.strip()]
    smallest = min(texts, key=lambda d: d.size)
    names = [d for d in texts if is_name(d.text)]
    return {"width": width, "min": at_phone(smallest.size, width), "min_text": smallest.text,
            "header": min((at_phone(d.size, width) for d in header if d.text.strip()), default=None),
            "name": min((at_phone(d.size, width) for d in names), default=None)}


def rows(name: str, theme: str) -> Iterator[tuple[str, dict[str, Any]]]:
    module = importlib.import_module(f"rendering.{name}")
    for label, game, state in _positions(name):
        public = game.observe(state, None)
        found = measure(module, partial(module.render_public, public, names=NAMES, locale="en", theme=theme))
        if found:
            yield f"board, {label}", found
        if label == "middle":
            if hasattr(module, "render_focus"):
                found = measure(module, partial(module.render_focus, public, names=NAMES, locale="en", theme=theme),
                                warm=True)
                if found:
                    yield "focus", found
            private = game.observe(state, 0)
            found = measure(module, partial(module.render_private, private, names=NAMES, locale="en", theme=theme))
            if found:
                yield "private", found
        if label == "end":
            outcome = game.outcome(state)
            stored = {"places": [list(p) for p in outcome.places], "reason": outcome.reason,
                      "scores": {str(k): v for k, v in outcome.scores.items()}}
            result = {**public, "outcome": stored}
            found = measure(module, partial(module.render_result, result, names=NAMES, locale="en", theme=theme))
            if found:
                yield "result", found


def px(value: float | None) -> str:
    return "—" if value is None else f"{value:.1f}"


def pair(dark: dict[str, Any], light: dict[str, Any], key: str) -> str:
    a, b = px(dark[key]), px(light[key])
    return a if a == b else f"{a} / {b}"


def main() -> None:
    print("| game | view | width px | min text px (what) | header min px | name min px |")
    print("|---|---|---|---|---|---|")
    under: list[str] = []
    for name in GAMES:
        dark, light = list(rows(name, "dark")), list(rows(name, "light"))
        for (view, a), (_, b) in zip(dark, light, strict=True):
            what = a["min_text"].replace("|", "/")[:24]
            print(f"| {name} | {view} | {a['width']} | {pair(a, b, 'min')} ({what}) | {pair(a, b, 'header')} | "
                  f"{pair(a, b, 'name')} |", flush=True)
            for theme, found in (("dark", a), ("light", b)):
                for key in ("header", "name"):
                    if found[key] is not None and found[key] < BAR:
                        under.append(f"{name} {view} ({theme}): {key} {found[key]:.1f} px")
    print()
    print("Each cell: dark theme / light theme where they differ. Headers and names under 9 px: "
          + ("; ".join(under) if under else "none") + ".")


if __name__ == "__main__":
    main()
