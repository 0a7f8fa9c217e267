"""Loaded game states, parsed once per move, and what each seat sees of them.

A state is parsed from its snapshot at most once per (game id, version): readers (observing,
legal actions, who must act) share the cached object and must not change it; a move takes the
object out of the cache (so nobody else sees it change), applies to it and, once committed, puts
the new state back under the new version together with every seat's private view, which is the
"before" of the next move. Observations are computed once per (game id, version, seat) and shared
by every reader (the mover's reply, the board, the DMs), who must not change them either.
"""
from __future__ import annotations

from collections import OrderedDict
from typing import Any

from bot.engine.core import Game
from bot.storage.games import GameRow

SEEN_SIZE = 256  # versions whose observations are kept (a few KB per seat)
Privates = list[tuple[str, bool]]  # each seat's private view (JSON) and whether it must act


class StateCache:
    def __init__(self, size: int = 4096) -> None:
        self.size = size
        self._items: OrderedDict[tuple[int, int], tuple[Any, Privates | None]] = OrderedDict()
        # observations by seat, for the versions read lately (a move's reply, board and DMs follow it)
        self._seen: OrderedDict[tuple[int, int], dict[int | None, dict[str, Any]]] = OrderedDict()
        self.parsed = 0  # how many snapshots were parsed (benchmarks and tests read it)

    def _parse(self, game: Game[Any], record: GameRow) -> Any:
        self.parsed += 1
        return game.load(record.state or {})

    def view(self, game: Game[Any], record: GameRow) -> Any:
        """The state of ``record`` to read, never to change."""
        key = (record.id, record.version)
        entry = self._items.get(key)
        if entry is not None:
            self._items.move_to_end(key)
            return entry[0]
        state = self._parse(game, record)
        self._store(key, state, None)
        return state

    def observation(self, game: Game[Any], record: GameRow, seat: int | None) -> dict[str, Any]:
        """What ``seat`` (None: everyone) sees of ``record``'s state, computed once."""
        key = (record.id, record.version)
        state = self.view(game, record)
        seen = self._seen.setdefault(key, {})
        self._remember(key)
        if seat not in seen:
            seen[seat] = game.observe(state, seat)
        return seen[seat]

    def take(self, game: Game[Any], record: GameRow) -> tuple[Any, Privates | None]:
        """The state of ``record`` to change (out of the cache), and its private views if known."""
        self._seen.pop((record.id, record.version), None)
        entry = self._items.pop((record.id, record.version), None)
        if entry is not None:
            return entry
        return self._parse(game, record), None

    def keep(self, record: GameRow, state: Any, privates: Privates | None = None,
             observations: dict[int | None, dict[str, Any]] | None = None) -> None:
        """``state`` is what ``record`` (just committed) holds now; ``observations`` what the seats
        see of it, when already computed."""
        key = (record.id, record.version)
        self._store(key, state, privates)
        if observations:
            self._seen[key] = dict(observations)
            self._remember(key)

    def _remember(self, key: tuple[int, int]) -> None:
        self._seen.move_to_end(key)
        while len(self._seen) > SEEN_SIZE:
            self._seen.popitem(last=False)

    def _store(self, key: tuple[int, int], state: Any, privates: Privates | None) -> None:
        self._items[key] = (state, privates)
        self._items.move_to_end(key)
        while len(self._items) > self.size:
            self._items.popitem(last=False)
