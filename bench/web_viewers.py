"""Open live viewers of one table page for bench_load (``--viewers``), in a process of their own so
their own work is not the bot's: N server-sent event streams on one address, each counting the
table states it is sent, until stopped (SIGTERM); then one JSON line with what they saw.

    .venv/bin/python -m bench.web_viewers http://127.0.0.1:PORT/t/ADDRESS 1000
"""
from __future__ import annotations

import asyncio
import json
import signal
import statistics
import sys
import time

import aiohttp


async def view(http: aiohttp.ClientSession, url: str, counts: list[int], index: int, opened: list[int]) -> None:
    async with http.get(url + "/events?lang=en") as response:
        response.raise_for_status()
        opened[0] += 1
        async for line in response.content:
            if line.startswith(b"event: table"):
                counts[index] += 1


async def main(url: str, viewers: int) -> None:
    counts = [0] * viewers
    opened = [0]
    stop = asyncio.Event()
    asyncio.get_running_loop().add_signal_handler(signal.SIGTERM, stop.set)
    started = time.monotonic()
    async with aiohttp.ClientSession(connector=aiohttp.TCPConnector(limit=0),
                                     timeout=aiohttp.ClientTimeout(total=None, sock_read=None)) as http:
        tasks = [asyncio.create_task(view(http, url, counts, i, opened)) for i in range(viewers)]
        while opened[0] < viewers and time.monotonic() - started < 60 and not stop.is_set():
            await asyncio.sleep(0.1)
        print(json.dumps({"ready": opened[0]}), flush=True)
        await stop.wait()
        for task in tasks:
            task.cancel()
        failed = sum(1 for r in await asyncio.gather(*tasks, return_exceptions=True)
                     if isinstance(r, Exception) and not isinstance(r, asyncio.CancelledError))
    print(json.dumps({"opened": opened[0], "failed": failed, "states_min": min(counts),
                      "states_median": statistics.median(counts), "states_max": max(counts)}), flush=True)


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], int(sys.argv[2])))
