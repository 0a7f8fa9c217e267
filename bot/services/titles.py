"""The end of a game, lightly: a title for each player ("landlord of the night", "thief of the
night", "luckiest roller" …), on servers that turned them on (``/game settings titles:``), and a
one-line luck summary where the game has dice or cards. Both come from replaying the move log from
the seed, which the end reveals, and titles only from the public events: anyone can check them.

Pure apart from ``end_lines``::

    keys = titles(replay, report)     # one title key per seat (deterministic)
    end_lines(service, record, locale, titles=True)   # the lines for the result message
"""
from __future__ import annotations

import asyncio
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from bot.i18n import t
from bot.services.luck import LuckReport, luck
from bot.services.replay import Replay, events
from bot.services.replay import load as load_replay
from bot.services.text import shown
from bot.storage.games import GameRow

if TYPE_CHECKING:
    from bot.services.table import GameService

FALLBACK = "titles.company"  # a player no title fits
LUCKIEST = "titles.luckiest"


@dataclass(frozen=True)
class Title:
    """A title for the seat that ``param`` of the public events ``keys`` names most often (or
    with the most of ``weight``)."""

    key: str
    events: tuple[str, ...]
    params: tuple[str, ...] = ("seat",)
    weight: str | None = None


# per game, in the order titles are handed out (a seat gets at most one; a tie gives it to nobody)
TITLES: dict[str, tuple[Title, ...]] = {
    "monopol": (Title("titles.monopol.landlord", ("monopol.event.rent",), ("owner_seat",), "amount"),
                Title("titles.monopol.trader", ("monopol.event.trade_done",), ("seat", "target")),
                Title("titles.monopol.builder", ("monopol.event.build",), weight="count"),
                Title("titles.monopol.jailbird", ("monopol.event.to_jail",)),
                Title("titles.monopol.taxpayer", ("monopol.event.tax",), weight="amount")),
    "zlodej": (Title("titles.zlodej.thief", ("zlodej.event.steal",), weight="count"),
               Title("titles.zlodej.robbed", ("zlodej.event.steal",), ("target",), "count"),
               Title("titles.zlodej.collector", ("zlodej.event.take",))),
    "tolp": (Title("titles.tolp.clearer", ("tolp.event.cleared",)),
             Title("titles.tolp.patient", ("tolp.event.passed",))),
    "stratego": (Title("titles.stratego.hunter", ("stratego.event.attack_won",)),
                 Title("titles.stratego.sapper", ("stratego.event.bomb_defused",)),
                 Title("titles.stratego.brave", ("stratego.event.attack_lost",))),
    "tjuv": (Title("titles.tjuv.robber", ("tjuv.event.rob_bank", "tjuv.event.rob_post", "tjuv.event.rob_agency")),
             Title("titles.tjuv.guest", ("tjuv.event.jailed",), ("target",)),
             Title("titles.tjuv.rider", ("tjuv.event.ride",))),
}


def titles(replay: Replay, report: LuckReport | None = None) -> list[str]:
    """One title key per seat: the game's titles in order, each to the one seat that leads its
    count (a tie or nobody: no one), the luckiest roller (dice above the average), then
    ``FALLBACK`` for everyone left."""
    wanted = TITLES.get(replay.game, ())
    counts = [[0] * replay.players for _ in wanted]
    for _, happened in events(replay):
        for event in happened:
            if event.visible_to is not None:
                continue  # titles never tell what was hidden
            for index, title in enumerate(wanted):
                if event.key not in title.events:
                    continue
                weight = event.params.get(title.weight, 1) if title.weight else 1
                for param in title.params:
                    seat = event.params.get(param)
                    if isinstance(seat, int) and 0 <= seat < replay.players:
                        counts[index][seat] += weight if isinstance(weight, int) else 1
    out: list[str | None] = [None] * replay.players
    lucky = report.luckiest() if report is not None else None
    if lucky is not None and report is not None and report.seats[lucky].sigmas > 0:
        out[lucky] = LUCKIEST
    for title, scores in zip(wanted, counts, strict=True):
        best = max(scores, default=0)
        leaders = [seat for seat, score in enumerate(scores) if score == best]
        if best > 0 and len(leaders) == 1 and out[leaders[0]] is None:
            out[leaders[0]] = title.key
    return [key or FALLBACK for key in out]


def luck_line(report: LuckReport, names: Sequence[str], locale: str | None) -> str:
    """The luck report in one line: each player's dice against the average, or their good and bad
    cards, and where the whole report is."""
    parts = []
    for seat, item in enumerate(report.seats):
        name = shown(names[seat]) if seat < len(names) else str(seat + 1)
        if item.dice:
            parts.append(t("titles.luck_dice", locale, name=name, diff=f"{item.total - item.expected:+.0f}",
                           sigmas=f"{item.sigmas:+.1f}"))
        elif item.good or item.bad:
            parts.append(t("titles.luck_cards", locale, name=name, good=item.good, bad=item.bad))
    return t("titles.luck_line", locale, players=" · ".join(parts))


def title_line(keys: Sequence[str], names: Sequence[str], locale: str | None) -> str:
    parts = [t("titles.one", locale, name=shown(names[seat]), title=t(key, locale)) for seat, key in enumerate(keys)]
    return t("titles.line", locale, titles=" · ".join(parts))


def _compute(replay: Replay, names: Sequence[str], locale: str, with_titles: bool) -> list[str]:
    report = luck(replay)
    out = [luck_line(report, names, locale)] if report is not None else []
    if with_titles:
        out.append(title_line(titles(replay, report), names, locale))
    return out


async def end_lines(service: GameService, record: GameRow, locale: str) -> list[str]:
    """The lines a finished game's result adds: the luck in one line (games with dice or cards)
    and, where the server turned them on, each player's title. Replayed in a worker thread."""
    with_titles = bool((record.guild_settings or {}).get("titles"))
    replay = await load_replay(service, record.id)
    return await asyncio.to_thread(_compute, replay, record.names, locale, with_titles)


__all__ = ["FALLBACK", "LUCKIEST", "TITLES", "Title", "end_lines", "luck_line", "title_line", "titles"]
