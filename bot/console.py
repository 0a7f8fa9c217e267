"""The local console table: several players share one terminal and play any registered game
through the same GameService as Discord. Board images are written to a folder and their paths
printed; a player's private view (hand, own pieces) is shown only at that player's own prompt."""
from __future__ import annotations

import asyncio
import importlib
import json
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from bot.engine import registry
from bot.errors import GameMasterError
from bot.i18n import t
from bot.services.table import GameService, Update
from bot.services.text import error_text, place_lines, private_lines, public_lines
from bot.settings import Settings
from bot.storage.db import Database

CHANNEL = "console"


class ConsoleTable:
    def __init__(self, service: GameService, boards: Path, locale: str,
                 ask: Callable[[str], str], say: Callable[[str], None], hotseat: bool = False) -> None:
        self.service = service
        self.boards = boards
        self.locale = locale
        self.ask = ask
        # Discord's Markdown bold has no meaning in a terminal
        self.say: Callable[[str], None] = lambda text: say(str(text).replace("**", ""))
        # hot seat: before a player's private view is shown, the screen is cleared and the
        # keyboard handed over, so the others at the terminal do not see that hand
        self.hotseat = hotseat
        self.last_seat: int | None = None
        self.shown: tuple[int, int] | None = None  # (seat, ply) whose private view is on screen
        self.pending_private: list[Any] = []

    async def prompt(self, text: str) -> str:
        return (await asyncio.to_thread(self.ask, text + " ")).strip()

    async def setup(self, game: str | None, players: Sequence[str] | None, seed: str | None,
                    options: dict[str, str] | None = None) -> None:
        existing = await self.service.current(CHANNEL)
        if existing is not None and existing.status == "active":
            self.say(f"Resuming game #{existing.id} ({existing.game}).")
            return
        if existing is not None:
            await self.service.end(CHANNEL, existing.creator_id, is_manager=True)
        names = registry.names()
        while game not in names:
            game = await self.prompt(t("console.choose_game", self.locale, games=", ".join(names)))
        engine = registry.get(game)
        if not players:
            count = 0
            while not engine.min_players <= count <= engine.max_players:
                answer = await self.prompt(t("console.how_many", self.locale) +
                                           f" ({engine.min_players}-{engine.max_players})")
                count = int(answer) if answer.isdigit() else 0
            players = [(await self.prompt(t("console.player_name", self.locale, number=i + 1))) or f"P{i + 1}"
                       for i in range(count)]
        await self.service.create(guild_id=None, channel_id=CHANNEL, game=game, user_id="local-0",
                                           name=players[0], locale=self.locale, seed=seed,
                                           options=options)
        for i, name in enumerate(players[1:], start=1):
            await self.service.join(CHANNEL, f"local-{i}", name)
        update = await self.service.start(CHANNEL, "local-0")
        await self.show(update)

    async def show(self, update: Update) -> None:
        record = update.record
        for line in public_lines(update.events, record.names, self.locale, markup=False):
            self.say(line)
        renderer = importlib.import_module(f"rendering.{record.game}")
        obs = self.service.observe(record, None)
        data = await asyncio.to_thread(renderer.render_public, obs, names=record.names, locale=self.locale)
        self.boards.mkdir(parents=True, exist_ok=True)
        path = self.boards / f"{record.game}-{record.id}-{record.ply:04d}.png"
        path.write_bytes(data)
        self.say(t("console.board_written", self.locale, path=path))
        self.pending_private = update.events

    async def show_private(self, record: Any, seat: int) -> None:
        obs = self.service.observe(record, seat)
        if self.hotseat and seat != self.last_seat and sum(not s.is_computer for s in record.seats) > 1:
            self.say("\033[2J\033[H")
            await self.prompt(t("console.handover", self.locale, player=record.names[seat]))
        self.last_seat = seat
        for line in private_lines(self.pending_private, seat, record.names, self.locale, markup=False):
            self.say(line)
        if obs.get("private") is None:
            return
        renderer = importlib.import_module(f"rendering.{record.game}")
        describe = getattr(renderer, "describe_private", None)
        obs = {**obs, "names": record.names}
        self.say(describe(obs, locale=self.locale) if describe else compact(obs["private"]))
        data = await asyncio.to_thread(renderer.render_private, obs, names=record.names, locale=self.locale)
        if data:
            path = self.boards / f"{record.game}-{record.id}-{record.ply:04d}-seat{seat}.png"
            path.write_bytes(data)
            self.say(t("console.private_written", self.locale, path=path))

    async def loop(self) -> int:
        while True:
            record = await self.service.current(CHANNEL)
            if record is None:
                return 0
            acting = sorted(self.service.to_act(record))
            humans = [s for s in acting if not record.seats[s].is_computer]
            if not humans:
                return 0
            seat = humans[0]
            if self.shown != (seat, record.ply):
                await self.show_private(record, seat)
                self.shown = (seat, record.ply)
            text = await self.prompt(t("console.prompt", self.locale, player=record.names[seat]))
            if text in ("quit", "exit"):
                return 0
            if text in ("help", "?"):
                game = registry.get(record.game)
                state = game.load(record.state or {})
                moves = [str(a) for a in list(game.legal_actions(state, seat))[:30]]
                self.say(t("console.legal", self.locale, moves=" | ".join(moves)))
                continue
            try:
                if text == "resign":
                    update = await self.service.resign(CHANNEL, f"local-{seat}")
                else:
                    update = await self.service.act(user_id=f"local-{seat}", action=text, channel_id=CHANNEL)
            except GameMasterError as exc:
                self.say(error_text(exc, self.locale, record.names, markup=False))
                continue
            await self.show(update)
            if update.record.status != "active":
                outcome = update.record.outcome or {}
                reason = t(outcome["reason"], self.locale) if outcome.get("reason") else ""
                self.say(t("game.finished", self.locale, result=reason))
                for line in place_lines(outcome.get("places", []), update.record.names, self.locale,
                                              markup=False):
                    self.say(line)
                self.say(t("game.seed_reveal", self.locale, seed=update.record.seed))
                return 0


def compact(private: Any) -> str:
    if isinstance(private, dict):
        return "\n".join(f"{k}: {json.dumps(v, ensure_ascii=False)[:300]}" for k, v in private.items())
    return json.dumps(private, ensure_ascii=False)[:600]


async def run_console(settings: Settings, *, game: str | None = None, players: Sequence[str] | None = None,
                      db_path: str | None = None, seed: str | None = None, options: dict[str, str] | None = None,
                      ask: Callable[[str], str] = input, say: Callable[[str], None] = print,
                      hotseat: bool = False) -> int:
    path = Path(db_path) if db_path else settings.database_path.with_name("console.sqlite3")
    say(t("console.welcome", settings.default_locale))
    async with Database(path) as db:
        table = ConsoleTable(GameService(db), settings.boards_dir, settings.default_locale, ask, say, hotseat)
        try:
            await table.setup(game, players, seed, options)
            result = await table.loop()
        except EOFError:
            result = 0
        say(t("console.bye", settings.default_locale, path=path))
        return result
