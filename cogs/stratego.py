"""/stratego: the hidden setup (presets, random, a code, swapping squares), moves with autocomplete
of the caller's movable pieces and their legal destinations, the private board, draws, resigning.

The private view (DM, or ephemeral through /stratego board) carries the interactive controls:
during the setup the preset / Random / Ready buttons and three "swap two squares" menus over
overlapping pairs of the player's rows; during play a menu of the player's legal moves and the
draw buttons. Setup changes made by slash command are answered privately (no channel post):
only their owner may see a draft.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.errors import IllegalAction
from bot.games.stratego.board import setup_squares
from bot.games.stratego.setups import PRESETS
from bot.i18n import t
from bot.services.core import Update
from cogs.gameui import GAME_UI, ButtonSpec, GameUI, SelectSpec
from cogs.hooks import defer
from cogs.moves import act, announced, show_hand
from cogs.private import private_message
from cogs.replies import guarded, locale_of, reply

if TYPE_CHECKING:
    from cogs.client import GameMasterBot

GAME = "stratego"
MAX_OPTIONS = 25
# The three swap menus: rows 1-2, 2-3 and 3-4 of the player's setup area (20 squares each, as
# slices of setup_squares(seat): back row first). Any two squares in neighbouring rows swap in
# one go; the rest in two steps, or with /stratego swap.
SWAP_SLICES = (("stratego.ui.swap_back", 0, 20), ("stratego.ui.swap_middle", 10, 30),
               ("stratego.ui.swap_front", 20, 40))


# ----------------------------------------------------------------------------- UI hooks
def _phase(obs: dict[str, Any]) -> str:
    return str(obs["public"]["phase"])


def board_buttons(obs: dict[str, Any]) -> list[ButtonSpec]:
    public = obs["public"]
    if public["phase"] == "play" and public.get("draw_offer") is not None:
        return [ButtonSpec("stratego.ui.accept_draw", "accept draw", discord.ButtonStyle.success),
                ButtonSpec("stratego.ui.decline_draw", "decline draw", discord.ButtonStyle.danger)]
    return []


def private_buttons(obs: dict[str, Any], legal: list[str]) -> list[ButtonSpec]:
    private = obs.get("private") or {}
    out: list[ButtonSpec] = []
    if _phase(obs) == "setup" and "ready" in legal:
        presets = [text.split()[-1] for text in legal if text.startswith("setup preset ")]
        out += [ButtonSpec(f"stratego.ui.preset.{name}", f"setup preset {name}", discord.ButtonStyle.primary)
                for name in presets[:3]]
        out.append(ButtonSpec("stratego.ui.random", "setup random"))
        out.append(ButtonSpec("stratego.ui.ready", "ready", discord.ButtonStyle.success))
    elif _phase(obs) == "play":
        if "accept draw" in legal:
            out.append(ButtonSpec("stratego.ui.accept_draw", "accept draw", discord.ButtonStyle.success))
        if "decline draw" in legal:
            out.append(ButtonSpec("stratego.ui.decline_draw", "decline draw", discord.ButtonStyle.danger))
        if private.get("may_offer_draw"):
            out.append(ButtonSpec("stratego.ui.offer_draw", "offer draw"))
    return out


def _moves(legal: list[str]) -> list[tuple[str, str]]:
    """(source, destination) of every legal move, in board order of the source."""
    pairs = [tuple(text.split()[1:3]) for text in legal if text.startswith("move ")]
    return sorted(((src, dst) for src, dst in pairs), key=lambda p: (p[0][0], int(p[0][1:]), p[1]))


def private_selects(obs: dict[str, Any], legal: list[str]) -> list[SelectSpec]:
    private = obs.get("private") or {}
    seat = obs.get("seat")
    if seat is None:
        return []
    if _phase(obs) == "setup" and private.get("draft") and any(text.startswith("swap ") for text in legal):
        draft = private["draft"]
        order = setup_squares(seat)
        return [SelectSpec(key, "swap", [(f"{sq} · {draft[sq]}", sq) for sq in order[lo:hi]],
                           min_values=2, max_values=2) for key, lo, hi in SWAP_SLICES]
    if _phase(obs) != "play":
        return []
    board = obs["public"]["board"]
    ranks = private.get("ranks", {})
    options: list[tuple[str, str]] = []
    for src, dst in _moves(legal):
        target = board.get(dst)
        mark = " ⚔" if target is not None and target["owner"] != seat else ""
        options.append((f"{src} {ranks.get(src, '?')} → {dst}{mark}", f"{src} {dst}"))
    chunks = [options[i:i + MAX_OPTIONS] for i in range(0, min(len(options), 3 * MAX_OPTIONS), MAX_OPTIONS)]
    return [SelectSpec("stratego.ui.move_placeholder", "move", chunk) for chunk in chunks]


def private_text(obs: dict[str, Any], locale: str) -> str:
    private = obs.get("private") or {}
    public = obs["public"]
    if public["phase"] == "setup":
        if private.get("draft_code"):
            code = private["draft_code"]
            return t("stratego.ui.setup_help", locale,
                     code=" ".join(code[i:i + 10] for i in range(0, 40, 10)))
        return t("stratego.ui.setup_waiting", locale)
    if public["phase"] != "play":
        return ""
    if not private.get("your_turn"):
        return t("stratego.ui.wait", locale)
    if public.get("draw_offer") is not None:
        return t("stratego.ui.answer_draw", locale)
    return t("stratego.ui.your_move", locale)


GAME_UI[GAME] = GameUI(board_buttons=board_buttons, private_buttons=private_buttons,
                       private_selects=private_selects, private_text=private_text)


# ----------------------------------------------------------------------------- helpers
async def _caller_view(interaction: discord.Interaction) -> tuple[dict[str, Any], list[str]] | None:
    """The caller's observation and legal actions in this channel's active Stratego game."""
    bot: GameMasterBot = interaction.client  # type: ignore[assignment]
    record = await bot.service.current(str(interaction.channel_id))
    if record is None or record.game != GAME or record.status != "active":
        return None
    seat = record.seat_of(str(interaction.user.id))
    if seat is None:
        return None
    return bot.service.observe(record, seat), bot.service.legal_texts(record, seat, limit=2000)


def _matches(needle: str, *texts: str) -> bool:
    needle = needle.strip().lower()
    return not needle or any(needle in text.lower() for text in texts)


def _choices(pairs: list[tuple[str, str]]) -> list[app_commands.Choice[str]]:
    return [app_commands.Choice(name=name[:100], value=value[:100]) for name, value in pairs[:MAX_OPTIONS]]


async def setup_act(interaction: discord.Interaction, action: str) -> None:
    """Apply a setup action. A draft change is private: the caller gets the new draft (image and
    controls) ephemerally and the channel sees nothing; anything public is announced as usual."""
    bot: GameMasterBot = interaction.client  # type: ignore[assignment]

    async def work() -> None:
        await defer(interaction, ephemeral=True, thinking=True)
        update: Update = await bot.service.act(user_id=str(interaction.user.id), action=action,
                                               channel_id=str(interaction.channel_id),
                                               interaction_id=str(interaction.id), reply_privately=True)
        locale = locale_of(interaction)
        if any(event.visible_to is None for event in update.events):
            await announced(interaction, update)
            return
        seat = update.record.seat_of(str(interaction.user.id))
        assert seat is not None
        content, file, view = await private_message(bot, update.record, seat, locale, update.events)
        kwargs: dict[str, Any] = {}
        if file is not None:
            kwargs["file"] = file
        if view is not None:
            kwargs["view"] = view
        await reply(interaction, content or t("game.done", locale), **kwargs)

    await guarded(interaction, work)


# ----------------------------------------------------------------------------- the cog
class Stratego(commands.Cog):
    stratego = app_commands.Group(name="stratego", description="Stratego: set up, move, draw, resign")

    def __init__(self, bot: GameMasterBot) -> None:
        self.bot = bot

    @stratego.command(name="setup", description="Set up your army: a preset, random, a code, or the setup view")
    @app_commands.describe(preset="A ready-made setup", code="40 characters, back row first (M 9..2 S B F)",
                           random="A random setup")
    async def setup(self, interaction: discord.Interaction, preset: str | None = None,
                    code: str | None = None, random: bool = False) -> None:
        chosen = [text for text in (f"setup preset {preset}" if preset else None,
                                    f"setup code {code}" if code else None,
                                    "setup random" if random else None) if text]
        if not chosen:
            await show_hand(interaction)
            return
        if len(chosen) > 1:
            async def refuse() -> None:
                raise IllegalAction("stratego.ui.setup_one", topic="setup")
            await guarded(interaction, refuse)
            return
        await setup_act(interaction, chosen[0])

    @setup.autocomplete("preset")
    async def preset_ac(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        locale = locale_of(interaction)
        return _choices([(t(f"stratego.ui.preset.{name}", locale), name) for name in PRESETS
                         if _matches(current, name, t(f"stratego.ui.preset.{name}", locale))])

    @stratego.command(name="swap", description="Swap the pieces on two squares of your setup")
    @app_commands.describe(first="A square of your setup, e.g. A1", second="Another square, e.g. B4")
    async def swap(self, interaction: discord.Interaction, first: str, second: str) -> None:
        await setup_act(interaction, f"swap {first} {second}")

    @swap.autocomplete("first")
    @swap.autocomplete("second")
    async def swap_ac(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        seen = await _caller_view(interaction)
        if seen is None:
            return []
        obs, _ = seen
        draft = (obs.get("private") or {}).get("draft") or {}
        locale = locale_of(interaction)
        pairs = [(f"{sq} · {t(f'stratego.rank.{draft[sq]}', locale)}", sq)
                 for sq in setup_squares(obs["seat"]) if sq in draft]
        return _choices([(name, sq) for name, sq in pairs if _matches(current, sq, name)])

    @stratego.command(name="ready", description="Submit your setup")
    async def ready(self, interaction: discord.Interaction) -> None:
        await act(interaction, "ready")

    @stratego.command(name="move", description="Move one of your pieces")
    @app_commands.rename(from_="from")
    @app_commands.describe(from_="The square of your piece, e.g. A4", to="Where it goes, e.g. A5")
    async def move(self, interaction: discord.Interaction, from_: str, to: str) -> None:
        await act(interaction, f"move {from_} {to}")

    @move.autocomplete("from_")
    async def from_ac(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        seen = await _caller_view(interaction)
        if seen is None:
            return []
        obs, legal = seen
        ranks = (obs.get("private") or {}).get("ranks", {})
        locale = locale_of(interaction)
        sources: list[str] = []
        for src, _ in _moves(legal):
            if src not in sources:
                sources.append(src)
        pairs = [(f"{sq} · {t(f'stratego.rank.{ranks[sq]}', locale)}", sq) for sq in sources]
        return _choices([(name, sq) for name, sq in pairs if _matches(current, sq, name)])

    @move.autocomplete("to")
    async def to_ac(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        seen = await _caller_view(interaction)
        if seen is None:
            return []
        obs, legal = seen
        source = str(getattr(interaction.namespace, "from", "") or "").strip().upper()
        known = (obs.get("private") or {}).get("known", {})
        board = obs["public"]["board"]
        locale = locale_of(interaction)
        pairs: list[tuple[str, str]] = []
        for src, dst in _moves(legal):
            if source and src != source:
                continue
            if board.get(dst) is None:
                name = dst
            elif dst in known:
                name = t("stratego.ui.attack_known", locale, square=dst,
                         rank=t(f"stratego.rank.{known[dst]}", locale))
            else:
                name = t("stratego.ui.attack", locale, square=dst)
            if not source:
                name = f"{src} → {name}"
            if (name, dst) not in pairs and _matches(current, dst, name):
                pairs.append((name, dst))
        return _choices(pairs)

    @stratego.command(name="board", description="Show your own board (your ranks) only to you")
    async def board(self, interaction: discord.Interaction) -> None:
        await show_hand(interaction)

    @stratego.command(name="draw", description="Offer a draw, or accept or decline one")
    @app_commands.describe(answer="offer, accept or decline")
    @app_commands.choices(answer=[app_commands.Choice(name="offer", value="offer draw"),
                                  app_commands.Choice(name="accept", value="accept draw"),
                                  app_commands.Choice(name="decline", value="decline draw")])
    async def draw(self, interaction: discord.Interaction, answer: app_commands.Choice[str]) -> None:
        await act(interaction, answer.value)

    @stratego.command(name="resign", description="Give up this game of Stratego")
    async def resign(self, interaction: discord.Interaction) -> None:
        async def work() -> None:
            await defer(interaction, ephemeral=True, thinking=True)
            update = await self.bot.service.resign(str(interaction.channel_id), str(interaction.user.id))
            await announced(interaction, update)
        await guarded(interaction, work)


async def setup(bot: Any) -> None:
    await bot.add_cog(Stratego(bot))
