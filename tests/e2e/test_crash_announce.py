"""Committed means announced: the bot as a subprocess plays a burst of Tölp moves and is killed
(SIGKILL) between a commit and its board post, between a post and its bookkeeping, and from
outside at whatever point it has reached; after the last restart every committed move is in the
channel exactly once, in order, and the one current board shows the last position."""
from __future__ import annotations

import asyncio
import os
import signal
import sys
from pathlib import Path
from typing import Any

from bot.engine import registry
from bot.engine.core import Event
from bot.engine.rng import commitment
from bot.i18n import t
from bot.services.table import GameService
from bot.services.text import public_lines
from bot.storage.db import Database
from tests.discord.helpers import board_posts, tolp_command
from tests.fakediscord import FakeDiscord, Recorded

GAME = registry.get("tolp")


# the kill hook lives with the tests: a sitecustomize the bot's interpreter loads from its PYTHONPATH
CRASH_HOOK = Path(__file__).resolve().parent / "crashhook"


async def start_bot(fake: FakeDiscord, tmp_path: Path, kill: str = "") -> asyncio.subprocess.Process:
    env = dict(os.environ, DISCORD_TOKEN="fake-token", GAMEMASTER_API_BASE=fake.api_base,
               GAMEMASTER_GATEWAY_URL=fake.gateway_url, GAMEMASTER_DB=str(tmp_path / "crash.sqlite3"),
               GAMEMASTER_LOG_LEVEL="WARNING", GAMEMASTER_CHANNEL_WINDOW="0.5", GAMEMASTER_TEST_KILL=kill,
               GAMEMASTER_TEST_KILL_CHANNEL=str(fake.channel_id), GAMEMASTER_SYNC_COMMANDS="1",
               PYTHONPATH=os.pathsep.join(filter(None, [str(CRASH_HOOK), os.environ.get("PYTHONPATH", "")])))
    fake.identified.clear()
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "bot", "run", env=env, cwd=tmp_path,
        stdout=asyncio.subprocess.DEVNULL, stderr=asyncio.subprocess.DEVNULL)
    await asyncio.wait_for(fake.identified.wait(), timeout=30)
    return process


async def move(fake: FakeDiscord, service: GameService, users: dict[str, dict[str, Any]]) -> dict[str, Any] | None:
    """Send the next legal move of the player to act; the payload, or None once the game is over."""
    record = await service.current(fake.channel_id)
    if record is None or not service.to_act(record):
        return None  # over, or waiting on nobody a player can move for
    seat = min(service.to_act(record))
    legal = service.legal_texts(record, seat)
    command, options = tolp_command(next((a for a in legal if a.startswith("play")), legal[0]))
    payload = fake.slash(users[record.user_of(seat) or ""], command, options)
    await fake.interact(None, payload, gateway=True, timeout=15)
    return payload


def committed(token: str) -> Any:
    """A command's placeholder is removed or replaced by its answer (a lobby, a join, the mover's
    own new private view) once its change is committed."""
    return lambda r: r.method in ("DELETE", "POST") and r.route.startswith("/webhooks/") and token in r.path


async def play_until_killed(fake: FakeDiscord, service: GameService, users: dict[str, dict[str, Any]],
                            process: asyncio.subprocess.Process) -> None:
    """Move after move until the bot's own crash hook kills it (a move in flight then is lost
    with the process, as a click during a crash is: it was never committed)."""
    died = asyncio.ensure_future(process.wait())
    while not died.done():
        sent = asyncio.ensure_future(move(fake, service, users))
        await asyncio.wait([sent, died], return_when=asyncio.FIRST_COMPLETED)
        if died.done():
            sent.cancel()
            break
        payload = sent.result()
        if payload is None:
            process.kill()
            break
        done = asyncio.ensure_future(fake.wait_request(committed(payload["token"]), timeout=15))
        await asyncio.wait([done, died], return_when=asyncio.FIRST_COMPLETED)
        if not done.done():
            done.cancel()
            break
        record = await service.current(fake.channel_id)
        assert record is not None
        # one move at a time: its board is shown (or the bot dies on the way)
        last = f"tolp-{record.ply}.png"
        shown = asyncio.ensure_future(fake.wait_message(
            lambda m, last=last: m in board_posts(fake) and any(f.filename == last for f in m.files), timeout=15))
        await asyncio.wait([shown, died], return_when=asyncio.FIRST_COMPLETED)
        if not shown.done():
            shown.cancel()
    await asyncio.wait_for(died, 60)  # a bot that never reaches the kill point fails the test, not hangs it
    assert process.returncode == -signal.SIGKILL


async def test_every_committed_move_is_announced_once_across_kills(fake: FakeDiscord, tmp_path: Path) -> None:
    fake.channel_rate = (5, 0.5)
    process = await start_bot(fake, tmp_path, kill="before_post:4")
    members = fake.add_members(3)
    users = {m["id"]: m for m in members}
    for member, command in zip(members, ("game new", "game join", "game join"), strict=True):
        payload = fake.slash(member, command, game="tolp") if command == "game new" else fake.slash(member, command)
        await fake.interact(None, payload, gateway=True, timeout=15)
        await fake.wait_request(committed(payload["token"]), timeout=15)  # deferred before its write
    start = fake.slash(members[0], "game start")
    await fake.interact(None, start, gateway=True, timeout=15)
    await fake.wait_request(committed(start["token"]), timeout=15)  # answered before its commit
    db = await Database(tmp_path / "crash.sqlite3").connect(migrate=False)
    service = GameService(db)
    try:
        # 1: the fourth delivery dies between its commit and its post
        await play_until_killed(fake, service, users, process)
        # 2: the second board post dies before the bot wrote down that it posted it
        process = await start_bot(fake, tmp_path, kill="after_post:2")
        await play_until_killed(fake, service, users, process)
        # 3: a burst of moves, killed from outside wherever it has got to
        process = await start_bot(fake, tmp_path)
        for _ in range(6):
            payload = await move(fake, service, users)
            if payload is None:
                break
            await fake.wait_request(committed(payload["token"]), timeout=15)
        process.kill()
        await process.wait()
        # the last start delivers what is left, and play goes on
        process = await start_bot(fake, tmp_path)
        for _ in range(3):
            payload = await move(fake, service, users)
            if payload is None:
                break
            await fake.wait_request(committed(payload["token"]), timeout=15)
        record = await service.current(fake.channel_id)
        assert record is not None
        await fake.wait_message(lambda _: settled(fake, f"tolp-{record.ply}.png"), timeout=30)
        assert await drained(db)
        assert_announced_once(fake, record, await service.moves(record.id))
    finally:
        if process.returncode is None:
            process.terminate()
            await process.wait()
        await db.close()


def settled(fake: FakeDiscord, last: str) -> bool:
    *folded, current = board_posts(fake)
    return any(f.filename == last for f in current.files) and not any(old.files for old in folded)


async def drained(db: Database) -> bool:
    """Every outbox entry marked done (the bookkeeping right after the last DM; bounded wait: 30 s,
    as the other waits here, since under the whole suite on two cores 5 s was once too short)."""
    for _ in range(600):
        row = await db.fetchone("SELECT COUNT(*) FROM announcements WHERE done_at IS NULL")
        if row is not None and row[0] == 0:
            return True
        await asyncio.sleep(0.05)
    return False


def assert_announced_once(fake: FakeDiscord, record: Any, moves: list[Any]) -> None:
    # the lines the game's start and each committed move make, replayed from the seed, in order
    state = GAME.new(len(record.seats), record.options, record.seed)
    events = [Event("game.event.started", {"game": "tolp", "commitment": commitment(record.seed)}),
              *GAME.opening_events(state)]
    expected = public_lines(events, record.names, record.locale)
    for _, seat, action, _ in moves:
        expected += public_lines(GAME.apply(state, seat, GAME.parse_action(action)), record.names, record.locale)
    # the start is told without its hash (the first board's footer showed it)
    expected = [t("msg.started", record.locale), *(line.replace("\n", " ") for line in expected[1:])]
    *folded, current = board_posts(fake)
    # exactly one image in the channel: the current board, of the last committed position
    assert [m for m in fake.channel_messages() if m.files] == [current]
    assert current.files[0].filename == f"tolp-{record.ply}.png"
    for old in folded:
        assert not old.files and not old.components and "\n" not in old.content
    # every line once, in order: the folded boards' summaries, then what the current board shows
    # of its own turn (its opening lines repeat the end of the last summary)
    said = [line for old in folded for line in old.content.split(" · ")]
    bad = next((i for i, (a, b) in enumerate(zip(said, expected, strict=False)) if a != b), None)
    assert said == expected[:len(said)], (bad, said[max(0, (bad or 0) - 3):(bad or 0) + 3],
                                          expected[max(0, (bad or 0) - 3):(bad or 0) + 3], len(said), len(expected))
    assert all(line in current.content for line in expected[len(said):])
    # no board was created twice: a channel post retried after a kill returned the first message
    # (its nonce), a board the move's interaction posted was found again in the channel's history
    creates: list[Recorded] = [r for r in fake.requests if r.method == "POST" and r.status == 200 and r.files
                               and (r.route == f"/channels/{fake.channel_id}/messages"
                                    or (r.route.startswith("/webhooks/") and not r.response["flags"] & 64))]
    assert len({r.response["id"] for r in creates}) == len(folded) + 1
    assert any(r.route.startswith("/webhooks/") for r in creates)  # boards rode their movers' interactions
    found_again = [r for r in fake.requests if r.method == "GET" and r.route.endswith("/messages")]
    assert len(creates) > len(folded) + 1 or found_again  # ... and the retry did happen
    assert fake.busiest_window() <= fake.channel_rate[0]
