"""``unobot web``: its refusals (one line, exit 2) and the real server behind a sub-path."""

from __future__ import annotations

import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from tests.web.conftest import Seeded
from unobot.main import database_url
from unobot.web.cli import main

ROOT = Path(__file__).resolve().parent.parent.parent


def run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    code = main(argv, database_url)
    return code, capsys.readouterr().err


def test_a_missing_database_file_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, err = run(["--database", f"sqlite:///{tmp_path / 'none.db'}"], capsys)
    assert code == 2
    assert err == (
        f"unobot web: no stats database at {tmp_path / 'none.db'} (run the bot once to "
        "create it, or pass --database)\n"
    )
    assert not (tmp_path / "none.db").exists()  # looking did not create it


@pytest.mark.parametrize(
    ("argv", "says"),
    [
        (["--database", "mysql://u:secret@h/db"], "is not a sqlite:/// or postgresql:// URL"),
        (["--root-path", "uno"], "--root-path 'uno' must start with /"),
        (["--port", "70000"], "--port must be 0 to 65535"),
    ],
)
def test_bad_options_get_one_line(
    seeded: Seeded, argv: list[str], says: str, capsys: pytest.CaptureFixture[str]
) -> None:
    if argv[0] != "--database":
        argv = ["--database", seeded.url, *argv]
    code, err = run(argv, capsys)
    assert code == 2 and says in err and err.count("\n") == 1
    assert "secret" not in err


def test_a_bad_config_file_gets_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    config = tmp_path / "unobot.toml"
    config.write_text("[web]\nport = 0\n", encoding="utf-8")
    code, err = run(["--config", str(config)], capsys)
    assert (code, err) == (2, "unobot web: web.port must be a port number (1 to 65535)\n")


def test_a_taken_port_is_refused(seeded: Seeded, capsys: pytest.CaptureFixture[str]) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen(1)
        port = taken.getsockname()[1]
        code, err = run(["--database", seeded.url, "--port", str(port)], capsys)
    assert code == 2
    assert f"can't listen on 127.0.0.1:{port}" in err and f"try --port {port + 1}" in err


def _get(url: str) -> tuple[int, bytes, str]:
    try:
        with urllib.request.urlopen(url, timeout=5) as answer:
            return answer.status, answer.read(), answer.headers.get("Server-Timing", "")
    except urllib.error.HTTPError as err:
        return err.code, err.read(), err.headers.get("Server-Timing", "")


def test_the_real_server_under_a_sub_path(seeded: Seeded, tmp_path: Path) -> None:
    """uvicorn with ``--root-path /uno``: links carry /uno, and pages answer whether the
    reverse proxy strips the prefix (/leaderboard) or passes it on (/uno/leaderboard)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    log = (tmp_path / "web.log").open("w")
    proc = subprocess.Popen(
        [sys.executable, str(ROOT / "unobot.py"), "web", "--database", seeded.url,
         "--port", str(port), "--root-path", "/uno/"],
        stdout=log, stderr=subprocess.STDOUT, cwd=tmp_path,
    )  # fmt: skip
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 20
        while True:
            try:
                status, body, timing = _get(base + "/leaderboard?ranking=pw")
                break
            except OSError:
                assert proc.poll() is None, (tmp_path / "web.log").read_text()
                assert time.monotonic() < deadline, "unobot web did not answer in 20 s"
                time.sleep(0.1)
        assert status == 200 and timing.startswith("app;dur=")
        assert b'href="/uno/static/site.css?v=' in body
        assert b'class="player-link" href="/uno/player/' in body
        status, body, _ = _get(base + "/uno/leaderboard?ranking=pw")
        assert status == 200 and b'id="leaderboard"' in body
        assert _get(base + "/uno/static/replay.js")[0] == 200
        assert _get(base + "/uno/nothing")[0] == 404
    finally:
        proc.terminate()
        proc.wait(10)
        log.close()
    out = (tmp_path / "web.log").read_text()
    assert f"unobot web: http://127.0.0.1:{port}/uno/" in out
