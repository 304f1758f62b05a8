"""A plain-socket IRC client for end-to-end tests.

Why a raw socket and not the irc library: the tests must see exactly the lines the server
relays (to prove that no CR/LF injection reached the wire) and must be able to send things the
library refuses to send (10 KB lines, invalid UTF-8). A reader thread collects parsed lines;
``wait_for`` polls them with a timeout.
"""

from __future__ import annotations

import contextlib
import socket
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass

__all__ = ["Msg", "TestClient"]


@dataclass(frozen=True, slots=True)
class Msg:
    """One received line, parsed: ``:prefix COMMAND params... :trailing``."""

    raw: str
    prefix: str
    command: str
    params: tuple[str, ...]

    @property
    def nick(self) -> str:
        return self.prefix.split("!", 1)[0]

    @property
    def target(self) -> str:
        return self.params[0] if self.params else ""

    @property
    def text(self) -> str:
        return self.params[-1] if self.params else ""


def parse(raw: str) -> Msg:
    line = raw
    if line.startswith("@"):
        line = line.split(" ", 1)[1] if " " in line else ""
    prefix = ""
    if line.startswith(":"):
        prefix, _, line = line[1:].partition(" ")
    head, sep, trailing = line.partition(" :")
    words = head.split()
    command = words[0].upper() if words else ""
    params = tuple(words[1:]) + ((trailing,) if sep else ())
    return Msg(raw, prefix, command, params)


class TestClient:
    """A registered IRC user on a test server."""

    __test__ = False  # not a pytest test class

    def __init__(self, port: int, nick: str, host: str = "127.0.0.1", source: str = "") -> None:
        """Connect to ``host:port`` (from loopback address ``source``, e.g. ``127.0.3.7``,
        if given: servers limit clients per IP) and register as ``nick``."""
        self.nick = nick
        address = (source, 0) if source else None
        self.sock = socket.create_connection((host, port), timeout=10, source_address=address)
        self.sock.settimeout(None)
        self.lines: list[Msg] = []
        self.closed = threading.Event()
        self._lock = threading.Lock()
        self._reader = threading.Thread(target=self._read, daemon=True, name=f"client-{nick}")
        self._reader.start()
        self.send(f"NICK {nick}")
        self.send(f"USER {nick} 0 * :test client")
        self.wait_for(lambda m: m.command == "001", timeout=10, what="registration")

    def _read(self) -> None:
        buf = b""
        try:
            while True:
                data = self.sock.recv(65536)
                if not data:
                    break
                buf += data
                *complete, buf = buf.split(b"\n")
                for raw in complete:
                    text = raw.rstrip(b"\r").decode("utf-8", "replace")
                    msg = parse(text)
                    if msg.command == "PING":
                        self.send_bytes(b"PONG :" + msg.text.encode() + b"\r\n")
                    with self._lock:
                        self.lines.append(msg)
        except OSError:
            pass
        finally:
            self.closed.set()

    def send_bytes(self, data: bytes) -> None:
        self.sock.sendall(data)

    def send(self, line: str) -> None:
        self.sock.sendall(line.encode("utf-8") + b"\r\n")

    def join(self, channel: str) -> None:
        self.send(f"JOIN {channel}")
        self.wait_for(
            lambda m: m.command == "366" and len(m.params) > 1 and m.params[1] == channel,
            what=f"join {channel}",
        )

    def privmsg(self, target: str, text: str) -> None:
        self.send(f"PRIVMSG {target} :{text}")

    def snapshot(self) -> list[Msg]:
        with self._lock:
            return list(self.lines)

    def received(self, command: str | None = None, nick: str | None = None) -> list[Msg]:
        """Lines received so far, optionally only ``command`` (e.g. NOTICE) from ``nick``."""
        return [
            m
            for m in self.snapshot()
            if (command is None or m.command == command) and (nick is None or m.nick == nick)
        ]

    def wait_for(
        self,
        predicate: Callable[[Msg], bool],
        timeout: float = 10.0,
        what: str = "a line",
        after: int = 0,
    ) -> Msg:
        """Return the first received line matching ``predicate``; AssertionError on timeout.

        ``after``: look only at lines after the first ``after`` (``len(client.snapshot())``
        taken before sending a command: its answer, not an earlier line alike).
        """
        deadline = time.monotonic() + timeout
        seen = after
        while True:
            lines = self.snapshot()
            for m in lines[seen:]:
                if predicate(m):
                    return m
            seen = len(lines)
            if time.monotonic() > deadline:
                tail = "\n".join(m.raw for m in lines[-15:])
                raise AssertionError(
                    f"{self.nick}: no {what} within {timeout}s; last lines:\n{tail}"
                )
            time.sleep(0.02)

    def wait_count(
        self, predicate: Callable[[Msg], bool], count: int, timeout: float = 10.0
    ) -> list[Msg]:
        """Wait until ``count`` received lines match ``predicate``; returns them."""
        deadline = time.monotonic() + timeout
        while True:
            found = [m for m in self.snapshot() if predicate(m)]
            if len(found) >= count or time.monotonic() > deadline:
                return found
            time.sleep(0.02)

    def close(self) -> None:
        with contextlib.suppress(OSError):
            self.send("QUIT :bye")
        with contextlib.suppress(OSError):
            self.sock.shutdown(socket.SHUT_RDWR)
        self.sock.close()
        self._reader.join(2)
