"""/game: new, join, leave, start, status, hand, resign, undo, end, log — the table around every game
(/game history, export and stats: cogs/history.py)."""
from __future__ import annotations

import logging
from datetime import datetime
from typing import TYPE_CHECKING, Any, TypedDict

import discord
from discord import app_commands
from discord.ext import commands

from bot.engine import registry
from bot.errors import Forbidden, IllegalAction
from bot.i18n import t
from bot.services.lobby import MAX_OPEN_TABLES
from bot.services.options import parse_options
from bot.services.rematch import press
from bot.services.seats import Seats
from bot.services.text import shown, shown_names
from bot.storage.games import GameRow
from cogs.components import LobbyButton
from cogs.drawing import alt_text, png, render_public
from cogs.hooks import defer
from cogs.incidents import UNKNOWN_CHANNEL, UNKNOWN_MESSAGE, channel_refused, repost_lobby
from cogs.moves import announce, announced, show_hand
from cogs.notify import prefs_digest, replan_digest
from cogs.replies import NO_PINGS, acknowledged, defer_public, guarded, locale_of, paced, reply, spend
from cogs.rides import edit_carried, rides_of
from cogs.undo import ask
from cogs.web import set_pages

if TYPE_CHECKING:
    from cogs.client import GameMasterBot

log = logging.getLogger(__name__)


def lobby_text(record: GameRow, locale: str) -> str:
    game = registry.get(record.game)
    lines = [t("lobby.created", locale, creator=shown(record.names[0]) if record.seats else "?",
               game=t(f"game.name.{record.game}", locale), minimum=game.min_players, maximum=game.max_players),
             t("lobby.players", locale, players=", ".join(shown_names(record.names)))]
    if record.options:
        lines.append(t("lobby.options", locale))
        for spec in game.options:
            value = record.options.get(spec.name, spec.default)
            value_text = t("lobby.on" if value else "lobby.off", locale) if isinstance(value, bool) else value
            about = t(spec.description_key, locale) if spec.description_key else ""
            lines.append(f"• `{spec.name}={str(value_text).replace('`', ' ')}` {about}".rstrip())
    return "\n".join(lines)


def lobby_view(record: GameRow, locale: str) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(LobbyButton("j", record.id, label=t("button.join", locale)))
    view.add_item(LobbyButton("s", record.id, label=t("button.start", locale), style=discord.ButtonStyle.primary))
    view.add_item(LobbyButton("c", record.id, style=discord.ButtonStyle.secondary,
                              label=t("ai.button.add_computer", locale,
                                      level=t(f"ai.level.{record.computer_level}", locale))))
    return view


async def post_lobby(interaction: discord.Interaction, record: GameRow, locale: str) -> None:
    """The lobby's one message (the answer of /game new), remembered so that joins edit it and the
    start folds it to a line."""
    bot: GameMasterBot = interaction.client  # type: ignore[assignment]
    message = await interaction.followup.send(lobby_text(record, locale), view=lobby_view(record, locale),
                                              allowed_mentions=NO_PINGS, wait=True)
    carrying = rides_of(bot)
    if carrying is not None:  # joins edit it, the start folds it: through this interaction's webhook
        carrying.carry(str(message.id), interaction)
        carrying.seated(record.id, interaction)  # the creator's first view too, as a joiner's
    await bot.service.set_lobby_message(record.id, str(message.id))


async def refresh_lobby(bot: GameMasterBot, record: GameRow, *, closed: bool = False) -> None:
    """Show the lobby message as the table now is (who sits down), or closed; a lobby whose
    message is gone leaves the table as it is."""
    if not record.board_message_id:
        return
    locale = record.locale
    text = t("lobby.aborted", locale) if closed else lobby_text(record, locale)
    channel = bot.get_partial_messageable(int(record.channel_id))
    fields: dict[str, Any] = {"content": text, "view": None if closed else lobby_view(record, locale),
                              "allowed_mentions": NO_PINGS}
    try:
        if await edit_carried(bot, record.channel_id, record.board_message_id, **fields):
            return  # not counted against Discord's global limit
        async with paced(bot, record.channel_id):
            await channel.get_partial_message(int(record.board_message_id)).edit(**fields)
    except discord.NotFound as exc:
        if exc.code == UNKNOWN_MESSAGE and not closed:
            await repost_lobby(bot, record, text, lobby_view(record, locale))
        else:
            log.info("game %s: its lobby message is gone (%s)", record.id, exc.code)
    except discord.HTTPException:
        log.warning("could not update the lobby message of game %s", record.id, exc_info=True)


async def lobby_button(interaction: discord.Interaction, kind: str, game_id: int) -> None:
    bot: GameMasterBot = interaction.client  # type: ignore[assignment]

    async def work() -> None:
        if kind == "r":
            await rematch(interaction, game_id)
            return
        if kind == "j":
            await defer(interaction, ephemeral=True, thinking=True)  # before any database work
        record = await bot.service.get(game_id)
        if record.status != "lobby":
            raise IllegalAction("error.already_started" if record.status == "active" else "error.game_over")
        if str(record.channel_id) != str(interaction.channel_id):
            raise IllegalAction("error.lobby_elsewhere", channel=f"<#{record.channel_id}>")
        if kind == "j":
            await do_join(interaction)
        elif kind == "c":
            await do_add_computer(interaction, None)
        else:
            await do_start(interaction)

    await guarded(interaction, work)


async def rematch(interaction: discord.Interaction, game_id: int) -> None:
    """The Rematch button of a finished game's result."""
    bot: GameMasterBot = interaction.client  # type: ignore[assignment]
    await defer(interaction, ephemeral=True, thinking=True)
    result = await press(bot.service, game_id, str(interaction.user.id))
    if result.update is not None:
        await announced(interaction, result.update)
        return
    lobby = result.lobby
    text = t("rematch.pressed", lobby.locale, player=shown_name(interaction.user))
    text += "\n" + lobby_text(lobby, lobby.locale)
    async with paced(bot, lobby.channel_id):
        message = await bot.get_partial_messageable(int(lobby.channel_id)).send(
            text, view=lobby_view(lobby, lobby.locale), allowed_mentions=NO_PINGS)
    await bot.service.set_lobby_message(lobby.id, str(message.id))
    await reply(interaction, t("rematch.posted", locale_of(interaction)))


def game_choices(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    locale = locale_of(interaction)
    return [app_commands.Choice(name=t(f"game.name.{name}", locale), value=name)
            for name in registry.names() if current.lower() in name or
            current.lower() in t(f"game.name.{name}", locale).lower()][:25]


def display_name(user: discord.abc.User) -> str:
    """The name stored with a seat (drawn on boards as it is; escaped wherever it becomes text)."""
    return (getattr(user, "display_name", None) or user.name)[:32]


def shown_name(user: discord.abc.User) -> str:
    return shown(display_name(user))


async def do_join(interaction: discord.Interaction) -> None:
    bot: GameMasterBot = interaction.client  # type: ignore[assignment]
    if not interaction.response.is_done():
        await defer_public(interaction)  # before any database work
    current = await bot.service.require_current(str(interaction.channel_id))
    if current.status == "active":
        # a player whose seat the computer took over comes back
        record = await bot.service.reclaim(str(interaction.channel_id), str(interaction.user.id))
        await reply(interaction, t("lobby.reclaimed", record.locale, player=shown_name(interaction.user)),
                    ephemeral=False)
        return
    record = await bot.service.join(str(interaction.channel_id), str(interaction.user.id),
                                    display_name(interaction.user))
    await refresh_lobby(bot, record)  # the lobby is one message: the join edits it
    locale = locale_of(interaction)
    await reply(interaction, t("msg.lobby.you_joined", locale, game=t(f"game.name.{record.game}", locale),
                               players=", ".join(shown_names(record.names))))
    rides = rides_of(bot)
    if rides is not None:  # their first view, should the start make it their turn, rides this answer
        rides.seated(record.id, interaction)


def parse_levels(text: str) -> list[str]:
    """``/game new level:``: "strong" or "strong, easy" (one per computer seat, the last for the
    rest); an unknown level is refused by the lobby with its name."""
    return [word for word in text.replace(",", " ").lower().split() if word]


async def do_add_computer(interaction: discord.Interaction, level: str | None) -> None:
    """The lobby's "+ Computer" button (the table's level) or ``/game computer level:``."""
    bot: GameMasterBot = interaction.client  # type: ignore[assignment]
    if not interaction.response.is_done():
        await defer_public(interaction)  # before any database work
    record = await bot.service.add_computer(str(interaction.channel_id), str(interaction.user.id), level)
    locale = record.locale
    added = record.seats[-1]
    await reply(interaction, t("ai.computer_added", locale, player=shown(added.name)) + "\n"
                + t("lobby.players", locale, players=", ".join(shown_names(record.names))), ephemeral=False)


async def do_start(interaction: discord.Interaction) -> None:
    bot: GameMasterBot = interaction.client  # type: ignore[assignment]
    button = interaction.type == discord.InteractionType.component
    if button:
        await defer(interaction)  # a deferred update of the lobby message
    else:
        await defer(interaction, ephemeral=True, thinking=True)
    update = await bot.service.start(str(interaction.channel_id), str(interaction.user.id))
    # the first board rides the start's interaction, and then the starter's first hand, privately
    await announced(interaction, update, own=True)
    if button:
        await interaction.edit_original_response(view=None)  # the lobby is closed: no Join/Start


class NewTable(TypedDict):
    """What ``/game new`` asked for: the keyword arguments of ``GameService.create`` besides where."""

    game: str
    user_id: str
    name: str
    options: dict[str, str]
    locale: str
    computers: int
    levels: list[str]
    turn_hours: float | None


async def tell_vacation(bot: GameMasterBot, record: GameRow, name: str, until: str | None) -> None:
    """A table hears that one of its players is away (or back), paced to the channel's window; a
    channel that is gone or shut to the bot is logged in one line and skipped."""
    if until:
        text = t("vacation.table", record.locale, player=name,
                 until=f"<t:{int(datetime.fromisoformat(until).timestamp())}:D>")
    else:
        text = t("vacation.table_back", record.locale, player=name)
    try:
        async with paced(bot, record.channel_id):
            await bot.get_partial_messageable(int(record.channel_id)).send(text, allowed_mentions=NO_PINGS)
    except discord.HTTPException as exc:
        if isinstance(exc, discord.NotFound) and exc.code == UNKNOWN_CHANNEL:  # its table ends (one line)
            await channel_refused(bot, record.channel_id, "a vacation notice found it gone")
            return
        log.warning("game %s: could not tell channel %s of a vacation (%s %s)", record.id, record.channel_id,
                    exc.status, exc.code)


def allowed_threads(interaction: discord.Interaction) -> None:
    """``/game new thread:`` opens a thread as the bot, so it checks the player's own Create Public
    Threads permission in the channel (one who may not open threads cannot have the bot do it),
    and the bot's, before anything is done."""
    if not interaction.permissions.create_public_threads:
        raise Forbidden("thread.error.you_cannot")
    if not interaction.app_permissions.create_public_threads:
        raise Forbidden("thread.error.bot_cannot")


async def new_in_thread(interaction: discord.Interaction, locale: str, settings: NewTable) -> None:
    """``/game new thread:``: the table lives in a new public thread of this channel (a thread is a
    channel, so the table's state and every command work there); the parent gets a link to it."""
    bot: GameMasterBot = interaction.client  # type: ignore[assignment]
    parent = interaction.channel
    if not isinstance(parent, discord.TextChannel):
        raise IllegalAction("error.thread_needs_text_channel")
    registry.get(settings["game"])  # an unknown game is refused before any thread is opened
    name = t("thread.name", locale, game=t(f"game.name.{settings['game']}", locale), player=settings["name"])
    thread = await parent.create_thread(name=name[:100], type=discord.ChannelType.public_thread,
                                        auto_archive_duration=10080)
    try:
        record = await bot.service.create(guild_id=str(interaction.guild_id), channel_id=str(thread.id),
                                          max_open=MAX_OPEN_TABLES, **settings)
    except Exception:
        try:
            await thread.delete()  # no empty thread is left behind by a refused table
        except discord.HTTPException:
            log.warning("could not delete the unused thread %s", thread.id)
        raise
    text = lobby_text(record, locale)
    async with paced(bot, record.channel_id):
        message = await thread.send(text, view=lobby_view(record, locale), allowed_mentions=NO_PINGS)
    await bot.service.set_lobby_message(record.id, str(message.id))
    async with paced(bot, str(parent.id)):
        await parent.send(text + "\n" + t("lobby.in_thread", locale, thread=thread.mention),
                          allowed_mentions=NO_PINGS)
    await acknowledged(interaction)


async def close_thread(bot: GameMasterBot, record: GameRow) -> None:
    """After ``/game end`` answered: a table in its own thread gets its thread archived, by the
    announcer after it edited the last board (a game that was playing), or at once (a lobby)."""
    announcer = bot.get_cog("Announcer")
    if announcer is None:
        return
    if record.state is None:
        await announcer.archive_thread(record)  # type: ignore[attr-defined]
    else:
        announcer.wake(record.id)  # type: ignore[attr-defined]


class Lobby(commands.Cog):
    # usable in a DM with the bot too (/game mine, prefs, digest there; the table commands say they need a server)
    game = app_commands.Group(name="game", description="Tables: create, join, start, status, end",
                              allowed_contexts=app_commands.AppCommandContext(guild=True, dm_channel=True))

    def __init__(self, bot: GameMasterBot) -> None:
        self.bot = bot

    @game.command(name="new", description="Open a table for a game in this channel")
    @app_commands.describe(game="Which game", options="Game options as name=value pairs",
                           computers="How many computer players to seat",
                           level="Computer level: one per computer seat, e.g. strong or strong,easy (default normal)",
                           turn_hours="Hours each player has per turn (server default if empty)",
                           thread="Open the table in a new thread of this channel")
    async def new(self, interaction: discord.Interaction, game: str, options: str = "",
                  computers: app_commands.Range[int, 0, 9] = 0,
                  level: app_commands.Range[str, 0, 100] = "", turn_hours: float | None = None,
                  thread: bool = False) -> None:
        async def work() -> None:
            if thread and interaction.guild_id is not None:
                allowed_threads(interaction)
            if thread or computers:  # a thread to open, computer players to think: both cost
                spend(interaction, "thread" if thread else "computers")
            # before any database work; a table in a thread is announced in the thread and its parent
            if thread:
                await defer(interaction, ephemeral=True, thinking=True)
            else:
                await defer_public(interaction)
            if interaction.guild_id is None:
                raise IllegalAction("error.guild_only")
            guild = str(interaction.guild_id)
            server_locale, _ = await self.bot.players.guild_settings(guild)
            locale = server_locale or locale_of(interaction)
            settings = NewTable(game=game, user_id=str(interaction.user.id), name=display_name(interaction.user),
                                options=parse_options(options), locale=locale, computers=computers,
                                levels=parse_levels(level), turn_hours=turn_hours)
            if thread:
                await new_in_thread(interaction, locale, settings)
                return
            record = await self.bot.service.create(guild_id=guild, channel_id=str(interaction.channel_id),
                                                   max_open=MAX_OPEN_TABLES, **settings)
            await post_lobby(interaction, record, locale)
        await guarded(interaction, work)

    @new.autocomplete("game")
    async def new_game_ac(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        return game_choices(interaction, current)

    @game.command(name="computer", description="Seat a computer player at the open table")
    @app_commands.describe(level="How well it plays (default: the table's level)")
    @app_commands.choices(level=[app_commands.Choice(name=level, value=level) for level in registry.LEVELS])
    async def computer(self, interaction: discord.Interaction, level: str | None = None) -> None:
        await guarded(interaction, lambda: do_add_computer(interaction, level))

    @game.command(name="join", description="Sit down at the table in this channel")
    async def join(self, interaction: discord.Interaction) -> None:
        await guarded(interaction, lambda: do_join(interaction))

    @game.command(name="leave", description="Leave the table before the game starts")
    async def leave(self, interaction: discord.Interaction) -> None:
        async def work() -> None:
            await defer_public(interaction)  # before any database work
            record = await self.bot.service.leave(str(interaction.channel_id), str(interaction.user.id))
            await refresh_lobby(self.bot, record, closed=record.status == "aborted")  # the lobby's one message
            locale = locale_of(interaction)
            key = "lobby.aborted" if record.status == "aborted" else "msg.lobby.you_left"
            await reply(interaction, t(key, locale, game=t(f"game.name.{record.game}", locale)))
        await guarded(interaction, work)

    @game.command(name="start", description="Start the game at this table")
    async def start(self, interaction: discord.Interaction) -> None:
        await guarded(interaction, lambda: do_start(interaction))

    @game.command(name="status", description="Show the table and whose turn it is")
    async def status(self, interaction: discord.Interaction) -> None:
        async def work() -> None:
            await defer(interaction, ephemeral=True, thinking=True)  # before any database or CPU work
            locale = locale_of(interaction)
            record = await self.bot.service.require_current(str(interaction.channel_id))
            name = t(f"game.name.{record.game}", locale)
            if record.status == "lobby":
                await reply(interaction, t("game.status_lobby", locale, game=name,
                                           players=", ".join(shown_names(record.names))))
                return
            waiting = ", ".join(shown(record.names[s]) for s in sorted(self.bot.service.to_act(record)))
            obs = self.bot.service.observe(record, None)
            image = await render_public(record, obs, locale)
            await reply(interaction, t("game.status_active", locale, game=name, ply=record.ply, waiting=waiting),
                        file=png(image, f"{record.game}-{record.ply}.png", alt_text(record, "public", obs, locale)))
        await guarded(interaction, work)

    @game.command(name="hand", description="Show your private view (hand, own pieces) only to you")
    async def hand(self, interaction: discord.Interaction) -> None:
        await show_hand(interaction)

    @game.command(name="resign", description="Give up the game")
    async def resign(self, interaction: discord.Interaction) -> None:
        async def work() -> None:
            await defer(interaction, ephemeral=True, thinking=True)
            update = await self.bot.service.resign(str(interaction.channel_id), str(interaction.user.id))
            await announced(interaction, update)
        await guarded(interaction, work)

    @game.command(name="undo", description="Ask the other players to take back your last move")
    async def undo(self, interaction: discord.Interaction) -> None:
        await ask(interaction)

    @game.command(name="end", description="End the game in this channel (creator or Manage Server)")
    async def end(self, interaction: discord.Interaction) -> None:
        async def work() -> None:
            await defer_public(interaction)  # before any database work
            is_manager = interaction.guild_id is not None and interaction.permissions.manage_guild
            record = await self.bot.service.end(str(interaction.channel_id), str(interaction.user.id),
                                                is_manager=is_manager, name=display_name(interaction.user))
            if record.status == "finished":  # an open-ended game keeps its standings: the result board shows them
                text = t("game.closed_by", record.locale, player=shown_name(interaction.user))
            else:
                text = t("game.aborted", record.locale, player=shown_name(interaction.user), seed=record.seed)
            await reply(interaction, text, ephemeral=False)
            await close_thread(self.bot, record)
        await guarded(interaction, work)

    @game.command(name="log", description="Show the moves of the game in this channel")
    async def log(self, interaction: discord.Interaction) -> None:
        async def work() -> None:
            await defer(interaction, ephemeral=True, thinking=True)  # before any database or CPU work
            locale = locale_of(interaction)
            record = await self.bot.service.latest(str(interaction.channel_id))
            if record.status == "lobby":
                await reply(interaction, t("game.no_moves", locale))
                return
            entries = await self.bot.players.log_in_words(record, locale)
            if not entries:
                await reply(interaction, t("game.no_moves", locale))
                return
            lines = [t("game.log_title", locale, id=record.id, game=t(f"game.name.{record.game}", locale))]
            lines += [t("game.log_line", locale, ply=ply, player=shown(player), action=text)
                      for ply, player, text in entries]
            await reply(interaction, clip_lines(lines))
        await guarded(interaction, work)

    @game.command(name="prefs", description="Your language, time zone, quiet hours and turn pings")
    @app_commands.describe(language="en, sv, nb, cs or auto (Discord's language)",
                           timezone="e.g. Europe/Stockholm", quiet_start="Hour quiet time starts (0-23)",
                           quiet_end="Hour quiet time ends (0-23)", ping="DM me when it is my turn",
                           digest="Hour of a daily DM listing your tables (0-23, your time zone; -1: off)")
    async def prefs(self, interaction: discord.Interaction, language: str | None = None,
                    timezone: str | None = None, quiet_start: app_commands.Range[int, 0, 23] | None = None,
                    quiet_end: app_commands.Range[int, 0, 23] | None = None, ping: bool | None = None,
                    digest: app_commands.Range[int, -1, 23] | None = None) -> None:
        async def work() -> None:
            await defer(interaction, ephemeral=True, thinking=True)  # before any database or CPU work
            if digest is not None and not -1 <= digest <= 23:  # checked before anything is saved
                raise IllegalAction("prefs.error.hour", hour=digest)
            prefs = await self.bot.players.set_prefs(str(interaction.user.id), locale=language, time_zone=timezone,
                                                     quiet_start=quiet_start, quiet_end=quiet_end, ping_on_turn=ping)
            if timezone is not None or quiet_start is not None or quiet_end is not None:
                await replan_digest(self.bot, str(interaction.user.id))  # the daily digest's hour moved
            locale = prefs.locale or locale_of(interaction)
            quiet = (f"{prefs.quiet_start:02d}–{prefs.quiet_end:02d}" if prefs.quiet_start is not None
                     and prefs.quiet_end is not None else "-")
            saved = t("prefs.saved", locale, language=prefs.locale or "auto", timezone=prefs.time_zone or "UTC",
                      quiet=quiet, ping=t("prefs.yes" if prefs.ping_on_turn else "prefs.no", locale))
            digest_line = await prefs_digest(self.bot, str(interaction.user.id), digest, locale)  # cogs/notify.py
            await reply(interaction, saved + ("\n" + digest_line if digest_line else ""))
        await guarded(interaction, work)

    @game.command(name="vacation", description="Pause your turn clocks for some days (0 ends it)")
    @app_commands.describe(days="How many days (the server sets the limit)")
    async def vacation(self, interaction: discord.Interaction, days: app_commands.Range[int, 0, 60]) -> None:
        async def work() -> None:
            await defer(interaction, ephemeral=True, thinking=True)  # before any database or CPU work
            locale = locale_of(interaction)
            guild = str(interaction.guild_id) if interaction.guild_id else None
            until, moved = await self.bot.service.set_vacation(str(interaction.user.id), days, guild)
            if until is None:  # back: every seat a sitter played for them is theirs again (/game sitter)
                for update in await Seats(self.bot.service).back_from_vacation(str(interaction.user.id)):
                    announce(self.bot, update)
            key = "vacation.set" if until else "vacation.ended"
            stamp = f"<t:{int(datetime.fromisoformat(until).timestamp())}:D>" if until else ""
            await reply(interaction, t(key, locale, until=stamp, games=len(moved)))
            # saved and answered: each table is told after, paced, one table's failure no one else's
            name = shown_name(interaction.user)
            for record in await self.bot.players.games_of(str(interaction.user.id), None):
                if record.status == "active":
                    await tell_vacation(self.bot, record, name, until)
        await guarded(interaction, work)

    @game.command(name="settings", description="Server defaults: turn time, time bank, vacation limit (admins)")
    @app_commands.describe(turn_hours="Default hours per turn", bank_hours="Extra hours each player may use in a game",
                           vacation_days="Longest vacation allowed", language="Default language: en, sv, nb, cs",
                           reminder_share="Share of the turn time after which the reminder is sent (0.1-0.95)",
                           web="Show this server's tables on the web pages",
                           theme="Pictures: dark (default) or light",
                           titles="A light title for each player at the end of a game (default off)")
    @app_commands.choices(theme=[app_commands.Choice(name="dark", value="dark"),
                                 app_commands.Choice(name="light", value="light")])
    async def settings(self, interaction: discord.Interaction, turn_hours: float | None = None,
                       bank_hours: float | None = None, vacation_days: int | None = None,
                       language: str | None = None, reminder_share: float | None = None,
                       web: bool | None = None, theme: str | None = None, titles: bool | None = None) -> None:
        async def work() -> None:
            locale = locale_of(interaction)
            if interaction.guild_id is None:
                raise IllegalAction("error.guild_only")
            if not interaction.permissions.manage_guild:
                raise Forbidden("error.manage_server_only")
            current = await self.bot.players.set_guild_settings(
                str(interaction.guild_id), locale=language, turn_hours=turn_hours, bank_hours=bank_hours,
                max_vacation_days=vacation_days, reminder_share=reminder_share, theme=theme, titles=titles)
            saved = t("settings.saved", locale, turn_hours=current.turn_hours or "-",
                      bank_hours=current.bank_hours, vacation_days=current.max_vacation_days)
            if web is not None:
                await set_pages(self.bot, str(interaction.guild_id), web)
                saved += "\n" + t("web.settings_saved", locale, state=t("web.state_on" if web else "web.state_off",
                                                                      locale))
            if theme is not None:
                saved += "\n" + t("settings.theme_saved", locale, theme=t(f"settings.theme.{theme}", locale))
            if titles is not None:
                saved += "\n" + t("titles.saved_on" if titles else "titles.saved_off", locale)
            await reply(interaction, saved)
        await guarded(interaction, work)


def clip_lines(lines: list[str]) -> str:
    out: list[str] = []
    size = 0
    for line in lines:
        if size + len(line) + 1 > 1900:
            out.append("…")
            break
        out.append(line)
        size += len(line) + 1
    return "\n".join(out)


async def setup(bot: Any) -> None:
    await bot.add_cog(Lobby(bot))
