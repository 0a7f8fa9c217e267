"""Tjuv och Polis game state: pieces, money, turn and phase, with its JSON form.

Inside the state, role 0 is the police player and role n (1..6) a thief whose piece is "T<n>";
the table seat playing role r is ``(r + police_seat) % players`` (the engine translates at its
edges, so with the default ``police_seat`` 0 roles and seats are the same). Police pieces are
"P1".."Pk" and the radio car "C". A piece's square is a map square, "house" (inside the police
house but off the grid: jailed thieves, guards set free, thieves let out) or None (gone).
Money is kept in whole kronor; the bank pays and receives without limit and both totals are kept
so the money can be audited.

Rules format (``TjuvState.format``): games begun in format 1 (before the setup choices, the
two-square radio car and the police's choice of arrester) play on by their own rules, so their
move logs replay from the seed. Their snapshots keep the format-1 shape (no ``pending``, no car
``tail``); the format is read from the shape: a format-1 car stands on the map without a tail, a
format-2 car is either not yet placed or has one.
"""
from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

from bot.engine.rng import Rng

HOUSE = "house"
CAR = "C"

# Thief statuses
FREE, JAIL, ESCAPING, ESCAPED, OUT = "free", "jail", "escaping", "escaped", "out"
# Police piece statuses
GUARD = "guard"


@dataclass
class Police:
    id: str
    at: str | None
    status: str = FREE  # free, guard (off the grid guarding a prisoner) or out
    stay: int = 0  # police turns ended in a row on a telegraph or in front of an escape square
    heading: str = ""  # the radio car's last direction of travel (N, E, S, W)
    tail: str = ""  # the radio car's second square, behind ``at`` (its front); "" for policemen


@dataclass
class Thief:
    seat: int
    at: str | None
    status: str = FREE
    wanted: bool = False
    money: int = 0
    stashes: dict[str, int] = field(default_factory=dict)  # nest -> amount (hidden)
    sentence: int = 0  # own turns still to sit in jail
    arrests: int = 0
    guard: str = ""  # the policeman guarding him in jail

    @property
    def id(self) -> str:
        return f"T{self.seat}"

    @property
    def active(self) -> bool:
        return self.status in (FREE, JAIL, ESCAPING)


@dataclass
class TjuvState:
    players: int
    rng: Rng
    max_rounds: int
    police: list[Police]  # policemen first, the radio car last
    thieves: list[Thief]  # thieves[i] is seat i + 1
    police_money: int = 0
    agency: int = 0  # fares held by the travel agency
    bank_paid: int = 0
    bank_received: int = 0
    turn: int = 0
    # nests (setup: each thief in seat order chooses his starting nest), car (setup: the police
    # place the radio car), start (roll or ride), move (after the roll), nest (after entering a nest)
    phase: str = "start"
    roll: int = 0  # the roll to move now (0 outside the move phase)
    last_roll: int = 0
    round: int = 1
    tram: dict[str, str] = field(default_factory=dict)  # seat (as text) -> piece that may ride
    last_path: list[str] = field(default_factory=list)
    last_piece: str = ""
    resigned: list[bool] = field(default_factory=list)
    finished: bool = False
    reason: str = ""
    police_seat: int = 0  # the table seat that plays the police (role 0)
    # per role: how often that player was asked to decide; a new number is a change of the private
    # view, so the front end re-sends it with fresh menus exactly when the player has a new choice
    prompts: list[int] = field(default_factory=list)
    # encircled thieves waiting for the police player to name the arresting piece:
    # {"thief": role, "pieces": [ids of the adjacent police pieces]}
    pending: list[dict[str, Any]] = field(default_factory=list)
    format: int = 2  # the rules format the game began in (see the module's doc); not dumped

    def thief(self, seat: int) -> Thief:
        return self.thieves[seat - 1]

    def piece(self, piece_id: str) -> Police | Thief | None:
        for police in self.police:
            if police.id == piece_id:
                return police
        if piece_id.startswith("T") and piece_id[1:].isdigit() and 1 <= int(piece_id[1:]) <= len(self.thieves):
            return self.thief(int(piece_id[1:]))
        return None

    def occupants(self) -> dict[str, list[Police | Thief]]:
        """Map square -> pieces standing there (several only in nests)."""
        found: dict[str, list[Police | Thief]] = {}
        pieces: list[Police | Thief] = [*self.police, *self.thieves]
        for piece in pieces:
            if piece.at is not None and piece.at != HOUSE:
                found.setdefault(piece.at, []).append(piece)
                if isinstance(piece, Police) and piece.tail:
                    found.setdefault(piece.tail, []).append(piece)  # the radio car covers two squares
        return found

    def money_of(self, seat: int) -> int:
        return self.police_money if seat == 0 else self.thief(seat).money


def dump_state(state: TjuvState) -> dict[str, Any]:
    data = asdict(state)
    data["rng"] = state.rng.dump()
    del data["format"]
    if state.format == 1:  # the shape format-1 games were stored in
        if not state.pending:  # (only a format-1 game played on by the format-2 code has one)
            del data["pending"]
        for police in data["police"]:
            del police["tail"]
    return data


def stored_format(data: dict[str, Any]) -> int:
    """The rules format of a snapshot, from its shape (see the module's doc)."""
    car = next(p for p in data["police"] if p["id"] == CAR)
    return 1 if car["at"] is not None and not car.get("tail") else 2


def load_state(data: dict[str, Any]) -> TjuvState:
    values = dict(data)
    values["rng"] = Rng.load(dict(data["rng"]))
    values["police"] = [Police(**p) for p in data["police"]]
    values["thieves"] = [Thief(**{**t, "stashes": dict(t["stashes"])}) for t in data["thieves"]]
    values["tram"] = dict(data["tram"])
    values["last_path"] = list(data["last_path"])
    values["resigned"] = list(data["resigned"])
    values["prompts"] = list(data.get("prompts", []))
    values["pending"] = [dict(p) for p in data.get("pending", [])]  # absent in format 1
    values["format"] = stored_format(data)
    return TjuvState(**values)
