"""The Tjuv och Polis game: setup, turns, legal actions, applying actions, outcome, resigning.

Who plays the police is the option ``police``: ``first`` (the default) gives it to the first seat,
the table's creator; ``roll`` has every seat roll the die (the game's own Rng, so it follows from
the seed) and the highest roll, ties rolling again, plays the police. The rules modules work in
roles (0 the police, n the thief T<n>); this class translates table seats to roles and back at its
edges: actions, events, views, the outcome.
"""
from __future__ import annotations

from collections.abc import Mapping
from itertools import zip_longest
from typing import Any, ClassVar

from bot.engine.core import Event, Game, Luck, OptionSpec, Outcome, Seat
from bot.engine.rng import Rng
from bot.errors import IllegalAction, NotYourTurn

from .actions import (
    Action,
    Arrest,
    Breakout,
    ChooseNest,
    EndTurn,
    Fetch,
    Hide,
    Move,
    PlaceCar,
    Ride,
    Roll,
    Wait,
    parse_action,
)
from .board import board
from .play import (
    MONEY_UNIT,
    car_placements,
    check_end,
    check_path,
    check_phase,
    choose_arrester,
    do_breakout,
    do_fetch,
    do_hide,
    do_move,
    end_turn,
    finish,
    legal_moves,
    legal_rides,
    nest_of,
    next_chooser,
    release,
    serve,
)
from .state import CAR, FREE, JAIL, OUT, Police, Thief, TjuvState, dump_state, load_state
from .view import private_view, public_view, role_of, scramble, seat_of

DIE_EVENTS = ("tjuv.event.roll", "tjuv.event.breakout", "tjuv.event.breakout_failed")  # the luck report
POLICE_CHOICES = ("first", "roll")
# Not a player's option: the stored options of games begun in rules format 1 name it (migration
# 0013); /game new refuses it, a rematch drops it.
FORMAT_OPTION = "format"


class TjuvGame(Game[TjuvState]):
    name: ClassVar[str] = "tjuv"
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 7
    options: ClassVar[tuple[OptionSpec, ...]] = (
        OptionSpec("max_rounds", 0, minimum=0, maximum=500, description_key="tjuv.option.max_rounds"),
        OptionSpec("police", "first", choices=POLICE_CHOICES, description_key="tjuv.option.police"),
    )
    # 2: setup choices (nests, the radio car on two squares) and arrests the police choose. Games
    # begun in format 1 play on by format-1 rules (``TjuvState.format``) and replay from the seed.
    FORMAT_VERSION: ClassVar[int] = 2
    rules_languages: ClassVar[tuple[str, ...]] = ("en", "sv", "nb", "cs")
    playout_options: ClassVar[Mapping[str, Any]] = {"max_rounds": 12, "police": "roll"}
    max_playout_actions: ClassVar[int] = 1500

    # ------------------------------------------------------------------ lifecycle
    def new(self, players: int, options: Mapping[str, Any], seed: str) -> TjuvState:
        """A new game in the current rules format; the stored options of a game begun in format 1
        carry ``format: 1`` (see ``state``), and its replay begins as that game began."""
        b = board()
        thieves = players - 1
        police = [Police(f"P{i + 1}", b.house[i]) for i in range(thieves + 1)]
        police.append(Police(CAR, None))  # placed by the police player at setup
        rng = Rng(seed)
        police_seat = roll_for_police(rng, players) if options.get("police", "first") == "roll" else 0
        # setup (seed §3): each thief in seat order chooses his starting nest, then the police
        # place the radio car; then the police player's first turn
        state = TjuvState(players=players, rng=rng, max_rounds=int(options.get("max_rounds", 0)),
                          police=police, thieves=[Thief(seat, None) for seat in range(1, players)],
                          resigned=[False] * players, police_seat=police_seat, prompts=[0, 1] + [0] * (thieves - 1),
                          phase="nests", turn=1)
        if int(options.get(FORMAT_OPTION, self.FORMAT_VERSION)) == 1:
            # format 1 had no setup: the radio car (one square) stood in front of the gate, the
            # thieves in nests spread around the town, one each; the police player began at once
            step = len(b.nests) / thieves
            for thief in state.thieves:
                thief.at = b.nests[int((thief.seat - 1) * step)]
            police[-1].at = b.car_start
            state.format, state.phase, state.turn, state.prompts = 1, "start", 0, [1] + [0] * thieves
        return state

    def luck(self, event: Event) -> tuple[Luck, ...]:
        """Each roll of the die: a turn's roll and a try to break out of jail."""
        seat, roll = event.params.get("seat"), event.params.get("roll")
        if event.key in DIE_EVENTS and isinstance(seat, int) and isinstance(roll, int):
            return (Luck(seat, "dice", roll, 1),)
        return ()

    def opening_events(self, state: TjuvState) -> list[Event]:
        if state.phase != "nests":
            return []
        return [self._seated(state, Event("tjuv.event.choose_nest", {"seat": state.turn}))]

    def dump(self, state: TjuvState) -> dict[str, Any]:
        return dump_state(state)

    def load(self, data: Mapping[str, Any]) -> TjuvState:
        return load_state(dict(data))

    # ---------------------------------------------------------------------- turns
    def to_act(self, state: TjuvState) -> frozenset[Seat]:
        if state.finished:
            return frozenset()
        return frozenset({seat_of(state, 0 if state.pending else state.turn)})

    def legal_actions(self, state: TjuvState, seat: Seat) -> list[Action]:
        return self._legal(state, role_of(state, seat))

    def _legal(self, state: TjuvState, seat: int) -> list[Action]:
        """Legal actions of a role (0 the police, n the thief T<n>)."""
        if state.finished:
            return []
        if state.pending:  # an encircled thief: the police name the arresting piece first
            return [Arrest(pid) for pid in state.pending[0]["pieces"]] if seat == 0 else []
        if seat != state.turn:
            return []
        if state.phase == "nests":
            return [ChooseNest(nest) for nest in board().nests]
        if state.phase == "car":
            return [PlaceCar(tail, front) for tail, front in car_placements(state)]
        if seat != 0 and state.thief(seat).status == JAIL:
            return [Wait(), Breakout()]
        if state.phase == "move":
            # piece by piece in turn, so that a front end reading only the first few hundred
            # still sees every piece (the radio car comes last in the police's list)
            queues = [[Move(pid, sq) for sq in reach] for pid, reach in legal_moves(state, seat, state.roll).items()]
            return [move for row in zip_longest(*queues) for move in row if move is not None]
        actions: list[Action] = []
        if seat != 0 and board().kind.get(state.thief(seat).at or "") == "nest":
            thief = state.thief(seat)
            amounts = range(MONEY_UNIT, thief.money + 1, MONEY_UNIT)
            if len(amounts) > 3:
                amounts = range(thief.money, 0, -MONEY_UNIT)[:1]
            actions += [Hide(a) for a in {*amounts, thief.money} if a > 0]
            if thief.at in thief.stashes:
                actions.append(Fetch())
        if state.phase == "nest":
            return [*actions, EndTurn()]
        actions.append(Roll())
        actions += [Ride(pid, sq) for pid, reach in legal_rides(state, seat).items() for sq in reach]
        return actions

    def parse_action(self, text: str) -> Action:
        return parse_action(text)

    def apply(self, state: TjuvState, seat: Seat, action: Action) -> list[Event]:
        events = self._apply(state, role_of(state, seat), action)
        return self._after(state, events)

    def _after(self, state: TjuvState, events: list[Event]) -> list[Event]:
        """Prompt whoever must decide next and give the events table seats instead of roles."""
        if not state.finished:
            while len(state.prompts) < state.players:
                state.prompts.append(0)
            state.prompts[0 if state.pending else state.turn] += 1
        return [self._seated(state, event) for event in events]

    @staticmethod
    def _seated(state: TjuvState, event: Event) -> Event:
        params = {key: seat_of(state, value) if (key in ("seat", "target", "winner") or key.endswith("_seat"))
                  and isinstance(value, int) and not isinstance(value, bool) else value
                  for key, value in event.params.items()}
        visible = None if event.visible_to is None else frozenset(seat_of(state, r) for r in event.visible_to)
        return Event(event.key, params, visible)

    def _apply(self, state: TjuvState, seat: int, action: Action) -> list[Event]:
        if state.finished:
            raise NotYourTurn()
        if state.pending or isinstance(action, Arrest):
            return self._arrest_choice(state, seat, action)
        if seat != state.turn:
            raise NotYourTurn()
        if state.phase in ("nests", "car") or isinstance(action, ChooseNest | PlaceCar):
            return self._setup(state, seat, action)
        jailed = seat != 0 and state.thief(seat).status == JAIL
        if isinstance(action, Wait | Breakout):
            if not jailed:
                raise IllegalAction("tjuv.error.not_in_jail", topic="jail")
            events = do_breakout(state, seat) if isinstance(action, Breakout) else serve(state, state.thief(seat))
            if state.phase == "move":
                return [*events, *self._moves_or_pass(state, seat)]
            return [*events, *end_turn(state, seat)]
        if jailed:
            raise IllegalAction("tjuv.error.in_jail", topic="jail")
        if isinstance(action, Roll):
            check_phase(state, "start")
            roll = state.rng.die()
            state.phase, state.roll, state.last_roll = "move", roll, roll
            state.tram.pop(str(seat), None)
            return [Event("tjuv.event.roll", {"seat": seat, "roll": roll}), *self._moves_or_pass(state, seat)]
        if isinstance(action, Move | Ride):
            check_phase(state, "move" if isinstance(action, Move) else "start")
            options = legal_moves(state, seat, state.roll) if isinstance(action, Move) else legal_rides(state, seat)
            path = check_path(options, action, state, seat)
            events = do_move(state, seat, action, path)
            if state.pending:
                state.phase = "arrest"  # the police name the arresting piece; then the turn goes on
                return events
            if state.phase == "nest" and not state.finished and state.thief(seat).status == FREE:
                return [*events, *check_end(state)]
            return [*events, *end_turn(state, seat)]
        if isinstance(action, Hide | Fetch):
            check_phase(state, "start", "nest")
            nest = nest_of(state, seat)
            thief = state.thief(seat)
            if isinstance(action, Fetch):
                if nest not in thief.stashes:
                    raise IllegalAction("tjuv.error.no_stash", topic="nests", square=nest)
                return do_fetch(state, seat, nest)
            if action.amount <= 0 or action.amount % MONEY_UNIT or action.amount > thief.money:
                raise IllegalAction("tjuv.error.bad_amount", topic="nests", money=thief.money)
            return do_hide(state, seat, nest, action.amount)
        if isinstance(action, EndTurn):
            check_phase(state, "nest")
            return end_turn(state, seat)
        raise IllegalAction("tjuv.error.syntax", text=str(action))

    def _setup(self, state: TjuvState, seat: int, action: Action) -> list[Event]:
        """Setup choices: a thief's starting nest (phase nests), the radio car (phase car)."""
        if state.phase == "nests" and isinstance(action, ChooseNest):
            if action.square not in board().nests:
                raise IllegalAction("tjuv.error.not_a_nest", topic="setup", square=action.square)
            state.thief(seat).at = action.square
            events = [Event("tjuv.event.nest_chosen", {"seat": seat, "square": action.square})]
            return [*events, *next_chooser(state)]
        if state.phase == "car" and isinstance(action, PlaceCar):
            if (action.tail, action.front) not in car_placements(state):
                raise IllegalAction("tjuv.error.car_place", topic="car", square=board().car_start)
            car = state.piece(CAR)
            assert isinstance(car, Police)
            car.at, car.tail = action.front, action.tail
            car.heading = board().direction(action.tail, action.front)
            events = [Event("tjuv.event.car_placed", {"seat": seat, "square": action.front, "tail": action.tail})]
            return [*events, *next_chooser(state)]
        if state.phase not in ("nests", "car"):  # (a format-1 game never had these choices)
            raise IllegalAction("tjuv.error.setup_over", topic="setup")
        raise IllegalAction("tjuv.error.setup_first", topic="setup")

    def _arrest_choice(self, state: TjuvState, seat: int, action: Action) -> list[Event]:
        """The police player names the piece that arrests an encircled thief; then the turn that
        was going on goes on (or ends, when its thief is the one arrested)."""
        if seat != 0:
            raise NotYourTurn()
        if not isinstance(action, Arrest):
            raise IllegalAction("tjuv.error.arrest_first", topic="arrest")
        events = choose_arrester(state, action.piece)
        if state.pending:
            return events
        mover = state.turn
        if state.phase != "arrest":
            return [*events, *check_end(state)]
        thief = state.thief(mover) if mover else None
        if thief is not None and thief.status == FREE and board().kind.get(thief.at or "") == "nest":
            state.phase = "nest"  # he may still hide or fetch money there
            return [*events, *check_end(state)]
        return [*events, *end_turn(state, mover)]  # the move that encircled him is over

    def _moves_or_pass(self, state: TjuvState, seat: Seat) -> list[Event]:
        """After a roll: the turn passes at once when no piece can use it."""
        if legal_moves(state, seat, state.roll):
            return []
        return [Event("tjuv.event.no_move", {"seat": seat, "roll": state.roll}), *end_turn(state, seat)]

    # ------------------------------------------------------------------ views
    def observe(self, state: TjuvState, seat: Seat | None) -> dict[str, Any]:
        private = None if seat is None else private_view(state, role_of(state, seat))
        return {"game": self.name, "seat": seat, "public": public_view(state), "private": private}

    def outcome(self, state: TjuvState) -> Outcome | None:
        if not state.finished:
            return None
        scores = {seat: state.money_of(role_of(state, seat)) for seat in range(state.players)}
        playing = [s for s in range(state.players) if not state.resigned[role_of(state, s)]]
        places: list[tuple[Seat, ...]] = [tuple(s for s in playing if scores[s] == value)
                                          for value in sorted({scores[s] for s in playing}, reverse=True)]
        gave_up = tuple(s for s in range(state.players) if state.resigned[role_of(state, s)])
        if gave_up:
            places.append(gave_up)
        return Outcome(places=tuple(places), reason=state.reason, scores=scores)

    def resign(self, state: TjuvState, seat: Seat) -> list[Event]:
        """The police player resigning ends the game; a thief who resigns leaves the town and his
        money, carried and hidden, goes back to the bank."""
        return self._after(state, self._resign(state, role_of(state, seat)))

    def _resign(self, state: TjuvState, seat: int) -> list[Event]:
        state.resigned[seat] = True
        events = [Event("tjuv.event.resigned", {"seat": seat})]
        if seat == 0:
            return [*events, *finish(state, "tjuv.end.police_resigned")]
        thief = state.thief(seat)
        state.pending = [p for p in state.pending if p["thief"] != seat]
        if thief.status == JAIL:
            release(state, thief)
        state.bank_received += thief.money + sum(thief.stashes.values())
        thief.money, thief.wanted, thief.stashes = 0, False, {}
        thief.status, thief.at = OUT, None
        state.tram.pop(str(seat), None)
        if state.phase in ("nests", "car") and seat == state.turn:
            return [*events, *next_chooser(state)]
        if seat == state.turn and not state.finished:
            return [*events, *end_turn(state, seat)]
        return [*events, *check_end(state)]

    def scramble_hidden(self, state: TjuvState, viewer: Seat | None, rng: Rng) -> TjuvState:
        return scramble(state, None if viewer is None else role_of(state, viewer), rng)


def roll_for_police(rng: Rng, players: int) -> int:
    """Every seat rolls the die; the highest roll plays the police, tied seats roll again."""
    contenders = list(range(players))
    while len(contenders) > 1:
        rolls = {seat: rng.die() for seat in contenders}
        best = max(rolls.values())
        contenders = [seat for seat in contenders if rolls[seat] == best]
    return contenders[0]
