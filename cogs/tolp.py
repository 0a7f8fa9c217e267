"""/tolp: play, pass and the exchange between rounds; the Pass button and the hand menu."""
from __future__ import annotations

from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.engine.cards import parse_card, rank_text
from bot.games.tolp.combos import WILD_RANKS
from bot.i18n import t
from bot.services.text import pretty_cards
from cogs.gameui import GAME_UI, ButtonSpec, GameUI, SelectSpec, legal_choices
from cogs.moves import act

MENU_SIZE = 25  # Discord's limit of options in one select


def _rank_code(card: str) -> str:
    return rank_text(parse_card(card).rank)


def _wild_codes(obs: dict[str, Any]) -> set[str]:
    wild = str(obs["public"].get("options", {}).get("wild", "none"))
    return {rank_text(r) for r in WILD_RANKS.get(wild, frozenset())}


def board_buttons(obs: dict[str, Any]) -> list[ButtonSpec]:
    public = obs["public"]
    if public.get("phase") == "play" and public.get("table"):
        return [ButtonSpec("button.pass", "pass", discord.ButtonStyle.secondary)]
    return []


def _shape(cards: str) -> str:
    """``7H 7S`` -> ``7 7``: the suits of a combination do not matter in Tölp."""
    return " ".join(sorted(_rank_code(tok) for tok in cards.split()))


def private_selects(obs: dict[str, Any], legal: list[str]) -> list[SelectSpec]:
    plays: list[str] = []
    shapes: set[str] = set()
    for text in legal:
        if not text.startswith("play "):
            continue
        cards = text[5:]
        shape = _shape(cards)
        if shape not in shapes:
            shapes.add(shape)
            plays.append(cards)
    wild = _wild_codes(obs)
    if len(plays) > MENU_SIZE:
        # keep every natural combination; wild-card variants only while there is room
        def wilds(cards: str) -> int:
            return sum(1 for tok in cards.split() if _rank_code(tok) in wild)
        keep = set(sorted(plays, key=lambda c: (wilds(c), legal.index("play " + c)))[:MENU_SIZE])
        plays = [c for c in plays if c in keep]
    selects = []
    if plays:
        selects.append(SelectSpec("tolp.ui.play_placeholder", "play", [(pretty_cards(c), c) for c in plays]))
    exchange = (obs.get("private") or {}).get("exchange")
    if any(text.startswith("give ") for text in legal) and exchange:
        # pick the cards one by one: a menu of whole combinations would be far too long
        count = int(exchange["count"])
        hand = [c for c in obs["private"]["hand"] if _rank_code(c) not in wild]
        distinct = list(dict.fromkeys(hand))  # two decks: one option per distinct card
        if len(distinct) <= MENU_SIZE:
            selects.append(SelectSpec("tolp.ui.give_placeholder", "give", [(pretty_cards(c), c) for c in distinct],
                                      min_values=count, max_values=count, placeholder_params=(("count", count),)))
    asks = [(text[4:], text[4:]) for text in legal if text.startswith("ask ")]
    if asks:
        selects.append(SelectSpec("tolp.ui.ask_placeholder", "ask", asks[:MENU_SIZE]))
    claims = [(text[6:], text[6:]) for text in legal if text.startswith("claim ")]
    if claims:
        selects.append(SelectSpec("tolp.ui.claim_placeholder", "claim", claims[:MENU_SIZE]))
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


def window(obs: dict[str, Any]) -> frozenset[int]:
    """The exchange between rounds: every player who hands cards over in it."""
    pub = obs["public"]
    if pub.get("phase") != "exchange":
        return frozenset()
    return frozenset(int(e["high"]) for e in pub.get("exchanges") or [])


GAME_UI["tolp"] = GameUI(board_buttons=board_buttons, private_buttons=private_buttons,
                         private_selects=private_selects, private_text=private_text, window=window)


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
