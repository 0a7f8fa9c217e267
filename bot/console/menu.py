"""The console's start menu: resume the saved game, start a new one (game, players, options), or
quit."""
from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from bot.console.table import CHANNEL, QUIT_WORDS, ConsoleTable
from bot.engine import registry
from bot.errors import GameMasterError
from bot.i18n import t
from bot.services.options import parse_options
from bot.services.text import error_text
from bot.storage.games import GameRow

RESUME, NEW, QUIT = "resume", "new", "quit"


class Leave(Exception):
    """The player left while a new game was being set up (before it started)."""


def game_list(locale: str) -> str:
    """``1 tolp (Tölp, 3–10 players) · 2 zlodej …``: what ``--game`` and the menu accept."""
    rows = []
    for number, name in enumerate(registry.names(), start=1):
        game = registry.get(name)
        title = t(f"game.name.{name}", locale)
        if game.min_players == game.max_players:  # "Stratego, 2 players", not "2–2"
            rows.append(t("console.game_row_fixed", locale, number=number, game=name, title=title,
                          count=game.min_players))
        else:
            rows.append(t("console.game_row", locale, number=number, game=name, title=title,
                          minimum=game.min_players, maximum=game.max_players))
    return "\n".join(rows)


def pick_game(answer: str) -> str | None:
    names = registry.names()
    text = answer.strip().lower()
    if text.isdigit() and 1 <= int(text) <= len(names):
        return names[int(text) - 1]
    matches = [n for n in names if n.startswith(text)] if text else []
    return matches[0] if len(matches) == 1 else None


def option_lines(game_name: str, locale: str) -> list[str]:
    lines = []
    for spec in registry.get(game_name).options:
        about = t(spec.description_key, locale) if spec.description_key else ""
        lines.append(f"  {spec.name}={spec.default}  {about}".rstrip())
    return lines


async def choose(table: ConsoleTable, saved: GameRow | None) -> str:
    """The start menu; returns RESUME, NEW or QUIT."""
    locale = table.locale
    if saved is not None:
        table.say(t("console.saved_game", locale, id=saved.id, game=t(f"game.name.{saved.game}", locale),
                    players=", ".join(saved.names)))
    while True:
        key = "console.menu_saved" if saved is not None else "console.menu"
        answer = (await table.prompt(t(key, locale))).lower()
        if answer in ("r", "resume") and saved is not None:
            return RESUME
        if answer in ("n", "new", ""):
            return NEW
        if answer in QUIT_WORDS:
            return QUIT


async def new_game(table: ConsoleTable, game: str | None, players: Sequence[str] | None, seed: str | None,
                   options: dict[str, str] | None) -> Any:
    """Ask for whatever was not given (game, players, options) and start the game."""
    locale, service = table.locale, table.service
    chosen = game if game in registry.names() else None
    asked = chosen is None  # chosen here: the options are asked too
    if asked:
        table.say(game_list(locale))
    while chosen is None:
        answer = await table.prompt(t("console.choose_game", locale))
        if answer.lower() in QUIT_WORDS:  # the menu just offered "q = quit"
            raise Leave
        chosen = pick_game(answer)
    game = chosen
    engine = registry.get(game)
    if not players:
        count = engine.min_players
        if engine.max_players > engine.min_players:
            count = 0
            while not engine.min_players <= count <= engine.max_players:
                answer = await table.prompt(t("console.how_many", locale, minimum=engine.min_players,
                                              maximum=engine.max_players))
                count = int(answer) if answer.isdigit() else 0
        players = [(await table.prompt(t("console.player_name", locale, number=i + 1))) or f"P{i + 1}"
                   for i in range(count)]
    options = dict(options or {})
    if asked and not options:
        if engine.options:
            table.say(t("console.options", locale))
            for line in option_lines(game, locale):
                table.say(line)
            while True:
                try:
                    options = parse_options(await table.prompt(t("console.options_prompt", locale)))
                    break
                except GameMasterError as exc:
                    table.say(error_text(exc, locale, markup=False))
    existing = await service.current(CHANNEL)
    if existing is not None:
        await service.end(CHANNEL, existing.creator_id, is_manager=True)
    while True:
        try:
            await service.create(guild_id=None, channel_id=CHANNEL, game=game, user_id="local-0", name=players[0],
                                 locale=locale, seed=seed, options=options)
            break
        except GameMasterError as exc:  # a bad option: say why and ask again
            table.say(error_text(exc, locale, markup=False))
            options = parse_options(await table.prompt(t("console.options_prompt", locale)))
    for i, name in enumerate(players[1:], start=1):
        await service.join(CHANNEL, f"local-{i}", name)
    return await service.start(CHANNEL, "local-0")
