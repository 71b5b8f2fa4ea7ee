"""``kickline serve`` settings: flag > KICKLINE_* environment > TOML file > default."""

from __future__ import annotations

import argparse
import subprocess
import sys
from pathlib import Path

import pytest

from kickline_server import config
from kickline_server.cli import _parser


def flags(*argv: str) -> argparse.Namespace:
    return _parser().parse_args(["serve", *argv])


def test_precedence_is_flag_then_environment_then_file_then_default(tmp_path: Path) -> None:
    toml = tmp_path / "kickline.toml"
    toml.write_text('port = 7000\nrate = 5\ngrace = 12.5\nhost = "0.0.0.0"\n')
    env = {"KICKLINE_PORT": "8000", "KICKLINE_RATE": "6"}
    got = config.resolve(flags("--config", str(toml), "--port", "9000"), env)
    assert (got.port, got.rate, got.grace, got.host) == (9000, 6.0, 12.5, "0.0.0.0")
    assert got.sources["port"] == "flag" and got.sources["rate"] == "env"
    assert got.sources["grace"] == "file" and got.sources["max_frame"] == "default"
    assert got.max_frame == 4096


def test_the_file_can_come_from_the_environment_and_relative_paths_follow_it(
    tmp_path: Path
) -> None:
    toml = tmp_path / "etc" / "kickline.toml"
    toml.parent.mkdir()
    toml.write_text('data_dir = "data"\ncompression = true\n')
    got = config.resolve(flags(), {"KICKLINE_CONFIG": str(toml)})
    assert got.data_dir == tmp_path / "etc" / "data"
    assert got.compression is True


@pytest.mark.parametrize(("env", "says"), [
    ({"KICKLINE_PORT": "eighty"}, "KICKLINE_PORT='eighty' is not an integer"),
    ({"KICKLINE_COMPRESSION": "maybe"}, "KICKLINE_COMPRESSION='maybe' is not true or false"),
    ({"KICKLINE_SQLITE_SYNCHRONOUS": "fast"}, "is not one of OFF, NORMAL, FULL, EXTRA"),
])
def test_a_bad_value_names_its_source(env: dict[str, str], says: str) -> None:
    with pytest.raises(config.ConfigError, match=says):
        config.resolve(flags(), env)


def test_a_bad_file_is_one_clear_error(tmp_path: Path) -> None:
    toml = tmp_path / "k.toml"
    toml.write_text("prot = 80\n")
    with pytest.raises(config.ConfigError, match="unknown setting 'prot'"):
        config.resolve(flags("--config", str(toml)), {})
    toml.write_text("port = \n")
    with pytest.raises(config.ConfigError, match="is not valid TOML"):
        config.resolve(flags("--config", str(toml)), {})
    toml.write_text('port = "x"\n')
    with pytest.raises(config.ConfigError, match=r"port in .*k.toml='x' is not an integer"):
        config.resolve(flags("--config", str(toml)), {})
    with pytest.raises(config.ConfigError, match="cannot read the config file"):
        config.resolve(flags("--config", str(tmp_path / "missing.toml")), {})


def test_every_option_has_a_flag_a_variable_and_a_file_key() -> None:
    """One table: each option is reachable all three ways, under names derived from it."""
    help_text = _parser()._subparsers._group_actions[0].choices["serve"].format_help()  # type: ignore[union-attr]
    for o in config.OPTIONS:
        assert o.flag in help_text and o.env in help_text
        sample = {str: "x", int: "3", float: "2.5", bool: "true", Path: "/p"}[o.kind]
        if o.choices:
            sample = o.choices[-1]
        want = o.parse(sample, "test")
        assert config.resolve({o.name: sample}, {}).values[o.name] == want
        assert config.resolve(flags(), {o.env: sample}).values[o.name] == want
        assert config.resolve({}, {}).sources[o.name] == "default"


def test_print_config_shows_sources_and_masks_secrets(tmp_path: Path) -> None:
    out = subprocess.run(
        [sys.executable, "-m", "kickline_server.cli", "serve", "--print-config",
         "--redis-url", "redis://:hunter2@db:6379/0", "--data-dir", str(tmp_path)],
        env={"KICKLINE_DECISION_TIME": "45", "PATH": "/usr/bin"},
        capture_output=True, text=True, check=True).stdout
    assert "hunter2" not in out
    assert 'redis_url = "redis://:***@db:6379/0"  # --redis-url' in out
    assert "decision_time = 45.0  # KICKLINE_DECISION_TIME" in out
    assert "rate = 20.0  # default" in out
    # What it prints is a config file: read back, it gives the same settings.
    toml = tmp_path / "printed.toml"
    toml.write_text(out)
    again = config.resolve(flags("--config", str(toml)), {})
    assert again.decision_time == 45.0 and again.data_dir == tmp_path


def test_a_bad_setting_stops_serve_with_one_line(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "kickline_server.cli", "serve", "--data-dir", str(tmp_path)],
        env={"KICKLINE_IDLE_TIMEOUT": "soon", "PATH": "/usr/bin"},
        capture_output=True, text=True, timeout=30)
    assert done.returncode == 2
    assert done.stderr == "kickline: KICKLINE_IDLE_TIMEOUT='soon' is not a number\n"
