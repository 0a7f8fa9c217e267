"""On SQLite one process delivers every table: a table's delivery claim is kept between its moves
(renewed once half of it has run), not written and deleted under the writer's lock around each
delivery, and let go once the table ended; on PostgreSQL, where other processes deliver too, it is
let go after each delivery."""
from __future__ import annotations

import pytest

from bot.storage import announcements
from tests.discord.conftest import BotFactory
from tests.discord.helpers import board_posts, play_tolp_move
from tests.discord.test_ack_first import start_tolp
from tests.fakediscord import FakeDiscord, settle


async def test_a_tables_claim_is_kept_between_its_deliveries_on_sqlite(
        fake: FakeDiscord, make_bot: BotFactory, monkeypatch: pytest.MonkeyPatch) -> None:
    bot = await make_bot()
    users = fake.add_members(3)
    await start_tolp(fake, bot, users)
    await settle(bot)
    writes: list[str] = []
    claim, release = announcements.claim, announcements.release

    async def claimed(*args, **kwargs):  # type: ignore[no-untyped-def]
        writes.append("claim")
        return await claim(*args, **kwargs)

    async def released(*args, **kwargs):  # type: ignore[no-untyped-def]
        writes.append("release")
        return await release(*args, **kwargs)

    monkeypatch.setattr(announcements, "claim", claimed)
    monkeypatch.setattr(announcements, "release", released)
    posted = len(board_posts(fake))
    for _ in range(4):
        await play_tolp_move(fake, bot, users)
        await settle(bot)
    assert len(board_posts(fake)) == posted + 4  # every move's board went out
    assert writes == []  # the claim of the start's delivery still held: nothing written for it
    rows = await bot.db.fetchall("SELECT owner FROM announce_leases")
    assert [row[0] for row in rows] == [bot.get_cog("Announcer").owner]  # type: ignore[union-attr]
    # a table that ended has nothing more to deliver: its claim is let go, no row left behind
    assert (await fake.interact(bot, fake.slash(users[0], "game end"))).ok
    await settle(bot)
    assert writes == ["release"]
    assert await bot.db.fetchall("SELECT owner FROM announce_leases") == []
    fake.assert_clean()
