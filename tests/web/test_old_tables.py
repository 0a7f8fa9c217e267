"""Tables from before the web pages existed get their pages without a redraw: a server's history
lists its games played in channels everybody sees, and their pages open, decided from the
channel's @everyone view permission when a page is asked for; a game in a channel @everyone cannot
see stays unlisted and answers 404, and ``/game settings web: off`` takes the server's pages
away. Through the real bot against the fake Discord and an HTTP client on loopback."""
from __future__ import annotations

import asyncio
from typing import Any

import aiohttp
import pytest

from bot.web.server import WebServer
from tests.discord.conftest import BotFactory
from tests.fakediscord import FakeDiscord
from tests.web.conftest import WEB

pytestmark = pytest.mark.parametrize("database_url", ["sqlite"], indirect=True)
SLOW = 30.0


async def played_and_ended(fake: FakeDiscord, bot: Any, users: list[dict[str, Any]], channel: Any) -> int:
    """Ann opens a Zloděj table in ``channel``, Bo joins, they start, Ann lays a card, Ann ends it."""
    opened = await fake.interact(bot, fake.slash(users[0], "game new", game="zlodej", channel=channel,
                                                 options="first_player=creator"), timeout=SLOW)
    assert opened.ok, opened.text
    assert (await fake.interact(bot, fake.slash(users[1], "game join", channel=channel), timeout=SLOW)).ok
    assert (await fake.interact(bot, fake.slash(users[0], "game start", channel=channel), timeout=SLOW)).ok
    record = await bot.service.current(channel["id"])
    assert record is not None and record.status == "active"
    ended = await fake.interact(bot, fake.slash(users[0], "game end", channel=channel), timeout=SLOW)
    assert ended.ok, ended.text
    return int(record.id)


async def get(url: str) -> tuple[int, str]:
    async with aiohttp.ClientSession() as http, http.get(url) as response:
        return response.status, await response.text()


async def test_tables_from_before_the_pages_are_public_where_everyone_sees_their_channel(
        fake: FakeDiscord, make_bot: BotFactory) -> None:
    hidden = fake.add_channel("secret")
    hidden["permission_overwrites"] = [{"id": fake.guild_id, "type": 0, "allow": "0", "deny": str(1 << 10)}]
    users = fake.add_members(2)
    admin = fake.add_member("admin", manage_guild=True)

    # a bot without web pages plays one game in the open channel and one in the hidden one
    old = await make_bot()
    await fake.connect(old)
    seen = await played_and_ended(fake, old, users, fake.channel)
    secret = await played_and_ended(fake, old, users, hidden)
    await fake.close_bot(old)

    # the bot restarts with its pages: the old tables get addresses, public unknown until asked
    bot = await make_bot()
    async with WebServer(WEB, bot.service, players=bot.players, history=bot.history) as web:
        bot.web_links = web.links
        await fake.connect(bot)  # the gateway's GUILD_CREATE: who may see which channel
        links = web.links
        status, page = await get(links.guild_url(fake.guild_id))
        assert status == 200
        assert f"/t/{links.table_id(seen)}/replay" in page  # listed: everybody sees its channel
        assert links.table_id(secret) not in page  # not listed: @everyone cannot see it
        assert (await get(links.table_url(seen)))[0] == 200
        assert (await get(f"{links.table_url(seen)}/replay"))[0] == 200
        assert (await get(links.table_url(secret)))[0] == 404
        # decided once, kept: the table is stored public, the hidden one not
        assert await links.public_games([seen, secret]) == {seen}

        # the server turns its pages off: no table page, no server page; on again: back
        off = await fake.interact(bot, fake.slash(admin, "game settings", web=False), timeout=SLOW)
        assert off.ok, off.text
        assert (await get(links.table_url(seen)))[0] == 404
        assert (await get(links.guild_url(fake.guild_id)))[0] == 404
        assert (await fake.interact(bot, fake.slash(admin, "game settings", web=True), timeout=SLOW)).ok
        assert (await get(links.table_url(seen)))[0] == 200

        # the open channel is made private since: its table's page goes away on the next request
        updated = asyncio.ensure_future(bot.wait_for("guild_channel_update", timeout=SLOW))
        fake.channel["permission_overwrites"] = hidden["permission_overwrites"]
        await fake.dispatch("CHANNEL_UPDATE", {**fake.channel, "guild_id": fake.guild_id})
        await updated
        assert (await get(links.table_url(seen)))[0] == 404
        assert links.table_id(seen) not in (await get(links.guild_url(fake.guild_id)))[1]
        bot.web_links = None
    await fake.close_bot(bot)
