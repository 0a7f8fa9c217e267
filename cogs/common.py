"""What every game cog shares: acting, announcing a turn, private views by DM, buttons, errors.

Buttons and selects are DynamicItems whose custom_id carries the game id, the ply it was drawn
for and the canonical action, so they work after a restart; a click on an older board answers
"the game has moved on" with the current position. Rendering runs in a worker thread.
"""
from __future__ import annotations

import importlib
import io
import logging
import re
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

import discord

from bot.engine import registry
from bot.errors import Conflict, GameMasterError, InvalidAction, NotFound, StorageDamaged
from bot.i18n import normalize, t
from bot.services.core import Update
from bot.services.text import error_text, place_lines, private_lines, shown
from bot.storage.games import GameRow
from cogs import renders

if TYPE_CHECKING:
    from bot.app import GameMasterBot

log = logging.getLogger(__name__)

MAX_CONTENT = 1900

# Mentions: the client default is NO_PINGS too (bot/app.py), but every message names what it may
# ping, so a name like "@everyone" or "<@&role>" in its text never pings anyone.
NO_PINGS = discord.AllowedMentions.none()


def pinging(*user_ids: int | str) -> discord.AllowedMentions:
    """Ping exactly these users and nobody else (never everyone, here or a role)."""
    return discord.AllowedMentions(everyone=False, roles=False, replied_user=False,
                                   users=[discord.Object(id=int(u)) for u in user_ids])


# ----------------------------------------------------------------------------- per-game UI hooks
@dataclass(frozen=True)
class ButtonSpec:
    label_key: str
    action: str
    style: discord.ButtonStyle = discord.ButtonStyle.secondary
    label_params: tuple[tuple[str, Any], ...] = ()  # placeholders of the label, e.g. (("amount", 130),)

    def label(self, locale: str) -> str:
        return t(self.label_key, locale, **dict(self.label_params))[:80]


@dataclass(frozen=True)
class SelectSpec:
    """A select whose chosen values are appended to ``prefix`` to form the action."""

    placeholder_key: str
    prefix: str
    options: Sequence[tuple[str, str]]  # (label, value)
    min_values: int = 1
    max_values: int = 1
    placeholder_params: tuple[tuple[str, Any], ...] = ()

    def placeholder(self, locale: str) -> str:
        return t(self.placeholder_key, locale, **dict(self.placeholder_params))[:150]


@dataclass
class GameUI:
    """Buttons a game shows under its public board and in a player's private view."""

    board_buttons: Callable[[dict[str, Any]], list[ButtonSpec]] = lambda obs: []
    # private hooks get the viewer's observation (plus "names" and "locale") and the canonical texts
    # of their legal actions
    private_buttons: Callable[[dict[str, Any], list[str]], list[ButtonSpec]] = lambda obs, legal: []
    private_selects: Callable[[dict[str, Any], list[str]], list[SelectSpec]] = lambda obs, legal: []
    private_text: Callable[[dict[str, Any], str], str] = lambda obs, locale: ""
    has_private_view: bool = True  # False: no "Show my hand" button (Monopol's board is all public)


GAME_UI: dict[str, GameUI] = {}


def ui_for(game: str) -> GameUI:
    return GAME_UI.get(game) or GameUI()


# ----------------------------------------------------------------------------- helpers
def locale_of(interaction: discord.Interaction) -> str:
    """The reader's language: their /game prefs choice (primed by ``prime_locale``), else Discord's."""
    chosen = interaction.extras.get("locale")
    if chosen:
        return str(chosen)
    return normalize(str(interaction.locale) if interaction.locale else None)


async def prime_locale(interaction: discord.Interaction) -> bool:
    """Set the reader's language from memory, never from the database, so nothing stands between
    an interaction and its acknowledgement: the language chosen with /game prefs comes from the
    players' cache; the client's language is remembered in the background."""
    bot: GameMasterBot = interaction.client  # type: ignore[assignment]
    user_id = str(interaction.user.id)
    chosen = bot.players.chosen_locale(user_id)
    if chosen:
        interaction.extras["locale"] = chosen
    if interaction.locale:
        bot.players.notice_locale(user_id, normalize(str(interaction.locale)))
    return True


def renderer(game: str) -> Any:
    return importlib.import_module(f"rendering.{game}")


async def render_public(record: GameRow, obs: dict[str, Any], locale: str) -> bytes:
    """The table's board, drawn by a render worker (a process: see cogs/renders.py)."""
    # renderers never read a clock: the time they may show (the time left to an agreed end) uses this
    obs = {**obs, "public": {**obs["public"], "now": datetime.now(UTC).strftime("%Y-%m-%dT%H:%MZ")}}
    return await renders.current().draw(f"rendering.{record.game}", "render_public", obs, names=record.names,
                                        locale=locale)


async def render_focus(record: GameRow, obs: dict[str, Any], locale: str, hint: Any = None) -> bytes | None:
    """The renderer's readable zoom on what changed (``render_focus``), where the game has one."""
    if getattr(renderer(record.game), "render_focus", None) is None:
        return None
    # drawn by a render worker like the board (a thread here would take the event loop's core)
    data: bytes | None = await renders.current().draw(f"rendering.{record.game}", "render_focus", obs,
                                                      names=record.names, locale=locale, event_hint=hint)
    return data


async def render_private(record: GameRow, obs: dict[str, Any], locale: str) -> bytes | None:
    # a renderer that says what its hand picture depends on (``private_key``) has it drawn once per change
    key_of = getattr(renderer(record.game), "private_key", None)
    memo = (record.game, key_of(obs), tuple(record.names), locale) if key_of is not None else None
    return await renders.current().draw(f"rendering.{record.game}", "render_private", obs, names=record.names,
                                        locale=locale, memo=memo)


@asynccontextmanager
async def paced(bot: GameMasterBot, channel_id: str | int) -> AsyncIterator[None]:
    """Wrap every post or edit in a guild channel: at most Discord's per-channel rate."""
    held = await bot.pacer.hold(str(channel_id))
    try:
        yield
    finally:  # a refused call may still have counted
        bot.pacer.sent(str(channel_id), held)


def png(data: bytes, name: str) -> discord.File:
    return discord.File(io.BytesIO(data), filename=name)


def clip(text: str) -> str:
    return text if len(text) <= MAX_CONTENT else text[: MAX_CONTENT - 1] + "…"


def mention_of(record: GameRow, seat: int) -> str:
    user = record.user_of(seat)
    return f"<@{user}>" if user else shown(record.names[seat])


def custom_id_act(game_id: int, ply: int, action: str, *, owner: int | None = None) -> str:
    """``gm:a:`` board buttons (stale once anything moved); ``gm:p:`` buttons of one seat's private
    view (only that seat may press them; stale once that seat moved)."""
    if owner is None:
        return f"gm:a:{game_id}:{ply}:{action}"
    return f"gm:p:{game_id}:{ply}:{owner}:{action}"


def board_view(record: GameRow, obs: dict[str, Any], locale: str) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    if record.status == "active":
        ui = ui_for(record.game)
        for spec in ui.board_buttons(obs)[:4 if ui.has_private_view else 5]:
            view.add_item(GameButton(record.id, record.ply, spec.action, label=spec.label(locale), style=spec.style))
        if ui.has_private_view:
            view.add_item(HandButton(record.id, label=t("button.hand", locale)))
        if record.ply > 0:  # for the player who just moved (the others are asked to agree)
            from cogs.undo import undo_button
            view.add_item(undo_button(record.id, record.ply, locale))
    elif record.status == "finished":  # the result: the same players again, seats rotated; the replay
        from cogs.replay import replay_button
        view.add_item(LobbyButton("r", record.id, label=t("rematch.button", locale)))
        view.add_item(replay_button(record.id, locale))
    return view


def private_view(record: GameRow, seat: int, obs: dict[str, Any], legal: list[str],
                 locale: str) -> discord.ui.View | None:
    ui = ui_for(record.game)
    buttons = ui.private_buttons(obs, legal)
    selects = ui.private_selects(obs, legal)
    if not buttons and not selects:
        return None
    view = discord.ui.View(timeout=None)
    for number, menu in enumerate(selects[:3]):
        options = [discord.SelectOption(label=label[:100], value=value[:100]) for label, value in menu.options[:25]]
        if not options:
            continue
        view.add_item(GameSelect(record.id, record.ply, seat, menu.prefix, number, options=options,
                                 placeholder=menu.placeholder(locale),
                                 min_values=min(menu.min_values, len(options)),
                                 max_values=min(menu.max_values, len(options))))
    for button in buttons[:5]:
        view.add_item(GameButton(record.id, record.ply, button.action, label=button.label(locale),
                                 style=button.style, owner=seat))
    return view


# ----------------------------------------------------------------------------- announcing
def announce(bot: GameMasterBot, update: Update, answered: int | None = None) -> None:
    """The change and its announcement are committed (the outbox entry of its transaction); wake
    the table's announcer, which posts or edits the board and sends the DMs after the reply.
    ``answered``: the seat whose new private view the interaction's answer already showed."""
    announcer = bot.get_cog("Announcer")
    if announcer is not None:
        if answered is not None:
            announcer.answered(update.record.id, update.record.ply, answered)  # type: ignore[attr-defined]
        announcer.wake(update.record.id)  # type: ignore[attr-defined]


def result_text(record: GameRow, locale: str) -> str:
    outcome = record.outcome or {}
    places = outcome.get("places", [])
    rows = place_lines(places, record.names, locale)
    reason = t(outcome["reason"], locale) if outcome.get("reason") else ""
    return t("game.finished", locale, result=reason) + "\n" + "\n".join(rows)


async def acknowledged(interaction: discord.Interaction) -> None:
    """A move the board shows needs no "Done": a button click was acknowledged as a deferred update
    of the board; a slash command's "thinking…" placeholder is removed."""
    if interaction.response.type == discord.InteractionResponseType.deferred_channel_message:
        try:
            await interaction.delete_original_response()
        except discord.HTTPException:
            log.warning("could not remove the placeholder of interaction %s", interaction.id)


def board_link(record: GameRow, board_id: str | None = None) -> str:
    """The link to the table's current board (to its channel while it has none)."""
    link = f"https://discord.com/channels/{record.guild_id or '@me'}/{record.channel_id}"
    board = board_id or record.board_message_id
    return f"{link}/{board}" if board else link


_GUILD_NAMES: dict[str, str] = {}  # servers the gateway has not told this process about yet


async def server_name(bot: GameMasterBot, guild_id: str | None) -> str | None:
    if not guild_id:
        return None
    guild = bot.get_guild(int(guild_id))
    if guild is not None:
        return guild.name
    if guild_id not in _GUILD_NAMES:
        try:
            _GUILD_NAMES[guild_id] = (await bot.fetch_guild(int(guild_id), with_counts=False)).name
        except discord.HTTPException:
            return None
    return _GUILD_NAMES[guild_id]


async def where_text(bot: GameMasterBot, record: GameRow, locale: str, board_id: str | None = None) -> str:
    """The line that tells a DM's reader which table it belongs to: game, server, channel, board."""
    name = await server_name(bot, record.guild_id)
    server = shown(name) if name else t("dm.a_server", locale)
    return t("dm.your_view", locale, game=t(f"game.name.{record.game}", locale), server=server,
             channel=f"<#{record.channel_id}>", link=board_link(record, board_id))


async def private_message(bot: GameMasterBot, record: GameRow, seat: int, locale: str,
                          events: Sequence[Any] = (), board_id: str | None = None
                          ) -> tuple[str, discord.File | None, discord.ui.View | None]:
    obs = bot.service.observe(record, seat)
    if obs.get("private") is None:
        return "", None, None
    lines = [await where_text(bot, record, locale, board_id)]
    lines += private_lines(events, seat, record.names, locale)
    # the hooks also get the table's names and the reader's language
    obs = {**obs, "names": record.names, "locale": locale}
    text = ui_for(record.game).private_text(obs, locale)
    if text:
        lines.append(text)
    image = await render_private(record, obs, locale)
    file = png(image, f"{record.game}-private-{record.ply}.png") if image else None
    legal = bot.service.legal_texts(record, seat)
    return clip("\n".join(lines)), file, private_view(record, seat, obs, legal, locale)


def hand_only_view(record: GameRow, locale: str) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(HandButton(record.id, label=t("button.hand", locale)))
    return view


# ----------------------------------------------------------------------------- replying
async def reply_error(interaction: discord.Interaction, error: Exception) -> None:
    locale = locale_of(interaction)
    if isinstance(error, StorageDamaged):
        # logged once, here, naming the table; the player hears the move was not made
        log.error("database damaged: game %s (channel %s) could not be read or written: %s",
                  error.game_id, interaction.channel_id, error.detail)
    if isinstance(error, GameMasterError):
        text = error_text(error, locale, error.names)
    else:
        log.error("unexpected error in interaction", exc_info=error)
        text = t("error.unexpected", locale)
    await reply(interaction, text, ephemeral=True)


async def reply(interaction: discord.Interaction, content: str, *, ephemeral: bool = True,
                **kwargs: Any) -> None:
    """Answer the interaction (first response or followup); it pings no one unless the caller
    passes ``allowed_mentions``."""
    kwargs.setdefault("allowed_mentions", NO_PINGS)
    if interaction.response.is_done():
        if interaction.extras.pop("public_placeholder", False) and ephemeral:
            # the first follow-up would take the public placeholder's place, and be public too
            try:
                await interaction.delete_original_response()
            except discord.HTTPException:
                log.warning("could not remove the placeholder of interaction %s", interaction.id)
        await interaction.followup.send(clip(content), ephemeral=ephemeral, **kwargs)
    else:
        await interaction.response.send_message(clip(content), ephemeral=ephemeral, **kwargs)


async def defer_public(interaction: discord.Interaction) -> None:
    """Acknowledge a command whose answer is public (a lobby, a join, an end) before any database
    work: a public "thinking…" placeholder the answer replaces. A refusal stays private:
    ``reply`` removes the placeholder and answers ephemerally."""
    await interaction.response.defer(thinking=True)
    interaction.extras["public_placeholder"] = True


async def guarded(interaction: discord.Interaction, work: Callable[[], Awaitable[None]]) -> None:
    """Run ``work``; any error becomes one ephemeral, translated reply."""
    try:
        await work()
    except Exception as exc:  # noqa: BLE001 - every error must answer the user
        await reply_error(interaction, exc)


async def act(interaction: discord.Interaction, action: str, *, game_id: int | None = None,
              expected_ply: int | None = None, owner: int | None = None) -> None:
    """Apply ``action`` for the interaction's user and announce the result."""
    bot: GameMasterBot = interaction.client  # type: ignore[assignment]

    async def work() -> None:
        if not interaction.response.is_done():
            await interaction.response.defer(ephemeral=True, thinking=True)
        table = game_id or (await bot.service.require_current(str(interaction.channel_id))).id
        try:
            update = await bot.service.act(user_id=str(interaction.user.id), action=action, game_id=table,
                                           expected_ply=expected_ply, owner=owner,
                                           interaction_id=str(interaction.id))
        except Conflict:
            await show_current(interaction, table, private=owner is not None)
            return
        except StorageDamaged as exc:
            exc.game_id = exc.game_id or table
            raise
        answered = await answer_with_own_view(interaction, update)
        announce(bot, update, answered)
        if answered is None:
            await acknowledged(interaction)

    await guarded(interaction, work)


async def answer_with_own_view(interaction: discord.Interaction, update: Update) -> int | None:
    """The mover's own new private view (their hand after a play) answers their move, privately,
    instead of a DM: an interaction's follow-up does not count against Discord's global limit of
    REST calls, a DM does. Returns the mover's seat when it was shown (the announcer then DMs
    only the players whose view changed through someone else's move)."""
    bot: GameMasterBot = interaction.client  # type: ignore[assignment]
    record = update.record
    seat = record.seat_of(str(interaction.user.id))
    if seat is None or seat not in update.private_changed or bot.get_cog("Announcer") is None:
        return None
    content, file, view = await private_message(bot, record, seat, locale_of(interaction), update.events)
    if not content and file is None:
        return None
    kwargs: dict[str, Any] = {"view": view} if view is not None else {}
    if file is not None:
        kwargs["file"] = file
    try:
        await reply(interaction, content, **kwargs)
    except discord.HTTPException:  # the announcer DMs it as before
        log.warning("could not answer interaction %s with the mover's own view", interaction.id, exc_info=True)
        return None
    return seat


async def show_current(interaction: discord.Interaction, game_id: int | None, *, private: bool = False) -> None:
    """Answer a stale click: the game moved on; show the current position privately (the clicker's
    own private view, with fresh controls, when the old button was part of it)."""
    bot: GameMasterBot = interaction.client  # type: ignore[assignment]
    locale = locale_of(interaction)
    record = await bot.service.get(game_id) if game_id else await bot.service.require_current(
        str(interaction.channel_id))
    text = t("game.stale_current", locale)
    seat = record.seat_of(str(interaction.user.id))
    if record.state is None or record.status != "active":
        await reply(interaction, text)
        return
    if private and seat is not None:
        content, file, view = await private_message(bot, record, seat, locale)
        kwargs: dict[str, Any] = {"view": view} if view is not None else {}
        if file is not None:
            kwargs["file"] = file
        await reply(interaction, text + "\n" + content, **kwargs)
        return
    obs = bot.service.observe(record, None)
    image = await render_public(record, obs, locale)
    await reply(interaction, text, file=png(image, f"{record.game}-{record.ply}.png"))


async def show_hand(interaction: discord.Interaction, game_id: int | None = None) -> None:
    """Ephemeral private view for the caller, straight from the database."""
    bot: GameMasterBot = interaction.client  # type: ignore[assignment]

    async def work() -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        record = await bot.service.get(game_id) if game_id else await bot.service.require_current(
            str(interaction.channel_id))
        seat = record.seat_of(str(interaction.user.id))
        if seat is None:
            raise NotFound("error.not_seated")
        if record.state is None:
            raise NotFound("error.not_started")
        content, file, view = await private_message(bot, record, seat, locale_of(interaction))
        if not content and file is None:
            raise NotFound("error.no_private_view")
        kwargs: dict[str, Any] = {}
        if file is not None:
            kwargs["file"] = file
        if view is not None:
            kwargs["view"] = view
        await reply(interaction, content, **kwargs)

    await guarded(interaction, work)


# ----------------------------------------------------------------------------- dynamic items
_ACT = re.compile(r"a:(?P<game>[0-9]{1,18}):(?P<ply>[0-9]{1,9}):(?P<action>[ -~]{1,80})")
_OWN = re.compile(r"p:(?P<game>[0-9]{1,18}):(?P<ply>[0-9]{1,9}):(?P<owner>[0-9]{1,2}):(?P<action>[ -~]{1,80})")
_ONE = re.compile(r"(?P<kind>[hjsr]):(?P<game>[0-9]{1,18})")
_VOTE = re.compile(r"t:(?P<game>[0-9]{1,18}):(?P<ply>[0-9]{1,9}):(?P<seat>[0-9]{1,2}):(?P<choice>wait|skip|computer)")


class GameButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"gm:(?P<rest>.*)"):
    """Every button of ours. The custom_id is parsed in the callback so that a malformed or forged
    one still gets a clear answer instead of "This interaction failed"."""

    def __init__(self, game_id: int, ply: int, action: str, *, label: str = "",
                 style: discord.ButtonStyle = discord.ButtonStyle.secondary, raw: str | None = None,
                 owner: int | None = None) -> None:
        custom_id = raw if raw is not None else custom_id_act(game_id, ply, action, owner=owner)
        super().__init__(discord.ui.Button(label=label or action, style=style, custom_id=custom_id[:100]))
        self.rest = custom_id[3:]

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str]) -> GameButton:
        return cls(0, 0, "", raw=f"gm:{match['rest']}")

    async def callback(self, interaction: discord.Interaction) -> Any:
        if not await admit_component(interaction):
            return
        act_match = _ACT.fullmatch(self.rest) or _OWN.fullmatch(self.rest)
        if act_match:
            await interaction.response.defer()  # a deferred update: the board itself answers
            owner = act_match.groupdict().get("owner")
            await act(interaction, act_match["action"], game_id=int(act_match["game"]),
                      expected_ply=int(act_match["ply"]), owner=int(owner) if owner is not None else None)
            return
        from cogs import undo
        undo_match = undo.UNDO_ID.fullmatch(self.rest)
        if undo_match:
            await undo.button(interaction, undo_match)
            return
        from cogs import replay
        replay_match = replay.REPLAY_ID.fullmatch(self.rest)
        if replay_match:
            await replay.button(interaction, replay_match)
            return
        from cogs import history
        page = history.PAGE_ID.fullmatch(self.rest)
        if page:
            await history.page_button(interaction, page)
            return
        vote = _VOTE.fullmatch(self.rest)
        if vote:
            from cogs.clock import vote_button
            await vote_button(interaction, int(vote["game"]), int(vote["ply"]), int(vote["seat"]), vote["choice"])
            return
        one = _ONE.fullmatch(self.rest)
        if one is None:
            await reply_error(interaction, InvalidAction("error.bad_custom_id"))
            return
        game_id = int(one["game"])
        if one["kind"] == "h":
            await show_hand(interaction, game_id)
        else:
            from cogs.lobby import lobby_button
            await lobby_button(interaction, one["kind"], game_id)


async def admit_component(interaction: discord.Interaction) -> bool:
    """``admit`` for buttons and selects: False (and no answer) for a repeated delivery."""
    bot: GameMasterBot = interaction.client  # type: ignore[assignment]
    if not bot.first_delivery(interaction.id):
        log.info("interaction %s delivered again; its first delivery answers it", interaction.id)
        return False
    return await prime_locale(interaction)


def HandButton(game_id: int, *, label: str) -> GameButton:  # noqa: N802 - reads like a class
    return GameButton(game_id, 0, "", label=label, style=discord.ButtonStyle.primary, raw=f"gm:h:{game_id}")


def LobbyButton(kind: str, game_id: int, *, label: str,  # noqa: N802
                style: discord.ButtonStyle = discord.ButtonStyle.success) -> GameButton:
    return GameButton(game_id, 0, "", label=label, style=style, raw=f"gm:{kind}:{game_id}")


_SELECT = re.compile(r"(?P<game>[0-9]{1,18}):(?P<ply>[0-9]{1,9}):(?P<owner>[0-9]{1,2}):(?P<n>[0-9]):"
                     r"(?P<prefix>[ -~]{0,60})")


class GameSelect(discord.ui.DynamicItem[discord.ui.Select[Any]], template=r"gms:(?P<rest>.*)"):
    """A select menu: the chosen values are appended to the action prefix."""

    def __init__(self, game_id: int, ply: int, owner: int, prefix: str, number: int = 0, *,
                 options: list[discord.SelectOption] | None = None, placeholder: str | None = None,
                 min_values: int = 1, max_values: int = 1, raw: str | None = None) -> None:
        custom_id = raw if raw is not None else f"gms:{game_id}:{ply}:{owner}:{number}:{prefix}"
        super().__init__(discord.ui.Select(custom_id=custom_id[:100], options=options or [],
                                           placeholder=placeholder, min_values=min_values,
                                           max_values=max_values))
        self.rest = custom_id[4:]

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str]) -> GameSelect:
        return cls(0, 0, 0, "", raw=f"gms:{match['rest']}")

    async def callback(self, interaction: discord.Interaction) -> Any:
        if not await admit_component(interaction):
            return
        parsed = _SELECT.fullmatch(self.rest)
        data: dict[str, Any] = dict(interaction.data or {})
        values = [str(v) for v in data.get("values", [])]
        if parsed is None or not values or any(not re.fullmatch(r"[ -~]{1,40}", v) for v in values):
            await reply_error(interaction, InvalidAction("error.bad_custom_id"))
            return
        action = " ".join([parsed["prefix"], *values]).strip()
        await act(interaction, action, game_id=int(parsed["game"]), expected_ply=int(parsed["ply"]),
                  owner=int(parsed["owner"]))


def known_games() -> list[str]:
    return registry.names()


async def legal_choices(interaction: discord.Interaction, prefix: str, current: str,
                        pretty: Callable[[str], str] = lambda s: s) -> list[discord.app_commands.Choice[str]]:
    """Autocomplete from the caller's legal actions that start with ``prefix``; the value is the
    rest of the action text. Strangers and finished games get no choices."""
    bot: GameMasterBot = interaction.client  # type: ignore[assignment]
    record = await bot.service.current(str(interaction.channel_id))
    if record is None or record.status != "active":
        return []
    seat = record.seat_of(str(interaction.user.id))
    if seat is None:
        return []
    needle = current.strip().lower()
    seen: list[str] = []
    for text in bot.service.legal_texts(record, seat, limit=2000):
        if not text.startswith(prefix + " "):
            continue
        rest = text[len(prefix) + 1:]
        if needle and needle not in rest.lower() and needle not in pretty(rest).lower():
            continue
        if rest not in seen:
            seen.append(rest)
        if len(seen) == 25:
            break
    return [discord.app_commands.Choice(name=pretty(rest)[:100], value=rest[:100]) for rest in seen]


def pretty_cards(text: str) -> str:
    """``7H 7S`` -> ``♥7 ♠7`` for menus (the font in Discord has suit symbols)."""
    from bot.engine.cards import parse_card

    try:
        return " ".join(parse_card(tok).pretty for tok in text.split())
    except GameMasterError:
        return text
