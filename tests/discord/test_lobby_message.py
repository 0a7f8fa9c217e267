"""The lobby is one message: joins (by its button or /game join) and a leave edit it, and once the
game starts it folds to one line that links the first board."""
from __future__ import annotations

from tests.discord.conftest import BotFactory
from tests.discord.helpers import board_posts
from tests.fakediscord import FakeDiscord


async def test_five_joins_leave_one_lobby_message_that_folds_to_a_line_linking_the_board(
        fake: FakeDiscord, make_bot: BotFactory) -> None:
    bot = await make_bot()
    users = fake.add_members(7)
    opened = await fake.interact(bot, fake.slash(users[0], "game new", game="zlodej"))
    lobby = opened.original
    assert lobby is not None and not lobby.ephemeral
    for user in users[1:4]:  # three by the lobby's own Join button
        joined = await fake.interact(bot, fake.click(user, fake.message(lobby.id), label="Join"))
        assert joined.ok and joined.ephemeral and "Zloděj" in joined.content, joined.text
    for user in users[4:6]:  # two by /game join: a private answer, the lobby edited
        joined = await fake.interact(bot, fake.slash(user, "game join"))
        assert joined.ok and joined.ephemeral and "Zloděj" in joined.content, joined.text
    extra = await fake.interact(bot, fake.slash(users[6], "game join"))
    left = await fake.interact(bot, fake.slash(users[6], "game leave"))
    assert extra.ephemeral and left.ephemeral
    assert fake.channel_messages() == [fake.message(lobby.id)], [m.content for m in fake.channel_messages()]
    text = fake.message(lobby.id).content
    assert all(user["username"] in text for user in users[:6]) and users[6]["username"] not in text
    assert len(fake.message(lobby.id).history) >= 7  # every join and the leave edited it

    await fake.interact(bot, fake.click(users[0], fake.message(lobby.id), label="Start"))
    board = board_posts(fake)[-1]
    folded = fake.message(lobby.id)
    assert "\n" not in folded.content and not folded.components, folded.content
    assert folded.content.endswith(f"/{fake.channel_id}/{board.id}"), folded.content
    assert all(user["username"] in folded.content for user in users[:6])
    # the lobby, the board: nothing else stands in the channel
    assert [m.id for m in fake.channel_messages()] == [lobby.id, board.id]
    fake.assert_clean()
