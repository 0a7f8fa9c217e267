"""Settings from the environment (and a .env file): one frozen object passed to everything."""
from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from dotenv import load_dotenv


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
            api_base=os.environ.get("GAMEMASTER_API_BASE") or None,
            gateway_url=os.environ.get("GAMEMASTER_GATEWAY_URL") or None,
        )

    @property
    def database(self) -> str:
        """What ``Database()`` opens: DATABASE_URL, else the SQLite file."""
        return self.database_url or str(self.database_path)
