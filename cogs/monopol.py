"""/monopol: roll, buy, auctions, building, mortgages, trades, jail, rent claims and deed cards.

Players name streets by their Norwegian names (autocomplete offers the caller's own streets); the
cog maps names to the engine's square numbers (cogs/monopol_input.py reads names and trade sides),
so nobody needs to know an index. The board carries
buttons for what the acting player(s) can do now: Roll, Buy/Decline, quick bids during an auction
(the action carries the absolute amount, so a stale bid button is caught by the ply check), Pass,
End turn, Pay 50 in jail, Claim rent, Accept/Decline a trade offer.
"""
from __future__ import annotations

import asyncio
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.errors import GameMasterError, IllegalAction, InvalidAction
from bot.games.monopol.board import AUCTION_START, DEEDS, GROUPS, JAIL_FINE, SQUARES, STREETS
from bot.i18n import money, t
from bot.services.text import shown
from cogs.drawing import alt_text, png
from cogs.gameui import GAME_UI, ButtonSpec, GameUI
from cogs.hooks import defer
from cogs.monopol_input import MAX_CHOICES, bundle_choices, square_choices, square_of, trade_action
from cogs.moves import act
from cogs.replies import guarded, locale_of, reply, reply_error

if TYPE_CHECKING:
    from bot.storage.games import GameRow
    from cogs.client import GameMasterBot

GAME = "monopol"
BID_STEPS = (10, 50)


# ----------------------------------------------------------------------------- board buttons
def board_buttons(obs: dict[str, Any]) -> list[ButtonSpec]:
    """What the acting player(s) can do now, most pressing first (at most four fit)."""
    pub = obs["public"]
    if pub.get("finished"):
        return []
    duty: list[ButtonSpec] = []
    danger, primary, success = discord.ButtonStyle.danger, discord.ButtonStyle.primary, discord.ButtonStyle.success
    if pub["debts"]:
        duty.append(ButtonSpec("monopol.ui.button.bankrupt", "bankrupt", danger))
    elif pub["placement"]:
        pass  # the building is placed with /monopol build
    elif pub["choices"]:
        square = pub["choices"][0]["square"]
        duty += [ButtonSpec("monopol.ui.button.lift", f"lift {square}", primary),
                 ButtonSpec("monopol.ui.button.keep", f"keep-mortgage {square}")]
    elif pub["auction"]:
        high = int(pub["auction"]["high"])
        small, big = (max(AUCTION_START, high + step) for step in BID_STEPS)
        # the bids together, Pass in a row of its own: no mis-tap between them
        duty += [ButtonSpec("monopol.ui.button.bid_small", f"bid {small}", primary, (("amount", small),)),
                 ButtonSpec("monopol.ui.button.bid_big", f"bid {big}", primary, (("amount", big),)),
                 ButtonSpec("monopol.ui.button.pass", "pass", row=1)]
    else:
        turn, phase = int(pub["turn"]), pub["phase"]
        if phase == "roll":
            duty.append(ButtonSpec("monopol.ui.button.roll", "roll", primary))
            if pub["in_jail"][turn]:
                duty.append(ButtonSpec("monopol.ui.button.jail_pay", "jail pay"))
                if pub["jail_cards"][turn]:
                    duty.append(ButtonSpec("monopol.ui.button.jail_card", "jail card"))
        elif phase == "buy":
            duty += [ButtonSpec("monopol.ui.button.buy", "buy", success),
                     ButtonSpec("monopol.ui.button.decline", "decline")]
        elif phase == "end":
            duty.append(ButtonSpec("monopol.ui.button.end", "end", primary))
    if pub["claims"]:
        duty.append(ButtonSpec("monopol.ui.button.claim", "claim", success))
    trade = [ButtonSpec("monopol.ui.button.accept", "accept", success),
             ButtonSpec("monopol.ui.button.reject", "decline trade", danger)] if pub["trade"] else []
    room = 4 - len(trade)
    if len(duty) > room and pub["auction"]:  # Pass stays; the bigger bid gives way (it can be typed)
        duty = [spec for spec in duty if spec.label_key != "monopol.ui.button.bid_big"]
    return duty[:room] + trade


def window(obs: dict[str, Any]) -> frozenset[int]:
    """An open auction (every solvent seat it lets bid) or a trade offer (its two sides)."""
    pub = obs["public"]
    if pub.get("finished"):
        return frozenset()
    if pub["auction"]:
        bankrupt = pub.get("bankrupt") or []
        return frozenset(s for s in pub["auction"]["eligible"] if not (bankrupt and bankrupt[s]))
    if pub["trade"]:
        return frozenset({int(pub["trade"]["proposer"]), int(pub["trade"]["target"])})
    return frozenset()


GAME_UI[GAME] = GameUI(board_buttons=board_buttons, has_private_view=False, window=window)


# ----------------------------------------------------------------------------- autocomplete helpers
async def _table(interaction: discord.Interaction) -> tuple[GameRow, dict[str, Any], int] | None:
    """The caller's active Monopol game in this channel, its public view and their seat."""
    bot: GameMasterBot = interaction.client  # type: ignore[assignment]
    record = await bot.service.current(str(interaction.channel_id))
    if record is None or record.game != GAME or record.status != "active" or record.state is None:
        return None
    seat = record.seat_of(str(interaction.user.id))
    if seat is None:
        return None
    return record, bot.service.observe(record, None)["public"], seat


def _legal(interaction: discord.Interaction, record: GameRow, seat: int) -> Callable[[str], bool]:
    """Whether the caller may make a move now (the engine decides; nothing changes)."""
    bot: GameMasterBot = interaction.client  # type: ignore[assignment]
    return lambda text: bot.service.is_legal(record, seat, text)


def _ranked(squares: Iterable[int], good: Callable[[int], bool]) -> list[int]:
    """Squares whose action is legal now first, then the rest (so a refusal can explain why)."""
    listed = list(squares)
    return [sq for sq in listed if good(sq)] + [sq for sq in listed if not good(sq)]


def _square_from_namespace(interaction: discord.Interaction) -> int | None:
    text = str(getattr(interaction.namespace, "street", "") or "")
    try:
        return square_of(text)
    except GameMasterError:
        return None


# ----------------------------------------------------------------------------- the cog
class Monopol(commands.Cog):
    monopol = app_commands.Group(name="monopol", description="Monopol: roll, buy, bid, build, trade")

    def __init__(self, bot: GameMasterBot) -> None:
        self.bot = bot

    async def _do(self, interaction: discord.Interaction, build: Callable[[], str]) -> None:
        """Turn the options into an action text (refusing unreadable ones) and play it."""
        try:
            action = build()
        except GameMasterError as exc:
            await reply_error(interaction, exc)
            return
        await act(interaction, action)

    # ---------------------------------------------------------------- the turn
    @monopol.command(name="roll", description="Roll the dice (also to try for a double in jail)")
    async def roll(self, interaction: discord.Interaction) -> None:
        await act(interaction, "roll")

    @monopol.command(name="buy", description="Buy the deed you are standing on")
    async def buy(self, interaction: discord.Interaction) -> None:
        await act(interaction, "buy")

    @monopol.command(name="decline", description="Do not buy the deed: it goes to auction")
    async def decline(self, interaction: discord.Interaction) -> None:
        await act(interaction, "decline")

    @monopol.command(name="end", description="End your turn")
    async def end(self, interaction: discord.Interaction) -> None:
        await act(interaction, "end")

    @monopol.command(name="jail", description="Leave jail by paying the fine or with a card")
    @app_commands.describe(how="Pay the fine or use a get-out-of-jail-free card")
    @app_commands.choices(how=[app_commands.Choice(name=f"pay {JAIL_FINE}", value="pay"),
                               app_commands.Choice(name="card", value="card")])
    async def jail(self, interaction: discord.Interaction, how: app_commands.Choice[str]) -> None:
        await act(interaction, f"jail {how.value}")

    @monopol.command(name="claim", description="Claim the rent owed to you")
    async def claim(self, interaction: discord.Interaction) -> None:
        await act(interaction, "claim")

    @monopol.command(name="bankrupt", description="Declare bankruptcy when you cannot pay a debt")
    async def bankrupt(self, interaction: discord.Interaction) -> None:
        await act(interaction, "bankrupt")

    # ---------------------------------------------------------------- auctions
    @monopol.command(name="bid", description="Bid in the auction")
    @app_commands.describe(amount="Your bid in kroner (more than the best bid so far)")
    async def bid(self, interaction: discord.Interaction, amount: app_commands.Range[int, 1, 999999]) -> None:
        await act(interaction, f"bid {amount}")

    @bid.autocomplete("amount")
    async def bid_ac(self, interaction: discord.Interaction, current: int | str) -> list[app_commands.Choice[int]]:
        table = await _table(interaction)
        if table is None or table[1]["auction"] is None:
            return []
        record, pub, seat = table
        legal = _legal(interaction, record, seat)
        low = max(AUCTION_START, int(pub["auction"]["high"]) + 1)
        amounts = [low + step for step in (0, 9, 19, 49, 99, 199)]
        typed = str(current or "").strip()
        if typed.isdigit() and int(typed) >= low:
            amounts.insert(0, int(typed))
        out = sorted({a for a in amounts if legal(f"bid {a}")})
        return [app_commands.Choice(name=money(a, str(interaction.locale)), value=a) for a in out][:MAX_CHOICES]

    @monopol.command(name="pass", description="Pass in the auction")
    async def pass_(self, interaction: discord.Interaction) -> None:
        await act(interaction, "pass")

    # ---------------------------------------------------------------- building
    @monopol.command(name="build", description="Build houses (or a hotel) in a colour set you own")
    @app_commands.describe(street="Your street to build on first", count="How many buildings (spread evenly)")
    async def build(self, interaction: discord.Interaction, street: str,
                    count: app_commands.Range[int, 1, 15] = 1) -> None:
        await self._do(interaction, lambda: f"build {square_of(street, STREETS)} {count}")

    @monopol.command(name="sell", description="Sell buildings back to the bank at half price")
    @app_commands.describe(street="Your street to sell from first", count="How many buildings")
    async def sell(self, interaction: discord.Interaction, street: str,
                   count: app_commands.Range[int, 1, 15] = 1) -> None:
        await self._do(interaction, lambda: f"sell {square_of(street, STREETS)} {count}")

    @build.autocomplete("street")
    async def build_street_ac(self, interaction: discord.Interaction,
                              current: str) -> list[app_commands.Choice[str]]:
        return await self._own_streets(interaction, current, "build")

    @sell.autocomplete("street")
    async def sell_street_ac(self, interaction: discord.Interaction,
                             current: str) -> list[app_commands.Choice[str]]:
        return await self._own_streets(interaction, current, "sell")

    async def _own_streets(self, interaction: discord.Interaction, current: str,
                           verb: str) -> list[app_commands.Choice[str]]:
        table = await _table(interaction)
        if table is None:
            return []
        record, pub, seat = table
        legal = _legal(interaction, record, seat)
        mine = [sq for sq in STREETS if pub["owner"][sq] == seat]
        return square_choices(_ranked(mine, lambda sq: legal(f"{verb} {sq} 1")), current)

    @build.autocomplete("count")
    async def build_count_ac(self, interaction: discord.Interaction,
                             current: int | str) -> list[app_commands.Choice[int]]:
        return await self._counts(interaction, "build")

    @sell.autocomplete("count")
    async def sell_count_ac(self, interaction: discord.Interaction,
                            current: int | str) -> list[app_commands.Choice[int]]:
        return await self._counts(interaction, "sell")

    async def _counts(self, interaction: discord.Interaction, verb: str) -> list[app_commands.Choice[int]]:
        table = await _table(interaction)
        square = _square_from_namespace(interaction)
        if table is None or square is None:
            return []
        record, _, seat = table
        legal = _legal(interaction, record, seat)
        group = GROUPS.get(SQUARES[square].group, (square,))
        counts = [n for n in range(1, 5 * len(group) + 1) if legal(f"{verb} {square} {n}")]
        price = SQUARES[square].house_cost
        factor = 1 if verb == "build" else 0.5
        locale = str(interaction.locale)
        return [app_commands.Choice(name=f"{n} ({money(int(n * price * factor), locale)})", value=n) for n in counts]

    # ---------------------------------------------------------------- mortgages
    @monopol.command(name="mortgage", description="Mortgage a deed you own: the bank pays its mortgage value")
    @app_commands.describe(street="Your deed to mortgage")
    async def mortgage(self, interaction: discord.Interaction, street: str) -> None:
        await self._do(interaction, lambda: f"mortgage {square_of(street)}")

    @monopol.command(name="unmortgage", description="Lift the mortgage on a deed (value plus 10 %)")
    @app_commands.describe(street="Your mortgaged deed")
    async def unmortgage(self, interaction: discord.Interaction, street: str) -> None:
        await self._do(interaction, lambda: f"unmortgage {square_of(street)}")

    @monopol.command(name="lift", description="A mortgaged deed you received: lift the mortgage now")
    @app_commands.describe(street="The mortgaged deed you received")
    async def lift(self, interaction: discord.Interaction, street: str) -> None:
        await self._do(interaction, lambda: f"lift {square_of(street)}")

    @monopol.command(name="keep", description="A mortgaged deed you received: keep the mortgage, pay 10 %")
    @app_commands.describe(street="The mortgaged deed you received")
    async def keep(self, interaction: discord.Interaction, street: str) -> None:
        await self._do(interaction, lambda: f"keep-mortgage {square_of(street)}")

    @mortgage.autocomplete("street")
    async def mortgage_ac(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        return await self._own_deeds(interaction, current, "mortgage")

    @unmortgage.autocomplete("street")
    async def unmortgage_ac(self, interaction: discord.Interaction,
                            current: str) -> list[app_commands.Choice[str]]:
        return await self._own_deeds(interaction, current, "unmortgage")

    @lift.autocomplete("street")
    async def lift_ac(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        return await self._own_deeds(interaction, current, "lift")

    @keep.autocomplete("street")
    async def keep_ac(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        return await self._own_deeds(interaction, current, "keep-mortgage")

    async def _own_deeds(self, interaction: discord.Interaction, current: str,
                         verb: str) -> list[app_commands.Choice[str]]:
        table = await _table(interaction)
        if table is None:
            return []
        record, pub, seat = table
        legal = _legal(interaction, record, seat)
        mine = [sq for sq in DEEDS if pub["owner"][sq] == seat]
        return square_choices(_ranked(mine, lambda sq: legal(f"{verb} {sq}")), current)

    # ---------------------------------------------------------------- trades
    @monopol.command(name="trade", description="Offer another player a trade of money, deeds and jail cards")
    @app_commands.describe(partner="The player you offer the trade to",
                           give="What you give, e.g. \"100 kr, Kongens gate, jail card\" (empty: nothing)",
                           get="What you want, e.g. \"Prinsens gate\" (empty: nothing)")
    async def trade(self, interaction: discord.Interaction, partner: discord.User, give: str = "",
                    get: str = "") -> None:
        async def work() -> None:
            record = await self.bot.service.require_current(str(interaction.channel_id))
            target = record.seat_of(str(partner.id))
            if target is None:
                raise InvalidAction("monopol.ui.partner_not_seated", name=partner.display_name)
            action = trade_action(target, give, get)
            await act(interaction, action)

        await guarded(interaction, work)

    @trade.autocomplete("give")
    async def give_ac(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        table = await _table(interaction)
        if table is None:
            return []
        _, pub, seat = table
        return bundle_choices(current, [sq for sq in DEEDS if pub["owner"][sq] == seat])

    @trade.autocomplete("get")
    async def get_ac(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        table = await _table(interaction)
        if table is None:
            return []
        record, pub, seat = table
        partner = getattr(interaction.namespace, "partner", None)
        other = record.seat_of(str(partner.id)) if partner is not None else None
        owners = {other} if other is not None and other != seat else \
            {p for p in range(pub["players"]) if p != seat and not pub["bankrupt"][p]}
        return bundle_choices(current, [sq for sq in DEEDS if pub["owner"][sq] in owners])

    @monopol.command(name="accept", description="Accept the trade offered to you")
    async def accept(self, interaction: discord.Interaction) -> None:
        await act(interaction, "accept")

    @monopol.command(name="reject", description="Decline the trade offered to you (or withdraw your own)")
    async def reject(self, interaction: discord.Interaction) -> None:
        await act(interaction, "decline trade")

    # ---------------------------------------------------------------- deed cards
    @monopol.command(name="deed", description="Show a deed card with its rents")
    @app_commands.describe(street="Any street, station or utility")
    async def deed(self, interaction: discord.Interaction, street: str) -> None:
        async def work() -> None:
            from rendering.monopol import render_deed

            square = square_of(street)
            locale = locale_of(interaction)
            image = await asyncio.to_thread(render_deed, square, locale=locale)
            lines = [t("monopol.ui.deed_title", locale, place=SQUARES[square].name, price=SQUARES[square].price)]
            record = await self.bot.service.current(str(interaction.channel_id))
            if record is not None and record.game == GAME and record.state is not None:
                pub = self.bot.service.observe(record, None)["public"]
                owner = pub["owner"][square]
                if owner < 0:
                    lines.append(t("monopol.ui.deed_bank", locale))
                else:
                    lines.append(t("monopol.ui.deed_owner", locale, name=shown(record.names[owner])))
                    if pub["mortgaged"][square]:
                        lines.append(t("monopol.ui.deed_mortgaged", locale))
                    if pub["level"][square]:
                        lines.append(t("monopol.ui.deed_level", locale, count=pub["level"][square]))
            # the card's alt text: the same words the message gives (the deed, its rents, its owner)
            await reply(interaction, "\n".join(lines),
                        file=png(image, f"monopol-deed-{square}.png", " ".join(lines)))

        await guarded(interaction, work)

    @deed.autocomplete("street")
    async def deed_ac(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        return square_choices(DEEDS, current)

    @monopol.command(name="zoom", description="A close-up of the board, readable on a phone (only to you)")
    @app_commands.describe(street="Where to look (empty: where your token stands)")
    async def zoom(self, interaction: discord.Interaction, street: str | None = None) -> None:
        async def work() -> None:
            from rendering.monopol import render_zoom

            await defer(interaction, ephemeral=True, thinking=True)
            locale = locale_of(interaction)
            record = await self.bot.service.require_current(str(interaction.channel_id))
            if record.game != GAME or record.state is None:
                raise IllegalAction("monopol.ui.not_monopol")
            if street:
                square = square_of(street, range(40))
            else:
                seat = record.seat_of(str(interaction.user.id))
                if seat is None:
                    raise IllegalAction("monopol.ui.zoom_where")
                square = int(self.bot.service.observe(record, None)["public"]["position"][seat])
            obs = self.bot.service.observe(record, None)
            image = await asyncio.to_thread(render_zoom, obs, names=record.names, locale=locale, square=square)
            title = t("monopol.ui.zoom_title", locale, place=SQUARES[square].name)
            await reply(interaction, title, file=png(image, f"monopol-zoom-{square}.png",
                                                     title + " " + alt_text(record, "focus", obs, locale)))

        await guarded(interaction, work)

    @zoom.autocomplete("street")
    async def zoom_ac(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        return square_choices(range(40), current)


async def setup(bot: GameMasterBot) -> None:
    await bot.add_cog(Monopol(bot))
