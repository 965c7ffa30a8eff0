"""Settings from the environment and ``.env``, and the ``gameroom`` command line."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

import pytest

from ai.levels import levels_for
from bot.__main__ import main
from bot.settings import DEFAULT_DB_URL, MIN_TIMER_STALE_AFTER, Settings, SettingsError
from engines import ENGINES


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
    ("text", "expected"),
    [
        (None, timedelta(seconds=5)),
        ("0", timedelta(0)),
        ("2", timedelta(seconds=2)),
        ("1m", timedelta(minutes=1)),
    ],
)
def test_exhibition_pace(text: str | None, expected: timedelta) -> None:
    given = {} if text is None else {"GAMEROOM_EXHIBITION_PACE": text}
    settings = Settings.from_mapping({"DISCORD_TOKEN": "t", **given})
    assert settings.exhibition_pace == expected


@pytest.mark.parametrize("text", ["-5", "soon", "400d"])
def test_a_bad_exhibition_pace_names_the_setting(text: str) -> None:
    with pytest.raises(SettingsError, match="GAMEROOM_EXHIBITION_PACE must be"):
        Settings.from_mapping({"DISCORD_TOKEN": "t", "GAMEROOM_EXHIBITION_PACE": text})


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


def test_slow_play_defaults() -> None:
    settings = Settings.from_mapping({"DISCORD_TOKEN": "t"})
    assert settings.default_clock == "none"
    assert settings.reminder_quiet == timedelta(hours=24)
    assert settings.reminder_interval == timedelta(hours=24)
    assert settings.vacation_days == 30
    assert settings.vacation_allowance == timedelta(days=30)
    assert settings.thread_archive_after == timedelta(hours=1)
    assert settings.timer_interval == timedelta(seconds=30)
    assert settings.timer_stale_after == timedelta(minutes=5)


def test_every_slow_play_setting_is_parsed() -> None:
    settings = Settings.from_mapping(
        {
            "DISCORD_TOKEN": "t",
            "GAMEROOM_DEFAULT_CLOCK": " Correspondence ",
            "GAMEROOM_REMINDER_QUIET": "3d 12h",
            "GAMEROOM_REMINDER_INTERVAL": "90m",
            "GAMEROOM_VACATION_DAYS": "14",
            "GAMEROOM_THREAD_ARCHIVE_AFTER": "45s",
            "GAMEROOM_TIMER_INTERVAL": "1s",
            "GAMEROOM_TIMER_STALE_AFTER": "600",
        }
    )
    assert settings.default_clock == "soft:2d+1d/4d"  # stored in its canonical text
    assert settings.reminder_quiet == timedelta(days=3, hours=12)
    assert settings.reminder_interval == timedelta(minutes=90)
    assert settings.vacation_allowance == timedelta(days=14)
    assert settings.thread_archive_after == timedelta(seconds=45)
    assert settings.timer_interval == timedelta(seconds=1)
    assert settings.timer_stale_after == timedelta(minutes=10)


DURATION_SETTINGS = (
    "GAMEROOM_CHALLENGE_TTL",
    "GAMEROOM_REMINDER_QUIET",
    "GAMEROOM_REMINDER_INTERVAL",
    "GAMEROOM_THREAD_ARCHIVE_AFTER",
    "GAMEROOM_TIMER_INTERVAL",
    "GAMEROOM_TIMER_STALE_AFTER",
)
FIELDS = {
    "GAMEROOM_CHALLENGE_TTL": "challenge_ttl",
    "GAMEROOM_REMINDER_QUIET": "reminder_quiet",
    "GAMEROOM_REMINDER_INTERVAL": "reminder_interval",
    "GAMEROOM_THREAD_ARCHIVE_AFTER": "thread_archive_after",
    "GAMEROOM_TIMER_INTERVAL": "timer_interval",
    "GAMEROOM_TIMER_STALE_AFTER": "timer_stale_after",
}


@pytest.mark.parametrize("name", DURATION_SETTINGS)
@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("3d 12h", timedelta(days=3, hours=12)),
        ("1D12H", timedelta(days=1, hours=12)),
        ("90m", timedelta(minutes=90)),
        ("45s", timedelta(seconds=45)),
        ("3600", timedelta(hours=1)),
        ("365d", timedelta(days=365)),
    ],
)
def test_every_duration_setting_reads_the_same_syntax(
    name: str, text: str, expected: timedelta
) -> None:
    settings = Settings.from_mapping({"DISCORD_TOKEN": "t", name: text})
    assert getattr(settings, FIELDS[name]) == expected


@pytest.mark.parametrize("name", DURATION_SETTINGS)
@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("0", "must be a positive duration"),
        ("0s", "must be a positive duration"),
        ("12h3d", "must be a positive duration"),
        ("-5m", "must be a positive duration"),
        ("soon", "must be a positive duration"),
        ("366d", "at most 365d"),
        ("99999999999999999999d", "must be a positive duration"),
    ],
)
def test_malformed_durations_name_the_variable(name: str, text: str, message: str) -> None:
    with pytest.raises(SettingsError, match=f"{name} {message}|{name} must be at most"):
        Settings.from_mapping({"DISCORD_TOKEN": "t", name: text})


def test_the_stale_claim_time_has_a_floor_that_leaves_room_for_the_slowest_bot_turn() -> None:
    with pytest.raises(SettingsError, match=r"GAMEROOM_TIMER_STALE_AFTER .*at least 10s"):
        Settings.from_mapping({"DISCORD_TOKEN": "t", "GAMEROOM_TIMER_STALE_AFTER": "3s"})
    # A handler gets half the stale time; the slowest level's search, with 2 s to commit,
    # draw and post its move, must fit (at 3 s, level 5 timed out on every attempt).
    slowest = max(level.budget.seconds for game in ENGINES for level in levels_for(game))
    assert MIN_TIMER_STALE_AFTER.total_seconds() / 2 >= slowest + 2


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("none", "none"),
        ("casual", "none"),
        ("hard:3d+1d/7d", "hard:3d+1d/7d"),
        ("36h", "soft:1d12h+0s/1d12h"),
    ],
)
def test_the_default_clock_is_stored_canonically(text: str, expected: str) -> None:
    settings = Settings.from_mapping({"DISCORD_TOKEN": "t", "GAMEROOM_DEFAULT_CLOCK": text})
    assert settings.default_clock == expected


@pytest.mark.parametrize("text", ["sudden", "hard:0s", "soft:2d/1d", "blitz:3d"])
def test_a_bad_default_clock_names_the_variable(text: str) -> None:
    with pytest.raises(SettingsError, match="GAMEROOM_DEFAULT_CLOCK must be none, correspondence"):
        Settings.from_mapping({"DISCORD_TOKEN": "t", "GAMEROOM_DEFAULT_CLOCK": text})


@pytest.mark.parametrize(("text", "days"), [("0", 0), ("30", 30), ("366", 366)])
def test_vacation_days(text: str, days: int) -> None:
    settings = Settings.from_mapping({"DISCORD_TOKEN": "t", "GAMEROOM_VACATION_DAYS": text})
    assert settings.vacation_days == days


@pytest.mark.parametrize("text", ["367", "-1", "2.5", "30d", "a month"])
def test_bad_vacation_days_name_the_variable(text: str) -> None:
    with pytest.raises(SettingsError, match="GAMEROOM_VACATION_DAYS must be a whole number"):
        Settings.from_mapping({"DISCORD_TOKEN": "t", "GAMEROOM_VACATION_DAYS": text})


def test_env_file_fills_in_and_the_environment_wins(tmp_path: Path) -> None:
    env_file = tmp_path / ".env"
    env_file.write_text("DISCORD_TOKEN=from-file\nGAMEROOM_LOG_LEVEL=WARNING\n")
    settings = Settings.from_env({"GAMEROOM_LOG_LEVEL": "ERROR"}, env_file=env_file)
    assert settings.discord_token == "from-file"
    assert settings.log_level == "ERROR"
    missing = Settings.from_env({"DISCORD_TOKEN": "x"}, env_file=tmp_path / "absent.env")
    assert missing.discord_token == "x"


def test_the_token_never_appears_in_repr() -> None:
    shown = repr(Settings(discord_token="sekrit"))
    assert "sekrit" not in shown
    assert "discord_token" not in shown
    assert "reminder_interval=datetime.timedelta(days=1)" in shown


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


def test_shards_are_read_and_checked() -> None:
    assert (Settings.from_mapping({"DISCORD_TOKEN": "t"}).shard_count, None) == (None, None)
    both = Settings.from_mapping(
        {"DISCORD_TOKEN": "t", "GAMEROOM_SHARD_COUNT": "4", "GAMEROOM_SHARD_IDS": "2, 0"}
    )
    assert (both.shard_count, both.shard_ids) == (4, (0, 2))
    for bad in (
        {"GAMEROOM_SHARD_IDS": "0"},
        {"GAMEROOM_SHARD_COUNT": "0"},
        {"GAMEROOM_SHARD_COUNT": "2", "GAMEROOM_SHARD_IDS": "2"},
        {"GAMEROOM_SHARD_COUNT": "2", "GAMEROOM_SHARD_IDS": "1,1"},
    ):
        with pytest.raises(SettingsError):
            Settings.from_mapping({"DISCORD_TOKEN": "t", **bad})


@pytest.mark.parametrize(
    ("url", "said"),
    [
        ("nonsense", "GAMEROOM_DB_URL is not a database URL ((not shown))"),
        ("admin:secret@db.example/gameroom", "is not a database URL ((not shown))"),
        ("mysql://x/y", "not mysql://"),
        ("sqlite:///x.db", "not sqlite://"),  # the synchronous driver
        ("postgresql://u:secret@h/db", "(postgresql://u:***@h/db)"),  # the password hidden
        ("postgresql://h/db?password=secret", "not postgresql://"),
        ("postgresql://u:hunter@secret@h/db", "(postgresql://…)"),  # an "@" in the password
        ("mysql://u:p@ss:secret@h/db", "is not a database URL ((not shown))"),  # a bad port
    ],
)
def test_a_database_url_the_bot_cannot_use_is_refused_before_login(url: str, said: str) -> None:
    with pytest.raises(SettingsError) as refused:
        Settings.from_mapping({"DISCORD_TOKEN": "t", "GAMEROOM_DB_URL": url})
    assert said in str(refused.value)
    assert "secret" not in str(refused.value)
