"""The stats database URL check (``unobot.stats.urls``): a URL that can never work is named at
once, in one line; one that may work later (a PostgreSQL server that is down) is left alone."""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from unobot.stats.urls import database_url_problem


@pytest.mark.parametrize(
    "url",
    [
        "sqlite:///stats.db",
        "sqlite:///stats.db?timeout=3",
        "sqlite:///:memory:",
        "sqlite+pool:///stats.db",
        "postgresql://uno@127.0.0.1/uno",  # nothing listens there: fine, it may come up
        "postgresql://uno:s3cret@db.example.net:5433/uno",
        "postgresql:///uno",  # the local server's socket
        "postgres://uno@db.example.net/uno?sslmode=require",
    ],
)
def test_urls_that_can_work(url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    assert database_url_problem(url) is None
    assert list(tmp_path.iterdir()) == []  # nothing made


def test_sqlite_paths_relative_absolute_and_existing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "sub").mkdir()
    assert database_url_problem("sqlite:///sub/stats.db") is None
    assert database_url_problem(f"sqlite:///{tmp_path}/stats.db") is None  # four slashes
    (tmp_path / "stats.db").write_bytes(b"")
    assert database_url_problem(f"sqlite:///{tmp_path / 'stats.db'}") is None
    assert database_url_problem("sqlite:///nosub/stats.db") == (
        "nosub/stats.db: the folder nosub does not exist (the file is made, not its folder)"
    )


@pytest.mark.parametrize(
    ("url", "says"),
    [
        # Two slashes: the driver was handed a host and refused every connection.
        ("sqlite://stats.db", "three slashes and no host; did you mean sqlite:///stats.db?"),
        ("sqlite://host/x.db", "three slashes and no host; did you mean sqlite:///host/x.db?"),
        ("sqlite://:5/x.db", "three slashes and no host"),
        ("sqlite://", "names no file"),
        ("sqlite:////nonexistent/dir/stats.db", "the folder /nonexistent/dir does not exist"),
        ("sqlite:////etc/hostname/stats.db", "the folder /etc/hostname is not a folder"),
        ("sqlite:////etc", "/etc is a folder, not a database file"),
        ("sqlite:///.", ". is a folder, not a database file"),
        ("postgresql://uno@db.example.net", "names no database"),
        ("postgresql://uno@db.example.net/", "names no database"),
        ("postgresql://uno@db.example.net:0/uno", "port 0 is not a port"),
        ("postgresql://uno@db.example.net:x/uno", "is not a valid URL"),
        ("mysql://uno@db/uno", "mysql:// is not a sqlite:/// or postgresql:// URL"),
        ("stats.db", "is not a sqlite:/// or postgresql:// URL"),
        ("/var/lib/unobot/stats.db", "is not a sqlite:/// or postgresql:// URL"),
    ],
)
def test_urls_that_never_work(url: str, says: str) -> None:
    problem = database_url_problem(url)
    assert problem is not None and says in problem, problem
    assert "\n" not in problem


def test_the_password_is_never_shown() -> None:
    problem = database_url_problem("sqlite://uno:s3cret@host/x.db")
    assert problem is not None and "s3cret" not in problem
    problem = database_url_problem("postgresql://uno:s3cret@db.example.net")
    assert problem is not None and "s3cret" not in problem


def _check_as(user_ids: tuple[int, int] | None, url: str) -> str:
    """The check's answer in a process of ``user_ids`` (uid, gid), or of this user.

    The process starts as this user and drops to ``user_ids`` only once the check is imported:
    the checkout and its ``.venv`` may sit where that user cannot even look (a clone under
    root's 0700 home, or in a fresh ``mktemp -d``)."""
    drop = ""
    if user_ids is not None:
        uid, gid = user_ids
        drop = f"os.setgroups([]); os.setgid({gid}); os.setuid({uid}); "
    code = (
        "import os; from unobot.stats.urls import database_url_problem as p; "
        f"{drop}print(p({url!r}))"
    )
    result = subprocess.run(
        [sys.executable, "-c", code],
        cwd=tempfile.gettempdir(), capture_output=True, text=True, timeout=60, check=True,
    )  # fmt: skip
    return result.stdout.strip()


def test_a_folder_this_user_cant_write() -> None:
    """A read-only folder, and a read-only file in a writable one (root may write anywhere:
    then the check runs as nobody, as the service's user would)."""
    user = (65534, 65534) if os.geteuid() == 0 else None
    folder = Path(tempfile.mkdtemp(prefix="unobot-urls-"))  # (under /tmp: nobody can reach it)
    try:
        writable = folder / "w"
        writable.mkdir()
        writable.chmod(0o777)
        (writable / "stats.db").write_bytes(b"")
        (writable / "stats.db").chmod(0o444)
        folder.chmod(0o555)
        assert _check_as(user, f"sqlite:///{folder}/stats.db") == (
            f"{folder}/stats.db: the folder {folder} is not writable by this user"
        )
        assert _check_as(user, f"sqlite:///{writable}/stats.db") == (
            f"{writable}/stats.db is not readable and writable by this user"
        )
        assert _check_as(user, f"sqlite:///{writable}/other.db") == "None"
    finally:
        folder.chmod(0o755)
        for path in sorted(folder.rglob("*"), reverse=True):
            path.unlink() if path.is_file() else path.rmdir()
        folder.rmdir()
