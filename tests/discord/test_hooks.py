"""The lean webhook calls (cogs/hooks.py) post and edit exactly what discord.py's own follow-ups
and edits do, wait and retry as its webhook adapter does, and leave a view that must keep
listening to the library."""
from __future__ import annotations

import asyncio
import io
import time
from typing import Any

import discord
import pytest
from PIL import Image

from cogs import hooks
from cogs.components import GameButton
from tests.discord.conftest import BotFactory
from tests.discord.helpers import latest_board, play_tolp_move
from tests.fakediscord import FakeDiscord, StoredMessage


def picture(colour: str) -> bytes:
    out = io.BytesIO()
    Image.new("RGB", (40, 30), colour).save(out, "PNG")
    return out.getvalue()


async def started(fake: FakeDiscord, make_bot: BotFactory) -> tuple[Any, discord.Interaction, list[dict[str, Any]]]:
    """A Tölp table just started: the Start click's interaction, whose webhook carries its boards."""
    bot = await make_bot()
    users = fake.add_members(3)
    lobby = (await fake.interact(bot, fake.slash(users[0], "game new", game="tolp"))).original
    for user in users[1:]:
        assert (await fake.interact(bot, fake.click(user, lobby, label="Join"))).ok
    assert (await fake.interact(bot, fake.click(users[0], lobby, label="Start"))).ok
    record = await bot.service.current(fake.channel_id)
    ride = bot.get_cog("Announcer").rides.of(record)
    assert ride is not None
    return bot, ride.interaction, users


def fields(user: dict[str, Any], colour: str = "red") -> dict[str, Any]:
    files = [discord.File(io.BytesIO(picture(colour)), "board.png", description="the board"),
             discord.File(io.BytesIO(picture("blue")), "focus.png", description="the focus")]
    view = discord.ui.View(timeout=None)
    view.add_item(GameButton(1, 2, "pass", label="Pass", owner=0))
    return {"content": f"<@{user['id']}> your turn", "files": files, "view": view,
            "embeds": [discord.Embed().set_image(url=f"attachment://{f.filename}") for f in files],
            "allowed_mentions": discord.AllowedMentions(users=[discord.Object(int(user["id"]))])}


def shown(message: StoredMessage) -> dict[str, Any]:
    """What a player sees of a message (ids, urls and times aside)."""
    return {"content": message.content, "flags": message.flags, "mentions": message.mentions,
            "components": message.components, "embeds": len(message.embeds), "kind": message.kind,
            "files": [(f.filename, f.data) for f in message.files],
            "descriptions": [a.get("description") for a in message.stored_attachments]}


async def test_a_lean_follow_up_posts_what_discord_py_posts(fake: FakeDiscord, make_bot: BotFactory) -> None:
    _, interaction, users = await started(fake, make_bot)
    sent = await hooks.follow_up(interaction, **fields(users[1]))
    library = await interaction.followup.send(wait=True, **fields(users[1]))
    lean, theirs = fake.message(sent.id), fake.message(library.id)
    assert sent.content == theirs.content == f"<@{users[1]['id']}> your turn"
    assert shown(lean) == shown(theirs) and lean.mentions == [users[1]["id"]]
    assert lean.files[0].data == picture("red") and lean.embed_files() == lean.files
    private = await hooks.follow_up(interaction, ephemeral=True, content="your hand", file=discord.File(
        io.BytesIO(picture("green")), "hand.png"))
    theirs_private = await interaction.followup.send("your hand", ephemeral=True, wait=True, file=discord.File(
        io.BytesIO(picture("green")), "hand.png"))
    assert shown(fake.message(private.id)) == shown(fake.message(theirs_private.id))
    assert fake.message(private.id).ephemeral
    fake.assert_clean()


async def test_lean_edits_change_what_discord_py_changes(fake: FakeDiscord, make_bot: BotFactory) -> None:
    _, interaction, users = await started(fake, make_bot)
    ours = await hooks.follow_up(interaction, **fields(users[1]))
    theirs = await interaction.followup.send(wait=True, **fields(users[1]))
    await hooks.edit_follow_up(interaction, ours.id, content="folded", attachments=[], embeds=[], view=None)
    await interaction.followup.edit_message(theirs.id, content="folded", attachments=[], embeds=[], view=None)
    assert fake.message(ours.id).content == "folded" and not fake.message(ours.id).files
    assert shown(fake.message(ours.id)) == shown(fake.message(theirs.id))
    new = [discord.File(io.BytesIO(picture("yellow")), "board.png")]
    await hooks.edit_follow_up(interaction, ours.id, content="again", attachments=new)
    assert [f.data for f in fake.message(ours.id).files] == [picture("yellow")]
    # the Start click's @original is the lobby it was pressed on
    await hooks.edit_original(interaction, content="the lobby, edited", view=None)
    assert fake.message(interaction.message.id).content == "the lobby, edited"  # type: ignore[union-attr]
    fake.assert_clean()


async def test_a_lean_call_waits_out_rate_limits_and_server_errors(fake: FakeDiscord, make_bot: BotFactory,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    _, interaction, users = await started(fake, make_bot)
    monkeypatch.setattr(hooks, "SERVER_ERROR_WAITS", (0.0, 0.0, 0.0, 0.0))
    tried = len(fake.requests)
    fake.webhook_faults(503, 0.01, 502)
    sent = await hooks.follow_up(interaction, **fields(users[1]))
    posts = [r for r in fake.requests[tried:] if r.method == "POST" and r.route.startswith("/webhooks/")]
    assert [r.status for r in posts] == [503, 429, 502, 200]
    # the whole body went again each time: the message has both pictures, once
    assert [f.data for f in fake.message(sent.id).files] == [picture("red"), picture("blue")]
    assert sum(m.content == sent.content for m in fake.messages.values()) == 1
    fake.webhook_faults(*[500] * hooks.ATTEMPTS)
    with pytest.raises(discord.DiscordServerError):
        await hooks.follow_up(interaction, content="never")
    assert len(fake.requests) - tried == 4 + hooks.ATTEMPTS
    with pytest.raises(discord.NotFound):  # no such message: not retried
        await hooks.edit_follow_up(interaction, 123456789, content="gone")
    assert len(fake.requests) - tried == 4 + hooks.ATTEMPTS + 1
    assert len(fake.violations) == 1 and "message 123456789" in str(fake.violations[0])  # the 404 alone


async def test_a_lean_defer_answers_as_discord_py_without_asking_for_the_resource(
        fake: FakeDiscord, make_bot: BotFactory) -> None:
    """Each deferral the cogs make (a move's private thinking, a click's deferred update, a public
    thinking): the same callback body as discord.py's ``defer``, without ``with_response``, which
    Discord answers 204 with no body; the interaction is then done, as the library marks it."""
    bot, _, users = await started(fake, make_bot)
    board = latest_board(fake)
    button = next(c for c in board.custom_ids)

    def fresh(kind: str) -> tuple[dict[str, Any], discord.Interaction]:
        payload = fake.slash(users[1], "game status") if kind == "slash" else fake.click(users[1], board, button)
        fake._rec_for(payload).injected_at = time.monotonic()  # known to the fake, not dispatched
        return payload, discord.Interaction(data=payload, state=bot._connection)  # type: ignore[arg-type]

    for kind, options in (("slash", {"ephemeral": True, "thinking": True}), ("slash", {}),
                          ("click", {}), ("click", {"ephemeral": True, "thinking": True}),
                          ("click", {"thinking": True})):
        (ours, lean), (theirs, library) = fresh(kind), fresh(kind)
        await hooks.defer(lean, **options)
        await library.response.defer(**options)
        mine, other = fake.responses_for(ours).initial, fake.responses_for(theirs).initial
        assert mine is not None and other is not None
        assert mine.json == other.json, (kind, options)
        assert (mine.query, mine.status, mine.response) == ({}, 204, None)
        assert other.query == {"with_response": "1"} and other.status == 200
        assert lean.response.is_done() and lean.response.type == library.response.type
        assert fake.responses_for(ours).ephemeral == fake.responses_for(theirs).ephemeral
        with pytest.raises(discord.InteractionResponded):
            await hooks.defer(lean, **options)
    fake.assert_clean()


async def test_a_view_that_must_keep_listening_goes_the_library_way(fake: FakeDiscord,
                                                                    make_bot: BotFactory) -> None:
    bot, interaction, _ = await started(fake, make_bot)
    view = discord.ui.View(timeout=None)
    view.add_item(discord.ui.Button(label="Yes", custom_id="plain:yes"))
    assert not hooks.lean(view) and hooks.lean(None) and hooks.lean(fields({"id": "1"})["view"])
    sent = await hooks.follow_up(interaction, content="sure?", view=view)
    assert fake.message(sent.id).custom_ids == ["plain:yes"]
    assert bot._connection._view_store.is_message_tracked(sent.id)  # discord.py dispatches its clicks


def listening_views() -> list[asyncio.Task[Any]]:
    """discord.py's timers of the views it keeps listening (a View with a timeout, in its store)."""
    return [task for task in asyncio.all_tasks() if "timeout_task_impl" in task.get_coro().__qualname__]


async def test_moves_leave_no_view_listening(fake: FakeDiscord, make_bot: BotFactory) -> None:
    """Every private view a move answers with, and every board, is made of DynamicItems that any
    message dispatches: discord.py kept each ephemeral one listening for 15 minutes (a task and the
    whole view per follow-up, tens of thousands on a busy bot), now none is kept."""
    bot, _, users = await started(fake, make_bot)
    for _ in range(6):
        answer = await play_tolp_move(fake, bot, users)
        assert answer.ok
    assert any(m.ephemeral and m.custom_ids for m in fake.messages.values())  # private views with buttons went out
    assert listening_views() == []
    # "Show my hand" on the board: the hand is the click's first answer, private, with its buttons
    record = await bot.service.current(fake.channel_id)
    player = next(u for u in users if u["id"] == record.user_of(min(bot.service.to_act(record))))
    hand = await fake.interact(bot, fake.click(player, latest_board(fake), label="Show my hand"))
    assert hand.ephemeral and hand.files and any(m.custom_ids for m in hand.messages)
    assert listening_views() == []
    # and its buttons still play
    shown_hand = next(m for m in hand.messages if m.custom_ids)
    ply = record.ply
    assert (await fake.interact(bot, fake.click(player, shown_hand, label="Pass"))).ok
    assert (await bot.service.current(fake.channel_id)).ply == ply + 1
    assert listening_views() == []
    assert not bot._connection._view_store._synced_message_views
