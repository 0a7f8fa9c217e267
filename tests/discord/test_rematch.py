"""Rematch from a finished Zloděj game to the first move of the next: both players press Rematch
on the result, the new table holds the same options with the seats moved one place on, starts by
itself, and its first move is played."""
from __future__ import annotations

from tests.backends import on_both_backends
from tests.discord.conftest import BotFactory
from tests.discord.helpers import boards, decoded
from tests.fakediscord import FakeDiscord


@on_both_backends
async def test_rematch_from_a_finished_zlodej_game_to_the_first_move(fake: FakeDiscord,
                                                                     make_bot: BotFactory) -> None:
    bot = await make_bot()
    ann, bo = fake.add_members(2)
    stranger = fake.add_member("stranger")
    await fake.interact(bot, fake.slash(ann, "game new", game="zlodej", options="first_player=creator"))
    await fake.interact(bot, fake.slash(bo, "game join"))
    await fake.interact(bot, fake.slash(ann, "game start"))
    old = await bot.service.current(fake.channel_id)
    assert old is not None and old.status == "active"
    assert (await fake.interact(bot, fake.slash(bo, "game resign"))).ok
    result = boards(fake)[-1]
    assert result.content.startswith("🏆") and "Rematch" in [b.get("label") for b in result.buttons]

    refused = await fake.interact(bot, fake.click(stranger, result, label="Rematch"))
    assert refused.ephemeral and "not a player" in refused.text
    r = await fake.interact(bot, fake.click(ann, result, label="Rematch"))
    assert r.ok and r.ephemeral, r.text
    assert "wants a rematch" in fake.channel_messages()[-1].content
    lobby = await bot.service.current(fake.channel_id)
    assert lobby is not None and lobby.status == "lobby" and lobby.options == (await bot.service.get(old.id)).options
    assert [s.user_id for s in lobby.seats] == [ann["id"]]
    again = await fake.interact(bot, fake.click(ann, result, label="Rematch"))
    assert again.ephemeral and "already" in again.text

    # the second press completes the table: it starts with the seats rotated (Bo first now)
    assert (await fake.interact(bot, fake.click(bo, result, label="Rematch"))).ok
    game = await bot.service.current(fake.channel_id)
    assert game is not None and game.id != old.id and game.status == "active"
    assert [s.user_id for s in game.seats] == [bo["id"], ann["id"]] and game.seed != old.seed
    start = boards(fake)[-1]
    decoded(start.files[0].data)

    # the first move of the rematch
    seat = min(bot.service.to_act(game))
    player = ann if game.user_of(seat) == ann["id"] else bo
    card = next(a for a in bot.service.legal_texts(game, seat) if a.startswith("discard ")).split()[1]
    r = await fake.interact(bot, fake.slash(player, "zlodej discard", card=card))
    assert r.ok, r.text
    assert (await bot.service.get(game.id)).ply == 1
    fake.assert_clean()


async def test_stats_show_ratings_after_finished_games(fake: FakeDiscord, make_bot: BotFactory) -> None:
    bot = await make_bot()
    ann, bo = fake.add_members(2)
    for loser in (bo, bo):
        await fake.interact(bot, fake.slash(ann, "game new", game="zlodej"))
        await fake.interact(bot, fake.slash(bo, "game join"))
        await fake.interact(bot, fake.slash(ann, "game start"))
        assert (await fake.interact(bot, fake.slash(loser, "game resign"))).ok
    r = await fake.interact(bot, fake.slash(bo, "game stats", game="zlodej"))
    assert "Ratings in Zloděj" in r.text, r.text
    rows = [line for line in r.text.splitlines() if "won of" in line]
    assert rows[0].startswith("1. player1") and "(2 won of 2)" in rows[0] and "(0 won of 2)" in rows[1]
