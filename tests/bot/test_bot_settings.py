"""Settings from the environment and ``.env``, and the ``gameroom`` command line."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

import pytest

from bot.__main__ import main
from bot.settings import DEFAULT_DB_URL, Settings, SettingsError


def test_defaults_need_only_a_token() -> None:
    settings = Settings.from_mapping({"DISCORD_TOKEN": "abc"})
    assert settings == Settings(discord_token="abc")
    assert settings.db_url == DEFAULT_DB_URL
    assert settings.dev_guild_id is None
    assert settings.discord_api_base is None
    assert settings.discord_gateway is None
    assert settings.log_level == "INFO"
    assert settings.log_level_number == 20
    assert settings.challenge_ttl == timedelta(hours=24)


def test_every_setting_is_parsed() -> None:
    settings = Settings.from_mapping(
        {
            "DISCORD_TOKEN": " abc ",
            "GAMEROOM_DB_URL": "postgresql+asyncpg://u@h/db",
            "GAMEROOM_DEV_GUILD": "1234567890",
            "GAMEROOM_DISCORD_API_BASE": "http://127.0.0.1:8080/api/v10/",
            "GAMEROOM_DISCORD_GATEWAY": "ws://127.0.0.1:8080/gateway",
            "GAMEROOM_LOG_LEVEL": "debug",
            "GAMEROOM_CHALLENGE_TTL": "30m",
        }
    )
    assert settings.discord_token == "abc"
    assert settings.db_url == "postgresql+asyncpg://u@h/db"
    assert settings.dev_guild_id == 1234567890
    assert settings.discord_api_base == "http://127.0.0.1:8080/api/v10"
    assert settings.discord_gateway == "ws://127.0.0.1:8080/gateway"
    assert settings.log_level == "DEBUG"
    assert settings.challenge_ttl == timedelta(minutes=30)


@pytest.mark.parametrize(
    ("text", "expected"),
    [("3600", timedelta(hours=1)), ("90s", timedelta(seconds=90)), ("7d", timedelta(days=7))],
)
def test_challenge_ttl_units(text: str, expected: timedelta) -> None:
    settings = Settings.from_mapping({"DISCORD_TOKEN": "t", "GAMEROOM_CHALLENGE_TTL": text})
    assert settings.challenge_ttl == expected


@pytest.mark.parametrize(
    ("name", "value", "message"),
    [
        ("DISCORD_TOKEN", "  ", "DISCORD_TOKEN is not set"),
        ("GAMEROOM_DEV_GUILD", "my-guild", "GAMEROOM_DEV_GUILD must be a Discord id"),
        ("GAMEROOM_DISCORD_API_BASE", "127.0.0.1:80", "must be an absolute http:// or https://"),
        ("GAMEROOM_DISCORD_GATEWAY", "http://x", "must be an absolute ws:// or wss://"),
        ("GAMEROOM_LOG_LEVEL", "LOUD", "GAMEROOM_LOG_LEVEL must be one of"),
        ("GAMEROOM_CHALLENGE_TTL", "0", "must be a positive duration"),
        ("GAMEROOM_CHALLENGE_TTL", "a day", "must be a positive duration"),
    ],
)
def test_malformed_settings_name_the_variable(name: str, value: str, message: str) -> None:
    values = {"DISCORD_TOKEN": "t", name: value}
    with pytest.raises(SettingsError, match=message):
        Settings.from_mapping(values)


def test_env_file_fills_in_and_the_environment_wins(tmp_path: Path) -> None:
    env_file = tmp_path / ".env"
    env_file.write_text("DISCORD_TOKEN=from-file\nGAMEROOM_LOG_LEVEL=WARNING\n")
    settings = Settings.from_env({"GAMEROOM_LOG_LEVEL": "ERROR"}, env_file=env_file)
    assert settings.discord_token == "from-file"
    assert settings.log_level == "ERROR"
    missing = Settings.from_env({"DISCORD_TOKEN": "x"}, env_file=tmp_path / "absent.env")
    assert missing.discord_token == "x"


def test_the_token_never_appears_in_repr() -> None:
    assert "sekrit" not in repr(Settings(discord_token="sekrit"))


def test_missing_token_exits_with_status_2_and_one_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)  # no .env here
    monkeypatch.delenv("DISCORD_TOKEN", raising=False)
    assert main(["run"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1
    assert "DISCORD_TOKEN is not set" in err


def test_the_command_line_needs_a_subcommand(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main([])
    assert exit_info.value.code == 2
    assert "run" in capsys.readouterr().err
