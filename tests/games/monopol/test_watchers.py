"""With rent_must_be_claimed, an owner with rent to claim is told so while another player is on turn."""
from __future__ import annotations

from bot.engine import registry
from bot.engine.registry import computer_action
from bot.games.monopol.state import ROLL

from .helpers import GAME, act, dice, new, own


def test_an_owner_with_rent_to_claim_is_a_watcher_until_the_claim_lapses() -> None:
    game = registry.get("monopol")
    state = game.new(3, game.resolve_options({"rent_must_be_claimed": True, "max_rounds": 30}), "watchers")
    seen = 0
    for _ in range(3000):
        if game.outcome(state) is not None:
            break
        watching = game.watchers(state)
        assert watching == frozenset(c.owner for c in state.claims) - game.to_act(state)
        seen += bool(watching)
        seat = min(game.to_act(state))
        game.apply(state, seat, computer_action(game, state, seat))
    assert seen > 0


def test_a_claim_the_next_roll_would_end_is_waited_for() -> None:
    s = new(3, rent_must_be_claimed=True)
    own(s, 2, 6)
    dice(s, 2, 4)
    act(s, 0, "roll")  # lands on Kongens gate, owned by seat 2
    assert s.claims and GAME.waits_for(s) == frozenset()  # seat 0 still has to end its turn
    act(s, 0, "end")
    assert s.turn == 1 and s.phase == ROLL and GAME.waits_for(s) == frozenset({2})
    act(s, 2, "claim")
    assert GAME.waits_for(s) == frozenset() and s.cash[0] == 1500 - 6
