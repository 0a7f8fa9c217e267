"""Tests of the fake Discord harness itself, driven through a toy discord.py bot.

The toy bot lives here (not in the product): it exists to exercise every harness feature — file
replies, DynamicItem buttons/selects, autocomplete, defer + followups, DMs (closed DMs too),
modals, channel messages and edits, threads, permission checks and deliberate rule breaches.
"""

from __future__ import annotations

import asyncio
import io
import re

import aiohttp
import discord
import pytest
import pytest_asyncio
from discord import app_commands
from discord.ext import commands

from tests.fakediscord import API, MANAGE_GUILD, FakeDiscord, MiB, Opt, settle

PNG = b"\x89PNG\r\n\x1a\n"
EVENTS: list[str] = []


def png(label: str) -> discord.File:
    from PIL import Image, ImageDraw

    img = Image.new("P", (32, 32), 0)
    ImageDraw.Draw(img).text((4, 10), label[:3], fill=1)
    buf = io.BytesIO()
    img.save(buf, "PNG")
    buf.seek(0)
    return discord.File(buf, filename=f"{label}.png")


# ------------------------------------------------------------------------------- toy bot


class RerollButton(discord.ui.DynamicItem[discord.ui.Button], template=r"toy:reroll:(?P<sides>\d+)"):
    def __init__(self, sides: int) -> None:
        super().__init__(discord.ui.Button(label=f"Reroll d{sides}", custom_id=f"toy:reroll:{sides}"))
        self.sides = sides

    @classmethod
    async def from_custom_id(cls, interaction, item, match: re.Match[str]):
        return cls(int(match["sides"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        EVENTS.append(f"reroll:{self.sides}:{interaction.user.id}")
        await interaction.response.send_message(f"rerolled d{self.sides}")


class FlipSelect(discord.ui.DynamicItem[discord.ui.Select], template=r"toy:flip:(?P<n>\d+)"):
    def __init__(self, n: int) -> None:
        super().__init__(discord.ui.Select(custom_id=f"toy:flip:{n}", options=[
            discord.SelectOption(label="Heads", value="heads"),
            discord.SelectOption(label="Tails", value="tails")]))
        self.n = n

    @classmethod
    async def from_custom_id(cls, interaction, item, match: re.Match[str]):
        return cls(int(match["n"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        await interaction.response.edit_message(content=f"flipped {self.item.values[0]}")


class PeekButton(discord.ui.DynamicItem[discord.ui.Button], template=r"toy:peek:(?P<n>\d+)"):
    def __init__(self, n: int) -> None:
        super().__init__(discord.ui.Button(label="Peek", custom_id=f"toy:peek:{n}"))
        self.n = n

    @classmethod
    async def from_custom_id(cls, interaction, item, match: re.Match[str]):
        return cls(int(match["n"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        where = "dm" if interaction.guild_id is None else "guild"
        await interaction.response.send_message(f"peek {self.n} in {where}")


class RawView(discord.ui.View):
    """Sends raw component dicts, bypassing discord.py's own checks, to provoke the fake."""

    def __init__(self, rows: list[dict]) -> None:
        super().__init__(timeout=None)
        self.rows = rows

    def to_components(self):
        return self.rows


class NoteModal(discord.ui.Modal, title="Note"):
    text = discord.ui.TextInput(label="Text", custom_id="toy:note:text")

    async def on_submit(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message(f"noted {self.text.value}")


class Toy(commands.Cog):
    toy = app_commands.Group(name="toy", description="toy commands")
    admin = app_commands.Group(name="admin", description="admin", parent=toy)

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot
        self.choices = 3
        self.choice_len = 5

    @toy.command(name="roll", description="roll a die")
    async def roll(self, interaction: discord.Interaction, sides: int = 6) -> None:
        EVENTS.append(f"roll:{sides}:{interaction.locale.value}")
        view = discord.ui.View(timeout=None)
        view.add_item(RerollButton(sides))
        view.add_item(FlipSelect(sides))
        await interaction.response.send_message(f"You rolled a d{sides}", file=png(f"d{sides}"), view=view)

    @toy.command(name="pick", description="pick a card")
    async def pick(self, interaction: discord.Interaction, card: str) -> None:
        await interaction.response.send_message(f"picked {card}", ephemeral=True)

    @pick.autocomplete("card")
    async def pick_ac(self, interaction: discord.Interaction, current: str):
        names = [f"{current}{i}".ljust(self.choice_len, "x") for i in range(self.choices)]
        return [app_commands.Choice(name=n, value=n[:100]) for n in names]

    @toy.command(name="hand", description="DM my hand")
    async def hand(self, interaction: discord.Interaction) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        view = discord.ui.View(timeout=None)
        view.add_item(PeekButton(3))
        try:
            await interaction.user.send("Your hand", file=png("hand"), view=view)
        except discord.Forbidden as e:
            EVENTS.append(f"dm-forbidden:{e.code}")
            await interaction.followup.send("I cannot DM you - open your DMs.", ephemeral=True)
        else:
            await interaction.followup.send("Sent you a DM.", ephemeral=True)

    @toy.command(name="later", description="deferred reply")
    async def later(self, interaction: discord.Interaction) -> None:
        await interaction.response.defer()
        await interaction.followup.send("first")
        await interaction.edit_original_response(content="first, edited")
        await interaction.followup.send("second", file=png("two"))

    @toy.command(name="slow", description="answers late")
    async def slow(self, interaction: discord.Interaction, delay: float) -> None:
        await asyncio.sleep(delay)  # the behaviour under test: a handler that is too slow
        try:
            await interaction.response.send_message("slow")
        except discord.NotFound as e:
            EVENTS.append(f"late:{e.code}")

    @toy.command(name="say", description="say something")
    async def say(self, interaction: discord.Interaction, text: str, repeat: int = 1) -> None:
        try:
            await interaction.response.send_message(text * repeat)
        except discord.HTTPException as e:
            EVENTS.append(f"say:{e.status}:{e.code}")

    @toy.command(name="big", description="send a big file")
    async def big(self, interaction: discord.Interaction, size: int) -> None:
        try:
            await interaction.response.send_message(file=discord.File(io.BytesIO(b"x" * size), "big.bin"))
        except discord.HTTPException as e:
            EVENTS.append(f"big:{e.status}:{e.code}")

    @toy.command(name="twice", description="answers twice")
    async def twice(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message("one")
        interaction.response._response_type = None  # fool discord.py's own guard
        try:
            await interaction.response.send_message("two")
        except discord.HTTPException as e:
            EVENTS.append(f"twice:{e.status}:{e.code}")

    @toy.command(name="rows", description="raw components")
    async def rows(self, interaction: discord.Interaction, rows: int, per_row: int, idlen: int = 8) -> None:
        raw = [{"type": 1, "components": [
            {"type": 2, "style": 1, "label": "b", "custom_id": f"{r}-{c}-".ljust(idlen, "z")}
            for c in range(per_row)]} for r in range(rows)]
        try:
            await interaction.response.send_message("raw", view=RawView(raw))
        except discord.HTTPException as e:
            EVENTS.append(f"rows:{e.status}:{e.code}")
            await interaction.response.send_message("fallback")

    @toy.command(name="ghost", description="uses a bogus webhook token")
    async def ghost(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message("ok")
        wh = discord.Webhook.partial(interaction.application_id, "no-such-token", client=self.bot)
        for action in (lambda: wh.send("x"), lambda: wh.edit_message(1, content="y")):
            try:
                await action()
            except discord.NotFound as e:
                EVENTS.append(f"ghost:{e.code}")

    @admin.command(name="end", description="managers only")
    async def end(self, interaction: discord.Interaction) -> None:
        if not interaction.permissions.manage_guild:
            await interaction.response.send_message("only managers", ephemeral=True)
            return
        await interaction.response.send_message("ended")

    @toy.command(name="boom", description="raises")
    async def boom(self, interaction: discord.Interaction) -> None:
        raise RuntimeError("boom in handler")

    @toy.command(name="note", description="opens a modal")
    async def note(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_modal(NoteModal())

    @toy.command(name="post", description="post, then edit, a channel message")
    async def post(self, interaction: discord.Interaction) -> None:
        view = discord.ui.View(timeout=None)
        view.add_item(RerollButton(4))
        msg = await interaction.channel.send(f"<@{interaction.user.id}> your turn", view=view)
        await msg.edit(content=f"<@{interaction.user.id}> your turn (edited)", attachments=[png("b")])
        await interaction.response.send_message("posted", ephemeral=True)


class ToyBot(commands.Bot):
    def __init__(self) -> None:
        super().__init__(command_prefix="!", intents=discord.Intents.default(), guild_ready_timeout=0.05)

    async def setup_hook(self) -> None:
        await self.add_cog(Toy(self))
        self.add_dynamic_items(RerollButton, FlipSelect, PeekButton)
        EVENTS.append("setup_hook")


@pytest_asyncio.fixture
async def bot(fake: FakeDiscord):
    EVENTS.clear()
    b = ToyBot()
    await fake.login(b)
    yield b
    await b.close()


@pytest.fixture
def alice(fake: FakeDiscord) -> dict:
    return fake.add_member("alice", locale="sv-SE")


# ------------------------------------------------------------------------------- builders


def test_payload_builders_nest_subcommands_and_infer_types(fake: FakeDiscord) -> None:
    bob = fake.add_member("bob")
    p = fake.slash(bob, "game new", game="tolp")
    assert p["data"]["name"] == "game" and p["data"]["type"] == 1
    assert p["data"]["options"] == [{"name": "new", "type": 1,
                                     "options": [{"name": "game", "type": 3, "value": "tolp"}]}]
    assert p["type"] == 2 and p["version"] == 1 and p["attachment_size_limit"] == 10 * MiB
    assert p["guild_id"] == fake.guild_id and p["member"]["user"] == bob and p["locale"] == "en-US"
    assert p["channel"]["id"] == fake.channel_id and p["channel"]["type"] == 0

    p = fake.slash(bob, "monopol", ["trade", "offer"], {"user": fake.owner}, cash=10, ok=True,
                   ratio=0.5, code=Opt("7", 3), locale="no")
    grp = p["data"]["options"][0]
    assert grp["name"] == "trade" and grp["type"] == 2
    sub = grp["options"][0]
    assert sub["name"] == "offer" and sub["type"] == 1
    types = {o["name"]: (o["type"], o["value"]) for o in sub["options"]}
    assert types == {"user": (6, fake.owner["id"]), "cash": (4, 10), "ok": (5, True),
                     "ratio": (10, 0.5), "code": (3, "7")}
    assert p["data"]["resolved"]["users"][fake.owner["id"]] == fake.owner
    assert p["locale"] == "no"

    ac = fake.autocomplete(bob, "tolp play", focused="cards", cards="7", other=1)
    opts = ac["data"]["options"][0]["options"]
    assert ac["type"] == 4 and {"name": "cards", "type": 3, "value": "7", "focused": True} in opts

    dm = fake.dm_channel(bob)
    p = fake.slash(bob, "game hand", channel=dm)
    assert "guild_id" not in p and "member" not in p and p["user"] == bob
    assert p["channel"]["type"] == 1 and p["channel"]["recipients"] == [bob] and p["context"] == 1

    players = fake.add_members(4)
    assert [u["username"] for u in players] == ["player1", "player2", "player3", "player4"]
    assert len({u["id"] for u in players}) == 4 and all(u["id"] in fake.members for u in players)

    manager = fake.add_member("mia", manage_guild=True)
    perms = int(fake.slash(manager, "x")["member"]["permissions"])
    assert perms & MANAGE_GUILD
    assert not int(fake.slash(bob, "x")["member"]["permissions"]) & MANAGE_GUILD


# ------------------------------------------------------------------------------- REST flow


async def test_login_runs_setup_hook_and_sync_stores_commands(fake: FakeDiscord, bot: ToyBot) -> None:
    assert "setup_hook" in EVENTS
    routes = [(r.method, r.route) for r in fake.requests]
    assert ("GET", "/users/@me") in routes and ("GET", "/oauth2/applications/@me") in routes
    assert bot.user.id == int(fake.bot_user["id"]) and bot.application_id == int(fake.app_id)

    await bot.tree.sync()
    toy = next(c for c in fake.synced_commands["global"] if c["name"] == "toy")
    assert {o["name"] for o in toy["options"]} >= {"roll", "pick", "hand", "admin"}
    guild = discord.Object(int(fake.guild_id))
    bot.tree.copy_global_to(guild=guild)
    await bot.tree.sync(guild=guild)
    assert [c["name"] for c in fake.synced_commands[fake.guild_id]] == ["toy"]
    # the builder reuses the synced command id
    assert fake.slash(fake.owner, "toy roll")["data"]["id"] == toy["id"]


async def test_slash_reply_with_file_and_dynamic_items(fake: FakeDiscord, bot: ToyBot, alice) -> None:
    r = await fake.interact(bot, fake.slash(alice, "toy roll", sides=20))
    assert r.ok and r.type == 4 and r.content == "You rolled a d20" and not r.ephemeral
    assert r.initial.route == f"/interactions/{r.id}/{r.token}/callback"
    assert r.initial.query == {"with_response": "1"}
    assert r.files[0].filename == "d20.png" and r.files[0].data.startswith(PNG)
    board = r.original
    assert board.attachments[0]["filename"] == "d20.png"
    assert board.custom_ids == ["toy:reroll:20", "toy:flip:20"]
    assert fake.channel_messages() == [board]
    assert fake.last_message_with_components() is board
    assert "roll:20:sv-SE" in EVENTS

    click = await fake.interact(bot, fake.click(alice, board, "toy:reroll:20"))
    assert click.content == "rerolled d20" and f"reroll:20:{alice['id']}" in EVENTS
    assert click.payload["message"]["components"] == board.components  # DynamicItem rebuilt from it

    by_label = await fake.interact(bot, fake.click(alice, board, label="Reroll d20"))
    assert by_label.content == "rerolled d20"

    flip = await fake.interact(bot, fake.select(alice, board, "toy:flip:20", ["tails"]))
    assert flip.type == 7 and flip.original is board
    assert board.content == "flipped tails" and board.history[0]["content"] == "You rolled a d20"
    assert board.files and board.files[0].filename == "d20.png"  # edit kept the attachment
    fetched = await bot.get_partial_messageable(int(fake.channel_id)).fetch_message(int(board.id))
    assert fetched.content == "flipped tails" and await fetched.attachments[0].read() == board.files[0].data
    with pytest.raises(LookupError):
        fake.click(alice, board, "toy:nope")
    with pytest.raises(ValueError):
        fake.select(alice, board, "toy:flip:20", ["edge"])
    fake.assert_clean()


async def test_autocomplete_choices(fake: FakeDiscord, bot: ToyBot, alice) -> None:
    r = await fake.interact(bot, fake.autocomplete(alice, "toy pick", focused="card", card="7"))
    assert r.type == 8 and [c["name"] for c in r.choices] == ["70xxx", "71xxx", "72xxx"]
    assert r.initial.json == {"type": 8, "data": {"choices": r.choices}}
    r = await fake.interact(bot, fake.slash(alice, "toy pick", card="70xxx"))
    assert r.ephemeral and r.content == "picked 70xxx"
    assert fake.ephemerals_for(alice) == [r.original] and fake.channel_messages() == []
    assert fake.violations == []


@pytest.mark.parametrize("choices,length,field", [(26, 5, "data.choices"), (2, 101, "data.choices.0.name")])
async def test_autocomplete_limits_enforced(fake: FakeDiscord, bot: ToyBot, alice, choices, length,
                                           field) -> None:
    cog = bot.get_cog("Toy")
    cog.choices, cog.choice_len = choices, length
    r = await fake.interact(bot, fake.autocomplete(alice, "toy pick", focused="card"))
    assert r.status == 400 and r.initial.response["code"] == 50035
    assert field in r.initial.response["errors"]
    assert [v.code for v in fake.violations] == [50035] and r.violations == fake.violations


async def test_deferred_reply_followups_and_edit(fake: FakeDiscord, bot: ToyBot, alice) -> None:
    r = await fake.interact(bot, fake.slash(alice, "toy later"))
    assert r.type == 5 and r.deferred
    assert r.initial.json == {"type": 5}
    # the first followup replaces the "thinking" message; edit_original edits it; then a new one
    assert r.contents == ["first, edited", "second"]
    assert r.original.history[0]["flags"] & 128 and not r.original.loading
    assert r.followups[-1].files[0].filename == "two.png"
    assert [m.content for m in fake.channel_messages()] == ["first, edited", "second"]
    assert len(r.edits) == 1 and r.edits[0].route.endswith("/messages/@original")
    fake.assert_clean()


async def test_dm_with_file_and_button_clicked_in_dm(fake: FakeDiscord, bot: ToyBot, alice) -> None:
    r = await fake.interact(bot, fake.slash(alice, "toy hand"))
    assert r.initial.json == {"type": 5, "data": {"flags": 64}} and r.ephemeral
    assert r.content == "Sent you a DM."
    (dm,) = fake.dms_to(alice)
    assert dm.kind == "dm" and dm.content == "Your hand" and dm.files[0].data.startswith(PNG)
    assert dm.channel_id == fake.dm_channel(alice)["id"] and dm.custom_ids == ["toy:peek:3"]
    assert fake.dms_to(fake.owner) == []

    p = fake.click(alice, dm, "toy:peek:3")
    assert p["channel"]["type"] == 1 and "guild_id" not in p and p["user"]["id"] == alice["id"]
    peek = await fake.interact(bot, p)
    assert peek.content == "peek 3 in dm" and peek.original.channel_id == dm.channel_id
    fake.assert_clean()


async def test_closed_dms_answer_403_50007(fake: FakeDiscord, bot: ToyBot, alice) -> None:
    fake.close_dms(alice)
    r = await fake.interact(bot, fake.slash(alice, "toy hand"))
    assert "dm-forbidden:50007" in EVENTS and r.content.startswith("I cannot DM you")
    dm_post = next(q for q in fake.requests if q.route.startswith("/channels/") and q.method == "POST")
    assert dm_post.status == 403 and dm_post.response["code"] == 50007
    assert fake.dms_to(alice) == [] and fake.violations == []


async def test_rate_limit_is_retried(fake: FakeDiscord, bot: ToyBot, alice) -> None:
    fake.ratelimit_next = 1
    await fake.interact(bot, fake.slash(alice, "toy hand"))
    statuses = [q.status for q in fake.requests if q.route.startswith(("/channels/", "/users/@me/channels"))]
    assert statuses == [429, 200, 200]
    assert len(fake.dms_to(alice)) == 1 and fake.violations == []


# ------------------------------------------------------------------------------- enforcement


async def test_channel_message_limit_counts_each_channel_alone(fake: FakeDiscord) -> None:
    """Past Discord's per-channel limit a post is refused (429, code 20028) and noted as a violation;
    only that channel's answered posts and edits count, another channel's do not."""
    fake.channel_rate = (3, 60.0)
    other = fake.add_channel("table-2")
    base = f"http://127.0.0.1:{fake.port}{API}"
    async with aiohttp.ClientSession(headers={"Authorization": "Bot fake-token"}) as http:
        async def post(cid: str) -> tuple[int, dict]:
            async with http.post(f"{base}/channels/{cid}/messages", json={"content": "hi"}) as r:
                return r.status, await r.json()

        status, first = await post(fake.channel_id)
        assert status == 200
        async with http.patch(f"{base}/channels/{fake.channel_id}/messages/{first['id']}",
                              json={"content": "edited"}) as r:
            assert r.status == 200
        assert (await post(other["id"]))[0] == 200
        assert (await post(fake.channel_id))[0] == 200  # the channel's third write
        status, refused = await post(fake.channel_id)
        assert status == 429 and refused["code"] == 20028
        assert (await post(other["id"]))[0] == 200
    assert fake.busiest_window() == 3 and fake.busiest_window(other) == 2
    assert [len(fake.channel_writes()), len(fake.channel_writes(other))] == [3, 2]
    assert [v.code for v in fake.violations] == [20028]


async def test_late_initial_response_is_unknown_interaction(fake: FakeDiscord, bot: ToyBot, alice) -> None:
    fake.response_deadline = 0.2
    r = await fake.interact(bot, fake.slash(alice, "toy slow", delay=0.4))
    assert r.status == 404 and r.initial.response["code"] == 10062
    assert "late:10062" in EVENTS
    (v,) = fake.violations
    assert v.code == 10062 and "deadline" in v.message
    fake.response_deadline = 3.0  # Discord's own: an answer without delay must not depend on the machine's load
    fast = await fake.interact(bot, fake.slash(alice, "toy slow", delay=0.0))
    assert fast.ok and len(fake.violations) == 1


async def test_second_initial_response_40060(fake: FakeDiscord, bot: ToyBot, alice) -> None:
    r = await fake.interact(bot, fake.slash(alice, "toy twice"))
    assert r.ok and r.content == "one" and [c.status for c in r.callbacks] == [200, 400]
    assert "twice:400:40060" in EVENTS and [v.code for v in fake.violations] == [40060]


@pytest.mark.parametrize("text,repeat,expected", [("x", 2001, "say:400:50035"), ("", 1, "say:400:50006")])
async def test_message_content_rules(fake: FakeDiscord, bot: ToyBot, alice, text, repeat, expected) -> None:
    await fake.interact(bot, fake.slash(alice, "toy say", text=text, repeat=repeat), expect_response=False)
    assert expected in EVENTS
    assert [v.code for v in fake.violations] == [int(expected.rsplit(":", 1)[1])]


async def test_content_at_limit_is_fine(fake: FakeDiscord, bot: ToyBot, alice) -> None:
    r = await fake.interact(bot, fake.slash(alice, "toy say", text="x", repeat=2000))
    assert r.ok and len(r.content) == 2000 and fake.violations == []


async def test_attachment_over_limit_413(fake: FakeDiscord, bot: ToyBot, alice) -> None:
    await fake.interact(bot, fake.slash(alice, "toy big", size=10 * MiB + 1), expect_response=False)
    assert "big:413:40005" in EVENTS and [v.code for v in fake.violations] == [40005]


@pytest.mark.parametrize("rows,per_row,idlen", [(6, 1, 8), (1, 6, 8), (1, 1, 101)])
async def test_component_limits(fake: FakeDiscord, bot: ToyBot, alice, rows, per_row, idlen) -> None:
    r = await fake.interact(bot, fake.slash(alice, "toy rows", rows=rows, per_row=per_row, idlen=idlen))
    assert "rows:400:50035" in EVENTS and [v.code for v in fake.violations] == [50035]
    assert [c.status for c in r.callbacks] == [400, 200] and r.content == "fallback"


async def test_component_limits_at_maximum_pass(fake: FakeDiscord, bot: ToyBot, alice) -> None:
    r = await fake.interact(bot, fake.slash(alice, "toy rows", rows=5, per_row=5, idlen=100))
    assert r.ok and len(r.original.custom_ids) == 25 and fake.violations == []


async def test_unknown_webhook_token_10015(fake: FakeDiscord, bot: ToyBot, alice) -> None:
    r = await fake.interact(bot, fake.slash(alice, "toy ghost"))
    assert r.ok and EVENTS.count("ghost:10015") == 2
    assert [v.code for v in fake.violations] == [10015, 10015]


async def test_unanswered_interaction_is_loud(fake: FakeDiscord, bot: ToyBot, alice) -> None:
    orphan = fake.user_message(alice, "hi")  # not the bot's: nothing handles a click on it
    orphan.payload["components"] = [{"type": 1, "components": [
        {"type": 2, "style": 1, "label": "?", "custom_id": "nobody:home"}]}]
    with pytest.raises(AssertionError, match="never answered"):
        await fake.interact(bot, fake.click(alice, orphan, "nobody:home"))
    r = await fake.interact(bot, fake.click(alice, orphan, "nobody:home"), expect_response=False)
    assert r.initial is None and r.status is None
    assert len(fake.unanswered()) == 2
    with pytest.raises(AssertionError, match="never acknowledged"):
        fake.assert_clean()


async def test_handler_exception_is_reported(fake: FakeDiscord, bot: ToyBot, alice) -> None:
    with pytest.raises(AssertionError, match="(?s)never answered.*boom in handler"):
        await fake.interact(bot, fake.slash(alice, "toy boom"))
    assert any("boom in handler" in e for e in fake.errors)


async def test_unhandled_route_is_a_violation(fake: FakeDiscord, bot: ToyBot) -> None:
    with pytest.raises(discord.NotFound):
        await bot.http.request(discord.http.Route("GET", "/voice/regions"))
    (v,) = fake.violations
    assert "unhandled route GET /voice/regions" in v.message


# ------------------------------------------------------------------------------- guild model


async def test_manage_guild_flag(fake: FakeDiscord, bot: ToyBot, alice) -> None:
    boss = fake.add_member("boss", manage_guild=True)
    refused = await fake.interact(bot, fake.slash(alice, "toy admin end"))
    assert refused.ephemeral and refused.content == "only managers"
    ok = await fake.interact(bot, fake.slash(boss, "toy admin end"))
    assert not ok.ephemeral and ok.content == "ended"


async def test_modal_round_trip(fake: FakeDiscord, bot: ToyBot, alice) -> None:
    r = await fake.interact(bot, fake.slash(alice, "toy note"))
    assert r.type == 9 and r.modal["title"] == "Note"
    done = await fake.interact(bot, fake.submit_modal(alice, r, {"toy:note:text": "hello"}))
    assert done.content == "noted hello"
    fake.assert_clean()


async def test_channel_message_edit_in_thread(fake: FakeDiscord, bot: ToyBot, alice) -> None:
    thread = fake.add_thread("table-1")
    r = await fake.interact(bot, fake.slash(alice, "toy post", channel=thread))
    assert r.ephemeral and r.content == "posted"
    (msg,) = fake.channel_messages(thread)
    assert msg.kind == "channel" and msg.content.endswith("(edited)") and msg.mentions == [alice["id"]]
    assert msg.history[0]["content"] == f"<@{alice['id']}> your turn" and msg.files[0].filename == "b.png"
    patch = next(q for q in fake.requests if q.method == "PATCH")
    assert patch.route == f"/channels/{thread['id']}/messages/{msg.id}"
    assert fake.channel_messages() == []  # nothing in the parent channel
    click = await fake.interact(bot, fake.click(alice, msg, "toy:reroll:4"))
    assert click.content == "rerolled d4" and click.original.channel_id == thread["id"]
    fake.assert_clean()


async def test_wait_request_and_wait_message(fake: FakeDiscord, bot: ToyBot, alice) -> None:
    payload = fake.slash(alice, "toy roll", sides=8)
    fake.inject(bot, payload)
    rec = await fake.wait_request(lambda q: q.route.endswith("/callback"), timeout=5)
    assert rec.json["data"]["content"] == "You rolled a d8" and rec.files
    msg = await fake.wait_message(lambda m: "d8" in m.content)
    await settle(bot)
    assert fake.responses_for(payload).original is msg
    with pytest.raises(asyncio.TimeoutError):
        await fake.wait_request(lambda q: q.method == "DELETE", timeout=0.05)


# ------------------------------------------------------------------------------- restart + gateway


async def test_restart_old_buttons_still_work(fake: FakeDiscord, bot: ToyBot, alice) -> None:
    board = (await fake.interact(bot, fake.slash(alice, "toy roll", sides=12))).original
    await fake.interact(bot, fake.slash(alice, "toy hand"))
    await bot.close()

    bot2 = ToyBot()
    await fake.login(bot2)
    r = await fake.interact(bot2, fake.click(alice, board, "toy:reroll:12"))
    assert r.content == "rerolled d12"
    peek = await fake.interact(bot2, fake.click(alice, fake.dms_to(alice)[0], "toy:peek:3"))
    assert peek.content == "peek 3 in dm"
    assert [q.route for q in fake.requests].count("/users/@me") == 2
    fake.assert_clean()


async def test_gateway_identify_ready_and_interaction(fake: FakeDiscord, alice) -> None:
    thread = fake.add_thread("t")
    bot = ToyBot()
    await fake.connect(bot)
    ident = next(f for f in fake.gateway_log if f["op"] == 2)
    assert ident["d"]["token"] == "fake-token" and ident["d"]["intents"] == discord.Intents.default().value
    guild = bot.get_guild(int(fake.guild_id))
    assert guild is not None and guild.me is not None
    assert bot.get_channel(int(fake.channel_id)).name == "game"
    assert guild.get_thread(int(thread["id"])) is not None

    r = await fake.interact(bot, fake.slash(alice, "toy roll", sides=10), gateway=True)
    assert r.content == "You rolled a d10"
    echoed = [f for f in fake.sent_frames if f["t"] == "MESSAGE_CREATE"]
    assert echoed and echoed[-1]["d"]["id"] == r.original.id
    await settle(bot)
    assert bot.get_partial_messageable(int(fake.channel_id)) is not None
    await fake.close_bot(bot)
    fake.assert_clean()


async def test_gateway_sends_message_events_only_to_clients_with_the_intent(fake: FakeDiscord, alice) -> None:
    """As Discord: MESSAGE_* events go only to clients that identified with GUILD_MESSAGES (a
    server's channels) or DIRECT_MESSAGES (DMs); the bot asks for neither (cogs/client.py)."""
    from cogs.client import bot_intents

    plain = discord.Client(intents=bot_intents())
    listening = discord.Client(intents=discord.Intents.default())
    await fake.connect(plain)
    await fake.connect(listening)
    sockets = {intents: ws for ws, intents in fake.socket_intents.items()}
    assert set(sockets) == {bot_intents().value, discord.Intents.default().value}
    posted = await plain.get_partial_messageable(int(fake.channel_id)).send("hello")
    dm = await (await plain.create_dm(discord.Object(int(alice["id"])))).send("psst")
    await posted.edit(content="hello again")
    for message, events in ((posted, {"MESSAGE_CREATE", "MESSAGE_UPDATE"}), (dm, {"MESSAGE_CREATE"})):
        frames = [f for f in fake.sent_frames if f["t"] in events and f["d"]["id"] == str(message.id)]
        assert {f["t"] for f in frames} == events
        assert all(not fake._routed(sockets[bot_intents().value], f) for f in frames)
        assert all(fake._routed(sockets[discord.Intents.default().value], f) for f in frames)
        # each event went out once: to the listening client alone
        assert sorted(e for _, e, i in fake.delivered if i == str(message.id)) == sorted(events)
    assert not bot_intents().guild_messages and not bot_intents().dm_messages and bot_intents().guilds
    await fake.close_bot(plain)
    await fake.close_bot(listening)
    fake.assert_clean()


async def test_gateway_resume_replays_missed_frames(fake: FakeDiscord, alice) -> None:
    bot = ToyBot()
    await fake.connect(bot)
    resumed = asyncio.Event()

    async def on_resumed() -> None:
        resumed.set()

    bot.add_listener(on_resumed)
    seq_before = fake.seq
    await fake.drop_connection(4000)
    payload = fake.slash(alice, "toy roll", sides=4)
    await fake.dispatch("INTERACTION_CREATE", payload)  # sent while nobody is connected
    await asyncio.wait_for(fake.resumed.wait(), 10)
    await asyncio.wait_for(resumed.wait(), 5)
    res = next(f for f in fake.gateway_log if f["op"] == 6)
    assert res["d"]["session_id"] == fake.session_id and res["d"]["seq"] == seq_before
    rec = await fake.wait_request(lambda q: q.interaction_id == payload["id"])
    assert rec.status == 200
    await settle(bot)
    assert fake.responses_for(payload).content == "You rolled a d4"
    await fake.close_bot(bot)
