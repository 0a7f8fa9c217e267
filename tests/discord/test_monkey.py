"""A seeded monkey at every table: random members press random buttons and menus on any message
the bot ever sent and type random commands with random or legal arguments. Whatever happens, every
interaction is answered in time, nothing unexpected is logged, Discord's limits hold, and the
stored game always replays from its seed."""
from __future__ import annotations

import copy
import json
import random

import pytest

from bot.engine import registry
from bot.engine.registry import computer_action
from bot.runner import verify
from bot.services import lobby
from cogs.moves import announce
from tests.discord.conftest import BotFactory
from tests.fakediscord import FakeDiscord, StoredMessage, settle

COMMANDS = {  # game -> (subcommand, option name or None)
    "tolp": [("play", "cards"), ("pass", None), ("give", "cards"), ("high", None), ("ask", "rank"),
             ("claim", "ranks")],
    "zlodej": [("new", "cards"), ("add", "cards"), ("take", "cards"), ("discard", "card"), ("end", None)],
    "stratego": [("ready", None), ("board", None)],
    "monopol": [("roll", None), ("buy", None), ("decline", None), ("end", None), ("pass", None),
                ("bid", "amount")],
    "tjuv": [("roll", None), ("end", None), ("wait", None), ("breakout", None), ("fetch", None)],
}
def as_shown(message: StoredMessage) -> StoredMessage | None:
    for payload in (message.payload, *reversed(message.history)):
        if payload.get("components"):
            if payload is message.payload:
                return message
            old = copy.copy(message)
            old.payload = payload
            return old
    return None


JUNK = ["", "x", "7Z", "AS AS AS AS AS AS", "ZZ99", "-1", "999999", "🃏", "a" * 90]


# every game on SQLite; on PostgreSQL the game whose monkey reaches the most SQL (undo votes, boards)
@pytest.mark.parametrize(("game", "database_url"), [*((game, "sqlite") for game in sorted(COMMANDS)),
                                                    ("stratego", "postgres")], indirect=["database_url"])
async def test_a_monkey_cannot_break_a_table(game: str, fake: FakeDiscord, make_bot: BotFactory,
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(lobby, "new_seed", lambda: f"monkey-{game}")
    chooser = random.Random(f"monkey/{game}")
    bot = await make_bot()
    engine = registry.get(game)
    players = fake.add_members(max(engine.min_players, min(3, engine.max_players)))
    everyone = [*players, fake.add_member("stranger")]
    await fake.interact(bot, fake.slash(players[0], "game new", game=game))
    for user in players[1:]:
        await fake.interact(bot, fake.slash(user, "game join"))
    await fake.interact(bot, fake.slash(players[0], "game start"))
    clicks = commands = 0
    for _ in range(120):
        user = chooser.choice(everyone)
        roll = chooser.random()
        record = await bot.service.current(fake.channel_id)
        if record is None:
            break
        # every message with controls, as a client still showing it would click it (a folded board
        # or lobby with the buttons it had before)
        clickable = [shown for m in fake.messages.values() if (shown := as_shown(m)) is not None]
        if roll < 0.45 and clickable:
            message = chooser.choice(clickable)
            owner = message.channel_id if message.kind == "dm" else None
            clicker = user
            if owner is not None:  # only a DM's own recipient can click in it
                clicker = next((u for u in players if fake.dm_channel(u)["id"] == owner), user)
            items = [c for row in message.components for c in row.get("components", [])]
            item = chooser.choice(items)
            if item.get("type") == 3:
                values = [o["value"] for o in item.get("options", [])]
                if not values:
                    continue
                count = chooser.randint(item.get("min_values", 1), max(item.get("min_values", 1),
                                                                        min(item.get("max_values", 1), len(values))))
                payload = fake.select(clicker, message, item["custom_id"], chooser.sample(values, count))
            else:
                payload = fake.click(clicker, message, item["custom_id"])
            clicks += 1
        elif roll < 0.8:
            sub, option = chooser.choice(COMMANDS[game])
            args: dict[str, object] = {}
            if option:
                seat = record.seat_of(user["id"])
                legal = [a for a in bot.service.legal_texts(record, seat) if a.startswith(sub + " ")] \
                    if seat is not None else []
                if legal and chooser.random() < 0.6:
                    value: object = chooser.choice(legal)[len(sub) + 1:]
                else:
                    value = chooser.choice(JUNK)
                if option == "amount":
                    value = int(value) if str(value).lstrip("-").isdigit() else chooser.randint(-5, 10**6)
                args[option] = value
            payload = fake.slash(user, f"{game} {sub}", args)
            commands += 1
        else:
            legal_user = next((u for u in players if record.seat_of(u["id"]) in bot.service.to_act(record)), user)
            seat = record.seat_of(legal_user["id"])
            # a sensible move now and then keeps the game going (service + announcement, as a cog does)
            action = str(computer_action(engine, engine.load(record.state), seat))
            update = await bot.service.act(user_id=legal_user["id"], action=action, channel_id=fake.channel_id)
            announce(bot, update)
            await settle(bot)
            continue
        answered = await fake.interact(bot, payload)
        assert answered.ok, answered.text
    fake.assert_clean()
    assert clicks > 20 and commands > 20
    async with bot.db.transaction() as conn:
        rows = await conn.execute_fetchall("SELECT state FROM games")
    assert all(json.loads(row[0]) for row in rows if row[0])
    assert await verify(bot.db) == 0
