"""/orders in Discord: a seat's standing orders, set privately in an ephemeral view (menus,
toggle buttons, and a modal for amounts), also opened by the "Standing orders" button of the
player's private view (their DM hand). The orders act through the move pipeline when the seat is
to act (bot/services/orders.py); here is only the view.

Every item's custom_id carries the game and the seat (``gm:o:<game>:<seat>:<what>`` buttons,
``gmos:…`` menus, ``gm:om:…`` the amount modal), so a view opened yesterday still works; a press by
anyone but the seat's player is refused in words, and so is a forged id. A command of its own, not in the
/game group: Discord allows a group 25 subcommands, and /game has them."""
from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.engine import orders as pure
from bot.errors import IllegalAction, InvalidAction
from bot.i18n import t
from bot.services import orders as standing
from bot.services.orders import SeatOrders, StandingOrders
from bot.services.text import event_text, shown
from bot.storage.games import GameRow
from cogs.components import GameButton, admit_component
from cogs.replies import NO_PINGS, clip, guarded, locale_of, reply, reply_error

if TYPE_CHECKING:
    from cogs.client import GameMasterBot

# gm:o:<game>:<seat>:<what>  a button of the orders view (what: a toggle, a modal, clear, view)
BUTTON_ID = re.compile(r"o:(?P<game>[0-9]{1,18}):(?P<seat>[0-9]{1,2}):(?P<what>[a-z_]{1,20})")
# gmos:<game>:<seat>:<what>  a menu of the orders view
SELECT_ID = re.compile(r"(?P<game>[0-9]{1,18}):(?P<seat>[0-9]{1,2}):(?P<what>[a-z_]{1,20})")
TOGGLES = ("only_pass", "auto_end", "auto_exchange")
AMOUNT_MODALS = ("max_bid", "buy_up_to")
AMOUNT_LENGTH = 9  # "kr 100 000": the longest amount the modal takes


def orders_cog(bot: Any) -> OrdersCog:
    cog: OrdersCog = bot.get_cog("OrdersCog")
    return cog


# ----------------------------------------------------------------------------- the view
def orders_button(record: GameRow, seat: int, locale: str) -> discord.ui.Item[Any]:
    """The private view's button that opens the seat's standing orders."""
    return order_button(record.id, seat, "view", t("orders.button.open", locale))


def describe(view: SeatOrders, locale: str) -> str:
    """The seat's orders in words, and the notes of orders dropped since the player last looked."""
    record, orders = view.record, view.orders
    names = [shown(n) for n in record.names]
    lines = [t("orders.title", locale, game=t(f"game.name.{record.game}", locale), id=record.id,
               name=names[view.seat])]
    for note in view.notes:
        lines.append("⚠️ " + event_text(_note_event(note), record.names, locale))
    shown_orders = []
    for key in pure.kinds(record.game):
        value = orders.get(key)
        if value is None:
            continue
        if key == "group_max":
            from bot.games.monopol.orders import group_places
            shown_orders += [t("orders.line.group_max", locale, place=group_places(g), amount=a)
                             for g, a in sorted(value.items())]
        elif key == "decline_from":
            who = t("orders.everyone", locale) if value == "all" else ", ".join(names[s] for s in value)
            shown_orders.append(t("orders.line.decline_from", locale, players=who))
        elif key == "tolp_pass":
            shown_orders.append(t(f"orders.line.tolp_pass.{value}", locale))
        elif key in standing.AMOUNTS:
            shown_orders.append(t(f"orders.line.{key}", locale, amount=int(value)))
        else:
            shown_orders.append(t(f"orders.line.{key}", locale))
    lines += ["• " + line for line in shown_orders] or [t("orders.none", locale)]
    lines.append("-# " + t("orders.footer", locale))
    return clip("\n".join(lines))


def _note_event(note: dict[str, Any]) -> Any:
    from bot.engine.core import Event
    return Event(str(note.get("key", "")), dict(note.get("params") or {}))


def orders_view(view: SeatOrders, locale: str) -> discord.ui.View:
    record, seat, orders = view.record, view.seat, view.orders
    out = discord.ui.View(timeout=None)
    names = [shown(n) for n in record.names]
    if record.game == "monopol":
        from bot.games.monopol.orders import GROUP_NAMES, group_places
        out.add_item(OrderSelect(record.id, seat, "group_max", placeholder=t("orders.select.group_max", locale),
                                 options=[discord.SelectOption(label=group_places(g)[:100], value=g,
                                                               description=t(f"orders.group.{g}", locale))
                                          for g in GROUP_NAMES], row=0))
        declined = orders.get("decline_from")
        choices = [discord.SelectOption(label=t("orders.nobody", locale), value="none", default=not declined),
                   discord.SelectOption(label=t("orders.everyone", locale), value="all", default=declined == "all")]
        choices += [discord.SelectOption(label=names[s][:100], value=f"s{s}",
                                         default=isinstance(declined, list) and s in declined)
                    for s in range(len(record.seats)) if s != seat]
        out.add_item(OrderSelect(record.id, seat, "decline_from", placeholder=t("orders.select.decline_from", locale),
                                 options=choices, max_values=len(choices), row=1))
        out.add_item(order_button(record.id, seat, "max_bid", t("orders.button.max_bid", locale), row=2))
        out.add_item(order_button(record.id, seat, "buy_up_to", t("orders.button.buy_up_to", locale), row=2))
        out.add_item(_toggle(record.id, seat, "auto_end", orders, locale, row=2))
    if record.game == "tolp":
        from bot.games.tolp.orders import PASS_CHOICES
        current = orders.get("tolp_pass") or "off"
        out.add_item(OrderSelect(record.id, seat, "tolp_pass", placeholder=t("orders.select.tolp_pass", locale),
                                 options=[discord.SelectOption(label=t(f"orders.choice.tolp_pass.{c}", locale), value=c,
                                                               default=c == current)
                                          for c in ("off", *PASS_CHOICES)], row=0))
        out.add_item(_toggle(record.id, seat, "auto_exchange", orders, locale, row=2))
    out.add_item(_toggle(record.id, seat, "only_pass", orders, locale, row=3))
    out.add_item(order_button(record.id, seat, "clear", t("orders.button.clear", locale),
                              style=discord.ButtonStyle.danger, row=3))
    return out


def order_button(game_id: int, seat: int, what: str, label: str, *,
                 style: discord.ButtonStyle = discord.ButtonStyle.secondary, row: int | None = None) -> GameButton:
    return GameButton(0, 0, "", label=label, style=style, raw=f"gm:o:{game_id}:{seat}:{what}", row=row)


def _toggle(game_id: int, seat: int, key: str, orders: dict[str, Any], locale: str, *, row: int) -> GameButton:
    on = bool(orders.get(key))
    return order_button(game_id, seat, key, t(f"orders.toggle.{key}.{'on' if on else 'off'}", locale),
                        style=discord.ButtonStyle.success if on else discord.ButtonStyle.secondary, row=row)


# ----------------------------------------------------------------------------- the items
async def button_route(interaction: discord.Interaction, match: re.Match[str]) -> None:
    """A press of one of the orders view's buttons (``gm:o:…``, routed by cogs/routing.py)."""
    if match["what"] not in ("view", "clear", *TOGGLES, *AMOUNT_MODALS):
        await reply_error(interaction, InvalidAction("error.bad_custom_id"))
        return
    await orders_cog(interaction.client).button(interaction, int(match["game"]), int(match["seat"]), match["what"])


class OrderSelect(discord.ui.DynamicItem[discord.ui.Select[Any]], template=r"gmos:(?P<rest>.*)"):
    """A menu of the orders view."""

    def __init__(self, game_id: int, seat: int, what: str, *, options: list[discord.SelectOption] | None = None,
                 placeholder: str | None = None, max_values: int = 1, raw: str | None = None,
                 row: int | None = None) -> None:
        custom_id = raw if raw is not None else f"gmos:{game_id}:{seat}:{what}"
        super().__init__(discord.ui.Select(custom_id=custom_id[:100], options=options or [], placeholder=placeholder,
                                           min_values=1, max_values=max_values, row=row))
        self.rest = custom_id[5:]

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str]) -> OrderSelect:
        return cls(0, 0, "", raw=f"gmos:{match['rest']}")

    async def callback(self, interaction: discord.Interaction) -> Any:
        if not await admit_component(interaction):
            return
        parsed = SELECT_ID.fullmatch(self.rest)
        data: dict[str, Any] = dict(interaction.data or {})
        values = [str(v) for v in data.get("values", [])]
        if parsed is None or parsed["what"] not in ("group_max", "decline_from", "tolp_pass") or not values \
                or any(not re.fullmatch(r"[a-z0-9_]{1,20}", v) for v in values):
            await reply_error(interaction, InvalidAction("error.bad_custom_id"))
            return
        await orders_cog(interaction.client).select(interaction, int(parsed["game"]), int(parsed["seat"]),
                                                    parsed["what"], values)


# gm:om:<game>:<seat>:<what>:<group>  the amount modal, answered by the cog's listener (after a restart
# too); GameButton's template covers the id, so the client's answer to strays leaves it alone
MODAL_ID = re.compile(r"gm:om:(?P<game>[0-9]{1,18}):(?P<seat>[0-9]{1,2}):(?P<what>max_bid|buy_up_to|group_max):"
                      r"(?P<group>[a-z]{0,20})")


def amount_modal(game_id: int, seat: int, key: str, group: str | None, locale: str,
                 current: int | None) -> discord.ui.Modal:
    """The amount of one order (empty: that order off); its submission is read from its custom_id
    and field alone, so the modal needs no memory of the process that opened it."""
    modal = discord.ui.Modal(title=t(f"orders.modal.{key}", locale)[:45],
                             custom_id=f"gm:om:{game_id}:{seat}:{key}:{group or ''}"[:100])
    minimum = standing.MIN_BID if key in ("max_bid", "group_max") else 1
    label = t("orders.modal.amount", locale, minimum=minimum, maximum=standing.MAX_AMOUNT)
    modal.add_item(discord.ui.TextInput(label=label[:45], custom_id="amount", required=False, max_length=AMOUNT_LENGTH,
                                        default=str(current) if current is not None else None,
                                        placeholder=t("orders.modal.empty", locale)[:100]))
    modal.stop()  # not kept in the client's store: the cog's listener answers it
    return modal


def submitted(data: Any) -> str:
    """The amount field's value in a modal submission (a row or a label holding the input)."""
    for top in (data or {}).get("components", []) or []:
        inner = top.get("components") or ([top["component"]] if top.get("component") else [])
        for item in inner:
            if item.get("custom_id") == "amount":
                return str(item.get("value") or "")
    return ""


# ----------------------------------------------------------------------------- the cog
@app_commands.command(name="orders",
                      description="Your standing orders at a table: moves made for you when it is your turn")
@app_commands.describe(game="The game's number (in a DM); empty: this channel's table")
async def orders_command(interaction: discord.Interaction, game: app_commands.Range[int, 1] | None = None) -> None:
    bot: GameMasterBot = interaction.client  # type: ignore[assignment]

    async def work() -> None:
        if game is None:
            if interaction.guild_id is None:
                raise IllegalAction("orders.error.which_game")
            game_id = (await bot.service.require_current(str(interaction.channel_id))).id
        else:
            game_id = game
        await orders_cog(bot).open(interaction, game_id, None)

    await guarded(interaction, work)


class OrdersCog(commands.Cog):
    def __init__(self, bot: GameMasterBot) -> None:
        self.bot = bot
        self.orders = StandingOrders(bot.db)

    @commands.Cog.listener()
    async def on_interaction(self, interaction: discord.Interaction) -> None:
        """An amount modal submitted: the order it names is set (checked first: a bad amount is
        refused in words and nothing changes)."""
        if interaction.type != discord.InteractionType.modal_submit:
            return
        match = MODAL_ID.fullmatch(str(dict(interaction.data or {}).get("custom_id", "")))
        if match is None or not await admit_component(interaction):
            return
        key, group = match["what"], match["group"]

        async def work() -> None:
            minimum = standing.MIN_BID if key in ("max_bid", "group_max") else 1
            amount = standing.parse_amount(submitted(interaction.data), minimum)
            if key == "group_max" and not group:
                raise InvalidAction("error.bad_custom_id")
            value: Any = (group, amount) if key == "group_max" else amount
            await self.change(interaction, int(match["game"]), int(match["seat"]), key, value, fresh=True)

        await guarded(interaction, work)

    async def open(self, interaction: discord.Interaction, game_id: int, seat: int | None) -> None:
        """The seat's orders view, to its player alone (notes of dropped orders shown once)."""
        locale = locale_of(interaction)
        view = await self.orders.show(game_id, str(interaction.user.id), seat)
        await reply(interaction, describe(view, locale), view=orders_view(view, locale))

    async def button(self, interaction: discord.Interaction, game_id: int, seat: int, what: str) -> None:
        async def work() -> None:
            if what == "view":
                await self.open(interaction, game_id, seat)
                return
            if what == "clear":
                view = await self.orders.clear(game_id, str(interaction.user.id), seat)
                await self.answer(interaction, view)
                return
            current = await self.orders.show(game_id, str(interaction.user.id), seat, keep_notes=True)
            if what in AMOUNT_MODALS:
                await interaction.response.send_modal(amount_modal(game_id, seat, what, None, locale_of(interaction),
                                                                   current.orders.get(what)))
                return
            await self.change(interaction, game_id, seat, what, not current.orders.get(what))

        await guarded(interaction, work)

    async def select(self, interaction: discord.Interaction, game_id: int, seat: int, what: str,
                     values: list[str]) -> None:
        async def work() -> None:
            if what == "group_max":
                current = await self.orders.show(game_id, str(interaction.user.id), seat, keep_notes=True)
                group = values[0]
                await interaction.response.send_modal(amount_modal(
                    game_id, seat, "group_max", group, locale_of(interaction),
                    (current.orders.get("group_max") or {}).get(group)))
                return
            value: Any
            if what == "decline_from":
                seats = [int(v[1:]) for v in values if re.fullmatch(r"s[0-9]{1,2}", v)]
                value = "all" if "all" in values else seats or None
            else:
                value = values[0]
            await self.change(interaction, game_id, seat, what, value)

        await guarded(interaction, work)

    async def change(self, interaction: discord.Interaction, game_id: int, seat: int, key: str, value: Any, *,
                     fresh: bool = False) -> None:
        """Set one order, show the view again (the same message; a new one after a modal) and let
        the orders act at once when the seat is to act now."""
        view = await self.orders.set(game_id, str(interaction.user.id), seat, key, value)
        await self.answer(interaction, view, fresh=fresh)
        update = await standing.apply_now(self.bot.db, self.bot.service.pipeline, game_id)
        announcer = self.bot.get_cog("Announcer")
        if update is not None and announcer is not None:  # as cogs.moves.announce (which imports the private view)
            announcer.wake(update.record.id)  # type: ignore[attr-defined]

    async def answer(self, interaction: discord.Interaction, view: SeatOrders, *, fresh: bool = False) -> None:
        locale = locale_of(interaction)
        if fresh or interaction.message is None:
            await reply(interaction, describe(view, locale), view=orders_view(view, locale))
        else:
            await interaction.response.edit_message(content=describe(view, locale), view=orders_view(view, locale),
                                                    allowed_mentions=NO_PINGS)


async def setup(bot: Any) -> None:
    # a command of its own: the /game group holds Discord's most (25 subcommands) already
    bot.tree.add_command(orders_command)
    bot.add_dynamic_items(OrderSelect)  # its buttons are GameButtons (cogs/routing.py routes gm:o:…)
    await bot.add_cog(OrdersCog(bot))
