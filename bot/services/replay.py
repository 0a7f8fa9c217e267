"""Replays: a game's board after each move in force, for the replay viewer and the animation.

A frame is the position after ``number`` moves in force (``movelog.in_force``: moves an undo took
back are left out; frame 0 is the start). While the game runs a frame holds only what everyone
sees (``observe(state, None)``) and its public events, and the replay never goes past the current
move. Once the game has ended (its seed is revealed then) a frame shows everything: every seat's
private view comes with it (``Frame.privates``), ``revealed`` folds into the board what the game's
renderer can draw (a finished Stratego shows every rank) and ``hidden_items`` names the rest
(the cards in each hand, a thief's stashes) for the text under the board.

Everything here is pure apart from ``load``, which reads the game and its moves from the store::

    replay = await load(service, game_id)          # NotFound for a lobby or unknown game
    frame = replay.frame(12)                       # the board after move 12 (a Frame)
    for frame in replay.frames(pick(replay.total, 100)):   # at most 100 evenly spread frames
        ...
"""
from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from bot.engine import registry
from bot.engine.core import Event, Game
from bot.errors import IllegalAction, NotFound
from bot.services.movelog import CLOSE, RESIGN, UNDO, in_force
from bot.services.seats import namer
from bot.storage import seats as seats_repo

if TYPE_CHECKING:
    from bot.services.table import GameService

ENDED = ("finished", "aborted")  # statuses whose seed is revealed: the replay shows everything


@dataclass(frozen=True)
class Frame:
    """The position after ``number`` of ``total`` moves in force."""

    number: int
    total: int
    seat: int | None  # who made move ``number`` (None for the start; -1 is the table's clock)
    action: str | None  # its canonical text (None for the start)
    events: tuple[Event, ...]  # what the move told everyone (everything once the game has ended)
    observation: dict[str, Any]  # what the board shows: public while running, revealed once ended
    privates: tuple[dict[str, Any] | None, ...] | None = None  # each seat's private view; ended only


@dataclass(frozen=True)
class Replay:
    """A game's replay: its seed, options and the moves in force. ``ended``: show everything."""

    game_id: int
    game: str
    players: int
    options: Mapping[str, Any]
    seed: str
    moves: tuple[tuple[int, str], ...]
    ended: bool
    names: tuple[str, ...] = field(default=())
    # the players' names when each move in force was made, where seats changed hands during the
    # game (/game replace, /game sitter; empty: ``names`` throughout)
    names_then: tuple[tuple[str, ...], ...] = field(default=())

    @property
    def total(self) -> int:
        return len(self.moves)

    def names_at(self, number: int) -> tuple[str, ...]:
        """Who held each seat when move ``number`` (1-based; 0: the start) was made."""
        if not self.names_then or not 0 < number <= len(self.names_then):
            return self.names if not self.names_then or number else self.names_then[0]
        return self.names_then[number - 1]

    def frame(self, number: int) -> Frame:
        """The frame after ``number`` moves; IllegalAction ``replay.error.range`` outside 0..total."""
        if not 0 <= number <= self.total:
            raise IllegalAction("replay.error.range", number=number, total=self.total)
        return next(self.frames([number]))

    def frames(self, numbers: Iterable[int] | None = None) -> Iterator[Frame]:
        """The frames at ``numbers`` (every one when None) in increasing order, replaying once."""
        return frames(registry.get(self.game), self.players, self.options, self.seed, self.moves,
                      reveal=self.ended, numbers=numbers)


async def load(service: GameService, game_id: int) -> Replay:
    """The replay of a stored game (NotFound for an unknown game or one not started yet)."""
    record = await service.get(game_id)
    if record.state is None or record.status == "lobby":
        raise NotFound("error.not_started")
    rows = await service.moves(game_id)
    moves = in_force([(seat, action) for _, seat, action, _ in rows])
    async with service.db.reading() as conn:
        holders = await seats_repo.holders(conn, game_id)
    names_then: tuple[tuple[str, ...], ...] = ()
    if holders:  # seats changed hands: each move names whoever held the seats then
        name = namer(record, holders, record.locale)
        plies = plies_in_force(rows)
        names_then = tuple(tuple(name(seat, ply) for seat in range(len(record.seats))) for ply in plies)
    return Replay(record.id, record.game, len(record.seats), dict(record.options), record.seed, tuple(moves),
                  record.status in ENDED, tuple(record.names), names_then)


def plies_in_force(rows: Sequence[tuple[int, int, str, str]]) -> list[int]:
    """The plies of the moves in force (as ``in_force`` keeps them), in order."""
    kept: list[int] = []
    for ply, _, action, _ in rows:
        if action.startswith(UNDO + " "):
            del kept[len(kept) - int(action.split()[1]):]
        else:
            kept.append(ply)
    return kept


def frames(game: Game[Any], players: int, options: Mapping[str, Any], seed: str,
           moves: Sequence[tuple[int, str]], *, reveal: bool, numbers: Iterable[int] | None = None) -> Iterator[Frame]:
    """Replay ``moves`` (already in force) from the seed and yield the frames at ``numbers``.

    ``reveal`` False: the public observation and public events only (a running game);
    True: everything (an ended game)."""
    total = len(moves)
    wanted = sorted({n for n in (range(total + 1) if numbers is None else numbers) if 0 <= n <= total})
    if not wanted:
        return
    state = game.new(players, options, seed)
    events: list[Event] = []
    done = 0
    for number in wanted:
        while done < number:
            events = _apply(game, state, *moves[done])
            done += 1
        last: tuple[int | None, str | None] = moves[number - 1] if number else (None, None)
        yield _frame(game, state, number, total, *last, [] if number == 0 else events, players, reveal)


def _apply(game: Game[Any], state: Any, seat: int, action: str) -> list[Event]:
    if action == RESIGN:
        return game.resign(state, seat)
    if action == CLOSE:
        return game.close(state) or []
    return game.apply(state, seat, game.parse_action(action))


def _frame(game: Game[Any], state: Any, number: int, total: int, seat: int | None, action: str | None,
           events: list[Event], players: int, reveal: bool) -> Frame:
    public = game.observe(state, None)
    if not reveal:
        return Frame(number, total, seat, action, tuple(e for e in events if e.visible_to is None), public)
    privates = tuple(game.observe(state, s)["private"] for s in range(players))
    return Frame(number, total, seat, action, tuple(events), revealed(game.name, public, privates), privates)


def pick(total: int, limit: int) -> list[int]:
    """At most ``limit`` (≥ 2) frame numbers of 0..total, evenly spread, the start and the end kept."""
    if total + 1 <= limit:
        return list(range(total + 1))
    limit = max(2, limit)
    return sorted({round(i * total / (limit - 1)) for i in range(limit)})


# ----------------------------------------------------------------------------- showing everything
def revealed(game: str, observation: dict[str, Any], privates: Sequence[dict[str, Any] | None]) -> dict[str, Any]:
    """The public observation with what the board can show of every private view (ended games
    only): the game's plugin entry's reveal hook."""
    reveal = registry.plugin(game).reveal
    if reveal is None:
        return observation
    return {**observation, "public": reveal(observation["public"], privates)}


def hidden_items(game: str, private: dict[str, Any] | None) -> list[str]:
    """What a seat kept hidden that the board does not show, as short tokens: the cards in its
    hand (canonical card texts), a thief's stashes ("B4 3000"); the plugin entry's hidden hook.
    Empty when there is nothing."""
    if not private:
        return []
    return registry.plugin(game).hidden(private)


__all__ = ["Frame", "Replay", "load", "frames", "pick", "revealed", "hidden_items", "ENDED"]


def events(replay: Replay) -> Iterator[tuple[int, list[Event]]]:
    """Every move's events in order, as (seat, events), replayed from the seed without drawing a
    single observation (the luck report). All events, hidden ones included: only for an ended game."""
    game = registry.get(replay.game)
    state = game.new(replay.players, replay.options, replay.seed)
    for seat, action in replay.moves:
        yield seat, _apply(game, state, seat, action)


def played_by_computers(game_name: str, players: int, options: Mapping[str, Any], seed: str, *,
                        cap: int = 6000, level: str = "easy") -> Replay:
    """A whole seeded game played by the computer players at ``level`` (each move by the first
    seat that acts or watches and has a legal action), as an ended replay: for benchmarks and
    tests of what comes after a game. Stops after ``cap`` moves."""
    game = registry.get(game_name)
    resolved = game.resolve_options(dict(options))
    state = game.new(players, resolved, seed)
    moves = []
    for ply in range(cap):
        if game.outcome(state) is not None:
            break
        seat = sorted(game.watchers(state) | game.to_act(state))[0]
        legal = list(game.legal_actions(state, seat))
        if not legal:
            seat = sorted(game.to_act(state))[0]
            legal = list(game.legal_actions(state, seat))
        action = registry.computer(game_name, level)(state, seat, legal, registry.computer_rng(seed, ply, seat))
        game.apply(state, seat, action)
        moves.append((seat, str(action)))
    return Replay(1, game_name, players, resolved, seed, tuple(moves), True, tuple(f"P{i}" for i in range(players)))
