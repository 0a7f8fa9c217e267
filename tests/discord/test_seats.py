"""Seats changing hands through the real bot and the fake Discord, as players do it: /game replace
refused by a vote and then agreed (the newcomer accepts on the one panel message, gets the seat's
private view by DM and plays it; the old holder's buttons, /game hand and web link refuse them in
words; the log names who made each move and the game still replays from its seed); a computer
seat handed to a human; a request nobody answers lapsing after a day; a sitter playing a seat
through its owner's vacation and handing it back; and the guards (strangers, the seat's own player
voting, a newcomer already seated, a bot, forged and stale buttons)."""
from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime, timedelta

from bot.engine import registry
from bot.services.movelog import replay
from bot.storage import seats as seats_repo
from tests.backends import on_both_backends
from tests.discord.conftest import BotFactory
from tests.discord.helpers import decoded, latest_board, own_view, play_tolp_move
from tests.fakediscord import FakeDiscord, StoredMessage


class Clock:
    def __init__(self) -> None:
        self.now = datetime(2026, 12, 1, 18, 0, tzinfo=UTC)

    def __call__(self) -> datetime:
        return self.now


async def tolp_table(fake: FakeDiscord, bot: object, users: list[dict], **options: object) -> None:
    """users[0] opens a Tölp table, the others join, and it starts."""
    assert (await fake.interact(bot, fake.slash(users[0], "game new", game="tolp", **options))).ok
    for user in users[1:]:
        assert (await fake.interact(bot, fake.slash(user, "game join"))).ok
    assert (await fake.interact(bot, fake.slash(users[0], "game start"))).ok


def private_select(message: object) -> tuple[str, str]:
    """The custom_id and first value of the first menu of a private view."""
    for row in message.payload["components"]:  # type: ignore[attr-defined]
        for item in row.get("components", []):
            if item.get("options"):
                return item["custom_id"], item["options"][0]["value"]
    raise AssertionError("no menu in the private view")


def pinged(message: object) -> set[str]:
    """Whom a message notifies (its allowed_mentions' users)."""
    allowed = message.allowed_mentions or {}  # type: ignore[attr-defined]
    return {str(u) for u in allowed.get("users") or []} if not allowed.get("parse") else {"?"}


def forge(payload: dict, label: str, change: Callable[[str], str]) -> dict:
    """A click whose button's custom_id a forging client changed (in the message and the data)."""
    custom_id = change(payload["data"]["custom_id"])
    payload["data"]["custom_id"] = custom_id
    for row in payload["message"]["components"]:
        for item in row.get("components", []):
            if item.get("label") == label:
                item["custom_id"] = custom_id
    return payload


@on_both_backends
async def test_a_replacement_refused_then_agreed_and_accepted(fake: FakeDiscord, make_bot: BotFactory) -> None:
    bot = await make_bot(clock=Clock())
    users = fake.add_members(3)
    dan = fake.add_member("dan")
    stranger = fake.add_member("stranger")
    robot = fake.add_member("robot", bot=True)
    await tolp_table(fake, bot, users)
    record = await bot.service.current(fake.channel_id)
    assert record is not None
    seat = min(bot.service.to_act(record))  # the seat on turn: its private view has controls
    by_id = {u["id"]: u for u in users}
    holder = by_id[record.user_of(seat)]
    asker, voter = [u for u in users if u is not holder]
    old_view = own_view(fake, holder)  # by DM, or under their own interaction (the start, their join)
    custom_id, value = private_select(old_view)

    # bad asks change nothing
    for options, words in (({"seat": 2, "user": robot}, "A bot cannot take a seat"),
                           ({"seat": seat + 1, "user": asker}, "already plays seat"),
                           ({"seat": 4, "user": dan}, "numbered 1 to 3")):
        r = await fake.interact(bot, fake.slash(asker, "game replace", options))
        assert r.ephemeral and words in r.text, r.text
    r = await fake.interact(bot, fake.slash(stranger, "game replace", {"seat": seat + 1, "user": dan}))
    assert r.ephemeral and "Only a player at this table" in r.text

    # asked: the panel pings the vote still awaited and the newcomer; the asker's yes counts
    r = await fake.interact(bot, fake.slash(asker, "game replace", {"seat": seat + 1, "user": dan}))
    assert r.ok and not r.ephemeral, r.text
    panel = r.original
    assert pinged(panel) == {voter["id"], dan["id"]}
    assert f"take over seat {seat + 1}" in panel.content and "agrees ✅" in panel.content
    again = await fake.interact(bot, fake.slash(voter, "game replace", {"seat": seat + 1, "user": dan}))
    assert again.ephemeral and "already has a request" in again.text
    for who, words in ((holder, "It is your seat"), (stranger, "Only the other players"),
                       (dan, "Only the other players")):
        r = await fake.interact(bot, fake.click(who, panel, label="Agree"))
        assert r.ephemeral and words in r.text, r.text
    r = await fake.interact(bot, fake.click(dan, panel, label="Refuse"))
    assert r.ephemeral and "Only the other players" in r.text

    # refused by the other player: the panel says so, the seat stays
    stale = fake.click(voter, panel, label="Agree")  # pressed on a client that still shows the buttons
    forged = forge(fake.click(voter, panel, label="Agree"), "Agree",
                   lambda custom_id: f"gm:sr:{int(custom_id.split(':')[2]) + 1000}:y")
    malformed = forge(fake.click(voter, panel, label="Agree"), "Agree", lambda custom_id: "gm:sr:1:maybe")
    r = await fake.interact(bot, fake.click(voter, panel, label="Refuse"))
    assert r.ok and not r.followups, r.text
    shown = fake.message(panel.id)
    assert "refused: seat" in shown.content and not shown.components
    record = await bot.service.current(fake.channel_id)
    assert record.user_of(seat) == holder["id"]
    late = await fake.interact(bot, stale)
    assert late.ephemeral and "refused: nothing changes" in late.text
    r = await fake.interact(bot, forged)
    assert r.ephemeral and "request is unknown" in r.text, r.text
    r = await fake.interact(bot, malformed)
    assert r.ephemeral and "That button is not valid" in r.text, r.text

    # asked again and agreed: the panel turns to Accept / Decline for the newcomer
    r = await fake.interact(bot, fake.slash(asker, "game replace", {"seat": seat + 1, "user": dan}))
    panel = r.original
    early = await fake.interact(bot, fake.click(dan, panel, label="Agree"))
    assert early.ephemeral
    second_thoughts = fake.click(voter, panel, label="Refuse")
    assert (await fake.interact(bot, fake.click(voter, panel, label="Agree"))).ok
    panel = fake.message(panel.id)
    assert "will you take the seat?" in panel.content and panel.component(label="Accept the seat")
    r = await fake.interact(bot, fake.click(stranger, panel, label="Accept the seat"))
    assert r.ephemeral and "Only the player asked" in r.text
    r = await fake.interact(bot, second_thoughts)
    assert r.ephemeral and "The vote is over" in r.text
    before_dms = len(fake.dms_to(dan))
    assert (await fake.interact(bot, fake.click(dan, panel, label="Accept the seat"))).ok
    panel = fake.message(panel.id)
    assert "now plays seat" in panel.content and not panel.components

    # the newcomer holds the seat: its private view by DM (a real picture), its clock, its turn
    record = await bot.service.current(fake.channel_id)
    assert record.user_of(seat) == dan["id"] and record.names[seat] == "dan"
    dms = fake.dms_to(dan)
    assert len(dms) == before_dms + 1 and dms[-1].files and decoded(dms[-1].files[0].data).width >= 600
    hand = set(bot.service.observe(record, seat)["private"]["hand"])
    offered = {card for row in dms[-1].payload["components"] for item in row.get("components", [])
               for option in item.get("options", []) for card in option["value"].split()}
    assert offered and offered <= hand
    assert "dan takes over this seat." in latest_board(fake).content

    # the old holder is refused in words: the old private view's menu, /game hand, a move
    refused = await fake.interact(bot, fake.select(holder, old_view, custom_id, [value]))
    assert refused.ephemeral and "no longer hold a seat" in refused.text and "dan plays it now" in refused.text
    refused = await fake.interact(bot, fake.slash(holder, "game hand"))
    assert refused.ephemeral and "no longer hold a seat" in refused.text
    played_before = record.ply
    again = await fake.interact(bot, fake.slash(dan, "game replace", {"seat": 1 + (seat + 1) % 3, "user": dan}))
    assert again.ephemeral and "already plays seat" in again.text

    # the newcomer plays; the log names the holder of each move; the log replays from the seed
    all_users = [*users, dan]
    for _ in range(4):
        assert (await play_tolp_move(fake, bot, all_users)).ok
    record = await bot.service.current(fake.channel_id)
    moves = await bot.service.moves(record.id)
    assert any(s == seat and ply > played_before for ply, s, _, _ in moves)
    log = await fake.interact(bot, fake.slash(voter, "game log"))
    holder_name, dan_name = holder["username"], "dan"
    for ply, s, _, _ in moves:
        if s == seat:
            expected = holder_name if ply <= played_before else dan_name
            assert f"{ply}. {expected}:" in log.text, (ply, log.text)
    game = registry.get("tolp")
    state = replay(game, 3, record.options, record.seed, [(s, a) for _, s, a, _ in moves])
    assert game.dump(state) == record.state
    async with bot.db.reading() as conn:
        rows = await seats_repo.holders(conn, record.id)
    assert [(r.seat, r.user_id, r.kind) for r in rows] == [(seat, holder["id"], "start"),
                                                          (seat, dan["id"], "replaced")]

    # a request open when the game ends: its buttons answer that the game is over
    r = await fake.interact(bot, fake.slash(asker, "game replace", {"seat": record.seat_of(asker["id"]) + 1,
                                                                     "user": stranger}))
    assert r.ok, r.text
    open_panel = r.original
    assert (await fake.interact(bot, fake.slash(users[0], "game end"))).ok
    r = await fake.interact(bot, fake.click(voter, open_panel, label="Agree"))
    assert r.ephemeral and "This game is over" in r.text, r.text
    cog = bot.get_cog("SeatsCog")
    assert await cog.tick(bot.service.clock()) == 1  # the tick closes it on the panel
    assert "The game has ended" in fake.message(open_panel.id).content
    assert not fake.message(open_panel.id).components
    fake.assert_clean()


async def test_a_computer_seat_goes_to_a_human_and_an_unanswered_request_lapses(
        fake: FakeDiscord, make_bot: BotFactory) -> None:
    clock = Clock()
    bot = await make_bot(clock=clock)
    ann, bo, cy = fake.add_members(3)
    await tolp_table(fake, bot, [ann, bo], computers=1)
    record = await bot.service.current(fake.channel_id)
    computer = next(s.seat for s in record.seats if s.is_computer)

    # nobody answers: after a day the request lapses, said on the panel and to the asker
    r = await fake.interact(bot, fake.slash(ann, "game replace", {"seat": computer + 1, "user": cy}))
    assert r.ok and "which the computer plays" in r.text, r.text
    panel = r.original
    late = fake.click(bo, panel, label="Agree")  # pressed after the day on a client still showing it
    cog = bot.get_cog("SeatsCog")
    assert await cog.tick(clock.now + timedelta(hours=23)) == 0
    assert await cog.tick(clock.now + timedelta(hours=24, minutes=1)) == 1
    assert "lapsed" in fake.message(panel.id).content and not fake.message(panel.id).components
    note = fake.channel_messages()[-1]
    assert "lapsed" in note.content and pinged(note) == {ann["id"]}
    late = await fake.interact(bot, late)
    assert late.ephemeral and "lapsed" in late.text
    assert await cog.tick(clock.now + timedelta(hours=25)) == 0  # said once

    # asked again: Bo agrees, Cy accepts: the computer's seat is Cy's, with its private view
    r = await fake.interact(bot, fake.slash(ann, "game replace", {"seat": computer + 1, "user": cy}))
    panel = r.original
    assert (await fake.interact(bot, fake.click(bo, panel, label="Agree"))).ok
    assert (await fake.interact(bot, fake.click(cy, fake.message(panel.id), label="Accept the seat"))).ok
    record = await bot.service.current(fake.channel_id)
    row = record.seats[computer]
    assert not row.is_computer and row.user_id == cy["id"] and row.name == "player3"
    assert fake.dms_to(cy) and decoded(fake.dms_to(cy)[-1].files[0].data)
    # Cy now plays the seat when it is on turn (no computer moves for it any more)
    moves_before = len(await bot.service.moves(record.id))
    for _ in range(6):
        assert (await play_tolp_move(fake, bot, [ann, bo, cy])).ok
    record = await bot.service.current(fake.channel_id)
    later = (await bot.service.moves(record.id))[moves_before:]
    assert any(s == computer for _, s, _, _ in later)
    assert not record.seats[computer].is_computer
    fake.assert_clean()


@on_both_backends
def private_views(fake: FakeDiscord, user: dict) -> list[StoredMessage]:
    """Every private view the player was sent: DMs and private follow-ups naming the table."""
    return fake.dms_to(user) + [m for m in fake.ephemerals_for(user) if "https://discord.com/channels/" in m.content]


async def test_a_sitter_plays_through_a_vacation_and_hands_the_seat_back(
        fake: FakeDiscord, make_bot: BotFactory) -> None:
    bot = await make_bot(clock=Clock())
    ann, bo, cy = fake.add_members(3)
    sam = fake.add_member("sam")
    await tolp_table(fake, bot, [ann, bo, cy])
    record = await bot.service.current(fake.channel_id)
    seat = record.seat_of(ann["id"])

    # Ann goes on vacation and names Sam; Sam gets her private view, the board says who sits
    assert (await fake.interact(bot, fake.slash(ann, "game vacation", days=5))).ok
    refused = await fake.interact(bot, fake.slash(ann, "game sitter", {"user": bo}))
    assert refused.ephemeral and "already plays seat" in refused.text
    r = await fake.interact(bot, fake.slash(ann, "game sitter", {"user": sam}))
    assert r.ok and not r.ephemeral and f"<@{sam['id']}> sits for player1" in r.text, r.text
    record = await bot.service.current(fake.channel_id)
    assert record.user_of(seat) == sam["id"] and record.names[seat] == "sam (for player1)"
    assert decoded(fake.dms_to(sam)[-1].files[0].data)
    assert "sam (for player1) plays this seat for now." in latest_board(fake).content
    refused = await fake.interact(bot, fake.slash(ann, "game hand"))
    assert refused.ephemeral and "sam is sitting for you" in refused.text
    twice = await fake.interact(bot, fake.slash(sam, "game sitter", {"user": cy}))
    assert twice.ephemeral and "only the seat's owner names a sitter" in twice.text, twice.text

    # Sam plays until he has made moves for Ann's seat
    users = [ann, bo, cy, sam]
    start = record.ply
    for _ in range(8):
        assert (await play_tolp_move(fake, bot, users)).ok
    record = await bot.service.current(fake.channel_id)
    sat = [ply for ply, s, _, _ in await bot.service.moves(record.id) if s == seat and ply > start]
    assert sat, "Sam made no move for the seat"

    # back from vacation: the seat is Ann's again, with her private view; Sam is refused
    before = len(private_views(fake, ann))
    assert (await fake.interact(bot, fake.slash(ann, "game vacation", days=0))).ok
    record = await bot.service.current(fake.channel_id)
    assert record.user_of(seat) == ann["id"] and record.names[seat] == "player1"
    # by DM, or, if the seat is on turn, under her own last interaction at the table (her start)
    assert len(private_views(fake, ann)) == before + 1
    refused = await fake.interact(bot, fake.slash(sam, "game hand"))
    assert refused.ephemeral and "no longer hold a seat" in refused.text
    log = await fake.interact(bot, fake.slash(bo, "game log"))
    for ply in sat:
        assert f"{ply}. sam (for player1):" in log.text, log.text
    assert f"{start}. sam: sits in seat {seat + 1} for player1" in log.text, log.text
    assert f"player1: is back in seat {seat + 1}" in log.text, log.text
    viewer = await fake.interact(bot, fake.slash(bo, "game replay", move=sat[0]))  # the replay says it too
    assert viewer.ok and "sam (for player1)" in viewer.text.split("\n")[1], viewer.text

    # named again, handed back by the sitter himself with /game sitter
    assert (await fake.interact(bot, fake.slash(ann, "game sitter", {"user": sam}))).ok
    r = await fake.interact(bot, fake.slash(sam, "game sitter"))
    assert r.ok and f"<@{ann['id']}> has their seat back" in r.text, r.text
    nothing = await fake.interact(bot, fake.slash(ann, "game sitter"))
    assert nothing.ephemeral and "Nobody sits for you" in nothing.text
    record = await bot.service.current(fake.channel_id)
    moves = await bot.service.moves(record.id)
    game = registry.get("tolp")
    assert game.dump(replay(game, 3, record.options, record.seed, [(s, a) for _, s, a, _ in moves])) == record.state
    fake.assert_clean()


async def test_the_creator_decides_alone_when_the_seats_player_left_the_server(
        fake: FakeDiscord, make_bot: BotFactory) -> None:
    bot = await make_bot(clock=Clock())
    ann, bo, cy = fake.add_members(3)
    dan = fake.add_member("dan")
    await tolp_table(fake, bot, [ann, bo, cy])
    record = await bot.service.current(fake.channel_id)
    seat = record.seat_of(bo["id"])

    # while Bo is a member, even the creator asks the others
    r = await fake.interact(bot, fake.slash(ann, "game replace", {"seat": seat + 1, "user": dan}))
    assert "Agree or refuse below" in r.text and r.original.component(label="Agree")
    assert (await fake.interact(bot, fake.click(cy, r.original, label="Refuse"))).ok

    del fake.members[bo["id"]]  # Bo left the server
    r = await fake.interact(bot, fake.slash(cy, "game replace", {"seat": seat + 1, "user": dan}))
    assert "Agree or refuse below" in r.text  # Cy is neither the creator nor a manager
    assert (await fake.interact(bot, fake.click(ann, r.original, label="Refuse"))).ok
    r = await fake.interact(bot, fake.slash(ann, "game replace", {"seat": seat + 1, "user": dan}))
    assert r.ok and "decided alone" in r.text and r.original.component(label="Accept the seat"), r.text
    assert pinged(r.original) == {dan["id"]}
    assert (await fake.interact(bot, fake.click(dan, r.original, label="Accept the seat"))).ok
    record = await bot.service.current(fake.channel_id)
    assert record.user_of(seat) == dan["id"]
    assert fake.dms_to(dan) and decoded(fake.dms_to(dan)[-1].files[0].data)
    fake.assert_clean()
