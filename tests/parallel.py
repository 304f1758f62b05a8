"""How the suite runs in parallel (pytest-xdist, ``tests/run.sh`` passes ``-n 4 --dist
loadgroup``): what must share a worker, what must run alone, and the controller's own jobs.

Why these rules: most e2e tests wait on servers, timers and bot processes rather than on the
CPU, so four workers on two cores finish sooner; but

- a test module whose fixtures are module-scoped (a server, a bot process, a database shared
  by its tests) keeps its tests on one worker (an ``xdist_group`` named after the module),
  else every worker that got one of them would start the fixture again;
- a test that measures time against a tight bound (fairness, flood, the reactor never
  waiting) is marked ``serial``: those run last, on one worker, with nothing else running
  (:class:`SerialLastScheduling`), so another test's CPU never shows up in their figures;
- tests that wait for work begun in the background at collection (the network scenarios)
  share the ``late`` group, handed out after the rest: they would otherwise hold a worker
  each, waiting;
- session-scoped fixtures (the shared IRC servers, PostgreSQL) are one per worker, on free
  ports in private temp folders: nothing else is shared.

Without xdist (``-n 0``, or plain ``pytest``) none of this changes anything: the marks are
inert and the tests run in order as before.
"""

from __future__ import annotations

import inspect
import json
import os
import shutil
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

SERIAL = "serial"
"""The mark (and the work unit) of tests that run alone, after all the others."""
LATE = "late"
"""The ``xdist_group`` of tests that wait for work begun at collection (the network
scenarios): handed out after every other group but before the serial one, so that they find
it done instead of holding a worker while it runs."""
SERIAL_LAST = "unobot_serial_last"
"""The workers' input that says the scheduler holds the serial tests back (``--dist
loadgroup``)."""
SHARED_SCOPES = ("module", "package", "class")
GROUPS_ENV = "UNOBOT_XDIST_GROUPS"
"""A folder the controller makes and names before the workers start: each worker writes there
which of its tests share a work unit (``groups-<worker>.json``), and the controller's scheduler
reads it. (xdist's own ``xdist_group`` support renames the tests' ids, which pytest 9.2 no
longer allows: the marks would silently do nothing.)"""


def group_of(item: pytest.Item) -> str | None:
    """The work unit ``item`` must share, if any (see the module docstring): an explicit
    ``xdist_group`` mark, else ``serial``, else its module when it uses a module-scoped
    fixture."""
    mark = item.get_closest_marker("xdist_group")
    if mark is not None:
        return str(mark.args[0] if mark.args else mark.kwargs.get("name", "default"))
    if item.get_closest_marker(SERIAL) is not None:
        return SERIAL
    if _uses_shared_fixture(item):
        return item.nodeid.split("::", 1)[0]
    return None


def write_groups(config: pytest.Config, items: list[pytest.Item]) -> None:
    """In an xdist worker: tell the controller's scheduler which tests share a work unit."""
    folder = os.environ.get(GROUPS_ENV)
    worker = os.environ.get("PYTEST_XDIST_WORKER")
    if not folder or not worker or not hasattr(config, "workerinput"):
        return
    groups = {item.nodeid: group for item in items if (group := group_of(item)) is not None}
    path = Path(folder) / f"groups-{worker}.json"
    tmp = path.with_suffix(".tmp")
    tmp.write_text(json.dumps(groups))
    tmp.replace(path)


def worker_finished(config: pytest.Config) -> None:
    """In an xdist worker at the end of its session: say so (``wait_for_others``)."""
    folder = os.environ.get(GROUPS_ENV)
    worker = os.environ.get("PYTEST_XDIST_WORKER")
    if folder and worker and hasattr(config, "workerinput"):
        (Path(folder) / f"finished-{worker}").touch()


def wait_for_others(config: pytest.Config, timeout: float = 600.0) -> None:
    """Before a ``serial`` test under xdist: wait until every other worker has finished (the
    scheduler stopped them all when it handed out the serial tests), so that nothing else
    runs beside it. After ``timeout`` it runs anyway: slower, never stuck."""
    folder = os.environ.get(GROUPS_ENV)
    worker = os.environ.get("PYTEST_XDIST_WORKER")
    workerinput = getattr(config, "workerinput", None)
    if not folder or not worker or workerinput is None or not workerinput.get(SERIAL_LAST):
        return
    others = int(workerinput.get("workercount", 1)) - 1
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        finished = {p.name for p in Path(folder).glob("finished-*")} - {f"finished-{worker}"}
        if len(finished) >= others:
            return
        time.sleep(0.2)


def _uses_shared_fixture(item: pytest.Item) -> bool:
    """Whether a fixture of the suite's own (not a plugin's) with a module, package or class
    scope is among ``item``'s."""
    info = getattr(item, "_fixtureinfo", None)
    if info is None:
        return False
    for defs in info.name2fixturedefs.values():
        fixturedef = defs[-1]
        if fixturedef.scope not in SHARED_SCOPES:
            continue
        func = getattr(fixturedef, "func", None)
        try:
            source = inspect.getfile(func) if func is not None else ""
        except TypeError:
            source = ""
        if source and "site-packages" not in source:
            return True
    return False


def make_scheduler(config: pytest.Config, log: Any) -> Any:
    """``--dist loadgroup`` with this suite's groups (:data:`GROUPS_ENV`) and the ``serial``
    unit held back until everything else is done (imported only under xdist)."""
    from xdist.scheduler import LoadGroupScheduling

    class _SerialLast(LoadGroupScheduling):  # type: ignore[misc]
        """Load-group scheduling that gives the ``serial`` work unit to one worker once
        every worker is idle, and shuts the others down."""

        groups: dict[str, str] | None = None

        def _split_scope(self, nodeid: str) -> str:
            if self.groups is None:  # every worker has collected by the first call
                self.groups = {}
                folder = os.environ.get(GROUPS_ENV)
                for path in sorted(Path(folder).glob("groups-*.json")) if folder else ():
                    self.groups.update(json.loads(path.read_text()))
            group = self.groups.get(nodeid)
            return group if group is not None else str(super()._split_scope(nodeid))

        def _assign_work_unit(self, node: Any) -> None:
            if not self.workqueue:
                return
            for last in (LATE, SERIAL):  # everything else first, then late, then serial
                if last in self.workqueue and len(self.workqueue) > 1:
                    self.workqueue.move_to_end(last)
            if next(iter(self.workqueue)) != SERIAL:
                super()._assign_work_unit(node)
                return
            # Only the serial unit is left. A worker runs its last queued test only once it
            # has another or is told to stop, so no worker can be left waiting for it: every
            # worker but the last one still running stops; the last takes the serial tests,
            # which wait for the others to be gone (wait_for_others).
            if any(n is not node and not n.shutting_down for n in self.nodes):
                node.shutdown()
            else:
                super()._assign_work_unit(node)

    return _SerialLast(config, log)


class XdistController:
    """The xdist controller's hooks (registered only under xdist: the hook names are
    xdist's): the scheduler above, and the network scenarios launched once for the run."""

    def __init__(self, networks_out: Path) -> None:
        self.networks_out = networks_out
        self.launched = False

    def pytest_unconfigure(self, config: pytest.Config) -> None:
        """Remove this run's folder, unless the network scenarios still write in it (an
        interrupted run: they end with the controller)."""
        if not self.launched or self.networks_out.with_suffix(".done").exists():
            shutil.rmtree(self.networks_out.parent, ignore_errors=True)

    @pytest.hookimpl(tryfirst=True)
    def pytest_xdist_make_scheduler(self, config: pytest.Config, log: Any) -> Any:
        if config.getvalue("dist") == "loadgroup":
            return make_scheduler(config, log)
        return None

    def pytest_configure_node(self, node: Any) -> None:
        """Tell the workers whether the serial tests come last and alone (only with the
        scheduler above: under another ``--dist`` they must not wait for the others)."""
        node.workerinput[SERIAL_LAST] = node.config.getvalue("dist") == "loadgroup"

    def pytest_xdist_node_collection_finished(self, node: object, ids: Sequence[str]) -> None:
        """Start the network scenarios once, from the controller, which outlives every
        worker, as soon as a worker's collection shows they will run."""
        if not self.launched and networks_selected(ids):
            from tests.e2e.networks_runner import launch

            self.launched = True
            launch(self.networks_out)


def networks_selected(nodeids: Any) -> bool:
    """Whether the network scenarios (``tests/e2e/test_networks_e2e.py``) are to run."""
    return any("test_networks_e2e.py" in nodeid for nodeid in nodeids)
