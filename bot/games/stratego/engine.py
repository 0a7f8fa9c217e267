"""The Stratego engine (Jumbo "Stratego Original", ISF rules) for two seats: Red 0, Blue 1."""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from bot.engine.core import Event, Game, OptionSpec, Outcome, Seat
from bot.engine.rng import Rng
from bot.errors import IllegalAction, NotYourTurn
from bot.games.stratego import setups
from bot.games.stratego.actions import (
    AcceptDraw,
    Action,
    DeclineDraw,
    Move,
    OfferDraw,
    Ready,
    SetupCode,
    SetupPreset,
    SetupRandom,
    Swap,
    parse_action,
)
from bot.games.stratego.board import LAKES, line_between, setup_squares
from bot.games.stratego.moves import can_move, check_move, legal_moves, threatened_by
from bot.games.stratego.pieces import RANKS, Result, attack
from bot.games.stratego.repetition import next_chase, next_shuttle
from bot.games.stratego.state import OVER, PLAY, SETUP, Piece, StrategoState

_ATTACK_EVENTS = {
    Result.WIN: "stratego.event.attack_won",
    Result.LOSE: "stratego.event.attack_lost",
    Result.TIE: "stratego.event.attack_tie",
    Result.DEFUSE: "stratego.event.bomb_defused",
    Result.EXPLODE: "stratego.event.bomb_exploded",
    Result.FLAG: "stratego.event.flag_captured",
}


def _sorted_ranks(ranks: list[str]) -> list[str]:
    return sorted(ranks, key=RANKS.index)


class StrategoGame(Game[StrategoState]):
    name: ClassVar[str] = "stratego"
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 2
    FORMAT_VERSION: ClassVar[int] = 1
    rules_languages: ClassVar[tuple[str, ...]] = ("en", "sv", "nb", "cs")
    options: ClassVar[tuple[OptionSpec, ...]] = (
        OptionSpec("two_square_limit", 3, choices=(3, 5),
                   description_key="stratego.option.two_square_limit"),
        OptionSpec("scout_move_attack", True, description_key="stratego.option.scout_move_attack"),
        # 2000 moves in total: the anti-stalling rules stop shuttles and chases, not wandering
        # (see the rules text, "end"); 0 = no limit, as games stored before kept it
        OptionSpec("max_moves", 2000, minimum=0, maximum=100000,
                   description_key="stratego.option.max_moves"),
    )
    # Random moves rarely find a flag; a move limit makes every random playout end.
    playout_options: ClassVar[Mapping[str, Any]] = {"max_moves": 600}
    max_playout_actions: ClassVar[int] = 1500

    # ---------------------------------------------------------------- lifecycle
    def new(self, players: int, options: Mapping[str, Any], seed: str) -> StrategoState:
        self.check_players(players, options)
        rng = Rng(seed)
        state = StrategoState(options=dict(options), rng=rng, players=players)
        # Each player starts from a random draft they can edit, replace or submit as it is.
        state.drafts = [setups.random_setup(rng, seat) for seat in range(2)]
        return state

    def dump(self, state: StrategoState) -> dict[str, Any]:
        return {
            "format": self.FORMAT_VERSION,
            "options": state.options,
            "rng": state.rng.dump(),
            "players": state.players,
            "phase": state.phase,
            "drafts": state.drafts,
            "ready": state.ready,
            "board": {sq: piece.dump() for sq, piece in sorted(state.board.items())},
            "turn": state.turn,
            "moves": state.moves,
            "captured": state.captured,
            "last_move": state.last_move,
            "trail": state.trail,
            "shuttles": state.shuttles,
            "chase": state.chase,
            "draw_offer": state.draw_offer,
            "offer_blocked": state.offer_blocked,
            "result": state.result,
        }

    def load(self, data: Mapping[str, Any]) -> StrategoState:
        return StrategoState(
            options=dict(data["options"]),
            rng=Rng.load(data["rng"]),
            players=int(data["players"]),
            phase=str(data["phase"]),
            drafts=[dict(d) for d in data["drafts"]],
            ready=list(data["ready"]),
            board={sq: Piece.load(p) for sq, p in data["board"].items()},
            turn=int(data["turn"]),
            moves=int(data["moves"]),
            captured=[list(c) for c in data["captured"]],
            last_move=data["last_move"],
            trail=[list(t) for t in data.get("trail", [])],
            shuttles=[list(s) if s is not None else None for s in data["shuttles"]],
            chase=data["chase"],
            draw_offer=data["draw_offer"],
            offer_blocked=list(data["offer_blocked"]),
            result=data["result"],
        )

    # -------------------------------------------------------------------- turns
    def to_act(self, state: StrategoState) -> frozenset[Seat]:
        if state.phase == OVER:
            return frozenset()
        if state.phase == SETUP:
            return frozenset(seat for seat in range(2) if not state.ready[seat])
        if state.draw_offer is not None:
            return frozenset({1 - state.draw_offer})
        return frozenset({state.turn})

    def legal_actions(self, state: StrategoState, seat: Seat) -> list[Action]:
        """Everything listed is legal. Offering a draw is legal on one's turn but left out, so
        random playouts and the computer player keep playing."""
        if seat not in self.to_act(state):
            return []
        if state.phase == SETUP:
            back, front = setup_squares(seat)[:2], setup_squares(seat)[-2:]
            return [Ready(), SetupRandom(), *(SetupPreset(name) for name in setups.PRESETS),
                    SetupCode(next(iter(setups.PRESETS.values()))), Swap(*back), Swap(*front)]
        if state.draw_offer is not None:
            return [AcceptDraw(), DeclineDraw()]
        return [Move(src, dst) for src, dst in legal_moves(state, seat)]

    def parse_action(self, text: str) -> Action:
        return parse_action(text)

    def apply(self, state: StrategoState, seat: Seat, action: Any) -> list[Event]:
        if state.phase == OVER:
            raise IllegalAction("stratego.error.game_over")
        if isinstance(action, SetupPreset | SetupRandom | SetupCode | Swap | Ready):
            return self._apply_setup(state, seat, action)
        if state.phase == SETUP:
            if seat in self.to_act(state):
                raise IllegalAction("stratego.error.setup_first", topic="setup")
            raise NotYourTurn()
        if seat not in self.to_act(state):
            if state.draw_offer == seat:
                raise IllegalAction("stratego.error.draw_pending", topic="end")
            raise NotYourTurn()
        if state.draw_offer is not None and not isinstance(action, AcceptDraw | DeclineDraw):
            raise IllegalAction("stratego.error.answer_draw", topic="end")
        if isinstance(action, Move):
            return self._apply_move(state, seat, action)
        if isinstance(action, OfferDraw):
            if state.offer_blocked[seat]:
                raise IllegalAction("stratego.error.offer_again", topic="end")
            state.draw_offer = seat
            return [Event("stratego.event.draw_offered", {"seat": seat})]
        if state.draw_offer is None:
            raise IllegalAction("stratego.error.no_draw_offer", topic="end")
        if isinstance(action, AcceptDraw):
            state.draw_offer = None
            self._finish(state, [[0, 1]], "stratego.end.agreed")
            return [Event("stratego.event.draw_accepted", {"seat": seat})]
        if isinstance(action, DeclineDraw):
            state.offer_blocked[state.draw_offer] = True
            state.draw_offer = None
            return [Event("stratego.event.draw_declined", {"seat": seat})]
        raise IllegalAction("stratego.error.unreadable", text=str(action))

    # -------------------------------------------------------------------- setup
    def _apply_setup(self, state: StrategoState, seat: Seat, action: Action) -> list[Event]:
        if state.phase != SETUP:
            raise IllegalAction("stratego.error.setup_over", topic="setup")
        if state.ready[seat]:
            raise IllegalAction("stratego.error.already_ready", topic="setup")
        private = frozenset({seat})
        if isinstance(action, Ready):
            return self._submit(state, seat)
        if isinstance(action, Swap):
            for sq in (action.first, action.second):
                if sq in LAKES:
                    raise IllegalAction("stratego.error.setup_lake", topic="setup", square=sq)
                if sq not in state.drafts[seat]:
                    raise IllegalAction("stratego.error.setup_outside", topic="setup", square=sq)
            if action.first == action.second:
                raise IllegalAction("stratego.error.swap_same", topic="setup", square=action.first)
            draft = state.drafts[seat]
            draft[action.first], draft[action.second] = draft[action.second], draft[action.first]
            return [Event("stratego.event.draft_swapped", {"first": action.first,
                                                           "second": action.second}, private)]
        if isinstance(action, SetupPreset):
            state.drafts[seat] = setups.preset(action.name, seat)
            return [Event("stratego.event.draft_preset", {"preset": action.name}, private)]
        if isinstance(action, SetupCode):
            state.drafts[seat] = setups.from_code(action.code, seat)
            return [Event("stratego.event.draft_code", {}, private)]
        state.drafts[seat] = setups.random_setup(state.rng, seat)
        return [Event("stratego.event.draft_random", {}, private)]

    def _submit(self, state: StrategoState, seat: Seat) -> list[Event]:
        setups.validate(state.drafts[seat], seat)
        for sq, rank in state.drafts[seat].items():
            state.board[sq] = Piece(seat, rank)
        state.drafts[seat] = {}
        state.ready[seat] = True
        events = [Event("stratego.event.ready", {"seat": seat})]
        if all(state.ready):
            state.phase = PLAY
            state.turn = 0
            events.append(Event("stratego.event.play_begins", {"seat": 0}))
            events += self._check_stuck(state, mover=1)
        return events

    # --------------------------------------------------------------------- play
    def _apply_move(self, state: StrategoState, seat: Seat, action: Move) -> list[Event]:
        src, dst = action.src, action.dst
        check_move(state, seat, src, dst)
        piece = state.board.pop(src)
        piece.moved = True
        defender = state.board.get(dst)
        state.moves += 1
        state.offer_blocked[seat] = False
        state.shuttles[seat] = next_shuttle(state.shuttles[seat], src, dst, defender is not None)
        params: dict[str, Any] = {"seat": seat, "from_square": src, "to_square": dst}
        state.last_move = {"seat": seat, "from": src, "to": dst, "attack": defender is not None}
        if defender is None:
            if line_between(src, dst):
                piece.revealed = True  # only a scout moves more than one square
            state.board[dst] = piece
            state.trail.append([src, dst])
            state.chase = next_chase(state.chase, seat, src, dst, False, threatened_by(state, seat, dst))
            events = [Event("stratego.event.moved", params)]
        else:
            result = attack(piece.rank, defender.rank)
            piece.revealed = defender.revealed = True
            state.chase = None
            if result in (Result.WIN, Result.DEFUSE, Result.FLAG):
                state.captured[defender.owner].append(defender.rank)
                state.board[dst] = piece
            elif result == Result.TIE:
                state.captured[seat].append(piece.rank)
                state.captured[defender.owner].append(defender.rank)
                del state.board[dst]
            else:
                state.captured[seat].append(piece.rank)
            for lost in state.captured:
                lost[:] = _sorted_ranks(lost)
            state.last_move.update(attacker_rank=piece.rank, defender_rank=defender.rank,
                                   result=result.value)
            state.trail.append([src, dst, piece.rank, defender.rank])
            params.update(target=defender.owner, attacker_rank=piece.rank, defender_rank=defender.rank)
            events = [Event(_ATTACK_EVENTS[result], params)]
            if result == Result.FLAG:
                self._finish(state, [[seat], [1 - seat]], "stratego.end.flag")
                return events
        state.turn = 1 - seat
        events += self._check_stuck(state, mover=seat)
        if state.phase == PLAY and state.options["max_moves"] and state.moves >= state.options["max_moves"]:
            self._finish(state, [[0, 1]], "stratego.end.move_limit")
        return events

    def _check_stuck(self, state: StrategoState, mover: Seat) -> list[Event]:
        """The seat to move next loses if it cannot move; a draw if neither can."""
        stuck = state.turn
        if can_move(state, stuck):
            return []
        if can_move(state, mover):
            self._finish(state, [[mover], [stuck]], "stratego.end.no_moves")
        else:
            self._finish(state, [[0, 1]], "stratego.end.no_moves_both")
        return [Event("stratego.event.cannot_move", {"seat": stuck})]

    def _finish(self, state: StrategoState, places: list[list[int]], reason: str) -> None:
        state.phase = OVER
        state.draw_offer = None
        state.result = {"places": places, "reason": reason}

    # ---------------------------------------------------------------------- end
    def outcome(self, state: StrategoState) -> Outcome | None:
        if state.result is None:
            return None
        return Outcome(tuple(tuple(p) for p in state.result["places"]), state.result["reason"])

    def resign(self, state: StrategoState, seat: Seat) -> list[Event]:
        if state.phase == OVER:
            raise IllegalAction("stratego.error.game_over")
        self._finish(state, [[1 - seat], [seat]], "stratego.end.resign")
        return [Event("stratego.event.resigned", {"seat": seat})]

    # ------------------------------------------------------------- observation
    def observe(self, state: StrategoState, seat: Seat | None) -> dict[str, Any]:
        # When the game is over nothing is hidden any more: everyone sees where everything stood.
        over = state.phase == OVER
        board = {sq: {"owner": p.owner, "rank": p.rank if p.revealed or over else None, "moved": p.moved}
                 for sq, p in sorted(state.board.items())}
        public = {
            "phase": state.phase,
            "to_act": sorted(self.to_act(state)),
            "turn": state.turn,
            "ready": list(state.ready),
            "board": board,
            "last_move": state.last_move,
            "captured": [list(c) for c in state.captured],
            "moves": state.moves,
            "max_moves": state.options["max_moves"],
            "draw_offer": state.draw_offer,
            "result": state.result,
        }
        private = None
        if seat is not None:
            drafting = state.phase == SETUP and not state.ready[seat]
            private = {
                "ranks": {sq: p.rank for sq, p in sorted(state.board.items()) if p.owner == seat},
                "known": {sq: p.rank for sq, p in sorted(state.board.items())
                          if p.owner != seat and (p.revealed or over)},
                "draft": dict(sorted(state.drafts[seat].items())) if drafting else None,
                "draft_code": setups.to_code(state.drafts[seat], seat) if drafting else None,
                # Public facts seen from the viewer's chair. "your_turn" flips for both players
                # on every move, so both private views change and both get a fresh private board.
                "your_turn": seat in self.to_act(state),
                "may_offer_draw": (state.phase == PLAY and state.draw_offer is None
                                   and state.turn == seat and not state.offer_blocked[seat]),
            }
        return {"game": self.name, "seat": seat, "public": public, "private": private}

    def scramble_hidden(self, state: StrategoState, viewer: Seat | None, rng: Rng) -> StrategoState:
        """Re-deal the opponent's draft and permute their unrevealed pieces among themselves
        (moved ones among moved ones, since a moved piece is publicly no bomb or flag)."""
        copy = self.copy(state)
        if copy.phase == OVER:
            return copy  # the final position is shown to everyone
        for seat in range(2):
            if seat == viewer:
                continue
            if copy.phase == SETUP and not copy.ready[seat]:
                copy.drafts[seat] = setups.random_setup(rng, seat)
            for moved in (False, True):
                squares = sorted(sq for sq, p in copy.board.items()
                                 if p.owner == seat and not p.revealed and p.moved == moved)
                ranks = [copy.board[sq].rank for sq in squares]
                rng.shuffle(ranks)
                for sq, rank in zip(squares, ranks, strict=True):
                    copy.board[sq].rank = rank
        return copy
