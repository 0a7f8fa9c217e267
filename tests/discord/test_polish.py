"""Small things players notice: the opening message, DMs in their client's language, options
shown as on/off, rank names in attack messages, the log of a finished game, a stale DM button."""
from __future__ import annotations

import pytest

from bot.engine.core import Event
from bot.services import lobby
from bot.services.text import event_text
from tests.backends import on_both_backends
from tests.discord.conftest import BotFactory
from tests.discord.helpers import decoded, latest_board
from tests.discord.news_checks import uploads
from tests.fakediscord import FakeDiscord


async def test_the_table_is_told_who_leads_and_dms_speak_the_clients_language(fake: FakeDiscord,
                                                                             make_bot: BotFactory) -> None:
    bot = await make_bot()
    anna = fake.add_member("anna")
    bo = fake.add_member("bo", locale="sv-SE")
    cia = fake.add_member("cia", locale="cs")
    created = await fake.interact(bot, fake.slash(anna, "game new", game="tolp", options="tolp_leads=yes"))
    assert "tolp_leads=on" in created.text and "two_decks=off" in created.text
    await fake.interact(bot, fake.slash(bo, "game join"))
    await fake.interact(bot, fake.slash(cia, "game join"))
    await fake.interact(bot, fake.slash(anna, "game start"))
    board = latest_board(fake)
    assert "starts" in board.content.lower() or "leads" in board.content.lower(), board.content
    # each DM opens with its reader's news in their language and names its table in the footer
    for user, first, footer in ((bo, "bo — ", "Din privata vy"), (cia, "cia — ", "Váš soukromý pohled"),
                                (anna, "anna — ", "Your private view")):
        lines = fake.dms_to(user)[-1].content.splitlines()
        assert lines[0].startswith(first) and footer in lines[-1], lines
    # and each hand picture's alt text tells the reader's own hand in the reader's language
    by_dm = {fake.dm_channel(u)["id"]: u["username"] for u in (anna, bo, cia)}
    hands = {by_dm[rec.route.split("/")[2]]: text for rec, name, text in uploads(fake)
             if "-private-" in name and rec.route.split("/")[2] in by_dm}
    assert hands["anna"].startswith("Tölp") and "Your hand" in hands["anna"], hands
    assert "Din hand" in hands["bo"] and "Vaše ruka" in hands["cia"], hands
    fake.assert_clean()


def test_attack_messages_name_the_ranks() -> None:
    event = Event("stratego.event.attack_won", {"seat": 0, "target": 1, "attacker_rank": "S",
                                                  "defender_rank": "10", "from_square": "A4", "to_square": "A5"})
    text = event_text(event, ["Anna", "Bo"], "en")
    assert "Spy" in text and "Anna" in text and "Bo" in text


async def test_the_log_of_a_finished_game_and_a_stale_dm_button(fake: FakeDiscord, make_bot: BotFactory) -> None:
    bot = await make_bot()
    red, blue = fake.add_members(2)
    await fake.interact(bot, fake.slash(red, "game new", game="stratego"))
    await fake.interact(bot, fake.slash(blue, "game join"))
    await fake.interact(bot, fake.slash(red, "game start"))
    dm = fake.dms_to(red)[-1]
    assert (await fake.interact(bot, fake.click(red, dm, label="Ready"))).ok
    again = await fake.interact(bot, fake.click(red, dm, label="Ready"))
    # the stale button answers with the player's own current view (their army, now ready)
    assert again.ephemeral and "moved on" in again.text and "stands ready" in again.text and again.files
    await fake.interact(bot, fake.slash(blue, "game resign"))
    assert await bot.service.current(fake.channel_id) is None
    log = await fake.interact(bot, fake.slash(red, "game log"))
    assert log.ephemeral and "set up their army" in log.text and "resigns" in log.text
    fake.assert_clean()


def test_shared_places_are_counted_as_in_a_race() -> None:
    from bot.services.text import place_lines

    lines = place_lines([[0], [1, 2], [3]], ["A", "B", "C", "D"], "en")
    assert lines == ["1. A", "2. B, C", "4. D"]


async def test_a_player_who_goes_on_acting_keeps_one_board_edited_in_place(fake: FakeDiscord, make_bot: BotFactory,
                                                                monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(lobby, "new_seed", lambda: "polish-zlodej")
    bot = await make_bot()
    users = fake.add_members(2)
    by_id = {u["id"]: u for u in users}
    await fake.interact(bot, fake.slash(users[0], "game new", game="zlodej"))
    await fake.interact(bot, fake.slash(users[1], "game join"))
    await fake.interact(bot, fake.slash(users[0], "game start"))
    for _ in range(40):
        record = await bot.service.current(fake.channel_id)
        seat = min(bot.service.to_act(record))
        user = by_id[record.user_of(seat)]
        legal = bot.service.legal_texts(record, seat)
        lay = next((a for a in legal if a.split()[0] in ("new", "add", "take")), None)
        if lay is None:
            discard = next(a for a in legal if a.startswith("discard"))
            await fake.interact(bot, fake.slash(user, "zlodej discard", card=discard.split()[1]))
            continue
        verb, _, cards = lay.partition(" ")
        before = latest_board(fake)
        posted = len(fake.channel_messages())
        assert (await fake.interact(bot, fake.slash(user, f"zlodej {verb}", cards=cards))).ok
        # still their turn: no new message (an edit notifies no one), the board shows the lay
        assert len(fake.channel_messages()) == posted and latest_board(fake).id == before.id
        assert len(before.history) == 1 and "lays" in before.content and before.files
        assert f"{before.files[0].filename}" != before.history[0]["attachments"][0]["filename"]
        await fake.interact(bot, fake.slash(user, "zlodej end"))
        board = latest_board(fake)
        other = by_id[record.user_of(1 - seat)]
        assert board.id != before.id and f"<@{other['id']}>" in board.content  # the turn passed: a new board pings
        assert board.payload["mentions"] and {m["id"] for m in board.payload["mentions"]} == {other["id"]}
        folded = fake.message(before.id)  # the superseded board: one line, no image, no buttons
        assert not folded.files and not folded.components and "lays" in folded.content and "\n" not in folded.content
        break
    else:
        raise AssertionError("no lay happened")
    fake.assert_clean()


@on_both_backends
async def test_simultaneous_moves_end_on_the_board_of_the_latest_position(fake: FakeDiscord, make_bot: BotFactory,
                                                                  settle, monkeypatch: pytest.MonkeyPatch) -> None:  # type: ignore[no-untyped-def]
    import asyncio

    from cogs import drawing

    bot = await make_bot()
    red, blue = fake.add_members(2)
    await fake.interact(bot, fake.slash(red, "game new", game="stratego"))
    await fake.interact(bot, fake.slash(blue, "game join"))
    await fake.interact(bot, fake.slash(red, "game start"))

    # the second click arrives while the board of the first move is being drawn; that render
    # waits until the second move has been committed: the table's announcer must then end on the
    # newest state, and never leave an older one on top
    first_drawn, second_committed = asyncio.Event(), asyncio.Event()
    acts: list[int] = []
    overtaken: list[bool] = []
    real_act, real_render = bot.service.act, drawing.render_public

    async def counting_act(**kwargs):  # type: ignore[no-untyped-def]
        update = await real_act(**kwargs)
        acts.append(update.record.ply)
        if len(acts) == 2:
            second_committed.set()
        return update

    async def slow_first_render(record, obs, locale, *hint):  # type: ignore[no-untyped-def]
        if record.ply == 1:
            first_drawn.set()
            try:
                await asyncio.wait_for(second_committed.wait(), timeout=5)
            except TimeoutError:
                overtaken.append(False)  # fail below, after the render (a hang here would hide why)
            else:
                overtaken.append(True)
        return await real_render(record, obs, locale, *hint)

    monkeypatch.setattr(bot.service, "act", counting_act)
    monkeypatch.setattr(drawing, "render_public", slow_first_render)
    red_ready = fake.click(red, fake.dms_to(red)[-1], label="Ready")
    blue_ready = fake.click(blue, fake.dms_to(blue)[-1], label="Ready")
    fake.inject(bot, red_ready)
    await asyncio.wait_for(first_drawn.wait(), timeout=5)
    fake.inject(bot, blue_ready)  # pressed while the first board is being drawn
    await settle(bot)
    assert overtaken == [True], "the second move was not committed while the first board was drawn"
    plies = [int(m.files[0].filename.rsplit("-", 1)[1].split(".")[0]) for m in fake.channel_messages() if m.files]
    assert plies == [2]  # one board with an image, the latest position
    assert (await bot.service.current(fake.channel_id)).state["ready"] == [True, True]
    fake.assert_clean()


async def test_a_monopol_player_can_zoom_in_on_the_board(fake: FakeDiscord, make_bot: BotFactory) -> None:
    bot = await make_bot()
    anna, bo = fake.add_members(2)
    stranger = fake.add_member("stranger")
    await fake.interact(bot, fake.slash(anna, "game new", game="monopol"))
    await fake.interact(bot, fake.slash(bo, "game join"))
    await fake.interact(bot, fake.slash(anna, "game start"))
    own = await fake.interact(bot, fake.slash(anna, "monopol zoom"))
    assert own.ephemeral and "Start" in own.text  # both tokens stand on Start
    assert decoded(own.files[0].data).width == 1000
    named = await fake.interact(bot, fake.slash(stranger, "monopol zoom", street="skøyen"))
    assert named.ephemeral and "Skøyen stasjon" in named.text
    assert decoded(named.files[0].data).height == 1200  # a side column: tall, and each square large
    nowhere = await fake.interact(bot, fake.slash(stranger, "monopol zoom"))
    assert nowhere.ephemeral and "Name a street" in nowhere.text
    choices = await fake.interact(bot, fake.autocomplete(anna, "monopol zoom", focused="street", street="sjan"))
    assert [c["value"] for c in choices.choices] == ["Sjanse"]
    fake.assert_clean()


async def test_a_tjuv_player_can_zoom_in_on_the_city(fake: FakeDiscord, make_bot: BotFactory) -> None:
    bot = await make_bot()
    police, thief = fake.add_members(2)
    await fake.interact(bot, fake.slash(police, "game new", game="tjuv"))
    await fake.interact(bot, fake.slash(thief, "game join"))
    await fake.interact(bot, fake.slash(police, "game start"))
    assert (await fake.interact(bot, fake.slash(thief, "tjuv nest", square="A5"))).ok  # setup: his nest
    record = await bot.service.current(fake.channel_id)
    public = bot.service.observe(record, None)["public"]
    own = await fake.interact(bot, fake.slash(thief, "tjuv zoom"))
    where = next(t["at"] for t in public["thieves"] if t["seat"] == record.seat_of(thief["id"]))
    assert own.ephemeral and where in own.text
    assert decoded(own.files[0].data).size == (1000, 1000)
    named = await fake.interact(bot, fake.slash(police, "tjuv zoom", square="k14"))
    assert named.ephemeral and "K14" in named.text and named.files
    bad = await fake.interact(bot, fake.slash(police, "tjuv zoom", square="Q99"))
    assert bad.ephemeral and "not a square" in bad.text
    fake.assert_clean()
