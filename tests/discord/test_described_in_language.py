"""#21: every picture is described in its reader's language, for the three games whose whole-game
tests check only that a description is there (Zloděj: test_zlodej_news; Tölp hands:
test_localization). A Swedish table of Stratego, Monopol and Tjuv och Polis plays its first moves
and ends; every picture the table's channel gets (the boards, their focus views, the result —
posted to the channel or riding a player's interaction) is described in Swedish: it holds a phrase
only the Swedish descriptions use and no phrase only the English ones use."""
from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from bot.engine import registry
from bot.engine.registry import computer_action
from tests.discord.conftest import BotFactory
from tests.discord.news_checks import _body, uploads
from tests.fakediscord import FakeDiscord

CATALOGS = Path(__file__).resolve().parents[2] / "bot" / "i18n" / "catalogs" / "render"
SLOW = 30.0  # the harness's wait for the bot to settle on a loaded machine (a bound, not a timing)


def phrases(locale: str) -> set[str]:
    """The fixed words of every picture description's template in ``locale`` (the parts between
    the placeholders), five characters or more."""
    out: set[str] = set()
    for key, value in json.loads((CATALOGS / f"{locale}.json").read_text(encoding="utf-8")).items():
        if not key.startswith(("render.alt.", "render.result.")):
            continue
        for text in (value.values() if isinstance(value, dict) else [value]):
            out |= {part.strip(" .,:;·") for part in re.split(r"\{[^}]*\}", str(text))}
    return {p for p in out if len(p) >= 5 and re.search(r"[^\W\d_]{3}", p)}


SWEDISH_ONLY = phrases("sv") - phrases("en")
ENGLISH_ONLY = phrases("en") - phrases("sv")


async def first_moves(fake: FakeDiscord, bot: Any, game_name: str, users: list[dict]) -> None:
    """The players start ``game_name`` and make its first moves (Stratego: both armies set up)."""
    by_id = {u["id"]: u for u in users}
    await fake.interact(bot, fake.slash(users[0], "game new", game=game_name), timeout=SLOW)
    for user in users[1:]:
        await fake.interact(bot, fake.slash(user, "game join"), timeout=SLOW)
    assert (await fake.interact(bot, fake.slash(users[0], "game start"), timeout=SLOW)).ok
    if game_name == "stratego":
        for user in users:
            assert (await fake.interact(bot, fake.slash(user, "stratego setup", preset="classic"), timeout=SLOW)).ok
            assert (await fake.interact(bot, fake.slash(user, "stratego ready"), timeout=SLOW)).ok
        return
    game = registry.get(game_name)
    for _ in range(len(users) + 1):  # the one to act rolls (a thief first picks a nest, as the computer would)
        record = await bot.service.current(fake.channel_id)
        state = game.load(record.state)
        seat = min(game.to_act(state))
        verb, _, square = str(computer_action(game, state, seat)).partition(" ")
        options = {"square": square} if verb == "nest" else {}
        name = f"{game_name} {'nest' if verb == 'nest' else 'roll'}"
        assert (await fake.interact(bot, fake.slash(by_id[record.user_of(seat)], name, **options), timeout=SLOW)).ok


@pytest.mark.parametrize("game_name", ["stratego", "monopol", "tjuv"])
async def test_every_picture_of_a_swedish_table_is_described_in_swedish(
        fake: FakeDiscord, make_bot: BotFactory, game_name: str) -> None:
    assert SWEDISH_ONLY and ENGLISH_ONLY
    bot = await make_bot()
    users = [fake.add_member(name, locale="sv-SE") for name in ("astrid", "bertil", "cecilia")]
    users = users[:2] if game_name != "tjuv" else users
    await first_moves(fake, bot, game_name, users)
    # the second player gives up (in Tjuv och Polis the police does: the town is then the thieves')
    record = await bot.service.current(fake.channel_id)
    police = registry.get("tjuv").load(record.state).police_seat if game_name == "tjuv" else 0
    quitter = next(u for u in users if u["id"] == record.user_of(police)) if game_name == "tjuv" else users[1]
    assert (await fake.interact(bot, fake.slash(quitter, "game resign"), timeout=SLOW)).ok
    public = [(name, text) for rec, name, text in uploads(fake)
              if name.endswith(".png") and "-private" not in name and not _body(rec).get("flags", 0) & 64]
    kinds = {("result" if name.endswith("-result.png") else "focus" if name.endswith("-focus.png") else "board")
             for name, _ in public}
    assert {"board", "result"} <= kinds, public
    for name, text in public:
        assert any(p in text for p in SWEDISH_ONLY), (name, text)
        assert not [p for p in ENGLISH_ONLY if p in text], (name, text)
    fake.assert_clean()
