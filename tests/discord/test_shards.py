"""The fake Discord speaks shards: a bot running two shards identifies each, and every guild's
events arrive on the guild's shard ((guild_id >> 22) % shard_count), DMs on shard 0; the bot
plays in both guilds and answers in DMs."""
from __future__ import annotations

from bot.services.table import GameService
from bot.settings import Settings
from bot.storage.db import Database
from cogs.app import GameMasterApp as GameMasterBot
from tests.backends import on_both_backends
from tests.fakediscord import FakeDiscord, shard_of


@on_both_backends
async def test_each_guild_is_served_on_its_shard_and_dms_on_shard_zero(fake: FakeDiscord, database_url: str) -> None:
    other = fake.add_guild("Other server", shard=1 - shard_of(fake.guild_id, 2), shard_count=2)
    table = fake.add_channel("table", guild=other)
    alice, bob = fake.add_members(2)
    db = await Database(database_url).connect()
    try:
        settings = Settings(database_url=database_url, scheduler_seconds=0, shards=(0, 1), shard_count=2,
                            identify_seconds=0)
        bot = GameMasterBot(settings, db, GameService(db), guild_ready_timeout=0.05)
        await fake.connect(bot)
        assert sorted(f["d"]["shard"] for f in fake.gateway_log if f["op"] == 2) == [[0, 2], [1, 2]]
        assert bot.get_guild(int(other)) is not None and bot.get_guild(int(fake.guild_id)) is not None
        assert {shard for shard, event, gid in fake.delivered if event == "GUILD_CREATE"} == {0, 1}

        for channel, guild in ((fake.channel, fake.guild_id), (table, other)):
            opened = fake.slash(alice, "game new", game="tolp", channel=channel)
            assert (await fake.interact(bot, opened, gateway=True)).ok
            joined = fake.slash(bob, "game join", channel=channel)
            assert (await fake.interact(bot, joined, gateway=True)).ok
            routed = {shard for shard, event, pid in fake.delivered
                      if event == "INTERACTION_CREATE" and pid in (opened["id"], joined["id"])}
            assert routed == {shard_of(guild, 2)}
            record = await bot.service.current(channel["id"])
            assert record is not None and record.guild_id == guild and len(record.seats) == 2

        asked = fake.slash(alice, "rules", game="tolp", topic="", channel=fake.dm_channel(alice))
        answer = await fake.interact(bot, asked, gateway=True)
        assert answer.ok and "Topics" in answer.text
        assert {shard for shard, event, pid in fake.delivered if pid == asked["id"]} == {0}
        fake.assert_clean()
    finally:
        await fake.close_bot(bot)
        await db.close()
