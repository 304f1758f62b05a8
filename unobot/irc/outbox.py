"""Outbound lines: sanitising, splitting and a two-lane token bucket. Pure logic, no I/O.

Why this exists: IRC servers disconnect clients that send too fast (inspircd: a 10-line burst,
then 1 line/s, and an 8 KB receive queue), cut relayed lines near 470 bytes, and treat CR/LF as
the end of a command. The irc library's own throttle (``set_rate_limit``) sleeps inside the
reactor, freezing the whole bot. So the adapter queues every line here and asks
:meth:`Outbox.due` which lines may go now, from a timer on the reactor; nothing here sleeps or
reads a clock by itself, which makes it testable with a fake clock.
"""

from __future__ import annotations

import re
from collections import deque
from collections.abc import Iterator
from dataclasses import dataclass
from enum import IntEnum

__all__ = [
    "CHANNEL_PREFIXES",
    "Lane",
    "Line",
    "Outbox",
    "sanitize",
    "sanitize_target",
    "split_text",
]

CHANNEL_PREFIXES = ("#", "&", "+", "!")

# mIRC formatting codes we keep: bold, colour, reset, reverse, italic, underline.
_KEEP = frozenset("\x02\x03\x0f\x16\x1d\x1f")
# Line breaks and tabs become a space (so "a\nb" does not read "ab"); every other C0 control and
# DEL (NUL, the CTCP delimiter \x01, ...) is dropped.
_TABLE: dict[int, str | None] = {
    c: (" " if chr(c) in "\r\n\t" else None) for c in [*range(32), 127] if chr(c) not in _KEEP
}
# A colour code: \x03 with up to two foreground digits, optionally a comma and background digits.
_COLOUR = re.compile(rb"\x03(?:\d{1,2}(?:,\d{1,2})?)?")
_SPACE = re.compile(r"\s+")


_TARGET_TABLE = {**_TABLE, **{ord(ch): None for ch in _KEEP}, ord(","): None}
"""``sanitize`` for targets, which also lose formatting codes and commas."""


def sanitize(text: str) -> str:
    """Make user text safe for one IRC line.

    CR, LF and NUL would end or corrupt the protocol line (a nick could inject ``QUIT`` or
    ``PRIVMSG NickServ``), so they never survive; neither do other C0 controls such as the CTCP
    delimiter \\x01. mIRC colour and style codes are kept because the renderer uses them.
    """
    return text.translate(_TABLE)


def sanitize_target(target: str) -> str:
    """A nick or channel as one protocol word: no spaces, controls, commas or leading colon.

    Why: a target comes from user input too (``.play`` replies go to the sender's nick) and a
    space or colon in it would shift the text into a different parameter.
    """
    return _SPACE.sub("", target.translate(_TARGET_TABLE)).lstrip(":")


def _safe_cut(data: bytes, cut: int) -> int:
    """Move a byte offset back so it is not inside a UTF-8 character or a colour code."""
    while cut > 0 and (data[cut] & 0xC0) == 0x80:
        cut -= 1
    lo = max(0, cut - 6)
    for m in _COLOUR.finditer(data, lo, min(len(data), cut + 6)):
        if m.start() < cut < m.end() and m.start() > 0:
            return m.start()
    return cut


def split_text(text: str, limit: int = 400) -> list[str]:
    """Split ``text`` into pieces of at most ``limit`` UTF-8 bytes, at spaces where possible.

    Why bytes: servers count bytes, and a cut inside a multibyte character becomes mojibake.
    Why spaces: the renderer separates cards by spaces, so a hand never loses half a card to the
    next line. A single word longer than ``limit`` is cut hard, but never inside a character or
    between a \\x03 and its colour digits. Empty pieces are dropped (IRC refuses empty text).
    """
    if limit < 8:
        raise ValueError("limit must be at least 8 bytes")
    data = text.encode("utf-8")
    pieces: list[bytes] = []
    while len(data) > limit:
        cut = _safe_cut(data, limit)
        space = data.rfind(b" ", 0, cut + 1)
        if space > 0 and data[:space].strip(b" "):
            piece, data = data[:space], data[space + 1 :]
        else:
            piece, data = data[:cut], data[cut:]
        pieces.append(piece.rstrip(b" "))
        data = data.lstrip(b" ")
    pieces.append(data)
    return [p.decode("utf-8") for p in pieces if p.strip(b" ")]


class Lane(IntEnum):
    """Send order: registration/JOIN commands, then private lines to nicks, then channels.

    Why: a player waiting for their hand (a NOTICE) matters more than channel chatter, and a
    queued JOIN after a reconnect must not wait behind sixty channel lines.
    """

    CONTROL = 0
    PRIVATE = 1
    CHANNEL = 2


@dataclass(frozen=True, slots=True)
class Line:
    """One outbound command: ``command target :text`` (``text`` is a key for JOIN)."""

    command: str
    target: str
    text: str


class Outbox:
    """A token bucket over prioritised FIFO lanes.

    ``burst`` lines may go at once; the bucket refills at ``rate`` lines per second
    (``rate=0``: unlimited, for servers without flood control or for tests). The clock is passed
    in (``now``, in seconds, monotonic), never read here.
    """

    def __init__(self, burst: int = 4, rate: float = 1.0, limit: int = 400) -> None:
        if burst < 1:
            raise ValueError("burst must be at least 1")
        if rate < 0:
            raise ValueError("rate must be >= 0")
        self.burst = burst
        self.rate = rate
        self.limit = limit
        self._tokens = float(burst)
        self._stamp: float | None = None
        self._lanes: tuple[deque[Line], ...] = tuple(deque() for _ in Lane)

    def __len__(self) -> int:
        control, private, channel = self._lanes  # called per command: no generator
        return len(control) + len(private) + len(channel)

    def __iter__(self) -> Iterator[Line]:
        for lane in self._lanes:
            yield from lane

    def push(self, command: str, target: str, text: str, lane: Lane | None = None) -> int:
        """Queue ``text`` for ``target``; returns how many lines were queued.

        PRIVMSG and NOTICE text is sanitised and split; other commands (JOIN with a key, a CTCP
        reply) are sanitised but kept whole. The lane follows from command and target unless
        given.
        """
        command = command.upper()
        target = sanitize_target(target)
        if not target or not command.isalpha():
            return 0
        if command in ("PRIVMSG", "NOTICE"):
            pieces = split_text(sanitize(text), self.limit)
            if lane is None:
                lane = Lane.CHANNEL if target.startswith(CHANNEL_PREFIXES) else Lane.PRIVATE
        else:
            pieces = [sanitize(text)]
            if lane is None:
                lane = Lane.CONTROL
        queue = self._lanes[lane]
        queue.extend(Line(command, target, piece) for piece in pieces)
        return len(pieces)

    def _refill(self, now: float) -> None:
        if self._stamp is not None and now > self._stamp:
            self._tokens = min(float(self.burst), self._tokens + (now - self._stamp) * self.rate)
        if self._stamp is None or now > self._stamp:
            self._stamp = now

    def reset(self, now: float) -> None:
        """Refill the bucket completely: a new connection starts with a fresh server budget."""
        self._tokens = float(self.burst)
        self._stamp = now

    def clear(self) -> None:
        """Drop every queued line."""
        for lane in self._lanes:
            lane.clear()

    def due(self, now: float) -> list[Line]:
        """Take the lines that may be sent at ``now``, highest lane first, and spend tokens."""
        self._refill(now)
        out: list[Line] = []
        for lane in self._lanes:
            while lane and (self.rate == 0 or self._tokens >= 1 - 1e-9):
                out.append(lane.popleft())
                if self.rate:
                    self._tokens -= 1
        return out

    def next_time(self, now: float) -> float | None:
        """When the next line may go (``now`` if one may go at once); None if nothing waits."""
        if not any(self._lanes):
            return None
        self._refill(now)
        if self.rate == 0 or self._tokens >= 1 - 1e-9:
            return now
        return now + (1 - self._tokens) / self.rate
