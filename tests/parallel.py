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
- session-scoped fixtures (the shared IRC servers, PostgreSQL) are one per worker, on free
  ports in private temp folders: nothing else is shared.

Without xdist (``-n 0``, or plain ``pytest``) none of this changes anything: the marks are
inert and the tests run in order as before.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

SERIAL = "serial"
"""The mark (and the xdist group) of tests that run alone, after all the others."""
SHARED_SCOPES = ("module", "package", "class")


def group_items(items: list[pytest.Item]) -> None:
    """Give each test the ``xdist_group`` it needs (see the module docstring): ``serial``
    first, then its module's name when it uses a module-scoped fixture of the suite's own.
    An explicit ``xdist_group`` mark wins."""
    for item in items:
        if item.get_closest_marker("xdist_group") is not None:
            continue
        if item.get_closest_marker(SERIAL) is not None:
            item.add_marker(pytest.mark.xdist_group(SERIAL))
        elif _uses_shared_fixture(item):
            item.add_marker(pytest.mark.xdist_group(item.nodeid.split("::", 1)[0]))


def _uses_shared_fixture(item: pytest.Item) -> bool:
    info = getattr(item, "_fixtureinfo", None)
    if info is None:
        return False
    for defs in info.name2fixturedefs.values():
        fixturedef = defs[-1]
        location = getattr(fixturedef, "baseid", "")
        if fixturedef.scope in SHARED_SCOPES and location.startswith("tests"):
            return True
        func = getattr(fixturedef, "func", None)
        module = getattr(func, "__module__", "") or ""
        if fixturedef.scope in SHARED_SCOPES and module.startswith("tests"):
            return True
    return False


def make_scheduler(config: pytest.Config, log: Any) -> Any:
    """``--dist loadgroup`` with the ``serial`` group held back until everything else is
    done (imported only under xdist)."""
    from xdist.scheduler import LoadGroupScheduling

    class _SerialLast(LoadGroupScheduling):  # type: ignore[misc]
        """Load-group scheduling that gives the ``serial`` work unit to one worker once
        every worker is idle, and shuts the others down."""

        def _assign_work_unit(self, node: Any) -> None:
            if not self.workqueue:
                return
            if SERIAL in self.workqueue and len(self.workqueue) > 1:
                self.workqueue.move_to_end(SERIAL)  # everything else first
            if next(iter(self.workqueue)) != SERIAL:
                super()._assign_work_unit(node)
                return
            if any(self._pending_of(work) for work in self.assigned_work.values()):
                return  # the last other tests still run: the next one to finish takes it
            super()._assign_work_unit(node)
            for other in self.nodes:
                if other is not node and not other.shutting_down:
                    other.shutdown()

    return _SerialLast(config, log)


class XdistController:
    """The xdist controller's hooks (registered only under xdist: the hook names are
    xdist's): the scheduler above, and the network scenarios launched once for the run."""

    def __init__(self, networks_out: Path) -> None:
        self.networks_out = networks_out
        self.launched = False

    @pytest.hookimpl(tryfirst=True)
    def pytest_xdist_make_scheduler(self, config: pytest.Config, log: Any) -> Any:
        if config.getvalue("dist") == "loadgroup":
            return make_scheduler(config, log)
        return None

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
