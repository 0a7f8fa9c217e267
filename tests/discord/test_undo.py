"""Undo by consent through the real bot and the fake Discord (Stratego): a move taken back after
the other player agreed, one refused by the other player, and one refused because the attack
revealed a rank. The log keeps undone moves, marked, and the replay still matches the snapshot."""
from __future__ import annotations

from bot.engine import registry
from bot.services.movelog import replay
from tests.backends import on_both_backends
from tests.discord.conftest import BotFactory
from tests.discord.helpers import boards, decoded, stratego_set_up
from tests.fakediscord import FakeDiscord

RED, BLUE = 0, 1


@on_both_backends
async def test_undo_agreed_refused_and_after_hidden_information(fake: FakeDiscord, make_bot: BotFactory) -> None:
    bot = await make_bot()
    red, blue = await stratego_set_up(fake, bot)
    record = await bot.service.current(fake.channel_id)
    assert record is not None and record.status == "active"
    start_state = record.state

    # Red moves, then asks by the board's button; Blue is asked and agrees
    assert (await fake.interact(bot, fake.slash(red, "stratego move", {"from": "B4", "to": "B5"}))).ok
    board = boards(fake)[-1]
    wrong = await fake.interact(bot, fake.click(blue, board, label="Undo my move"))
    assert wrong.ephemeral and "Only the player who moved last" in wrong.text
    r = await fake.interact(bot, fake.click(red, board, label="Undo my move"))
    assert r.ok and r.ephemeral and "posted" in r.text, r.text
    question = fake.channel_messages()[-1]
    assert "asks to take back" in question.content and f"<@{blue['id']}>" in question.content
    own = await fake.interact(bot, fake.click(red, question, label="Agree"))
    assert own.ephemeral and "other players answer" in own.text
    r = await fake.interact(bot, fake.click(blue, question, label="Agree"))
    assert r.ok, r.text
    after = boards(fake)[-1]
    assert "was taken back" in after.content and f"<@{red['id']}>" in after.content
    decoded(after.files[0].data)
    record = await bot.service.get(record.id)
    assert record.state == start_state
    assert bot.service.to_act(record) == {RED}
    stale = await fake.interact(bot, fake.click(blue, question, label="Agree"))
    assert stale.ephemeral and "moved on" in stale.text

    # Red moves again and asks by command; Blue refuses: the move stands
    assert (await fake.interact(bot, fake.slash(red, "stratego move", {"from": "B4", "to": "B5"}))).ok
    assert (await fake.interact(bot, fake.slash(red, "game undo"))).ok
    question = fake.channel_messages()[-1]
    r = await fake.interact(bot, fake.click(blue, question, label="Refuse"))
    assert r.ok and "the move stands" in r.text
    assert "refused to take back" in fake.channel_messages()[-1].content
    record = await bot.service.get(record.id)
    assert bot.service.to_act(record) == {BLUE}

    # Blue moves; Red's scout attacks A7 and reveals its rank: no undo, and the refusal says why
    assert (await fake.interact(bot, fake.slash(blue, "stratego move", {"from": "J7", "to": "J6"}))).ok
    assert (await fake.interact(bot, fake.slash(red, "stratego move", {"from": "A4", "to": "A7"}))).ok
    posted = len(fake.channel_messages())
    r = await fake.interact(bot, fake.slash(red, "game undo"))
    assert r.ephemeral and "revealed hidden information" in r.text, r.text
    assert len(fake.channel_messages()) == posted

    # the log keeps the undone move, marked; the replay of the log matches the stored state
    r = await fake.interact(bot, fake.slash(blue, "game log"))
    assert "(taken back)" in r.text and "took back 1 move" in r.text, r.text
    record = await bot.service.get(record.id)
    moves = await bot.service.moves(record.id)
    game = registry.get("stratego")
    state = replay(game, 2, record.options, record.seed, [(s, a) for _, s, a, _ in moves])
    assert game.dump(state) == record.state
    fake.assert_clean()
