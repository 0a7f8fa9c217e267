"""#27 point 4, the token: Discord's address can only be moved to this machine, a database URL is
shown without its secrets, and no test hook lives in the bot's code."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from bot.cli import main
from bot.runner import point_discord_at
from bot.settings import SettingError, Settings, is_loopback
from bot.storage.backend import redact, scrub

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("url", ["http://127.0.0.1:5000/api/v10", "ws://localhost:80/gw", "http://[::1]:9/x",
                                 "http://127.8.9.10/api"])
def test_the_token_goes_to_loopback_hosts(url: str) -> None:
    assert is_loopback(url)


@pytest.mark.parametrize("url", ["https://evil.example/api/v10", "http://10.0.0.1/api", "http://127.0.0.1.evil.example/",
                                 "http://localhost.evil.example/", "http://user@evil.example:80/", "not a url",
                                 "http://[::ffff:8.8.8.8]/", "file:///etc/passwd"])
def test_the_token_never_goes_to_another_host(url: str) -> None:
    assert not is_loopback(url)
    with pytest.raises(SettingError):
        point_discord_at(url, None)
    with pytest.raises(SettingError):
        point_discord_at(None, url)


@pytest.mark.parametrize("variable", ["GAMEMASTER_API_BASE", "GAMEMASTER_GATEWAY_URL"])
def test_the_token_a_stray_env_pointing_elsewhere_stops_the_bot_in_one_line(
        variable: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("DISCORD_TOKEN", "secret-token")
    monkeypatch.setenv(variable, "https://collector.example/api/v10")
    assert main(["run"]) == 2
    out = capsys.readouterr()
    assert out.out == ""
    lines = out.err.strip().splitlines()
    assert len(lines) == 1 and variable in lines[0] and "collector.example" in lines[0] and "127.0.0.1" in lines[0]
    assert "secret-token" not in out.err


@pytest.mark.parametrize(("url", "shown"), [
    ("postgresql://gm:p@ss@db/gamemaster", "postgresql://gm:***@db/gamemaster"),
    ("postgresql://gm:secret@db:5432/gm?sslmode=require", "postgresql://gm:***@db:5432/gm?sslmode=require"),
    ("postgresql://:secret@db/gm", "postgresql://:***@db/gm"),
    ("postgresql://gm@db/gm?password=secret&sslmode=disable", "postgresql://gm@db/gm?password=***&sslmode=disable"),
    ("postgresql://db?user=gm&PASSWORD=secret", "postgresql://db?user=gm&PASSWORD=***"),
    ("postgresql://gm@db/gm", "postgresql://gm@db/gm"),
    ("postgresql://gm:a%40b@[::1]:5432/gm", "postgresql://gm:***@[::1]:5432/gm"),
])
def test_the_token_database_url_redacted_with_a_url_parser(url: str, shown: str) -> None:
    assert redact(url) == shown
    assert "secret" not in redact(url) and "p@ss" not in redact(url)


def test_the_token_database_errors_lose_the_password_too() -> None:
    url = "postgresql://gm:p@ss@db/gm?password=hunter2"
    said = scrub(f"could not connect to {url}: password p@ss rejected, hunter2 too", url)
    assert "p@ss" not in said and "hunter2" not in said and "db/gm" in said


def test_the_token_settings_never_show_secrets_in_their_repr() -> None:
    settings = Settings(token="secret-token", database_url="postgresql://gm:secret@db/gm")
    assert "secret" not in repr(settings)


def test_the_token_no_test_hooks_in_production_code() -> None:
    """The bot's own code reads no test-only switch: what tests need (a crash at a chosen point)
    they inject from outside (tests/e2e/crashhook/sitecustomize.py)."""
    hooks = re.compile(r"GAMEMASTER_TEST|os\.kill\(os\.getpid")
    found = [f"{path.relative_to(ROOT)}:{n}" for folder in ("bot", "cogs", "rendering")
             for path in sorted((ROOT / folder).rglob("*.py"))
             for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1) if hooks.search(line)]
    assert found == []
