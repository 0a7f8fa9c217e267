"""Settings from the environment (and a .env file): one frozen object passed to everything.

Every value is checked at start: a bad one raises ``SettingError`` naming the variable, the value
and what is allowed, said in one line by the command line, never a traceback."""
from __future__ import annotations

import importlib.util
import ipaddress
import os
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TypeVar
from urllib.parse import urlsplit

from dotenv import load_dotenv

from bot.i18n import LANGUAGES

LOG_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL")
EVENT_LOOPS = ("auto", "uvloop", "asyncio")  # auto: uvloop where it is installed (bot/loops.py)
_TRUE, _FALSE = ("1", "true", "yes", "on"), ("0", "false", "no", "off")
T = TypeVar("T")


class SettingError(ValueError):
    """A setting's value the bot cannot use: which variable, its value, and the catalog key (with
    params) of what is allowed, so the message names all three in the operator's language."""

    def __init__(self, variable: str, value: str, allowed: str, **params: object) -> None:
        super().__init__(f"{variable}={value!r}: {allowed} {params}")
        self.variable, self.value, self.allowed, self.params = variable, value, allowed, params


def parse_shards(text: str) -> tuple[int, ...] | None:
    """``0-3`` or ``0,2,5`` or ``0-1,6`` -> the shard ids; empty -> None (all shards). Anything
    else (``a``, ``3-1``, ``-2``) raises ValueError."""
    out: list[int] = []
    for part in text.replace(" ", "").split(","):
        if not part:
            continue
        low, dash, high = part.partition("-")
        if not low.isdigit() or (dash and not high.isdigit()):
            raise ValueError(part)
        first, last = int(low), int(high or low)
        if last < first or last - first > 65_535:
            raise ValueError(part)
        out.extend(range(first, last + 1))
    return tuple(sorted(set(out))) or None


def is_loopback(url: str) -> bool:
    """Whether a URL's host is this machine (localhost, 127.0.0.0/8, ::1): the only place the bot
    token may go besides Discord."""
    try:
        host = urlsplit(url).hostname
    except ValueError:
        return False
    if not host:
        return False
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


@dataclass(frozen=True)
class Settings:
    token: str | None = field(default=None, repr=False)
    database_path: Path = Path("data/gamemaster.sqlite3")
    # DATABASE_URL: sqlite:///path or postgresql://…; default the path above (never in a repr: a password)
    database_url: str | None = field(default=None, repr=False)
    dev_guild_id: int | None = None
    log_level: str = "INFO"
    default_locale: str = "en"
    boards_dir: Path = Path("data/boards")
    sync_commands: bool = True
    scheduler_seconds: float = 60.0
    render_processes: int = 0  # worker processes drawing images (0: threads); from_env: one per core
    # worker processes where computer seats decide (bot/services/computers.py; 0: a thread of the
    # bot's process, whose searches then share the interpreter with the event loop); from_env: 1
    computer_processes: int = 0
    # Discord's per-channel limit the announcer keeps to: posts and edits per window (seconds)
    channel_posts: int = 5
    channel_window: float = 5.0
    announce_sweep_seconds: float = 60.0  # redeliver what is committed but not yet announced
    # tables whose announcements are delivered at once; the others wait (coalescing their moves)
    # so that interactions never queue behind announcement work (bot/services/admission.py)
    announce_slots: int = 8
    # the bot's event loop (bot/loops.py): uvloop where installed, which does the loop's own work
    # (callbacks, sockets, timers) in C; "asyncio" for the standard library's loop
    event_loop: str = "auto"
    replay_cap_bytes: int = 8 * 1024 * 1024  # the animated replay on a result (Discord allows 10 MiB)
    # Discord shards this process runs (None: all of them, as Discord recommends) of shard_count.
    shards: tuple[int, ...] | None = None
    shard_count: int | None = None
    identify_seconds: float = 5.0  # Discord's spacing between two shards' IDENTIFYs (tests: 0)
    # The table in a browser (bot/web): on by default from the environment (``from_env``, so
    # ``make run``), off for a Settings made in code (tests start their own on port 0); on this
    # machine only unless web_host says otherwise; web_url is the address players are given
    web_enabled: bool = False
    web_host: str = "127.0.0.1"
    web_port: int = 8080
    web_url: str | None = None  # None: http://web_host:web_port
    web_rate: int = 600  # requests per client address and minute
    # Test-only: point discord.py at a loopback fake Discord (REST base and gateway URL); only
    # loopback hosts are accepted, so a stray .env can never send the token to another host.
    api_base: str | None = None
    gateway_url: str | None = None

    @classmethod
    def from_env(cls, env_file: str | Path | None = ".env") -> Settings:
        if env_file and Path(env_file).exists():
            load_dotenv(env_file, override=False)
        cores = os.cpu_count() or 1
        return cls(
            token=_env("DISCORD_TOKEN") or None,
            database_path=Path(_env("GAMEMASTER_DB") or "data/gamemaster.sqlite3"),
            database_url=_env("DATABASE_URL") or None,
            dev_guild_id=_read("GAMEMASTER_DEV_GUILD_ID", None, _snowflake, "settings.allowed.snowflake"),
            log_level=_read("GAMEMASTER_LOG_LEVEL", "INFO", _choice(LOG_LEVELS, str.upper), "settings.allowed.one_of",
                            choices=", ".join(LOG_LEVELS)),
            default_locale=_read("GAMEMASTER_LOCALE", "en", _choice(LANGUAGES, str.lower), "settings.allowed.one_of",
                                 choices=", ".join(LANGUAGES)),
            boards_dir=Path(_env("GAMEMASTER_BOARDS_DIR") or "data/boards"),
            sync_commands=_read("GAMEMASTER_SYNC_COMMANDS", True, _bool, "settings.allowed.bool"),
            scheduler_seconds=_read("GAMEMASTER_SCHEDULER_SECONDS", 60.0, _number(0, 86_400),
                                    "settings.allowed.seconds", low=0, high=86_400),
            render_processes=_read("GAMEMASTER_RENDER_PROCESSES", cores, _whole(0, 64), "settings.allowed.whole",
                                   low=0, high=64),
            computer_processes=_read("GAMEMASTER_COMPUTER_PROCESSES", 1, _whole(0, 64), "settings.allowed.whole",
                                     low=0, high=64),
            channel_window=_read("GAMEMASTER_CHANNEL_WINDOW", 5.0, _number(0.01, 60), "settings.allowed.seconds",
                                 low=0.01, high=60),
            announce_slots=_read("GAMEMASTER_ANNOUNCE_SLOTS", 8, _whole(1, 1000), "settings.allowed.whole",
                                 low=1, high=1000),
            event_loop=_read("GAMEMASTER_EVENT_LOOP", "auto", _choice(event_loops(), str.lower),
                             "settings.allowed.one_of", choices=", ".join(event_loops())),
            replay_cap_bytes=_read("GAMEMASTER_REPLAY_CAP_MB", 8 * 1024 * 1024, _megabytes,
                                   "settings.allowed.megabytes", low=0.1, high=10),
            api_base=_read("GAMEMASTER_API_BASE", None, _loopback, "settings.allowed.loopback"),
            gateway_url=_read("GAMEMASTER_GATEWAY_URL", None, _loopback, "settings.allowed.loopback"),
            shards=_read("GAMEMASTER_SHARDS", None, parse_shards, "settings.allowed.shards"),
            shard_count=_read("GAMEMASTER_SHARD_COUNT", None, _whole(1, 65_536), "settings.allowed.whole",
                              low=1, high=65_536),
            identify_seconds=_read("GAMEMASTER_IDENTIFY_SECONDS", 5.0, _number(0, 60), "settings.allowed.seconds",
                                   low=0, high=60),
            web_enabled=_read("GAMEMASTER_WEB", True, _bool, "settings.allowed.bool"),
            web_host=os.environ.get("GAMEMASTER_WEB_HOST", "").strip() or "127.0.0.1",
            web_port=_read("GAMEMASTER_WEB_PORT", 8080, _whole(0, 65_535), "settings.allowed.whole", low=0,
                           high=65_535),
            web_url=os.environ.get("GAMEMASTER_WEB_URL", "").strip() or None,
            web_rate=_read("GAMEMASTER_WEB_RATE", 600, _whole(1, 1_000_000), "settings.allowed.whole", low=1,
                           high=1_000_000),
        )

    def check_shards(self) -> None:
        """Shards and their count go together; every shard is below the count."""
        if (self.shards is None) != (self.shard_count is None):
            raise SettingError("GAMEMASTER_SHARDS", _shown(self.shards), "settings.allowed.shards_together",
                               count=self.shard_count or "")
        if self.shards is not None and self.shard_count is not None and \
                not all(0 <= s < self.shard_count for s in self.shards):
            raise SettingError("GAMEMASTER_SHARDS", _shown(self.shards), "settings.allowed.shards_below",
                               count=self.shard_count)

    def check_web(self) -> None:
        """The web server's port, public address and rate limit make sense."""
        if not 0 <= self.web_port <= 65535:
            raise ValueError(f"GAMEMASTER_WEB_PORT must be a port number (0-65535), not {self.web_port}")
        if self.web_url is not None:
            parts = urlsplit(self.web_url)
            if parts.scheme not in ("http", "https") or not parts.netloc or parts.query or parts.fragment:
                raise ValueError(f"GAMEMASTER_WEB_URL must be an http(s) address like https://games.example.org, "
                                 f"not {self.web_url!r}")
        if self.web_rate < 1:
            raise ValueError("GAMEMASTER_WEB_RATE must be at least 1 request a minute")

    @property
    def public_web_url(self) -> str:
        """Where players open the pages: GAMEMASTER_WEB_URL, else this machine's address and port."""
        return (self.web_url or f"http://{self.web_host}:{self.web_port}").rstrip("/")

    @property
    def database(self) -> str:
        """What ``Database()`` opens: DATABASE_URL, else the SQLite file."""
        return self.database_url or str(self.database_path)


def event_loops() -> tuple[str, ...]:
    """The event loops this machine can run: uvloop only where it is installed (not on Windows),
    so asking for it elsewhere is refused at start in one line, like any other bad value."""
    return EVENT_LOOPS if importlib.util.find_spec("uvloop") is not None else ("auto", "asyncio")


def _shown(shards: tuple[int, ...] | None) -> str:
    return ",".join(map(str, shards)) if shards else ""


def _env(name: str) -> str:
    return os.environ.get(name, "").strip()


def _read(name: str, default: T, parse: Callable[[str], T], allowed: str, **params: object) -> T:
    """The variable's value parsed, its default when unset or empty; a value ``parse`` refuses
    raises SettingError naming the variable, the value and what is allowed."""
    text = _env(name)
    if not text:
        return default
    try:
        return parse(text)
    except (ValueError, OverflowError):
        raise SettingError(name, text, allowed, **params) from None


def _snowflake(text: str) -> int:
    if not text.isdigit() or not 0 < int(text) < 2 ** 64:
        raise ValueError(text)
    return int(text)


def _choice(choices: tuple[str, ...], norm: Callable[[str], str]) -> Callable[[str], str]:
    def parse(text: str) -> str:
        if norm(text) not in choices:
            raise ValueError(text)
        return norm(text)
    return parse


def _bool(text: str) -> bool:
    if text.lower() in _TRUE:
        return True
    if text.lower() in _FALSE:
        return False
    raise ValueError(text)


def _number(low: float, high: float) -> Callable[[str], float]:
    def parse(text: str) -> float:
        value = float(text)
        if not low <= value <= high:  # also refuses nan
            raise ValueError(text)
        return value
    return parse


def _whole(low: int, high: int) -> Callable[[str], int]:
    def parse(text: str) -> int:
        value = int(text)
        if not low <= value <= high:
            raise ValueError(text)
        return value
    return parse


def _megabytes(text: str) -> int:
    return int(_number(0.1, 10)(text) * 1024 * 1024)


def _loopback(text: str) -> str:
    if not is_loopback(text):
        raise ValueError(text)
    return text
