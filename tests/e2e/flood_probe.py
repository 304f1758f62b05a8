"""Measure what a plain client sending NOTICEs to a channel experiences on the servers networks
run (ircu, irc2, ircd-hybrid with Debian's default classes; see servers.py).

    python -m tests.e2e.flood_probe                   # every kind, the default scenarios
    python -m tests.e2e.flood_probe ircu --seconds 60

Not a test (minutes long): it feeds the bot's flood model and the table in servers.py. Each
scenario is one sender and one listener in a fresh channel, each from its own loopback address,
all scenarios of all kinds at once (the servers' flood control is per client). The sender says
one ``PRIVMSG`` at its JOIN, as a bot greets (hybrid's flood grace ends at a client's first
PRIVMSG), waits ``SETTLE`` s, then sends ``NOTICE #chan :…`` lines of the given length
(without CRLF) at a steady rate, every 10th line a ``PING`` instead (the line rate stays the
stated one). The report gives whether and when the server killed it (and its ERROR text), the
slowest PING->PONG round trip (input held back shows there: servers answer a client's lines
in order) and the slowest NOTICE delivery to the listener.
"""

from __future__ import annotations

import argparse
import contextlib
import itertools
import socket
import threading
import time
from dataclasses import dataclass, field

from tests.e2e.servers import NETWORK_KINDS, IrcServer, start_server

SCENARIOS = ((0.5, 80), (0.5, 200), (1.0, 80), (1.0, 200), (2.0, 80), (5.0, 80), (10.0, 80))
"""(lines per second, bytes per line without CRLF)."""
SETTLE = 15.0
"""Seconds between joining and sending: registering and joining cost penalty too (ircu, irc2
add ~2 s per line to a client's timer); the measurement starts with it drained."""

_addresses = (f"127.0.{a}.{b}" for a in range(40, 60) for b in range(1, 250))
_nicks = itertools.count(1)


class _Conn:
    """A raw client recording (arrival time, line); answers server PINGs."""

    def __init__(self, port: int, nick: str, source: str) -> None:
        self.nick = nick
        self.sock = socket.create_connection(("127.0.0.1", port), source_address=(source, 0))
        self.lines: list[tuple[float, str]] = []
        self.closed_at: float | None = None
        self._lock = threading.Lock()
        threading.Thread(target=self._read, daemon=True).start()
        self.send(f"NICK {nick}")
        self.send(f"USER {nick} 0 * :flood probe")
        self.wait(lambda line: f" 001 {nick} " in line, 15)

    def _read(self) -> None:
        buf = b""
        try:
            while data := self.sock.recv(65536):
                buf += data
                *complete, buf = buf.split(b"\n")
                now = time.monotonic()
                for raw in complete:
                    line = raw.rstrip(b"\r").decode("utf-8", "replace")
                    if line.startswith("PING "):
                        self.send("PONG " + line[5:])
                    with self._lock:
                        self.lines.append((now, line))
        except OSError:
            pass
        self.closed_at = time.monotonic()

    def send(self, line: str) -> None:
        with contextlib.suppress(OSError):
            self.sock.sendall(line.encode() + b"\r\n")

    def snapshot(self) -> list[tuple[float, str]]:
        with self._lock:
            return list(self.lines)

    def wait(self, pred: object, timeout: float) -> str:
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            for _, line in self.snapshot():
                if pred(line):  # type: ignore[operator]
                    return line
            time.sleep(0.02)
        raise TimeoutError(f"{self.nick}: {self.snapshot()[-5:]}")


@dataclass
class Result:
    kind: str
    rate: float
    size: int
    sent: int = 0
    killed_after: float | None = None
    error: str = ""
    max_rtt: float = 0.0
    rtts: list[float] = field(default_factory=list)
    max_lag: float = 0.0
    delivered: int = 0
    warnings: int = 0
    """Server notices to the sender about flooding (hybrid: "Message to #c throttled...")."""
    warning: str = ""

    def row(self) -> str:
        fate = (
            f"killed after {self.killed_after:.0f} s ({self.error})"
            if self.killed_after is not None
            else "not killed"
        )
        return (
            f"| {self.kind} | {self.rate:g}/s × {self.size} B | {fate} | "
            f"{self.max_rtt:.1f} s | {self.max_lag:.1f} s | {self.delivered}/{self.sent} | "
            + (f"{self.warnings}× {self.warning!r} |" if self.warnings else "– |")
        )


def run_scenario(server: IrcServer, rate: float, size: int, seconds: float) -> Result:
    n = next(_nicks)
    channel = f"#fp{n}"
    listener = _Conn(server.port, f"fl{n}", next(_addresses))
    sender = _Conn(server.port, f"fs{n}", next(_addresses))
    for conn in (listener, sender):
        conn.send(f"JOIN {channel}")
        conn.wait(lambda line, c=conn: f" 366 {c.nick} {channel} " in line, 15)
    result = Result(server.kind, rate, size)
    prefix = f"NOTICE {channel} :"
    # One PRIVMSG first, as a bot says something when it joins: on hybrid that ends the
    # client's flood grace (40 lines/s until then; 5, then about 1/s after).
    sender.send(f"PRIVMSG {channel} :hello")
    time.sleep(SETTLE)
    began = time.monotonic()
    pings: dict[str, float] = {}
    i = 0
    while time.monotonic() - began < seconds and sender.closed_at is None:
        due = began + i / rate
        time.sleep(max(0.0, due - time.monotonic()))
        if i % 10 == 5:  # every 10th line a PING instead (the line rate stays the same)
            tag = f"p{i}"
            pings[tag] = time.monotonic()
            sender.send(f"PING :{tag}")
        else:
            stamp = f"{i:05d}@{time.monotonic():.3f} "
            sender.send(prefix + stamp + "x" * max(0, size - len(prefix) - len(stamp)))
            result.sent += 1
        i += 1
    time.sleep(3)  # late deliveries and PONGs
    for when, line in sender.snapshot():
        if line.startswith("ERROR"):
            result.error = line.split(":", 1)[-1]
        elif " NOTICE " in line and ("flood" in line.lower() or "throttl" in line.lower()):
            result.warnings += 1
            result.warning = line.split(" :", 1)[-1]
        for tag, sent_at in pings.items():
            if line.endswith(f":{tag}") and " PONG " in f" {line}":
                result.rtts.append(when - sent_at)
    unanswered = [t for t in pings if not any(ln.endswith(f":{t}") for _, ln in sender.snapshot())]
    if sender.closed_at is not None:
        result.killed_after = sender.closed_at - began
    elif unanswered:  # still held back at the end: count the wait so far
        result.rtts.append(time.monotonic() - pings[unanswered[0]])
    result.max_rtt = max(result.rtts, default=0.0)
    for when, line in listener.snapshot():
        if f" NOTICE {channel} :" in line:
            stamp = line.split(f" NOTICE {channel} :", 1)[1].split(" ", 1)[0]
            result.max_lag = max(result.max_lag, when - float(stamp.split("@")[1]))
            result.delivered += 1
    for conn in (listener, sender):
        conn.send("QUIT")
        conn.sock.close()
    return result


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("kinds", nargs="*", default=list(NETWORK_KINDS))
    parser.add_argument("--seconds", type=float, default=120.0)
    parser.add_argument(
        "--scenario",
        action="append",
        default=[],
        metavar="RATE:BYTES",
        help="e.g. 1:80 (repeatable; default: SCENARIOS)",
    )
    args = parser.parse_args(argv)
    scenarios = [(float(r), int(b)) for r, b in (x.split(":") for x in args.scenario)]
    scenarios = scenarios or list(SCENARIOS)
    servers = {kind: start_server(kind) for kind in args.kinds}
    results: list[Result] = []
    try:
        threads = []
        for kind in args.kinds:
            for rate, size in scenarios:

                def run(k: str = kind, r: float = rate, s: int = size) -> None:
                    results.append(run_scenario(servers[k], r, s, args.seconds))

                threads.append(threading.Thread(target=run))
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    finally:
        for server in servers.values():
            server.cleanup()
    print(
        f"| server | sending | fate in {args.seconds:.0f} s | max PING→PONG | max delivery lag "
        "| delivered | flood notices |"
    )
    print("|---|---|---|---|---|---|---|")
    order = {k: i for i, k in enumerate(args.kinds)}
    for r in sorted(results, key=lambda r: (order[r.kind], -r.rate, r.size)):
        print(r.row())


if __name__ == "__main__":
    main()
