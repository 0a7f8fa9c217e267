"""#27 point 5, settings checked at start: a bad value is refused in one line that names the
variable, the value and what is allowed, before anything starts."""
from __future__ import annotations

from pathlib import Path

import pytest

from bot.cli import main
from bot.settings import SettingError, Settings

BAD = [
    ("GAMEMASTER_DEV_GUILD_ID", "abc", "digits"),
    ("GAMEMASTER_DEV_GUILD_ID", "-5", "digits"),
    ("GAMEMASTER_LOG_LEVEL", "LOUD", "DEBUG, INFO, WARNING, ERROR, CRITICAL"),
    ("GAMEMASTER_SHARDS", "a-b", "0-3"),
    ("GAMEMASTER_SHARDS", "3-1", "0-3"),
    ("GAMEMASTER_LOCALE", "de", "en, sv, nb, cs"),
    ("GAMEMASTER_RENDER_PROCESSES", "-1", "0 to 64"),
    ("GAMEMASTER_RENDER_PROCESSES", "two", "0 to 64"),
    ("GAMEMASTER_COMPUTER_PROCESSES", "-1", "0 to 64"),
    ("GAMEMASTER_COMPUTER_PROCESSES", "65", "0 to 64"),
    ("GAMEMASTER_SCHEDULER_SECONDS", "nan", "seconds"),
    ("GAMEMASTER_SHARD_COUNT", "0", "1 to 65536"),
    ("GAMEMASTER_ANNOUNCE_SLOTS", "0", "1 to 1000"),
    ("GAMEMASTER_EVENT_LOOP", "trio", "auto, uvloop, asyncio"),
    ("GAMEMASTER_REPLAY_CAP_MB", "11", "MiB"),
    ("GAMEMASTER_SYNC_COMMANDS", "maybe", "1 or 0"),
    ("GAMEMASTER_CHANNEL_WINDOW", "-1", "seconds"),
]


@pytest.fixture
def clean_env(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> pytest.MonkeyPatch:
    monkeypatch.chdir(tmp_path)  # no .env of the working folder
    for name in ("DISCORD_TOKEN", "GAMEMASTER_SHARDS", "GAMEMASTER_SHARD_COUNT", "GAMEMASTER_LOCALE"):
        monkeypatch.delenv(name, raising=False)
    return monkeypatch


@pytest.mark.parametrize(("variable", "value", "allowed"), BAD)
def test_settings_checked_at_start_a_bad_value_names_variable_value_and_what_is_allowed(
        variable: str, value: str, allowed: str, clean_env: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    clean_env.setenv(variable, value)
    with pytest.raises(SettingError) as raised:
        Settings.from_env()
    assert raised.value.variable == variable
    assert main(["db", "migrate"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1, err
    assert f"{variable}={value}" in err[0] and allowed in err[0]
    assert "Traceback" not in err[0] and "invalid literal" not in err[0]


def test_settings_checked_at_start_in_the_operators_language(clean_env: pytest.MonkeyPatch,
                                                              capsys: pytest.CaptureFixture[str]) -> None:
    clean_env.setenv("GAMEMASTER_LOCALE", "sv")
    clean_env.setenv("GAMEMASTER_LOG_LEVEL", "LOUD")
    assert main(["db", "migrate"]) == 2
    assert "går inte att använda" in capsys.readouterr().err


def test_settings_checked_at_start_shard_range_against_its_count(clean_env: pytest.MonkeyPatch,
                                                                  capsys: pytest.CaptureFixture[str]) -> None:
    clean_env.setenv("DISCORD_TOKEN", "t")
    clean_env.setenv("GAMEMASTER_SHARDS", "0-8")
    clean_env.setenv("GAMEMASTER_SHARD_COUNT", "8")
    assert main(["run"]) == 2
    err = capsys.readouterr().err
    assert "GAMEMASTER_SHARDS=0,1,2,3,4,5,6,7,8" in err and "8" in err
    assert main(["run", "--shards", "x"]) == 2
    assert "--shards=x" in capsys.readouterr().err


def test_settings_checked_at_start_good_values_are_read(clean_env: pytest.MonkeyPatch) -> None:
    for name, value in (("GAMEMASTER_DEV_GUILD_ID", "123456789012345678"), ("GAMEMASTER_LOG_LEVEL", "debug"),
                        ("GAMEMASTER_LOCALE", "CS"), ("GAMEMASTER_RENDER_PROCESSES", "0"),
                        ("GAMEMASTER_SHARDS", "0-1,6"), ("GAMEMASTER_SHARD_COUNT", "8"),
                        ("GAMEMASTER_SYNC_COMMANDS", "no"), ("GAMEMASTER_API_BASE", "http://127.0.0.1:1/api/v10"),
                        ("GAMEMASTER_COMPUTER_PROCESSES", "0")):
        clean_env.setenv(name, value)
    settings = Settings.from_env()
    assert (settings.dev_guild_id, settings.log_level, settings.default_locale, settings.render_processes,
            settings.shards, settings.shard_count, settings.sync_commands, settings.computer_processes) == \
        (123456789012345678, "DEBUG", "cs", 0, (0, 1, 6), 8, False, 0)
    settings.check_shards()


def test_uvloop_asked_for_where_it_is_not_installed_is_refused_in_one_line(
        clean_env: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    import importlib.util
    found = importlib.util.find_spec
    clean_env.setattr(importlib.util, "find_spec", lambda name, *a: None if name == "uvloop" else found(name, *a))
    clean_env.setenv("GAMEMASTER_EVENT_LOOP", "uvloop")
    assert main(["db", "migrate"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "GAMEMASTER_EVENT_LOOP=uvloop" in err[0] and "auto, asyncio" in err[0], err
    clean_env.setenv("GAMEMASTER_EVENT_LOOP", "auto")  # auto runs on the standard loop there
    assert Settings.from_env().event_loop == "auto"
