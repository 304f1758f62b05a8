"""The director on the bot's core with fakes: whole tournaments of computer entrants, the
clock moved by hand (no IRC server: tests/e2e/test_tournaments_e2e.py plays them on one)."""

from __future__ import annotations

from random import Random

from tests.plugins.fakes import FakeScheduler, FakeTransport, channel_lines
from unobot.core.bot import Bot, BotConfig
from unobot.core.computers import ComputerConfig
from unobot.core.settings import MemorySettings
from unobot.irc.transport import Incoming, Kind


class Joining(FakeTransport):
    """A transport that records JOINs and INVITEs (the test plays the server's answers)."""

    def __init__(self) -> None:
        super().__init__()
        self.joins: list[str] = []
        self.invites: list[tuple[str, str]] = []

    def join(self, channel: str, key: str = "") -> None:
        self.joins.append(channel)

    def invite(self, nick: str, channel: str) -> None:
        self.invites.append((nick, channel))


class Event:
    def __init__(self, seed: int = 3, scale: float = 0.01) -> None:
        self.transport = Joining()
        self.clock = FakeScheduler()
        config = BotConfig(tournament_scale=scale, bots=ComputerConfig(delay=0.2, budget_ms=5))
        self.bot = Bot(self.transport, self.clock, MemorySettings(), config, rng=Random(seed))
        self.joined = 0
        self.feed(Incoming(Kind.JOIN, "unobot", "#cup"))

    def feed(self, incoming: Incoming) -> None:
        self.bot.handle(incoming)
        self.answer_joins()

    def answer_joins(self) -> None:
        while self.joined < len(self.transport.joins):
            channel = self.transport.joins[self.joined]
            self.joined += 1
            self.bot.handle(Incoming(Kind.JOIN, "unobot", channel))

    def say(self, nick: str, text: str, channel: str = "#cup", op: bool = False) -> None:
        self.clock.advance(2.0)  # within the command budget (one command per 2 s)
        self.feed(Incoming(Kind.MESSAGE, nick, channel, text, is_op=op))

    def run(self, seconds: float, step: float = 1.0) -> None:
        for _ in range(int(seconds / step)):
            self.clock.advance(step)
            self.answer_joins()
            if self.over():
                return

    def lines(self, channel: str = "#cup") -> list[str]:
        return channel_lines(self.transport.sent, channel)

    def over(self) -> bool:
        return any("is over!" in line for line in self.lines())


def open_with_computers(event: Event, words: str, count: int) -> None:
    event.say("op", f".tournament new {words}", op=True)
    for _ in range(count):
        event.say("op", ".tournament addbot easy", op=True)


def test_an_ocuk_tournament_of_computers_runs_from_sign_up_to_the_final() -> None:
    event = Event()
    open_with_computers(event, "ocuk cup", 9)
    event.say("op", ".tournament start", op=True)
    event.run(3000)
    lines = event.lines()
    assert event.over(), lines[-5:]
    director = event.bot.director
    assert director is not None
    cup = director.find("cup")
    assert cup is not None and cup.status == "done"
    assert set(cup.games) >= {"t1", "t2", "t3", "final"}
    assert cup.standings()[0].place == 1
    assert sorted(event.transport.joins) == ["#cup-t1", "#cup-t2", "#cup-t3"]
    assert any(line.startswith("Final:") for line in lines)
