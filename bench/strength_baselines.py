"""The opponents the strength benchmark measures the computer levels against: a uniformly random
player, and a casual greedy player per game that sees only its own observation (what the seat's
``observe`` holds) and grabs the best-looking thing now, with no plan.

They are benchmark players, not levels: nobody sits down against them in Discord."""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

from bot.engine import registry
from bot.engine.rng import Rng
from bot.games.monopol import rules as monopol_rules
from bot.games.monopol.actions import Bid, Buildings, Simple
from bot.games.monopol.board import SQUARES
from bot.games.stratego.actions import Move
from bot.games.stratego.board import coords
from bot.games.stratego.pieces import Result, attack
from bot.games.tolp.actions import Give, Play
from bot.games.tolp.combos import combination_of
from bot.games.zlodej.actions import Discard, EndTurn, Steal, TakeDiscard
from bot.games.zlodej.state import card_value

Player = Callable[[Any, int, list[Any], Rng], Any]


def random_player(state: Any, seat: int, legal: list[Any], rng: Rng) -> Any:
    return rng.choice(legal)


def _tolp(state: Any, seat: int, legal: list[Any], rng: Rng) -> Any:
    """Lay the lowest thing that fits (fewest wild cards), pass only with nothing to lay."""

    wild = state.wild()
    gives = [a for a in legal if isinstance(a, Give)]
    if gives:
        return min(gives, key=lambda g: sorted((c.rank for c in g.cards), reverse=True))
    plays = [a for a in legal if isinstance(a, Play)]
    if plays:
        return min(plays, key=lambda p: (combination_of(p.cards, wild).wilds, combination_of(p.cards, wild).rank))
    return legal[0]


def _zlodej(state: Any, seat: int, legal: list[Any], rng: Rng) -> Any:
    """Take the most points on offer now; end the turn or throw the lowest card otherwise."""

    def gain(action: Any) -> int:
        cards = getattr(action, "cards", ())
        points = sum(card_value(c) for c in cards)
        if isinstance(action, Steal):
            points += sum(card_value(c) for c in state.open_piles[action.target][-1])
        elif isinstance(action, TakeDiscard):
            points += card_value(state.discard[-1])
        return points

    lays = [a for a in legal if not isinstance(a, Discard | EndTurn)]
    if lays:
        return max(lays, key=gain)
    if EndTurn() in legal:
        return EndTurn()
    return min((a for a in legal if isinstance(a, Discard)), key=lambda d: (card_value(d.card), d.card))


def _monopol(state: Any, seat: int, legal: list[Any], rng: Rng) -> Any:
    """Buy whatever it lands on while it has the cash, bid up to the printed price, build whenever
    it can, accept a trade that pays at least the printed prices, and never offer one."""
    texts = {str(a): a for a in legal}
    if "accept" in texts:
        trade = monopol_rules.trade_of(state)
        value = trade.give.cash + sum(SQUARES[sq].price for sq in trade.give.deeds)
        cost = trade.get.cash + sum(SQUARES[sq].price for sq in trade.get.deeds)
        return texts["accept"] if value >= cost else texts["decline trade"]
    for wish in ("claim", "buy", "jail card"):
        if wish in texts:
            return texts[wish]
    if state.auction is not None and seat in monopol_rules.bidders(state):
        price = SQUARES[state.auction.square].price if state.auction.lot == "deed" else 100
        bids = [a for a in legal if isinstance(a, Bid) and a.amount <= min(price, state.cash[seat] - 50)]
        return min(bids, key=lambda b: b.amount) if bids else texts.get("pass", legal[0])
    builds = [a for a in legal if isinstance(a, Buildings) and a.verb == "build"]
    if builds and state.cash[seat] > 300:
        return builds[0]
    for wish in ("roll", "end", "pass"):
        if wish in texts:
            return texts[wish]
    simple = [a for a in legal if isinstance(a, Simple) and str(a) != "bankrupt"]
    return (simple or legal)[0]


def _stratego(state: Any, seat: int, legal: list[Any], rng: Rng) -> Any:
    """Capture a revealed weaker piece when it can, otherwise move forward at random."""

    moves = [a for a in legal if isinstance(a, Move)]
    if not moves:
        return legal[0]
    wins = []
    for m in moves:
        target = state.board.get(m.dst)
        if target is not None and target.revealed and attack(state.board[m.src].rank, target.rank) in (
                Result.WIN, Result.FLAG, Result.DEFUSE):
            wins.append(m)
    if wins:
        return rng.choice(wins)
    forward = 1 if seat == 0 else -1
    ahead = [m for m in moves if (coords(m.dst)[1] - coords(m.src)[1]) * forward > 0
             and not (state.board.get(m.dst) is not None and state.board[m.dst].revealed)]
    return rng.choice(ahead or moves)


BASELINES: dict[str, Player] = {"tolp": _tolp, "zlodej": _zlodej, "monopol": _monopol, "stratego": _stratego}


def greedy_player(game: str) -> Player:
    """The casual greedy player of ``game`` (the easy computer where no baseline is written)."""

    return BASELINES.get(game) or registry.computer(game, "easy")
