"""/game replay, its ⏮ ◀ ▶ ⏭ viewer and the animated replay on the result message.

Anyone on the server may open the replay of a game played there (``/game replay`` or the result's
**Replay** button); each viewer gets a private (ephemeral) viewer and steps on their own. The
buttons carry the game and the move in their custom_id (``gm:rp:<game>:<move>``, with a letter
for the viewer's own buttons), so they keep working after a restart; a forged or out-of-range id
is refused with a translated message. While a game runs the replay shows public information only
and stops at the current move; once the game has ended it shows everything.

The animated replay (a GIF of the game's public boards, at most ``replay_cap_bytes``) is drawn on
demand: the first press of a finished game's **Replay** button draws it in a render worker, off
the event loop, and every later press gets the same bytes from a small cache. Nothing is drawn at
a game's end for nobody (2–4 s of CPU a game), and the result message is never edited for it.
"""
from __future__ import annotations

import asyncio
import io
import logging
import re
from collections import OrderedDict
from dataclasses import replace
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands

from bot.engine import registry
from bot.errors import NotFound
from bot.i18n import t
from bot.services import renders
from bot.services import replay as replays
from bot.services.text import pretty_cards, public_lines, shown
from cogs.components import GameButton
from cogs.drawing import alt_text, png, render_public
from cogs.hooks import defer
from cogs.replies import clip, guarded, locale_of, reply, spend
from cogs.visibility import can_view
from rendering.alt import LIMIT
from rendering.animation import MAX_FRAMES

if TYPE_CHECKING:
    from bot.storage.games import GameRow
    from cogs.client import GameMasterBot

log = logging.getLogger(__name__)

# gm:rp:<game>:<move> opens a viewer (the result's Replay button); with :f :p :n :l it is one of
# the viewer's own buttons (first, previous, next, last), which turns the viewer's page in place
REPLAY_ID = re.compile(r"rp:(?P<game>[0-9]{1,18}):(?P<number>[0-9]{1,9})(?::(?P<step>[fpnl]))?")
STEPS = (("f", "⏮"), ("p", "◀"), ("n", "▶"), ("l", "⏭"))
ANIMATION_STEM = "replay-"  # the animation's file name: replay-<game>-<id>.gif


def replay_button(game_id: int, locale: str) -> GameButton:
    """The result message's button: opens a private viewer at the start of the game."""
    return GameButton(game_id, 0, "", label=t("replay.button", locale), style=discord.ButtonStyle.secondary,
                      raw=f"gm:rp:{game_id}:0")


def viewer_view(game_id: int, number: int, total: int) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    targets = {"f": 0, "p": max(0, number - 1), "n": min(total, number + 1), "l": total}
    for step, label in STEPS:
        button = GameButton(game_id, 0, "", label=label, raw=f"gm:rp:{game_id}:{targets[step]}:{step}")
        button.item.disabled = targets[step] == number
        view.add_item(button)
    return view


def player_name(names: tuple[str, ...], seat: int | None, locale: str) -> str:
    if seat is None or not 0 <= seat < len(names):
        return t("replay.clock", locale)  # the table's clock (a timer) made that move
    return shown(names[seat])


def frame_text(loaded: replays.Replay, frame: replays.Frame, game_title: str, locale: str) -> str:
    """The viewer's text: which game, the counter with what the move did, and (once ended) the hands."""
    lines = [t("replay.title", locale, game=game_title, id=loaded.game_id,
               players=", ".join(shown(n) for n in loaded.names))]
    names = loaded.names_at(frame.number)  # who held the seats then (seats may change hands)
    if frame.number == 0:
        move = t("replay.start", locale)
    else:
        said = [line.replace("\n", " ") for line in public_lines(frame.events, list(names), locale)]
        move = " · ".join(said) or t("replay.moved", locale, player=player_name(names, frame.seat, locale))
        if loaded.ended and not str(frame.action).startswith("!"):  # everything may be seen now
            move += " " + t("replay.action", locale, player=player_name(names, frame.seat, locale),
                            action=str(frame.action).replace("`", "'"))
    lines.append(t("replay.counter", locale, number=frame.number, total=frame.total, move=move))
    if loaded.ended and frame.privates is not None:
        for seat, private in enumerate(frame.privates):
            items = replays.hidden_items(loaded.game, private)
            if items:
                lines.append(t("replay.hidden", locale, player=shown(loaded.names[seat]),
                               items=pretty_cards(" ".join(items))))
        lines.append(t("replay.everything", locale, seed=loaded.seed))
    else:
        lines.append(t("replay.public_only", locale))
    return clip("\n".join(lines))


async def load_for(interaction: discord.Interaction, game_id: int | None) -> tuple[GameRow, replays.Replay]:
    """The replay a user may open: a game of this server (default: the channel's latest game)."""
    bot: GameMasterBot = interaction.client  # type: ignore[assignment]
    record = await bot.service.get(game_id) if game_id else await bot.service.latest(str(interaction.channel_id))
    here = str(interaction.guild_id) if interaction.guild_id else None
    if record.guild_id != here or (here is None and record.channel_id != str(interaction.channel_id)):
        raise NotFound("error.no_game")
    if not await can_view(interaction, record.channel_id):  # a private channel's games stay private
        raise NotFound("error.no_game")
    return record, await replays.load(bot.service, record.id)


async def page(record: GameRow, loaded: replays.Replay, number: int, locale: str
               ) -> tuple[str, discord.File, discord.ui.View]:
    """The viewer at move ``number``: text, board image and the four buttons."""
    frame = await asyncio.to_thread(loaded.frame, number)  # replaying the moves: off the event loop
    image = await render_public(record, frame.observation, locale)
    text = frame_text(loaded, frame, t(f"game.name.{record.game}", locale), locale)
    description = alt_text(record, "public", frame.observation, locale)
    return text, png(image, f"replay-{record.game}-{record.id}-{number}.png", description), viewer_view(
        record.id, number, loaded.total)


async def open_viewer(interaction: discord.Interaction, game_id: int | None, number: int, *,
                      animated: bool = False) -> None:
    """/game replay or the result's Replay button: a private viewer for this user; from the Replay
    button of a finished game (``animated``) also the animated replay, below it."""
    async def work() -> None:
        spend(interaction, "replay")  # each viewer page replays the log from the seed
        await defer(interaction, ephemeral=True, thinking=True)
        locale = locale_of(interaction)
        record, loaded = await load_for(interaction, game_id)
        text, file, view = await page(record, loaded, number, locale)
        await reply(interaction, text, file=file, view=view)
        if animated and loaded.ended:
            await send_animation(interaction, record, loaded)

    await guarded(interaction, work)


async def send_animation(interaction: discord.Interaction, record: GameRow, loaded: replays.Replay) -> None:
    """The game's animated replay, privately, as a follow-up of the press (drawn once per game)."""
    bot: GameMasterBot = interaction.client  # type: ignore[assignment]
    try:
        data = await cached_animation(record, loaded, bot.settings.replay_cap_bytes)
    except Exception:  # noqa: BLE001 - the viewer is shown; the animation is a bonus
        log.exception("could not draw the animated replay of game %s", record.id)
        return
    name = f"{ANIMATION_STEM}{record.game}-{record.id}.gif"
    locale = locale_of(interaction)
    # the animation ends on the result: its words are the result's, after the replay's title
    title = t("replay.title", locale, game=t(f"game.name.{record.game}", locale), id=record.id,
              players=", ".join(shown(n) for n in record.names))
    description = title + " " + alt_text(record, "result", bot.service.observe(record, None), locale)
    await reply(interaction, t("replay.animation", locale), file=discord.File(io.BytesIO(data), name,
                                                                              description=description[:LIMIT]))


ANIMATIONS_KEPT = 32  # finished games whose animation this process keeps (a few MB at most)
# by game and seed: a game's number alone is not unique across databases (tests run several bots)
_animations: OrderedDict[tuple[int, str], asyncio.Future[bytes]] = OrderedDict()
drawn = 0  # animations drawn by this process (each game's once while it stays in the cache)


async def cached_animation(record: GameRow, loaded: replays.Replay, cap_bytes: int) -> bytes:
    """The finished game's animation: drawn by the first press, shared by presses that come while
    it is drawn, kept for the next ones."""
    global drawn
    key = (record.id, record.seed)
    future = _animations.get(key)
    if future is None or (future.done() and future.exception() is not None):
        future = asyncio.ensure_future(animation(record, replace(loaded, ended=False), cap_bytes))  # public boards
        _animations[key] = future
        drawn += 1
        while len(_animations) > ANIMATIONS_KEPT:
            _animations.popitem(last=False)
    _animations.move_to_end(key)
    return await asyncio.shield(future)


async def button(interaction: discord.Interaction, match: re.Match[str]) -> None:
    game_id, number = int(match["game"]), int(match["number"])
    if match["step"] is None:
        await open_viewer(interaction, game_id, number, animated=True)
        return

    async def work() -> None:
        spend(interaction, "replay")
        await defer(interaction)  # a deferred update: the viewer itself turns to the new page
        locale = locale_of(interaction)
        record, loaded = await load_for(interaction, game_id)
        text, file, view = await page(record, loaded, number, locale)  # a refusal when out of range
        await interaction.edit_original_response(content=text, attachments=[file], view=view)

    await guarded(interaction, work)


@app_commands.command(name="replay", description="Watch a game move by move (public information while it runs)")
@app_commands.describe(game="Which game: its number (default: this channel's latest game)",
                       move="Start at this move (default: the start)")
async def replay_command(interaction: discord.Interaction, game: app_commands.Range[int, 1] | None = None,
                         move: app_commands.Range[int, 0] = 0) -> None:
    await open_viewer(interaction, game, move)


# ----------------------------------------------------------------------------- the animation
async def animation(record: GameRow, loaded: replays.Replay, cap_bytes: int) -> bytes:
    """The game's public boards as one GIF, drawn in a render worker."""
    numbers = replays.pick(loaded.total, MAX_FRAMES)  # evenly spread over the game
    frames = await asyncio.to_thread(lambda: [f.observation for f in loaded.frames(numbers)])
    now = datetime.now(UTC).strftime("%Y-%m-%dT%H:%MZ")
    observations = [{**obs, "public": {**obs["public"], "now": now}} for obs in frames]
    module = registry.plugin(record.game).renderer
    data: bytes = await renders.current().draw("rendering.animation", "animate_boards", module, observations,
                                               names=record.names, locale=record.locale, cap_bytes=cap_bytes)
    return data


async def setup(bot: Any) -> None:
    group = bot.tree.get_command("game")
    if not isinstance(group, app_commands.Group):
        raise RuntimeError("cogs.replay needs the /game group of cogs.lobby (load it first)")
    group.add_command(replay_command)
