"""Shared test settings: hypothesis profiles (``--hypothesis-profile=ci`` runs more examples)."""

import os
import tempfile
from collections.abc import Iterable, Sequence
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

from tests.e2e.networks_runner import OUT_ENV, launch

settings.register_profile(
    "default", max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
settings.register_profile(
    "thorough", max_examples=1000, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
settings.load_profile("default")


def _networks_selected(nodeids: Iterable[str]) -> bool:
    return any("test_networks_e2e.py" in nodeid for nodeid in nodeids)


def pytest_configure(config: pytest.Config) -> None:
    """Name this run's network scenario results before any xdist worker starts (they inherit
    the environment), dropping one left in the environment by an earlier run."""
    if hasattr(config, "workerinput"):  # an xdist worker: the controller named them
        return
    os.environ.pop(OUT_ENV, None)
    if config.pluginmanager.hasplugin("xdist") and config.getoption("dist", "no") != "no":
        out = Path(tempfile.mkdtemp(prefix="unobot-networks-")) / "results.json"
        os.environ[OUT_ENV] = str(out)
        config.pluginmanager.register(_XdistController(out), "unobot-xdist-controller")


class _XdistController:
    """Hooks of the xdist controller (registered only under xdist: the hook names are
    xdist's)."""

    def __init__(self, out: Path) -> None:
        self.out = out
        self.launched = False

    def pytest_xdist_node_collection_finished(self, node: object, ids: Sequence[str]) -> None:
        """Start the network scenarios once, from the controller, which outlives every
        worker, as soon as a worker's collection shows they will run."""
        if not self.launched and _networks_selected(ids):
            self.launched = True
            launch(self.out)


def pytest_collection_finish(session: pytest.Session) -> None:
    """Start the network scenarios (``tests/e2e/test_networks_e2e.py``) as soon as they are
    known to run: they wait minutes on slow servers' send budgets, beside the other tests.
    Under xdist the controller does it (above), not each worker."""
    if hasattr(session.config, "workerinput") or os.environ.get(OUT_ENV):
        return
    if _networks_selected(item.nodeid for item in session.items):
        launch()
