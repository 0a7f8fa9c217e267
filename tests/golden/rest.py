"""The REST log of seeded whole games through the fake Discord: what the bot asks of Discord, move
by move, kept as a golden file so that a reshaping of the code can show it changed nothing a player
sees (``tests/discord/test_rest_golden.py`` compares).

Each game is played by the real bot against the loopback fake Discord on a real SQLite file, the
seed fixed and the service's clock a stepped one, one player action at a time (a slash command,
or the board's button where it has one for the move), every task the action started settled
before the next. The log is one list per action: the requests the bot sent for it (method, route
with ids as ``ID``, JSON body, each file's name and decoded picture size). Within one action the
reply and the announcer's posts, edits and DMs run concurrently, so their order is timing and a
step's requests are compared as a sorted list (the multiset); the steps keep their order. A
request Discord refused with 429 (the rate limits, timing again) is left out: discord.py retries
it, and the retry is in the log.

    python -m tests.golden.rest record    # play every game and write tests/golden/rest-<game>.json
    python -m tests.golden.rest compare   # play them and name the games whose log differs
"""
from __future__ import annotations

import asyncio
import io
import json
import re
import sys
import tempfile
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from PIL import Image

from bot.engine import registry
from bot.services.computers import decide_now
from bot.services.table import GameService
from bot.settings import Settings
from bot.storage.db import Database
from cogs.app import GameMasterApp
from tests.fakediscord import FakeDiscord, settle

HERE = Path(__file__).resolve().parent
START = datetime(2026, 1, 5, 12, 0, tzinfo=UTC)
SNOWFLAKE = re.compile(r"\d{17,20}")
SETTLE = 120.0  # seconds a step may take on a loaded machine (settle waits for tasks; no sleep)
MAX_STEPS = 400

Log = list[list[dict[str, Any]]]


def tolp_command(action: str) -> tuple[str, dict[str, object]]:
    verb, _, rest = action.partition(" ")
    options: dict[str, object] = {"pass": {}, "high": {}, "play": {"cards": rest}, "give": {"cards": rest},
                                  "ask": {"rank": rest}, "claim": {"ranks": rest}}[verb]
    return f"tolp {verb}", options


# label: (game, humans, computers, /game new options, the command making an action)
GAMES: dict[str, tuple[str, int, int, str, Callable[[str], tuple[str, dict[str, object]]]]] = {
    "tolp-4": ("tolp", 4, 0, "scoring=rounds rounds=1", tolp_command),
    "tolp-cpu": ("tolp", 2, 2, "scoring=rounds rounds=1", tolp_command),
}
BUTTONS = {"pass": "Pass"}  # moves the board's button makes (the rest by slash command)


def golden_path(label: str) -> Path:
    return HERE / f"rest-{label}.json"


def without_ids(value: Any) -> Any:
    """Snowflakes (the fake's ids come from the clock and the order of concurrent requests) as ID."""
    if isinstance(value, str):
        return SNOWFLAKE.sub("ID", value)
    if isinstance(value, int) and not isinstance(value, bool) and len(str(value)) >= 17:
        return "ID"
    if isinstance(value, list | tuple):
        return [without_ids(v) for v in value]
    if isinstance(value, dict):
        return {without_ids(k): without_ids(v) for k, v in value.items()}
    return value


def picture(data: bytes) -> list[int] | None:
    """A file's picture size, decoded (None: not a picture)."""
    try:
        with Image.open(io.BytesIO(data)) as image:
            image.load()
            return list(image.size)
    except Exception:  # noqa: BLE001 - any file that is not an image
        return None


def normalized(requests: list[Any]) -> list[dict[str, Any]]:
    out = [{"method": r.method, "route": without_ids(r.route), "json": without_ids(r.json),
            "files": [{"filename": f.filename, "picture": picture(f.data)} for f in r.files]}
           for r in requests if r.status != 429]
    return sorted(out, key=lambda item: json.dumps(item, sort_keys=True))


class Clock:
    """The service's clock: fixed, stepped by the script."""

    def __init__(self) -> None:
        self.now = START

    def __call__(self) -> datetime:
        return self.now


def _button(fake: FakeDiscord, action: str) -> Any:
    """The latest public board, when it carries the button that makes ``action``."""
    label = BUTTONS.get(action)
    board = fake.last_message_with_components(include_ephemeral=False)
    if label is None or board is None:
        return None
    try:
        board.component(label=label)
    except LookupError:
        return None
    return board


async def play(label: str) -> Log:
    """Play game ``label`` of ``GAMES`` through the fake Discord: its REST log, step by step."""
    import bot.services.lobby as lobby

    game, humans, computers, options, command_of = GAMES[label]
    seed_of = lobby.new_seed
    lobby.new_seed = lambda: f"golden-{label}"  # type: ignore[assignment]
    fake = FakeDiscord()
    await fake.start()
    fake.point_discord_py_here()
    fake.channel_rate = (5, 0.001)  # no channel pacing: its waits depend on the machine's speed
    clock = Clock()
    log: Log = []
    try:
        with tempfile.TemporaryDirectory() as folder:
            path = Path(folder) / "golden.sqlite3"
            db = await Database(path).connect()
            settings = Settings(database_url=str(path), sync_commands=True, scheduler_seconds=0,
                                channel_window=0.001, announce_sweep_seconds=0)
            bot = GameMasterApp(settings, db, GameService(db, clock=clock), guild_ready_timeout=0.05)
            try:
                await fake.login(bot)
                users = fake.add_members(humans)
                by_id = {u["id"]: u for u in users}

                async def step(payload: dict[str, Any]) -> None:
                    start = len(fake.requests)
                    await fake.interact(bot, payload, timeout=SETTLE)
                    await settle(bot, timeout=SETTLE)
                    log.append(normalized(fake.requests[start:]))

                extra: dict[str, Any] = {"options": options} if options else {}
                if computers:
                    extra["computers"] = computers
                await step(fake.slash(users[0], "game new", game=game, **extra))
                for user in users[1:]:
                    await step(fake.slash(user, "game join"))
                await step(fake.slash(users[0], "game start"))
                engine = registry.get(game)
                while (record := await bot.service.current(fake.channel_id)) is not None and len(log) < MAX_STEPS:
                    seat = min(bot.service.to_act(record))
                    action = decide_now(game, registry.DEFAULT_LEVEL, engine.load(record.state), seat,
                                        record.seed, record.ply)
                    user = by_id[record.user_of(seat)]
                    clock.now += timedelta(minutes=3)
                    board = _button(fake, str(action))
                    if board is not None:
                        await step(fake.click(user, board, label=BUTTONS[str(action)]))
                    else:
                        name, opts = command_of(str(action))
                        await step(fake.slash(user, name, opts))
                assert fake.violations == [], fake.violations
            finally:
                await fake.close_bot(bot)
                await db.close()
    finally:
        await fake.stop()
        lobby.new_seed = seed_of  # type: ignore[assignment]
    return log


def load(label: str) -> Log:
    data: Log = json.loads(golden_path(label).read_text(encoding="utf-8"))
    return data


def dump(log: Log) -> str:
    """One request per line: a diff of two golden files reads as the requests that changed."""
    steps = [",\n".join(f"  {json.dumps(item, sort_keys=True, ensure_ascii=False)}" for item in step) for step in log]
    return "[\n" + ",\n".join(f" [\n{body}\n ]" if body else " []" for body in steps) + "\n]\n"


def first_difference(got: Log, want: Log) -> str:
    """The first step whose requests differ, told briefly (for a failing comparison)."""
    for number, (mine, theirs) in enumerate(zip(got, want, strict=False)):
        if mine != theirs:
            extra = [item for item in mine if item not in theirs]
            missing = [item for item in theirs if item not in mine]
            return (f"step {number}: {len(extra)} request(s) not in the golden, {len(missing)} missing; first new: "
                    f"{json.dumps(extra[:1], ensure_ascii=False)[:600]}; first missing: "
                    f"{json.dumps(missing[:1], ensure_ascii=False)[:600]}")
    return f"{len(got)} steps played, the golden has {len(want)}"


def main(argv: list[str]) -> int:
    if len(argv) != 1 or argv[0] not in ("record", "compare"):
        print(__doc__)
        return 2
    differ = []
    for label in GAMES:
        log = asyncio.run(play(label))
        print(f"{label}: {len(log)} steps, {sum(map(len, log))} requests", file=sys.stderr)
        if argv[0] == "record":
            golden_path(label).write_text(dump(log), encoding="utf-8")
        elif log != load(label):
            differ.append(label)
            print(f"{label} differs: {first_difference(log, load(label))}", file=sys.stderr)
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
