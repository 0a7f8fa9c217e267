"""Behaviour unchanged, provably: seeded whole games through the fake Discord send Discord exactly
the requests the golden files hold (tests/golden/rest.py plays them; the files were recorded on the
code before the plugin reshaping and are compared after every change).

A change that means to change what the bot sends (a new text, another picture size, one more
request) re-records them: ``python -m tests.golden.rest record`` — and the diff of
tests/golden/rest-*.json, one request per line, shows what a player now sees differently."""
from __future__ import annotations

import pytest

from tests.golden import rest


@pytest.mark.parametrize("label", sorted(rest.GAMES))
async def test_a_seeded_game_sends_discord_the_requests_of_its_golden_log(label: str) -> None:
    got = await rest.play(label)
    want = rest.load(label)
    assert got == want, (f"{label}: the REST log changed ({rest.first_difference(got, want)}); if that is "
                         "meant, re-record with: python -m tests.golden.rest record")


async def test_the_comparison_notices_one_changed_request() -> None:
    """The golden comparison can fail: one request's text changed is a different log."""
    want = rest.load("tolp-cpu")
    changed = [list(step) for step in want]
    number = next(n for n, step in enumerate(changed) if step)
    changed[number] = [{**changed[number][0], "json": {"content": "something else"}}, *changed[number][1:]]
    assert changed != want
    assert f"step {number}:" in rest.first_difference(changed, want)
