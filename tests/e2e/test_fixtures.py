"""The server fixtures' contract: a missing server skips locally but fails under CI."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.e2e import conftest, servers
from tests.e2e.servers import NETWORK_KINDS, SERVER_KINDS, SERVICES, start_server


@pytest.mark.parametrize("kind", ["ngircd", *NETWORK_KINDS, *SERVICES])
def test_missing_server_skips_locally_and_fails_in_ci(
    kind: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(conftest, "_which", lambda kind: None)
    monkeypatch.delenv("CI", raising=False)
    with pytest.raises(pytest.skip.Exception, match="not installed"):
        conftest.require(kind)
    monkeypatch.setenv("CI", "1")
    with pytest.raises(pytest.fail.Exception, match="not installed"):
        conftest.require(kind)


def test_an_unpacked_package_is_found_only_in_the_cache(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """The network servers are never looked up on PATH (an installed ircd-hybrid would be a
    different build in a different place): only in the cache tests/run.sh fills."""
    monkeypatch.setattr(servers, "IRCD_CACHE", tmp_path)
    assert servers._which("hybrid") is None
    assert "tests/run.sh" in servers.install_hint("hybrid")
    program = tmp_path / "ircd-hybrid/usr/sbin/ircd-hybrid"
    program.parent.mkdir(parents=True)
    program.write_text("")
    assert servers._which("hybrid") == (str(program) if servers.shutil.which("gcc") else None)


def test_network_kinds_stay_out_of_the_default_parametrization() -> None:
    assert not set(NETWORK_KINDS) & set(SERVER_KINDS)
    assert SERVER_KINDS == ("miniircd", "ngircd", "inspircd")


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
