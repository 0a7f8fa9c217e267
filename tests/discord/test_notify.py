"""Notifications the player controls, through the fake Discord as players use them: a muted table
still posts and names its player but pings nobody and DMs silently; "you're next" DMs the seat after
the one to act, once per turn; a ping limit holds a second ping back within its hours and lets the
next one through after; the daily digest comes at the player's local hour, not inside their quiet
hours and once a day, ticked by the clock loop (``/game prefs digest:``); ``/game mine`` in a DM
lists the tables of two servers by the clock left; bad input is refused in words and changes
nothing. ``/notify`` is a top-level command: the /game group holds Discord's most, 25."""
from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

from tests.backends import on_both_backends
from tests.discord.conftest import BotFactory
from tests.discord.helpers import board_posts, play_tolp_move
from tests.fakediscord import FakeDiscord, StoredMessage

SILENT = 4096  # Discord's SUPPRESS_NOTIFICATIONS message flag


class Clock:
    def __init__(self) -> None:
        self.now = datetime(2026, 12, 2, 10, 0, tzinfo=UTC)

    def __call__(self) -> datetime:
        return self.now


def pinged(fake: FakeDiscord, message: StoredMessage) -> set[str]:
    """Whom a message notified when it was posted (an edit notifies nobody): the users its
    allowed_mentions named that its text mentions."""
    post = next(r for r in fake.requests if r.method == "POST" and isinstance(r.response, dict)
                and r.response.get("id") == message.id)
    body = post.json or {}
    users = (body.get("allowed_mentions") or {}).get("users", [])
    return {str(u) for u in users if f"<@{u}>" in body.get("content", "")}


async def tolp_table(fake: FakeDiscord, bot: Any, players: int = 3) -> list[dict]:
    users = fake.add_members(players)
    await fake.interact(bot, fake.slash(users[0], "game new", game="tolp", options="scoring=rounds rounds=1"))
    for user in users[1:]:
        assert (await fake.interact(bot, fake.slash(user, "game join"))).ok
    assert (await fake.interact(bot, fake.slash(users[0], "game start"))).ok
    return users


async def acting(fake: FakeDiscord, bot: Any) -> str | None:
    record = await bot.service.current(fake.channel_id)
    if record is None:
        return None
    return record.user_of(min(bot.service.to_act(record)))


async def play_until(fake: FakeDiscord, bot: Any, users: list[dict], user: dict) -> bool:
    """Moves until the board waits on ``user`` (False when the game ended first)."""
    for _ in range(60):
        now = await acting(fake, bot)
        if now is None:
            return False
        if now == user["id"]:
            return True
        assert (await play_tolp_move(fake, bot, users)).ok
    return False


async def test_a_muted_table_pings_nobody_muted_while_its_board_updates(fake: FakeDiscord,
                                                                        make_bot: BotFactory) -> None:
    bot = await make_bot(clock=Clock())
    users = await tolp_table(fake, bot)
    first = await acting(fake, bot)
    muted = next(u for u in users if u["id"] != first)
    await bot.players.set_prefs(muted["id"], ping_on_turn=True)
    r = await fake.interact(bot, fake.slash(muted, "notify", mute=True))
    assert r.ephemeral and "muted" in r.text and "game " in r.text, r.text
    before = len(fake.dms_to(muted))
    heard: set[str] = set()
    turns_of_muted = 0
    for _ in range(40):
        now = await acting(fake, bot)
        if now is None:
            break
        if now == muted["id"]:
            turns_of_muted += 1
            if turns_of_muted > 2:
                break
        assert (await play_tolp_move(fake, bot, users)).ok
        for message in board_posts(fake):
            heard |= pinged(fake, message)
    boards = [m for m in board_posts(fake) if f"<@{muted['id']}>" in m.content or
              any(f"<@{muted['id']}>" in old.get("content", "") for old in m.history)]
    assert turns_of_muted >= 2 and boards, "the board named the muted player on their turns"
    assert muted["id"] not in heard
    assert heard & {u["id"] for u in users if u is not muted}, "the others were pinged as before"
    dms = fake.dms_to(muted)[before:]
    assert dms and all(m.flags & SILENT for m in dms), "the muted table's DMs come silently"
    fake.assert_clean()


async def test_you_are_next_dms_the_seat_after_the_one_to_act_once_per_turn(fake: FakeDiscord, make_bot: BotFactory,
                                                                            settle: Any) -> None:
    bot = await make_bot(clock=Clock())
    users = await tolp_table(fake, bot)
    record = await bot.service.current(fake.channel_id)
    seats = {u["id"]: record.seat_of(u["id"]) for u in users}
    first = await acting(fake, bot)
    early = next(u for u in users if u["id"] != first)
    before = next(u for u in users if seats[u["id"]] == (seats[early["id"]] - 1) % 3)
    r = await fake.interact(bot, fake.slash(early, "notify", early=True))
    assert r.ephemeral and "a DM when you are next: yes" in r.text, r.text
    turns_before = 0
    for _ in range(30):
        now = await acting(fake, bot)
        if now is None:
            break
        previous = len(board_posts(fake))
        assert (await play_tolp_move(fake, bot, users)).ok
        await settle(bot)  # the board of this move is out
        record = await bot.service.current(fake.channel_id)
        if record is None or len(board_posts(fake)) == previous or await acting(fake, bot) != before["id"]:
            continue
        if bot.service.observe(record, None)["public"]["places"][seats[early["id"]]] is None:  # still in the round
            turns_before += 1
    await settle(bot)  # the last board's DMs
    heads = [m for m in fake.dms_to(early) if "you're next" in m.content]
    assert turns_before >= 1
    assert len(heads) == turns_before, (len(heads), turns_before)
    assert heads[0].content.startswith("player") and f"<#{fake.channel_id}>" in heads[0].content  # no gateway: no names
    assert f"https://discord.com/channels/{fake.guild_id}/{fake.channel_id}/" in heads[0].content
    assert not [m for u in users if u is not early for m in fake.dms_to(u) if "you're next" in m.content]
    fake.assert_clean()


async def test_a_ping_limit_holds_back_a_second_ping_within_its_hours(fake: FakeDiscord,
                                                                      make_bot: BotFactory) -> None:
    clock = Clock()
    bot = await make_bot(clock=clock)
    users = await tolp_table(fake, bot)
    first = await acting(fake, bot)
    limited = next(u for u in users if u["id"] != first)
    r = await fake.interact(bot, fake.slash(limited, "notify", max_per=6))
    assert r.ephemeral and "at most one ping per 6 hours" in r.text, r.text

    def latest_board() -> StoredMessage:
        return board_posts(fake)[-1]

    assert await play_until(fake, bot, users, limited)
    assert limited["id"] in pinged(fake, latest_board())  # the first ping goes through
    assert (await play_tolp_move(fake, bot, users)).ok
    clock.now += timedelta(hours=2)
    assert await play_until(fake, bot, users, limited)
    second = latest_board()
    assert f"<@{limited['id']}>" in second.content and limited["id"] not in pinged(fake, second)  # named, not pinged
    assert (await play_tolp_move(fake, bot, users)).ok
    clock.now += timedelta(hours=5)  # 7 hours after the first ping
    assert await play_until(fake, bot, users, limited)
    assert limited["id"] in pinged(fake, latest_board())
    fake.assert_clean()


@on_both_backends
async def test_the_digest_comes_at_the_players_hour_not_in_quiet_hours_and_once_a_day(
        fake: FakeDiscord, make_bot: BotFactory) -> None:
    clock = Clock()
    clock.now = datetime(2026, 12, 2, 4, 0, tzinfo=UTC)
    bot = await make_bot(clock=clock)
    await fake.connect(bot)  # the server's and channel's names come with the gateway
    ann = fake.add_member("ann")
    assert (await fake.interact(bot, fake.slash(ann, "game new", game="tolp"))).ok  # a table in its lobby
    await fake.interact(bot, fake.slash(ann, "game prefs", timezone="Europe/Stockholm", quiet_start=22,
                                        quiet_end=7))
    r = await fake.interact(bot, fake.slash(ann, "game prefs", digest=6))
    assert r.ephemeral and "06:00 (Europe/Stockholm)" in r.text and "at 07:00" in r.text, r.text
    loop = bot.get_cog("Clock").loop

    async def tick(hours: float) -> list[StoredMessage]:
        before = len(fake.dms_to(ann))
        clock.now = datetime(2026, 12, 2, 4, 0, tzinfo=UTC) + timedelta(hours=hours)
        await loop()  # the clock loop's one round: reminders, challenges, digests
        return [m for m in fake.dms_to(ann)[before:] if "daily digest" in m.content]

    assert await tick(1.5) == []  # 06:30 in Stockholm: the digest's hour, but still quiet
    sent = await tick(2.05)  # 07:03: the quiet hours ended
    assert len(sent) == 1
    digest = sent[0].content
    assert digest.startswith("ann — your daily digest: 1 table, 0 waiting for you\n"), digest
    assert "Tölp" in digest and "waiting in the lobby" in digest
    assert f"{fake.guild_name} › #game" in digest and f"/channels/{fake.guild_id}/{fake.channel_id}" in digest
    assert await tick(5) == []  # once a day
    await fake.close_bot(bot)
    restarted = await make_bot(clock=clock)
    await fake.connect(restarted)
    loop = restarted.get_cog("Clock").loop
    assert await tick(9) == []  # a restart remembers it
    assert len(await tick(26.1)) == 1  # the next morning, 07:06 again
    off = await fake.interact(restarted, fake.slash(ann, "game prefs", digest=-1, locale="cs"))
    assert off.ephemeral and "vypnutý" in off.text
    assert await tick(50.1) == []
    fake.assert_clean()


async def test_mine_in_a_dm_lists_the_tables_of_two_servers_by_the_clock_left(fake: FakeDiscord,
                                                                              make_bot: BotFactory) -> None:
    bot = await make_bot(clock=Clock())
    other = fake.add_guild("Second Server")
    cards = fake.add_channel("cards", guild=other)
    await fake.connect(bot)  # the servers' and channels' names come with the gateway
    ann, bo = fake.add_members(2)
    await fake.interact(bot, fake.slash(ann, "game new", game="zlodej", turn_hours=48.0))
    await fake.interact(bot, fake.slash(bo, "game join"))
    await fake.interact(bot, fake.slash(ann, "game start"))
    await fake.interact(bot, fake.slash(bo, "game new", game="stratego", turn_hours=3.0, channel=cards))
    await fake.interact(bot, fake.slash(ann, "game join", channel=cards))
    await fake.interact(bot, fake.slash(bo, "game start", channel=cards))
    r = await fake.interact(bot, fake.slash(ann, "game mine", channel=fake.dm_channel(ann)))
    assert r.ok and r.ephemeral, r.text
    lines = r.text.splitlines()
    assert len(lines) == 3, r.text
    assert "Stratego" in lines[1] and "Second Server › #cards" in lines[1] and f"/channels/{other}/" in lines[1]
    assert "Zloděj" in lines[2] and f"{fake.guild_name} › #game" in lines[2]
    assert "<t:" in lines[1] and "time runs out" in lines[1]
    here = await fake.interact(bot, fake.slash(ann, "game mine"))  # in a server: this server's first
    assert "Zloděj" in here.text and "Stratego" not in here.text and "1 table on other servers" in here.text
    synced = next(c for c in fake.synced_commands["global"] if c["name"] == "game")
    assert 1 in synced["contexts"]  # the /game group may be used in a DM with the bot
    notify = next(c for c in fake.synced_commands["global"] if c["name"] == "notify")
    assert notify["contexts"] == [0]  # /notify belongs in a table's channel
    fake.assert_clean()


async def test_bad_notification_input_is_refused_in_words_and_changes_nothing(fake: FakeDiscord,
                                                                             make_bot: BotFactory) -> None:
    bot = await make_bot(clock=Clock())
    users = await tolp_table(fake, bot, players=3)
    stranger = fake.add_member("stranger")
    lonely = fake.add_channel("empty")
    cases = [(stranger, {"mute": True}, None, "do not sit at this table"),
             (users[0], {"mute": True}, lonely, "no table in this channel"),
             (users[0], {"mute": True}, fake.dm_channel(users[0]), "no table in this channel")]
    for user, options, channel, words in cases:
        r = await fake.interact(bot, fake.slash(user, "notify", options, channel=channel))
        assert r.ephemeral and words in r.text, (options, r.text)
    forged = await fake.interact(bot, fake.slash(users[0], "game prefs", timezone="Asia/Tokyo", digest=24,
                                                 locale="nb"))  # past the option's range (a forged payload)
    assert forged.ephemeral and "24" in forged.text and "Lagret" not in forged.text, forged.text
    assert (await bot.players.prefs(users[0]["id"])).time_zone is None
    record = await bot.service.current(fake.channel_id)
    assert await bot.get_cog("NotifyCog").notes.of_game(record.id) == {}  # nothing was changed
    assert await bot.get_cog("NotifyCog").notes.digest_hour(users[0]["id"]) is None
    swedish = await fake.interact(bot, fake.slash(users[1], "notify", early=True, locale="sv"))
    assert swedish.ephemeral and "DM när du står på tur härnäst: ja" in swedish.text, swedish.text
    assert list(await bot.get_cog("NotifyCog").notes.of_game(record.id)) == [users[1]["id"]]
    fake.assert_clean()
