"""An endless Tölp game ended with /game end finishes with its standings: like any finished game it
gets a result board with Rematch and Replay (whose press brings the animated replay), and the
board before it is folded to its summary."""
from __future__ import annotations

import io

from PIL import Image

from tests.discord.conftest import BotFactory
from tests.discord.helpers import board_posts, decoded, latest_board, play_tolp_move
from tests.fakediscord import FakeDiscord


async def test_ending_an_endless_tolp_game_posts_its_result_with_replay(fake: FakeDiscord,
                                                                         make_bot: BotFactory) -> None:
    bot = await make_bot()
    users = fake.add_members(3)
    assert (await fake.interact(bot, fake.slash(users[0], "game new", game="tolp"))).ok  # endless by default
    for user in users[1:]:
        assert (await fake.interact(bot, fake.slash(user, "game join"))).ok
    assert (await fake.interact(bot, fake.slash(users[0], "game start"))).ok


    # play into the second round (before it, /game end could only abandon the table)
    for _ in range(300):
        record = await bot.service.current(fake.channel_id)
        state = bot.service.observe(record, None)["public"]
        if state["round"] >= 2:
            break
        moved = await play_tolp_move(fake, bot, users)
        assert moved.ok, moved.text
    else:
        raise AssertionError(f"the first round never ended: {state}")
    before = latest_board(fake)

    ended = await fake.interact(bot, fake.slash(users[0], "game end"))
    assert ended.ok and not ended.ephemeral and "ended the game" in ended.text
    record = await bot.service.latest(fake.channel_id)
    assert record.status == "finished" and record.outcome is not None

    result = board_posts(fake)[-1]
    assert result.id != before.id
    assert "seed was" in result.content
    labels = {item.get("label") for row in result.components for item in row.get("components", [])}
    assert {"Rematch", "Replay"} <= labels
    decoded(result.files[0].data)
    replayed = await fake.interact(bot, fake.click(users[1], result, label="Replay"), timeout=60)
    gif = next(f for f in replayed.files if f.filename.endswith(".gif"))
    animation = Image.open(io.BytesIO(gif.data))
    assert animation.format == "GIF" and animation.n_frames > 1
    for frame in range(animation.n_frames):  # every frame decodes
        animation.seek(frame)
        animation.load()
    # the board it replaced keeps only its one-line summary
    old = fake.message(before.id)
    assert not old.files and not old.components and "\n" not in old.content
    fake.assert_clean()
