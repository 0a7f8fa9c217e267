"""The strength benchmark's choice of settings: by game, and by a part of the setting's name."""
from __future__ import annotations

import pytest

from bench.bench_strength import main, select


def test_a_setting_name_picks_one_variant_of_a_game() -> None:
    assert [s[0] for s in select(["tolp"], None)] == ["Tölp, 4 players", "Tölp with wild twos"]
    assert [s[0] for s in select(["tolp"], "Wild Twos")] == ["Tölp with wild twos"]
    assert [s[3]["wild"] for s in select(None, "wild twos")] == ["2"]
    assert [s[1] for s in select(None, "4 players")] == ["tolp", "zlodej", "monopol"]


def test_a_setting_that_matches_nothing_is_refused() -> None:
    with pytest.raises(SystemExit):
        main(["--only", "stratego", "--setting", "wild twos", "--games", "1"])
