"""/game luck through the fake Discord: an ended Monopol game's dice per player, counted from the
move log replayed from the revealed seed; a running game is refused (its seed is still secret),
a game without dice says so, and the text pings no one."""
from __future__ import annotations

from bot.engine import registry
from tests.discord.conftest import BotFactory
from tests.fakediscord import FakeDiscord


async def test_luck_report_of_an_ended_monopol_game_counts_the_dice_from_the_seed(
        fake: FakeDiscord, make_bot: BotFactory) -> None:
    bot = await make_bot()
    ann, bo = fake.add_members(2)
    await fake.interact(bot, fake.slash(ann, "game new", game="monopol", options="free_parking_jackpot=true"))
    await fake.interact(bot, fake.slash(bo, "game join"))
    await fake.interact(bot, fake.slash(ann, "game start"))
    record = await bot.service.current(fake.channel_id)
    assert record is not None and record.options["free_parking_jackpot"] is True
    game = registry.get("monopol")
    first = game.load(record.state).turn
    mover = ann if record.seat_of(ann["id"]) == first else bo
    assert (await fake.interact(bot, fake.slash(mover, "monopol roll"))).ok

    running = await fake.interact(bot, fake.slash(ann, "game luck"))
    assert running.ephemeral and "seed is secret" in running.text and record.seed not in running.text

    assert (await fake.interact(bot, fake.slash(bo, "game resign"))).ok
    moves = await bot.service.moves(record.id)
    state = game.new(2, record.options, record.seed)  # the check anyone can make once the seed is out
    rolled = {0: 0, 1: 0}
    for _, seat, action, _ in moves:
        if action.startswith("!"):
            continue
        for event in game.apply(state, seat, game.parse_action(action)):
            if event.key == "monopol.event.roll":
                rolled[event.params["seat"]] += event.params["total"]
    r = await fake.interact(bot, fake.slash(bo, "game luck"))
    assert r.ok and not r.ephemeral
    lines = r.text.splitlines()
    assert lines[0].startswith(f"Luck in game {record.id}")
    mover_seat = record.seat_of(mover["id"])
    assert f"dice sum {rolled[mover_seat]} against 7 on average" in lines[1 + mover_seat]
    assert f"`{record.seed}`" in r.text
    fake.assert_clean()


async def test_a_game_without_dice_has_no_luck_to_report(fake: FakeDiscord, make_bot: BotFactory) -> None:
    bot = await make_bot()
    ann, bo = fake.add_members(2)
    await fake.interact(bot, fake.slash(ann, "game new", game="zlodej"))
    await fake.interact(bot, fake.slash(bo, "game join"))
    await fake.interact(bot, fake.slash(ann, "game start"))
    assert (await fake.interact(bot, fake.slash(ann, "game resign"))).ok
    r = await fake.interact(bot, fake.slash(bo, "game luck", locale="sv"))
    assert r.ok and "ingen tur att redovisa" in r.text
    fake.assert_clean()
