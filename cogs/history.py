"""/game history, /game export and /game stats: a server's past games (finished or ended early),
one game as a file, and the standings with ratings and a player's own rating history. Attached to
the /game group of cogs/lobby.py (loaded after it)."""
from __future__ import annotations

import io
import re
from datetime import datetime
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands

from bot.engine import registry
from bot.errors import IllegalAction
from bot.i18n import t
from bot.services import export as exporting
from bot.services import luck
from bot.services.history import HistoryPage
from bot.services.ratings import Change, Rating, player_key
from bot.services.text import shown
from bot.storage.history import PastGame
from cogs.components import GameButton
from cogs.hooks import defer
from cogs.lobby import clip_lines, display_name, game_choices
from cogs.replies import defer_public, guarded, locale_of, reply, spend
from cogs.visibility import Sight, can_view

if TYPE_CHECKING:
    from cogs.client import GameMasterBot

# gm:hi:o:<id> the page of games older than <id>; gm:hi:n:<id> the page newer than <id>; :<game>
# after it when the list holds one game's
PAGE_ID = re.compile(r"hi:(?P<way>[on]):(?P<anchor>[0-9]{1,18})(?::(?P<game>[a-z_]{1,24}))?")
MESSAGE = 1900  # characters of one history message (Discord's limit is 2000)


def when(stamp: str) -> str:
    """A stored UTC time as a Discord timestamp (each reader sees their own date format)."""
    return f"<t:{int(datetime.fromisoformat(stamp).timestamp())}:d>"


def jump_link(entry: PastGame, locale: str) -> str:
    """A link to the result message (a finished game's last board), to the last board of a game
    ended early (it has no result), or to the table's channel when no board is known."""
    link = f"https://discord.com/channels/{entry.guild_id or '@me'}/{entry.channel_id}"
    if not entry.board_message_id:
        return t("history.link_channel", locale, link=link)
    return t("history.link_board" if entry.ended else "history.link_result", locale,
             link=f"{link}/{entry.board_message_id}")


def winners(entry: PastGame) -> str:
    places = entry.outcome.get("places") or []
    if not places:
        return "-"
    return ", ".join(shown(entry.names[s]) for s in places[0] if 0 <= s < len(entry.names))


def outcome(entry: PastGame, locale: str) -> str:
    """The winner of a finished game, or who ended it early and after how many moves."""
    if not entry.ended:
        return t("history.winner", locale, winner=winners(entry))
    if entry.ended_by is None:  # ended before the bot kept who did it
        return t("history.ended", locale, moves=entry.moves)
    return t("history.ended_by", locale, player=shown(entry.ended_by), moves=entry.moves)


def history_text(page: HistoryPage, locale: str) -> tuple[str, HistoryPage]:
    """The page as one message, and the page as shown: games that do not fit in the message stay
    for the next page (the ▶ button starts after the last game shown)."""
    game_name = t(f"game.name.{page.game}", locale) if page.game else ""
    if not page.games:
        return t("history.none_game" if page.game else "history.none", locale, game=game_name), page
    lines = [t("history.title_game" if page.game else "history.title", locale, game=game_name)]
    hint = t("history.hint", locale)
    size = len(lines[0]) + len(hint) + 2
    kept: list[PastGame] = []
    for entry in page.games:
        line = t("history.line", locale, id=entry.id, game=t(f"game.name.{entry.game}", locale),
                 date=when(entry.finished_at), players=", ".join(shown(n) for n in entry.names),
                 outcome=outcome(entry, locale), link=jump_link(entry, locale))
        if kept and size + len(line) + 1 > MESSAGE:
            break
        kept.append(entry)
        lines.append(line)
        size += len(line) + 1
    lines.append(hint)
    if len(kept) < len(page.games):
        page = HistoryPage(kept, has_older=True, has_newer=page.has_newer, game=page.game)
    return clip_lines(lines), page


def history_view(page: HistoryPage, locale: str) -> discord.ui.View | None:
    if not page.has_newer and not page.has_older:
        return None
    view = discord.ui.View(timeout=None)
    first, last = (page.games[0].id, page.games[-1].id) if page.games else (0, 0)
    only = f":{page.game}" if page.game else ""
    newer = GameButton(0, 0, "", label=t("history.newer", locale), raw=f"gm:hi:n:{first}{only}")
    older = GameButton(0, 0, "", label=t("history.older", locale), raw=f"gm:hi:o:{last}{only}")
    newer.item.disabled, older.item.disabled = not page.has_newer, not page.has_older
    view.add_item(newer)
    view.add_item(older)
    return view


async def page_button(interaction: discord.Interaction, match: re.Match[str]) -> None:
    """◀ ▶ on a history message: the neighbouring page, replacing the message (stateless: the
    custom_id carries the game id the page starts after)."""
    bot: GameMasterBot = interaction.client  # type: ignore[assignment]

    async def work() -> None:
        if interaction.guild_id is None:
            raise IllegalAction("error.guild_only")
        locale = locale_of(interaction)
        anchor, game = int(match["anchor"]), match["game"]
        if game is not None and game not in registry.names():
            raise IllegalAction("error.unknown_game", game=game)
        spend(interaction, "history")
        await defer(interaction)  # acknowledged before the page is read; then the list is edited
        history = bot.history
        guild = str(interaction.guild_id)
        sight = Sight(interaction).can_view  # only games whose channel the reader can view
        page = await (history.page(guild, game=game, older_than=anchor, can_view=sight) if match["way"] == "o"
                      else history.page(guild, game=game, newer_than=anchor, can_view=sight))
        text, page = history_text(page, locale)
        await interaction.edit_original_response(content=text, view=history_view(page, locale))

    await guarded(interaction, work)


@app_commands.command(name="history", description="This server's finished and ended games, newest first")
@app_commands.describe(game="Only this game")
async def history_command(interaction: discord.Interaction, game: str | None = None) -> None:
    bot: GameMasterBot = interaction.client  # type: ignore[assignment]

    async def work() -> None:
        if interaction.guild_id is None:
            raise IllegalAction("error.guild_only")
        if game is not None and game not in registry.names():
            raise IllegalAction("error.unknown_game", game=game)
        spend(interaction, "history")
        await defer(interaction, ephemeral=True, thinking=True)  # before any database work
        locale = locale_of(interaction)
        page = await bot.history.page(str(interaction.guild_id), game=game, can_view=Sight(interaction).can_view)
        text, page = history_text(page, locale)
        view = history_view(page, locale)
        if view is None:
            await reply(interaction, text)
        else:
            await reply(interaction, text, view=view)

    await guarded(interaction, work)


@app_commands.command(name="export", description="One ended game as a JSON file (replay it: gamemaster replay FILE)")
@app_commands.describe(game="The game's number (default: this channel's latest game)")
async def export_command(interaction: discord.Interaction, game: app_commands.Range[int, 1] | None = None) -> None:
    bot: GameMasterBot = interaction.client  # type: ignore[assignment]

    async def work() -> None:
        spend(interaction, "export")
        await defer(interaction, ephemeral=True, thinking=True)
        locale = locale_of(interaction)
        game_id = game or (await bot.service.latest(str(interaction.channel_id))).id
        guild = str(interaction.guild_id) if interaction.guild_id else None
        data = await exporting.export(bot.service, game_id, guild_id=guild, user_id=str(interaction.user.id),
                                      can_view=lambda channel: can_view(interaction, channel))
        name = f"gamemaster-{data['game']}-{data['id']}.json"
        await reply(interaction, t("export.done", locale, id=data["id"], game=t(f"game.name.{data['game']}", locale),
                                   file=name),
                    file=discord.File(io.BytesIO(exporting.to_bytes(data)), filename=name))

    await guarded(interaction, work)


@app_commands.command(name="luck",
                      description="Each player's luck: dice and cards in an ended game, checkable from its seed")
@app_commands.describe(game="The game's number (default: this channel's latest game)")
async def luck_command(interaction: discord.Interaction, game: app_commands.Range[int, 1] | None = None) -> None:
    bot: GameMasterBot = interaction.client  # type: ignore[assignment]

    async def work() -> None:
        spend(interaction, "export")  # it replays the whole log from the seed, as an export does
        await defer_public(interaction)  # the report is public; a refusal stays private
        locale = locale_of(interaction)
        game_id = game or (await bot.service.latest(str(interaction.channel_id))).id
        record = await bot.service.get(game_id)
        guild = str(interaction.guild_id) if interaction.guild_id else None
        elsewhere = record.guild_id != guild if guild is not None else record.seat_of(str(interaction.user.id)) is None
        if elsewhere or not await can_view(interaction, record.channel_id):  # a private channel stays private
            raise IllegalAction("export.error.elsewhere")
        report = await luck.load(bot.service, game_id)
        name = t(f"game.name.{record.game}", locale)
        if report is None:
            await reply(interaction, t("luck.none", locale, id=game_id), ephemeral=False)
            return
        names = [shown(n) for n in record.names]
        await reply(interaction, clip_lines([t("luck.title", locale, id=game_id, game=name),
                                             *luck.lines(report, names, locale)]), ephemeral=False)

    await guarded(interaction, work)


@app_commands.command(name="stats", description="Games, wins and places on this server")
@app_commands.describe(game="Only this game (with its ratings and a player's rating history)",
                       player="Whose rating history (default: yours)")
async def stats_command(interaction: discord.Interaction, game: str | None = None,
                        player: discord.User | None = None) -> None:
    bot: GameMasterBot = interaction.client  # type: ignore[assignment]

    async def work() -> None:
        locale = locale_of(interaction)
        if interaction.guild_id is None:
            raise IllegalAction("error.guild_only")
        if game is not None and game not in registry.names():
            raise IllegalAction("error.unknown_game", game=game)
        if player is not None and game is None:
            raise IllegalAction("stats.error.player_needs_game")
        spend(interaction, "stats")
        await defer(interaction, thinking=True)
        guild = str(interaction.guild_id)
        stats = await bot.players.stats(guild)
        if not stats.games:
            await reply(interaction, t("stats.none", locale), ephemeral=False)
            return
        lines = [t("stats.title", locale)]
        lines += [t("stats.game_count", locale, game=t(f"game.name.{name}", locale), count=count)
                  for name, count in sorted(stats.games.items()) if game in (None, name)]
        lines.append(t("stats.leaderboard", locale))
        for rank, entry in enumerate(stats.leaderboard(game)[:10], start=1):
            lines.append(t("stats.row", locale, rank=rank, player=shown(entry.name), wins=entry.wins,
                           games=entry.games, average=f"{entry.average_place:.1f}"))
        if game is not None:  # ratings are per game
            who = player or interaction.user
            board = await bot.ratings.board(guild, game, player_key(str(who.id), display_name(who)))
            if board.ladder:
                lines.append(t("ratings.title", locale, game=t(f"game.name.{game}", locale)))
            for rank, rating in enumerate(board.ladder, start=1):
                lines.append(t("ratings.row", locale, rank=rank, player=shown(rating.name),
                               rating=f"{rating.shown:.0f}", games=rating.games, wins=rating.wins))
            lines += own_history(board.rating, board.changes, display_name(who), game, locale)
        await reply(interaction, clip_lines(lines), ephemeral=False)

    await guarded(interaction, work)


def own_history(rating: Rating | None, changes: list[Change], name: str, game: str, locale: str) -> list[str]:
    """A player's rating now and their latest games in ``game`` (oldest first, shown newest first):
    date, place, rating before → after."""
    game_name = t(f"game.name.{game}", locale)
    if rating is None:
        return [t("ratings.history_none", locale, player=shown(name), game=game_name)]
    lines = [t("ratings.history_title", locale, player=shown(rating.name), game=game_name,
               rating=f"{rating.shown:.0f}", games=rating.games, wins=rating.wins)]
    for change in reversed(changes):
        delta = round(change.after) - round(change.before)
        lines.append(t("ratings.history_line", locale, id=change.game_id,
                       date=when(change.finished_at) if change.finished_at else "-",
                       place=change.place if change.place is not None else "-", players=change.players,
                       before=f"{change.before:.0f}", after=f"{change.after:.0f}", delta=f"{delta:+d}"))
    return lines


@history_command.autocomplete("game")
async def history_game_ac(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    return game_choices(interaction, current)


@stats_command.autocomplete("game")
async def stats_game_ac(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    return game_choices(interaction, current)


async def setup(bot: Any) -> None:
    group = bot.tree.get_command("game")
    if not isinstance(group, app_commands.Group):
        raise RuntimeError("cogs.history needs the /game group of cogs.lobby (load it first)")
    group.add_command(history_command)
    group.add_command(export_command)
    group.add_command(stats_command)
    group.add_command(luck_command)
