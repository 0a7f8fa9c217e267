"""A tiny game for service and storage tests: players take turns adding 1-3; reaching 21 wins.
Each seat also holds a secret number (hidden information) and dice come from the seeded Rng."""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from bot.engine.core import Event, Game, OptionSpec, Outcome
from bot.engine.rng import Rng
from bot.errors import IllegalAction, InvalidAction, NotYourTurn


@dataclass
class ToyState:
    players: int
    total: int
    turn: int
    secrets: list[int]
    rng: Rng
    target: int
    winner: int | None = None
    resigned: list[int] = field(default_factory=list)


@dataclass(frozen=True)
class Add:
    amount: int

    def __str__(self) -> str:
        return f"add {self.amount}"


class ToyGame(Game[ToyState]):
    name = "toy"
    min_players = 2
    max_players = 4
    options = (OptionSpec("target", 21, minimum=5, maximum=100),)

    def new(self, players: int, options: Mapping[str, Any], seed: str) -> ToyState:
        rng = Rng(seed)
        return ToyState(players, 0, 0, [rng.die(100) for _ in range(players)], rng, int(options["target"]))

    def dump(self, state: ToyState) -> dict[str, Any]:
        return {"players": state.players, "total": state.total, "turn": state.turn, "secrets": state.secrets,
                "rng": state.rng.dump(), "target": state.target, "winner": state.winner,
                "resigned": state.resigned}

    def load(self, data: Mapping[str, Any]) -> ToyState:
        return ToyState(data["players"], data["total"], data["turn"], list(data["secrets"]),
                        Rng.load(data["rng"]), data["target"], data["winner"], list(data["resigned"]))

    def to_act(self, state: ToyState) -> frozenset[int]:
        return frozenset() if state.winner is not None else frozenset({state.turn})

    def legal_actions(self, state: ToyState, seat: int) -> list[Add]:
        return [Add(n) for n in (1, 2, 3)] if seat in self.to_act(state) else []

    def parse_action(self, text: str) -> Add:
        parts = text.split()
        if len(parts) != 2 or parts[0] != "add" or not parts[1].isdigit():
            raise InvalidAction()
        return Add(int(parts[1]))

    def apply(self, state: ToyState, seat: int, action: Add) -> list[Event]:
        if seat not in self.to_act(state):
            raise NotYourTurn()
        if not 1 <= action.amount <= 3:
            raise IllegalAction("toy.error.range", amount=action.amount)
        state.total += action.amount
        events = [Event("toy.event.added", {"seat": seat, "amount": action.amount})]
        if state.total >= state.target:
            state.winner = seat
        else:
            state.turn = (state.turn + 1) % state.players
            state.secrets[state.turn] = state.rng.die(100)
        return events

    def observe(self, state: ToyState, seat: int | None) -> dict[str, Any]:
        return {"game": self.name, "seat": seat, "public": {"total": state.total, "to_act": sorted(self.to_act(state))},
                "private": None if seat is None else {"secret": state.secrets[seat]}}

    def outcome(self, state: ToyState) -> Outcome | None:
        if state.winner is None:
            return None
        rest = tuple(s for s in range(state.players) if s != state.winner)
        return Outcome(((state.winner,), rest), "toy.end")

    def resign(self, state: ToyState, seat: int) -> list[Event]:
        state.winner = (seat + 1) % state.players
        return []
