"""What a finished game's animated replay costs: frames, bytes and time to build it.

``python -m bench.bench_replay`` plays one seeded game per game with computer seats to the end,
then times the replay frames (``bot.services.replay``), the board renders and the animation
(``rendering.animation.animate``) the result message gets, as the bot builds it: at most
``MAX_FRAMES`` evenly spread frames, capped at ``DEFAULT_CAP`` bytes. One repetition: the numbers
are noisy on a shared machine.
"""
from __future__ import annotations

import argparse
import io
import time
from typing import Any

from PIL import Image

from bot.engine import registry
from bot.engine.registry import computer_action
from bot.services.replay import Replay, pick
from rendering.animation import DEFAULT_CAP, MAX_FRAMES, animate

PLAYERS = {"tolp": 4, "zlodej": 3, "stratego": 2, "monopol": 3, "tjuv": 3}
# whole games with the default options (Tölp: five scored rounds instead of the endless default;
# Stratego: a draw after 1000 moves, which two computer players reach)
OPTIONS: dict[str, dict[str, Any]] = {"tolp": {"scoring": "rounds", "rounds": 5}, "stratego": {"max_moves": 1000}}
MAX_MOVES = 20_000


def played(name: str, players: int, seed: str) -> Replay:
    """A game the computer seats played to the end (or to ``MAX_MOVES``)."""
    game = registry.get(name)
    options = game.resolve_options(OPTIONS.get(name, {}))
    state = game.new(players, options, seed)
    moves: list[tuple[int, str]] = []
    for _ in range(MAX_MOVES):
        if game.outcome(state) is not None:
            break
        seat = min(game.to_act(state))
        action = computer_action(game, state, seat)
        game.apply(state, seat, action)
        moves.append((seat, str(action)))
    names = tuple(f"Player {i + 1}" for i in range(players))
    return Replay(0, name, players, options, seed, tuple(moves), True, names)


def measure(name: str, image_format: str) -> dict[str, Any]:
    replay = played(name, PLAYERS[name], f"bench-replay-{name}")
    renderer = __import__(f"rendering.{name}", fromlist=["render_public"])
    started = time.perf_counter()
    frames = list(replay.frames(pick(replay.total, MAX_FRAMES)))
    framed = time.perf_counter()
    pngs = [renderer.render_public({**f.observation, "public": {**f.observation["public"], "now": "2026-01-01T00:00Z"}},
                                   names=list(replay.names), locale="en") for f in frames]
    rendered = time.perf_counter()
    data = animate(pngs, cap_bytes=DEFAULT_CAP, image_format=image_format)
    done = time.perf_counter()
    image = Image.open(io.BytesIO(data))
    return {"game": name, "moves": replay.total, "frames": getattr(image, "n_frames", 1), "size": image.size,
            "bytes": len(data), "frames_s": framed - started, "render_s": rendered - framed,
            "animate_s": done - rendered}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("games", nargs="*", default=list(PLAYERS))
    parser.add_argument("--format", default="GIF", choices=("GIF", "WEBP"))
    args = parser.parse_args()
    registry.load_all()
    print(f"{'game':9} {'moves':>6} {'frames':>6} {'size':>10} {'KiB':>7} {'frames s':>9} {'render s':>9} "
          f"{'animate s':>9}")
    for name in args.games:
        row = measure(name, args.format)
        size = "x".join(str(v) for v in row["size"])
        print(f"{row['game']:9} {row['moves']:>6} {row['frames']:>6} {size:>10} {row['bytes'] / 1024:>7.0f} "
              f"{row['frames_s']:>9.2f} {row['render_s']:>9.2f} {row['animate_s']:>9.2f}")


if __name__ == "__main__":
    main()
