"""``gamemaster replay FILE``: verify a game exported with ``/game export`` and draw it locally.

The moves are replayed from the seed with the pure engine; the result and the final state must be
the ones the file states. Then the final board is drawn (the public view: the game is over, so it
shows everything the game reveals at its end) and an animated GIF of the whole game: the board
after each move in force (at most ``MAX_FRAMES`` of them, evenly spread), everything revealed as
in ``/game replay`` of an ended game. Exit codes: 0 verified, 1 the replay does not match the file, 2 the file
cannot be read as an export, or its pictures cannot be written."""
from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

from bot.engine import registry
from bot.i18n import t
from bot.services.export import ExportProblem, Verified, verify
from bot.services.luck import lines, luck
from bot.services.movelog import in_force
from bot.services.replay import Replay, frames, pick
from rendering.animation import MAX_FRAMES, animate_boards

MALFORMED = ("export.file.not_json", "export.file.malformed", "export.file.version", "export.file.engine_format")


def replay_file(path: Path, out: Path | None, locale: str) -> int:
    try:
        raw = path.read_bytes()
    except OSError as exc:
        print(t("export.file.unreadable", locale, path=path, detail=exc.strerror or str(exc)), file=sys.stderr)
        return 2
    try:
        verified = verify(raw)
    except ExportProblem as problem:
        print(t("export.cli.failed", locale, path=path, problem=t(problem.key, locale, **problem.params)),
              file=sys.stderr)
        return 2 if problem.key in MALFORMED else 1
    data = verified.data
    print(t("export.cli.verified", locale, path=path, game=t(f"game.name.{data['game']}", locale),
            id=data.get("id", "?"), moves=len(data["moves"]), players=", ".join(verified.names)))
    report = luck(Replay(int(data.get("id") or 0), data["game"], len(verified.names), data["options"], data["seed"],
                         tuple(_moves(data)), True, tuple(verified.names)))
    if report is not None:  # the same luck report as /game luck, replayed here from the seed
        print("\n".join(lines(report, verified.names, locale)))
    folder = out or path.parent
    final, animated = folder / f"{path.stem}-final.png", folder / f"{path.stem}.gif"
    try:
        folder.mkdir(parents=True, exist_ok=True)
        final.write_bytes(final_board(verified, locale))
        print(t("export.cli.wrote", locale, path=final))
        animated.write_bytes(animation(verified, locale))
        print(t("export.cli.wrote", locale, path=animated))
    except OSError as exc:
        print(t("export.cli.unwritable", locale, path=exc.filename or folder, detail=exc.strerror or str(exc)),
              file=sys.stderr)
        return 2
    return 0


def _public(verified: Verified, state: Any) -> dict[str, Any]:
    return _dated(verified, verified.game.observe(state, None))


def _dated(verified: Verified, obs: dict[str, Any]) -> dict[str, Any]:
    moves = verified.data["moves"]
    when = str(moves[-1].get("at", ""))[:16] + "Z" if moves and moves[-1].get("at") else ""
    # renderers never read a clock: the time they may show is the game's last move
    return {**obs, "public": {**obs["public"], "now": when}}


def final_board(verified: Verified, locale: str) -> bytes:
    renderer = registry.renderer(verified.data["game"])
    data: bytes = renderer.render_public(_public(verified, verified.state), names=verified.names, locale=locale)
    return data


def _moves(data: dict[str, Any]) -> list[tuple[int, str]]:
    """The file's moves in force (those an undo took back left out)."""
    return in_force([(m["seat"], m["action"]) for m in data["moves"]])


def animation(verified: Verified, locale: str) -> bytes:
    data = verified.data
    moves = _moves(data)
    shown = frames(verified.game, len(verified.names), data["options"], data["seed"], moves, reveal=True,
                   numbers=pick(len(moves), MAX_FRAMES))
    return animate_boards(registry.plugin(data["game"]).renderer, [_dated(verified, f.observation) for f in shown],
                          names=verified.names, locale=locale)
