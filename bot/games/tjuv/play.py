"""Tjuv och Polis rules in play: rolling, moving, riding, robbing, nests, arrests, jail, escapes, turns.

Every ``check_*`` raises IllegalAction before anything changes; every ``do_*`` mutates and returns
events. A thief encircled by several police pieces waits in ``state.pending`` until the police
player names the arresting piece (``choose_arrester``); with one piece only, it arrests at once.
"""
from __future__ import annotations

from bot.engine.core import Event
from bot.errors import IllegalAction

from .actions import Move, Ride
from .board import board
from .moves import car_tail, rides, walks
from .state import CAR, ESCAPED, ESCAPING, FREE, GUARD, HOUSE, JAIL, OUT, Police, Thief, TjuvState

Piece = Police | Thief
ARRESTS_TO_BE_OUT = 4
GRATIFICATION_STEP = 5000
GRATIFICATION = 1000
MONEY_UNIT = 1000
BREAKOUT_ROLL = 6


def restricted_squares() -> frozenset[str]:
    """Where no police piece may stand for more than two police turns."""
    b = board()
    return b.telegraphs | b.escape_fronts


def gratification(carried: int) -> int:
    """1000 kr per started 5000 kr the arrested thief carried."""
    return GRATIFICATION * -(-carried // GRATIFICATION_STEP)


# ------------------------------------------------------------------------------ who moves what
def own_pieces(state: TjuvState, seat: int) -> list[Piece]:
    if seat == 0:
        return [p for p in state.police if p.status == FREE and p.at is not None]
    thief = state.thief(seat)
    return [thief] if thief.status == FREE and thief.at is not None else []


_MOVES: dict[tuple[object, ...], dict[str, dict[str, list[str]]]] = {}  # the last few positions' moves
MOVES_KEPT = 16


def _moves_key(state: TjuvState, seat: int, roll: int) -> tuple[object, ...]:
    """Everything ``legal_moves`` reads: the pieces' squares, states and marks (not the money
    hidden, not the dice)."""
    return (seat, roll, tuple((p.id, p.at, p.status, p.stay, p.heading, p.tail) for p in state.police),
            tuple((t.seat, t.at, t.status, t.wanted, t.money) for t in state.thieves))


def legal_moves(state: TjuvState, seat: int, roll: int) -> dict[str, dict[str, list[str]]]:
    """piece id -> destination -> path, for a roll, with the police's two-turn limit applied.

    A move is asked for two or three times (the engine after the roll, the legal actions, the
    move's own check), so the last few positions' answers are kept, keyed by all they depend on;
    callers read the answer and never change it."""
    key = _moves_key(state, seat, roll)
    known = _MOVES.get(key)
    if known is not None:
        return known
    if len(_MOVES) >= MOVES_KEPT:
        _MOVES.clear()
    _MOVES[key] = found = _legal_moves(state, seat, roll)
    return found


def _legal_moves(state: TjuvState, seat: int, roll: int) -> dict[str, dict[str, list[str]]]:
    found: dict[str, dict[str, list[str]]] = {}
    for piece in own_pieces(state, seat):
        steps = 2 * roll if piece.id == CAR else roll
        reach = walks(state, piece, steps)
        if reach:
            found[piece.id] = reach
    return _limit_overdue(state, seat, found)


def legal_rides(state: TjuvState, seat: int) -> dict[str, dict[str, list[str]]]:
    piece_id = state.tram.get(str(seat), "")
    piece = state.piece(piece_id) if piece_id else None
    if piece is None or piece.status != FREE or piece.at is None:
        return {}
    if seat == 0 and _overdue(state) - {piece.id}:
        return {}  # another piece must leave its watched square: roll and move it
    reach = rides(state, piece)
    return _limit_overdue(state, seat, {piece.id: reach} if reach else {})


def on_watched(piece: Police) -> bool:
    """Whether a police piece stands (with either square of the radio car) on a telegraph or in
    front of an escape square."""
    limited = restricted_squares()
    return piece.at in limited or piece.tail in limited


def _overdue(state: TjuvState) -> set[str]:
    """Police pieces that have stood two police turns on a telegraph or an escape front."""
    return {p.id for p in state.police if p.status == FREE and p.stay >= 2 and on_watched(p)}


def _limit_overdue(state: TjuvState, seat: int,
                   found: dict[str, dict[str, list[str]]]) -> dict[str, dict[str, list[str]]]:
    """A police piece that has stood two turns on a telegraph or an escape front must leave it,
    when it can; only if it cannot may the police move another piece."""
    if seat != 0:
        return found
    limited = restricted_squares()
    overdue = _overdue(state)
    def away(pid: str, square: str, path: list[str]) -> bool:
        piece = state.piece(pid)
        start = piece.at if piece is not None and piece.at else square
        two_squares = isinstance(piece, Police) and bool(piece.tail)  # a format-1 car has one
        return square not in limited and (not two_squares or car_tail(start, path) not in limited)
    leaving = {pid: {sq: path for sq, path in reach.items() if away(pid, sq, path)}
               for pid, reach in found.items() if pid in overdue}
    leaving = {pid: reach for pid, reach in leaving.items() if reach}
    return leaving or found


# ----------------------------------------------------------------------------------- checking
def _illegal(code: str, topic: str, **params: object) -> IllegalAction:
    return IllegalAction(f"tjuv.error.{code}", topic=topic, **params)


def check_phase(state: TjuvState, *phases: str) -> None:
    if phases == ("nest",) and state.phase == "start":
        raise _illegal("end_after_nest", "turn")  # "end" closes a turn spent in a nest, nothing else
    if state.phase not in phases:
        code = {"start": "roll_first", "nest": "in_nest"}.get(state.phase, "already_rolled")
        raise _illegal(code, "turn")


def check_path(options: dict[str, dict[str, list[str]]], action: Move | Ride, state: TjuvState,
               seat: int) -> list[str]:
    piece = state.piece(action.piece)
    if piece is None or piece not in own_pieces(state, seat):
        raise _illegal("not_your_piece", "pieces", piece=action.piece)
    if action.to not in board().kind:
        raise _illegal("no_square", "board", square=action.to)
    if action.to not in options.get(action.piece, {}):
        topic = "tram" if isinstance(action, Ride) else "moving"
        code = "cannot_ride" if isinstance(action, Ride) else "cannot_reach"
        raise _illegal(code, topic, piece=action.piece, square=action.to, roll=state.roll)
    return options[action.piece][action.to]


def nest_of(state: TjuvState, seat: int) -> str:
    if seat == 0 or state.phase not in ("start", "nest"):
        raise _illegal("not_in_nest", "nests")
    thief = state.thief(seat)
    if thief.status != FREE or thief.at is None or board().kind.get(thief.at) != "nest":
        raise _illegal("not_in_nest", "nests")
    return thief.at


# ------------------------------------------------------------------------------------- arrests
def arrest(state: TjuvState, thief: Thief, by: Police) -> list[Event]:
    carried = thief.money
    reward = gratification(carried)
    state.police_money += reward
    state.bank_received += carried - reward
    thief.money = 0
    thief.wanted = False
    thief.arrests += 1
    state.tram.pop(str(thief.seat), None)
    if state.tram.get("0") == by.id and by.id != CAR:
        state.tram.pop("0")
    events = [Event("tjuv.event.arrest", {"target": thief.seat, "piece": by.id, "square": thief.at or "",
                                          "money": carried, "reward": reward})]
    if thief.arrests >= ARRESTS_TO_BE_OUT:
        thief.status, thief.at, thief.sentence = OUT, None, 0
        state.bank_received += sum(thief.stashes.values())
        thief.stashes.clear()
        if by.id != CAR:
            by.status, by.at, by.stay = OUT, None, 0
        events.append(Event("tjuv.event.out", {"target": thief.seat, "piece": by.id if by.id != CAR else ""}))
        return events
    thief.status, thief.at = JAIL, HOUSE
    thief.sentence = state.rng.die()
    if by.id != CAR:
        by.status, by.at, by.stay = GUARD, None, 0
        thief.guard = by.id
    events.append(Event("tjuv.event.jailed", {"target": thief.seat, "turns": thief.sentence,
                                              "arrests": thief.arrests}))
    return events


def release(state: TjuvState, thief: Thief) -> None:
    """The thief leaves jail (sentence served or broken out); his guard is free once no other
    prisoner needs him."""
    guard, thief.guard = thief.guard, ""
    thief.sentence = 0
    thief.status = FREE
    thief.at = HOUSE
    piece = state.piece(guard) if guard else None
    if isinstance(piece, Police) and piece.status == GUARD and not any(t.guard == guard for t in state.thieves):
        piece.status, piece.at = FREE, HOUSE


def surrounded(state: TjuvState, moved: str) -> list[Event]:
    """Arrest every wanted thief whose every walkable neighbour holds a police piece (this covers
    a thief inside a bank or post office open to one side with a police piece on its door, and a
    thief in a nest whose every door holds one: a nest is no refuge). With one piece around him it
    arrests; with several the police player names the arresting piece (``state.pending``).
    In rules format 1 a nest was a refuge and the arresting piece was picked for the police."""
    b = board()
    events: list[Event] = []
    waiting = {p["thief"] for p in state.pending}
    for thief in state.thieves:
        if (thief.status != FREE or not thief.wanted or thief.at in (None, HOUSE)
                or thief.at in b.stop_lines or thief.seat in waiting
                or (state.format == 1 and b.kind[thief.at] == "nest")):
            continue
        occupants = state.occupants()
        near = [n for n in b.neighbours[thief.at] if b.kind[n] != "house"]
        guards: list[Police] = []
        for square in near:
            police = [p for p in occupants.get(square, []) if isinstance(p, Police)]
            if not police:
                break
            guards.extend(police)
        else:
            events.append(Event("tjuv.event.surrounded", {"target": thief.seat, "square": thief.at}))
            pieces = sorted({p.id for p in guards}, key=lambda pid: (pid == CAR, pid))
            if state.format == 1:
                events += arrest(state, thief, format1_arrester(guards, moved))
            elif len(pieces) == 1:
                events += arrest(state, thief, guards[0])
            else:
                state.pending.append({"thief": thief.seat, "pieces": pieces})
                events.append(Event("tjuv.event.choose_arrester", {"target": thief.seat,
                                                                   "pieces": ", ".join(pieces)}))
    return events


def format1_arrester(guards: list[Police], moved: str) -> Police:
    """Format 1 picked the arresting piece: the radio car when it is one of the surrounding pieces
    (it needs no guard duty and is never removed), else the piece that just moved, else the
    lowest-numbered policeman."""
    return next((p for p in guards if p.id == CAR), None) or next(
        (p for p in guards if p.id == moved), None) or min(guards, key=lambda p: int(p.id[1:]))


def choose_arrester(state: TjuvState, piece_id: str) -> list[Event]:
    """The police player names which adjacent piece arrests the first encircled thief."""
    if not state.pending:
        raise _illegal("no_arrest", "arrest")
    head = state.pending[0]
    if piece_id not in head["pieces"]:
        raise _illegal("not_arrester", "arrest", piece=piece_id, pieces=", ".join(head["pieces"]))
    state.pending.pop(0)
    thief = state.thief(int(head["thief"]))
    by = state.piece(piece_id)
    assert isinstance(by, Police)
    if thief.status != FREE or not thief.wanted:
        return []
    return arrest(state, thief, by)


# ---------------------------------------------------------------------------------- doing
def do_move(state: TjuvState, seat: int, action: Move | Ride, path: list[str]) -> list[Event]:
    b = board()
    piece = state.piece(action.piece)
    assert piece is not None and piece.at is not None
    start = piece.at
    occupants = state.occupants()
    piece.at = action.to
    state.last_piece, state.last_path = piece.id, [start, *path]
    riding = isinstance(action, Ride)
    key = "tjuv.event.ride" if riding else "tjuv.event.move"
    events = [Event(key, {"seat": seat, "piece": piece.id, "square": action.to})]
    if isinstance(piece, Police) and piece.id == CAR:
        before = car_tail(start, path)
        piece.heading = b.direction(before, action.to)
        if piece.tail:
            piece.tail = before  # the tail follows the front onto the square it left last
            events += _police_landed(state, piece, occupants.get(before, []))
    if isinstance(piece, Police):
        events += _police_landed(state, piece, occupants.get(action.to, []))
    else:
        events += _thief_landed(state, piece)
    events += surrounded(state, piece.id)
    if not riding and piece.at == action.to and action.to in b.stop_lines:
        state.tram[str(seat)] = piece.id
    else:
        state.tram.pop(str(seat), None)
    return events


def _police_landed(state: TjuvState, piece: Police, there: list[Piece]) -> list[Event]:
    b = board()
    events: list[Event] = []
    square = piece.at
    for thief in there:
        if isinstance(thief, Thief):
            events += arrest(state, thief, piece)
    if piece.id != CAR and square in b.telegraphs:
        for thief in state.thieves:
            if thief.status == ESCAPING:
                events.append(Event("tjuv.event.escape_stopped", {"target": thief.seat, "square": square}))
                events += arrest(state, thief, piece)
    return events


def _thief_landed(state: TjuvState, thief: Thief) -> list[Event]:
    b = board()
    square = thief.at
    assert square is not None
    kind = b.kind[square]
    events: list[Event] = []
    if kind in ("bank", "post", "agency"):
        loot = state.agency if kind == "agency" else b.values[square]
        if kind == "agency":
            state.agency = 0
        else:
            state.bank_paid += loot
        thief.money += loot
        thief.wanted = True
        events.append(Event(f"tjuv.event.rob_{kind}", {"seat": thief.seat, "square": square, "money": loot}))
    elif kind == "nest":
        state.phase = "nest"
        if thief.wanted and thief.money == 0:  # nothing on him to hide (broke out, robbed an empty agency)
            thief.wanted = False
            events.append(Event("tjuv.event.not_wanted", {"seat": thief.seat}))
    elif kind == "escape":
        escape = b.escapes[square]
        thief.money -= escape.fare
        state.agency += escape.fare
        events.append(Event(f"tjuv.event.escape_{escape.kind}", {"seat": thief.seat, "fare": escape.fare}))
        watcher = next((p for p in state.police if p.status == FREE and p.id != CAR and p.at in b.telegraphs), None)
        if watcher is not None:
            events.append(Event("tjuv.event.escape_failed", {"target": thief.seat, "square": watcher.at}))
            events += arrest(state, thief, watcher)
        else:
            thief.status = ESCAPING
    return events


def do_breakout(state: TjuvState, seat: int) -> list[Event]:
    thief = state.thief(seat)
    roll = state.rng.die()
    state.last_roll = roll
    if roll == BREAKOUT_ROLL:
        release(state, thief)
        thief.wanted = True
        state.phase, state.roll = "move", BREAKOUT_ROLL
        return [Event("tjuv.event.breakout", {"seat": seat, "roll": roll})]
    return [Event("tjuv.event.breakout_failed", {"seat": seat, "roll": roll}), *serve(state, thief)]


def serve(state: TjuvState, thief: Thief) -> list[Event]:
    thief.sentence -= 1
    if thief.sentence > 0:
        return [Event("tjuv.event.waits", {"seat": thief.seat, "turns": thief.sentence})]
    release(state, thief)
    return [Event("tjuv.event.released", {"seat": thief.seat})]


def do_hide(state: TjuvState, seat: int, nest: str, amount: int) -> list[Event]:
    thief = state.thief(seat)
    thief.money -= amount
    thief.stashes[nest] = thief.stashes.get(nest, 0) + amount
    events = [Event("tjuv.event.hid", {"seat": seat}),
              Event("tjuv.event.hid_private", {"money": amount, "square": nest}, frozenset({seat}))]
    if thief.money == 0 and thief.wanted:
        thief.wanted = False
        events.append(Event("tjuv.event.not_wanted", {"seat": seat}))
    return events


def do_fetch(state: TjuvState, seat: int, nest: str) -> list[Event]:
    thief = state.thief(seat)
    amount = thief.stashes.pop(nest)
    thief.money += amount
    thief.wanted = True
    return [Event("tjuv.event.fetched", {"seat": seat, "money": amount, "square": nest})]


# ---------------------------------------------------------------------------------- turns
def end_turn(state: TjuvState, seat: int) -> list[Event]:
    events: list[Event] = []
    if seat == 0:
        events += _police_turn_over(state)
    state.phase, state.roll = "start", 0
    events += check_end(state)
    if state.finished:
        return events
    nxt = seat
    while True:
        nxt = (nxt + 1) % state.players
        if nxt == 0 or state.thief(nxt).status in (FREE, JAIL):
            break
    if nxt <= seat:
        if state.max_rounds and state.round >= state.max_rounds:
            return [*events, *finish(state, "tjuv.end.rounds")]
        state.round += 1
    state.turn = nxt
    events.append(Event("tjuv.event.turn", {"seat": nxt}))
    return events


def _police_turn_over(state: TjuvState) -> list[Event]:
    """Escapes the police did not stop succeed; police pieces count turns on watched squares."""
    events: list[Event] = []
    for thief in state.thieves:
        if thief.status == ESCAPING:
            thief.status, thief.at = ESCAPED, None
            state.bank_received += sum(thief.stashes.values())
            thief.stashes.clear()
            events.append(Event("tjuv.event.escaped", {"seat": thief.seat, "money": thief.money}))
    for piece in state.police:
        piece.stay = piece.stay + 1 if piece.status == FREE and on_watched(piece) else 0
    return events


def check_end(state: TjuvState) -> list[Event]:
    if all(t.status in (JAIL, ESCAPED, OUT) for t in state.thieves):
        return finish(state, "tjuv.end.all_gone")
    return []


def finish(state: TjuvState, reason: str) -> list[Event]:
    """The game ends; the front end announces it with the ranking and the reason."""
    state.finished, state.reason = True, reason
    state.phase, state.roll = "start", 0
    return []


# ---------------------------------------------------------------------------------- setup
def car_placements(state: TjuvState) -> list[tuple[str, str]]:
    """(tail, front) pairs for the radio car at setup: two adjacent free street squares, one of
    them the street square in front of the police-house gate, in either direction."""
    b = board()
    start = b.car_start
    taken = state.occupants()
    pairs = []
    for other in b.neighbours[start]:
        if b.kind[other] == "street" and other not in taken:
            pairs += [(start, other), (other, start)]
    return pairs


def next_chooser(state: TjuvState) -> list[Event]:
    """After a setup choice: the next thief (seat order) without a nest chooses, then the police
    place the radio car, then the police player's first turn begins."""
    if state.phase == "nests":
        for thief in state.thieves:
            if thief.seat > state.turn and thief.status == FREE and thief.at is None:
                state.turn = thief.seat
                return [Event("tjuv.event.choose_nest", {"seat": thief.seat})]
        state.phase, state.turn = "car", 0
        return [Event("tjuv.event.place_car", {"seat": 0})]
    state.phase, state.turn = "start", 0
    return [*check_end(state), Event("tjuv.event.turn", {"seat": 0})]
