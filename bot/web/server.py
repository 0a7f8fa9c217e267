"""Running the web application inside the bot's process, on the bot's event loop.

``WebServer`` opens the site on settings.web_host:web_port (port 0: any free port, the tests) and
closes it with the bot. ``health`` is what /healthz reports: the database answers, the gateway is
connected, the instance lease is held (each check a callable the runner hands in).
"""
from __future__ import annotations

import logging
import sys
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from typing import Any

from aiohttp import web

from bot.i18n import t
from bot.services.history import History
from bot.services.players import Players
from bot.services.table import GameService
from bot.settings import Settings
from bot.web.app import WebDeps, make_app
from bot.web.links import WebLinks
from bot.web.pictures import Draw, Pictures

log = logging.getLogger(__name__)

Check = Callable[[], Awaitable[bool]]


async def database_answers(service: GameService) -> bool:
    try:
        async with service.db.reading_one() as conn:
            async with conn.execute("SELECT 1") as cur:
                return (await cur.fetchone()) is not None
    except Exception:  # noqa: BLE001 - any failure is "not reachable"
        log.warning("health: the database does not answer", exc_info=True)
        return False


class WebServer:
    def __init__(self, settings: Settings, service: GameService, *, players: Players | None = None,
                 history: History | None = None, gateway: Check | None = None, lease: Check | None = None,
                 default_public: bool = False, draw: Draw | None = None) -> None:
        self.settings = settings
        self.service = service
        self.links = WebLinks(service.db, settings.public_web_url, default_public=default_public)
        self._gateway = gateway
        self._lease = lease
        self.deps = WebDeps(service=service, players=players or Players(service.db),
                            history=history or History(service.db), links=self.links, health=self.health,
                            pictures=Pictures(draw), rate_per_minute=settings.web_rate)
        self._runner: web.AppRunner | None = None
        self.port = settings.web_port

    async def health(self) -> dict[str, bool]:
        checks = {"database": await database_answers(self.service)}
        if self._gateway is not None:
            checks["gateway"] = await self._gateway()
        if self._lease is not None:
            checks["lease"] = await self._lease()
        return checks

    @property
    def local_url(self) -> str:
        return f"http://{self.settings.web_host}:{self.port}"

    async def start(self) -> WebServer:
        await self.links.load()
        app = make_app(self.deps)
        self._runner = web.AppRunner(app, access_log=None, shutdown_timeout=1.0)
        await self._runner.setup()
        site = web.TCPSite(self._runner, self.settings.web_host, self.settings.web_port)
        await site.start()
        server = site._server  # aiohttp keeps the listening sockets there
        sockets = getattr(server, "sockets", None) or []
        if sockets:
            self.port = int(sockets[0].getsockname()[1])
        if self.settings.web_url is None:
            self.links.base_url = self.local_url
        log.info("web pages at %s", self.links.base_url)
        return self

    async def stop(self) -> None:
        if self._runner is not None:
            runner, self._runner = self._runner, None
            await runner.cleanup()

    async def __aenter__(self) -> WebServer:
        return await self.start()

    async def __aexit__(self, *exc: object) -> None:
        await self.stop()


@asynccontextmanager
async def web_pages(settings: Settings, service: GameService, *, default_public: bool = False,
                    say: Callable[[str], None] | None = None, **checks: Any) -> AsyncIterator[WebServer | None]:
    """The web pages beside the bot (settings.web_enabled), on its event loop; a port already in
    use is said in one line and the bot plays on without them."""
    if not settings.web_enabled:
        yield None
        return
    server = WebServer(settings, service, default_public=default_public, **checks)
    try:
        await server.start()
    except OSError as exc:
        await server.stop()
        print(t("web.cli_unavailable", settings.default_locale, host=settings.web_host, port=settings.web_port,
                error=exc.strerror or str(exc)), file=sys.stderr)
        yield None
        return
    if say is not None:  # the console says where; the Discord bot logs it
        say(t("web.cli_serving", settings.default_locale, url=server.links.base_url))
    try:
        yield server
    finally:
        await server.stop()
