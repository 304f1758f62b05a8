"""The server fixtures' contract: a missing server skips locally but fails under CI."""

from __future__ import annotations

import pytest

from tests.e2e import conftest
from tests.e2e.servers import SERVER_KINDS, start_server


def test_missing_server_skips_locally_and_fails_in_ci(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(conftest, "_which", lambda kind: None)
    monkeypatch.delenv("CI", raising=False)
    with pytest.raises(pytest.skip.Exception, match="not installed"):
        conftest.require("ngircd")
    monkeypatch.setenv("CI", "1")
    with pytest.raises(pytest.fail.Exception, match="not installed"):
        conftest.require("ngircd")


@pytest.mark.parametrize("kind", SERVER_KINDS)
def test_each_server_starts_fast_on_its_own_port_and_stops(kind: str) -> None:
    conftest.require(kind)
    server = start_server(kind)
    try:
        assert server.port != 6667
        assert server.start_seconds < 5
        print(f"\n{kind}: listening after {server.start_seconds * 1000:.0f} ms")
    finally:
        server.cleanup()
    assert server.proc is None
