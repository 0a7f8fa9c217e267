"""Our exceptions. Every user-facing one carries an i18n key and parameters, never prose."""
from __future__ import annotations

from typing import Any


class GameMasterError(Exception):
    """Base of every error the bot turns into a user-facing message."""

    key = "error.generic"

    def __init__(self, key: str | None = None, /, *, topic: str | None = None, **params: Any) -> None:
        self.key = key or type(self).key
        self.params = params
        self.topic = topic  # a /rules topic id that explains the refusal, if any
        self.names: list[str] = []  # the table's player names, for params that hold seats
        super().__init__(f"{self.key} {params}" if params else self.key)


class InvalidAction(GameMasterError):
    """The action text cannot be parsed at all."""

    key = "error.invalid_action"


class IllegalAction(GameMasterError):
    """The action is well-formed but breaks a rule. ``key`` names the rule (a catalog key)."""

    key = "error.illegal_action"


class NotYourTurn(GameMasterError):
    key = "error.not_your_turn"


class InvalidOption(GameMasterError):
    key = "error.invalid_option"


class NotFound(GameMasterError):
    key = "error.no_game"


class Forbidden(GameMasterError):
    """The user may not do this (not seated, not the creator, ...)."""

    key = "error.forbidden"


class Conflict(GameMasterError):
    """Lost an optimistic-concurrency race or acted on a stale view: the game moved on."""

    key = "error.stale"


class AlreadyApplied(GameMasterError):
    """The same interaction (a slash command delivered twice) already made its move."""

    key = "game.already_applied"


class StorageDamaged(GameMasterError):
    """SQLite found damaged pages while reading or writing a game: the move is refused, the game is
    left as it is, and the operator's log names the game (``game_id``) and SQLite's words."""

    key = "error.storage_damaged"

    def __init__(self, detail: str) -> None:
        super().__init__()
        self.detail = detail
        self.game_id: int | None = None


class StorageFull(GameMasterError):
    """The database's disk (SQLite) or server (PostgreSQL) is out of space: the change is refused and
    rolled back whole, and works again once there is room (issue #27.7)."""

    key = "error.storage_full"

    def __init__(self, detail: str) -> None:
        super().__init__()
        self.detail = detail
