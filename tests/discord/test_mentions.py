"""Names are text, never pings: members called "@everyone" or "<@&role>" play a whole game and the
bot pings no one it did not mean to (the fake resolves every message's allowed_mentions as Discord
would; the ``fake`` fixture fails any test whose messages would ping everyone, here or a role)."""
from __future__ import annotations

import re

import discord

from tests.discord.conftest import BotFactory
from tests.discord.helpers import tolp_command
from tests.discord.news_checks import notifications
from tests.fakediscord import FakeDiscord

ROLE = "<@&123456789012345678>"
HOSTILE = ["@everyone", ROLE, "@here **loud**"]


async def test_the_fake_flags_a_message_that_would_ping_everyone_or_a_role(fake: FakeDiscord) -> None:
    client = discord.Client(intents=discord.Intents.none())
    await fake.login(client)
    channel = client.get_partial_messageable(int(fake.channel_id))
    await channel.send("hello @everyone")                     # no allowed_mentions: Discord parses all
    await channel.send(f"team {ROLE}", allowed_mentions=discord.AllowedMentions(roles=True))
    await channel.send("@here and " + ROLE, allowed_mentions=discord.AllowedMentions.none())
    assert len(fake.mass_pings) == 2
    last = fake.channel_messages()[-1]
    assert last.allowed_mentions == {"parse": []} and not last.payload["mention_everyone"]
    fake.mass_pings.clear()


async def test_members_named_everyone_or_a_role_play_a_game_and_nothing_pings(fake: FakeDiscord,
                                                                           make_bot: BotFactory) -> None:
    bot = await make_bot()
    users = [fake.add_member(name) for name in HOSTILE]
    by_id = {u["id"]: u for u in users}
    fake.close_dms(users[2])  # the "DMs closed" notice names (and pings) that player

    lobby = await fake.interact(bot, fake.slash(users[0], "game new", game="tolp",
                                                options="scoring=rounds rounds=1"))
    assert "@\u200beveryone" in lobby.content and "@everyone" not in lobby.content
    joined = await fake.interact(bot, fake.click(users[1], lobby.original, label="Join"))
    assert "<@\u200b&123456789012345678>" in joined.content and ROLE not in joined.content
    await fake.interact(bot, fake.slash(users[2], "game join"))
    status = await fake.interact(bot, fake.slash(users[1], "game status"))
    assert "\\*\\*loud\\*\\*" in status.content  # markdown in a name is shown, not applied
    await fake.interact(bot, fake.click(users[0], lobby.original, label="Start"))

    moves = 0
    while (record := await bot.service.current(fake.channel_id)) is not None:
        seat = min(bot.service.to_act(record))
        legal = bot.service.legal_texts(record, seat)
        action = next((a for a in legal if a.startswith("play")), legal[0])
        command, options = tolp_command(action)
        r = await fake.interact(bot, fake.slash(by_id[record.user_of(seat)], command, options))
        assert r.ok, r.text
        moves += 1
        assert moves < 400
        if moves == 3:
            refused = await fake.interact(bot, fake.slash(users[(seat + 1) % 3], command, options))
            assert refused.ephemeral
            for command in ("game mine", "game log", "game status"):
                answer = await fake.interact(bot, fake.slash(users[0], command))
                assert answer.ok

    finished = fake.channel_messages()[-1]
    assert "🏆" in finished.content.splitlines()[0] and "@\u200beveryone" in finished.content
    stats = await fake.interact(bot, fake.slash(users[0], "game stats"))
    assert "@\u200beveryone" in stats.content

    # every message named its allowed mentions: nobody but the players meant, never everyone or roles
    sent = [m for m in fake.messages.values() if m.kind != "user" and m.content]
    assert sent
    for message in sent:
        allowed = message.allowed_mentions
        assert allowed is not None, message
        assert "everyone" not in allowed["parse"] and "roles" not in allowed["parse"] and not allowed.get("roles")
        users = {str(u) for u in allowed.get("users", [])}
        assert users <= set(by_id), message
        assert users <= set(re.findall(r"<@!?(\d+)>", message.content)), message  # only whom it names
    # the turn pings still reach the players: counted as the messages were created (a board that
    # pinged is later edited into its summary, which pings nobody, so the stored messages cannot tell)
    pinged = {user for _, users in notifications(fake) for user in users}
    assert pinged and pinged <= set(by_id), pinged
    fake.assert_clean()
