"""The contact sheet: every game's start, middle and end board, focus view, private view and
result, each at 400 px (as a phone shows it), on Discord's dark background and on the light
theme's, written to docs/contact-sheet-dark.png and docs/contact-sheet-light.png.

Run (from the repository root): .venv/bin/python -m bench.contact_sheet
"""
from __future__ import annotations

import importlib
import io
import random
from pathlib import Path
from typing import Any

from PIL import Image

from bot.engine import registry
from rendering.kit import paste_text

PHONE = 400
BACKGROUND = {"dark": (0x31, 0x33, 0x38), "light": (0xFF, 0xFF, 0xFF)}  # Discord's chat, dark and light
INK = {"dark": (242, 243, 245), "light": (30, 31, 34)}
GAMES = {"tolp": 4, "zlodej": 3, "stratego": 2, "monopol": 4, "tjuv": 4}
NAMES = ["BjörnTheGreat_1987_Ødegård_Čech", "Bo", "Cecilia Čermák", "Dan", "Eve"]
OUT = Path(__file__).resolve().parent.parent / "docs"


def _positions(name: str) -> list[tuple[str, Any, Any]]:
    """(label, game, state) at the start, the middle and the end of a seeded random game."""
    game = registry.get(name)
    players = GAMES[name]
    chooser = random.Random(f"sheet/{name}")
    state = game.new(players, game.resolve_options(None, players), "sheet")
    shots = [("start", game, game.load(game.dump(state)))]
    for ply in range(5000):
        if game.outcome(state) is not None or not game.to_act(state):
            break
        seat = chooser.choice(sorted(game.to_act(state)))
        game.apply(state, seat, chooser.choice(list(game.legal_actions(state, seat))))
        if ply == 60:
            shots.append(("middle", game, game.load(game.dump(state))))
    if game.outcome(state) is None:
        game.resign(state, players - 1)
    shots.append(("end", game, state))
    return shots


def _phone(png: bytes) -> Image.Image:
    image = Image.open(io.BytesIO(png)).convert("RGB")
    return image.resize((PHONE, round(image.height * PHONE / image.width)), Image.Resampling.LANCZOS)


def column(name: str, theme: str) -> Image.Image:
    module = importlib.import_module(f"rendering.{name}")
    tiles: list[tuple[str, Image.Image]] = []
    for label, game, state in _positions(name):
        public = game.observe(state, None)
        tiles.append((f"{name} · {label}", _phone(module.render_public(public, names=NAMES, locale="en", theme=theme))))
        if label == "middle":
            if module.render_focus is not None:
                focus = module.render_focus(public, names=NAMES, locale="en", theme=theme)
                if focus:
                    tiles.append((f"{name} · focus", _phone(focus)))
            private = module.render_private(game.observe(state, 0), names=NAMES, locale="en", theme=theme)
            if private:
                tiles.append((f"{name} · private", _phone(private)))
        if label == "end":
            outcome = game.outcome(state)
            stored = {"places": [list(p) for p in outcome.places], "reason": outcome.reason,
                      "scores": {str(k): v for k, v in outcome.scores.items()}}
            tiles.append((f"{name} · result", _phone(module.render_result({**public, "outcome": stored}, names=NAMES,
                                                                           locale="en", theme=theme))))
    height = sum(tile.height + 34 for _, tile in tiles) + 10
    sheet = Image.new("RGB", (PHONE + 20, height), BACKGROUND[theme])
    y = 10
    for label, tile in tiles:
        paste_text(sheet, (10, y), label, 16, bold=True, fill=INK[theme])
        sheet.paste(tile, (10, y + 24))
        y += tile.height + 34
    return sheet


def main() -> None:
    for theme in ("dark", "light"):
        columns = [column(name, theme) for name in GAMES]
        sheet = Image.new("RGB", (sum(c.width for c in columns), max(c.height for c in columns)), BACKGROUND[theme])
        x = 0
        for part in columns:
            sheet.paste(part, (x, 0))
            x += part.width
        path = OUT / f"contact-sheet-{theme}.png"
        sheet.quantize(colors=256, method=Image.Quantize.MEDIANCUT).save(path, optimize=True)
        print(f"{path.relative_to(OUT.parent)}: {sheet.width}×{sheet.height} px, {path.stat().st_size // 1000} KB")


if __name__ == "__main__":
    main()
