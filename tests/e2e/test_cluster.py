"""Two `gamemaster run` processes, one per shard of two, on one PostgreSQL and the fake Discord:
each plays the games of its server, a DM click for a game of either server is served by the
process of shard 0, a due reminder is sent exactly once although both schedulers tick, and a
process killed mid-game is restarted and plays on with nothing lost and no move applied twice."""
from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from bot.runner import verify
from bot.services.players import Players
from bot.services.table import GameService
from bot.services.turn_clock import stamp
from bot.storage import games as repo
from bot.storage.db import Database
from tests.cluster import TIMEOUT, Cluster, until
from tests.fakediscord import FakeDiscord, shard_of


async def test_two_processes_share_the_games_and_survive_a_kill(fake: FakeDiscord, pg_server: Any,
                                                                 tmp_path: Path) -> None:
    url = await pg_server.create_schema()
    home = fake.guild_id
    away = fake.add_guild("Away server", shard=1 - shard_of(home, 2), shard_count=2)
    tables = {home: fake.channel, away: fake.add_channel("away-table", guild=away)}
    alice, bob = fake.add_members(2)
    users = {alice["id"]: alice, bob["id"]: bob}
    cluster = Cluster(fake, url, tmp_path)
    db = await Database(url).connect()
    service = GameService(db)
    moves_made = {home: 0, away: 0}
    # turn DMs asked for (stored before the processes start, so both read them): the seat on turn's
    # hand comes by DM (else it would ride their own interaction, privately in the channel), and a
    # DM's click is what this test follows
    for user in (alice, bob):
        await Players(db).set_prefs(user["id"], ping_on_turn=True)
    try:
        await cluster.start(0)
        await cluster.start(1)

        async def slash(user: dict, command: str, guild: str, **options: Any) -> Any:
            payload = fake.slash(user, command, channel=tables[guild], **options)
            answered = await fake.interact(None, payload, gateway=True, timeout=TIMEOUT)
            routed = {s for s, event, pid in fake.delivered if pid == payload["id"]}
            assert routed == {shard_of(guild, 2)}, routed
            # deferred before its write: committed once the placeholder is replaced or removed
            await fake.wait_request(lambda r: r.route.startswith("/webhooks/") and payload["token"] in r.path,
                                    timeout=TIMEOUT)
            return answered

        for guild in (home, away):
            assert (await slash(alice, "game new", guild, game="tolp")).ok
            assert (await slash(bob, "game join", guild)).ok
            assert (await slash(alice, "game start", guild)).ok

        async def current(guild: str) -> Any:
            return await service.current(tables[guild]["id"])

        for guild in (home, away):  # "game start" is answered before its commit: wait for it
            async def started(guild: str = guild) -> bool:
                record = await current(guild)
                return record is not None and bool(service.to_act(record))
            await until(started, "the game to start")

        # a DM click for each server's game: DMs arrive on shard 0, whichever server the game is in
        for guild in (home, away):
            record = await current(guild)
            seat = min(service.to_act(record))
            player = users[record.user_of(seat)]

            async def hand_with_menu(player: dict = player, game: int = record.id) -> Any:
                for message in reversed(fake.dms_to(player)):  # the hand of this game (both are by DM)
                    for row in message.payload.get("components", []):
                        for item in row.get("components", []):
                            if item.get("type") == 3 and item.get("options") and \
                                    item["custom_id"].split(":")[1] == str(game):
                                return message, item
                return None
            message, menu = await until(hand_with_menu, "a hand with a menu by DM")
            before = record.ply
            click = fake.select(player, message, menu["custom_id"], [menu["options"][0]["value"]])
            answered = await fake.interact(None, click, gateway=True, timeout=TIMEOUT)
            assert answered.ok, (menu["custom_id"], answered.text)
            assert {s for s, event, pid in fake.delivered if pid == click["id"]} == {0}
            moves_made[guild] += 1

            async def moved() -> bool:
                return (await current(guild)).ply == before + 1  # noqa: B023
            await until(moved, "the DM move to be applied")

        # a reminder that came due is sent once, although both processes' schedulers tick
        record = await current(away)
        waiting = users[record.user_of(min(service.to_act(record)))]
        now = datetime.now(UTC)
        async with db.transaction() as conn:
            await repo.update(conn, record, record.version, turn_started_at=stamp(now - timedelta(hours=14)),
                              turn_deadline=stamp(now + timedelta(hours=10)), alarm_at=stamp(now))

        def reminders() -> list[Any]:
            return [m for m in fake.dms_to(waiting) if "Friendly reminder" in m.content.partition("\n")[0]]

        async def sent_and_rescheduled() -> bool:
            row = await db.fetchone("SELECT alarm_at FROM games WHERE id = ?", (record.id,))
            moved_on = row is not None and row[0] is not None and row[0] > stamp(datetime.now(UTC))
            return bool(reminders()) and moved_on  # the next look is the last call, hours away
        await until(sent_and_rescheduled, "the reminder and the next alarm")
        assert len(reminders()) == 1

        # kill the away server's process mid-game; a restart takes over its shard and plays on
        away_shard = shard_of(away, 2)
        await cluster.kill(away_shard)
        await cluster.start(away_shard)
        for guild in (away, home):
            record = await current(guild)
            seat = min(service.to_act(record))
            legal = service.legal_texts(record, seat)
            action = next((a for a in legal if a.startswith("play")), legal[0])
            verb, _, rest = action.partition(" ")
            options = {"cards": rest} if verb in ("play", "give") else {}
            answered = await slash(users[record.user_of(seat)], f"tolp {verb}", guild, **options)
            assert answered.ok, answered.text
            moves_made[guild] += 1

            async def played(guild: str = guild, before: int = record.ply) -> bool:
                return (await current(guild)).ply == before + 1
            await until(played, "the move after the restart to be applied")

        for guild in (home, away):
            record = await current(guild)
            logged = await service.moves(record.id)
            assert [m[0] for m in logged] == list(range(1, len(logged) + 1))
            assert record.ply == len(logged) == moves_made[guild]  # nothing lost, nothing twice
        assert await verify(db) == 0
        assert fake.violations == []

        async def delivered() -> bool:  # the last moves' boards and DMs are out before the processes stop
            row = await db.fetchone("SELECT COUNT(*) FROM announcements WHERE done_at IS NULL")
            return row is not None and row[0] == 0
        try:
            await until(delivered, "the last moves' announcements to be delivered")
        except AssertionError as late:  # say which entries and who holds their tables
            undone = await db.fetchall("SELECT id, game_id, ply, created_at FROM announcements WHERE done_at IS NULL")
            claims = await db.fetchall("SELECT * FROM announce_leases")
            raise AssertionError(f"{late}: undelivered {undone}, claims {claims}") from None
    finally:
        await cluster.stop()
        await db.close()
    for output in cluster.output:
        assert b"Traceback" not in output, output.decode(errors="replace")

