"""Boards ride the interaction of whoever changed the table: the lobby's edits, the first board of a
start, every move's board and the fold of the one before go through the interactions' webhooks,
which Discord's global limit does not count; a board whose interaction's token no longer serves
goes out as a channel post, once."""
from __future__ import annotations

from typing import Any

from bot.engine import registry
from bot.engine.registry import computer_action
from tests.discord.conftest import BotFactory
from tests.discord.helpers import assert_moved, board_posts, own_view, tolp_command, zlodej_command
from tests.discord.test_zlodej_game import made_for_ply
from tests.fakediscord import FakeDiscord, Recorded, StoredMessage, settle


def in_channel(fake: FakeDiscord, requests: list[Recorded]) -> list[str]:
    """The counted calls on the table's channel (a DM's are the players' own business)."""
    return [f"{r.method} {r.route}" for r in requests if r.route.startswith(f"/channels/{fake.channel_id}")]


async def play(fake: FakeDiscord, bot: Any, users: list[dict[str, Any]]) -> None:
    """The player to act makes their first legal move (a play when there is one) by slash command."""
    record = await bot.service.current(fake.channel_id)
    seat = min(bot.service.to_act(record))
    user = next(u for u in users if u["id"] == record.user_of(seat))
    legal = bot.service.legal_texts(record, seat)
    command, options = tolp_command(next((a for a in legal if a.startswith("play")), legal[0]))
    assert_moved(await fake.interact(bot, fake.slash(user, command, options)))


async def test_a_start_and_its_moves_cost_the_table_no_counted_call(fake: FakeDiscord, make_bot: BotFactory) -> None:
    bot = await make_bot()
    users = fake.add_members(3)
    counted = len(fake.counted_requests)
    new = await fake.interact(bot, fake.slash(users[0], "game new", game="tolp"))
    lobby = new.original
    for user in users[1:]:  # the joins edit the lobby through /game new's webhook
        assert (await fake.interact(bot, fake.click(user, lobby, label="Join"))).ok
    assert len(lobby.history) >= 2 and "Join" in str(lobby.components)
    start = await fake.interact(bot, fake.click(users[0], lobby, label="Start"))
    # the first board is the Start click's follow-up; the lobby folds through the same interaction
    first = next(m for m in start.followups if not m.ephemeral)
    assert first.files and first.files[0].filename == "tolp-0.png" and first.mentions
    assert lobby.components == [] and "https://discord.com/channels/" in lobby.content
    for _ in range(4):
        await play(fake, bot, users)
    *folded, current = board_posts(fake)
    assert len(folded) >= 4 and all(not m.files and not m.components for m in folded)
    assert current.kind == "followup" and current.files
    # nothing on the table's channel counted against Discord's global limit: lobby, boards, pings, folds
    assert in_channel(fake, fake.counted_requests[counted:]) == []
    fake.assert_clean()


async def test_a_start_counts_only_the_first_hands_of_the_players_not_there(fake: FakeDiscord,
                                                                           make_bot: BotFactory) -> None:
    """The start's board rides the Start click, and so do the starter's first hand and the first
    hand of the player on turn (under their own interaction: the click, their join), privately;
    only the other players' first hands go by DM, which Discord's global limit counts (their DM
    channel opened, the DM). A thousand tables started in a minute then need a thousand boards
    posted at once and only the DMs wait for the budget (bench/bench_load.py --burst)."""
    bot = await make_bot()
    users = fake.add_members(4)
    new = await fake.interact(bot, fake.slash(users[0], "game new", game="tolp"))
    for user in users[1:]:
        await fake.interact(bot, fake.slash(user, "game join"))
    counted = len(fake.counted_requests)
    start = await fake.interact(bot, fake.click(users[0], new.original, label="Start"))
    await settle(bot)
    record = await bot.service.current(fake.channel_id)
    on_turn = record.user_of(min(bot.service.to_act(record)))
    board = next(m for m in start.followups if not m.ephemeral)
    assert board.files and f"<@{on_turn}>" in board.content
    there = {users[0]["id"], on_turn}
    for user in users:
        view = own_view(fake, user)
        if user["id"] in there:  # under their own interaction, where they are, with the right board
            assert view.ephemeral and fake.interactions[view.interaction_id].user_id == user["id"]
            assert view.files and f"/{board.id}" in view.content
        else:
            assert view.kind == "dm"
    by_dm = [fake.dm_channel(u)["id"] for u in users if u["id"] not in there]
    calls = sorted(f"{r.method} {r.route}" for r in fake.counted_requests[counted:] if r.method != "GET")
    assert calls == sorted(["POST /users/@me/channels"] * len(by_dm) + [f"POST /channels/{c}/messages" for c in by_dm])
    fake.assert_clean()


def hand_menu(messages: list[StoredMessage], game_id: int) -> tuple[StoredMessage, dict[str, Any]]:
    """A private view of the game with a menu of moves (the seat to act has one)."""
    for message in messages:
        for row in message.payload.get("components", []):
            for item in row.get("components", []):
                if item.get("type") == 3 and item.get("options") and item["custom_id"].split(":")[1] == str(game_id):
                    return message, item
    raise AssertionError("no private view with a menu")


async def test_a_board_whose_token_no_longer_serves_is_posted_to_the_channel_once(
        fake: FakeDiscord, make_bot: BotFactory) -> None:
    bot = await make_bot()
    users = fake.add_members(3)
    await fake.interact(bot, fake.slash(users[0], "game new", game="tolp"))
    for user in users[1:]:
        await fake.interact(bot, fake.slash(user, "game join"))
    await fake.interact(bot, fake.slash(users[0], "game start"))
    await play(fake, bot, users)  # its board rides the move's interaction, which the table keeps
    record = await bot.service.current(fake.channel_id)
    before = board_posts(fake)
    assert before[-1].kind == "followup"
    # the next move is made from the player's private view once every token has run out: its own
    # answer fails, so it cannot carry the board; the table's ride (the move before) is refused by
    # Discord (401 Invalid Webhook Token) and the board goes out as a counted channel post instead
    seat = min(bot.service.to_act(record))
    player = next(u for u in users if u["id"] == record.user_of(seat))
    shown = await fake.interact(bot, fake.click(player, before[-1], label="Show my hand"))
    message, menu = hand_menu(shown.messages, record.id)
    fake.token_lifetime = 0.0
    counted = len(fake.counted_requests)
    await fake.interact(bot, fake.select(player, message, menu["custom_id"], [menu["options"][0]["value"]]))
    assert (await bot.service.current(fake.channel_id)).ply == record.ply + 1
    refused = [r for r in fake.requests if r.status == 401 and r.route.startswith("/webhooks/")]
    assert refused and any(r.method == "POST" and r.files for r in refused)  # the board's follow-up was tried
    *folded, current = board_posts(fake)
    assert current.kind == "channel" and current.files[0].filename == f"tolp-{record.ply + 1}.png"
    assert len(folded) == len(before) and not folded[-1].files  # one new board; the one above folded
    posts = [r for r in fake.counted_requests[counted:] if r.method == "POST"
             and r.route == f"/channels/{fake.channel_id}/messages"]
    assert len(posts) == 1


async def test_a_players_turn_view_comes_privately_under_their_own_last_move(
        fake: FakeDiscord, make_bot: BotFactory) -> None:
    """Zloděj hands a player their hand with its menus when their turn comes: to a player who made
    their last move at the table a few minutes ago, it comes as a private follow-up of that move's
    interaction (only they see it, where they play), not as a DM, which Discord's limit counts."""
    bot = await make_bot()
    users = fake.add_members(3)
    new = await fake.interact(bot, fake.slash(users[0], "game new", game="zlodej", options="first_player=creator"))
    for user in users[1:]:
        await fake.interact(bot, fake.slash(user, "game join"))
    await fake.interact(bot, fake.click(users[0], new.original, label="Start"))
    game = registry.get("zlodej")
    first = users[0]
    moved = others = False
    dms_before: set[str] = set()
    for _ in range(60):
        record = await bot.service.current(fake.channel_id)
        seat = min(bot.service.to_act(record))
        user = next(u for u in users if u["id"] == record.user_of(seat))
        if user is first and others:
            break  # the first player's turn came back
        moved |= user is first
        others |= moved and user is not first
        command, options = zlodej_command(str(computer_action(game, game.load(record.state), seat)))
        assert_moved(await fake.interact(bot, fake.slash(user, command, options)))
        if user is first:
            dms_before = {m.id for m in fake.dms_to(first)}
    else:
        raise AssertionError("the first player's turn never came back")
    view = own_view(fake, first)
    assert view.ephemeral and view.kind == "followup" and made_for_ply(view, record.ply)
    assert fake.interactions[view.interaction_id].user_id == first["id"]  # their own interaction's
    assert any(o for row in view.payload["components"] for i in row["components"] for o in i.get("options", []))
    # no DM for it: a DM since their move may tell them news (a steal of their group), never the turn
    news = [m for m in fake.dms_to(first) if m.id not in dms_before]
    assert not any(made_for_ply(m, record.ply) or m.custom_ids for m in news), news
    fake.assert_clean()
