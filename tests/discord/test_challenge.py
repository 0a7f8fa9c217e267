"""/game challenge through the fake Discord: the challenged get the news first (their mention, who
challenges them to what) in the channel and by DM, each with Accept and Decline; once all accept
the table opens in the channel, started, at once or at the agreed start time; a challenge nobody
answered expires after a day and says so; a stranger's press, a decline, a late press and bad
input are refused in words and change nothing."""
from __future__ import annotations

from datetime import UTC, datetime, timedelta

from tests.backends import on_both_backends
from tests.discord.conftest import BotFactory
from tests.fakediscord import FakeDiscord


class Clock:
    def __init__(self) -> None:
        self.now = datetime(2026, 12, 1, 18, 0, tzinfo=UTC)

    def __call__(self) -> datetime:
        return self.now


async def test_a_challenge_accepted_by_dm_opens_a_started_table_in_the_channel(
        fake: FakeDiscord, make_bot: BotFactory) -> None:
    bot = await make_bot(clock=Clock())
    ann, bo, cy = fake.add_members(3)
    stranger = fake.add_member("stranger")
    r = await fake.interact(bot, fake.slash(ann, "game challenge", player=bo, player2=cy, game="zlodej"))
    assert r.ok and not r.ephemeral, r.text
    assert r.text.splitlines()[0] == f"<@{bo['id']}> <@{cy['id']}> — player1 challenges you to Zloděj"
    challenge = r.original
    assert challenge.component(label="Accept") is not None and challenge.component(label="Decline") is not None
    dm = fake.dms_to(bo)[-1]
    assert dm.content.startswith("player1 challenges you to Zloděj") and dm.component(label="Accept")

    refused = await fake.interact(bot, fake.click(stranger, challenge, label="Accept"))
    assert refused.ephemeral and "not for you" in refused.text
    assert (await fake.interact(bot, fake.click(bo, dm, label="Accept"))).ok
    assert await bot.service.current(fake.channel_id) is None  # Cy has not answered
    assert "player2: accepted" in fake.message(challenge.id).content  # the channel's message shows it

    assert (await fake.interact(bot, fake.click(cy, challenge, label="Accept"))).ok
    record = await bot.service.current(fake.channel_id)
    assert record is not None and record.status == "active" and record.game == "zlodej"
    assert [s.user_id for s in record.seats] == [ann["id"], bo["id"], cy["id"]]
    assert f"the table is open (game {record.id})" in fake.message(challenge.id).content
    assert not fake.message(challenge.id).components
    late = await fake.interact(bot, fake.click(bo, dm, label="Accept"))
    assert late.ephemeral and "already open" in late.text
    fake.assert_clean()


@on_both_backends
async def test_a_challenge_with_a_start_time_opens_its_table_then(fake: FakeDiscord, make_bot: BotFactory) -> None:
    clock = Clock()
    bot = await make_bot(clock=clock)
    cog = bot.get_cog("ChallengeCog")
    ann, bo = fake.add_members(2)
    r = await fake.interact(bot, fake.slash(ann, "game challenge", player=bo, game="stratego",
                                            start_at="2026-12-01 20:00"))
    assert r.ok, r.text
    assert (await fake.interact(bot, fake.click(bo, r.original, label="Accept"))).ok
    assert await bot.service.current(fake.channel_id) is None
    assert "the table opens here at <t:" in fake.message(r.original.id).content
    assert await cog.tick(clock.now + timedelta(hours=1)) == 0
    assert await cog.tick(clock.now + timedelta(hours=2)) == 1
    record = await bot.service.current(fake.channel_id)
    assert record is not None and record.status == "active" and record.game == "stratego"
    assert await cog.tick(clock.now + timedelta(hours=3)) == 0  # opened once
    fake.assert_clean()


@on_both_backends
async def test_an_unanswered_challenge_expires_after_a_day_and_says_so(fake: FakeDiscord,
                                                                       make_bot: BotFactory) -> None:
    clock = Clock()
    bot = await make_bot(clock=clock)
    cog = bot.get_cog("ChallengeCog")
    ann, bo = fake.add_members(2)
    r = await fake.interact(bot, fake.slash(ann, "game challenge", player=bo, game="monopol"))
    assert await cog.tick(clock.now + timedelta(hours=23)) == 0
    assert await cog.tick(clock.now + timedelta(hours=24, minutes=1)) == 1
    note = fake.channel_messages()[-1]
    assert note.content.startswith(f"<@{ann['id']}> — your challenge to Monopol expired: player2 did not answer")
    assert "Expired" in fake.message(r.original.id).content
    clock.now += timedelta(hours=25)
    late = await fake.interact(bot, fake.click(bo, fake.dms_to(bo)[-1], label="Accept"))
    assert late.ephemeral and "expired" in late.text
    assert await bot.service.current(fake.channel_id) is None
    assert await cog.tick(clock.now) == 0  # said once
    fake.assert_clean()


async def test_a_declined_challenge_opens_nothing(fake: FakeDiscord, make_bot: BotFactory) -> None:
    bot = await make_bot(clock=Clock())
    ann, bo = fake.add_members(2)
    r = await fake.interact(bot, fake.slash(ann, "game challenge", player=bo, game="tolp", locale="sv"))
    assert (await fake.interact(bot, fake.click(bo, r.original, label="Tacka nej"))).ok
    assert "Nej tack" in fake.message(r.original.id).content
    again = await fake.interact(bot, fake.click(bo, fake.dms_to(bo)[-1], label="Tacka nej"))
    assert again.ephemeral and "was declined" in again.text
    assert await bot.service.current(fake.channel_id) is None
    fake.assert_clean()


async def test_bad_challenges_are_refused_in_words(fake: FakeDiscord, make_bot: BotFactory) -> None:
    bot = await make_bot(clock=Clock())
    ann, bo, cy = fake.add_members(3)
    cases = [({"player": ann, "game": "zlodej"}, "cannot challenge yourself"),
             ({"player": bo, "player2": cy, "game": "stratego"}, "That game is for 2 to 2 players"),
             ({"player": bo, "player2": bo, "game": "zlodej"}, "challenged once"),
             ({"player": bo, "game": "zlodej", "start_at": "2026-11-30 10:00"}, "must be in the future"),
             ({"player": bo, "game": "zlodej", "options": "nonsense=1"}, "no option called"),
             ({"player": bo, "game": "zlodej", "start_at": "x" * 40}, "")]
    for options, words in cases:
        r = await fake.interact(bot, fake.slash(ann, "game challenge", **options))
        assert r.ephemeral and words in r.text, (options, r.text)
    assert not fake.dms_to(bo)  # nothing was sent for a refused challenge
    fake.assert_clean()
