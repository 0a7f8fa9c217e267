"""The console table's play loop: prompts, commands, moves, and the hot seat.

Several players share one terminal. Before a player's private view (hand, own pieces) is shown the
screen and its scrollback are cleared and the keyboard is handed over; the player then sees the
public lines since their last turn, so nothing that happened in between is lost. Where a seat has
nothing private (Monopol, a Tjuv och Polis seat without stashes) there is no handover. A forced
pass (the only legal move) is made for the player, without a handover."""
from __future__ import annotations

import asyncio
import json
import textwrap
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

from bot.console.seats import to_board, to_engine
from bot.engine import registry
from bot.errors import GameMasterError
from bot.i18n import t
from bot.services import rules
from bot.services.core import Update
from bot.services.players import Players
from bot.services.table import GameService
from bot.services.text import error_text, place_lines, private_lines, public_lines
from bot.storage.games import GameRow

CHANNEL = "console"
CLEAR = "\033[2J\033[3J\033[H"  # clear the screen and the scrollback, cursor home
QUIT_WORDS = ("q", "quit", "exit")


def plain(text: str, width: int | None = None) -> str:
    """``text`` for a terminal: without Discord's bold (a `code` quote still reads as a quote), and
    with every line longer than ``width`` wrapped between words, its continuation indented like the
    line itself (or by two spaces). A word longer than the line (a file's path) stays whole, and so
    does each move of a list of moves ("move P1 O11 | move C S7")."""
    text = str(text).replace("**", "")
    if not width:
        return text
    lines: list[str] = []
    for line in text.split("\n"):
        if len(line) <= width:
            lines.append(line)
            continue
        indent = line[:len(line) - len(line.lstrip())]
        moves = " | " in line  # break only between the moves: their own spaces are held together
        if moves:
            line = line.replace(" | ", "\x01").replace(" ", "\x00").replace("\x01", " | ")
        wrapped = textwrap.wrap(line, width, initial_indent="", subsequent_indent=indent or "  ",
                                break_on_hyphens=False, break_long_words=False) or [line]
        lines += [part.replace("\x00", " ") for part in wrapped]
    return "\n".join(lines)


async def ask_in_thread(ask: Callable[[str], str], prompt: str) -> str:
    """``ask(prompt)`` in a daemon thread of its own. Not asyncio's executor: a thread blocked in
    ``input()`` there keeps ``asyncio.run`` from returning, so Ctrl-C would wait for Enter and
    then end in a traceback; a daemon thread is left behind and the console leaves at once."""
    loop = asyncio.get_running_loop()
    answer: asyncio.Future[str] = loop.create_future()

    def settle(result: str | None, error: BaseException | None) -> None:
        if answer.done():  # the prompt was given up (Ctrl-C) before it was answered
            return
        if error is not None:
            answer.set_exception(error)
        else:
            answer.set_result(result or "")

    def work() -> None:
        result: str | None = None
        error: BaseException | None = None
        try:
            result = ask(prompt)
        except BaseException as exc:  # EOFError (Ctrl-D) and the like reach the awaiting prompt
            error = exc
        try:
            loop.call_soon_threadsafe(settle, result, error)
        except RuntimeError:  # the console already left (its loop is closed): nobody waits
            pass

    threading.Thread(target=work, name="console-input", daemon=True).start()
    return await answer


def compact(private: Any) -> str:
    if isinstance(private, dict):
        return "\n".join(f"{k}: {json.dumps(v, ensure_ascii=False)[:300]}" for k, v in private.items())
    return json.dumps(private, ensure_ascii=False)[:600]


class ConsoleTable:
    def __init__(self, service: GameService, boards: Path, locale: str,
                 ask: Callable[[str], str], say: Callable[[str], None], hotseat: bool = False) -> None:
        self.service = service
        self.players = Players(service.db)
        self.boards = boards
        self.locale = locale
        self.ask = ask
        self.say: Callable[[str], None] = say
        self.hotseat = hotseat
        self.holder: int | None = None  # the seat at the keyboard
        self.log: list[str] = []  # every public line said at this table, in order
        self.seen: dict[int, int] = {}  # seat -> how much of the log it had seen when it left the keyboard
        self.shown: tuple[int, int] | None = None  # (seat, ply) whose private view is on screen
        self.pending_private: list[Any] = []
        self.board: Path | None = None  # the latest board image written

    async def prompt(self, text: str) -> str:
        return (await ask_in_thread(self.ask, text + " ")).strip()

    def public(self, line: str) -> None:
        self.log.append(line)
        self.say(line)

    # ------------------------------------------------------------------ what is shown
    async def show(self, update: Update) -> None:
        record = update.record
        for line in public_lines(update.events, record.names, self.locale, markup=False):
            self.public(line)
        await self.write_board(record)
        self.pending_private = update.events

    async def write_board(self, record: GameRow) -> None:
        renderer = registry.renderer(record.game)
        obs = self.service.observe(record, None)
        data = await asyncio.to_thread(renderer.render_public, obs, names=record.names, locale=self.locale)
        self.boards.mkdir(parents=True, exist_ok=True)
        path = self.boards / f"{record.game}-{record.id}-{record.ply:04d}.png"
        path.write_bytes(data)
        self.board = path
        self.say(t("console.board_written", self.locale, path=path))

    async def _private(self, record: GameRow, seat: int) -> tuple[str, bytes | None]:
        """The seat's private view in words and as an image (None: nothing private to show)."""
        obs = self.service.observe(record, seat)
        if obs.get("private") is None:
            return "", None
        renderer = registry.renderer(record.game)
        describe = getattr(renderer, "describe_private", None)
        obs = {**obs, "names": record.names}
        words = describe(obs, locale=self.locale) if describe else compact(obs["private"])
        data = await asyncio.to_thread(renderer.render_private, obs, names=record.names, locale=self.locale)
        return words, data

    async def take_keyboard(self, record: GameRow, seat: int, secret: bool) -> None:
        """``seat`` comes to the keyboard. With something secret to show in a hot seat shared by
        several people: clear the screen and scrollback, hand over, then repeat the public lines
        since this player last had the keyboard."""
        if seat == self.holder:
            return
        if self.holder is not None:
            self.seen[self.holder] = len(self.log)
        self.holder = seat
        humans = sum(not s.is_computer for s in record.seats)
        if not (self.hotseat and secret and humans > 1):
            return
        self.say(CLEAR)
        await self.prompt(t("console.handover", self.locale, player=record.names[seat]))
        missed = self.log[self.seen.get(seat, 0):]
        if missed:
            self.say(t("console.since_last_turn", self.locale))
            for line in missed:
                self.say("  " + line)
        if self.board is not None:
            self.say(t("console.board_written", self.locale, path=self.board))

    async def show_private(self, record: GameRow, seat: int) -> None:
        words, data = await self._private(record, seat)
        await self.take_keyboard(record, seat, secret=data is not None)
        for line in private_lines(self.pending_private, seat, record.names, self.locale, markup=False):
            self.say(line)
        if words:
            self.say(words)
        if data:
            path = self.boards / f"{record.game}-{record.id}-{record.ply:04d}-seat{seat}.png"
            path.write_bytes(data)
            self.say(t("console.private_written", self.locale, path=path))

    # ------------------------------------------------------------------ commands
    async def command(self, record: GameRow, seat: int, text: str) -> bool:
        """Run a console command; False when ``text`` is not one (then it is a move)."""
        word, _, rest = text.partition(" ")
        word = word.lower()
        if word in ("help", "?"):
            moves = [to_board(record.game, m) for m in self.service.legal_texts(record, seat, limit=30)]
            self.say(t("console.legal", self.locale, moves=" | ".join(moves)))
            self.say(t("console.commands", self.locale))
        elif word == "status":
            await self.write_board(record)
            describe = getattr(registry.renderer(record.game), "describe_public", None)
            if describe is not None:  # a board with no private views (Monopol) also in words
                self.say(describe(self.service.observe(record, None), names=record.names, locale=self.locale))
            acting = ", ".join(record.names[s] for s in sorted(self.service.to_act(record)))
            self.say(t("console.status", self.locale, game=t(f"game.name.{record.game}", self.locale),
                       id=record.id, ply=record.ply, players=acting))
        elif word == "log":
            rows = await self.players.log_in_words(record, self.locale, limit=30)
            for ply, name, what in rows:
                self.say(f"{ply:>4}  {name}: {what}")
            if not rows:
                self.say(t("console.log_empty", self.locale))
        elif word == "rules":
            self.rules(record.game, rest.strip())
        elif word == "hand":
            words, data = await self._private(record, seat)
            self.say(words or t("console.nothing_private", self.locale))
        else:
            return False
        return True

    def rules(self, game: str, topic: str) -> None:
        if topic:
            section = rules.lookup(game, topic, self.locale)
            if section is not None:
                self.say(f"{section.title}\n{section.body}")
                if "`/" in section.body:  # written for Discord: say how moves are typed here
                    self.say(t("console.rules_commands", self.locale))
                return
            self.say(t("console.no_rule", self.locale, topic=topic))
        sections = rules.topics(game, self.locale)
        self.say(t("console.rule_topics", self.locale, topics=", ".join(f"{s.topic} ({s.title})" for s in sections)))

    @staticmethod
    def ends_game(game: str, text: str) -> bool:
        """``end game`` ends the game for everyone; so does ``end`` in a game with no move of that name
        (in Zloděj, Monopol and Tjuv och Polis ``end`` ends the turn)."""
        words = text.lower().split()
        if words == ["end", "game"]:
            return True
        if words != ["end"]:
            return False
        try:
            registry.get(game).parse_action("end")
        except GameMasterError:
            return True
        return False

    async def confirm_end(self) -> bool:
        answer = await self.prompt(t("console.end_confirm", self.locale))
        return answer.strip().lower() in ("y", "yes", "j", "ja", "a", "ano")

    # ------------------------------------------------------------------ the loop
    async def loop(self) -> int:
        while True:
            record = await self.service.current(CHANNEL)
            if record is None or record.status != "active":
                return 0
            acting = sorted(self.service.to_act(record))
            humans = [s for s in acting if not record.seats[s].is_computer]
            if not humans:
                return 0
            seat = humans[0]
            if self.service.legal_texts(record, seat, limit=2) == ["pass"]:
                # a forced pass reveals nothing: made for the player, no handover
                self.public(t("console.forced_pass", self.locale, player=record.names[seat]))
                if await self.move(record, seat, "pass"):
                    return 0
                continue
            if self.shown != (seat, record.ply):
                await self.show_private(record, seat)
                self.shown = (seat, record.ply)
            text = await self.prompt(t("console.prompt", self.locale, player=record.names[seat]))
            if text.lower() in QUIT_WORDS:  # "q" too, as in the start menu
                return 0
            if not text or await self.command(record, seat, text):
                continue
            if self.ends_game(record.game, text):
                if await self.confirm_end():
                    ended = await self.service.end(CHANNEL, "local-0", is_manager=True)
                    self.finish(ended)
                    return 0
                continue
            if await self.move(record, seat, text):
                return 0

    async def move(self, record: GameRow, seat: int, text: str) -> bool:
        """Play ``text`` for ``seat``; True when the game is over."""
        action = text
        try:
            if text.lower() == "resign":
                update = await self.service.resign(CHANNEL, f"local-{seat}")
            else:
                action = to_engine(record.game, text, record.names)
                update = await self.service.act(user_id=f"local-{seat}", action=action, channel_id=CHANNEL)
        except GameMasterError as exc:
            self.refuse(exc, record, text, action)
            return False
        await self.show(update)
        if update.record.status != "active":
            self.finish(update.record)
            return True
        return False

    def refuse(self, error: GameMasterError, record: GameRow, typed: str, action: str) -> None:
        """Say why a move was refused. A refusal that quotes the move quotes it as it was typed
        (``steal Bo``), not as the engine read it with seats counted from 0 (``steal 1``); a rule
        to look up is named as this console's ``rules`` command."""
        quoted = error.params.get("text")
        if action != typed and isinstance(quoted, str) and quoted and action.startswith(quoted):
            error.params = {**error.params, "text": typed if quoted == action else typed[:len(quoted)]}
        self.say(error_text(error, self.locale, record.names, markup=False, rules_hint="console.see_rules"))

    def finish(self, record: GameRow) -> None:
        outcome = record.outcome or {}
        reason = t(outcome["reason"], self.locale) if outcome.get("reason") else ""
        self.say(t("game.finished", self.locale, result=reason))
        for line in place_lines(outcome.get("places", []), record.names, self.locale, markup=False):
            self.say(line)
        self.say(t("game.seed_reveal", self.locale, seed=record.seed))
