"""Shared test settings: hypothesis profiles (``--hypothesis-profile=ci`` runs more examples)."""

import os
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

from tests.e2e.networks_runner import OUT_ENV, launch
from tests.parallel import (
    GROUPS_ENV,
    SERIAL,
    XdistController,
    networks_selected,
    wait_for_others,
    worker_finished,
    write_groups,
)

settings.register_profile(
    "default", max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
settings.register_profile(
    "quick", max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
settings.register_profile(
    "thorough", max_examples=1000, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
settings.load_profile("default")


def pytest_configure(config: pytest.Config) -> None:
    """Register the ``serial`` mark; name this run's network scenario results before any
    xdist worker starts (they inherit the environment), dropping a name left in the
    environment by an earlier run; under xdist, the controller's hooks (tests/parallel.py)."""
    config.addinivalue_line(
        "markers",
        f"{SERIAL}: measures time against a tight bound: under xdist it runs last, alone "
        "(tests/parallel.py)",
    )
    config.addinivalue_line(
        "markers", "slow: takes over ~10 s; left out of the quick lane (tests/quick.sh)"
    )
    if hasattr(config, "workerinput"):  # an xdist worker: the controller named them
        return
    os.environ.pop(OUT_ENV, None)
    distributed = config.getoption("dist", "no") != "no" and config.getoption("tx", None)
    if distributed and not config.getoption("collectonly"):
        run = Path(tempfile.mkdtemp(prefix="unobot-xdist-"))
        os.environ[GROUPS_ENV] = str(run)
        os.environ[OUT_ENV] = str(run / "networks.json")
        config.pluginmanager.register(XdistController(run / "networks.json"), "unobot-xdist")


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    write_groups(config, items)


def pytest_sessionfinish(session: pytest.Session) -> None:
    worker_finished(session.config)


@pytest.fixture(autouse=True)
def _serial_runs_alone(request: pytest.FixtureRequest) -> None:
    """A ``serial`` test under xdist starts once the other workers are gone."""
    if request.node.get_closest_marker(SERIAL) is not None:
        wait_for_others(request.config)


def pytest_collection_finish(session: pytest.Session) -> None:
    """Start the network scenarios (``tests/e2e/test_networks_e2e.py``) as soon as they are
    known to run: they wait minutes on slow servers' send budgets, beside the other tests.
    Under xdist the controller does it (tests/parallel.py), not each worker."""
    if hasattr(session.config, "workerinput") or os.environ.get(OUT_ENV):
        return
    if networks_selected(item.nodeid for item in session.items):
        launch()
