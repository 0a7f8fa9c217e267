"""Alt text: every picture the bot sends, told in words from the same observation (an attachment's
``description``, at most 1024 characters, in the reader's language), for screen readers and for
whoever's connection did not load the image.

``describe(game, view, obs, *, names, locale)`` with view one of "public" (the table's board),
"private" (a player's own view: it says only what ``observe(seat)`` showed that seat), "focus"
(the close-up on what changed) and "result" (the standings at the end). Each text leads with
what a reader needs first: whose turn it is (or who won), then the scores, then what changed.
"""
from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from bot.engine.cards import parse_card
from bot.i18n import money, normalize, t
from rendering.kit import seat_name
from rendering.standings import score_text, standings

LIMIT = 1024  # Discord's limit for an attachment's description
VIEWS = ("public", "private", "focus", "result")
Obs = Mapping[str, Any]


def _cards(cards: Sequence[str]) -> str:
    return " ".join(parse_card(card).pretty for card in cards)


def _clip(parts: Sequence[str]) -> str:
    """Sentences joined until the limit; a sentence that does not fit ends the text with "…"."""
    out = ""
    for part in (p.strip() for p in parts):
        if not part:
            continue
        candidate = f"{out} {part}" if out else part
        if len(candidate) > LIMIT:
            room = LIMIT - len(out) - 2
            return (f"{out} {part[:room].rstrip()}…" if room > 20 else out.rstrip() + "…")[:LIMIT]
        out = candidate
    return out


def _acting(obs: Obs, names: Any, locale: str) -> str:
    seats = list(obs["public"].get("to_act") or [])
    if not seats:
        return ""
    who = ", ".join(seat_name(names, s) for s in seats)
    if obs.get("seat") is not None and seats == [obs["seat"]]:
        return t("render.alt.your_turn", locale)
    return t("render.alt.to_act", locale, names=who, count=len(seats))


def _title(game: str, locale: str, detail: str = "") -> str:
    name = t(f"game.name.{game}", locale)
    return f"{name} · {detail}." if detail else f"{name}."


# ----------------------------------------------------------------------------- Tölp
def _tolp(view: str, obs: Obs, names: Any, locale: str) -> list[str]:
    pub = obs["public"]
    parts = [_title("tolp", locale, t("tolp.ui.round", locale, round=pub["round"])), _acting(obs, names, locale)]
    if pub["phase"] == "exchange":
        parts.append(t("tolp.ui.exchange_phase", locale) + ".")
    if pub["table"]:
        top = pub["table"][-1]
        parts.append(t("render.alt.tolp_table", locale, name=seat_name(names, top["seat"]), cards=_cards(top["cards"])))
    elif pub["turn"] is not None and pub["phase"] == "play":
        parts.append(t("tolp.ui.table_empty", locale, name=seat_name(names, pub["turn"])) + ".")
    if pub["passed"]:
        parts.append(t("render.alt.passed", locale, names=", ".join(seat_name(names, s) for s in pub["passed"])))
    if view == "private" and obs.get("private") is not None:
        hand = obs["private"]["hand"]
        parts.append(t("render.alt.hand", locale, count=len(hand), cards=_cards(hand)) if hand
                     else t("render.alt.no_hand", locale))
    seats = []
    for seat in range(pub["players"]):
        bits = [seat_name(names, seat)]
        if pub["titles"][seat]:
            bits.append(t(f"tolp.title.{pub['titles'][seat]}", locale))
        place = pub["places"][seat]
        bits.append(t("render.alt.out", locale, place=place + 1) if place is not None
                    else t("render.alt.cards", locale, count=pub["counts"][seat]))
        if pub["kungs"][seat]:
            bits.append(t("tolp.ui.kungs", locale, count=pub["kungs"][seat]))
        seats.append(" ".join(bits[:1]) + ": " + ", ".join(bits[1:]))
    parts.append("; ".join(seats) + ".")
    return parts


# ----------------------------------------------------------------------------- Zloděj
def _zlodej(view: str, obs: Obs, names: Any, locale: str) -> list[str]:
    pub = obs["public"]
    parts = [_title("zlodej", locale), _acting(obs, names, locale),
             t("render.alt.zlodej_stock", locale, count=pub["stock"])]
    if pub["discard_top"]:
        parts.append(t("render.alt.zlodej_discard", locale, card=_cards([pub["discard_top"]])))
    if view == "private" and obs.get("private") is not None:
        private = obs["private"]
        hand = private["hand"]
        parts.append(t("render.alt.hand", locale, count=len(hand), cards=_cards(hand)) if hand
                     else t("render.alt.no_hand", locale))
        parts.append(t("render.alt.zlodej_points", locale, points=t("zlodej.render.points", locale,
                                                                     points=private["points"])))
    seats = []
    for seat, info in enumerate(pub["seats"]):
        bits = []
        if info["top_groups"]:
            top = info["top_groups"][0]
            bits.append(t("render.alt.zlodej_top", locale, rank=top["rank"], count=top["count"]))
        else:
            bits.append(t("zlodej.render.no_open_pile", locale))
        if info["locked"]:
            bits.append(t("zlodej.render.locked", locale, count=len(info["locked"])))
        if pub["scores"] is not None:
            bits.append(t("zlodej.render.points", locale, points=pub["scores"][seat]))
        else:
            bits.append(t("render.alt.cards", locale, count=info["hand"]))
        seats.append(f"#{seat + 1} {seat_name(names, seat)}: " + ", ".join(bits))
    parts.append("; ".join(seats) + ".")
    return parts


# ----------------------------------------------------------------------------- Stratego
def _stratego(view: str, obs: Obs, names: Any, locale: str) -> list[str]:
    pub = obs["public"]
    parts = [_title("stratego", locale, t("stratego.render.move_count", locale, count=pub["moves"]))]
    if pub["phase"] == "setup":
        parts.append(t("stratego.render.setup", locale) + ".")
    parts.append(_acting(obs, names, locale))
    last = pub.get("last_move")
    if last:
        key = "render.alt.stratego_attack" if last.get("attack") else "render.alt.stratego_move"
        parts.append(t(key, locale, name=seat_name(names, last["seat"]), start=last["from"], end=last["to"]))
    lost = [len(c) for c in pub["captured"]]
    parts.append(t("render.alt.stratego_lost", locale, first=seat_name(names, 0), second=seat_name(names, 1),
                   one=lost[0] if lost else 0, two=lost[1] if len(lost) > 1 else 0))
    private = obs.get("private")
    if view == "private" and private is not None:
        side = t("render.alt.stratego_side_red" if obs["seat"] == 0 else "render.alt.stratego_side_blue", locale)
        parts.append(t("render.alt.stratego_own", locale, side=side, count=len(private["ranks"]),
                       known=len(private["known"])))
    return parts


# ----------------------------------------------------------------------------- Monopol
def _monopol_recent(pub: Mapping[str, Any], names: Any, locale: str, count: int = 3) -> list[str]:
    from bot.services.text import name_params  # seat numbers to names, card codes to symbols
    listed = [seat_name(names, seat) for seat in range(pub["players"])]
    return [t(e["key"], locale, **name_params(dict(e["params"]), listed)).replace("🔑", "")
            for e in list(pub["recent"])[-count:]]


def _monopol(view: str, obs: Obs, names: Any, locale: str) -> list[str]:
    from bot.games.monopol.board import SQUARES
    pub = obs["public"]
    round_key = "monopol.render.round_of" if pub["max_rounds"] else "monopol.render.round"
    parts = [_title("monopol", locale, t(round_key, locale, round=pub["round"], max=pub["max_rounds"])),
             _acting(obs, names, locale)]
    turn = pub["turn"]
    if turn is not None and not pub["finished"]:
        parts.append(t("render.alt.monopol_mover", locale, name=seat_name(names, turn), money=pub["cash"][turn],
                       place=SQUARES[pub["position"][turn]].name))
    auction = pub["auction"]
    if auction:
        lot = (SQUARES[auction["square"]].name if auction["lot"] == "deed"
               else t(f"monopol.render.lot_{auction['lot']}", locale))
        if auction["bidder"] >= 0:
            parts.append(t("render.alt.monopol_auction", locale, lot=lot, amount=auction["high"],
                           name=seat_name(names, auction["bidder"])))
        else:
            parts.append(t("render.alt.monopol_auction_open", locale, lot=lot))
    parts += [f"{line.rstrip('.')}." for line in _monopol_recent(pub, names, locale)]
    if view == "focus":
        from rendering.monopol import focus_square
        square = focus_square(pub, obs.get("event_hint"))
        owner = pub["owner"][square]
        who = seat_name(names, owner) if owner >= 0 else t("render.alt.nobody", locale)
        parts.insert(1, t("render.alt.monopol_focus", locale, place=SQUARES[square].name, name=who))
    worth = [f"{seat_name(names, s)} " + (t("monopol.render.bankrupt", locale) if pub["bankrupt"][s]
                                          else money(pub["cash"][s], locale)) for s in range(pub["players"])]
    parts.append(t("render.alt.cash", locale, list="; ".join(worth)))
    return parts


# ----------------------------------------------------------------------------- Tjuv och Polis
def _tjuv_piece_seat(pub: Mapping[str, Any], piece: str) -> int | None:
    if piece.startswith("P"):
        return int(pub.get("police_seat", 0))
    return next((int(th["seat"]) for th in pub["thieves"] if th["id"] == piece), None)


def _tjuv(view: str, obs: Obs, names: Any, locale: str) -> list[str]:
    pub = obs["public"]
    parts = [_title("tjuv", locale, t("tjuv.render.round", locale, round=pub["round"])), _acting(obs, names, locale)]
    if pub["roll"] and not pub["finished"]:
        parts.append(t("render.alt.tjuv_rolled", locale, name=seat_name(names, pub["turn"]), roll=pub["roll"]))
    piece = str(pub.get("last_piece") or "")
    path = [s for s in pub.get("last_path") or [] if s != "house"]
    if piece and path:
        seat = _tjuv_piece_seat(pub, piece)
        parts.append(t("render.alt.tjuv_moved", locale, name=seat_name(names, seat) if seat is not None else piece,
                       piece=piece, roll=pub["last_roll"], square=path[-1]))
    if view == "focus":
        from rendering.tjuv import focus_square
        parts.insert(1, t("render.alt.tjuv_focus", locale, square=focus_square(pub, obs.get("event_hint"))))
    private = obs.get("private")
    if view == "private" and private is not None:
        if private["role"] == "police":
            parts.append(t("render.alt.tjuv_police", locale))
        else:
            stashes = ", ".join(f"{nest} {money(amount, locale)}" for nest, amount in private["stashes"].items())
            parts.append(t("render.alt.tjuv_stashes", locale, piece=private["piece"], count=len(private["stashes"]),
                           list=stashes) if stashes else t("render.alt.tjuv_no_stash", locale, piece=private["piece"]))
    police = int(pub.get("police_seat", 0))
    money_list = [f"{seat_name(names, police)} ({t('render.alt.tjuv_police_role', locale)}) "
                  f"{money(pub['police_money'], locale)}"]
    for thief in pub["thieves"]:
        status = "" if thief["status"] == "free" else f" ({t('render.alt.tjuv_status_' + thief['status'], locale)})"
        money_list.append(f"{seat_name(names, thief['seat'])} ({thief['id']}) {money(thief['money'], locale)}{status}")
    parts.append(t("render.alt.cash", locale, list="; ".join(money_list)))
    return parts


# ----------------------------------------------------------------------------- the result
def _result(obs: Obs, names: Any, locale: str) -> list[str]:
    game = str(obs["game"])
    table = standings(obs)
    winners = [seat_name(names, s) for s in table.winners]
    parts = [_title(game, locale, t("render.result.title", locale))]
    parts.append(t("render.result.winner", locale, names=", ".join(winners), count=len(winners)) if winners
                 else t("render.result.draw", locale))
    parts.append(t(table.reason, locale).rstrip(".") + ".")
    rows = []
    for row in table.rows:
        score = t(f"render.result.out_{game}", locale) if row.out else score_text(game, row.score, locale)
        line = t("render.result.place", locale, place=row.place) + " " + seat_name(names, row.seat)
        rows.append(f"{line} {score}".rstrip())
    parts.append("; ".join(rows) + ".")
    return parts


_GAMES: dict[str, Callable[[str, Obs, Any, str], list[str]]] = {
    "tolp": _tolp, "zlodej": _zlodej, "stratego": _stratego, "monopol": _monopol, "tjuv": _tjuv}


def describe(game: str, view: str, obs: Obs, *, names: Any, locale: str, news: str = "") -> str:
    """The picture ``view`` of ``game`` drawn from ``obs``, in words (≤ 1024 characters) in
    ``locale``. ``news``, when the caller has it (the event line of the move), is told right after
    whose turn it is."""
    if view not in VIEWS:
        raise ValueError(view)
    locale = normalize(locale)
    if view == "result":
        parts = _result(obs, names, locale)
    else:
        parts = _GAMES[game](view, obs, names, locale)
    if news:
        parts.insert(2 if len(parts) > 2 else len(parts), news.rstrip(".") + ".")
    return _clip(parts)
