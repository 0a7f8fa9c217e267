"""What a Zloděj player is told when someone else's turn robs them, played through the real bot and
the fake Discord by slash commands: the board posted after a steal marks the robbed pile
("Robbed"), and two steals from one player in one turn are one DM, edited to name both, also
when the bot restarts between them."""
from __future__ import annotations

from datetime import UTC, datetime

import pytest

from bot.engine import registry
from bot.engine.registry import computer_action
from bot.services import lobby
from cogs.news import addressed
from rendering import zlodej as zlodej_render
from rendering.fonts import recording
from tests.discord.conftest import BotFactory
from tests.discord.helpers import latest_board
from tests.discord.news_checks import dms_by_turn, private_reader, uploads
from tests.fakediscord import FakeDiscord

SEED = "zlodej-fold-0"  # the computer's play steals twice from one player in one turn (moves 10, 11)
GAME = registry.get("zlodej")
SLOW = 30.0  # the harness's wait for the bot to settle on a loaded machine (a bound, not a timing)


def command(action: str) -> tuple[str, dict[str, str]]:
    verb, _, rest = action.partition(" ")
    if verb == "steal":
        victim, _, cards = rest.partition(" ")
        return "zlodej steal", {"target": f"#{int(victim) + 1}", "cards": cards}
    if verb == "end":
        return "zlodej end", {}
    return f"zlodej {verb}", {"card" if verb == "discard" else "cards": rest}


async def test_two_steals_in_one_turn_are_one_dm_and_the_board_marks_the_robbed(
        fake: FakeDiscord, make_bot: BotFactory, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(lobby, "new_seed", lambda: SEED)
    bot = await make_bot()
    users = fake.add_members(3)
    by_id = {u["id"]: u for u in users}
    await fake.interact(bot, fake.slash(users[0], "game new", game="zlodej", options="first_player=creator"),
                        timeout=SLOW)
    for user in users[1:]:
        await fake.interact(bot, fake.slash(user, "game join"), timeout=SLOW)
    assert (await fake.interact(bot, fake.slash(users[0], "game start"), timeout=SLOW)).ok

    steals: list[tuple[int, str]] = []  # (victim, the steal as told to them)
    restarted = False
    while len(steals) < 2:
        record = await bot.service.current(fake.channel_id)
        assert record is not None and record.ply < 60
        seat = min(bot.service.to_act(record))
        state = GAME.load(record.state)
        action = str(computer_action(GAME, state, seat))
        if steals and (not action.startswith("steal") or int(action.split()[1]) != steals[0][0]):
            steals.clear()  # no second steal from the same player: look for the next pair
            restarted = False
        name, options = command(action)
        mover = by_id[record.user_of(seat)]
        assert (await fake.interact(bot, fake.slash(mover, name, **options), timeout=SLOW)).ok, action
        if not action.startswith("steal"):
            continue
        victim = int(action.split()[1])
        events = GAME.apply(GAME.copy(state), seat, GAME.parse_action(action))
        steal = next(e for e in events if e.key == "zlodej.event.steal")
        steals.append((victim, addressed(steal, victim, record.names, "en")))

        # the channel's board, drawn with the steal's mark: the robbed pile says so
        board = latest_board(fake)
        after = await bot.service.current(fake.channel_id)
        obs = bot.service.observe(after, None)
        obs = {**obs, "public": {**obs["public"], "now": datetime.now(UTC).strftime("%Y-%m-%dT%H:%MZ")}}
        with recording() as drawn:  # the steal marks the board (also when the thief's pile locks after it)
            marked = zlodej_render.render_public(obs, names=after.names, locale="en", theme="dark", event_hint=steal)
        plain = zlodej_render.render_public(obs, names=after.names, locale="en", theme="dark")
        assert board.files[0].data == marked != plain
        assert "Robbed" in [d.text for d in drawn]

        if len(steals) == 1 and not restarted:
            # the bot restarts between the two steals of the turn: the second still edits the first DM
            await fake.close_bot(bot)
            bot = await make_bot()
            restarted = True

    assert restarted
    victim = steals[0][0]
    turn = latest_board(fake).id
    reader = by_id[record.user_of(victim)]
    dms = dms_by_turn(fake, reader)[turn]
    assert len(dms) == 1, [m.content for m in dms]  # one DM for the two steals ...
    dm = dms[0]
    assert dm.history, "the turn's DM was not edited"  # ... edited when the second came
    first = dm.content.splitlines()[0]
    assert first.startswith(f"{record.names[victim]} — Zloděj: ")
    assert all(told in first for _, told in steals), (first, steals)
    # the edit carries the hand as it is now (the picture of the view after both steals)
    assert dm.files and dm.files[0].data
    fake.assert_clean()


async def test_every_picture_is_described_in_its_readers_language(fake: FakeDiscord, make_bot: BotFactory,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    """A table opened in Norwegian, played by a Swede and a Czech too: every board and focus
    picture the channel gets is described in the table's language, every picture a player's DMs
    get in that player's own (their hand told from their own view)."""
    monkeypatch.setattr(lobby, "new_seed", lambda: SEED)
    bot = await make_bot()
    host = fake.add_member("ola", locale="no")
    users = [host, fake.add_member("sven", locale="sv-SE"), fake.add_member("jana", locale="cs")]
    by_id = {u["id"]: u for u in users}
    await fake.interact(bot, fake.slash(host, "game new", game="zlodej", options="first_player=creator"), timeout=SLOW)
    for user in users[1:]:
        await fake.interact(bot, fake.slash(user, "game join"), timeout=SLOW)
    assert (await fake.interact(bot, fake.slash(host, "game start"), timeout=SLOW)).ok
    for _ in range(14):  # the first turns, two steals among them
        record = await bot.service.current(fake.channel_id)
        seat = min(bot.service.to_act(record))
        name, options = command(str(computer_action(GAME, GAME.load(record.state), seat)))
        assert (await fake.interact(bot, fake.slash(by_id[record.user_of(seat)], name, **options), timeout=SLOW)).ok
    # words only each language's description of a Zloděj picture uses
    words = {"nb": ("Bunke:", "Hånden din"), "sv": ("Talong:", "Din hand"), "cs": ("Balíček:", "Vaše ruka")}
    languages = {u["id"]: lang for u, lang in zip(users, ("nb", "sv", "cs"), strict=True)}
    seen: dict[str, int] = {}
    for rec, filename, description in uploads(fake):
        reader = private_reader(fake, rec)  # a DM, or a private follow-up of the reader's own interaction
        # what the channel sees (boards, posted or riding an interaction) speaks the table's language
        lang = languages[reader] if reader is not None else "nb"
        stock, hand = words[lang]
        assert stock in description, (lang, filename, description)
        if "-private-" in filename:
            assert description.count(hand) == 1, (lang, filename, description)  # their own hand, no other
        seen[lang] = seen.get(lang, 0) + 1
    assert set(seen) == {"nb", "sv", "cs"}, seen
