"""The sixth game touches no shared file: tests/toygame (engine, renderer, cog, texts, rules and
one plugin entry) is registered through its plugin entry alone, and two players play a whole game
of it through the real bot and the fake Discord as they would any game: /game new, Join, Start,
moves by the board's buttons and by /toy add, refusals that change nothing, the board posted as a
real picture with its alt text, the private view, /rules, and the result at the end."""
from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from bot.engine import registry
from bot.i18n import t
from bot.services import lobby
from tests import toygame
from tests.discord.conftest import BotFactory
from tests.discord.helpers import decoded, latest_board
from tests.discord.news_checks import assert_pictures_described
from tests.discord.test_localization import LOCALES, walk
from tests.fakediscord import FakeDiscord


@pytest.fixture
def toy() -> Iterator[None]:
    toygame.register()
    yield
    registry.unregister("toy")


def add_button(message: Any, amount: int) -> dict[str, Any] | None:
    wanted = t("toy.ui.add", "en", number=amount)
    return next((b for b in message.buttons if b.get("label") == wanted and not b.get("disabled")), None)


async def test_two_players_play_the_toy_game_registered_by_its_plugin_entry_alone(
        toy: None, fake: FakeDiscord, make_bot: BotFactory, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(lobby, "new_seed", lambda: "toy-discord-0")
    bot = await make_bot()
    assert "tests.toygame.cog" in bot.loaded_extensions
    synced = {command["name"]: command for command in fake.synced_commands["global"]}
    assert "toy" in synced
    for path, item in walk([synced["toy"]]):
        for locale in LOCALES:
            assert locale in (item.get("name_localizations") or {}), (path, locale)
            assert locale in (item.get("description_localizations") or {}), (path, locale)
    alice, bob = fake.add_members(2)
    stranger = fake.add_member("stranger")

    # /game new offers the toy among the games, and opens its lobby
    choices = await fake.interact(bot, fake.autocomplete(alice, "game new", focused="game", game="to"))
    assert "toy" in [choice["value"] for choice in choices.choices]
    opened = await fake.interact(bot, fake.slash(alice, "game new", game="toy", options="target=10"))
    assert opened.ok and "Toy" in opened.content, opened.text
    assert (await fake.interact(bot, fake.click(bob, opened.original, label="Join"))).ok
    await fake.interact(bot, fake.click(alice, opened.original, label="Start"))
    record = await bot.service.current(fake.channel_id)
    assert record is not None and record.status == "active" and record.options["target"] == 10
    by_seat = {record.seat_of(u["id"]): u for u in (alice, bob)}

    board = latest_board(fake)
    picture = decoded(board.files[0].data)
    assert picture.width == 800 and board.payload["attachments"][0]["description"].startswith("Toy · 0 of 10.")

    # a stranger's click and a wrong turn are refused with a message and change nothing
    button = add_button(board, 1)
    assert button is not None, (board.buttons, board.content)
    refused = await fake.interact(bot, fake.click(stranger, board, button["custom_id"]))
    assert refused.ephemeral and refused.text
    to_act = min(bot.service.to_act(record))
    waiting = by_seat[1 - to_act]
    wrong = await fake.interact(bot, fake.slash(waiting, "toy add", amount=2))
    assert wrong.ephemeral and wrong.text
    unchanged = await bot.service.current(fake.channel_id)
    assert unchanged is not None and unchanged.ply == record.ply and unchanged.state == record.state

    # the private view shows only the viewer's own secret
    mine = await fake.interact(bot, fake.click(by_seat[to_act], board, label="Show my hand"))
    secret = record.state["secrets"][to_act]
    assert t("toy.render.secret", "en", secret=secret) in mine.text and decoded(mine.files[0].data)

    # moves: by the board's button, then by /toy add, turn by turn, until someone reaches 10
    moves = 0
    while (record := await bot.service.current(fake.channel_id)) is not None and record.status == "active":
        seat = min(bot.service.to_act(record))
        board = latest_board(fake)
        if moves % 2 == 0 and (button := add_button(board, 3)) is not None:
            done = await fake.interact(bot, fake.click(by_seat[seat], board, button["custom_id"]))
        else:
            done = await fake.interact(bot, fake.slash(by_seat[seat], "toy add", amount=2))
        assert done.ok, done.text
        moves += 1
        assert moves < 10
    finished = await bot.service.latest(fake.channel_id)
    assert finished.status == "finished" and finished.state["total"] >= 10
    winner = finished.state["winner"]
    assert moves == 4  # 3, 2, 3, 2: the fourth move reaches 10
    # the table's last picture is the result, described in words
    result = latest_board(fake)
    assert decoded(result.files[-1].data)
    described = " ".join(a.get("description", "") for a in result.payload["attachments"])
    assert by_seat[winner]["username"] in described
    assert_pictures_described(fake)

    # /rules answers from the toy's own rules text, in the asker's language
    rules = await fake.interact(bot, fake.slash(alice, "rules", game="toy", topic="secret", locale="sv"))
    assert "hemligt tal" in rules.text, rules.text
    fake.assert_clean()
