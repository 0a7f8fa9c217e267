"""Helpers the Discord game tests share: decoding posted PNGs, finding the latest board, and
turning a Tölp action into the slash command a player would type."""
from __future__ import annotations

import io
from typing import Any

from PIL import Image

from tests.fakediscord import FakeDiscord, Responses, StoredMessage

PNG = b"\x89PNG\r\n\x1a\n"


def decoded(data: bytes) -> Image.Image:
    """A posted PNG, decoded by Pillow (fails if it is not a real, complete PNG)."""
    assert data.startswith(PNG)
    image = Image.open(io.BytesIO(data))
    image.load()
    return image


def boards(fake: FakeDiscord) -> list[StoredMessage]:
    """Every channel message with an image, oldest first."""
    return [m for m in fake.channel_messages() if m.files]


def latest_board(fake: FakeDiscord) -> StoredMessage:
    return boards(fake)[-1]


def tolp_command(action: str) -> tuple[str, dict[str, object]]:
    """The /tolp subcommand and options that make ``action`` (a canonical Tölp action)."""
    verb, _, rest = action.partition(" ")
    options: dict[str, object] = {"pass": {}, "high": {}, "play": {"cards": rest}, "give": {"cards": rest},
                                  "ask": {"rank": rest}, "claim": {"ranks": rest}}[verb]
    return f"tolp {verb}", options


def zlodej_command(action: str) -> tuple[str, dict[str, object]]:
    """The /zlodej subcommand and options that make ``action`` (a canonical Zloděj action)."""
    verb, _, rest = action.partition(" ")
    if verb == "steal":
        victim, _, cards = rest.partition(" ")
        return "zlodej steal", {"target": f"#{int(victim) + 1}", "cards": cards}
    if verb == "end":
        return "zlodej end", {}
    return f"zlodej {verb}", {"card" if verb == "discard" else "cards": rest}


def board_posts(fake: FakeDiscord) -> list[StoredMessage]:
    """The bot's boards in the game channel, oldest first: posted to the channel, or as a public
    follow-up of the move's interaction (the lobby and the replies are interaction responses)."""
    return [m for m in fake.channel_messages() if m.kind == "channel" or (m.kind == "followup" and not m.ephemeral)]


def assert_living_table(fake: FakeDiscord, turn_changes: int) -> None:
    """One current board: at most one new board per change of turn (plus the first and the
    result), superseded boards folded to a line without image or buttons, only the current board
    carries an image, and the channel never took more than Discord's limit."""
    posted = board_posts(fake)
    assert 2 <= len(posted) <= turn_changes + 2, (len(posted), turn_changes)
    *superseded, current = posted
    for old in superseded:
        assert not old.attachments and not old.files and not old.components and not old.embeds, old
        assert old.content and "\n" not in old.content
        assert old.history, "a superseded board was edited down, not posted that way"
    assert current.files
    assert [m for m in fake.channel_messages() if m.files] == [current]
    limit, window = fake.channel_rate
    assert fake.busiest_window() <= limit


def assert_moved(response: Responses) -> None:
    """A move the board shows: a click acknowledged as a deferred update, a slash command's
    placeholder removed, or either answered with the mover's own new private view (ephemeral,
    naming its table: a follow-up instead of a DM); no "Done" and no refusal."""
    assert response.ok, response.text
    boards = board_posts(response._fake)  # the board the move's interaction carried is no answer
    answer = [m for m in response.messages if (m.content or m.files) and m not in boards]
    assert len(answer) <= 1, [(m.kind, m.ephemeral, m.deleted, m.content[:40]) for m in answer]
    for message in answer:
        assert message.ephemeral and "https://discord.com/channels/" in message.content, message.content


def last_turn(fake: FakeDiscord) -> str:
    """What the channel says about the latest moves: the previous board (folded to its summary
    when the turn passed) and the current one."""
    return "\n".join(m.content for m in board_posts(fake)[-2:])


def own_view(fake: FakeDiscord, user: dict) -> StoredMessage:
    """The latest private view a player got: by DM (a change through someone else's move, or
    their turn) or as the private answer to their own move, start or join (a follow-up instead of
    a DM; a view names its table with a link, and a view may be words alone: the police's)."""
    views = fake.dms_to(user) + [m for m in fake.ephemerals_for(user) if "https://discord.com/channels/" in m.content]
    assert views, f"no private view for {user['username']}"
    return max(views, key=lambda m: (m.payload.get("edited_timestamp") or m.payload["timestamp"], int(m.id)))


async def play_tolp_move(fake: FakeDiscord, bot: Any, users: list[dict]) -> Responses:
    """The player to act at the channel's Tölp table plays (a lay when they can, else their first
    legal action) with the slash command a player would type."""
    record = await bot.service.current(fake.channel_id)
    assert record is not None
    seat = min(bot.service.to_act(record))
    legal = bot.service.legal_texts(record, seat)
    command, options = tolp_command(next((a for a in legal if a.startswith("play")), legal[0]))
    player = next(u for u in users if u["id"] == record.user_of(seat))
    return await fake.interact(bot, fake.slash(player, command, options))


async def stratego_set_up(fake: FakeDiscord, bot: Any) -> tuple[dict, dict]:
    """Red and Blue open a Stratego table, start it and both set up the classic army and are
    ready: Red is to move."""
    red, blue = fake.add_members(2)
    await fake.interact(bot, fake.slash(red, "game new", game="stratego"))
    await fake.interact(bot, fake.slash(blue, "game join"))
    await fake.interact(bot, fake.slash(red, "game start"))
    for player in (red, blue):
        assert (await fake.interact(bot, fake.slash(player, "stratego setup", preset="classic"))).ok
        assert (await fake.interact(bot, fake.slash(player, "stratego ready"))).ok
    return red, blue
