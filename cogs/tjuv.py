"""/tjuv: roll, move, ride the tram, hide and fetch money, end the turn, sit out or break out of jail.

Under the public board: the buttons for what the player to act can do now (Roll; Fetch and End
turn in a nest; Break out and Wait in jail), judged from public facts only. After a roll the moves
are too many for buttons, so the private view (DM, or the ephemeral "Show my hand") carries them:
a "Move…" select of up to 25 legal moves, a "Tram…" select of rides and a "Hide money…" select,
plus buttons for the single-word actions. A thief's private view also lists his stashes, which
never appear in the channel. The engine bumps a player's private view whenever he has a new
choice to make, so the DM with fresh menus arrives at the start of his turn, after his roll and
after entering a nest.
"""
from __future__ import annotations

import asyncio
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.errors import IllegalAction
from bot.games.tjuv.board import board, square_xy
from bot.i18n import t
from cogs.drawing import alt_text, png
from cogs.gameui import GAME_UI, ButtonSpec, GameUI, SelectSpec, legal_choices
from cogs.hooks import defer
from cogs.moves import act
from cogs.replies import guarded, locale_of, reply
from rendering.tjuv import describe_private

if TYPE_CHECKING:
    from cogs.client import GameMasterBot

GAME = "tjuv"
MAX_OPTIONS = 25
# private_selects() gets no locale; cogs/private.py calls private_text() first with the very same
# observation dict, so private_text() leaves the reader's locale in it for the menu labels.
_LOCALE = "tjuv_ui_locale"
_STYLES = {"roll": discord.ButtonStyle.primary, "breakout": discord.ButtonStyle.primary,
           "fetch": discord.ButtonStyle.success, "end": discord.ButtonStyle.secondary,
           "wait": discord.ButtonStyle.secondary}
_SINGLE = ("roll", "breakout", "wait", "fetch", "end")


# ----------------------------------------------------------------------------- labels
def square_note(square: str, public: dict[str, Any], locale: str, *, police: bool, ride: bool = False) -> str:
    """What a destination is, for menus: ``bank 5000 kr``, ``nest``, ``arrest T2`` … (a tram ride
    always ends on a stop, so rides leave that out)."""
    b = board()
    kind = b.kind.get(square, "")
    notes: list[str] = []
    if police:
        notes += [t("tjuv.ui.arrest", locale, thief=th["id"]) for th in public["thieves"]
                  if th["at"] == square and th["status"] == "free"]
    if kind in ("bank", "post"):
        notes.append(t(f"tjuv.ui.at_{kind}", locale, money=b.values[square]))
    elif kind == "escape":
        escape = b.escapes[square]
        notes.append(t(f"tjuv.ui.at_{escape.kind}", locale, fare=escape.fare))
    elif kind in ("agency", "nest", "telegraph"):
        notes.append(t(f"tjuv.ui.at_{kind}", locale))
    elif square in b.stop_lines and not ride:
        notes.append(t("tjuv.ui.at_stop", locale))
    return " · ".join(notes)


def _label(key: str, action: str, public: dict[str, Any], locale: str) -> str:
    """``move P2 K14`` -> ``P2 → K14 · bank 5000 kr``."""
    _, piece, square = action.split()
    text = t(key, locale, piece=piece, square=square)
    note = square_note(square, public, locale, police=not piece.startswith("T"), ride=key == "tjuv.ui.ride_option")
    return f"{text} · {note}" if note else text


def _plain(square: str) -> bool:
    """A bare street square: nothing to rob, hide, watch, board or ride from."""
    b = board()
    return b.kind.get(square) == "street" and square not in b.stop_lines and square not in b.escape_fronts


def _spread(actions: Iterable[str], public: dict[str, Any]) -> list[str]:
    """At most 25 actions ``verb piece square`` for a menu: arrests first, then every piece in turn
    gets its share (buildings, nests, stops and watched squares before bare streets), listed piece
    by piece with each piece's squares in map order (A1, A2 … B1 …) so a square is easy to find."""
    by_piece: dict[str, list[str]] = {}
    arrests: list[str] = []
    occupied = {th["at"] for th in public["thieves"] if th["status"] == "free"}
    for text in actions:
        _, piece, square = text.split()
        if not piece.startswith("T") and square in occupied:
            arrests.append(text)
        else:
            by_piece.setdefault(piece, []).append(text)
    picked: set[str] = set()
    queues = [sorted(queue, key=lambda a: _plain(a.split()[2])) for queue in by_piece.values()]
    room = MAX_OPTIONS - min(len(arrests), MAX_OPTIONS)
    while len(picked) < room and any(queues):
        for queue in queues:
            if queue and len(picked) < room:
                picked.add(queue.pop(0))
    chosen = [a for queue in by_piece.values() for a in queue if a in picked]
    chosen.sort(key=lambda a: (list(by_piece).index(a.split()[1]), square_xy(a.split()[2])))
    return arrests[:MAX_OPTIONS] + chosen


def hide_amounts(money: int) -> list[int]:
    """Whole thousands up to ``money``; more than 25 are thinned out evenly, keeping all of it."""
    amounts = list(range(1000, money - money % 1000 + 1, 1000))
    if len(amounts) <= MAX_OPTIONS:
        return amounts
    step = len(amounts) / (MAX_OPTIONS - 1)
    picked = {amounts[int(i * step)] for i in range(MAX_OPTIONS - 1)} | {amounts[-1]}
    return sorted(picked)


# ----------------------------------------------------------------------------- UI hooks
def _acting_thief(public: dict[str, Any]) -> dict[str, Any] | None:
    return next((th for th in public["thieves"] if th["seat"] == public["turn"]), None)


def board_buttons(obs: dict[str, Any]) -> list[ButtonSpec]:
    """What the player to act can do now, from public facts only (Fetch shows for any thief in a
    nest who keeps stashes somewhere; where they are stays hidden, so the engine may refuse)."""
    public = obs["public"]
    if public["finished"] or public["turn"] is None:
        return []
    if public.get("pending"):  # the police name the piece that arrests the encircled thief
        return [ButtonSpec("tjuv.action.arrest", f"arrest {pid}", discord.ButtonStyle.danger, (("piece", pid),))
                for pid in public["pending"][0]["pieces"]][:5]
    thief = _acting_thief(public)
    if thief is not None and thief["status"] == "jail":
        return [ButtonSpec("tjuv.action.breakout", "breakout", _STYLES["breakout"]),
                ButtonSpec("tjuv.action.wait", "wait", _STYLES["wait"])]
    stashed = thief is not None and thief["stashes"] > 0 and board().kind.get(thief["at"] or "") == "nest"
    fetch = [ButtonSpec("tjuv.action.fetch", "fetch", _STYLES["fetch"])] if stashed else []
    if public["phase"] == "start":
        return [ButtonSpec("tjuv.action.roll", "roll", _STYLES["roll"]), *fetch]
    if public["phase"] == "nest":
        return [*fetch, ButtonSpec("tjuv.action.end", "end", _STYLES["end"])]
    return []


def private_text(obs: dict[str, Any], locale: str) -> str:
    obs[_LOCALE] = locale
    return describe_private(obs, locale=locale)


def private_selects(obs: dict[str, Any], legal: list[str]) -> list[SelectSpec]:
    if obs.get("private") is None:
        return []
    public = obs["public"]
    locale = str(obs.get(_LOCALE) or "en")
    selects: list[SelectSpec] = []
    nests = [a[5:] for a in legal if a.startswith("nest ")]
    if nests:  # setup: the thief's starting nest
        selects.append(SelectSpec("tjuv.ui.nest_placeholder", "nest", [(sq, sq) for sq in nests][:MAX_OPTIONS]))
    cars = [a[4:] for a in legal if a.startswith("car ")]
    if cars:  # setup: the radio car's two squares, tail then front (it drives towards the front)
        selects.append(SelectSpec("tjuv.ui.car_placeholder", "car",
                                  [(t("tjuv.ui.car_option", locale, tail=c.split()[0], front=c.split()[1]), c)
                                   for c in cars]))
    moves = _spread((a for a in legal if a.startswith("move ")), public)
    if moves:
        options = [(_label("tjuv.ui.move_option", a, public, locale), a[5:]) for a in moves]
        selects.append(SelectSpec("tjuv.ui.move_placeholder", "move", options))
    rides = _spread((a for a in legal if a.startswith("ride ")), public)
    if rides:
        options = [(_label("tjuv.ui.ride_option", a, public, locale), a[5:]) for a in rides]
        selects.append(SelectSpec("tjuv.ui.ride_placeholder", "ride", options))
    if any(a.startswith("hide ") for a in legal):
        me = next((th for th in public["thieves"] if th["id"] == obs["private"].get("piece")), None)
        amounts = hide_amounts(me["money"] if me else 0)
        if amounts:
            selects.append(SelectSpec("tjuv.ui.hide_placeholder", "hide",
                                      [(t("tjuv.ui.hide_option", locale, money=a), str(a)) for a in amounts]))
    return selects


def private_buttons(obs: dict[str, Any], legal: list[str]) -> list[ButtonSpec]:
    return [ButtonSpec(f"tjuv.action.{verb}", verb, _STYLES[verb]) for verb in _SINGLE if verb in legal]


GAME_UI[GAME] = GameUI(board_buttons=board_buttons, private_buttons=private_buttons,
                       private_selects=private_selects, private_text=private_text)


# ----------------------------------------------------------------------------- autocomplete
async def _caller_legal(interaction: discord.Interaction) -> tuple[list[str], dict[str, Any]]:
    """The caller's legal action texts and the public view (nothing for strangers)."""
    bot: GameMasterBot = interaction.client  # type: ignore[assignment]
    record = await bot.service.current(str(interaction.channel_id))
    if record is None or record.status != "active" or record.game != GAME:
        return [], {}
    seat = record.seat_of(str(interaction.user.id))
    if seat is None:
        return [], {}
    return bot.service.legal_texts(record, seat, limit=2000), bot.service.observe(record, None)["public"]


async def piece_choices(interaction: discord.Interaction, verb: str,
                        current: str) -> list[app_commands.Choice[str]]:
    legal, public = await _caller_legal(interaction)
    where = {p["id"]: p["at"] for p in public.get("police", [])} | {th["id"]: th["at"] for th in
                                                                    public.get("thieves", [])}
    locale = locale_of(interaction)
    needle = current.strip().upper()
    pieces: list[str] = []
    for text in legal:
        words = text.split()
        if words[0] == verb and words[1] not in pieces and needle in words[1]:
            pieces.append(words[1])
    return [app_commands.Choice(name=t("tjuv.ui.piece_at", locale, piece=p, square=where.get(p) or "-")[:100],
                                value=p) for p in pieces[:MAX_OPTIONS]]


async def square_choices(interaction: discord.Interaction, verb: str,
                         current: str) -> list[app_commands.Choice[str]]:
    legal, public = await _caller_legal(interaction)
    if not legal:
        return []
    piece = str(getattr(interaction.namespace, "piece", "") or "").strip().upper()
    pieces = {text.split()[1] for text in legal if text.startswith(verb + " ")}
    if not piece and len(pieces) == 1:
        piece = next(iter(pieces))
    if piece not in pieces:
        return []
    locale = locale_of(interaction)

    def pretty(square: str) -> str:
        note = square_note(square, public, locale, police=not piece.startswith("T"), ride=verb == "ride")
        return f"{square} · {note}" if note else square

    return await legal_choices(interaction, f"{verb} {piece}", current, pretty)


# ----------------------------------------------------------------------------- commands
def grid_square(text: str) -> str | None:
    """Any square of the map (streets, blocks, buildings) typed as letter and number, or None."""
    text = text.strip().upper()
    if len(text) < 2 or not text[0].isalpha() or not text[1:].isdigit():
        return None
    column, row = ord(text[0]) - ord("A"), int(text[1:])
    return f"{text[0]}{row}" if 0 <= column < board().width and 1 <= row <= board().height else None


class Tjuv(commands.Cog):
    tjuv = app_commands.Group(name="tjuv", description="Tjuv och Polis: roll, move, ride, hide and fetch money")

    def __init__(self, bot: Any) -> None:
        self.bot = bot

    @tjuv.command(name="zoom", description="A close-up of the city map, readable on a phone (only to you)")
    @app_commands.describe(square="Where to look, e.g. K14 (empty: your own piece)")
    async def zoom(self, interaction: discord.Interaction, square: str | None = None) -> None:
        async def work() -> None:
            from rendering.tjuv import home_square, render_zoom

            await defer(interaction, ephemeral=True, thinking=True)
            locale = locale_of(interaction)
            record = await self.bot.service.require_current(str(interaction.channel_id))
            if record.game != GAME or record.state is None:
                raise IllegalAction("tjuv.ui.not_tjuv")
            obs = self.bot.service.observe(record, None)
            if square:
                spot = grid_square(square)
                if spot is None:
                    raise IllegalAction("tjuv.ui.no_such_square", square=square.strip()[:8])
            else:
                spot = home_square(obs["public"], record.seat_of(str(interaction.user.id)))
            image = await asyncio.to_thread(render_zoom, obs, names=record.names, locale=locale, square=spot)
            title = t("tjuv.ui.zoom_title", locale, square=spot)
            await reply(interaction, title, file=png(image, f"tjuv-zoom-{spot}.png",
                                                     title + " " + alt_text(record, "focus", obs, locale)))

        await guarded(interaction, work)

    @tjuv.command(name="nest", description="Setup: choose the nest your thief starts in")
    @app_commands.describe(square="A thieves' nest, e.g. A5")
    async def nest(self, interaction: discord.Interaction, square: str) -> None:
        await act(interaction, f"nest {square.strip()}")

    @nest.autocomplete("square")
    async def nest_square_ac(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        return await legal_choices(interaction, "nest", current)

    @tjuv.command(name="car", description="Setup: place the radio car on two street squares, tail then front")
    @app_commands.describe(tail="The square behind", front="The square it drives towards")
    async def car(self, interaction: discord.Interaction, tail: str, front: str) -> None:
        await act(interaction, f"car {tail.strip()} {front.strip()}")

    @tjuv.command(name="arrest", description="Name the police piece that arrests an encircled thief")
    @app_commands.describe(piece="P1… a policeman or C the radio car next to the thief")
    async def arrest(self, interaction: discord.Interaction, piece: str) -> None:
        await act(interaction, f"arrest {piece.strip()}")

    @tjuv.command(name="roll", description="Roll the die at the start of your turn")
    async def roll(self, interaction: discord.Interaction) -> None:
        await act(interaction, "roll")

    @tjuv.command(name="move", description="Move a piece with your roll (the bot finds the way)")
    @app_commands.describe(piece="P1… a policeman, C the radio car, T<n> your thief", to="A square, e.g. K14")
    async def move(self, interaction: discord.Interaction, piece: str, to: str) -> None:
        await act(interaction, f"move {piece.strip()} {to.strip()}")

    @move.autocomplete("piece")
    async def move_piece_ac(self, interaction: discord.Interaction,
                            current: str) -> list[app_commands.Choice[str]]:
        return await piece_choices(interaction, "move", current)

    @move.autocomplete("to")
    async def move_to_ac(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        return await square_choices(interaction, "move", current)

    @tjuv.command(name="ride", description="Ride the tram from the stop your piece ended on, instead of rolling")
    @app_commands.describe(piece="The piece on the tram stop", to="The stop to ride to")
    async def ride(self, interaction: discord.Interaction, piece: str, to: str) -> None:
        await act(interaction, f"ride {piece.strip()} {to.strip()}")

    @ride.autocomplete("piece")
    async def ride_piece_ac(self, interaction: discord.Interaction,
                            current: str) -> list[app_commands.Choice[str]]:
        return await piece_choices(interaction, "ride", current)

    @ride.autocomplete("to")
    async def ride_to_ac(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        return await square_choices(interaction, "ride", current)

    @tjuv.command(name="hide", description="Hide money in the nest you stand in (whole thousands)")
    @app_commands.describe(amount="Kronor to hide, e.g. 3000")
    async def hide(self, interaction: discord.Interaction, amount: app_commands.Range[int, 0, 9_999_999]) -> None:
        await act(interaction, f"hide {amount}")

    @tjuv.command(name="fetch", description="Take everything you hid in this nest (makes you wanted)")
    async def fetch(self, interaction: discord.Interaction) -> None:
        await act(interaction, "fetch")

    @tjuv.command(name="end", description="End your turn after entering a nest")
    async def end(self, interaction: discord.Interaction) -> None:
        await act(interaction, "end")

    @tjuv.command(name="wait", description="In jail: sit out this turn")
    async def wait(self, interaction: discord.Interaction) -> None:
        await act(interaction, "wait")

    @tjuv.command(name="breakout", description="In jail: roll for a 6 to break out, then move 6")
    async def breakout(self, interaction: discord.Interaction) -> None:
        await act(interaction, "breakout")


async def setup(bot: Any) -> None:
    await bot.add_cog(Tjuv(bot))
