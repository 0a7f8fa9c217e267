"""The two anti-stalling rules: the two-squares rule and the more-squares (chasing) rule.

Both work on small JSON-able records kept in the state, so replaying the log rebuilds them.

Two-squares: a seat's *shuttle* is ``[from, to, count]`` of its latest non-attacking move and how
many of its own moves in a row went back and forth between those two squares. Counting each
player's own moves means that when both players shuttle, the one who started reaches the limit
first, which is the seed's "whoever started must stop first".

Chasing (ISF art. 11): a *chase* starts with a threat (a non-attacking move next to enemy
pieces) and goes on while the threatened piece evades on the very next move and the same chasing
piece threatens it again. The positions after each chasing move are remembered; the chaser may
not recreate one of them, except by moving back to the square the chasing piece just came from.
Only the chasing piece and the chased piece move during a chase, so their two squares identify
the whole position.
"""
from __future__ import annotations

from typing import Any

from bot.errors import IllegalAction
from bot.games.stratego.board import adjacent

Shuttle = list[Any] | None
Chase = dict[str, Any] | None


def check_two_squares(shuttle: Shuttle, src: str, dst: str, attack: bool, limit: int) -> None:
    if attack or shuttle is None:
        return
    if src == shuttle[1] and dst == shuttle[0] and shuttle[2] + 1 > limit:
        raise IllegalAction("stratego.error.two_squares", topic="two-squares", limit=limit,
                            from_square=src, to_square=dst)


def next_shuttle(shuttle: Shuttle, src: str, dst: str, attack: bool) -> Shuttle:
    if attack:
        return None
    if shuttle is not None and src == shuttle[1] and dst == shuttle[0]:
        return [src, dst, shuttle[2] + 1]
    return [src, dst, 1]


def _position(chaser_square: str, chased_square: str) -> str:
    return f"{chaser_square}>{chased_square}"


def check_chase(chase: Chase, seat: int, src: str, dst: str, attack: bool) -> None:
    if attack or chase is None or chase["chaser"] != seat or not chase["evaded"]:
        return
    target = chase["targets"][0]
    if src != chase["piece"] or not adjacent(dst, target) or dst == chase["prev"]:
        return
    if _position(dst, target) in chase["seen"]:
        raise IllegalAction("stratego.error.chasing", topic="chasing", from_square=src, to_square=dst)


def next_chase(chase: Chase, seat: int, src: str, dst: str, attack: bool,
               threatened: list[str]) -> Chase:
    """The chase after ``seat`` moved src -> dst; ``threatened`` are the enemy pieces next to dst."""
    if attack:
        return None
    if chase is not None:
        if chase["chaser"] != seat and src in chase["targets"]:
            # An evasion: remember the position the chasing move had made.
            seen = [*chase["seen"], _position(chase["piece"], src)]
            return {**chase, "targets": [dst], "seen": seen, "evaded": True}
        if (chase["chaser"] == seat and chase["evaded"] and src == chase["piece"]
                and adjacent(dst, chase["targets"][0])):
            return {**chase, "piece": dst, "prev": src, "evaded": False}
    if threatened:
        return {"chaser": seat, "piece": dst, "prev": src, "targets": sorted(threatened), "seen": [],
                "evaded": False}
    return None
