"""Driving the bot: injecting interactions as the gateway does, waiting for what they spawned,
and the live view of everything the bot answered to one interaction."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any

from tests.fakediscord.model import (
    SETTLE_PREFIXES,
    Recorded,
    StoredFile,
    StoredMessage,
    Violation,
    _describe,
    _id_of,
    _Interaction,
)

if TYPE_CHECKING:
    from tests.fakediscord import FakeDiscord

class Responses:
    """Live view of everything the bot answered to one interaction."""

    def __init__(self, fake: FakeDiscord, rec: _Interaction) -> None:
        self._fake, self._rec = fake, rec
        self.payload = rec.payload
        self.id = rec.id
        self.token = rec.token

    @property
    def requests(self) -> list[Recorded]:
        return [r for r in self._fake.requests if r.interaction_id == self.id]

    @property
    def callbacks(self) -> list[Recorded]:
        return [r for r in self.requests if r.route.endswith("/callback")]

    @property
    def initial(self) -> Recorded | None:
        cbs = self.callbacks
        return cbs[0] if cbs else None

    @property
    def status(self) -> int | None:
        return self.initial.status if self.initial else None

    @property
    def ok(self) -> bool:
        return self.status is not None and 200 <= self.status < 300

    @property
    def type(self) -> int | None:
        """Type of the accepted initial response (4 reply, 5 defer, 6 deferred update, 7 update,
        8 autocomplete, 9 modal); for a rejected one, the type that was attempted."""
        if self._rec.response_type is not None:
            return self._rec.response_type
        return self.initial.json.get("type") if self.initial and self.initial.json else None

    @property
    def deferred(self) -> bool:
        return self.type in (5, 6)

    @property
    def original(self) -> StoredMessage | None:
        return self._fake.messages.get(self._rec.original_id) if self._rec.original_id else None

    @property
    def _answer(self) -> StoredMessage | None:
        """The original response, unless it was a placeholder removed to answer by a follow-up
        (a refusal after a public "thinking…" defer is a new, ephemeral message)."""
        o = self.original
        return None if o is not None and o.deleted and self._rec.followup_ids else o

    @property
    def followups(self) -> list[StoredMessage]:
        return [self._fake.messages[m] for m in self._rec.followup_ids]

    @property
    def messages(self) -> list[StoredMessage]:
        """What the bot answered: the response and followups (after a deferred update, type 6, the
        original is the message clicked, not an answer)."""
        out = [self._answer] if self._answer is not None and self.type != 6 else []
        return out + [m for m in self.followups if m not in out]

    @property
    def ephemeral(self) -> bool:
        o = self._answer
        if o is not None and o.kind == "response" and self.type != 6:  # type 6: o is the message clicked
            return o.ephemeral
        return bool(self.messages) and self.messages[0].ephemeral

    @property
    def content(self) -> str | None:
        o = self._answer
        return o.content if o is not None else (self.followups[0].content if self.followups else None)

    @property
    def contents(self) -> list[str]:
        return [m.content for m in self.messages]

    @property
    def text(self) -> str:
        return "\n".join(self.contents)

    @property
    def files(self) -> list[StoredFile]:
        return [f for m in self.messages for f in m.files]

    @property
    def choices(self) -> list[dict] | None:
        return self._rec.choices

    @property
    def modal(self) -> dict | None:
        return self._rec.modal

    @property
    def edits(self) -> list[Recorded]:
        return [r for r in self.requests if r.method == "PATCH"]

    @property
    def violations(self) -> list[Violation]:
        reqs = self.requests
        return [v for v in self._fake.violations if v.request in reqs]

    def __repr__(self) -> str:
        return (f"<Responses {self.id} status={self.status} type={self.type} "
                f"contents={self.contents!r} choices={self.choices!r}>")


async def settle(bot: Any = None, timeout: float = 5.0, *, ignore: Iterable[asyncio.Task] = (),
                 prefixes: tuple[str, ...] = SETTLE_PREFIXES) -> None:
    """Wait until the tasks discord.py spawned for events/interactions (and tasks named
    ``gamemaster*``) are done, including tasks they spawn. Raises AssertionError on timeout."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    ignored = set(ignore)
    me = asyncio.current_task()
    while True:
        pending = [t for t in asyncio.all_tasks() if t is not me and t not in ignored
                   and not t.done() and t.get_name().startswith(prefixes)]
        if not pending:
            return
        remaining = deadline - loop.time()
        if remaining <= 0:
            raise AssertionError(f"settle: still running after {timeout}s: "
                                 f"{sorted(t.get_name() for t in pending)}")
        await asyncio.wait(pending, timeout=remaining)


class Injection:
    """Injecting interactions, the bot's lifecycle against the fake, and waiting on requests."""

    def _rec_for(self, interaction: Any) -> _Interaction:
        if isinstance(interaction, Responses):
            return interaction._rec
        if isinstance(interaction, dict):
            key = str(interaction["id"])
        else:
            key = _id_of(interaction)
        if key in self.interactions:
            return self.interactions[key]
        if key in self._by_token:
            return self._by_token[key]
        raise LookupError(f"unknown interaction {key}")

    def inject(self, bot: Any, payload: dict, event: str = "INTERACTION_CREATE") -> None:
        """Hand a DISPATCH payload to the bot's parser exactly as the gateway would."""
        if event == "INTERACTION_CREATE":
            rec = self._rec_for(payload)
            rec.injected_at = time.monotonic()
            rec.injected = True
        bot._connection.parsers[event](payload)

    async def interact(self, bot: Any, payload: dict, *, timeout: float = 5.0, gateway: bool = False,
                       expect_response: bool = True) -> Responses:
        """Inject an interaction, wait for the answer and the tasks it spawned; return a handle."""
        rec = self._rec_for(payload)
        before = set(asyncio.all_tasks())
        n_errors = len(self.errors)
        if gateway:
            if not self.sockets:
                raise AssertionError("interact(gateway=True) but no client is connected")
            await self.dispatch("INTERACTION_CREATE", payload)
            try:
                await asyncio.wait_for(rec.answered.wait(), timeout)
            except TimeoutError:
                if expect_response:
                    raise AssertionError(f"bot never answered interaction {rec.id} "
                                         f"({_describe(payload)}) within {timeout}s") from None
        else:
            self.inject(bot, payload)
        await settle(bot, timeout, ignore=before)
        if expect_response and not rec.answered.is_set():
            logged = "".join(f"\n  logged: {e}" for e in self.errors[n_errors:])
            raise AssertionError(f"bot never answered interaction {rec.id} ({_describe(payload)}); "
                                 f"Discord would show 'This interaction failed'{logged}")
        return Responses(self, rec)

    def responses_for(self, interaction: Any) -> Responses:
        return Responses(self, self._rec_for(interaction))

    def unanswered(self) -> list[dict]:
        return [r.payload for r in self.interactions.values() if r.injected and not r.acked]

    def assert_clean(self) -> None:
        assert self.violations == [], f"Discord rule violations: {self.violations}"
        assert self.errors == [], "errors were logged:\n" + "\n".join(self.errors)
        assert self.mass_pings == [], f"messages that would ping everyone, here or a role: {self.mass_pings}"
        missing = self.unanswered()
        assert not missing, f"interactions never acknowledged: {[_describe(p) for p in missing]}"

    # ---------------------------------------------------------- bot lifecycle
    async def login(self, bot: Any, token: str = "fake-token") -> Any:
        self._bots.append(bot)
        await bot.login(token)
        return bot

    async def connect(self, bot: Any, timeout: float = 5.0) -> asyncio.Task:
        if bot not in self._bots:
            await self.login(bot)
        task = asyncio.create_task(bot.connect(reconnect=True), name="fakediscord-connect")
        ready = asyncio.create_task(bot.wait_until_ready())
        done, _ = await asyncio.wait({task, ready}, timeout=timeout, return_when=asyncio.FIRST_COMPLETED)
        if ready not in done:
            ready.cancel()
            if task.done():
                task.result()
            raise AssertionError(f"bot did not become ready within {timeout}s")
        bot._fake_connect_task = task
        return task

    async def close_bot(self, bot: Any, task: asyncio.Task | None = None) -> None:
        await bot.close()
        task = task or getattr(bot, "_fake_connect_task", None)
        if task is not None:
            await asyncio.wait_for(task, 5)

    # ------------------------------------------------------------- observing
    async def _notify(self) -> None:
        async with self._changed:
            self._changed.notify_all()

    async def wait_request(self, pred: Callable[[Recorded], bool], timeout: float = 5.0, *,
                           since: int = 0) -> Recorded:
        async def scan() -> Recorded:
            async with self._changed:
                while True:
                    for r in self.requests[since:]:
                        if r.status is not None and pred(r):
                            return r
                    await self._changed.wait()
        return await asyncio.wait_for(scan(), timeout)

    async def wait_message(self, pred: Callable[[StoredMessage], bool], timeout: float = 5.0) -> StoredMessage:
        async def scan() -> StoredMessage:
            async with self._changed:
                while True:
                    for m in self.messages.values():
                        if not m.deleted and pred(m):
                            return m
                    await self._changed.wait()
        return await asyncio.wait_for(scan(), timeout)
