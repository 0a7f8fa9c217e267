"""The world changes under a running table (#27.7): a moderator deletes the board, the lobby, the
channel or the thread; the bot loses a permission; Discord answers 5xx or a global 429. Each time
the game is kept, nothing is lost or doubled, the table recovers, and the log holds one line per
incident (tests/fakediscord/faults.py plays Discord's side)."""
from __future__ import annotations

import logging
from typing import Any

import pytest

from tests.backends import on_both_backends
from tests.discord.conftest import BotFactory
from tests.discord.helpers import board_posts, latest_board, play_tolp_move, tolp_command
from tests.fakediscord import FakeDiscord, StoredMessage, settle

OURS = ("bot", "cogs")  # the bot's own loggers (discord.py logs its own waiting for 429s)


@pytest.fixture(autouse=True)
def channel_posts(monkeypatch: pytest.MonkeyPatch) -> None:
    """The faults here are the channel's: every board is a channel post and edit, as a board no
    interaction carries is (a timer's or a computer's move, a token past its 15 minutes), rather
    than riding the mover's interaction (cogs/rides.py), which needs no channel permission."""
    from cogs.rides import Rides

    monkeypatch.setattr(Rides, "of", lambda self, record: None)


def incident_lines(caplog: pytest.LogCaptureFixture, level: int = logging.WARNING) -> list[logging.LogRecord]:
    return [r for r in caplog.records if r.name.split(".")[0] in OURS and r.levelno >= level]


def assert_one_line(caplog: pytest.LogCaptureFixture, *words: str) -> logging.LogRecord:
    lines = incident_lines(caplog)
    assert len(lines) == 1, [r.getMessage() for r in lines]
    line = lines[0]
    assert line.exc_info is None and line.levelno == logging.WARNING, line.getMessage()
    for word in words:
        assert word in line.getMessage(), line.getMessage()
    return line


async def tolp_table(fake: FakeDiscord, bot: Any, users: list[dict], channel: dict | None = None,
                     *, gateway: bool = False) -> int:
    """A started two-or-more-player Tölp table; its game id."""
    where = {"channel": channel} if channel is not None else {}
    await fake.interact(bot, fake.slash(users[0], "game new", game="tolp", **where), gateway=gateway)
    for user in users[1:]:
        await fake.interact(bot, fake.slash(user, "game join", **where), gateway=gateway)
    await fake.interact(bot, fake.slash(users[0], "game start", **where), gateway=gateway)
    record = await bot.service.current((channel or fake.channel)["id"])
    assert record is not None and record.status == "active"
    return int(record.id)


async def monopol_table(fake: FakeDiscord, bot: Any, users: list[dict]) -> int:
    await fake.interact(bot, fake.slash(users[0], "game new", game="monopol"))
    for user in users[1:]:
        await fake.interact(bot, fake.slash(user, "game join"))
    await fake.interact(bot, fake.slash(users[0], "game start"))
    record = await bot.service.current(fake.channel_id)
    assert record is not None and record.status == "active"
    return int(record.id)


async def tolp_move(fake: FakeDiscord, bot: Any, users: list[dict], *, gateway: bool = False,
                    channel: dict | None = None) -> None:
    """The player to act lays (or makes their first legal action) with the /tolp command."""
    record = await bot.service.current((channel or fake.channel)["id"])
    seat = min(bot.service.to_act(record))
    legal = bot.service.legal_texts(record, seat)
    command, options = tolp_command(next((a for a in legal if a.startswith("play")), legal[0]))
    player = next(u for u in users if u["id"] == record.user_of(seat))
    assert (await fake.interact(bot, fake.slash(player, command, options, channel=channel), gateway=gateway)).ok


async def monopol_move(fake: FakeDiscord, bot: Any, users: list[dict], prefer: tuple[str, ...], *,
                       gateway: bool = False) -> str:
    """The player to act makes the first of ``prefer`` that is legal (else their first legal
    action) with the /monopol command; returns the action."""
    record = await bot.service.current(fake.channel_id)
    seat = min(bot.service.to_act(record))
    legal = bot.service.legal_texts(record, seat)
    action = next((a for p in prefer for a in legal if a == p), legal[0])
    player = next(u for u in users if u["id"] == record.user_of(seat))
    verb, _, rest = action.partition(" ")
    assert not rest, action
    answered = await fake.interact(bot, fake.slash(player, f"monopol {verb}"), gateway=gateway)
    assert answered.ok, answered.text
    return action


def current_boards(fake: FakeDiscord, channel: Any = None) -> list[StoredMessage]:
    return [m for m in fake.channel_messages(channel) if m.kind == "channel" and m.files]


# ---------------------------------------------------------------------------- a deleted board
@on_both_backends
async def test_a_deleted_board_is_posted_anew_with_the_next_move(fake: FakeDiscord, make_bot: BotFactory,
                                                                 caplog: pytest.LogCaptureFixture) -> None:
    bot = await make_bot()
    users = fake.add_members(2)
    game_id = await monopol_table(fake, bot, users)
    board = latest_board(fake)
    await fake.moderator_delete(board)
    caplog.set_level(logging.INFO)

    # the same player goes on (a roll leaves them to buy or end): the board would be edited
    record = await bot.service.current(fake.channel_id)
    mover = min(bot.service.to_act(record))
    await monopol_move(fake, bot, users, ("roll",))
    record = await bot.service.get(game_id)
    assert record.status == "active" and record.ply >= 1  # the game is kept
    assert mover in bot.service.to_act(record)
    anew = latest_board(fake)
    assert anew.id != board.id and not anew.deleted and anew.files and anew.components
    assert record.board_message_id == anew.id
    assert_one_line(caplog, "deleted", str(game_id))
    # the next move edits the new board as usual: no second line, no third board
    await monopol_move(fake, bot, users, ("buy", "end"))
    assert len(incident_lines(caplog)) == 1
    assert fake.errors == [] and fake.violations == []


async def test_a_deleted_board_at_a_change_of_turn_is_left_unfolded(fake: FakeDiscord, make_bot: BotFactory,
                                                                    caplog: pytest.LogCaptureFixture) -> None:
    """Tölp passes the turn with every move: the next board is posted as usual and the deleted
    one is not folded (no edit failing forever, no line above INFO)."""
    bot = await make_bot()
    users = fake.add_members(2)
    game_id = await tolp_table(fake, bot, users)
    board = latest_board(fake)
    await fake.moderator_delete(board)
    caplog.set_level(logging.INFO)
    await play_tolp_move(fake, bot, users)
    anew = latest_board(fake)
    assert anew.id != board.id and anew.files
    assert (await bot.service.get(game_id)).board_message_id == anew.id
    assert incident_lines(caplog) == []
    assert [r for r in caplog.records if "nothing to fold" in r.getMessage()]
    fake.assert_clean()


# ---------------------------------------------------------------------------- a deleted lobby
async def test_a_deleted_lobby_is_posted_anew_on_the_next_join(fake: FakeDiscord, make_bot: BotFactory,
                                                               caplog: pytest.LogCaptureFixture) -> None:
    """Decided: the lobby message comes back with the next join (its Join and Start buttons with
    it); a start without it posts the first board as usual."""
    bot = await make_bot()
    ann, bo, cy = fake.add_members(3)
    opened = await fake.interact(bot, fake.slash(ann, "game new", game="tolp"))
    lobby = opened.original
    await fake.moderator_delete(lobby)
    caplog.set_level(logging.INFO)
    joined = await fake.interact(bot, fake.slash(bo, "game join"))
    assert joined.ok and "something went wrong" not in joined.text.lower()
    anew = fake.last_message_with_components(include_ephemeral=False)
    assert anew is not None and anew.id != lobby.id and not anew.deleted
    assert "player2" in anew.content and {b["label"] for b in anew.buttons} >= {"Join", "Start"}
    assert_one_line(caplog, "lobby")
    # the new lobby works: a click on it seats the third player, and the start folds it
    assert (await fake.interact(bot, fake.click(cy, anew, label="Join"))).ok
    await fake.interact(bot, fake.click(ann, fake.message(anew.id), label="Start"))
    record = await bot.service.current(fake.channel_id)
    assert record is not None and record.status == "active" and len(record.seats) == 3
    assert not fake.message(anew.id).components
    assert len(incident_lines(caplog)) == 1
    fake.assert_clean()


# ---------------------------------------------------------------------------- a deleted channel
@on_both_backends
async def test_a_deleted_channel_ends_its_table_as_abandoned_once(fake: FakeDiscord, make_bot: BotFactory,
                                                                  caplog: pytest.LogCaptureFixture) -> None:
    """The gateway's CHANNEL_DELETE ends the table at once; its players are told by DM."""
    bot = await make_bot()
    users = fake.add_members(3)
    fake.close_dms(users[2])  # told where possible
    room = fake.add_channel("room")
    await fake.connect(bot)
    game_id = await tolp_table(fake, bot, users, room, gateway=True)
    dms = {u["id"]: len(fake.dms_to(u)) for u in users}
    caplog.set_level(logging.INFO)
    await fake.delete_channel(room)
    waiting = {f"/channels/{fake.dm_channel(u)['id']}/messages" for u in users[:2]}
    while waiting:  # the gateway's news reaches the bot in its own time: wait for the DMs it sends
        told = await fake.wait_request(lambda r: r.method == "POST" and r.route in waiting, timeout=5)
        waiting.discard(told.route)
    await settle(bot)
    record = await bot.service.get(game_id)
    assert record.status == "aborted"
    assert await bot.service.current(room["id"]) is None
    for user in users[:2]:
        told = fake.dms_to(user)[dms[user["id"]]:]
        assert len(told) == 1 and "deleted" in told[0].content and f"#{game_id}" in told[0].content
    assert_one_line(caplog, "gone", str(game_id))
    # the same news again (a replayed event): nothing more
    await fake.dispatch("CHANNEL_DELETE", dict(room))
    await settle(bot)
    assert len(incident_lines(caplog)) == 1
    assert sum(len(fake.dms_to(u)) for u in users[:2]) == sum(dms[u["id"]] for u in users[:2]) + 2
    assert fake.errors == [] and fake.violations == []


async def test_a_deleted_thread_ends_its_table_and_so_does_its_deleted_parent(
        fake: FakeDiscord, make_bot: BotFactory, caplog: pytest.LogCaptureFixture) -> None:
    """THREAD_DELETE ends a thread's table; deleting a channel ends the tables of its threads too."""
    bot = await make_bot()
    users = fake.add_members(2)
    parent = fake.add_channel("parent")
    alone, inside = fake.add_thread("alone"), fake.add_thread("inside", parent)
    await fake.connect(bot)
    first = await tolp_table(fake, bot, users, alone, gateway=True)
    second = await tolp_table(fake, bot, users, inside, gateway=True)
    caplog.set_level(logging.INFO)
    await fake.delete_channel(alone)
    await fake.delete_channel(parent)
    for game_id in (first, second):  # the gateway's news reaches the bot in its own time
        await fake.wait_message(lambda m, g=game_id: m.kind == "dm" and f"#{g})" in m.content, timeout=5)
    await settle(bot)
    assert (await bot.service.get(first)).status == "aborted"
    assert (await bot.service.get(second)).status == "aborted"
    assert len(incident_lines(caplog)) == 2 and fake.errors == []


@on_both_backends
async def test_a_deleted_thread_ends_its_table_when_the_next_post_finds_it_gone(
        fake: FakeDiscord, make_bot: BotFactory, caplog: pytest.LogCaptureFixture) -> None:
    """No gateway event reached the bot (it was away): the delivery that finds the thread gone
    (404, 10003) ends the table, once, and gives the rest of its announcements up without an ERROR."""
    bot = await make_bot()
    users = fake.add_members(2)
    thread = fake.add_thread("table")
    game_id = await tolp_table(fake, bot, users, thread)
    caplog.set_level(logging.INFO)
    record = await bot.service.get(game_id)
    seat = min(bot.service.to_act(record))
    player = next(u for u in users if u["id"] == record.user_of(seat))
    legal = bot.service.legal_texts(record, seat)
    command, options = tolp_command(next((a for a in legal if a.startswith("play")), legal[0]))
    pressed = fake.slash(player, command, options, channel=thread)  # a move sent as the thread goes
    await fake.delete_channel(thread)
    await fake.interact(bot, pressed)
    record = await bot.service.get(game_id)
    assert record.status == "aborted" and record.ply == 1  # the move is kept, the table ended
    messages = [r.getMessage() for r in incident_lines(caplog)]
    assert len([m for m in messages if "gone" in m]) == 1, messages
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]
    async with bot.db.reading() as conn:
        from bot.storage import announcements
        assert await announcements.pending(conn, game_id) == []
    for user in users:
        assert "deleted" in fake.dms_to(user)[-1].content


# ---------------------------------------------------------------------------- a lost permission
@pytest.mark.parametrize("permission, words", [("attach_files", "Attach Files"), ("embed_links", "Embed Links"),
                                               ("send_messages", "Send Messages")])
async def test_a_lost_permission_is_told_to_the_creator_once_and_the_game_resumes(
        fake: FakeDiscord, make_bot: BotFactory, caplog: pytest.LogCaptureFixture, permission: str,
        words: str) -> None:
    bot = await make_bot()
    await fake.connect(bot)
    users = fake.add_members(2)
    game_id = await monopol_table(fake, bot, users) if permission == "embed_links" else \
        await tolp_table(fake, bot, users, gateway=True)
    creator = users[0]
    dms = len(fake.dms_to(creator))
    posted = len(board_posts(fake))
    await fake.deny(fake.channel, permission)
    caplog.set_level(logging.INFO)

    async def move() -> None:  # through the gateway: after the permission's news, in order
        if permission == "embed_links":
            await monopol_move(fake, bot, users, ("roll", "buy", "end"), gateway=True)
        else:
            await tolp_move(fake, bot, users, gateway=True)
    for _ in range(2):
        await move()
    record = await bot.service.get(game_id)
    assert record.status == "active" and record.ply >= 2  # both moves are kept
    told = fake.dms_to(creator)[dms:]
    told = [m for m in told if words in m.content]
    assert len(told) == 1 and "#" + str(game_id) in told[0].content and "moderator" in told[0].content
    assert_one_line(caplog, str(game_id), permission)
    if permission != "embed_links":
        assert len(board_posts(fake)) == posted  # nothing reached the channel

    # a moderator gives the permission back: the table goes on with its newest position
    await fake.allow(fake.channel, permission)
    # a look at the table through the gateway: the news of the permission was read before it
    await fake.interact(bot, fake.slash(users[1], "game status"), gateway=True)
    await settle(bot)
    board = latest_board(fake)
    assert board.files and f"{record.game}-{record.ply}" in board.files[0].filename
    async with bot.db.reading() as conn:
        from bot.storage import announcements
        assert await announcements.pending(conn, game_id) == []
    assert len(incident_lines(caplog)) == 1
    await move()  # and plays on
    assert fake.errors == []


# ---------------------------------------------------------------------------- Discord failing
async def test_discord_failing_with_5xx_backs_off_and_loses_or_doubles_nothing(
        fake: FakeDiscord, make_bot: BotFactory, caplog: pytest.LogCaptureFixture) -> None:
    bot = await make_bot()
    incidents = bot.get_cog("Announcer").incidents
    incidents.retry_base = 0.02
    users = fake.add_members(2)
    game_id = await tolp_table(fake, bot, users)
    caplog.set_level(logging.INFO)
    failed = len(fake.fault_answers)
    # 503s: discord.py raises at once; the announcer holds the delivery and retries with back-off
    fake.server_errors(503, count=4)
    await play_tolp_move(fake, bot, users)
    record = await bot.service.get(game_id)
    assert len(fake.fault_answers) - failed == 4
    board = latest_board(fake)
    assert f"tolp-{record.ply}" in board.files[0].filename
    assert_one_line(caplog, "Discord", "503")
    assert [r for r in caplog.records if "answers again" in r.getMessage()]
    posts = [r for r in fake.requests if r.method == "POST" and r.route == f"/channels/{fake.channel_id}/messages"
             and r.status == 200]
    assert len({r.response["id"] for r in posts}) == len(posts)  # no board twice
    # a 502 (Cloudflare's HTML page): discord.py itself retries it once after a second
    fake.server_errors(502, count=1)
    await play_tolp_move(fake, bot, users)
    assert len(fake.fault_answers) - failed == 5  # the 502 was met too
    record = await bot.service.get(game_id)
    assert f"tolp-{record.ply}" in latest_board(fake).files[0].filename
    assert len(incident_lines(caplog)) == 1
    assert fake.errors == [] and fake.violations == []


async def test_a_global_429_is_waited_for_by_the_library_and_loses_or_doubles_nothing(
        fake: FakeDiscord, make_bot: BotFactory, caplog: pytest.LogCaptureFixture) -> None:
    bot = await make_bot()
    users = fake.add_members(2)
    game_id = await tolp_table(fake, bot, users)
    caplog.set_level(logging.INFO)
    boards_before = len(board_posts(fake))
    fake.global_outage(0.2, count=2)  # the board's post and the fold, or a post twice
    await play_tolp_move(fake, bot, users)
    limited = [r for r in fake.fault_answers if r.status == 429]
    assert len(limited) == 2 and all(r.response["global"] for r in limited)  # both were met
    record = await bot.service.get(game_id)
    assert f"tolp-{record.ply}" in latest_board(fake).files[0].filename
    assert len(board_posts(fake)) == boards_before + 1
    assert incident_lines(caplog) == []  # nothing of ours: the library waited
    waited = [r for r in caplog.records if r.name == "discord.http" and "Global rate limit" in r.getMessage()]
    assert waited
    assert fake.errors == [] and fake.violations == []


# ---------------------------------------------------------------------------- storage
async def counts(bot: Any, game_id: int) -> tuple[int, int, int]:
    """(moves in the log, outbox entries, the game's version) as stored."""
    async with bot.db.reading() as conn:
        moves = await conn.execute_fetchall("SELECT COUNT(*) FROM moves WHERE game_id = ?", (game_id,))
        entries = await conn.execute_fetchall("SELECT COUNT(*) FROM announcements WHERE game_id = ?", (game_id,))
        version = await conn.execute_fetchall("SELECT version FROM games WHERE id = ?", (game_id,))
    return int(moves[0][0]), int(entries[0][0]), int(version[0][0])


@pytest.mark.sqlite_only
async def test_a_full_sqlite_disk_refuses_the_move_whole_and_plays_on_when_space_returns(
        fake: FakeDiscord, make_bot: BotFactory, caplog: pytest.LogCaptureFixture) -> None:
    """The disk fills: SQLite's page limit (``PRAGMA max_page_count``, per connection: set on the
    bot's writer) answers SQLITE_FULL exactly where a full disk does, at the page that no longer
    fits. The move is refused with a translated "storage is full", nothing of it is written, and
    the same move works once there is room again."""
    bot = await make_bot()
    users = [fake.add_member("ann", locale="sv-SE"), fake.add_member("bo", locale="sv-SE")]
    game_id = await tolp_table(fake, bot, users)
    await bot.db.conn.execute("VACUUM")  # no free pages left to reuse
    rows = await bot.db.conn.execute_fetchall("PRAGMA page_count")
    await bot.db.conn.execute(f"PRAGMA max_page_count = {int(rows[0][0])}")  # the disk is full
    caplog.set_level(logging.INFO)
    refused = None
    for _ in range(30):  # each move takes room; within a page or so one no longer fits
        before = await counts(bot, game_id)
        record = await bot.service.get(game_id)
        seat = min(bot.service.to_act(record))
        legal = bot.service.legal_texts(record, seat)
        command, options = tolp_command(next((a for a in legal if a.startswith("play")), legal[0]))
        player = next(u for u in users if u["id"] == record.user_of(seat))
        answer = await fake.interact(bot, fake.slash(player, command, options, locale="sv-SE"))
        if "lagring är full" in answer.text:
            refused = (command, options, player, before)
            break
    assert refused is not None, "the disk never filled"
    command, options, player, before = refused
    assert answer.ephemeral and "oförändrat" in answer.text
    assert await counts(bot, game_id) == before  # nothing half-written
    lines = incident_lines(caplog)
    assert len(lines) == 1 and "storage full" in lines[0].getMessage() and lines[0].exc_info is None
    assert fake.errors == []

    await bot.db.conn.execute("PRAGMA max_page_count = 1073741823")  # room again
    again = await fake.interact(bot, fake.slash(player, command, options, locale="sv-SE"))
    assert "lagring" not in again.text
    moves, _, version = await counts(bot, game_id)
    assert moves == before[0] + 1 and version > before[2]
    fake.assert_clean()


@pytest.fixture
def own_pg_server():
    """A PostgreSQL server of this test alone: it is restarted under a running table."""
    from tests import pgserver

    if not pgserver.available():
        if pgserver.required():
            pytest.fail("CI must run the PostgreSQL tests, but PostgreSQL binaries were not found")
        pytest.skip("PostgreSQL is not installed")
    server = pgserver.PostgresServer().start()
    try:
        yield server
    finally:
        server.stop()


async def test_a_postgresql_restart_mid_game_loses_or_doubles_nothing(
        fake: FakeDiscord, own_pg_server: Any, caplog: pytest.LogCaptureFixture) -> None:
    """An operator restarts PostgreSQL between two moves: every pooled connection is cut. The next
    move works on fresh connections, and the log has the moves it should (none lost, none twice)."""
    from bot.services.table import GameService
    from bot.settings import Settings
    from bot.storage.db import Database
    from cogs.app import GameMasterApp

    url = own_pg_server.create_database()
    db = await Database(url).connect()
    try:
        settings = Settings(database_url=url, sync_commands=True, scheduler_seconds=0, channel_window=0.1,
                            announce_sweep_seconds=0)
        fake.channel_rate = (settings.channel_posts, settings.channel_window)
        bot = GameMasterApp(settings, db, GameService(db), guild_ready_timeout=0.05)
        await fake.login(bot)
        users = fake.add_members(2)
        game_id = await tolp_table(fake, bot, users)
        await tolp_move(fake, bot, users)
        before = await counts(bot, game_id)
        caplog.set_level(logging.INFO)
        own_pg_server.restart()
        await tolp_move(fake, bot, users)
        after = await counts(bot, game_id)
        assert after[0] == before[0] + 1 and after[2] == before[2] + 1
        record = await bot.service.get(game_id)
        assert f"tolp-{record.ply}" in latest_board(fake).files[0].filename  # announced once
        assert [m.content for m in board_posts(fake)].count(latest_board(fake).content) == 1
        await tolp_move(fake, bot, users)
        assert (await counts(bot, game_id))[0] == before[0] + 2
        assert fake.errors == [], fake.errors
    finally:
        await db.close()


async def test_a_postgresql_restart_leaves_the_notifications_listening(own_pg_server: Any,
                                                                       caplog: pytest.LogCaptureFixture) -> None:
    """The LISTEN connection (other processes' preference changes, the web pages' live tables) is cut
    by the restart too: it listens again on its own, with one line when cut and one when back."""
    import asyncio

    import asyncpg

    from bot.storage.db import Database

    url = own_pg_server.create_database()
    db = await Database(url).connect()
    heard: asyncio.Queue[str] = asyncio.Queue()
    try:
        await db.listen("gm_probe", heard.put_nowait)
        caplog.set_level(logging.INFO)
        own_pg_server.restart()
        await asyncio.wait_for(db.relistened.wait(), 30)  # type: ignore[attr-defined]
        other = await asyncpg.connect(url)
        try:
            await other.execute("SELECT pg_notify('gm_probe', 'after the restart')")
        finally:
            await other.close()
        assert await asyncio.wait_for(heard.get(), 10) == "after the restart"
        assert len(incident_lines(caplog)) == 1
    finally:
        await db.close()


# ---------------------------------------------------------------------------- a restart
async def test_a_restart_does_not_burst_into_the_channel_limit(fake: FakeDiscord, tmp_path: Any) -> None:
    """The new process does not know what the dead one just sent in each channel: it counts every
    channel as full for one window after its start, so the fake's per-channel limit (Discord's 5
    posts and edits per window) never answers 429 after the restart."""
    import time

    import aiohttp

    from bot.services.assembly import Services
    from bot.services.table import GameService
    from bot.settings import Settings
    from bot.storage.db import Database
    from cogs.app import GameMasterApp

    url = str(tmp_path / "gm.sqlite3")
    settings = Settings(database_url=url, sync_commands=True, scheduler_seconds=0, channel_window=3.0,
                        announce_sweep_seconds=0)
    fake.channel_rate = (settings.channel_posts, settings.channel_window)
    opened = []

    async def start() -> Any:  # a new process: its own database connection and pacer
        db = await Database(url).connect()
        opened.append(db)
        bot = GameMasterApp(settings, db, GameService(db), guild_ready_timeout=0.05)
        await fake.login(bot)
        return bot

    try:
        first = await start()
        users = fake.add_members(2)
        room = fake.add_channel("room")
        second = await start()  # the next process, logged in (on a loaded machine that takes seconds)
        # the dying process's last second: a lobby opened (its message an interaction's answer,
        # outside the channel's limit) and five posts in its channel at once
        await fake.interact(first, fake.slash(users[0], "game new", game="tolp", channel=room))
        limit, window = fake.channel_rate
        async with aiohttp.ClientSession(headers={"Authorization": "Bot fake-token"}) as dying:  # its last calls
            for n in range(limit):
                address = f"{fake.api_base}/channels/{room['id']}/messages"
                async with dying.post(address, json={"content": f"news {n}"}) as answer:
                    assert answer.status == 200
        restarted = len(fake.requests)  # the first process says no more (it is closed at the end)
        # ... and the new one starts serving now: its pacer as the process's services build it
        second.pacer = Services.build(settings, second.db).pacer
        # the channel's window is used up: the new process's first post or edit there would pass
        # Discord's limit
        assert len(fake._recent_writes(room["id"], time.monotonic())) == limit
        # a player joins: the new process edits the lobby message in that channel
        joined = await fake.interact(second, fake.slash(users[1], "game join", channel=room), timeout=20)
        assert joined.ok
        after = fake.requests[restarted:]
        edits = [r for r in after if r.method == "PATCH" and r.route.startswith(f"/channels/{room['id']}/messages/")]
        assert edits and all(r.status == 200 for r in edits)
        assert [r for r in after if r.status == 429] == []
        assert fake.violations == []
        lobby = fake.message(edits[-1].route.rsplit("/", 1)[1])
        assert "player2" in lobby.content
    finally:
        for db in opened:
            await db.close()


# ---------------------------------------------------------------------------- /game vacation
@on_both_backends
async def test_vacation_with_a_table_in_a_deleted_channel_is_saved_and_says_so(
        fake: FakeDiscord, make_bot: BotFactory, caplog: pytest.LogCaptureFixture) -> None:
    """The per-table notices run after the vacation was saved and answered: the table whose channel
    a moderator deleted (the bot was away and missed the news) ends as abandoned, once, and the
    other table hears of the vacation."""
    bot = await make_bot()
    ann, bo = fake.add_members(2)
    gone = fake.add_channel("gone")
    kept = await tolp_table(fake, bot, [ann, bo])
    lost = await tolp_table(fake, bot, [ann, bo], gone)
    await fake.delete_channel(gone)  # no gateway connection: the bot hears nothing
    caplog.set_level(logging.INFO)
    answered = await fake.interact(bot, fake.slash(ann, "game vacation", days=2))
    assert answered.ok and answered.ephemeral
    assert "paused until" in answered.text and "something went wrong" not in answered.text.lower()
    assert (await bot.players.prefs(str(ann["id"]))).vacation_until is not None
    assert any("vacation" in m.content for m in fake.channel_messages() if m.kind == "channel")
    assert (await bot.service.get(kept)).status == "active"
    assert (await bot.service.get(lost)).status == "aborted"
    assert_one_line(caplog, "gone", str(lost))
    assert fake.errors == [] and fake.violations == []


async def test_a_permission_lost_through_a_role_is_told_once_and_the_game_resumes(
        fake: FakeDiscord, make_bot: BotFactory, caplog: pytest.LogCaptureFixture) -> None:
    """The same through the server's roles (GUILD_ROLE_UPDATE): @everyone, whose permissions the
    bot has, loses Send Messages, and gets it back."""
    from tests.fakediscord import DEFAULT_PERMISSIONS
    from tests.fakediscord.faults import SEND_MESSAGES

    bot = await make_bot()
    await fake.connect(bot)
    users = fake.add_members(2)
    game_id = await tolp_table(fake, bot, users, gateway=True)
    dms = len(fake.dms_to(users[0]))
    await fake.set_role_permissions(fake.guild_id, DEFAULT_PERMISSIONS & ~SEND_MESSAGES)
    caplog.set_level(logging.INFO)
    await tolp_move(fake, bot, users, gateway=True)
    await tolp_move(fake, bot, users, gateway=True)
    told = [m for m in fake.dms_to(users[0])[dms:] if "Send Messages" in m.content]
    assert len(told) == 1
    assert_one_line(caplog, str(game_id), "send_messages")
    await fake.set_role_permissions(fake.guild_id, DEFAULT_PERMISSIONS)
    await fake.interact(bot, fake.slash(users[1], "game status"), gateway=True)
    await settle(bot)
    record = await bot.service.get(game_id)
    assert record.status == "active" and f"tolp-{record.ply}" in latest_board(fake).files[0].filename
    assert len(incident_lines(caplog)) == 1 and fake.errors == []
