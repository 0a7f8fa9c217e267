"""A whole Stratego game through the real bot and the fake Discord: the simultaneous hidden setup
(Red by the DM buttons and swap menu, Blue by /stratego setup code with closed DMs), moves with
autocomplete, a refused wrong-turn move, a declined draw, and a scout capturing the flag."""
from __future__ import annotations

from typing import Any

from bot.games.stratego.board import setup_squares
from bot.games.stratego.setups import PRESETS
from tests.discord.conftest import BotFactory
from tests.discord.helpers import boards, decoded, last_turn, own_view
from tests.discord.news_checks import assert_news_first, assert_pictures_described
from tests.fakediscord import FakeDiscord, StoredMessage

RED, BLUE = 0, 1
# The classic preset with the flag moved to Blue's front row at A7 (the last character: Blue
# reads each row from J to A) and the scout that stood there moved to the flag's old square.
CLASSIC = PRESETS["classic"]
BLUE_CODE = CLASSIC[0] + CLASSIC[39] + CLASSIC[2:39] + CLASSIC[1]



def selects(message: StoredMessage) -> list[dict[str, Any]]:
    return [item for row in message.payload.get("components", []) for item in row.get("components", [])
            if item.get("type") == 3]


def option_values(message: StoredMessage) -> list[str]:
    return [option["value"] for menu in selects(message) for option in menu["options"]]


def option_labels(message: StoredMessage) -> list[str]:
    return [option["label"] for menu in selects(message) for option in menu["options"]]


async def test_stratego_from_hidden_setup_to_flag_capture(fake: FakeDiscord, make_bot: BotFactory) -> None:
    bot = await make_bot()
    red, blue = fake.add_members(2)
    stranger = fake.add_member("stranger")
    fake.close_dms(blue)

    await fake.interact(bot, fake.slash(red, "game new", game="stratego"))
    assert (await fake.interact(bot, fake.slash(blue, "game join"))).ok
    await fake.interact(bot, fake.slash(red, "game start"))
    record = await bot.service.current(fake.channel_id)
    assert record is not None and record.status == "active" and record.user_of(RED) == red["id"]
    game_id = record.id

    start = boards(fake)[-1]
    assert f"<@{red['id']}>" in start.content and f"<@{blue['id']}>" in start.content
    assert decoded(start.files[0].data).width >= 1000

    # Red's view (under the Start, Red's own): the draft board with the setup controls; Blue is told
    # once to look privately
    dm = own_view(fake, red)
    assert decoded(dm.files[0].data).width >= 1000
    labels = [b.get("label") for b in dm.buttons]
    assert labels == ["Classic", "Fortress", "Blitz", "Random", "Ready"]
    menus = selects(dm)
    assert len(menus) == 3 and all(m["min_values"] == 2 == m["max_values"] for m in menus)
    assert all(len(m["options"]) == 20 for m in menus)
    assert set(option_values(dm)) == set(setup_squares(RED))
    # Blue, whose DMs are closed, sets up too: the view comes under Blue's own join, privately
    # (no DM, and no notice in the channel that a DM could not be sent)
    assert fake.dms_to(blue) == []
    blue_view = own_view(fake, blue)
    assert blue_view.ephemeral and fake.interactions[blue_view.interaction_id].user_id == blue["id"]
    assert not [m for m in fake.channel_messages() if f"<@{blue['id']}>" in m.content and "/game hand" in m.content]

    # Red: the classic preset by button, then swap A1 (bomb) and B1 (flag) with the back-rows menu
    r = await fake.interact(bot, fake.click(red, dm, label="Classic"))
    assert r.ok, r.text
    dm = own_view(fake, red)
    assert "BFB34543B3" in dm.content
    back = next(m for m in selects(dm) if "rows 1–2" in m["placeholder"])
    assert {"label": "A1 · B", "value": "A1"}.items() <= next(
        o for o in back["options"] if o["value"] == "A1").items()
    r = await fake.interact(bot, fake.select(red, dm, back["custom_id"], ["A1", "B1"]))
    assert r.ok, r.text
    dm = own_view(fake, red)
    assert "FBB34543B3" in dm.content and "Swapped A1 and B1" in dm.content

    # Blue (DMs closed): one way at a time; a code through the command, answered privately
    r = await fake.interact(bot, fake.slash(blue, "stratego setup", preset="classic", code=BLUE_CODE))
    assert r.ephemeral and "one way" in r.text
    posted = len(fake.channel_messages())
    r = await fake.interact(bot, fake.slash(blue, "stratego setup", code=BLUE_CODE.lower()))
    assert r.ok and r.ephemeral and r.files, r.text
    assert BLUE_CODE[30:] in r.text.replace(" ", "")
    assert len(fake.channel_messages()) == posted  # a draft is nobody else's business
    bad = await fake.interact(bot, fake.slash(blue, "stratego setup", code="B" * 40))
    assert bad.ephemeral and "needs exactly" in bad.text
    view = await fake.interact(bot, fake.slash(blue, "stratego board"))
    assert view.ephemeral and view.files and decoded(view.files[0].data)
    assert set(option_values(view.messages[-1])) == set(setup_squares(BLUE))
    blue_ranks = dict(zip(setup_squares(BLUE), BLUE_CODE, strict=True))
    assert blue_ranks["A7"] == "F"

    # Blue's private edits do not spoil Red's own DM buttons (a private view goes stale only when its
    # owner moved): Red presses Ready in the DM; pressing it again is a double click, refused
    assert (await fake.interact(bot, fake.click(red, dm, label="Ready"))).ok
    assert (await bot.service.get(game_id)).state["ready"] == [True, False]
    again = await fake.interact(bot, fake.click(red, dm, label="Ready"))
    assert again.ephemeral and "moved on" in again.text
    view = await fake.interact(bot, fake.slash(red, "stratego board"))
    assert view.ephemeral and "stands ready" in view.text

    # both ready: Red by button, Blue by command; the board then pings Red
    r = await fake.interact(bot, fake.slash(blue, "stratego ready"))
    assert r.ok, r.text
    board = boards(fake)[-1]
    assert "Red" in last_turn(fake) and f"<@{red['id']}>" in board.content
    assert f"<@{blue['id']}>" not in board.content.split("\n")[-1]
    record = await bot.service.get(game_id)
    red_obs = bot.service.observe(record, RED)
    assert red_obs["private"]["known"] == {}
    assert all(piece["rank"] is None for piece in red_obs["public"]["board"].values())

    # autocomplete: only the caller's movable pieces, only legal destinations
    r = await fake.interact(bot, fake.autocomplete(red, "stratego move", focused="from", **{"from": "", "to": ""}))
    sources = {c["value"] for c in r.choices}
    legal = bot.service.legal_texts(record, RED)
    assert sources == {text.split()[1] for text in legal}
    assert all(red_obs["private"]["ranks"][sq] not in ("B", "F") for sq in sources)
    assert "A4" in sources and any(c["name"] == "A4 · Scout (2)" for c in r.choices)
    r = await fake.interact(bot, fake.autocomplete(red, "stratego move", focused="to", **{"from": "a4", "to": ""}))
    assert {c["value"] for c in r.choices} == {"A5", "A6", "A7"}
    assert any(c["name"] == "A7 (attack)" for c in r.choices)
    r = await fake.interact(bot, fake.autocomplete(blue, "stratego move", focused="from", **{"from": "", "to": ""}))
    assert r.choices == []  # not Blue's turn
    r = await fake.interact(bot, fake.autocomplete(stranger, "stratego move", focused="from", **{"from": ""}))
    assert r.choices == []

    # a wrong-turn move and a stranger's move are refused and change nothing
    version = record.version
    wrong = await fake.interact(bot, fake.slash(blue, "stratego move", {"from": "J7", "to": "J6"}))
    assert wrong.ephemeral and "not your turn" in wrong.text.lower()
    wrong = await fake.interact(bot, fake.slash(stranger, "stratego move", {"from": "B4", "to": "B5"}))
    assert wrong.ephemeral and "not a player" in wrong.text
    assert (await bot.service.get(game_id)).version == version

    # Red moves by command; the board pings Blue; Red's own view (the move's private answer) shows
    # Red's own pieces only
    r = await fake.interact(bot, fake.slash(red, "stratego move", {"from": "B4", "to": "B5"}))
    assert r.ok, r.text
    board = boards(fake)[-1]
    assert "B4 → B5" in last_turn(fake) and f"<@{blue['id']}>" in board.content
    assert "Waiting" in own_view(fake, red).content
    # Blue, with closed DMs, looks at the private board ephemerally and answers by command
    view = await fake.interact(bot, fake.slash(blue, "stratego board"))
    assert view.ephemeral and view.files and "Your move" in view.text
    assert {v.split()[0] for v in option_values(view.messages[-1])} <= set(setup_squares(BLUE))
    r = await fake.interact(bot, fake.autocomplete(blue, "stratego move", focused="from", **{"from": "", "to": ""}))
    assert r.choices and {c["value"] for c in r.choices} <= set(setup_squares(BLUE))
    assert (await fake.interact(bot, fake.slash(blue, "stratego move", {"from": "J7", "to": "J6"}))).ok

    # Red offers a draw from their turn's view (by DM, or privately under their last move); Blue
    # declines; play goes on
    dm = own_view(fake, red)
    assert "Your move" in dm.content
    assert (await fake.interact(bot, fake.click(red, dm, label="Offer a draw"))).ok
    assert f"<@{blue['id']}>" in boards(fake)[-1].content
    r = await fake.interact(bot, fake.slash(blue, "stratego draw", answer="decline draw"))
    assert r.ok, r.text
    assert "declines the draw" in last_turn(fake)

    # Red's scout runs A4 -> A7 from the turn view's move menu and takes the flag
    dm = own_view(fake, red)
    menu = next(m for m in selects(dm) if any(o["value"] == "A4 A7" for o in m["options"]))
    assert any(o["label"] == "A4 2 → A7 ⚔" for o in menu["options"])
    r = await fake.interact(bot, fake.select(red, dm, menu["custom_id"], ["A4 A7"]))
    assert r.ok, r.text
    final = boards(fake)[-1]
    assert "captures" in final.content and "flag" in final.content and final.content.startswith("🏆")
    decoded(final.files[0].data)
    record = await bot.service.get(game_id)
    assert record.status == "finished" and record.outcome["places"] == [[RED], [BLUE]]
    assert await bot.service.current(fake.channel_id) is None

    # Red's DMs never held Blue's hidden ranks: Red's menus name Red's own squares and ranks only,
    # and no DM to Red carries Blue's setup code; Blue got no DM at all
    assert fake.dms_to(blue) == []
    red_squares = set(setup_squares(RED)) | {"B5"}
    offered = 0
    for message in fake.dms_to(red) + fake.ephemerals_for(red):
        assert BLUE_CODE[30:] not in message.content.replace(" ", "")
        for value in option_values(message):
            assert value.split()[0] in red_squares
            offered += 1
    assert offered  # Red's DMs did carry menus
    dm_channels = {fake.dm_channel(red)["id"]}
    assert all(m.channel_id in dm_channels for m in fake.messages.values() if m.kind == "dm")
    assert_news_first(fake, [red, blue])  # every ping and DM leads with its reader's news
    assert_pictures_described(fake)  # every image with its alt text
    fake.assert_clean()


async def test_resign_during_setup_ends_the_game(fake: FakeDiscord, make_bot: BotFactory) -> None:
    bot = await make_bot()
    red, blue = fake.add_members(2)
    await fake.interact(bot, fake.slash(red, "game new", game="stratego"))
    await fake.interact(bot, fake.slash(blue, "game join"))
    await fake.interact(bot, fake.slash(red, "game start"))
    r = await fake.interact(bot, fake.autocomplete(blue, "stratego setup", focused="preset", preset="bl"))
    assert [c["value"] for c in r.choices] == ["blitz"]
    r = await fake.interact(bot, fake.autocomplete(blue, "stratego swap", focused="first", first="A10"))
    assert [c["value"] for c in r.choices] == ["A10"] and "·" in r.choices[0]["name"]
    r = await fake.interact(bot, fake.slash(blue, "stratego resign"))
    assert r.ok, r.text
    final = boards(fake)[-1]
    assert "resigns" in final.content and final.content.startswith("🏆")
    moved = await fake.interact(bot, fake.slash(red, "stratego ready"))
    assert moved.ephemeral
    fake.assert_clean()


async def test_the_log_of_a_finished_game_and_a_stale_dm_button(fake: FakeDiscord, make_bot: BotFactory) -> None:
    bot = await make_bot()
    red, blue = fake.add_members(2)
    await fake.interact(bot, fake.slash(red, "game new", game="stratego"))
    await fake.interact(bot, fake.slash(blue, "game join"))
    await fake.interact(bot, fake.slash(red, "game start"))
    dm = own_view(fake, red)
    assert (await fake.interact(bot, fake.click(red, dm, label="Ready"))).ok
    again = await fake.interact(bot, fake.click(red, dm, label="Ready"))
    # the stale button answers with the player's own current view (their army, now ready)
    assert again.ephemeral and "moved on" in again.text and "stands ready" in again.text and again.files
    await fake.interact(bot, fake.slash(blue, "game resign"))
    assert await bot.service.current(fake.channel_id) is None
    log = await fake.interact(bot, fake.slash(red, "game log"))
    assert log.ephemeral and "set up their army" in log.text and "resigns" in log.text
    fake.assert_clean()
