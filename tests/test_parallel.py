"""The parallel run's rules (tests/parallel.py), on a small suite run by real pytest-xdist
workers: tests marked ``serial`` start only after every other test ended, on one worker; the
``late`` group is one unit handed out after others; the tests of a module with a
module-scoped fixture share one worker (the fixture is made once); the others spread over the
workers."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

CONFTEST = """
from tests.conftest import (  # noqa: F401
    _serial_runs_alone,
    pytest_collection_modifyitems,
    pytest_configure,
    pytest_sessionfinish,
)
"""
"""The suite's own hooks and fixture: a serial test waits for the other workers to be gone
(without ``_serial_runs_alone`` the order rested on the scheduler alone, and a serial test
could start while another worker's last test was ending: 1.5 ms early in one CI run)."""

PLAIN = """
import os, time, pytest

def record(name, started):
    with open(os.environ["RECORD"], "a") as f:
        f.write(f"{name} {os.environ['PYTEST_XDIST_WORKER']} {started} {time.time()}\\n")

@pytest.mark.parametrize("i", range(6))
def test_plain(i):
    started = time.time()
    time.sleep(0.4)
    record(f"plain{i}", started)

@pytest.mark.xdist_group("late")
@pytest.mark.parametrize("i", range(2))
def test_late(i):
    started = time.time()
    time.sleep(0.2)
    record(f"late{i}", started)

@pytest.mark.serial
@pytest.mark.parametrize("i", range(2))
def test_alone(i):
    started = time.time()
    time.sleep(0.2)
    record(f"serial{i}", started)
"""

SHARED = """
import os, time, pytest
from test_plain import record

@pytest.fixture(scope="module")
def server():
    record("fixture", time.time())
    return object()

@pytest.mark.parametrize("i", range(4))
def test_shared(server, i):
    started = time.time()
    time.sleep(0.2)
    record(f"shared{i}", started)
"""


def test_serial_tests_run_last_alone_and_module_fixtures_stay_on_one_worker(
    tmp_path: Path,
) -> None:
    suite = tmp_path / "suite"
    suite.mkdir()
    (suite / "conftest.py").write_text(CONFTEST)
    (suite / "test_plain.py").write_text(textwrap.dedent(PLAIN))
    (suite / "test_shared.py").write_text(textwrap.dedent(SHARED))
    record = tmp_path / "record.txt"
    env = dict(os.environ, RECORD=str(record), PYTHONPATH=f"{suite}{os.pathsep}{ROOT}")
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-n", "3", "--dist", "loadgroup", "-q",
         "-p", "no:cacheprovider", str(suite)],
        cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    assert "14 passed" in done.stdout, done.stdout[-1000:]
    rows = [line.split() for line in record.read_text().splitlines()]
    runs = {name: (worker, float(start), float(end)) for name, worker, start, end in rows}

    serial = [runs[f"serial{i}"] for i in range(2)]
    others = [run for name, run in runs.items() if not name.startswith("serial")]
    late = [runs[f"late{i}"] for i in range(2)]
    assert len({worker for worker, _, _ in late}) == 1  # one work unit, ...
    first = [run for name, run in runs.items() if name.startswith(("plain", "shared"))]
    # ... not first: handed out once a first unit is done (a worker is told of its next unit
    # as the last one ends, so its start may precede the other process's end stamp by a hair)
    assert min(start for _, start, _ in late) >= min(end for _, _, end in first) - 0.05
    assert len({worker for worker, _, _ in serial}) == 1  # one worker ...
    assert min(start for _, start, _ in serial) >= max(end for _, _, end in others)  # ... last

    shared = [runs[f"shared{i}"] for i in range(4)] + [runs["fixture"]]
    assert len({worker for worker, _, _ in shared}) == 1
    assert sum(1 for name, *_ in rows if name == "fixture") == 1
    assert len({runs[f"plain{i}"][0] for i in range(6)}) > 1  # the rest spread out
