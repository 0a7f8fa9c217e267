"""/game replay through the real bot and the fake Discord (Stratego): a private viewer stepped
back and forth with ⏮ ◀ ▶ ⏭, each user's viewer on its own; a running game's replay shows public
boards only (re-dealing the hidden ranks changes no frame) and stops at the current move; forged
and out-of-range buttons are refused; the finished game's result carries the Replay button, whose
first press draws the animated GIF (under its cap, cached for the next presses), and its replay
shows every rank."""
from __future__ import annotations

import io

from PIL import Image

from bot.engine import registry
from bot.engine.rng import Rng
from bot.services import replay as replays
from bot.services.movelog import replay
from cogs import replay as replay_cog
from cogs.drawing import render_public
from tests.discord.conftest import BotFactory
from tests.discord.helpers import boards, decoded, stratego_set_up
from tests.fakediscord import FakeDiscord, StoredMessage


async def stratego_game(fake: FakeDiscord, make_bot: BotFactory):  # type: ignore[no-untyped-def]
    """Red and Blue set up and make one move each: a running game of six moves."""
    bot = await make_bot()
    red, blue = await stratego_set_up(fake, bot)
    assert (await fake.interact(bot, fake.slash(red, "stratego move", {"from": "B4", "to": "B5"}))).ok
    record = await bot.service.current(fake.channel_id)
    assert record is not None
    source, target = next(a for a in bot.service.legal_texts(record, 1) if a.startswith("move ")).split()[1:]
    assert (await fake.interact(bot, fake.slash(blue, "stratego move", {"from": source, "to": target}))).ok
    return bot, red, blue


def viewer(message: StoredMessage) -> tuple[str, bytes, dict[str, bool]]:
    """The viewer's text, its board PNG and which of ⏮ ◀ ▶ ⏭ can be pressed."""
    return message.content, message.files[0].data, {b["label"]: not b.get("disabled") for b in message.buttons}


async def test_a_running_game_is_stepped_back_and_forth_showing_public_boards_only(
        fake: FakeDiscord, make_bot: BotFactory) -> None:
    bot, red, _ = await stratego_game(fake, make_bot)
    stranger = fake.add_member("stranger")
    record = await bot.service.current(fake.channel_id)
    assert record is not None and record.status == "active"
    loaded = await replays.load(bot.service, record.id)
    total = loaded.total
    assert total == record.ply >= 6

    r = await fake.interact(bot, fake.slash(stranger, "game replay"))
    assert r.ok and r.ephemeral, r.text
    page = r.messages[-1]
    text, start, can = viewer(page)
    assert f"Move 0 / {total} — the start" in text and "still running" in text
    assert can == {"⏮": False, "◀": False, "▶": True, "⏭": True}
    decoded(start)

    seen = {0: start}
    for label, number in (("▶", 1), ("▶", 2), ("⏭", total), ("◀", total - 1), ("⏮", 0), ("▶", 1)):
        step = await fake.interact(bot, fake.click(stranger, page, label=label))
        assert step.ok, step.text
        page = fake.message(page.id)  # the viewer turned in place
        text, image, can = viewer(page)
        assert f"Move {number} / {total}" in text, text
        assert can["▶"] == (number < total) and can["◀"] == (number > 0)
        decoded(image)
        seen[number] = image
    assert seen[0] != seen[total] and seen[total - 1] != seen[total]  # the boards change with the moves
    assert seen[0] == start  # ⏮ shows the start again

    # the leak check of the conformance suite on the replay: re-dealing everything the public
    # cannot see (the unrevealed ranks) gives the very same frames, as images too
    game = registry.get("stratego")
    rng = Rng("replay-leak")
    for number, image in seen.items():
        state = replay(game, 2, record.options, record.seed, list(loaded.moves[:number]))
        scrambled = game.scramble_hidden(state, None, rng)
        assert scrambled is not None
        assert game.observe(scrambled, None) == loaded.frame(number).observation
        assert await render_public(record, game.observe(scrambled, None), "en") == image
    # nor does the text give away a setup: the moves' canonical texts stay out while it runs
    assert not any(action in page.content for _, action in loaded.moves if action.startswith("setup"))

    # each viewer steps on their own: Red opens at the start, the stranger's viewer stays on move 1
    mine = await fake.interact(bot, fake.slash(red, "game replay", game=record.id, move=2))
    assert f"Move 2 / {total}" in mine.messages[-1].content
    assert f"Move 1 / {total}" in fake.message(page.id).content

    # a running game's replay does not go past the current move
    ahead = await fake.interact(bot, fake.slash(stranger, "game replay", move=total + 1))
    assert ahead.ephemeral and f"has no move {total + 1}" in ahead.text and not ahead.files
    fake.assert_clean()


async def test_forged_and_out_of_range_replay_buttons_are_refused(fake: FakeDiscord, make_bot: BotFactory) -> None:
    bot, red, _ = await stratego_game(fake, make_bot)
    record = await bot.service.current(fake.channel_id)
    assert record is not None
    r = await fake.interact(bot, fake.slash(red, "game replay"))
    page = r.messages[-1]
    forged = {f"gm:rp:{record.id}:{record.ply + 5}:n": f"has no move {record.ply + 5}",
              f"gm:rp:{record.id + 40}:0:n": "no game",
              f"gm:rp:{record.id}:x:n": "not valid"}
    for custom_id in forged:
        page.payload["components"].append(
            {"type": 1, "components": [{"type": 2, "style": 2, "label": "?", "custom_id": custom_id}]})
    before = page.content
    for custom_id, words in forged.items():
        refused = await fake.interact(bot, fake.click(red, page, custom_id))
        assert refused.ok and refused.ephemeral and words in refused.text.lower(), (custom_id, refused.text)
    assert fake.message(page.id).content == before  # the viewer is untouched
    fake.assert_clean()


async def test_a_finished_game_has_replay_button_animation_and_shows_everything(
        fake: FakeDiscord, make_bot: BotFactory) -> None:
    bot, red, blue = await stratego_game(fake, make_bot)
    record = await bot.service.current(fake.channel_id)
    assert record is not None
    running = await fake.interact(bot, fake.slash(red, "game replay", move=record.ply))
    public_board = running.messages[-1].files[0].data
    assert (await fake.interact(bot, fake.slash(blue, "game resign"))).ok
    result = boards(fake)[-1]
    assert result.content.startswith("🏆")
    assert {"Replay", "Rematch"} <= {b.get("label") for b in result.buttons}

    # the result is not edited for an animation nobody asked for: nothing drawn at the game's end
    assert not any(f.filename.startswith("replay-") for f in fake.message(result.id).files)
    assert not fake.message(result.id).history
    drawn = replay_cog.drawn

    # anyone opens the replay from the result; now it shows everything, every rank included
    stranger = fake.add_member("stranger")
    r = await fake.interact(bot, fake.click(stranger, fake.message(result.id), label="Replay"), timeout=60)
    assert r.ok and r.ephemeral and "Move 0 /" in r.messages[0].content
    page = r.messages[0]
    # ... and with it, privately, the animated replay of the public boards, drawn on this first press
    shown = r.messages[-1]
    assert shown.ephemeral and "animation" in shown.content
    gif = shown.files[0]
    animation = Image.open(io.BytesIO(gif.data))
    assert animation.format == "GIF" and animation.n_frames > 1
    for frame in range(animation.n_frames):
        animation.seek(frame)
        animation.load()
    assert len(gif.data) <= bot.settings.replay_cap_bytes and replay_cog.drawn == drawn + 1
    # the next press gets the same animation from the cache
    again = await fake.interact(bot, fake.click(red, fake.message(result.id), label="Replay"), timeout=60)
    assert again.messages[-1].files[0].data == gif.data and replay_cog.drawn == drawn + 1
    total = record.ply + 1
    await fake.interact(bot, fake.click(stranger, page, label="⏭"))
    last = fake.message(page.id)
    assert f"Move {total} / {total}" in last.content and record.seed in last.content
    assert "shows everything" in last.content and "resign" in last.content
    await fake.interact(bot, fake.click(stranger, last, label="◀"))
    before_resign = fake.message(page.id)
    assert f"Move {record.ply} / {total}" in before_resign.content
    assert before_resign.files[0].data != public_board  # the same move, now with every rank shown
    frame = (await replays.load(bot.service, record.id)).frame(record.ply)
    assert all(piece["rank"] for piece in frame.observation["public"]["board"].values())
    fake.assert_clean()


async def test_a_finished_card_games_replay_lists_every_hand_under_the_board(fake: FakeDiscord,
                                                                            make_bot: BotFactory) -> None:
    bot = await make_bot()
    ann, bo = fake.add_members(2)
    await fake.interact(bot, fake.slash(ann, "game new", game="zlodej"))
    await fake.interact(bot, fake.slash(bo, "game join"))
    await fake.interact(bot, fake.slash(ann, "game start"))
    running = await fake.interact(bot, fake.slash(bo, "game replay"))
    assert "held:" not in running.messages[-1].content  # nobody's hand while it runs
    assert (await fake.interact(bot, fake.slash(bo, "game resign"))).ok
    ended = await fake.interact(bot, fake.slash(bo, "game replay"))
    text = ended.messages[-1].content
    assert "Move 0 /" in text and f"{ann['username']} held: " in text and f"{bo['username']} held: " in text
    decoded(ended.messages[-1].files[0].data)
    fake.assert_clean()
