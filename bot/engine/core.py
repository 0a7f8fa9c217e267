"""The engine protocol (DESIGN §2): a Game is immutable rules; a state is one position.

Engines are pure: no discord, no I/O, no clock, no global random (use ``bot.engine.rng.Rng`` kept
inside the state). The service applies every action on a fresh copy (``load(dump(state))``), so
an exception never changes stored state.
"""
from __future__ import annotations

import json
from abc import ABC, abstractmethod
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any, ClassVar, Generic, TypeVar

from bot.engine.rng import Rng
from bot.errors import GameMasterError, IllegalAction, InvalidOption

Seat = int
S = TypeVar("S")
# The table's clock as a "seat": the service applies a timer action (Game.timer_action,
# Game.time_limit) as this seat. It is no player's move: no player's action can use it.
TIMER: Seat = -1


@dataclass(frozen=True)
class Event:
    """Something that happened. ``key`` is an i18n catalog key, ``params`` its placeholders.

    ``visible_to`` None means everyone may see it; otherwise only those seats (hidden info).
    Parameters named ``seat``/``target``/``winner`` (ints) are turned into player names by the
    service before translation.
    """

    key: str
    params: Mapping[str, Any] = field(default_factory=dict)
    visible_to: frozenset[Seat] | None = None


@dataclass(frozen=True)
class Outcome:
    """The end of a game: ``places`` lists seats by finishing place (ties share a tuple)."""

    places: tuple[tuple[Seat, ...], ...]
    reason: str  # i18n key, e.g. "tolp.end.rounds"
    scores: Mapping[Seat, int] = field(default_factory=dict)

    @property
    def winners(self) -> tuple[Seat, ...]:
        return self.places[0] if self.places else ()


@dataclass(frozen=True)
class Luck:
    """One piece of luck an event shows (``Game.luck``): ``dice`` dice rolled by ``seat`` with the
    sum ``value``, or a card drawn that was ``good`` or ``bad`` for the seat."""

    seat: Seat
    kind: str  # "dice", "good" or "bad"
    value: int = 0  # the dice's sum
    dice: int = 0  # how many six-sided dice


@dataclass(frozen=True)
class OptionSpec:
    """A game option shown in /game new and explained in the rules text."""

    name: str
    default: Any
    choices: tuple[Any, ...] | None = None  # allowed values (None: any of the default's type)
    minimum: int | None = None
    maximum: int | None = None
    description_key: str = ""
    time: bool = False  # a UTC date and time ("" = none), stored as "YYYY-MM-DDTHH:MMZ"

    def coerce(self, raw: Any) -> Any:
        if self.time:
            return utc_time_option(self.name, raw)
        kind = type(self.default) if self.default is not None else str
        if self.choices is not None:
            for choice in self.choices:
                if str(choice).lower() == str(raw).lower():
                    return choice
            raise InvalidOption("error.option_choice", option=self.name, value=str(raw),
                                choices=", ".join(str(c) for c in self.choices))
        try:
            if kind is bool:
                if isinstance(raw, bool):
                    return raw
                text = str(raw).strip().lower()
                if text in {"1", "true", "yes", "on", "ja", "ano"}:
                    return True
                if text in {"0", "false", "no", "off", "nej", "nei", "ne"}:
                    return False
                raise ValueError(raw)
            value = kind(raw)
        except (TypeError, ValueError):
            raise InvalidOption("error.option_type", option=self.name, value=str(raw)) from None
        if isinstance(value, int) and not isinstance(value, bool):
            if (self.minimum is not None and value < self.minimum) or (
                self.maximum is not None and value > self.maximum
            ):
                raise InvalidOption("error.option_range", option=self.name, value=str(raw),
                                    minimum=self.minimum, maximum=self.maximum)
        return value


def utc_time_option(name: str, raw: Any) -> str:
    """A date and time typed by a player ("2026-12-24 18:00", "2026-12-24T18:00+01:00"; no zone
    means UTC) as canonical UTC text; "", "none" or "off" mean no time."""
    text = str(raw or "").strip()
    if text.lower() in ("", "none", "off", "-"):
        return ""
    try:
        moment = datetime.fromisoformat(text.replace(" ", "T", 1).removesuffix("Z").removesuffix("z"))
    except ValueError:
        raise InvalidOption("error.option_time", option=name, value=text[:40]) from None
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    return moment.astimezone(UTC).strftime("%Y-%m-%dT%H:%MZ")


class Game(ABC, Generic[S]):
    """Rules and metadata of one game. Subclasses are registered in ``bot.engine.registry``."""

    name: ClassVar[str]
    min_players: ClassVar[int]
    max_players: ClassVar[int]
    options: ClassVar[tuple[OptionSpec, ...]] = ()
    FORMAT_VERSION: ClassVar[int] = 1
    # Languages of this game's rules text besides English (e.g. ("sv",)).
    rules_languages: ClassVar[tuple[str, ...]] = ("en",)
    # Default hours per turn (a server default or /game new overrides it); quick card games less.
    turn_hours: ClassVar[float] = 24.0
    # How long a computer seat waits for a human's out-of-turn right (``waits_for``).
    window_seconds: ClassVar[int] = 120
    # Options that make a seeded random playout finish (conformance suite), and its length cap.
    playout_options: ClassVar[Mapping[str, Any]] = {}
    max_playout_actions: ClassVar[int] = 5000

    # ------------------------------------------------------------------ options
    def resolve_options(self, raw: Mapping[str, Any] | None, players: int | None = None) -> dict[str, Any]:
        """Fill defaults and validate; raises InvalidOption for unknown names or bad values."""
        raw = dict(raw or {})
        specs = {spec.name: spec for spec in self.options}
        unknown = sorted(set(raw) - set(specs))
        if unknown:
            raise InvalidOption("error.option_unknown", option=unknown[0],
                                known=", ".join(specs) or "-")
        return {name: (spec.coerce(raw[name]) if name in raw else spec.default)
                for name, spec in specs.items()}

    def check_players(self, players: int, options: Mapping[str, Any]) -> None:
        """Raise IllegalAction if ``players`` cannot play with these options."""
        if not self.min_players <= players <= self.max_players:
            raise IllegalAction("error.player_count", game=self.name, count=players,
                                minimum=self.min_players, maximum=self.max_players)

    # ---------------------------------------------------------------- lifecycle
    @abstractmethod
    def new(self, players: int, options: Mapping[str, Any], seed: str) -> S:
        """A fresh state for ``players`` seats (0..players-1) with resolved options."""

    @abstractmethod
    def dump(self, state: S) -> dict[str, Any]:
        """JSON-able snapshot (must round-trip through ``load`` exactly)."""

    @abstractmethod
    def load(self, data: Mapping[str, Any]) -> S:
        ...

    def copy(self, state: S) -> S:
        return self.load(json.loads(json.dumps(self.dump(state))))

    # -------------------------------------------------------------------- turns
    @abstractmethod
    def to_act(self, state: S) -> frozenset[Seat]:
        """Seats that may act now (more than one: simultaneous decisions). Empty when over."""

    @abstractmethod
    def legal_actions(self, state: S, seat: Seat) -> Iterable[Any]:
        """Legal actions of ``seat`` now (may include out-of-turn ones). Lazy where huge."""

    @abstractmethod
    def parse_action(self, text: str) -> Any:
        """Canonical string -> action; raises InvalidAction. ``str(action)`` inverts it."""

    @abstractmethod
    def apply(self, state: S, seat: Seat, action: Any) -> list[Event]:
        """Validate, then mutate ``state``. Raises NotYourTurn / IllegalAction before mutating."""

    def is_legal(self, state: S, seat: Seat, action: Any) -> bool:
        """Whether ``apply`` would accept ``action`` for ``seat`` now; ``state`` is not changed.
        Default: apply it to a copy. A game whose actions are too many to list (Monopol's bids,
        builds and trades) answers it without copying."""
        try:
            self.apply(self.copy(state), seat, action)
        except GameMasterError:
            return False
        return True

    @abstractmethod
    def observe(self, state: S, seat: Seat | None) -> dict[str, Any]:
        """JSON-able view for ``seat`` (None = public). The only door for hidden information."""

    @abstractmethod
    def outcome(self, state: S) -> Outcome | None:
        ...

    def resign(self, state: S, seat: Seat) -> list[Event]:
        """The seat gives up. Default: the game ends, the resigning seat last, the rest tied."""
        raise NotImplementedError

    def scramble_hidden(self, state: S, viewer: Seat | None, rng: Rng) -> S | None:
        """A copy with everything hidden from ``viewer`` re-dealt at random (tests only).

        None means the game has no hidden information to scramble."""
        return None

    def close(self, state: S) -> list[Event] | None:
        """End an open-ended game with its standings when the table ends it (Tölp's endless
        scoring). None: the game has no standings to keep and is simply aborted."""
        return None

    def watchers(self, state: S) -> frozenset[Seat]:
        """Seats not in ``to_act`` that should be told they may act now (a Monopol owner who can
        claim rent before the next roll). They are mentioned, but no clock runs for them."""
        return frozenset()

    def luck(self, event: Event) -> tuple[Luck, ...]:
        """What luck ``event`` shows (a roll of the dice, a good or bad card), for the luck report
        at the end (bot/services/luck.py). Default: a game without dice or draws shows none."""
        return ()

    def opening_events(self, state: S) -> list[Event]:
        """What the table is told when the game starts (who leads, with which card)."""
        return []

    def skip_action(self, state: S, seat: Seat) -> Any | None:
        """What skipping a timed-out seat's turn means, or None when the game cannot skip it.
        Default: a legal "pass" or "end" action."""
        for action in self.legal_actions(state, seat):
            if str(action) in ("pass", "end"):
                return action
        return None

    def timer_action(self, state: S) -> tuple[int, Seat, Any] | None:
        """(seconds, seat, action): when nothing has happened for that long, the service applies
        the action for that seat (usually ``TIMER``: a Monopol auction closing on its timer).
        None: no timer."""
        return None

    def time_limit(self, state: S) -> tuple[str, Seat, Any] | None:
        """(when, seat, action): once the UTC time ``when`` (ISO text, e.g. an ``end_time``
        option) has passed, the service applies the action. The engine never reads a clock:
        it only names the agreed time. None: no such time."""
        return None

    def waits_for(self, state: S) -> frozenset[Seat]:
        """Seats outside ``to_act`` whose out-of-turn right the next move of ``to_act`` would end
        (a Monopol owner's rent claim lapses at the next roll). The service lets a computer seat
        make that move only once those seats acted or ``window_seconds`` passed."""
        return frozenset()

    # ------------------------------------------------------------- convenience
    def is_over(self, state: S) -> bool:
        return self.outcome(state) is not None
