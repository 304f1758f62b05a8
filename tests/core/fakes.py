"""A transport that records what would be sent, a manual clock, and players who read it.

The players (:class:`Agent`) know only what a person on IRC would: the NOTICEs sent to them and
the channel's lines. They track their hand from the notices and their own plays, read the top
card and whose turn it is from the channel, and choose a legal-looking card from that.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field
from random import Random

from unobot.core.bot import Bot, BotConfig
from unobot.core.clock import ManualClock
from unobot.core.render_irc import strip_codes
from unobot.core.settings import MemorySettings
from unobot.engine.cards import Card, Color, Rank
from unobot.irc.transport import UNTAGGED, Incoming, Kind, Tag


@dataclass(frozen=True, slots=True)
class Sent:
    kind: str
    target: str
    text: str
    tag: Tag = field(default=UNTAGGED, compare=False)


class FakeTransport:
    nickname = "unobot"

    def __init__(self) -> None:
        self.sent: list[Sent] = []

    def privmsg(self, target: str, text: str, tag: Tag = UNTAGGED) -> None:
        self.sent.append(Sent("privmsg", target, text, tag))

    def notice(self, target: str, text: str, tag: Tag = UNTAGGED) -> None:
        self.sent.append(Sent("notice", target, text, tag))


class FakeScheduler(ManualClock):
    """A clock that moves only when a test says so, running timers that come due in order."""


class Harness:
    """A bot wired to fakes, with helpers to speak as users and read what was sent."""

    def __init__(self, seed: int = 1, config: BotConfig | None = None) -> None:
        self.transport = FakeTransport()
        self.clock = FakeScheduler()
        self.settings = MemorySettings()
        self.bot = Bot(self.transport, self.clock, self.settings, config, rng=Random(seed))
        self.mark = 0

    @property
    def sent(self) -> list[Sent]:
        return self.transport.sent

    def say(self, nick: str, text: str, channel: str = "#uno", **extra: object) -> list[Sent]:
        """``nick`` says ``text`` in ``channel``; returns what the bot sent in answer."""
        return self._feed(Incoming(Kind.MESSAGE, nick, channel, text, **extra))  # type: ignore[arg-type]

    def pm(self, nick: str, text: str) -> list[Sent]:
        return self._feed(Incoming(Kind.MESSAGE, nick, "unobot", text))

    def event(self, kind: Kind, nick: str, target: str = "", **extra: object) -> list[Sent]:
        return self._feed(Incoming(kind, nick, target, **extra))  # type: ignore[arg-type]

    def advance(self, seconds: float) -> list[Sent]:
        start = len(self.sent)
        self.clock.advance(seconds)
        return self.sent[start:]

    def _feed(self, incoming: Incoming) -> list[Sent]:
        start = len(self.sent)
        self.bot.handle(incoming)
        return self.sent[start:]

    def start(self, nicks: list[str], channel: str = "#uno") -> list[Sent]:
        """Open, join and deal; returns the lines of the deal."""
        self.say(nicks[0], ".uno", channel)
        for nick in nicks[1:]:
            self.say(nick, ".join", channel)
        return self.say(nicks[0], ".deal", channel)


def channel_lines(sent: list[Sent], channel: str = "#uno") -> list[str]:
    return [strip_codes(s.text) for s in sent if s.kind == "privmsg" and s.target == channel]


def notices(sent: list[Sent], nick: str) -> list[str]:
    return [strip_codes(s.text) for s in sent if s.kind == "notice" and s.target == nick]


# "Top: R5. bob's turn." / the deal's "First card BS: ann is skipped. bob's turn."
_STATUS = re.compile(
    r"(?:Top:|First card) (\S+?)(?: \((red|yellow|green|blue)\))?(?:: [^.]*)?\. "
    r"(\S+?)('s turn| picks| must)"
)
_HAND = re.compile(r"Your cards \((\d+)\): ?(.*)$")
_HINT = re.compile(r"(?:You must play|\| Play) ([RYGBW][0-9A-Z]*)")


@dataclass
class Agent:
    """One player who acts only on what the bot told them."""

    nick: str
    rng: Random
    hand: list[Card] = field(default_factory=list)
    _expect: int = 0
    follow_hints: bool = False
    """After drawing, play the card the bot's hint names ("You must play G5", "Play G5 or
    .pass (only the card you drew)") instead of any matching card. Off by default, so the
    random choices (and so the games) of tests written before hints stay the same."""
    call_uno: bool = False
    """Add ``uno`` to a play that leaves one card (rules with manual UNO calls)."""
    drawn_card: Card | None = None
    """The card the last hand notice's hint named, if any."""

    def read_notice(self, text: str) -> None:
        m = _HAND.search(text)
        if m:
            self._expect = int(m.group(1))
            self.hand = [Card.parse(t.strip("[]")) for t in m.group(2).split()]
            hint = _HINT.search(text)
            self.drawn_card = Card.parse(hint.group(1)) if hint else None
        elif len(self.hand) < self._expect and re.fullmatch(r"[RYGBWD0-9 \[\]]+", text):
            self.hand += [Card.parse(t.strip("[]")) for t in text.split()]

    def choose(self, top: Card, color: Color, drawn: bool) -> str:
        """The command to send: a playable card, else draw, else (after drawing) pass."""
        matching = [
            c
            for c in self.hand
            if c.color is color or (c.rank is top.rank and not top.is_wild) or c.is_wild
        ]
        if any(c.color is color for c in self.hand):
            matching = [c for c in matching if c.rank is not Rank.WILD_DRAW_FOUR]
        if drawn and self.follow_hints and self.drawn_card is not None:
            matching = [self.drawn_card]
        if not matching:
            return ".pass" if drawn else ".draw"
        card = self.rng.choice(matching)
        command = self._command(card)
        if self.call_uno and len(self.hand) == 2:
            command += " uno"
        return command

    def _command(self, card: Card) -> str:
        if card.is_wild:
            counts = Counter(c.color for c in self.hand if c.color is not None)
            pick = counts.most_common(1)[0][0] if counts else Color.BLUE
            return f".play {card.text.lower()} {pick.letter.lower()}"
        # vary the forms players type
        form = self.rng.randrange(3)
        letter = card.color.letter.lower() if card.color is not None else ""
        rank = card.text[1:].lower()
        return [f".p {letter} {rank}", f".play {card.text}", f".p {letter}{rank}"][form]

    def played(self, command: str) -> None:
        from unobot.engine.cards import parse_play

        text = command.split(" ", 1)[1]
        if text.lower().endswith(" uno"):
            text = text[:-4]
        card, _ = parse_play(text)
        self.hand.remove(card)
        self.drawn_card = None


@dataclass(frozen=True, slots=True)
class Seen:
    """What the channel last said about the game."""

    top: Card
    color: Color
    turn: str
    phase: str
    """``turn``, ``picks`` (choose the colour) or ``must`` (draw the pending cards)."""


def read_status(lines: list[str]) -> Seen | None:
    for line in reversed(lines):
        m = _STATUS.search(line)
        if m:
            top = Card.parse(m.group(1))
            color = Color[m.group(2).upper()] if m.group(2) else top.color
            if color is None:  # "First card W. ann picks the colour": none chosen yet
                color = Color.RED  # what "Top: W (red)" shows until it is chosen
            return Seen(top, color, m.group(3), m.group(4).strip(" '"))
    return None
