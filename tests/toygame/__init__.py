"""Toy, the worked example of docs/adding-a-game.md: players take turns adding 1-3 to a running
total; whoever reaches the target (21) wins. Each seat also holds a secret number (hidden
information) and dice come from the seeded Rng.

The package is laid out as a real game is: the engine here (``bot/games/<name>/engine.py`` in a
real game), its renderer in ``render.py`` (``rendering/<name>.py``), its cog in ``cog.py``
(``cogs/<name>.py``), its texts in ``locale/<lang>.json`` and its rules in ``rules/<lang>.md`` with
``rules/<lang>.keywords.txt`` (``bot/games/<name>/locale|rules``), and ``PLUGIN``, the one plugin
entry that names them all. Service and storage tests register the engine alone
(``registry.register(ToyGame())``); ``register()`` registers the whole game, and the toy is then
playable in Discord like the five real ones (tests/discord/test_toy_game.py)."""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bot.engine import registry
from bot.engine.core import Event, Game, OptionSpec, Outcome
from bot.engine.plugin import GamePlugin
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
    options = (OptionSpec("target", 21, minimum=5, maximum=100, description_key="toy.option.target"),)
    rules_languages = ("en", "sv", "nb", "cs")
    turn_hours = 1.0

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
            raise InvalidAction("toy.error.unreadable", text=text[:40])
        return Add(int(parts[1]))

    def apply(self, state: ToyState, seat: int, action: Add) -> list[Event]:
        if seat not in self.to_act(state):
            raise NotYourTurn()
        if not 1 <= action.amount <= 3:
            raise IllegalAction("toy.error.range", topic="play", number=action.amount)
        state.total += action.amount
        events = [Event("toy.event.added", {"seat": seat, "number": action.amount})]
        if state.total >= state.target:
            state.winner = seat
        else:
            state.turn = (state.turn + 1) % state.players
            state.secrets[state.turn] = state.rng.die(100)
        return events

    def observe(self, state: ToyState, seat: int | None) -> dict[str, Any]:
        public = {"players": state.players, "total": state.total, "target": state.target, "turn": state.turn,
                  "to_act": sorted(self.to_act(state)), "winner": state.winner}
        return {"game": self.name, "seat": seat, "public": public,
                "private": None if seat is None else {"secret": state.secrets[seat]}}

    def outcome(self, state: ToyState) -> Outcome | None:
        if state.winner is None:
            return None
        rest = tuple(s for s in range(state.players) if s != state.winner)
        return Outcome(((state.winner,), rest), "toy.end")

    def resign(self, state: ToyState, seat: int) -> list[Event]:
        state.winner = (seat + 1) % state.players
        return []

    def scramble_hidden(self, state: ToyState, viewer: int | None, rng: Rng) -> ToyState:
        """Every secret but the viewer's re-dealt (the conformance suite's leak check)."""
        copy = self.copy(state)
        copy.secrets = [s if seat == viewer else rng.die(100) for seat, s in enumerate(copy.secrets)]
        return copy


def easy(state: ToyState, seat: int, legal: list[Add], rng: Rng) -> Add:
    """The computer: any legal amount."""
    return rng.choice(legal)


def normal(state: ToyState, seat: int, legal: list[Add], rng: Rng) -> Add:
    """The computer that counts: reach the target if it can, else leave a multiple of four."""
    for action in legal:
        if state.total + action.amount >= state.target:
            return action
    for action in legal:
        if (state.target - state.total - action.amount) % 4 == 0:
            return action
    return legal[0]


# The one plugin entry: everything the shared code needs to know about Toy.
PLUGIN = GamePlugin(engine=ToyGame(), computers={"easy": easy, "normal": normal}, renderer="tests.toygame.render",
                    cog="tests.toygame.cog", home=Path(__file__).parent)


def register() -> GamePlugin:
    """Make Toy a game of the bot (tests; undo with ``registry.unregister("toy")``)."""
    return registry.register_plugin(PLUGIN)
