"""The bot's metrics, in Prometheus' text format at ``/metrics`` (prometheus_client).

Names follow Prometheus' practice: one prefix, base units as suffixes, ``_total`` on counts, and no
user, game or message id as a label. Whoever sees the thing counts it: the web server the commits
and the event loop's lag, the Discord adapter its acknowledgements and REST calls, the renderers
their time; the outbox's depth is read from the database when scraped.
"""
from __future__ import annotations

import asyncio
import time
from collections.abc import Iterator
from contextlib import contextmanager

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram, disable_created_metrics, generate_latest
from prometheus_client.exposition import CONTENT_TYPE_LATEST

disable_created_metrics()  # no *_created series beside every count: nothing here reads them
REGISTRY = CollectorRegistry()
CONTENT_TYPE = CONTENT_TYPE_LATEST

MOVES = Counter("gamemaster_moves", "Committed changes of a table (a move, with the computer moves it led to)",
                registry=REGISTRY)
ACKS = Counter("gamemaster_acks", "Interactions acknowledged", registry=REGISTRY)
ACK_SECONDS = Histogram("gamemaster_ack_seconds", "From an interaction's creation to its acknowledgement",
                        buckets=(0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 3), registry=REGISTRY)
REST = Counter("gamemaster_rest_requests", "REST calls to Discord, by route and whether they count against the "
               "global limit (interaction endpoints do not)", ["route", "counted"], registry=REGISTRY)
OUTBOX = Gauge("gamemaster_outbox_depth", "Committed changes not yet announced", registry=REGISTRY)
RENDER_SECONDS = Histogram("gamemaster_render_seconds", "Time to draw one picture", ["view"],
                           buckets=(0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5), registry=REGISTRY)
LOOP_LAG = Gauge("gamemaster_event_loop_lag_seconds", "How late the event loop last ran a timer", registry=REGISTRY)
LOOP_LAG_SECONDS = Histogram("gamemaster_event_loop_lag_seconds_observed", "How late the event loop ran its timers",
                             buckets=(0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1), registry=REGISTRY)
VIEWERS = Gauge("gamemaster_web_viewers", "Open live web pages", registry=REGISTRY)
WEB_REQUESTS = Counter("gamemaster_web_requests", "Web requests answered, by page and status",
                       ["page", "status"], registry=REGISTRY)


def exposition() -> bytes:
    return generate_latest(REGISTRY)


@contextmanager
def rendering(view: str) -> Iterator[None]:
    """Time one drawing (``view``: public, private, focus, replay)."""
    start = time.perf_counter()
    try:
        yield
    finally:
        RENDER_SECONDS.labels(view).observe(time.perf_counter() - start)


def acknowledged(created: float, now: float | None = None) -> None:
    """An interaction created at ``created`` (Unix time, from its snowflake) was acknowledged now."""
    ACKS.inc()
    ACK_SECONDS.observe(max(0.0, (time.time() if now is None else now) - created))


def rest_call(route: str, counted: bool) -> None:
    REST.labels(route, "yes" if counted else "no").inc()


async def watch_loop(every: float = 0.25) -> None:
    """Measure the event loop's lag until cancelled: how much later than asked a timer fires."""
    loop = asyncio.get_running_loop()
    while True:
        start = loop.time()
        await asyncio.sleep(every)
        lag = max(0.0, loop.time() - start - every)
        LOOP_LAG.set(lag)
        LOOP_LAG_SECONDS.observe(lag)
