"""How IRC servers account for a client's lines, and how fast the bot may therefore send.

Pure logic, no I/O, no clock: the outbox (``unobot.irc.outbox``) asks these models what a line
costs; the adapter picks the model from what the server says about itself.

Why a model per server and not one rate: the servers IRC networks run keep a *penalty clock*
per client (RFC 1459 §8.10). Each line moves the clock forward by its cost; while the clock
runs more than an allowance ahead of real time, the server stops reading the client's lines,
and what it has not read waits in its receive queue. What happens next differs, and a flat
"lines per second" is wrong for some of them:

- **ircu** (Undernet, QuakeNet's snircd, Nefarious): a line costs ``2 + bytes/120`` seconds
  (bytes of its parameters, integer division), the allowance is 10 s, and a client whose
  unread queue passes ``CLIENT_FLOOD`` (1024 bytes) is killed: "Excess Flood". One line a
  second of 80 bytes was killed within 30 s; the sustainable rate is half a line a second.
  (ircu ``s_bsd.c`` ``read_packet``, ``parse.c`` ``parse_client``.)
- **irc2** (IRCnet): ``1 + bytes/100`` before the command and the command's own penalty after
  it (about one more second for a message), allowance 10 s; it holds lines back rather than
  killing (1 line/s on 6 tables: 13 s behind).
- **hybrid, ratbox, Solanum/charybdis**: a burst of about 5 lines, then about a line a second;
  Solanum holds lines back ("fake lag"), hybrid kills past a 2.5 KB receive queue.
- **UnrealIRCd**: ``1 + bytes/90`` seconds a line (``lag-penalty``), allowance 10 s.
- **InspIRCd**: 1 s a command, threshold 10 s, fake lag, killed past an 8 KB receive queue.
- **ngircd**: about 1 s a command beyond a short burst, held back, never killed.
- **unobot-embedded**, the bot's own local server (``unobot.irc.embedded_server``): no flood
  control at all (the bot owns both ends of the link), so nothing is held back.

A server the bot does not know keeps the configured bucket (``irc.send_burst`` lines, then
``irc.send_rate`` a second); ``irc.flood_model = "rfc1459"`` is RFC 1459's own rule, 2 s a
line, what eggdrop's default ``msg-rate`` assumes. Whatever the model, the bot measures the
server's lag and slows down when lines start waiting there (:class:`Pacer`).

The allowances below are the servers' own less a margin: their clocks count whole seconds
(a client can be a second further ahead than a clock with fractions says), and a PONG the
library sends by itself costs like any line.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

__all__ = [
    "MODELS",
    "FloodModel",
    "Pacer",
    "bucket",
    "flood_words",
    "model_for_server",
]


@dataclass(frozen=True, slots=True)
class FloodModel:
    """One server family's accounting: a line costs ``per_line`` seconds plus one second per
    ``per_bytes`` bytes of its parameters (0: length is free), and lines may be sent while the
    client's penalty clock is less than ``allowance`` seconds ahead of real time."""

    name: str
    per_line: float
    per_bytes: int
    allowance: float
    kills: bool
    """Going over gets the client disconnected ("Excess Flood") rather than only held back."""
    burst_bytes: int = 2000
    """Bytes that may arrive at once. A server reads what has arrived into the client's
    receive queue before it parses a line of it, and kills past its limit (ircu's
    ``CLIENT_FLOOD``, 1024 bytes): three hands of 400 bytes written together were a kill,
    whatever the clock said."""

    def cost(self, params_bytes: int) -> float:
        """Seconds one line with ``params_bytes`` bytes after its command word costs."""
        extra = params_bytes // self.per_bytes if self.per_bytes else 0
        return self.per_line + extra

    @property
    def rate(self) -> float:
        """Short lines per second once the allowance is spent (for logs and docs/networks.md)."""
        return 1.0 / self.per_line if self.per_line else 0.0


def bucket(burst: int, rate: float, name: str = "bucket") -> FloodModel:
    """A token bucket as a penalty clock: ``burst`` lines at once, then ``rate`` a second
    (``rate`` 0: unlimited). The ``burst``-th line leaves while the clock is ``burst - 1``
    lines ahead."""
    if rate <= 0:
        return FloodModel(name, 0.0, 0, float("inf"), kills=False)
    per_line = 1.0 / rate
    return FloodModel(name, per_line, 0, (burst - 1) * per_line, kills=False)


MODELS: dict[str, FloodModel] = {
    "ircu": FloodModel("ircu", 2.0, 120, 8.0, kills=True, burst_bytes=800),
    "irc2": FloodModel("irc2", 2.0, 100, 8.0, kills=False, burst_bytes=800),
    "bahamut": FloodModel("bahamut", 2.0, 120, 8.0, kills=True, burst_bytes=800),
    "unreal": FloodModel("unreal", 1.0, 90, 8.0, kills=True, burst_bytes=4000),
    "hybrid": FloodModel("hybrid", 1.0, 0, 3.0, kills=True, burst_bytes=2000),
    "ratbox": FloodModel("ratbox", 1.0, 0, 3.0, kills=True, burst_bytes=2000),
    "solanum": FloodModel("solanum", 1.0, 0, 3.0, kills=False, burst_bytes=2000),
    "inspircd": FloodModel("inspircd", 1.0, 0, 5.0, kills=True, burst_bytes=4000),
    "ngircd": FloodModel("ngircd", 1.0, 0, 3.0, kills=False),
    "ergo": FloodModel("ergo", 0.5, 0, 1.5, kills=False),
    "rfc1459": FloodModel("rfc1459", 2.0, 0, 8.0, kills=True, burst_bytes=800),
    "embedded": FloodModel("embedded", 0.0, 0, float("inf"), kills=False),
}
"""The named models (``irc.flood_model``); ``auto`` picks one from the server's version."""

_VERSIONS: tuple[tuple[re.Pattern[str], str], ...] = tuple(
    (re.compile(pattern, re.IGNORECASE), name)
    for pattern, name in (
        (r"^u2\.", "ircu"),  # u2.10.12.10, u2.10.12.14+snircd(1.3.4a), u2.10.12.19+Nefarious
        (r"nefarious|snircd", "ircu"),
        (r"^2\.1\d", "irc2"),  # 2.11.2p3
        (r"^bahamut", "bahamut"),
        (r"^unreal", "unreal"),
        (r"hybrid", "hybrid"),  # ircd-hybrid-8.2.43
        (r"ratbox", "ratbox"),
        (r"^(solanum|charybdis)", "solanum"),
        (r"^inspircd", "inspircd"),
        (r"^ngircd", "ngircd"),
        (r"^(ergo|oragono)", "ergo"),
        (r"^unobot-embedded$", "embedded"),
    )
)


def model_for_server(version: str, fallback: FloodModel) -> FloodModel:
    """The model for a server that calls itself ``version`` (its ``004`` reply), else
    ``fallback`` (a server with no flood control the bot knows of, such as a local test
    server, keeps the configured bucket)."""
    for pattern, name in _VERSIONS:
        if pattern.search(version):
            return MODELS[name]
    return fallback


_FLOOD = re.compile(r"flood|recvq|too many lines|sendq exceeded", re.IGNORECASE)


def flood_words(text: str) -> bool:
    """Whether a server's closing words say the bot was disconnected for sending too much
    ("Excess Flood", "RecvQ exceeded", "Max SendQ exceeded")."""
    return bool(_FLOOD.search(text))


class Pacer:
    """How much slower than its model the bot sends now, from what it has measured.

    ``factor`` multiplies every line's cost. It grows when the server holds lines back (a lag
    probe came back late: lines wait in the server, where nothing can be folded or put in
    order any more) and doubles when the server disconnected the bot for flooding; it comes
    back down, slowly, while probes come back promptly, never below 1: the model's own
    numbers are the limit.
    """

    LAG_HIGH = 2.0
    """Seconds of lag that mean the server is holding lines back."""
    LAG_LOW = 0.75
    """Seconds of lag under which the server reads as fast as the bot sends."""
    CEILING = 8.0

    def __init__(self) -> None:
        self.factor = 1.0

    def lag(self, seconds: float) -> bool:
        """A probe's measured lag; True when it made the bot slow down."""
        if seconds > self.LAG_HIGH:
            self.factor = min(self.CEILING, self.factor * 1.5)
            return True
        if seconds < self.LAG_LOW:
            self.factor = max(1.0, self.factor - 0.05)
        return False

    def flooded(self) -> None:
        """The server disconnected the bot for flooding: half the budget from now on, which
        good probes earn back a twentieth of a line's cost at a time."""
        self.factor = min(self.CEILING, self.factor * 2.0)
