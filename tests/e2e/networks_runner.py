"""The end-to-end network scenarios in a process of their own:
``python -m tests.e2e.networks_runner OUT.json NAME ...`` runs each named scenario of
``tests/e2e/test_networks_e2e.py`` at once (a thread each: they wait on the servers' send
budgets) and writes their results as JSON.

Why a process: the scenarios' simulated players parse every line the bot sends; in the test
process their threads would take the interpreter's lock from the tests running meanwhile.
"""

from __future__ import annotations

import json
import sys
import threading
from pathlib import Path

from unobot.bench.networks import Run, run_one

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


def main(argv: list[str]) -> None:
    out, names = Path(argv[0]), argv[1:]
    results = run(names)
    tmp = out.with_suffix(".tmp")
    tmp.write_text(json.dumps({n: r.to_json() for n, r in results.items()}))
    tmp.replace(out)  # whole or not at all: the tests wait for the file


if __name__ == "__main__":
    main(sys.argv[1:])
