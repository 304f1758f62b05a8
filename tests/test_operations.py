"""What operators run: ``unobot --version``, ``unobot check-config FILE`` and the example
systemd unit, all through the real command line."""

from __future__ import annotations

import os
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


UNITS = ("unobot.service", "unobot-web.service")
"""The example systemd units, beside the README."""


def _unit_for_this_machine(tmp_path: Path, name: str, executable: Path) -> Path:
    """The example unit with its paths pointed at this checkout's install and example config
    (``verify`` checks that ``ExecStart``'s program exists)."""
    text = (ROOT / name).read_text(encoding="utf-8")
    text = text.replace("/opt/unobot/.venv/bin/unobot", str(executable))
    text = text.replace("/etc/unobot/unobot.toml", str(ROOT / "unobot.toml.example"))
    unit = tmp_path / name
    unit.write_text(text, encoding="utf-8")
    return unit


def _verify(unit: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        ["systemd-analyze", "verify", str(unit)], capture_output=True, text=True, timeout=60
    )


def _require_systemd_analyze() -> None:
    """Skip (locally) or fail (CI) without systemd-analyze (tests/run.sh installs systemd)."""
    if shutil.which("systemd-analyze") is None:
        msg = "no systemd-analyze here; apt-get install systemd (tests/run.sh does as root)"
        if os.environ.get("CI"):
            pytest.fail(msg, pytrace=False)
        pytest.skip(msg)


@pytest.mark.parametrize("name", UNITS)
def test_the_example_systemd_units_verify(tmp_path: Path, name: str) -> None:
    _require_systemd_analyze()
    executable = Path(sys.executable).parent / "unobot"
    assert executable.exists(), "the test venv has the console script (tests/run.sh installs it)"
    result = _verify(_unit_for_this_machine(tmp_path, name, executable))
    assert result.returncode == 0 and result.stdout == "" and result.stderr == "", result
    # The check is real: a unit whose program is missing fails it, and a misspelt key warns.
    result = _verify(_unit_for_this_machine(tmp_path, name, tmp_path / "no-such-unobot"))
    assert result.returncode != 0 and "no-such-unobot" in result.stderr
    misspelt = _unit_for_this_machine(tmp_path, name, executable)
    misspelt.write_text(misspelt.read_text().replace("RestartPreventExitStatus", "RestartPrevent"))
    warned = _verify(misspelt).stderr
    assert "Unknown key" in warned and "'RestartPrevent'" in warned


def _keys(name: str) -> list[tuple[str, str, str]]:
    """(section, key, value) of each setting of the example unit ``name``, in order."""
    section, found = "", []
    for raw in (ROOT / name).read_text(encoding="utf-8").splitlines():
        line = raw.strip()
        if line.startswith("[") and line.endswith("]"):
            section = line[1:-1]
        elif line and not line.startswith("#"):
            key, _, value = line.partition("=")
            found.append((section, key, value))
    return found


@pytest.mark.parametrize(
    ("name", "command"), [("unobot.service", []), ("unobot-web.service", ["web"])]
)
def test_the_units_do_not_restart_a_config_error(
    tmp_path: Path, name: str, command: list[str]
) -> None:
    """What the units claim: a config error (exit 2) is not restarted. systemd applies
    RestartPreventExitStatus= to the main process only (an ExecStartPre= check that fails is
    retried for ever: systemd issue 11868), so the check must be the main process's own: the
    unit has no ExecStartPre=, the main process (ExecStart='s command line, run here) exits 2
    on a bad config, and the start limit stops any other failure loop."""
    keys = _keys(name)
    service = {k: v for section, k, v in keys if section == "Service"}
    unit = {k: v for section, k, v in keys if section == "Unit"}
    assert not [k for _, k, _ in keys if k.startswith("ExecStartPre")]
    assert service["Restart"] == "on-failure" and service["RestartPreventExitStatus"] == "2"
    assert int(unit["StartLimitBurst"]) >= 1 and int(unit["StartLimitIntervalSec"]) >= 60
    argv = service["ExecStart"].split()
    assert argv[0] == "/opt/unobot/.venv/bin/unobot" and argv[1:-2] == command
    assert argv[-2:] == ["--config", "/etc/unobot/unobot.toml"]
    bad = tmp_path / "unobot.toml"
    bad.write_text("[irc]\nnik = 'x'\n")
    result = unobot(*argv[1:-1], str(bad), cwd=tmp_path)
    assert result.returncode == 2, result
    assert result.stderr.strip().splitlines() == [
        f"unobot{' web' if command else ''}: unknown setting irc.nik (did you mean irc.nick?)"
    ]


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
