"""The global pacer keeps every counted call of one process inside Discord's global limit, and
when calls wait it lets boards go first, DMs next and folds last."""
from __future__ import annotations

import asyncio

from bot.services.budget import BOARD, DM, FOLD, GlobalPacer, lane, slot_quota, token_key


async def test_no_window_ever_holds_more_calls_than_the_limit() -> None:
    pacer = GlobalPacer(limit=4, window=0.2)
    loop = asyncio.get_running_loop()
    answered: list[float] = []

    async def call() -> None:
        stamp = await pacer.acquire()
        answered.append(loop.time())
        pacer.sent(stamp)

    await asyncio.gather(*(call() for _ in range(12)))
    answered.sort()
    assert len(answered) == 12
    assert all(answered[i + 4] - answered[i] >= 0.2 - 1e-3 for i in range(len(answered) - 4))
    assert pacer.waited == 8


async def test_waiting_calls_go_by_priority_boards_then_dms_then_folds() -> None:
    pacer = GlobalPacer(limit=1, window=0.05)
    first = await pacer.acquire(BOARD)
    order: list[str] = []

    async def call(name: str, priority: int) -> None:
        with lane(priority):
            stamp = await pacer.acquire()
        order.append(name)
        pacer.sent(stamp)

    waiting = [asyncio.create_task(call(name, priority)) for name, priority in
               (("fold", FOLD), ("dm", DM), ("fold2", FOLD), ("board", BOARD), ("dm2", DM))]
    await asyncio.sleep(0)  # every call has queued behind the first
    assert pacer.pressed and pacer.waiting(FOLD) == 2
    pacer.sent(first)
    await asyncio.gather(*waiting)
    assert order == ["board", "dm", "dm2", "fold", "fold2"]
    assert not pacer.pressed or pacer.waiting() == 0


async def test_a_caller_that_gives_up_leaves_the_queue() -> None:
    pacer = GlobalPacer(limit=1, window=0.05)
    await pacer.acquire()
    gone = asyncio.create_task(pacer.acquire(FOLD))
    await asyncio.sleep(0)
    gone.cancel()
    stamp = await pacer.acquire(DM)  # served after the window, not blocked by the cancelled one
    pacer.sent(stamp)
    assert pacer.waiting() == 0


def test_the_shared_budget_names_a_token_by_digest_and_splits_it_into_safe_slots() -> None:
    assert "secret" not in token_key("secret") and len(token_key("secret")) == 16
    # any second touches at most 4 quarter-second slots, plus one for the way to Discord: 6 × 8 ≤ 50
    assert slot_quota(50) == 8 and slot_quota(50) * 6 <= 50
