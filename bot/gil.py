"""The interpreter's thread switch interval for a bot whose event loop hands work to threads.

Every database statement goes to an aiosqlite connection's own thread (one writer, two readers)
and comes back through the event loop, and the render workers' answers come back through the
process pool's thread. A thread that finished its work (the sqlite call runs without the
interpreter's lock) must take the lock back to hand its result over, and while the event loop is
busy it waits for the loop to give the lock up, which CPython forces only every switch interval:
5 ms by default. Under load (1,000 tables, 200 moves/s) the loop is busy most of the time, so each
statement could wait up to that long, and a move's transaction is seven statements under the one
writer's lock (BEGIN … COMMIT), which serialises every move behind that wait. py-spy on the bot at
200 moves/s put about 40 % of the loop's samples at the hand-over to a connection's thread
(aiosqlite ``_execute``). A shorter interval bounds each wait to half a millisecond; the loop
gives the lock up only when another thread asks for it, so an idle process pays nothing.
"""
from __future__ import annotations

import sys

SWITCH_SECONDS = 0.0005  # CPython's default is 0.005


def short_switches(seconds: float = SWITCH_SECONDS) -> float:
    """Set the interpreter's thread switch interval (once, at start-up); returns the one before."""
    before = sys.getswitchinterval()
    sys.setswitchinterval(seconds)
    return before
