"""Fixtures for end-to-end tests: real IRC servers, real clients, the real adapter in a thread.

A server that is not installed makes its tests SKIP on a developer machine but FAIL when the
``CI`` environment variable is set: CI installs ngircd and inspircd and unpacks the network
servers and services (tests/run.sh), so a missing server there is a broken pipeline, not
something to pass over silently. ``require`` covers every kind: ``SERVER_KINDS``,
``NETWORK_KINDS`` and the services (``atheme``, ``anope``).
"""

from __future__ import annotations

import itertools
import logging
import os
import threading
import time
from collections.abc import Callable, Iterator
from typing import Any, TypeVar

import pytest

from tests.e2e.client import TestClient
from tests.e2e.servers import (
    SERVER_KINDS,
    IrcServer,
    ServerMissing,
    _which,
    install_hint,
    start_server,
)
from unobot.irc.adapter import IrcAdapter, IrcSettings, ServerSettings
from unobot.irc.transport import Incoming

T = TypeVar("T")
_names = itertools.count(1)


def unique(prefix: str) -> str:
    """A short name no other test uses (nicks and channels are shared per server)."""
    return f"{prefix}{next(_names)}"


def require(kind: str) -> None:
    """Skip (locally) or fail (CI) when ``kind`` is not installed."""
    if _which(kind) is None:
        msg = f"IRC server {kind!r} is not installed; {install_hint(kind)}"
        if os.environ.get("CI"):
            pytest.fail(msg, pytrace=False)
        pytest.skip(msg)


def on_reactor(adapter: IrcAdapter, fn: Callable[[], T], timeout: float = 5.0) -> T:
    """Run ``fn`` on ``adapter``'s reactor thread (the adapter, and the bot's tables, are
    touched there only) and return its value; what it raises is raised here."""
    done = threading.Event()
    box: list[Any] = []

    def run() -> None:
        try:
            box.append((True, fn()))
        except BaseException as exc:  # handed back to the test thread
            box.append((False, exc))
        finally:
            done.set()

    adapter.call_soon_threadsafe(run)
    if not done.wait(timeout):
        raise AssertionError("reactor did not run the call")
    ok, value = box[0]
    if not ok:
        raise value
    return value


class BotHarness:
    """The adapter running its reactor loop in a thread, recording what it delivers."""

    def __init__(
        self,
        settings: IrcSettings,
        handler: Callable[[IrcAdapter, Incoming], None] | None = None,
    ) -> None:
        self.records: list[tuple[float, Incoming]] = []
        self.handler = handler
        self._lock = threading.Lock()
        self.adapter = IrcAdapter(settings, self._on_incoming)
        self.thread = threading.Thread(target=self.adapter.run, daemon=True, name="adapter")
        self.thread.start()

    def _on_incoming(self, record: Incoming) -> None:
        with self._lock:
            self.records.append((time.monotonic(), record))
        if self.handler is not None:
            self.handler(self.adapter, record)

    def seen(self) -> list[Incoming]:
        with self._lock:
            return [r for _, r in self.records]

    def wait_record(self, predicate: Callable[[Incoming], bool], timeout: float = 10.0) -> Incoming:
        deadline = time.monotonic() + timeout
        while True:
            for record in self.seen():
                if predicate(record):
                    return record
            if time.monotonic() > deadline:
                raise AssertionError(f"no matching record in {timeout}s; got {self.seen()[-10:]}")
            time.sleep(0.02)

    def wait(self, condition: Callable[[], bool], timeout: float = 10.0, what: str = "") -> None:
        deadline = time.monotonic() + timeout
        while not condition():
            if time.monotonic() > deadline:
                raise AssertionError(f"timed out after {timeout}s waiting for {what or condition}")
            time.sleep(0.02)

    def call(self, fn: Callable[[], T], timeout: float = 5.0) -> T:
        """Run ``fn`` on the reactor thread (the adapter is single-threaded); return its value."""
        return on_reactor(self.adapter, fn, timeout)

    def wait_joined(self, channel: str, timeout: float = 10.0) -> None:
        self.wait(
            lambda: (
                self.adapter.connected and channel.lower() in (c.lower() for c in self.joined())
            ),
            timeout,
            f"bot in {channel}",
        )

    def joined(self) -> list[str]:
        return self.adapter.joined

    def stop(self) -> None:
        self.adapter.stop("test over")
        self.thread.join(5)


@pytest.fixture(scope="session")
def _server_cache() -> Iterator[dict[str, IrcServer]]:
    cache: dict[str, IrcServer] = {}
    yield cache
    for server in cache.values():
        server.cleanup()


@pytest.fixture(params=SERVER_KINDS)
def irc_server(request: pytest.FixtureRequest, _server_cache: dict[str, IrcServer]) -> IrcServer:
    """A server of each kind, shared by the session (restarted if a test stopped it)."""
    kind = request.param
    require(kind)
    server = _server_cache.get(kind)
    if server is None:
        try:
            server = _server_cache[kind] = start_server(kind)
        except ServerMissing:
            require(kind)
            raise
        logging.getLogger("e2e").info("%s started in %.3f s", kind, server.start_seconds)
    elif server.proc is None or server.proc.poll() is not None:
        server.start()
    return server


@pytest.fixture
def fresh_server() -> Iterator[Callable[..., IrcServer]]:
    """Start a private server of a kind (for tests that restart or break it)."""
    started: list[IrcServer] = []

    def make(kind: str, tls: bool = False) -> IrcServer:
        require(kind)
        server = start_server(kind, tls=tls)
        started.append(server)
        return server

    yield make
    for server in started:
        server.cleanup()


@pytest.fixture
def make_client() -> Iterator[Callable[..., TestClient]]:
    clients: list[TestClient] = []

    def make(server: IrcServer, nick: str | None = None, source: str = "") -> TestClient:
        client = TestClient(server.port, nick or unique("cli"), source=source)
        clients.append(client)
        return client

    yield make
    for client in clients:
        client.close()


def module_server(*kinds: str) -> Callable[..., Iterator[IrcServer]]:
    """A fixture: one server for the whole test module (``server = module_server("ngircd")``
    in the module); with several kinds, the module's tests run once on each."""

    @pytest.fixture(scope="module", params=kinds)
    def server(request: pytest.FixtureRequest) -> Iterator[IrcServer]:
        require(request.param)
        srv = start_server(request.param)
        yield srv
        srv.cleanup()

    return server


def bot_settings(server: IrcServer, **overrides: Any) -> IrcSettings:
    """Settings for a test bot: fast reconnects, unique nick, the server's plain port."""
    values: dict[str, Any] = {
        "servers": (ServerSettings("127.0.0.1", server.port),),
        "nick": unique("unobot"),
        "reconnect_min": 0.2,
        "reconnect_max": 1.0,
        "connect_timeout": 5.0,
    }
    values.update(overrides)
    return IrcSettings(**values)


@pytest.fixture
def make_bot() -> Iterator[Callable[..., BotHarness]]:
    bots: list[BotHarness] = []

    def make(
        settings: IrcSettings, handler: Callable[[IrcAdapter, Incoming], None] | None = None
    ) -> BotHarness:
        bot = BotHarness(settings, handler)
        bots.append(bot)
        return bot

    yield make
    for bot in bots:
        bot.stop()
