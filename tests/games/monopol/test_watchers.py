"""With rent_must_be_claimed, an owner with rent to claim is told so while another player is on turn."""
from __future__ import annotations

from bot.engine import registry
from bot.engine.registry import computer_action


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
