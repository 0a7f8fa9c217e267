"""/tolp: play, pass and the exchange between rounds; the Pass button and the hand menu."""
from __future__ import annotations

from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.i18n import t
from cogs.common import GAME_UI, ButtonSpec, GameUI, SelectSpec, act, legal_choices, pretty_cards


def board_buttons(obs: dict[str, Any]) -> list[ButtonSpec]:
    public = obs["public"]
    if public.get("phase") == "play" and public.get("table"):
        return [ButtonSpec("button.pass", "pass", discord.ButtonStyle.secondary)]
    return []


def private_selects(obs: dict[str, Any], legal: list[str]) -> list[SelectSpec]:
    plays: list[tuple[str, str]] = []
    shapes: set[str] = set()
    for text in legal:
        if not text.startswith("play "):
            continue
        cards = text[5:]
        # one option per rank and size: the suits of a combination do not matter in Tölp
        shape = " ".join(sorted(tok[:-1] if tok != "JK" else tok for tok in cards.split()))
        if shape in shapes:
            continue
        shapes.add(shape)
        plays.append((pretty_cards(cards), cards))
    selects = []
    if plays:
        selects.append(SelectSpec("tolp.ui.play_placeholder", "play", plays[:25]))
    gives = [(pretty_cards(text[5:]), text[5:]) for text in legal if text.startswith("give ")]
    if gives and len(gives) <= 25:
        selects.append(SelectSpec("tolp.ui.give_placeholder", "give", gives))
    asks = [(text[4:], text[4:]) for text in legal if text.startswith("ask ")]
    if asks:
        selects.append(SelectSpec("tolp.ui.ask_placeholder", "ask", asks[:25]))
    return selects


def private_buttons(obs: dict[str, Any], legal: list[str]) -> list[ButtonSpec]:
    out = []
    if "pass" in legal:
        out.append(ButtonSpec("button.pass", "pass"))
    if "high" in legal:
        out.append(ButtonSpec("tolp.ui.high", "high", discord.ButtonStyle.primary))
    return out


def private_text(obs: dict[str, Any], locale: str) -> str:
    hand = obs["private"]["hand"]
    return t("tolp.ui.hand_text", locale, count=len(hand), cards=pretty_cards(" ".join(hand)) or "-")


GAME_UI["tolp"] = GameUI(board_buttons=board_buttons, private_buttons=private_buttons,
                         private_selects=private_selects, private_text=private_text)


class Tolp(commands.Cog):
    tolp = app_commands.Group(name="tolp", description="Tölp (President): play cards, pass, exchange")

    def __init__(self, bot: Any) -> None:
        self.bot = bot

    @tolp.command(name="play", description="Play one or more cards of the same rank")
    @app_commands.describe(cards="Cards from your hand, e.g. 7H 7S")
    async def play(self, interaction: discord.Interaction, cards: str) -> None:
        await act(interaction, f"play {cards}")

    @play.autocomplete("cards")
    async def play_ac(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        return await legal_choices(interaction, "play", current, pretty_cards)

    @tolp.command(name="pass", description="Pass on the combination on the table")
    async def pass_(self, interaction: discord.Interaction) -> None:
        await act(interaction, "pass")

    @tolp.command(name="give", description="Exchange: lay down cards for your partner")
    @app_commands.describe(cards="The cards you give, e.g. 3C 4D")
    async def give(self, interaction: discord.Interaction, cards: str) -> None:
        await act(interaction, f"give {cards}")

    @give.autocomplete("cards")
    async def give_ac(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        return await legal_choices(interaction, "give", current, pretty_cards)

    @tolp.command(name="high", description="Exchange: say \"högt\" and take your partner's highest cards")
    async def high(self, interaction: discord.Interaction) -> None:
        await act(interaction, "high")

    @tolp.command(name="ask", description="Exchange: ask how many of a rank your partner holds")
    @app_commands.describe(rank="A rank you hold yourself, e.g. 9 or K")
    async def ask(self, interaction: discord.Interaction, rank: str) -> None:
        await act(interaction, f"ask {rank}")

    @ask.autocomplete("rank")
    async def ask_ac(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        return await legal_choices(interaction, "ask", current)

    @tolp.command(name="claim", description="Exchange: name the ranks you want, e.g. 9 9 K")
    @app_commands.describe(ranks="Ranks you want; any shortfall is filled with their highest cards")
    async def claim(self, interaction: discord.Interaction, ranks: str) -> None:
        await act(interaction, f"claim {ranks}")


async def setup(bot: Any) -> None:
    await bot.add_cog(Tolp(bot))
