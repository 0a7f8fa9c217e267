"""The web application: its routes in one table, the handlers that turn a request into a service
call and a page, and the middlewares every answer passes (GET only, per-IP limits, security
headers).

Public pages (``/t/<table>``, ``/s/<server>``) show public observations only and exist only for
tables whose channel everybody can see on servers that keep their pages on; anything else answers
as an unknown address does. A player's own page (``/p/<signed link>``) shows ``observe(seat)``.
"""
from __future__ import annotations

import asyncio
import json
import logging
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from importlib import resources
from typing import Any

from aiohttp import web

from bot.errors import GameMasterError, NotFound
from bot.i18n import LANGUAGES, normalize, t
from bot.services import replay as replays
from bot.services.history import History
from bot.services.players import Players
from bot.services.table import GameService
from bot.services.text import place_lines
from bot.storage.backend import COMMITTED
from bot.storage.games import GameRow
from bot.web import html, metrics, views
from bot.web.links import LinkRefused, WebLinks
from bot.web.live import Live, Viewer, event
from bot.web.pictures import Pictures

log = logging.getLogger(__name__)

STATIC = {"style.css": "text/css", "table.js": "text/javascript", "replay.js": "text/javascript",
          "zoom.js": "text/javascript"}
SECURITY_HEADERS = {
    # no inline script or style anywhere: the pages load /static files only
    "Content-Security-Policy": "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; "
                               "connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
    "Referrer-Policy": "no-referrer",  # a private link never leaves in a Referer header
    "Cross-Origin-Opener-Policy": "same-origin",
    "Cross-Origin-Resource-Policy": "same-origin",
    "Permissions-Policy": "camera=(), microphone=(), geolocation=(), interest-cohort=()",
}
STORIES_KEPT = 64
SITE: web.AppKey[Site] = web.AppKey("site")  # the application's Site (its live hub), for benchmarks
HEALTH = Callable[[], Awaitable[dict[str, bool]]]


@dataclass
class WebDeps:
    """What the pages read, injected by the runner."""

    service: GameService
    players: Players
    history: History
    links: WebLinks
    health: HEALTH
    pictures: Pictures
    rate_per_minute: int = 600  # requests per IP and minute (an open live page costs one)


class RateLimit:
    """A token bucket per client address: ``per_minute`` requests, a burst of a fifth of them."""

    def __init__(self, per_minute: int, clock: Callable[[], float] = time.monotonic) -> None:
        self.rate = per_minute / 60.0
        self.burst = max(10.0, per_minute / 5)
        self.clock = clock
        self._buckets: OrderedDict[str, tuple[float, float]] = OrderedDict()

    def allow(self, who: str) -> bool:
        now = self.clock()
        tokens, then = self._buckets.pop(who, (self.burst, now))
        tokens = min(self.burst, tokens + (now - then) * self.rate)
        allowed = tokens >= 1
        self._buckets[who] = (tokens - 1 if allowed else tokens, now)
        while len(self._buckets) > 100_000:
            self._buckets.popitem(last=False)
        return allowed


def chosen_locale(request: web.Request, fallback: str) -> str:
    """``?lang=`` when it names one of ours, else the best of Accept-Language, else ``fallback``."""
    asked = request.query.get("lang", "")
    if asked in LANGUAGES:
        return asked
    ranked: list[tuple[float, int, str]] = []
    for index, part in enumerate(request.headers.get("Accept-Language", "").split(",")):
        tag, _, params = part.strip().partition(";")
        quality = 1.0
        if params.strip().startswith("q="):
            try:
                quality = float(params.strip()[2:])
            except ValueError:
                quality = 0.0
        lang = normalize(tag.strip()) if tag.strip() and tag.strip() != "*" else ""
        if lang and (lang != "en" or tag.strip().lower().startswith("en")):
            ranked.append((-quality, index, lang))
    return sorted(ranked)[0][2] if ranked else normalize(fallback)


class Site:
    def __init__(self, deps: WebDeps) -> None:
        self.deps = deps
        self.live = Live(self._live_data)
        self._stories: OrderedDict[tuple[int, int], views.Story] = OrderedDict()
        self._replays: OrderedDict[tuple[int, int], replays.Replay] = OrderedDict()

    # ------------------------------------------------------------------ reading tables
    async def public_table(self, web_id: str) -> GameRow:
        """The game behind a public address, if it may be shown (NotFound otherwise)."""
        found = await self.deps.links.table(web_id)
        if found is None:
            raise NotFound("web.not_found")
        record = await self.deps.service.get(found[0])
        public = await self.deps.links.decide(record.id, record.guild_id, record.channel_id, found[1])
        if not public or not self.deps.links.pages_on(record.guild_id) or record.state is None:
            raise NotFound("web.not_found")
        return record

    async def private_table(self, token: str) -> tuple[GameRow, int]:
        link = self.deps.links.read_token(token)
        record = await self.deps.service.get(link.game_id)
        seat_user = record.user_of(link.seat) if 0 <= link.seat < len(record.seats) else None
        await self.deps.links.check(link, seat_user)
        if record.state is None:
            raise NotFound("web.not_found")
        return record, link.seat

    async def story(self, record: GameRow) -> views.Story:
        key = (record.id, record.version)
        told = self._stories.get(key)
        if told is None:
            rows = await self.deps.service.moves(record.id)
            told = await asyncio.to_thread(views.story, record, rows)
            self._stories[key] = told
            while len(self._stories) > STORIES_KEPT:
                self._stories.popitem(last=False)
        return told

    async def table_data(self, record: GameRow, seat: int | None, locale: str, base: str) -> dict[str, Any]:
        obs = self.deps.service.observe(record, seat)
        told = await self.story(record)
        acting = sorted(self.deps.service.to_act(record))
        board = f"{base}/board.png?v={record.version}&lang={locale}"
        hand = f"{base}/hand.png?v={record.version}&lang={locale}" if seat is not None and obs.get("private") else None
        return views.table_data(record, obs, told, acting, locale, board_url=board, private=seat is not None,
                                hand_url=hand)

    async def _live_data(self, game_id: int, seat: int | None, locale: str) -> dict[str, Any] | None:
        """What the live viewers of (table, seat, language) see now: built once for all of them."""
        record = await self.deps.service.get(game_id)
        if record.state is None:
            return None
        if seat is None:
            base = f"/t/{self.deps.links.table_id(game_id)}"
        else:
            base = ""  # a private page's own address stays in the page (its script fills it in)
        return await self.table_data(record, seat, locale, base)

    # ------------------------------------------------------------------ public table pages
    async def table_page(self, request: web.Request) -> web.Response:
        record = await self.public_table(request.match_info["table"])
        locale = chosen_locale(request, record.locale)
        base = f"/t/{request.match_info['table']}"
        data = await self.table_data(record, None, locale, base)
        server = self.deps.links.guild_url(record.guild_id) if record.guild_id else None
        page = html.table_page(data, locale, path=base, events=f"{base}/events?lang={locale}",
                               replay=f"{base}/replay?lang={locale}",
                               server=server.replace(self.deps.links.base_url, "") + f"?lang={locale}"
                               if server else None)
        return web.Response(text=page, content_type="text/html")

    async def table_json(self, request: web.Request) -> web.Response:
        record = await self.public_table(request.match_info["table"])
        locale = chosen_locale(request, record.locale)
        data = await self.table_data(record, None, locale, f"/t/{request.match_info['table']}")
        return web.json_response(data, dumps=lambda d: json.dumps(d, ensure_ascii=False))

    async def table_events(self, request: web.Request) -> web.StreamResponse:
        record = await self.public_table(request.match_info["table"])
        locale = chosen_locale(request, record.locale)
        return await self._stream(request, record, None, locale)

    async def board_png(self, request: web.Request) -> web.Response:
        record = await self.public_table(request.match_info["table"])
        return await self._board(request, record, None)

    async def _board(self, request: web.Request, record: GameRow, seat: int | None) -> web.Response:
        locale = chosen_locale(request, record.locale)
        obs = {**self.deps.service.observe(record, None)}
        data = await self.deps.pictures.get((record.id, record.version, "public", locale), record.game,
                                            "render_public", obs, view="public", names=record.names, locale=locale)
        if data is None:
            raise NotFound("web.not_found")
        return web.Response(body=data, content_type="image/png", headers={"Cache-Control": "private, max-age=30"})

    # ------------------------------------------------------------------ replay
    async def _replay(self, record: GameRow) -> replays.Replay:
        key = (record.id, record.version)
        loaded = self._replays.get(key)
        if loaded is None:
            loaded = await replays.load(self.deps.service, record.id)
            self._replays[key] = loaded
            while len(self._replays) > STORIES_KEPT:
                self._replays.popitem(last=False)
        return loaded

    def _frame_number(self, request: web.Request, total: int, raw: str | None = None) -> int:
        text = raw if raw is not None else request.query.get("n", "0")
        if not text.isdigit() or len(text) > 9:
            raise web.HTTPBadRequest(text=t("web.bad_move", chosen_locale(request, "en")))
        return min(int(text), total)

    async def replay_page(self, request: web.Request) -> web.Response:
        record = await self.public_table(request.match_info["table"])
        locale = chosen_locale(request, record.locale)
        loaded = await self._replay(record)
        number = self._frame_number(request, loaded.total)
        frame = await asyncio.to_thread(loaded.frame, number)
        base = f"/t/{request.match_info['table']}"
        privates = frame.privates or ()
        hidden = [f"{record.names[s]}: {' '.join(items)}" for s, private in enumerate(privates)
                  if (items := replays.hidden_items(record.game, private))]
        data = views.frame_data(record, frame, locale, image_url=f"{base}/replay/{number}.png?lang={locale}",
                                hidden=hidden)
        title = t("web.replay_title", locale, game=views.game_title(record.game, locale))
        page = html.replay_page(title, data, locale, path=f"{base}/replay", table=f"{base}?lang={locale}",
                                ended=loaded.ended)
        return web.Response(text=page, content_type="text/html")

    async def replay_png(self, request: web.Request) -> web.Response:
        record = await self.public_table(request.match_info["table"])
        locale = chosen_locale(request, record.locale)
        loaded = await self._replay(record)
        number = self._frame_number(request, loaded.total, request.match_info["n"])
        frame = await asyncio.to_thread(loaded.frame, number)
        data = await self.deps.pictures.get((record.id, record.version, "replay", number, locale), record.game,
                                            "render_public", frame.observation, view="replay", names=record.names,
                                            locale=locale)
        if data is None:
            raise NotFound("web.not_found")
        return web.Response(body=data, content_type="image/png", headers={"Cache-Control": "private, max-age=300"})

    # ------------------------------------------------------------------ a server's pages
    async def server_page(self, request: web.Request) -> web.Response:
        guild_id = await self.deps.links.guild(request.match_info["server"])
        if guild_id is None or not self.deps.links.pages_on(guild_id):
            raise NotFound("web.not_found")
        locale = chosen_locale(request, "en")
        page = await self.deps.history.page(guild_id, size=50)
        stored = await self.deps.links.public_games([g.id for g in page.games])
        games = []
        for past in page.games:
            # a table in a channel not everybody sees is not listed
            if not await self.deps.links.decide(past.id, past.guild_id, past.channel_id, past.id in stored):
                continue
            places = (past.outcome or {}).get("places", [])
            result = "; ".join(place_lines(places, past.names, locale, markup=False)) if places else \
                t("web.aborted", locale)
            games.append({"game": views.game_title(past.game, locale), "when": past.finished_at[:16].replace("T", " "),
                          "players": ", ".join(past.names), "result": result,
                          "href": f"/t/{self.deps.links.table_id(past.id)}/replay?lang={locale}"})
        stats = await self.deps.players.stats(guild_id)
        leaders = [{"place": i + 1, "name": s.name, "games": s.games, "wins": s.wins}
                   for i, s in enumerate(stats.leaderboard()[:20])]
        title = t("web.server_title", locale)
        text = html.server_page(title, games, leaders, locale, path=f"/s/{request.match_info['server']}")
        return web.Response(text=text, content_type="text/html")

    # ------------------------------------------------------------------ a player's own page
    async def private_page(self, request: web.Request) -> web.Response:
        record, seat = await self.private_table(request.match_info["token"])
        locale = chosen_locale(request, record.locale)
        base = f"/p/{request.match_info['token']}"
        data = await self.table_data(record, seat, locale, base)
        heading = t("web.private_title", locale, game=views.game_title(record.game, locale), name=record.names[seat])
        page = html.table_page(data, locale, path=base, events=f"{base}/events?lang={locale}", replay=None,
                               server=None, heading=heading)
        return web.Response(text=page, content_type="text/html", headers={"Cache-Control": "no-store"})

    async def private_json(self, request: web.Request) -> web.Response:
        record, seat = await self.private_table(request.match_info["token"])
        locale = chosen_locale(request, record.locale)
        data = await self.table_data(record, seat, locale, f"/p/{request.match_info['token']}")
        return web.json_response(data, headers={"Cache-Control": "no-store"})

    async def private_events(self, request: web.Request) -> web.StreamResponse:
        record, seat = await self.private_table(request.match_info["token"])
        return await self._stream(request, record, seat, chosen_locale(request, record.locale))

    async def private_board(self, request: web.Request) -> web.Response:
        record, seat = await self.private_table(request.match_info["token"])
        return await self._board(request, record, seat)

    async def private_hand(self, request: web.Request) -> web.Response:
        record, seat = await self.private_table(request.match_info["token"])
        locale = chosen_locale(request, record.locale)
        obs = self.deps.service.observe(record, seat)
        data = await self.deps.pictures.get((record.id, record.version, "private", seat, locale), record.game,
                                            "render_private", obs, view="private", names=record.names,
                                            locale=locale)
        if data is None:
            raise NotFound("web.not_found")
        return web.Response(body=data, content_type="image/png", headers={"Cache-Control": "no-store"})

    # ------------------------------------------------------------------ live updates
    async def _stream(self, request: web.Request, record: GameRow, seat: int | None,
                      locale: str) -> web.StreamResponse:
        """Server-sent events: the table's state after every commit, until the viewer leaves. A
        commit between the page and this request (``?v=`` older than now) is sent at once."""
        response = web.StreamResponse(headers={"Content-Type": "text/event-stream", "Cache-Control": "no-store",
                                               "X-Accel-Buffering": "no"})
        await response.prepare(request)
        viewer: Viewer = self.live.watch(record.id, seat, locale)
        try:
            seen = request.query.get("v", "")
            if seen.isdigit() and int(seen) != record.version:
                data = await self._live_data(record.id, seat, locale)
                if data is not None:
                    await response.write(self._private_urls(event(data), request, seat))
            while True:
                try:
                    message = await asyncio.wait_for(viewer.queue.get(), timeout=25)
                except TimeoutError:
                    await response.write(b": still here\n\n")  # keeps proxies from closing the stream
                    continue
                if seat is not None:  # a link revoked or a seat changed hands since: the page stops
                    await self.private_table(request.match_info["token"])
                await response.write(self._private_urls(message, request, seat))
        except LinkRefused:
            pass
        except (ConnectionResetError, asyncio.CancelledError):
            pass
        finally:
            self.live.leave(viewer)
        return response

    @staticmethod
    def _private_urls(message: bytes, request: web.Request, seat: int | None) -> bytes:
        """A private page's pictures live under its own signed address."""
        if seat is None:
            return message
        token = request.match_info["token"]
        return message.replace(b'"/board.png', f'"/p/{token}/board.png'.encode()).replace(
            b'"/hand.png', f'"/p/{token}/hand.png'.encode())

    # ------------------------------------------------------------------ operations
    async def healthz(self, request: web.Request) -> web.Response:
        checks = await self.deps.health()
        ok = all(checks.values())
        return web.json_response({"ok": ok, **checks}, status=200 if ok else 503)

    async def metrics(self, request: web.Request) -> web.Response:
        try:
            async with self.deps.service.db.reading_one() as conn:
                from bot.storage import web as repo
                metrics.OUTBOX.set(await repo.pending_announcements(conn))
        except Exception:  # noqa: BLE001 - the other metrics still answer
            log.warning("could not read the outbox depth", exc_info=True)
        response = web.Response(body=metrics.exposition())
        response.headers["Content-Type"] = metrics.CONTENT_TYPE
        return response

    async def index(self, request: web.Request) -> web.Response:
        locale = chosen_locale(request, "en")
        return web.Response(text=html.message_page("Game Master", t("web.index", locale), locale, path="/"),
                            content_type="text/html")

    async def no_icon(self, request: web.Request) -> web.Response:
        return web.Response(status=204)

    async def static(self, request: web.Request) -> web.Response:
        name = request.match_info["name"]
        if name not in STATIC:
            raise web.HTTPNotFound()
        body = resources.files("bot.web").joinpath("static", name).read_bytes()
        return web.Response(body=body, headers={"Content-Type": f"{STATIC[name]}; charset=utf-8",
                                                "Cache-Control": "public, max-age=300"})

    def routes(self) -> list[web.RouteDef]:
        return [
            web.get("/", self.index),
            web.get("/favicon.ico", self.no_icon),
            web.get("/healthz", self.healthz),
            web.get("/metrics", self.metrics),
            web.get("/static/{name}", self.static),
            web.get("/t/{table}", self.table_page),
            web.get("/t/{table}/state.json", self.table_json),
            web.get("/t/{table}/events", self.table_events),
            web.get("/t/{table}/board.png", self.board_png),
            web.get("/t/{table}/replay", self.replay_page),
            web.get(r"/t/{table}/replay/{n:\d{1,9}}.png", self.replay_png),
            web.get("/s/{server}", self.server_page),
            web.get("/p/{token}", self.private_page),
            web.get("/p/{token}/state.json", self.private_json),
            web.get("/p/{token}/events", self.private_events),
            web.get("/p/{token}/board.png", self.private_board),
            web.get("/p/{token}/hand.png", self.private_hand),
        ]


def page_name(request: web.Request) -> str:
    """The route's pattern (bounded), for the request metric; never the address itself."""
    resource = request.match_info.route.resource
    return resource.canonical if resource is not None else "unknown"


def middlewares(limit: RateLimit) -> list[Any]:
    @web.middleware
    async def guard(request: web.Request, handler: Callable[[web.Request], Awaitable[web.StreamResponse]]
                    ) -> web.StreamResponse:
        locale = chosen_locale(request, "en")
        try:
            if request.method not in ("GET", "HEAD"):
                raise web.HTTPMethodNotAllowed(request.method, ["GET", "HEAD"])
            if not limit.allow(request.remote or "?"):
                raise web.HTTPTooManyRequests(text=t("web.slow_down", locale), headers={"Retry-After": "10"})
            try:
                response = await handler(request)
            except LinkRefused as refused:
                page = html.message_page(t("web.link_title", locale), t(refused.reason, locale), locale)
                raise web.HTTPForbidden(text=page, content_type="text/html") from None
            except NotFound:
                page = html.message_page(t("web.not_found_title", locale), t("web.not_found", locale), locale)
                raise web.HTTPNotFound(text=page, content_type="text/html") from None
            except GameMasterError as error:
                raise web.HTTPBadRequest(text=t(error.key, locale, **error.params)) from None
        except web.HTTPException as answer:
            for name, value in SECURITY_HEADERS.items():
                answer.headers.setdefault(name, value)
            metrics.WEB_REQUESTS.labels(page_name(request), str(answer.status)).inc()
            raise
        for name, value in SECURITY_HEADERS.items():
            response.headers.setdefault(name, value)
        metrics.WEB_REQUESTS.labels(page_name(request), str(response.status)).inc()
        return response

    return [guard]


def make_app(deps: WebDeps) -> web.Application:
    """The application: routes, middlewares, and the live hub woken by the database's commits."""
    site = Site(deps)
    app = web.Application(middlewares=middlewares(RateLimit(deps.rate_per_minute)))
    app[SITE] = site
    app.add_routes(site.routes())

    async def live_hub(app: web.Application) -> Any:
        await deps.service.db.listen(COMMITTED, site.live.committed)
        await deps.service.db.listen(COMMITTED, lambda payload: publish_on_commit(deps, payload))
        lag = asyncio.get_running_loop().create_task(metrics.watch_loop(), name="gamemaster-loop-lag")
        yield
        lag.cancel()
        await site.live.close()

    app.cleanup_ctx.append(live_hub)
    return app


_publishing: set[asyncio.Task[None]] = set()


def publish_on_commit(deps: WebDeps, payload: str) -> None:
    """A table that commits gets its address stored (how a request for it finds the game)."""
    try:
        game_id = int(payload)
    except ValueError:
        return
    if deps.links.known(game_id):
        return

    async def publish() -> None:
        try:
            record = await deps.service.get(game_id)
            await deps.links.publish(game_id, record.guild_id)
        except Exception:  # noqa: BLE001 - the next commit tries again
            log.warning("could not store the web address of game %s", game_id, exc_info=True)

    task = asyncio.get_running_loop().create_task(publish())
    _publishing.add(task)
    task.add_done_callback(_publishing.discard)


__all__ = ["WebDeps", "make_app"]
