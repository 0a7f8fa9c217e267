"""/zlodej: lay a new group, add, steal, take the discard, discard and end the turn; the clickable hand.

A whole turn can be played by clicking in the private view (DM, or the ephemeral "Show my hand"):
three select menus whose options are complete legal actions (lays from the hand; steals and the
discard take; a card to discard) and an "End turn" button once something was laid.

Players are numbered from 1 on the board picture ("#2 Bořivoj") and in the menus; the engine's
action text counts seats from 0 ("steal 1 7D" steals from #2).
"""
from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.errors import GameMasterError, IllegalAction
from bot.i18n import t
from bot.services.text import pretty_cards
from bot.storage.games import GameRow
from cogs.gameui import GAME_UI, ButtonSpec, GameUI, SelectSpec, legal_choices
from cogs.moves import act
from cogs.replies import locale_of, reply_error

if TYPE_CHECKING:
    from cogs.client import GameMasterBot

GAME = "zlodej"
MAX_OPTIONS = 25


# ----------------------------------------------------------------------------- private view hooks
def _ui_locale(obs: dict[str, Any], locale: str | None) -> str:
    return locale or str(obs.get("locale") or "en")


def _my_turn(obs: dict[str, Any]) -> bool:
    public = obs["public"]
    return not public["finished"] and public["turn"] == obs.get("seat") and obs.get("seat") is not None


def _top(obs: dict[str, Any], seat: int) -> dict[str, Any] | None:
    groups = obs["public"]["seats"][seat]["top_groups"]
    return groups[0] if groups else None


def _jokers(cards: str) -> int:
    return sum(1 for tok in cards.split() if tok == "JK")


def lay_options(obs: dict[str, Any], legal: list[str], locale: str) -> list[tuple[str, str]]:
    """New groups and additions to the own top group: natural cards before jokers, big first."""
    own = _top(obs, obs["seat"])
    ranked: list[tuple[tuple[int, int, int], str, str]] = []
    for text in legal:
        verb, _, cards = text.partition(" ")
        if verb == "new":
            label = t("zlodej.ui.opt_new", locale, cards=pretty_cards(cards))
            ranked.append(((_jokers(cards), 1, -len(cards.split())), label, text))
        elif verb == "add" and own is not None:
            label = t("zlodej.ui.opt_add", locale, cards=pretty_cards(cards), rank=own["rank"], count=own["count"])
            ranked.append(((_jokers(cards), 0, -len(cards.split())), label, text))
    ranked.sort(key=lambda item: item[0])
    return [(label, text) for _, label, text in ranked[:MAX_OPTIONS]]


def win_options(obs: dict[str, Any], legal: list[str], locale: str) -> list[tuple[str, str]]:
    """Steals (with the victim's number and top group) and taking the discard: the richest hauls
    with the fewest jokers first."""
    public = obs["public"]
    ranked: list[tuple[tuple[int, int, int], str, str]] = []
    for text in legal:
        verb, _, rest = text.partition(" ")
        if verb == "steal":
            number, _, cards = rest.partition(" ")
            victim = _top(obs, int(number))
            if victim is None:
                continue
            label = t("zlodej.ui.opt_steal", locale, number=int(number) + 1, rank=victim["rank"],
                      count=victim["count"], cards=pretty_cards(cards))
            ranked.append(((_jokers(cards), -victim["count"], len(cards.split())), label, text))
        elif verb == "take" and public["discard_top"]:
            label = t("zlodej.ui.opt_take", locale, card=pretty_cards(public["discard_top"]),
                      cards=pretty_cards(rest))
            ranked.append(((_jokers(rest), -1, len(rest.split())), label, text))
    ranked.sort(key=lambda item: item[0])
    return [(label, text) for _, label, text in ranked[:MAX_OPTIONS]]


def discard_options(obs: dict[str, Any]) -> list[tuple[str, str]]:
    """Every distinct card of the hand (any card may be discarded on one's turn)."""
    if not _my_turn(obs):
        return []
    seen: list[str] = []
    for card in obs["private"]["hand"]:
        if card not in seen:
            seen.append(card)
    return [(pretty_cards(card), card) for card in seen]


def private_selects(obs: dict[str, Any], legal: list[str], *, locale: str | None = None) -> list[SelectSpec]:
    if obs.get("private") is None or not _my_turn(obs):
        return []
    loc = _ui_locale(obs, locale)
    selects = []
    lays = lay_options(obs, legal, loc)
    if lays:
        # the values are whole actions, so the prefix is empty
        selects.append(SelectSpec("zlodej.ui.lay_placeholder", "", lays))
    wins = win_options(obs, legal, loc)
    if wins:
        selects.append(SelectSpec("zlodej.ui.win_placeholder", "", wins))
    discards = discard_options(obs)
    if discards:
        selects.append(SelectSpec("zlodej.ui.discard_placeholder", "discard", discards))
    return selects


def private_buttons(obs: dict[str, Any], legal: list[str]) -> list[ButtonSpec]:
    # from the observation, not ``legal``: "end" comes last there and a long list is cut short
    if obs.get("private") is not None and _my_turn(obs) and obs["public"]["laid"]:
        return [ButtonSpec("zlodej.action.end", "end", discord.ButtonStyle.primary)]
    return []


def board_buttons(obs: dict[str, Any]) -> list[ButtonSpec]:
    public = obs["public"]
    if not public["finished"] and public["laid"]:
        return [ButtonSpec("zlodej.action.end", "end", discord.ButtonStyle.secondary)]
    return []


def private_text(obs: dict[str, Any], locale: str) -> str:
    private = obs.get("private")
    if private is None:
        return ""
    hand = private["hand"]
    lines = [t("zlodej.ui.hand", locale, cards=pretty_cards(" ".join(hand))) if hand
             else t("zlodej.render.no_cards", locale)]
    own = _top(obs, obs["seat"])
    lines.append(t("zlodej.ui.top_group", locale, rank=own["rank"], count=own["count"]) if own
                 else t("zlodej.ui.no_top_group", locale))
    if _my_turn(obs):
        lines.append(t("zlodej.ui.your_turn", locale))
    return "\n".join(lines)


GAME_UI[GAME] = GameUI(board_buttons=board_buttons, private_buttons=private_buttons,
                       private_selects=private_selects, private_text=private_text)


# ----------------------------------------------------------------------------- targets
_MENTION = re.compile(r"<@!?([0-9]{15,20})>|([0-9]{15,20})")
_NUMBER = re.compile(r"#?([0-9]{1,2})")


def resolve_target(record: GameRow, text: str) -> int:
    """The engine seat a player named in a command means: a mention or user id, the number shown
    on the board (``#2`` or ``2``), or the name (exact, else an unambiguous beginning)."""
    wanted = text.strip()
    mention = _MENTION.fullmatch(wanted)
    if mention:
        seat = record.seat_of(mention.group(1) or mention.group(2))
        if seat is not None:
            return seat
    number = _NUMBER.fullmatch(wanted)
    if number and 1 <= int(number.group(1)) <= len(record.seats):
        return int(number.group(1)) - 1
    folded = wanted.casefold()
    exact = [s for s, name in enumerate(record.names) if name.casefold() == folded]
    starts = [s for s, name in enumerate(record.names) if folded and name.casefold().startswith(folded)]
    for found in (exact, starts):
        if len(found) == 1:
            return found[0]
    raise IllegalAction("zlodej.ui.unknown_player", name=wanted[:40])


def _check_victim(bot: GameMasterBot, record: GameRow, seat: int, user_id: str) -> None:
    """Refuse a steal from a locked or empty pile naming the victim: cogs.replies.reply_error
    translates engine errors without the table's names, so the engine's own refusal would name
    the seat by its number. The engine still checks everything else (and this again)."""
    if record.state is None or record.status != "active" or record.seat_of(user_id) in (None, seat):
        return  # the engine answers strangers and self-robbery
    info = bot.service.observe(record, None)["public"]["seats"][seat]
    if not info["top_groups"]:
        code = "pile_locked" if info["locked"] else "nothing_to_steal"
        raise IllegalAction(f"zlodej.error.{code}", topic="stealing", target=record.names[seat])


async def _caller(interaction: discord.Interaction) -> tuple[GameRow, int] | None:
    bot: GameMasterBot = interaction.client  # type: ignore[assignment]
    record = await bot.service.current(str(interaction.channel_id))
    if record is None or record.status != "active" or record.game != GAME:
        return None
    seat = record.seat_of(str(interaction.user.id))
    return None if seat is None else (record, seat)


def _needle_in(needle: str, *texts: str) -> bool:
    return not needle or any(needle in text.lower() for text in texts)


# ----------------------------------------------------------------------------- the cog
class Zlodej(commands.Cog):
    zlodej = app_commands.Group(name="zlodej", description="Zloděj: lay groups, steal piles, take the discard")

    def __init__(self, bot: Any) -> None:
        self.bot = bot

    async def _cards_ac(self, interaction: discord.Interaction, verb: str,
                        current: str) -> list[app_commands.Choice[str]]:
        return await legal_choices(interaction, verb, current, pretty_cards)

    @zlodej.command(name="new", description="Lay a new group of two or more cards of one rank")
    @app_commands.describe(cards="Cards from your hand, e.g. 7H 7S (a joker JK locks your pile)")
    async def new(self, interaction: discord.Interaction, cards: str) -> None:
        await act(interaction, f"new {cards}")

    @new.autocomplete("cards")
    async def new_ac(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        return await self._cards_ac(interaction, "new", current)

    @zlodej.command(name="add", description="Add cards to your own top group")
    @app_commands.describe(cards="Cards of your top group's rank, e.g. 7C")
    async def add(self, interaction: discord.Interaction, cards: str) -> None:
        await act(interaction, f"add {cards}")

    @add.autocomplete("cards")
    async def add_ac(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        return await self._cards_ac(interaction, "add", current)

    @zlodej.command(name="steal", description="Steal another player's top group with cards of its rank")
    @app_commands.describe(target="The player to rob (name, #number or mention)",
                           cards="Cards of their top group's rank, e.g. 7D")
    async def steal(self, interaction: discord.Interaction, target: str, cards: str) -> None:
        try:
            record = await self.bot.service.require_current(str(interaction.channel_id))
            seat = resolve_target(record, target)
            _check_victim(self.bot, record, seat, str(interaction.user.id))
        except GameMasterError as exc:
            await reply_error(interaction, exc)
            return
        await act(interaction, f"steal {seat} {cards}")

    @steal.autocomplete("target")
    async def steal_target_ac(self, interaction: discord.Interaction,
                              current: str) -> list[app_commands.Choice[str]]:
        """Only players whose top group the caller can take now."""
        caller = await _caller(interaction)
        if caller is None:
            return []
        record, seat = caller
        legal = self.bot.service.legal_texts(record, seat, limit=2000)
        targets = sorted({int(text.split()[1]) for text in legal if text.startswith("steal ")})
        public = self.bot.service.observe(record, None)["public"]
        locale = locale_of(interaction)
        needle = current.strip().lower()
        choices = []
        for target in targets:
            top = public["seats"][target]["top_groups"][0]
            name = t("zlodej.ui.target_choice", locale, number=target + 1, name=record.names[target],
                     rank=top["rank"], count=top["count"])
            if _needle_in(needle, name):
                choices.append(app_commands.Choice(name=name[:100], value=f"#{target + 1}"))
        return choices[:25]

    @steal.autocomplete("cards")
    async def steal_cards_ac(self, interaction: discord.Interaction,
                             current: str) -> list[app_commands.Choice[str]]:
        """Cards that steal the chosen player's top group (any target's while none is chosen)."""
        caller = await _caller(interaction)
        if caller is None:
            return []
        record, seat = caller
        target_text = str(getattr(interaction.namespace, "target", "") or "")
        try:
            target: int | None = resolve_target(record, target_text) if target_text else None
        except GameMasterError:
            target = None
        needle = current.strip().lower()
        seen: list[str] = []
        for text in self.bot.service.legal_texts(record, seat, limit=2000):
            verb, number, cards = (text.split(" ", 2) + ["", ""])[:3]
            if verb != "steal" or (target is not None and int(number) != target) or cards in seen:
                continue
            if _needle_in(needle, cards, pretty_cards(cards)):
                seen.append(cards)
        return [app_commands.Choice(name=pretty_cards(cards)[:100], value=cards) for cards in seen[:25]]

    @zlodej.command(name="take", description="Take the discard pile's top card with cards of its rank")
    @app_commands.describe(cards="Cards of the discard's rank, e.g. 9H")
    async def take(self, interaction: discord.Interaction, cards: str) -> None:
        await act(interaction, f"take {cards}")

    @take.autocomplete("cards")
    async def take_ac(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        return await self._cards_ac(interaction, "take", current)

    @zlodej.command(name="discard", description="Discard one card; this ends your turn")
    @app_commands.describe(card="A card from your hand, e.g. 3C")
    async def discard(self, interaction: discord.Interaction, card: str) -> None:
        await act(interaction, f"discard {card}")

    @discard.autocomplete("card")
    async def discard_ac(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        return await self._cards_ac(interaction, "discard", current)

    @zlodej.command(name="end", description="End your turn after laying at least once")
    async def end(self, interaction: discord.Interaction) -> None:
        await act(interaction, "end")


async def setup(bot: Any) -> None:
    await bot.add_cog(Zlodej(bot))
