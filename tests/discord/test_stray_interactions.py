"""Interactions outside the happy path: a command delivered twice, a button none of ours, an
option value outside its declared choices, a lobby button pressed from another channel."""
from __future__ import annotations

from tests.backends import on_both_backends
from tests.discord.conftest import BotFactory
from tests.discord.helpers import latest_board, tolp_command
from tests.fakediscord import FakeDiscord, settle


async def _tolp(fake: FakeDiscord, make_bot: BotFactory, players: int = 3):  # type: ignore[no-untyped-def]
    bot = await make_bot()
    users = fake.add_members(players)
    await fake.interact(bot, fake.slash(users[0], "game new", game="tolp"))
    for user in users[1:]:
        await fake.interact(bot, fake.slash(user, "game join"))
    await fake.interact(bot, fake.slash(users[0], "game start"))
    return bot, users


@on_both_backends
async def test_a_slash_command_delivered_twice_moves_once_and_answers_once(fake: FakeDiscord,
                                                                          make_bot: BotFactory) -> None:
    bot, users = await _tolp(fake, make_bot)
    record = await bot.service.current(fake.channel_id)
    seat = min(bot.service.to_act(record))
    action = next(a for a in bot.service.legal_texts(record, seat) if a.startswith("play"))
    command, options = tolp_command(action)
    payload = fake.slash(next(u for u in users if u["id"] == record.user_of(seat)), command, options)
    posted = len(fake.channel_messages())
    fake.inject(bot, payload)
    fake.inject(bot, payload)  # the gateway delivers the same interaction again
    await settle(bot)
    after = await bot.service.current(fake.channel_id)
    assert after.ply == record.ply + 1 and after.version == record.version + 1
    assert len(fake.channel_messages()) == posted + 1  # one new board (the turn passed), not two
    assert len([m for m in fake.channel_messages() if m.files]) == 1
    assert len(fake.responses_for(payload).callbacks) == 1
    fake.assert_clean()  # no second initial response (Discord's 40060), nothing logged


async def test_a_button_none_of_ours_is_answered_not_left_failing(fake: FakeDiscord, make_bot: BotFactory) -> None:
    bot, users = await _tolp(fake, make_bot)
    board = latest_board(fake)
    board.payload["components"].append(
        {"type": 1, "components": [{"type": 2, "style": 2, "label": "Old", "custom_id": "legacy:join:42"}]})
    for locale, words in (("en-US", "That button is not valid."), ("sv-SE", None)):
        r = await fake.interact(bot, fake.click(users[0], board, "legacy:join:42", locale=locale))
        assert r.ok and r.ephemeral
        if words:
            assert r.text == words
        else:
            assert r.text and r.text != "That button is not valid."
    fake.assert_clean()


async def test_an_option_outside_its_declared_choices_gets_the_specific_message(fake: FakeDiscord,
                                                                               make_bot: BotFactory) -> None:
    bot = await make_bot()
    alice = fake.add_member("alice")
    r = await fake.interact(bot, fake.slash(alice, "stratego draw", answer="surrender"))
    assert r.ephemeral
    assert "“surrender” is not one of the choices for answer" in r.text and "offer, accept, decline" in r.text
    fake.assert_clean()


async def test_a_lobby_button_pressed_from_another_channel_says_where_the_table_is(fake: FakeDiscord,
                                                                                  make_bot: BotFactory) -> None:
    bot = await make_bot()
    alice, bob = fake.add_member("alice"), fake.add_member("bob")
    other = fake.add_channel("other")
    lobby = await fake.interact(bot, fake.slash(alice, "game new", game="tolp"))
    r = await fake.interact(bot, fake.click(bob, lobby.original, label="Join", channel=other))
    assert r.ephemeral and f"<#{fake.channel_id}>" in r.text and "over" not in r.text
    record = await bot.service.current(fake.channel_id)
    assert record is not None and record.status == "lobby" and len(record.seats) == 1
    fake.assert_clean()
