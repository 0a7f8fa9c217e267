"""One game as a JSON document (``/game export``) and its verification (``gamemaster replay FILE``).

The document holds what it takes to replay the game anywhere: the game and its engine's format,
the options, the seed, the players (display names and seat kinds, no Discord ids), every move in
the order it was made (moves later taken back stay, marked ``undone``, with the ``!undo N`` marker
after them) and the result, plus the SHA-256 of the final state the server stored. Verifying
replays the moves from the seed with the pure engine and checks both the result and that hash.

Only ended games are exported: while a game runs its seed is secret (it decides every die and
card still to come), so a running game is refused rather than exported without it."""
from __future__ import annotations

import hashlib
import json
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from bot.engine import registry
from bot.engine.core import Game
from bot.errors import Forbidden, GameMasterError, IllegalAction
from bot.services.core import outcome_to_dict
from bot.services.movelog import UNDO, apply_logged, replay, undone_plies
from bot.services.seats import namer
from bot.services.table import GameService
from bot.storage import seats as seats_repo
from bot.storage.games import GameRow
from bot.storage.seats import HolderRow

FORMAT = "gamemaster-game"
VERSION = 1
ENDED = ("finished", "aborted")


class ExportProblem(Exception):
    """A file that is not a valid export, or whose replay does not match it (a translation key)."""

    def __init__(self, key: str, **params: Any) -> None:
        super().__init__(key)
        self.key = key
        self.params = params


@dataclass
class Verified:
    game: Game[Any]
    state: Any
    data: dict[str, Any]

    @property
    def names(self) -> list[str]:
        return [str(p["name"]) for p in self.data["players"]]


def state_digest(dumped: Mapping[str, Any]) -> str:
    return hashlib.sha256(json.dumps(dumped, sort_keys=True, separators=(",", ":")).encode()).hexdigest()


def document(record: GameRow, moves: list[tuple[int, int, str, str]],
             holders: Sequence[HolderRow] = ()) -> dict[str, Any]:
    """The export of an ended game (its stored snapshot is the final state the hash covers). A
    game whose seats changed hands (``holders``) names who made each move (``by``) and lists the
    changes (``holders``: seat, from which ply, name, kind)."""
    if record.state is None:
        raise IllegalAction("error.not_started")
    if record.status not in ENDED:
        raise IllegalAction("export.error.running")
    undone = undone_plies(moves)
    by = namer(record, list(holders), "en") if holders else None
    changes = {"holders": [{"seat": h.seat, "from_ply": h.from_ply, "name": h.name, "kind": h.kind,
                            **({"sitting_for": h.owner_name} if h.owner_name else {})} for h in holders]
               } if holders else {}
    return {
        "format": FORMAT,
        "version": VERSION,
        "id": record.id,
        "game": record.game,
        "engine_format": registry.get(record.game).FORMAT_VERSION,
        "status": record.status,
        "options": record.options,
        "seed": record.seed,
        "players": [{"seat": s.seat, "name": s.name, "kind": "human" if s.user_id else "computer"}
                    for s in record.seats],
        "moves": [{"ply": ply, "seat": seat, "action": action, "at": at,
                   **({"by": by(seat, ply)} if by is not None and 0 <= seat < len(record.seats) else {}),
                   **({"undone": True} if ply in undone and not action.startswith(UNDO + " ") else {})}
                  for ply, seat, action, at in moves],
        **changes,
        "result": record.outcome,
        "final_state_sha256": state_digest(record.state),
    }


async def export(service: GameService, game_id: int, *, guild_id: str | None, user_id: str,
                 can_view: Callable[[str], Awaitable[bool]] | None = None) -> dict[str, Any]:
    """``/game export``: a game of this server whose channel the user can view (in a DM: one the
    user sat in)."""
    record = await service.get(game_id)
    elsewhere = record.guild_id != guild_id if guild_id is not None else record.seat_of(user_id) is None
    if elsewhere or (can_view is not None and not await can_view(record.channel_id)):
        raise Forbidden("export.error.elsewhere")
    async with service.db.reading() as conn:
        holders = await seats_repo.holders(conn, record.id)
    return document(record, await service.moves(record.id), holders)


def to_bytes(data: Mapping[str, Any]) -> bytes:
    return (json.dumps(data, ensure_ascii=False, indent=1) + "\n").encode()


def _require(condition: bool, what: str) -> None:
    if not condition:
        raise ExportProblem("export.file.malformed", what=what)


def verify(raw: bytes) -> Verified:
    """Replay an export from its seed; raises ExportProblem naming what is wrong."""
    try:
        data = json.loads(raw)
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise ExportProblem("export.file.not_json", detail=str(exc)) from exc
    _require(isinstance(data, dict) and data.get("format") == FORMAT, "format")
    if not isinstance(data.get("version"), int) or data["version"] > VERSION:
        raise ExportProblem("export.file.version", version=data.get("version"), supported=VERSION)
    _require(isinstance(data.get("game"), str) and data["game"] in registry.names(), "game")
    game = registry.get(data["game"])
    if data.get("engine_format") != game.FORMAT_VERSION:
        raise ExportProblem("export.file.engine_format", game=data["game"], found=data.get("engine_format"),
                            supported=game.FORMAT_VERSION)
    _require(isinstance(data.get("options"), dict), "options")
    _require(isinstance(data.get("seed"), str) and bool(data["seed"]), "seed")
    players = data.get("players")
    _require(isinstance(players, list) and all(isinstance(p, dict) and isinstance(p.get("name"), str)
                                               for p in players), "players")
    moves = data.get("moves")
    _require(isinstance(moves, list) and all(
        isinstance(m, dict) and isinstance(m.get("seat"), int) and isinstance(m.get("action"), str)
        and isinstance(m.get("ply"), int) for m in moves), "moves")
    _require(isinstance(data.get("final_state_sha256"), str), "final_state_sha256")
    rows = [(m["ply"], m["seat"], m["action"], "") for m in moves]
    marked = {m["ply"] for m in moves if m.get("undone")}
    undone = undone_plies(rows) - {ply for ply, _, action, _ in rows if action.startswith(UNDO + " ")}
    if marked != undone:
        raise ExportProblem("export.file.undone_marks")
    state = _replay(game, len(players), data["options"], data["seed"], rows)
    outcome = game.outcome(state)
    found = outcome_to_dict(outcome) if outcome is not None else None
    if _normal(found) != _normal(data.get("result")):
        raise ExportProblem("export.file.result_differs", expected=json.dumps(data.get("result")),
                            found=json.dumps(found))
    if state_digest(game.dump(state)) != data["final_state_sha256"]:
        raise ExportProblem("export.file.state_differs")
    return Verified(game, state, data)


def _normal(value: Any) -> str:
    return json.dumps(value, sort_keys=True)


def _replay(game: Game[Any], players: int, options: dict[str, Any], seed: str,
            rows: list[tuple[int, int, str, str]]) -> Any:
    """The final state; a move the rules refuse (or that cannot be read) names its ply."""
    try:
        game.check_players(players, options)
        state = game.new(players, options, seed)
    except (GameMasterError, ValueError, KeyError, TypeError) as exc:
        raise ExportProblem("export.file.setup", detail=_detail(exc)) from exc
    done: list[tuple[int, str]] = []
    for ply, seat, action, _ in rows:
        done.append((seat, action))
        try:
            if action.startswith(UNDO + " "):  # taken back: the moves still in force, from the seed
                state = replay(game, players, options, seed, done)
            else:
                apply_logged(game, state, seat, action)
        except (GameMasterError, ValueError, KeyError, TypeError, IndexError) as exc:
            raise ExportProblem("export.file.bad_move", ply=ply, action=action, detail=_detail(exc)) from exc
    return state


def _detail(exc: Exception) -> str:
    return str(exc) if isinstance(exc, GameMasterError) else f"{type(exc).__name__}: {exc}"
