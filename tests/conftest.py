"""Shared test settings: hypothesis profiles (``--hypothesis-profile=ci`` runs more examples)."""

import pytest
from hypothesis import HealthCheck, settings

settings.register_profile(
    "default", max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
settings.register_profile(
    "thorough", max_examples=1000, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
settings.load_profile("default")


def pytest_collection_finish(session: pytest.Session) -> None:
    """Start the network scenarios (``tests/e2e/test_networks_e2e.py``) as soon as they are
    known to run: they wait minutes on slow servers' send budgets, beside the other tests."""
    for item in session.items:
        module = getattr(item, "module", None)
        if module is not None and module.__name__.endswith("test_networks_e2e"):
            module.start_early()
            return
