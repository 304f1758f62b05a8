"""What operators run: ``unobot --version``, ``unobot check-config FILE`` and the example
systemd unit, all through the real command line."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def unobot(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, str(ROOT / "unobot.py"), *args],
        capture_output=True,
        text=True,
        timeout=60,
        cwd=cwd,
    )


def test_version(tmp_path: Path) -> None:
    result = unobot("--version", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    line = result.stdout.strip()
    assert line.startswith("unobot 0.1.0 (") and line.endswith(" engine)"), line


def test_check_config_accepts_the_example_and_connects_to_nothing(tmp_path: Path) -> None:
    result = unobot("check-config", str(ROOT / "unobot.toml.example"), cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    out = result.stdout.strip()
    assert out.startswith(f"{ROOT / 'unobot.toml.example'}: ok.")
    assert "irc.example.net:6697 (TLS)" in out and "#uno" in out
    assert "unobot.plugins.uno_game, unobot.plugins.uno_stats, unobot.plugins.uno_rules" in out
    assert list(tmp_path.iterdir()) == []  # no stats.db, no spool: nothing opened


def test_check_config_hides_the_database_password(tmp_path: Path) -> None:
    config = tmp_path / "c.toml"
    config.write_text('[stats]\ndatabase = "postgresql://uno:s3cret@db.example.net/uno"\n')
    result = unobot("check-config", str(config), cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert "postgresql://uno:***@db.example.net/uno" in result.stdout
    assert "s3cret" not in result.stdout


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("[irc]\nnik = 'x'\n", "unknown setting irc.nik (did you mean irc.nick?)"),
        ("[bot]\npreset = 'nope'\n", "nope"),
        ("[bot]\nplugins = ['missing.py']\n", "missing.py: no such file"),
        ("[bot]\nplugins = [1]\n", "bot.plugins must be a list of module names or paths"),
        ("[stats]\ndatabase = 'mysq://x'\n", "is not a sqlite:/// or postgresql:// URL"),
        ("[irc\n", "is not valid TOML"),
    ],
)
def test_check_config_refuses_with_one_line(tmp_path: Path, text: str, expected: str) -> None:
    config = tmp_path / "c.toml"
    config.write_text(text)
    result = unobot("check-config", str(config), cwd=tmp_path)
    assert result.returncode == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("unobot check-config: "), result.stderr
    assert expected in lines[0]
    assert result.stdout == ""


def test_check_config_without_a_file_is_a_usage_error(tmp_path: Path) -> None:
    result = unobot("check-config", cwd=tmp_path)
    assert result.returncode == 2 and "FILE" in result.stderr
    missing = unobot("check-config", str(tmp_path / "none.toml"), cwd=tmp_path)
    assert missing.returncode == 2 and "no config file" in missing.stderr


def _unit_for_this_machine(tmp_path: Path, executable: Path) -> Path:
    """The example unit with its paths pointed at this checkout's install and example config
    (``verify`` checks that ``ExecStart``'s program exists)."""
    text = (ROOT / "unobot.service").read_text(encoding="utf-8")
    text = text.replace("/opt/unobot/.venv/bin/unobot", str(executable))
    text = text.replace("/etc/unobot/unobot.toml", str(ROOT / "unobot.toml.example"))
    unit = tmp_path / "unobot.service"
    unit.write_text(text, encoding="utf-8")
    return unit


@pytest.mark.skipif(shutil.which("systemd-analyze") is None, reason="no systemd-analyze here")
def test_the_example_systemd_unit_verifies(tmp_path: Path) -> None:
    executable = Path(sys.executable).parent / "unobot"
    assert executable.exists(), "the test venv has the console script (tests/run.sh installs it)"
    unit = _unit_for_this_machine(tmp_path, executable)
    result = subprocess.run(
        ["systemd-analyze", "verify", str(unit)], capture_output=True, text=True, timeout=60
    )
    ours = [line for line in result.stderr.splitlines() if "unobot.service" in line]
    assert result.returncode == 0 and ours == [], result.stderr
    # The check is real: a unit whose program is missing fails it.
    broken = _unit_for_this_machine(tmp_path, tmp_path / "no-such-unobot")
    result = subprocess.run(
        ["systemd-analyze", "verify", str(broken)], capture_output=True, text=True, timeout=60
    )
    assert result.returncode != 0 and "no-such-unobot" in result.stderr
    # Its ExecStartPre is the check the bot would pass.
    checked = subprocess.run(
        [str(executable), "check-config", str(ROOT / "unobot.toml.example")],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert checked.returncode == 0, checked.stderr


@pytest.mark.parametrize(
    ("url", "says"),
    [
        ("postgresql://user:s3cret@127.0.0.1:notaport/uno", "is not a valid URL: Port could not"),
        ("postgresql://user:s3cret@127.0.0.1:99999/uno", "Port out of range"),
        ("postgresql://user:s3cret@127.0.0.1:0/uno", "port 0 is not a port"),
        ("postgresql://user:s3cret@[::1/uno", "Invalid IPv6 URL"),
        ("postgresql://user:s3cret@db.example.net", "names no database"),
        ("sqlite://", "names no file"),
        ("sqliteext:///stats.db", "sqliteext:// is not a sqlite:/// or postgresql:// URL"),
        ("stats.db", "is not a sqlite:/// or postgresql:// URL"),
        # Well formed but never working: the bot used to run a whole day without stats.
        ("sqlite://stats.db", "three slashes and no host; did you mean sqlite:///stats.db?"),
        ("sqlite:////nonexistent/dir/stats.db", "the folder /nonexistent/dir does not exist"),
        ("sqlite:///.", ". is a folder, not a database file"),
    ],
)
def test_a_malformed_database_url_stops_the_bot_with_one_line(
    tmp_path: Path, url: str, says: str
) -> None:
    """The bot itself (not only check-config): the URL is checked with the settings, before
    anything starts; a traceback from the driver's URL parser was what an operator got."""
    result = unobot("--port", "1", "--database", url, cwd=tmp_path)
    assert result.returncode == 2, result.stderr
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("unobot: stats.database: "), result.stderr
    assert says in lines[0] and "s3cret" not in result.stderr
    assert result.stdout == "" and list(tmp_path.iterdir()) == []
    checked = unobot("check-config", "--database", url, cwd=tmp_path)
    assert checked.returncode == 2, checked.stdout
    assert checked.stderr.strip().splitlines() == [
        lines[0].replace("unobot: ", "unobot check-config: ", 1)
    ]
    assert checked.stdout == "" and list(tmp_path.iterdir()) == []
    imported = unobot("import-scores", "/dev/null", "--database", url, cwd=tmp_path)
    assert imported.returncode == 2 and "Traceback" not in imported.stderr
    assert says in imported.stderr and "s3cret" not in imported.stderr
