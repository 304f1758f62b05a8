"""Outbound lines: sanitising, splitting, and the server's penalty clock over a queue fair by
channel and, for replies, by person. Pure logic, no I/O.

Why this exists: IRC servers disconnect clients that send too fast (inspircd: a 10-line burst,
then 1 line/s, and an 8 KB receive queue), cut relayed lines near 470 bytes, and treat CR/LF as
the end of a command. The irc library's own throttle (``set_rate_limit``) sleeps inside the
reactor, freezing the whole bot. So the adapter queues every line here and asks
:meth:`Outbox.due` which lines may go now, from a timer on the reactor; nothing here sleeps or
reads a clock by itself, which makes it testable with a fake clock.
"""

from __future__ import annotations

import math
import re
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from enum import IntEnum

from unobot.irc.casemap import irc_lower
from unobot.irc.flood import FloodModel, Pacer, bucket
from unobot.irc.transport import UNTAGGED, Tag

__all__ = [
    "CHANNEL_PREFIXES",
    "Lane",
    "Outbox",
    "Tag",
    "WireLine",
    "is_private",
    "sanitize",
    "sanitize_target",
    "split_text",
    "strip_codes",
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


_FORMATTING = re.compile(r"\x03(\d{1,2}(,\d{1,2})?)?|[\x02\x0f\x16\x1d\x1f]")
"""The formatting kept by :func:`sanitize` (and written by the renderer): colours with their
numbers, bold, reset, reverse, italics, underline."""


def strip_codes(text: str) -> str:
    """``text`` without IRC formatting: what a client that shows none displays."""
    return _FORMATTING.sub("", text)


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
class WireLine:
    """One outbound command: ``command target :text`` (``text`` is a key for JOIN). Not
    :class:`unobot.core.render_irc.Line`, the message the core renders: the adapter turns
    that into one or more of these (split to the server's line length, queued by lane)."""

    command: str
    target: str
    text: str
    via: str = field(default="", compare=False)
    """The channel (case-folded) a private line is about (a player's hand, a reply to a
    command said there): where the adapter may send it as ``CNOTICE``/``CPRIVMSG`` instead."""

    def params_bytes(self) -> int:
        """Bytes after the command word, which servers charge for (``target :text``)."""
        size = len(self.target.encode())
        return size + 2 + len(self.text.encode()) if self.text else size


def is_private(line: WireLine) -> bool:
    """A message to one person: what a server's target-change limit (ircu's 439) counts."""
    return line.command in ("PRIVMSG", "NOTICE") and not line.target.startswith(CHANNEL_PREFIXES)


@dataclass(slots=True)
class _Waiting:
    line: WireLine
    key: str
    expires: float
    status: str = ""
    """The stale-able end of the line's text (see ``Tag.status``), sanitised like it."""
    memo: tuple[str, str, int] | None = None
    """On the last line of a keyed text: (flow, key, part), to remember it when it leaves."""
    whole: list[str] | None = None
    """With ``memo``: every line of that text."""
    flow: str = ""
    kind: str = "lines"
    """Which queue of its flow it waits in: ``hands``, ``lines``, ``replies`` or ``extras``."""
    person: str = ""
    """For a reply: whose command it answers (replies take turns by person)."""
    batch: int = 0
    """Which push of its key it belongs to (the lines of one long hand share it): a refused
    line goes back in the queue only if no newer text of its key waits there."""


class _Flow:
    """One channel's waiting lines: its game's private lines (hands), its game's channel
    lines, replies to its users, a queue per person, and its game's optional lines (extras:
    ``Tag.optional``)."""

    __slots__ = ("askers", "extras", "hands", "lines", "replies")

    def __init__(self) -> None:
        self.hands: deque[_Waiting] = deque()
        self.lines: deque[_Waiting] = deque()
        self.replies: dict[str, deque[_Waiting]] = {}
        self.askers: deque[str] = deque()
        """People with replies waiting, in the order they are served."""
        self.extras: deque[_Waiting] = deque()

    def __len__(self) -> int:
        return (
            len(self.hands) + len(self.lines) + len(self.extras)
            + sum(map(len, self.replies.values()))
        )  # fmt: skip

    def game(self) -> bool:
        return bool(self.hands or self.lines or self.extras)

    def queues(self) -> Iterator[deque[_Waiting]]:
        yield self.hands
        yield self.lines
        yield from self.replies.values()
        yield self.extras


GAME_WINDOW = 30.0
"""Seconds after its last game line during which a channel counts as a game the connection
carries (a game at a person's pace sends a line every few seconds; ircu's, every five)."""
_SENT_LOG = 8
"""Private lines remembered per target after they left, to send again if the server refuses."""
_SENT_TARGETS = 2000
_KNOWN_TARGETS = 20
"""Private targets remembered as accepted (ircu keeps 20 recent targets a client may message
without a target change)."""
BURST_WINDOW = 0.5
"""Lines written within this many seconds may reach the server in one read."""
_RESEND_WINDOW = 120.0
_TRICKLE_FOR = 300.0
"""Seconds after a refusal during which new private targets go one at a time."""
_TRICKLE_GAP = 5.0
"""Seconds between two new targets then: time for the server's refusal to come back."""
_HOLD_MEMORY = 3 * _TRICKLE_GAP
"""Seconds an ended hold still counts (the target refused first goes first), then forgotten."""
"""A refusal older than this is no longer matched to the line that caused it."""


class Outbox:
    """A penalty clock over a fair queue: lines leave while the server's flood model
    (:mod:`unobot.irc.flood`) allows, taking turns round the channels whose games have lines
    waiting, with replies to users in turns of their own; the turn's hand goes first in its
    channel's turn; a line refused for a target limit (ircu's 439) is held until the server's
    time. The clock is passed in (``now``), never read here. How and why, with the figures:
    docs/networks.md, "The send queue".
    """

    def __init__(
        self,
        burst: int = 4,
        rate: float = 1.0,
        limit: int = 400,
        *,
        reply_ttl: float = 30.0,
        game_share: int = 2,
        model: FloodModel | None = None,
        hand_games: int = 2,
    ) -> None:
        if burst < 1:
            raise ValueError("burst must be at least 1")
        if rate < 0:
            raise ValueError("rate must be >= 0")
        self.burst = burst
        self.rate = rate
        self.model = model if model is not None else bucket(burst, rate)
        self.pacer = Pacer()
        self.limit = limit
        self.reply_ttl = reply_ttl
        self.game_share = game_share
        self.hand_games = hand_games
        """Games a connection may carry while every turn's hand goes (see the class)."""
        self._game_sent: dict[str, float] = {}
        """Flow -> when a game line of it last left (which games the connection carries)."""
        self._clock: float | None = None
        """The server's penalty clock for this client, as far as we can tell."""
        self._burst_at = -math.inf
        self._burst_bytes = 0
        """Bytes sent since ``_burst_at``: what may reach the server in one read."""
        self._control: deque[WireLine] = deque()
        self._flows: dict[str, _Flow] = {}
        self._games: deque[str] = deque()
        """Flows whose game has lines waiting, in the order they are served."""
        self._replies: deque[str] = deque()
        """Flows with replies waiting, in the order they are served."""
        self._served = 0
        """Game lines sent since the last reply."""
        self._count = 0
        self._batch = 0
        self._batches: dict[tuple[str, str], int] = {}
        self.dropped = 0
        """Replies dropped because they waited longer than ``reply_ttl``."""
        self.skipped = 0
        """Optional lines dropped unsent: their channel had a newer game line first."""
        self.replaced = 0
        """Queued lines replaced by a newer one with the same key (hands)."""
        self.merged = 0
        """Lines folded into a waiting one (a channel's moves while its last line waited)."""
        self.unchanged = 0
        """Keyed texts not sent because the last of their key that left was the same (while
        their channel had lines waiting)."""
        self.refusals = 0
        """Private lines the server refused for a target change too fast."""
        self.requeued = 0
        """Refused lines queued again (the others had a newer text of their key waiting)."""
        self._left: dict[tuple[str, str, int], list[str]] = {}
        """The last keyed text of each (flow, key, part) that left (bounded, oldest out)."""
        self._held: dict[str, float] = {}
        """Folded private target -> when the server lets the bot message it again."""
        self._block_until = 0.0
        """Until then, private lines to targets not known to be accepted wait (ircu refuses
        every new target while one is refused)."""
        self._known: dict[str, None] = {}
        """Recent private targets the server accepted (oldest first)."""
        self._last_refusal = -math.inf
        """When the server last refused a target: until it has not for a while, new targets
        go one at a time (ircu allows one more every two minutes or so once its free ones
        are spent, and each refusal pushes its clock on by 2 s)."""
        self._sent: dict[str, deque[tuple[float, _Waiting]]] = {}
        """Folded private target -> its latest lines that left, with when."""
        self.exempt: Callable[[WireLine], bool] | None = None
        """Private lines no target-change limit applies to (the adapter's CNOTICE test)."""

    def __len__(self) -> int:
        return self._count

    def __iter__(self) -> Iterator[WireLine]:
        yield from self._control
        for flow in self._flows.values():
            for queue in flow.queues():
                yield from (w.line for w in queue)

    # --- the penalty clock -----------------------------------------------------------------

    @property
    def unlimited(self) -> bool:
        return self.model.per_line <= 0

    def set_model(self, model: FloodModel) -> None:
        """Account lines the way this server does from now on (what is spent stays spent)."""
        self.model = model

    def cost(self, line: WireLine) -> float:
        """Seconds ``line`` adds to the server's clock, with the pacer's slowdown."""
        return self.model.cost(line.params_bytes()) * self.pacer.factor

    def charge(self, line: WireLine, now: float) -> None:
        """``line`` was sent (by the outbox, or by the library itself: a PONG)."""
        if self.unlimited:
            return
        clock = self._clock if self._clock is not None and self._clock > now else now
        self._clock = clock + self.cost(line)
        if now - self._burst_at > BURST_WINDOW:
            self._burst_at, self._burst_bytes = now, 0
        self._burst_bytes += len(line.command) + line.params_bytes() + 3

    def ahead(self, now: float) -> float:
        """Seconds the server's clock for the bot runs ahead of ``now``."""
        return max(0.0, self._clock - now) if self._clock is not None else 0.0

    def _allowed(self, now: float) -> bool:
        if self.unlimited:
            return True
        if self.ahead(now) > self.model.allowance + 1e-9:
            return False
        return not self._burst_full(now)

    def _burst_full(self, now: float) -> bool:
        """Lines sent in this instant already fill what the server may read at once (a line
        of up to the byte limit more would pass it)."""
        return (
            now - self._burst_at <= BURST_WINDOW
            and self._burst_bytes + self.limit + 80 > self.model.burst_bytes
        )

    def pause(self, now: float, seconds: float) -> None:
        """The server holds the bot's lines ``seconds`` longer than the clock says (a probe
        came back late): move the clock on by as much, so that nothing more leaves until the
        server has read what it holds."""
        if not self.unlimited:
            self._clock = max(self._clock or now, now) + seconds

    def reset(self, now: float, spent: Iterable[WireLine] = ()) -> None:
        """A new connection: the server's clock starts now, plus what registering cost
        (``spent``: NICK, USER... the library sent them itself)."""
        self._clock = now
        self._known.clear()
        for line in spent:
            self.charge(line, now)

    # --- queueing ----------------------------------------------------------------------------

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
            self._control.extend(WireLine(command, target, piece) for piece in pieces)
            self._count += len(pieces)
            return len(pieces)
        name = irc_lower(tag.channel) if tag.channel else (irc_lower(target) if to_channel else "")
        flow = self._flows.get(name)
        if tag.reply:
            kind = "replies"
        elif tag.optional:
            kind = "extras"
        else:
            kind = "hands" if lane is Lane.PRIVATE else "lines"
        person = tag.person or ("" if to_channel else irc_lower(target)) if tag.reply else ""
        status = sanitize(tag.status) if tag.status and len(pieces) == 1 else ""
        memo = (name, tag.key, tag.part) if tag.key and not status else None
        # The very lines that left last, while the channel has a backlog (a flow exists only
        # while lines wait): nothing new to say. Without a backlog they go again (the line is
        # free then, and the player may have reconnected since, or read it as their turn).
        if (
            memo is not None
            and flow is not None
            and not tag.again
            and self._left.get(memo) == pieces
            and not any(w.key == tag.key for w in self._queue(name, flow, kind, person, False))
        ):
            self.unchanged += 1
            return 0
        if flow is None:
            flow = self._flows[name] = _Flow()
        elif flow.extras and kind in ("hands", "lines"):
            self._drop_extras(flow)  # the game moved on: they are stale, or behind
        queue = self._queue(name, flow, kind, person, True)
        expires = now + self.reply_ttl if tag.reply and not tag.urgent else float("inf")
        if status and self._merge(queue, pieces[0], tag.key, status):
            return 1
        batch = 0
        if tag.key:
            if tag.part == 0:
                self._batch += 1
                self._batches[(name, tag.key)] = self._batch
                if len(self._batches) > 10_000:  # forget the oldest (dicts keep order)
                    del self._batches[next(iter(self._batches))]
            batch = self._batches.get((name, tag.key), 0)
        if memo is not None and tag.part == 0:
            self._replace(queue, tag.key)
        via = name if not to_channel else ""
        waiting = [
            _Waiting(
                WireLine(command, target, piece, via),
                tag.key,
                expires,
                status,
                flow=name,
                kind=kind,
                person=person,
                batch=batch,
            )
            for piece in pieces
        ]
        if memo is not None:
            waiting[-1].memo, waiting[-1].whole = memo, pieces
        if tag.urgent:
            queue.extendleft(reversed(waiting))
        else:
            queue.extend(waiting)
        self._count += len(pieces)
        return len(pieces)

    def _queue(
        self, name: str, flow: _Flow, kind: str, person: str, create: bool
    ) -> deque[_Waiting]:
        """The queue of flow ``name`` a line of ``kind`` (and ``person``, for a reply) waits
        in; with ``create``, the flow and person join the round robin if they were not in it
        (call it before adding the line)."""
        if kind == "replies":
            queue = flow.replies.get(person)
            if queue is None:
                queue = deque()
                if not create:
                    return queue
                if not flow.askers:
                    self._replies.append(name)
                flow.replies[person] = queue
                flow.askers.append(person)
            return queue
        if create and not flow.game():
            self._games.append(name)
        if kind == "extras":
            return flow.extras
        return flow.hands if kind == "hands" else flow.lines

    def _drop_extras(self, flow: _Flow) -> None:
        self._count -= len(flow.extras)
        self.skipped += len(flow.extras)
        flow.extras.clear()

    def push_joins(self, channels: Iterable[tuple[str, str]]) -> int:
        """Queue JOINs for many ``(channel, key)`` pairs in as few lines as fit
        (``JOIN #a,#b,#c keyA``): each line costs the server's penalty, and fifty channels
        joined one a line took fifty seconds. Channels with a key go first (keys pair up in
        order). Returns the number of lines queued."""
        pairs = [(sanitize_target(c), sanitize_target(k)) for c, k in channels]
        pairs = sorted((p for p in pairs if p[0]), key=lambda p: not p[1])
        lines = 0
        names: list[str] = []
        keys: list[str] = []
        size = 0
        for name, key in pairs:
            cost = len(name.encode()) + 1 + (len(key.encode()) + 1 if key else 0)
            if names and size + cost > self.limit:
                self._control.append(WireLine("JOIN", ",".join(names), ",".join(keys)))
                lines += 1
                names, keys, size = [], [], 0
            names.append(name)
            if key:
                keys.append(key)
            size += cost
        if names:
            self._control.append(WireLine("JOIN", ",".join(names), ",".join(keys)))
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
        last.line = WireLine(last.line.command, last.line.target, merged, last.line.via)
        last.status = status
        self.merged += 1
        return True

    def _replace(self, queue: deque[_Waiting], key: str) -> None:
        kept = [w for w in queue if w.key != key]
        gone = len(queue) - len(kept)
        if gone:
            queue.clear()
            queue.extend(kept)
            self._count -= gone
            self.replaced += gone

    def clear(self) -> None:
        """Drop every queued line."""
        self._control.clear()
        self._flows.clear()
        self._games.clear()
        self._replies.clear()
        self._count = 0

    # --- what may go -------------------------------------------------------------------------

    def _free_at(self, line: WireLine, now: float) -> float:
        """When ``line`` may go as far as the server's target limit is concerned."""
        if not (self._held or self._block_until > now) or not is_private(line):
            return now
        if self.exempt is not None and self.exempt(line):
            return now
        target = irc_lower(line.target)
        until = self._held.get(target, 0.0)
        if target not in self._known:
            until = max(until, self._block_until)
            first = self._first_due(now)
            if first is not None and first != target and until <= now:
                until = now + _TRICKLE_GAP  # the one refused first goes first
        return max(now, until)

    def _first_due(self, now: float) -> str | None:
        """The target whose hold ended first, while it has not been sent to since (for a
        little while: a target whose lines are gone must not hold the others up)."""
        due = [(end, t) for t, end in self._held.items() if end <= now < end + _HOLD_MEMORY]
        return min(due)[1] if due else None

    def _take(self, queue: deque[_Waiting], now: float) -> _Waiting | None:
        """The first line of ``queue`` that may go now (lines held for their target wait)."""
        if not queue:
            return None
        if not (self._held or self._block_until > now):
            return queue.popleft()
        for i, waiting in enumerate(queue):
            if self._free_at(waiting.line, now) <= now:
                del queue[i]
                return waiting
        return None

    def _next(self, now: float) -> WireLine | None:
        if self._control:
            self._count -= 1
            return self._control.popleft()
        reply_turn = bool(self._replies) and (not self._games or self._served >= self.game_share)
        waiting = self._next_reply(now) if reply_turn else None
        if waiting is None:
            waiting = self._next_game(now)
        if waiting is None and not reply_turn:
            waiting = self._next_reply(now)  # every game line is held: a reply may go
        if waiting is None:
            return None
        if waiting.memo is not None and waiting.whole is not None:
            self._left[waiting.memo] = waiting.whole
            if len(self._left) > 10_000:  # forget the oldest (dicts keep order)
                del self._left[next(iter(self._left))]
        self._sent_private(waiting, now)
        return waiting.line

    def _next_game(self, now: float) -> _Waiting | None:
        """The next game line in turn: each flow gives one (the turn's hand first, then its
        other hands, then its channel line) and goes to the back of the round; a flow whose
        every line is held for now gives nothing this time. With more than ``hand_games``
        games on the connection the turn's hands go only from spare budget, else are dropped."""
        for _ in range(len(self._games)):
            name = self._games.popleft()
            flow = self._flows[name]
            waiting = None
            if flow.extras:
                if self.unlimited or self._spare(flow, now):
                    waiting = self._take(flow.extras, now)
                else:
                    self._drop_extras(flow)  # every game's own lines first
            waiting = waiting or self._take(flow.hands, now) or self._take(flow.lines, now)
            if flow.game():
                self._games.append(name)  # its next line waits for every other game's turn
            elif not flow:
                del self._flows[name]
            if waiting is not None:
                self._count -= 1
                self._served += 1
                self._game_sent[name] = now
                return waiting
        return None

    def games(self, now: float) -> int:
        """Games the connection carries: channels whose game lines left lately."""
        if len(self._game_sent) > 64:  # forget the quiet ones
            self._game_sent = {n: t for n, t in self._game_sent.items() if now - t < GAME_WINDOW}
        return sum(1 for t in self._game_sent.values() if now - t < GAME_WINDOW)

    def _spare(self, flow: _Flow, now: float) -> bool:
        """May ``flow``'s optional line (the turn's hand) go now? Always while the connection
        carries at most ``hand_games`` games (the hand costs its line; their pace follows the
        budget). With more, only from spare budget: no other game waits, the clock is at rest
        (nothing sent lately still being paid for) and it and the channel line after it can
        leave now with a line of the allowance still in reserve for another channel's move
        (else every game's next line would wait behind it: three games playing without pause
        waited 4 s for a 3.5 s bound when a turn hand went with the clock merely not full)."""
        if self.games(now) <= self.hand_games:
            return True
        if self._games or self.ahead(now) > 1e-9:
            return False
        cost = self.cost(flow.extras[0].line) + (self.cost(flow.lines[0].line) if flow.lines else 0)
        return cost <= self.model.allowance - self.model.per_line + 1e-9

    def _next_reply(self, now: float) -> _Waiting | None:
        """The next reply in turn: round robin over the channels, and within a channel over
        the people asking; replies that waited past ``reply_ttl`` are dropped."""
        for _ in range(len(self._replies)):
            name = self._replies.popleft()
            flow = self._flows[name]
            waiting = self._take_reply(flow, now)
            if flow.askers:
                self._replies.append(name)
            elif not flow:
                del self._flows[name]
            if waiting is not None:
                self._count -= 1
                self._served = 0
                return waiting
        return None

    def _take_reply(self, flow: _Flow, now: float) -> _Waiting | None:
        for _ in range(len(flow.askers)):
            person = flow.askers.popleft()
            queue = flow.replies[person]
            while queue and queue[0].expires < now:
                queue.popleft()
                self._count -= 1
                self.dropped += 1
            waiting = self._take(queue, now)
            if queue:
                flow.askers.append(person)
            else:
                del flow.replies[person]
            if waiting is not None:
                return waiting
        return None

    def due(self, now: float) -> list[WireLine]:
        """Take the lines that may be sent at ``now`` (control first, then the flows in turn)
        and charge them to the server's clock."""
        out: list[WireLine] = []
        if self._held:  # a hold that ended a while ago means nothing any more
            self._held = {t: end for t, end in self._held.items() if now < end + _HOLD_MEMORY}
        while self._count and self._allowed(now):
            line = self._next(now)
            if line is None:
                break
            out.append(line)
            self.charge(line, now)
        return out

    def next_time(self, now: float) -> float | None:
        """When the next line may go (``now`` if one may go at once); None if nothing waits."""
        if not self._count:
            return None
        when = now
        if not self.unlimited:
            when = max(now, now + self.ahead(now) - self.model.allowance)
            if self._burst_full(now):
                when = max(when, self._burst_at + BURST_WINDOW + 1e-3)
        if (self._held or self._block_until > now) and not self._control:
            free = min(
                (self._free_at(w.line, now) for f in self._flows.values() for q in f.queues()
                 for w in q),
                default=now,
            )  # fmt: skip
            when = max(when, free)
        return when

    # --- what the server said ----------------------------------------------------------------

    def _sent_private(self, waiting: _Waiting, now: float) -> None:
        """Remember a private line that left, in case the server refuses it."""
        line = waiting.line
        if not is_private(line) or (self.exempt is not None and self.exempt(line)):
            return
        target = irc_lower(line.target)
        if self._held.get(target, math.inf) <= now:
            del self._held[target]  # its wait is over and it went
        if target not in self._known and now - self._last_refusal < _TRICKLE_FOR:
            # A new target after refusals: the next waits to hear whether this one passed.
            self._block_until = max(self._block_until, now + _TRICKLE_GAP)
        log = self._sent.pop(target, None)
        if log is None:
            log = deque(maxlen=_SENT_LOG)
            if len(self._sent) >= _SENT_TARGETS:
                del self._sent[next(iter(self._sent))]
        log.append((now, waiting))
        self._sent[target] = log  # most recently used last
        self._known.pop(target, None)
        self._known[target] = None
        if len(self._known) > _KNOWN_TARGETS:
            del self._known[next(iter(self._known))]

    def refused(self, target: str, wait: float, now: float) -> tuple[WireLine, str, bool] | None:
        """The server refused a private line to ``target`` and says to wait ``wait`` seconds
        (ircu's 439): hold that target, and every target not recently accepted, until then,
        and queue the refused line again at the head of its queue (unless a newer text of
        its key waits already: that one goes instead). Returns the refused line, its kind
        (``hands``, ``lines``, ``replies``) and whether it was queued again; None when no
        line to ``target`` left lately."""
        self.refusals += 1
        self._last_refusal = now
        folded = irc_lower(target)
        until = now + max(wait, 1.0) + 1.0  # the server's clock counts whole seconds
        self._held[folded] = max(self._held.get(folded, 0.0), until)
        self._block_until = max(self._block_until, until)
        self._known.pop(folded, None)
        for key, end in list(self._held.items()):
            if end <= now:
                del self._held[key]
        log = self._sent.get(folded)
        while log:
            when, waiting = log.pop()  # the newest first: each refusal answers one line
            if now - when > _RESEND_WINDOW:
                log.clear()
                break
            return waiting.line, waiting.kind, self._requeue(waiting)
        return None

    def _requeue(self, waiting: _Waiting) -> bool:
        name, kind, person = waiting.flow, waiting.kind, waiting.person
        if kind == "extras":
            return False  # optional: the player asks with .cards if they need it
        flow = self._flows.get(name)
        if flow is not None and waiting.key:
            queue = self._queue(name, flow, kind, person, False)
            if any(w.key == waiting.key and w.batch > waiting.batch for w in queue):
                return False  # a newer text of its key waits: that one will say it
        if flow is None:
            flow = self._flows[name] = _Flow()
        queue = self._queue(name, flow, kind, person, True)
        if waiting.memo is not None:
            self._left.pop(waiting.memo, None)  # it never arrived: the same text is news
        queue.appendleft(waiting)
        self._count += 1
        self.requeued += 1
        return True

    def held(self, now: float) -> list[str]:
        """Targets the server makes the bot wait for now (for logs and tests)."""
        return sorted(t for t, end in self._held.items() if end > now)

    def renamed(self, old: str, new: str) -> int:
        """``old`` is now ``new``: lines queued to the old nick go to the new one (the server
        would refuse them, and a player's hand would be lost). Returns how many."""
        low = irc_lower(old)
        moved = 0
        for flow in self._flows.values():
            for queue in flow.queues():
                for waiting in queue:
                    line = waiting.line
                    if irc_lower(line.target) == low:
                        waiting.line = WireLine(
                            line.command, sanitize_target(new), line.text, line.via
                        )
                        moved += 1
        return moved
