"""The end-to-end network scenarios in a process of their own:
``python -m tests.e2e.networks_runner OUT.json NAME ...`` runs each named scenario of
``tests/e2e/test_networks_e2e.py`` at once (a thread each: they wait on the servers' send
budgets) and writes their results as JSON.

Why a process: the scenarios' simulated players parse every line the bot sends; in the test
process their threads would take the interpreter's lock from the tests running meanwhile.

:func:`launch` starts it once per pytest run, in the process that lives the whole run: the
only process without xdist, else the xdist controller (``tests/conftest.py``), never one per
worker (a worker may end before the tests that read the results run elsewhere). The tests
find the results through :data:`OUT_ENV` and wait for the ``.done`` file beside them.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
import threading
from pathlib import Path

from tests.e2e.servers import _which
from unobot.bench.networks import Run, run_one

ROOT = Path(__file__).resolve().parents[2]
OUT_ENV = "UNOBOT_NETWORKS_OUT"
"""Where this run's results will be (set by the process that launched the scenarios; the
xdist workers inherit it)."""

SCENARIOS: dict[str, dict[str, object]] = {
    "ircu": {"kind": "ircu", "games": 6, "match": "40s"},
    "irc2": {"kind": "irc2", "games": 6, "match": "40s"},
    "hybrid": {"kind": "hybrid", "games": 6, "match": "40s"},
    "ircu-no-ops": {"kind": "ircu", "games": 3, "match": "150s", "ops": False},
}


def run(names: list[str]) -> dict[str, Run]:
    results: dict[str, Run] = {}

    def one(name: str) -> None:
        spec = dict(SCENARIOS[name])
        kind = str(spec.pop("kind"))
        try:
            results[name] = run_one(kind, seed=7, timeout=420.0, **spec)  # type: ignore[arg-type]
        except Exception as err:  # the server would not start: the test says so
            results[name] = Run(kind, 0, True, error=f"{type(err).__name__}: {err}")

    threads = [threading.Thread(target=one, args=(n,), name=f"networks-{n}") for n in names]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return results


def launch(out: Path | None = None) -> Path:
    """Start the scenarios whose servers are installed, in the background; return the results
    path (and set :data:`OUT_ENV` to it). ``out.with_suffix(".done")`` appears when the
    process ends, holding its exit code, whether it wrote the results or died."""
    names = [n for n, spec in SCENARIOS.items() if _which(str(spec["kind"])) is not None]
    if out is None:
        out = Path(tempfile.mkdtemp(prefix="unobot-networks-")) / "results.json"
    os.environ[OUT_ENV] = str(out)
    done = out.with_suffix(".done")
    if not names:
        done.write_text("no scenario's server is installed")
        return out
    cmd = [sys.executable, "-m", "tests.e2e.networks_runner", str(out), *names]
    setpriv = shutil.which("setpriv")  # it ends with the test process, finished or not
    if setpriv:  # (the parent death signal is the launching thread's: call this from main)
        cmd = [setpriv, "--pdeathsig", "TERM", "--", *cmd]
    log = open(out.with_suffix(".log"), "wb")  # noqa: SIM115 - closed with the process
    proc = subprocess.Popen(cmd, cwd=ROOT, stdout=log, stderr=subprocess.STDOUT)

    def reap() -> None:
        code = proc.wait()
        log.close()
        done.write_text(str(code))

    threading.Thread(target=reap, daemon=True, name="networks-reaper").start()
    return out


def main(argv: list[str]) -> None:
    out, names = Path(argv[0]), argv[1:]
    results = run(names)
    tmp = out.with_suffix(".tmp")
    tmp.write_text(json.dumps({n: r.to_json() for n, r in results.items()}))
    tmp.replace(out)  # whole or not at all: the tests wait for the file


if __name__ == "__main__":
    main(sys.argv[1:])
