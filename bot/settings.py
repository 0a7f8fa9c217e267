"""Settings from the environment (and a .env file): one frozen object passed to everything."""
from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from dotenv import load_dotenv


def parse_shards(text: str) -> tuple[int, ...] | None:
    """``0-3`` or ``0,2,5`` or ``0-1,6`` -> the shard ids; empty -> None (all shards)."""
    out: list[int] = []
    for part in text.replace(" ", "").split(","):
        if not part:
            continue
        low, _, high = part.partition("-")
        out.extend(range(int(low), int(high or low) + 1))
    return tuple(sorted(set(out))) or None


@dataclass(frozen=True)
class Settings:
    token: str | None = None
    database_path: Path = Path("data/gamemaster.sqlite3")
    database_url: str | None = None  # DATABASE_URL: sqlite:///path or postgresql://…; default the path above
    dev_guild_id: int | None = None
    log_level: str = "INFO"
    default_locale: str = "en"
    boards_dir: Path = Path("data/boards")
    sync_commands: bool = True
    scheduler_seconds: float = 60.0
    render_processes: int = 0  # worker processes drawing images (0: threads); from_env: one per core
    # Discord's per-channel limit the announcer keeps to: posts and edits per window (seconds)
    channel_posts: int = 5
    channel_window: float = 5.0
    announce_sweep_seconds: float = 60.0  # redeliver what is committed but not yet announced
    # tables whose announcements are delivered at once; the others wait (coalescing their moves)
    # so that interactions never queue behind announcement work (bot/services/admission.py)
    announce_slots: int = 8
    replay_cap_bytes: int = 8 * 1024 * 1024  # the animated replay on a result (Discord allows 10 MiB)
    # Discord shards this process runs (None: all of them, as Discord recommends) of shard_count.
    shards: tuple[int, ...] | None = None
    shard_count: int | None = None
    identify_seconds: float = 5.0  # Discord's spacing between two shards' IDENTIFYs (tests: 0)
    # Test-only: point discord.py at a loopback fake Discord (REST base and gateway URL).
    api_base: str | None = None
    gateway_url: str | None = None

    @classmethod
    def from_env(cls, env_file: str | Path | None = ".env") -> Settings:
        if env_file and Path(env_file).exists():
            load_dotenv(env_file, override=False)
        guild = os.environ.get("GAMEMASTER_DEV_GUILD_ID", "").strip()
        return cls(
            token=os.environ.get("DISCORD_TOKEN", "").strip() or None,
            database_path=Path(os.environ.get("GAMEMASTER_DB", "data/gamemaster.sqlite3")),
            database_url=os.environ.get("DATABASE_URL", "").strip() or None,
            dev_guild_id=int(guild) if guild else None,
            log_level=os.environ.get("GAMEMASTER_LOG_LEVEL", "INFO").upper(),
            default_locale=os.environ.get("GAMEMASTER_LOCALE", "en"),
            boards_dir=Path(os.environ.get("GAMEMASTER_BOARDS_DIR", "data/boards")),
            sync_commands=os.environ.get("GAMEMASTER_SYNC_COMMANDS", "1") not in ("0", "false", "no"),
            scheduler_seconds=float(os.environ.get("GAMEMASTER_SCHEDULER_SECONDS", "60")),
            render_processes=int(os.environ.get("GAMEMASTER_RENDER_PROCESSES", "") or os.cpu_count() or 1),
            channel_window=float(os.environ.get("GAMEMASTER_CHANNEL_WINDOW", "5")),
            announce_slots=int(os.environ.get("GAMEMASTER_ANNOUNCE_SLOTS", "") or 8),
            replay_cap_bytes=int(float(os.environ.get("GAMEMASTER_REPLAY_CAP_MB", "") or 8) * 1024 * 1024),
            api_base=os.environ.get("GAMEMASTER_API_BASE") or None,
            gateway_url=os.environ.get("GAMEMASTER_GATEWAY_URL") or None,
            shards=parse_shards(os.environ.get("GAMEMASTER_SHARDS", "")),
            shard_count=int(os.environ.get("GAMEMASTER_SHARD_COUNT", "").strip() or 0) or None,
            identify_seconds=float(os.environ.get("GAMEMASTER_IDENTIFY_SECONDS", "5")),
        )

    def check_shards(self) -> None:
        """Shards and their count go together; every shard is below the count."""
        if (self.shards is None) != (self.shard_count is None):
            raise ValueError("--shards and --shard-count (GAMEMASTER_SHARDS, GAMEMASTER_SHARD_COUNT) go together")
        if self.shards is not None and self.shard_count is not None and \
                not all(0 <= s < self.shard_count for s in self.shards):
            raise ValueError(f"every shard must be below the shard count {self.shard_count}")

    @property
    def database(self) -> str:
        """What ``Database()`` opens: DATABASE_URL, else the SQLite file."""
        return self.database_url or str(self.database_path)
