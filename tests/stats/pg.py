"""A real PostgreSQL server for the stats tests, on a free loopback port in a temp directory.

Debian's postgresql-15 (installed by tests/run.sh as root). As root, initdb and the server run
as the ``postgres`` user (PostgreSQL refuses root). Missing binaries skip the tests locally and
fail them under ``CI``, like the IRC servers of the e2e tests.
"""

from __future__ import annotations

import contextlib
import glob
import os
import shutil
import signal
import subprocess
import tempfile
from pathlib import Path

import pytest

from tests.e2e.servers import free_port

__all__ = ["PgServer", "pg_bindir", "require_pg"]


def pg_bindir() -> Path | None:
    """The directory holding initdb and pg_ctl (newest Debian version first), if any."""
    for cand in sorted(glob.glob("/usr/lib/postgresql/*/bin"), reverse=True):
        if Path(cand, "initdb").exists() and Path(cand, "pg_ctl").exists():
            return Path(cand)
    initdb = shutil.which("initdb")
    if initdb and shutil.which("pg_ctl"):
        return Path(initdb).resolve().parent
    return None


def require_pg() -> Path:
    """The binaries' directory; skip (locally) or fail (CI) when PostgreSQL is missing."""
    bindir = pg_bindir()
    msg = ""
    if bindir is None:
        msg = "PostgreSQL is not installed (apt-get install postgresql, which tests/run.sh does)"
    else:
        try:
            import psycopg2  # noqa: F401
        except ImportError:
            msg = "psycopg2 is not installed (pip install -e '.[test]')"
    if msg:
        if os.environ.get("CI"):
            pytest.fail(msg, pytrace=False)
        pytest.skip(msg)
    assert bindir is not None
    return bindir


class PgServer:
    """initdb once, then start/stop at will (the durability test stops it mid-session)."""

    def __init__(self, bindir: Path) -> None:
        self.bindir = bindir
        self.dir = Path(tempfile.mkdtemp(prefix="unobot-pg-"))
        self.data = self.dir / "data"
        self.port = free_port()
        self._as_root = os.geteuid() == 0
        if self._as_root:
            shutil.chown(self.dir, "postgres")
        self._run(
            "initdb", "-D", str(self.data), "-A", "trust", "-U", "postgres", "--no-sync",
            "--locale=C", "-E", "UTF8",
        )  # fmt: skip
        self.databases = 0

    def _run(self, prog: str, *args: str) -> None:
        cmd = [str(self.bindir / prog), *args]
        if self._as_root:
            cmd = ["runuser", "-u", "postgres", "--", *cmd]
        subprocess.run(cmd, check=True, capture_output=True, timeout=60)

    def start(self) -> None:
        opts = f"-h 127.0.0.1 -p {self.port} -k {self.dir} -F -c fsync=off"
        self._run("pg_ctl", "-D", str(self.data), "-l", str(self.dir / "log"), "-w", "-o", opts,
                  "start")  # fmt: skip

    def stop(self) -> None:
        self._run("pg_ctl", "-D", str(self.data), "-m", "fast", "-w", "stop")

    def processes(self) -> list[int]:
        """The postmaster and every process under it (backends, checkpointer, ...)."""
        top = int((self.data / "postmaster.pid").read_text().split()[0])
        parents: dict[int, int] = {}
        for stat in Path("/proc").glob("[0-9]*/stat"):
            with contextlib.suppress(OSError, ValueError, IndexError):
                fields = stat.read_text().rsplit(")", 1)[1].split()
                parents[int(stat.parent.name)] = int(fields[1])
        found = [top]
        for pid in found:
            found += [child for child, parent in parents.items() if parent == pid]
        return found

    def pause(self) -> None:
        """Stall the whole server (SIGSTOP): connections stay open and nothing answers, as
        with a hung host or a network dropping packets."""
        for pid in self.processes():
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGSTOP)

    def resume(self) -> None:
        for pid in self.processes():
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGCONT)

    def new_database(self) -> str:
        """A fresh empty database; its URL."""
        import psycopg2

        self.databases += 1
        name = f"t{self.databases}"
        conn = psycopg2.connect(
            host="127.0.0.1", port=self.port, user="postgres", dbname="postgres"
        )
        conn.autocommit = True
        with conn.cursor() as cur:
            cur.execute(f"CREATE DATABASE {name}")
        conn.close()
        return self.url(name)

    def url(self, name: str) -> str:
        return f"postgresql://postgres@127.0.0.1:{self.port}/{name}"

    def destroy(self) -> None:
        with contextlib.suppress(subprocess.CalledProcessError):
            self.stop()
        shutil.rmtree(self.dir, ignore_errors=True)
