"""A whole four-player Tölp game through the real bot and the fake Discord, lobby to ranking."""
from __future__ import annotations

import copy
import re

from bot.engine.cards import parse_card
from tests.backends import on_both_backends
from tests.discord.conftest import BotFactory
from tests.discord.helpers import decoded, latest_board, own_view, tolp_command
from tests.discord.news_checks import assert_news_first, assert_pictures_described
from tests.fakediscord import FakeDiscord


@on_both_backends
async def test_four_players_play_tolp_to_the_final_ranking(fake: FakeDiscord, make_bot: BotFactory) -> None:
    bot = await make_bot()
    users = fake.add_members(4)
    stranger = fake.add_member("stranger")
    closed = users[3]
    fake.close_dms(closed)
    by_id = {u["id"]: u for u in users}

    # lobby: /game new, three Join clicks, Start
    r = await fake.interact(bot, fake.slash(users[0], "game new", game="tolp", options="scoring=rounds rounds=1"))
    assert r.ok and not r.ephemeral and "Tölp" in r.content
    lobby = r.original
    for user in users[1:]:
        joined = await fake.interact(bot, fake.click(user, lobby, label="Join"))
        assert joined.ok
    refused = await fake.interact(bot, fake.click(users[1], lobby, label="Join"))
    assert refused.ephemeral and "already" in refused.text.lower()
    await fake.interact(bot, fake.click(users[0], lobby, label="Start"))

    board = latest_board(fake)
    image = decoded(board.files[0].data)
    assert image.width >= 1000
    record = await bot.service.current(fake.channel_id)
    assert record is not None and record.status == "active"
    first = next(iter(bot.service.to_act(record)))
    assert f"<@{record.user_of(first)}>" in board.content
    assert "sha256" in board.content

    # every player got their first hand privately, with only their own cards: the starter and the
    # seat on turn as a private follow-up of their own interaction (the Start click, their Join:
    # not counted against Discord's global limit), the others by DM; the closed-DM player, unless
    # their Join carried it, got a notice in the channel instead
    for user in users:
        seat = record.seat_of(user["id"])
        hand = set(bot.service.observe(record, seat)["private"]["hand"])
        rode = user is users[0] or seat == first
        if user is closed and not rode:
            continue
        view = own_view(fake, user)
        assert view.kind == ("followup" if rode else "dm"), (user["username"], view)
        assert view.files and decoded(view.files[0].data).width >= 600
        offered = {card for comp in view.payload["components"] for item in comp.get("components", [])
                   for option in item.get("options", []) for card in option["value"].split()}
        assert offered <= hand
        assert bool(offered) == (seat == first)  # controls only for the seat on turn
    assert fake.dms_to(closed) == []
    notices = [m for m in fake.channel_messages() if f"<@{closed['id']}>" in m.content and "/game hand" in m.content]
    assert len(notices) == (0 if record.seat_of(closed["id"]) == first else 1)

    # the closed-DM player sees the hand privately with the button (the notice's, else the board's)
    shown = await fake.interact(bot, fake.click(closed, notices[0] if notices else board, label="Show my hand"))
    assert shown.ephemeral and shown.files and decoded(shown.files[0].data)

    # a stranger's click is refused and changes nothing
    before = (await bot.service.current(fake.channel_id)).version
    pass_board = latest_board(fake)
    refused = await fake.interact(bot, fake.click(stranger, pass_board, label="Show my hand"))
    assert refused.ephemeral and "not a player" in refused.text
    assert (await bot.service.current(fake.channel_id)).version == before

    moves = 0
    stale_checked = restarted = False
    old_board = None
    while True:
        record = await bot.service.current(fake.channel_id)
        if record is None:
            break
        seat = min(bot.service.to_act(record))
        user = by_id[record.user_of(seat)]
        legal = bot.service.legal_texts(record, seat)
        board = latest_board(fake)
        if moves == 6 and not restarted:
            # restart: a new bot on the same database file; the old board's buttons still work
            await fake.close_bot(bot)
            bot = await make_bot()
            restarted = True
        if "pass" in legal and board.component(label="Pass") is not None and moves % 3 == 0:
            if old_board is not None and not stale_checked:
                stale = await fake.interact(bot, fake.click(user, old_board, label="Pass"))
                assert stale.ephemeral and "moved on" in stale.text
                stale_checked = True
            old_board = copy.deepcopy(board)  # as a player's client still shows it
            r = await fake.interact(bot, fake.click(user, board, label="Pass"))
        else:
            action = next((a for a in legal if a.startswith("play")), legal[0])
            verb, _, rest = action.partition(" ")
            if verb == "play":
                other = by_id[record.user_of((seat + 1) % 4)]
                wrong = await fake.interact(bot, fake.slash(other, "tolp play", cards=rest))
                assert wrong.ephemeral and "not your turn" in wrong.text.lower(), wrong.text
            command, options = tolp_command(action)
            r = await fake.interact(bot, fake.slash(user, command, options))
        assert r.ok, r.text
        moves += 1
        assert moves < 400

    assert stale_checked and restarted
    final = fake.channel_messages()[-1]
    assert final.content.startswith("🏆") and re.search(r"seed was `[0-9a-f]+`", final.content)
    decoded(final.files[0].data)
    # hands by DM only ever went to their owners' DM channels
    dm_channels = {fake.dm_channel(u)["id"]: u["id"] for u in users}
    for message in fake.messages.values():
        if message.kind == "dm":
            assert message.channel_id in dm_channels
    assert_news_first(fake, users)  # every ping and DM leads with its reader's news
    assert_pictures_described(fake)  # every image with its alt text
    fake.assert_clean()


async def test_autocomplete_offers_only_the_callers_own_cards(fake: FakeDiscord, make_bot: BotFactory) -> None:
    bot = await make_bot()
    users = fake.add_members(3)
    await fake.interact(bot, fake.slash(users[0], "game new", game="tolp"))
    for user in users[1:]:
        await fake.interact(bot, fake.slash(user, "game join"))
    await fake.interact(bot, fake.slash(users[0], "game start"))
    record = await bot.service.current(fake.channel_id)
    for user in users:
        seat = record.seat_of(user["id"])
        hand = set(bot.service.observe(record, seat)["private"]["hand"])
        r = await fake.interact(bot, fake.autocomplete(user, "tolp play", focused="cards", cards=""))
        # the seat on turn is offered its plays; the others have nothing to play now
        assert bool(r.choices) == (seat in bot.service.to_act(record)), (seat, r.choices)
        for choice in r.choices:
            assert set(choice["value"].split()) <= hand
            parse_card(choice["value"].split()[0])
    fake.assert_clean()


def _menus(state, seat):  # type: ignore[no-untyped-def]
    from bot.engine.registry import get
    from cogs.tolp import private_selects

    game = get("tolp")
    legal = [str(a) for a in game.legal_actions(state, seat)]
    return {menu.prefix: menu for menu in private_selects(game.observe(state, seat), legal)}


def test_the_play_menu_keeps_every_natural_combination_when_wild_cards_crowd_it() -> None:
    from tests.games.tolp.build import play_state

    state = play_state(["2C 2D 3H 3S 4C 5D 6H 7S 8C 9D 10H JS QC KD AH", "4D 9C", "5S 10C"],
                       options={"wild": "23"})
    menu = _menus(state, 0)["play"]
    values = [value for _, value in menu.options]
    assert len(values) <= 25 and len(set(values)) == len(values)
    for natural in ("4C", "9D", "KD", "AH"):
        assert natural in values


def test_the_give_menu_picks_as_many_cards_as_the_exchange_needs_and_claims_have_a_menu() -> None:
    from tests.games.tolp.build import act, exchange_state

    state = exchange_state(["2C 3D 5H 9S JC QD KH AS", "4C 6D 7H 8S", "4D 6C 7S 8H", "3C 5D 9H 9C"],
                           [0, 1, 2, 3])
    give = _menus(state, 0)["give"]
    assert give.min_values == give.max_values == 2
    assert [value for _, value in give.options] == ["2C", "3D", "5H", "9S", "JC", "QD", "KH", "AS"]
    act(state, 0, "give " + " ".join(value for _, value in give.options[:2]))
    act(state, 0, "ask 9")
    claims = [value for _, value in _menus(state, 0)["claim"].options]
    assert claims == ["9", "9 9"]
    act(state, 0, "claim " + claims[-1])
    assert sorted(str(c) for c in state.hands[3] if c.rank == 9) == []
