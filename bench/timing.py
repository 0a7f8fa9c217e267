"""The one timing helper every benchmark uses."""
from __future__ import annotations

import statistics
import time
from collections.abc import Callable
from typing import Any


def median_ms(call: Callable[[], Any], runs: int = 40) -> tuple[float, Any]:
    """Median milliseconds of ``call`` over ``runs`` runs (after one warm-up), and its last result."""
    result = call()
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        result = call()
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times), result


def median_cpu_ms(call: Callable[[], Any], runs: int = 40) -> float:
    """Median milliseconds of this process's CPU time per ``call``: steadier than wall time while
    other work shares the machine (it leaves out time spent waiting for a core)."""
    call()
    times = []
    for _ in range(runs):
        start = time.process_time()
        call()
        times.append((time.process_time() - start) * 1000)
    return statistics.median(times)
