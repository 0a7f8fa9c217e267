"""The CPU benchmark runs: its fake (bench_load's) and the real bot start, deliver the start-up
announcements and play moves to the end. CI runs no benchmark, so without this a fake that
answers the bot's command sync with a 500 (as bench_load's did from 90298c6 to 30e6f15) would
break every load figure unseen."""
from __future__ import annotations

from bench.bench_move_cpu import measure


async def test_a_few_moves_at_a_few_tables_are_measured() -> None:
    row = await measure(8, 8, 4, None, shut_down=True, warm_up=4)
    assert row["moves"] == 8 and row["refused"] == 0
    assert row["violations"] == 0
    assert row["pictures"] > 0 and row["renders"] > 0  # every move drew its board and views
    assert row["loop"] > 0 and row["process"] >= row["loop"]
