"""#27 point 3, private channels stay private: /game history, /game replay and /game export reach
only games whose channel the caller can view (Discord's permissions over the gateway's cache: the
channel's overwrites, the server's roles); a game of a private channel is listed, replayed and
exported for its members, and for nobody else on the server."""
from __future__ import annotations

import json

from tests.backends import on_both_backends
from tests.discord.conftest import BotFactory
from tests.fakediscord import FakeDiscord

VIEW_CHANNEL = 1 << 10


async def ended_game(fake: FakeDiscord, bot: object, players: list[dict], channel: dict) -> int:
    """A Tölp game opened, started and ended early in ``channel``: a game of the server's history."""
    await fake.interact(bot, fake.slash(players[0], "game new", game="tolp", channel=channel), gateway=True)
    await fake.interact(bot, fake.slash(players[1], "game join", channel=channel), gateway=True)
    await fake.interact(bot, fake.slash(players[0], "game start", channel=channel), gateway=True)
    record = await bot.service.current(channel["id"])  # type: ignore[attr-defined]
    await fake.interact(bot, fake.slash(players[0], "game end", channel=channel), gateway=True)
    return int(record.id)


@on_both_backends
async def test_private_channels_stay_private_in_history_replay_and_export(fake: FakeDiscord,
                                                                          make_bot: BotFactory) -> None:
    ann, bo, stranger = fake.add_members(3)
    secret = fake.add_channel("secret")
    secret["permission_overwrites"] = [  # @everyone may not view it; Ann and Bo may
        {"id": fake.guild_id, "type": 0, "allow": "0", "deny": str(VIEW_CHANNEL)},
        *({"id": user["id"], "type": 1, "allow": str(VIEW_CHANNEL), "deny": "0"} for user in (ann, bo)),
        {"id": fake.app_id, "type": 1, "allow": str(VIEW_CHANNEL), "deny": "0"}]
    bot = await make_bot()
    await fake.connect(bot)
    public_game = await ended_game(fake, bot, [ann, bo], fake.channel)
    private_game = await ended_game(fake, bot, [ann, bo], secret)

    seen = await fake.interact(bot, fake.slash(stranger, "game history"), gateway=True)
    assert f"#{public_game} " in seen.text and f"#{private_game} " not in seen.text
    member = await fake.interact(bot, fake.slash(ann, "game history"), gateway=True)
    assert f"#{public_game} " in member.text and f"#{private_game} " in member.text

    refused = await fake.interact(bot, fake.slash(stranger, "game replay", game=private_game), gateway=True)
    assert refused.ok and not refused.files and refused.messages[-1].ephemeral
    watched = await fake.interact(bot, fake.slash(bo, "game replay", game=private_game), gateway=True)
    assert watched.files

    refused = await fake.interact(bot, fake.slash(stranger, "game export", game=private_game), gateway=True)
    assert not refused.files
    exported = await fake.interact(bot, fake.slash(ann, "game export", game=private_game), gateway=True)
    assert json.loads(exported.files[0].data)["id"] == private_game
    assert (await fake.interact(bot, fake.slash(stranger, "game export", game=public_game), gateway=True)).files

    hidden = await fake.interact(bot, fake.slash(stranger, "game luck", game=private_game), gateway=True)
    assert hidden.ephemeral and "luck" not in hidden.text.lower()
    told = await fake.interact(bot, fake.slash(bo, "game luck", game=private_game), gateway=True)
    assert told.ok and not told.ephemeral
    fake.assert_clean()


async def test_private_channels_stay_private_across_history_pages(fake: FakeDiscord, make_bot: BotFactory) -> None:
    """Paging with ◀ ▶ skips the hidden games: each page is full of games the reader can view,
    and no ◀ ▶ leads to a page of hidden ones."""
    from bot.services import history

    ann, bo, stranger = fake.add_members(3)
    secret = fake.add_channel("secret")
    secret["permission_overwrites"] = [{"id": fake.guild_id, "type": 0, "allow": "0", "deny": str(VIEW_CHANNEL)},
                                       {"id": ann["id"], "type": 1, "allow": str(VIEW_CHANNEL), "deny": "0"},
                                       {"id": bo["id"], "type": 1, "allow": str(VIEW_CHANNEL), "deny": "0"},
                                       {"id": fake.app_id, "type": 1, "allow": str(VIEW_CHANNEL), "deny": "0"}]
    bot = await make_bot()
    await fake.connect(bot)
    # newest first: the PAGE+2 public games, each with a private one beside it
    games = [await ended_game(fake, bot, [ann, bo], secret if i % 2 else fake.channel)
             for i in range(2 * (history.PAGE + 2))]
    visible, hidden = games[::2], games[1::2]

    def listed(text: str) -> list[int]:
        return sorted((g for g in games if f"#{g} " in text), key=lambda g: text.index(f"#{g} "))

    first = await fake.interact(bot, fake.slash(stranger, "game history"), gateway=True)
    page = first.messages[-1]
    assert listed(page.content) == sorted(visible, reverse=True)[:history.PAGE]
    older = next(b["custom_id"] for b in page.buttons if ":hi:o:" in b["custom_id"])
    second = await fake.interact(bot, fake.click(stranger, page, older), gateway=True)
    assert listed(fake.message(page.id).content) == sorted(visible, reverse=True)[history.PAGE:]
    assert not set(listed(fake.message(page.id).content)) & set(hidden)
    assert second.ok
    member = await fake.interact(bot, fake.slash(ann, "game history"), gateway=True)
    assert listed(member.messages[-1].content) == sorted(games, reverse=True)[:history.PAGE]
    fake.assert_clean()
