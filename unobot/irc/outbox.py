"""Outbound lines: sanitising, splitting, and a token bucket over a queue fair by channel.
Pure logic, no I/O.

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
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from enum import IntEnum

from unobot.irc.casemap import irc_lower
from unobot.irc.transport import UNTAGGED, Tag

__all__ = [
    "CHANNEL_PREFIXES",
    "Lane",
    "Line",
    "Outbox",
    "Tag",
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
    """Where a line waits. CONTROL (registration, JOIN, PONG) always goes first: a queued JOIN
    after a reconnect must not wait behind sixty channel lines. PRIVATE and CHANNEL lines wait
    in their flow (see :class:`Outbox`); within a flow's game lines, private ones (a player's
    hand) go before the channel's: a player waiting for their hand matters more than chatter.
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


@dataclass(slots=True)
class _Waiting:
    line: Line
    key: str
    expires: float
    status: str = ""
    """The stale-able end of the line's text (see ``Tag.status``), sanitised like it."""
    memo: tuple[str, str, int] | None = None
    """On the last line of a keyed text: (flow, key, part), to remember it when it leaves."""
    whole: list[str] | None = None
    """With ``memo``: every line of that text."""


class _Flow:
    """One channel's waiting lines: its game's private lines (hands), its game's channel
    lines, and replies to its users."""

    __slots__ = ("hands", "lines", "replies")

    def __init__(self) -> None:
        self.hands: deque[_Waiting] = deque()
        self.lines: deque[_Waiting] = deque()
        self.replies: deque[_Waiting] = deque()

    def __len__(self) -> int:
        return len(self.hands) + len(self.lines) + len(self.replies)

    def game(self) -> bool:
        return bool(self.hands or self.lines)


class Outbox:
    """A token bucket over a fair queue.

    ``burst`` lines may go at once; the bucket refills at ``rate`` lines per second
    (``rate=0``: unlimited, for servers without flood control or for tests). The clock is passed
    in (``now``, in seconds, monotonic), never read here.

    Fairness: every channel has its own flow, and the bucket's tokens go round the flows
    whose game has lines waiting, one line each in turn (round robin), so a busy channel gets
    its share and no more. Replies to users (help, stats, refusals) take their turns apart:
    after every ``game_share`` game lines one reply may go, round robin over the channels with
    replies waiting. So with N channels' games waiting, each game sends at least one line in
    every N + N/``game_share`` (1.5 N at the default), however many replies anyone asks for,
    and replies are never starved either; a reply older than ``reply_ttl`` seconds is dropped
    instead of sent late. Lines about no channel (private commands, CTCP) share one flow.
    Within a game, a player's hand goes before the channel's line.
    """

    def __init__(
        self,
        burst: int = 4,
        rate: float = 1.0,
        limit: int = 400,
        *,
        reply_ttl: float = 30.0,
        game_share: int = 2,
    ) -> None:
        if burst < 1:
            raise ValueError("burst must be at least 1")
        if rate < 0:
            raise ValueError("rate must be >= 0")
        self.burst = burst
        self.rate = rate
        self.limit = limit
        self.reply_ttl = reply_ttl
        self.game_share = game_share
        self._tokens = float(burst)
        self._stamp: float | None = None
        self._control: deque[Line] = deque()
        self._flows: dict[str, _Flow] = {}
        self._games: deque[str] = deque()
        """Flows whose game has lines waiting, in the order they are served."""
        self._replies: deque[str] = deque()
        """Flows with replies waiting, in the order they are served."""
        self._served = 0
        """Game lines sent since the last reply."""
        self._count = 0
        self.dropped = 0
        """Replies dropped because they waited longer than ``reply_ttl``."""
        self.replaced = 0
        """Queued lines replaced by a newer one with the same key (hands)."""
        self.merged = 0
        """Lines folded into a waiting one (a channel's moves while its last line waited)."""
        self.unchanged = 0
        """Keyed texts not sent because the last of their key that left was the same (while
        their channel had lines waiting)."""
        self._left: dict[tuple[str, str, int], list[str]] = {}
        """The last keyed text of each (flow, key, part) that left (bounded, oldest out)."""

    def __len__(self) -> int:
        return self._count

    def __iter__(self) -> Iterator[Line]:
        yield from self._control
        for flow in self._flows.values():
            for queue in (flow.hands, flow.lines, flow.replies):
                yield from (w.line for w in queue)

    def push(
        self,
        command: str,
        target: str,
        text: str,
        lane: Lane | None = None,
        *,
        tag: Tag = UNTAGGED,
        now: float = 0.0,
    ) -> int:
        """Queue ``text`` for ``target``; returns how many lines were queued.

        PRIVMSG and NOTICE text is sanitised and split; other commands (JOIN with a key, a CTCP
        reply) are sanitised but kept whole. The lane follows from command and target unless
        given; ``tag`` says which flow the line joins (default: its target's channel, or the
        shared flow of private lines) and ``now`` is when, for a reply's expiry.
        """
        command = command.upper()
        target = sanitize_target(target)
        if not target or not command.isalpha():
            return 0
        to_channel = target.startswith(CHANNEL_PREFIXES)
        if command in ("PRIVMSG", "NOTICE"):
            pieces = split_text(sanitize(text), self.limit)
            if lane is None:
                lane = Lane.CHANNEL if to_channel else Lane.PRIVATE
        else:
            pieces = [sanitize(text)]
            if lane is None:
                lane = Lane.CONTROL
        if not pieces:
            return 0
        if lane is Lane.CONTROL:
            self._control.extend(Line(command, target, piece) for piece in pieces)
            self._count += len(pieces)
            return len(pieces)
        name = irc_lower(tag.channel) if tag.channel else (irc_lower(target) if to_channel else "")
        flow = self._flows.get(name)
        kind = "replies" if tag.reply else ("hands" if lane is Lane.PRIVATE else "lines")
        status = sanitize(tag.status) if tag.status and len(pieces) == 1 else ""
        memo = (name, tag.key, tag.part) if tag.key and not status else None
        # The very lines that left last, while the channel has a backlog (a flow exists only
        # while lines wait): nothing new to say. Without a backlog they go again (the line is
        # free then, and the player may have reconnected since, or read it as their turn).
        if (
            memo is not None
            and flow is not None
            and self._left.get(memo) == pieces
            and not any(w.key == tag.key for w in getattr(flow, kind))
        ):
            self.unchanged += 1
            return 0
        if flow is None:
            flow = self._flows[name] = _Flow()
        if tag.reply:
            if not flow.replies:
                self._replies.append(name)
        elif not flow.game():
            self._games.append(name)
        queue: deque[_Waiting] = getattr(flow, kind)
        expires = now + self.reply_ttl if tag.reply and not tag.urgent else float("inf")
        if status and self._merge(queue, pieces[0], tag.key, status):
            return 1
        if memo is not None and tag.part == 0:
            self._replace(flow, queue, tag.key)
        waiting = [
            _Waiting(Line(command, target, piece), tag.key, expires, status) for piece in pieces
        ]
        if memo is not None:
            waiting[-1].memo, waiting[-1].whole = memo, pieces
        if tag.urgent:
            queue.extendleft(reversed(waiting))
        else:
            queue.extend(waiting)
        self._count += len(pieces)
        return len(pieces)

    def push_joins(self, channels: Iterable[tuple[str, str]]) -> int:
        """Queue JOINs for many ``(channel, key)`` pairs in as few lines as fit
        (``JOIN #a,#b,#c keyA``): each line costs a token, and fifty channels joined one a
        line took fifty seconds. Channels with a key go first (keys pair up in order).
        Returns the number of lines queued."""
        pairs = [(sanitize_target(c), sanitize_target(k)) for c, k in channels]
        pairs = sorted((p for p in pairs if p[0]), key=lambda p: not p[1])
        lines = 0
        names: list[str] = []
        keys: list[str] = []
        size = 0
        for name, key in pairs:
            cost = len(name.encode()) + 1 + (len(key.encode()) + 1 if key else 0)
            if names and size + cost > self.limit:
                self._control.append(Line("JOIN", ",".join(names), ",".join(keys)))
                lines += 1
                names, keys, size = [], [], 0
            names.append(name)
            if key:
                keys.append(key)
            size += cost
        if names:
            self._control.append(Line("JOIN", ",".join(names), ",".join(keys)))
            lines += 1
        self._count += lines
        return lines

    def _merge(self, queue: deque[_Waiting], text: str, key: str, status: str) -> bool:
        """Fold ``text`` into the last waiting line if it has the same key and ends with its
        status (nothing else queued after it, so no order changes), within the byte limit."""
        if not queue:
            return False
        last = queue[-1]
        old = last.line.text
        if last.key != key or not last.status or not old.endswith(last.status):
            return False
        news = old[: len(old) - len(last.status)].rstrip()
        merged = f"{news} {text}" if news else text
        if len(merged.encode()) > self.limit:
            return False
        last.line = Line(last.line.command, last.line.target, merged)
        last.status = status
        self.merged += 1
        return True

    def _replace(self, flow: _Flow, queue: deque[_Waiting], key: str) -> None:
        kept = [w for w in queue if w.key != key]
        gone = len(queue) - len(kept)
        if gone:
            queue.clear()
            queue.extend(kept)
            self._count -= gone
            self.replaced += gone

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
        self._control.clear()
        self._flows.clear()
        self._games.clear()
        self._replies.clear()
        self._count = 0

    def _next(self, now: float) -> Line | None:
        if self._control:
            self._count -= 1
            return self._control.popleft()
        waiting = None
        if self._replies and (not self._games or self._served >= self.game_share):
            waiting = self._next_reply(now)
        if waiting is None and self._games:
            name = self._games.popleft()
            flow = self._flows[name]
            waiting = (flow.hands or flow.lines).popleft()
            self._count -= 1
            self._served += 1
            if flow.game():
                self._games.append(name)  # its next line waits for every other game's turn
            elif not flow.replies:
                del self._flows[name]
        if waiting is None:
            return None
        if waiting.memo is not None and waiting.whole is not None:
            self._left[waiting.memo] = waiting.whole
            if len(self._left) > 10_000:  # forget the oldest (dicts keep order)
                del self._left[next(iter(self._left))]
        return waiting.line

    def _next_reply(self, now: float) -> _Waiting | None:
        """The next reply in turn, dropping those that waited past ``reply_ttl``."""
        while self._replies:
            name = self._replies.popleft()
            flow = self._flows[name]
            while flow.replies and flow.replies[0].expires < now:
                flow.replies.popleft()
                self._count -= 1
                self.dropped += 1
            waiting = flow.replies.popleft() if flow.replies else None
            if flow.replies:
                self._replies.append(name)
            elif not flow.game():
                del self._flows[name]
            if waiting is not None:
                self._count -= 1
                self._served = 0
                return waiting
        return None

    def renamed(self, old: str, new: str) -> int:
        """``old`` is now ``new``: lines queued to the old nick go to the new one (the server
        would refuse them, and a player's hand would be lost). Returns how many."""
        low = irc_lower(old)
        moved = 0
        for flow in self._flows.values():
            for queue in (flow.hands, flow.lines, flow.replies):
                for waiting in queue:
                    line = waiting.line
                    if irc_lower(line.target) == low:
                        waiting.line = Line(line.command, sanitize_target(new), line.text)
                        moved += 1
        return moved

    def due(self, now: float) -> list[Line]:
        """Take the lines that may be sent at ``now`` (control first, then the flows in turn)
        and spend tokens."""
        self._refill(now)
        out: list[Line] = []
        while self._count and (self.rate == 0 or self._tokens >= 1 - 1e-9):
            line = self._next(now)
            if line is None:
                break
            out.append(line)
            if self.rate:
                self._tokens -= 1
        return out

    def next_time(self, now: float) -> float | None:
        """When the next line may go (``now`` if one may go at once); None if nothing waits."""
        if not self._count:
            return None
        self._refill(now)
        if self.rate == 0 or self._tokens >= 1 - 1e-9:
            return now
        return now + (1 - self._tokens) / self.rate
