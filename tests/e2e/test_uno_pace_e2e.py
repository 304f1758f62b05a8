"""UNO at a person's speed over real IRC (issue 37 item 5), on the bot's embedded server and on
ngircd: a real client, typing at a person's pace against computer players, lays their
next-to-last card, calls ``.uno`` a second and a half later, and nobody catches them; one who
never calls is caught once the configured grace is over, not before; and ``.p wd4 y uno`` with
three cards plays the card and tells the player why no UNO was called."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from types import SimpleNamespace
from typing import Any

import pytest

from tests.core.fakes import strip_codes
from tests.e2e.client import Msg, TestClient
from tests.e2e.conftest import require, unique
from tests.e2e.servers import free_port, start_server
from tests.e2e.test_games import RunningBot
from unobot.core.computers import ComputerConfig
from unobot.core.table import TableConfig
from unobot.core.updates import HandNotice, Update
from unobot.engine import preset
from unobot.engine.cards import Card
from unobot.engine.game import Game
from unobot.irc import embedded_server

GRACE = 3.0
"""``[bots] uno_grace`` here: shorter than the default 4 s, longer than a person's 1.5 s."""
PACE = 1.5
"""How long the person takes to notice and type ``.uno`` after their card."""


@pytest.fixture(scope="module", params=["embedded", "ngircd"])
def server(request: pytest.FixtureRequest) -> Iterator[Any]:
    """The bot's own embedded server (what ``unobot`` with no arguments runs), or ngircd."""
    if request.param == "embedded":
        port = free_port()
        running = embedded_server.start("127.0.0.1", port)
        yield SimpleNamespace(kind="embedded", port=port)
        running.shutdown()
        running.server_close()
        return
    require("ngircd")
    srv = start_server("ngircd")
    yield srv
    srv.cleanup()


class Person:
    """A real client at the bot's table, against two computer players."""

    def __init__(self, server: Any, rules: str) -> None:
        self.bot = RunningBot(
            server,
            "#" + unique("pace"),
            TableConfig(rules=preset(rules), turn_timeout=300),
            7,
            bots=ComputerConfig(delay=0.3, uno_grace=GRACE),
        )
        self.client = TestClient(server.port, unique("amy"))
        self.client.join(self.bot.channel)
        self.nick = self.client.nick

    def say(self, text: str) -> int:
        """Send ``text`` to the channel; returns the mark for what answers it."""
        mark = len(self.client.snapshot())
        self.client.privmsg(self.bot.channel, text)
        return mark

    def channel(self, predicate: Callable[[str], bool], after: int, timeout: float = 10) -> Msg:
        return self.client.wait_for(
            lambda m: (
                m.nick == self.bot.nick
                and m.command == "PRIVMSG"
                and m.target == self.bot.channel
                and predicate(strip_codes(m.text))
            ),
            timeout=timeout,
            after=after,
            what="a channel line",
        )

    def channel_since(self, mark: int) -> list[str]:
        return [
            strip_codes(m.text)
            for m in self.client.snapshot()[mark:]
            if m.nick == self.bot.nick and m.command == "PRIVMSG" and m.target == self.bot.channel
        ]

    def notices_since(self, mark: int) -> list[str]:
        return [
            strip_codes(m.text)
            for m in self.client.snapshot()[mark:]
            if m.nick == self.bot.nick and m.command == "NOTICE"
        ]

    def seat(self, hands: list[list[str]], top: str) -> None:
        """Open, seat two NormalBots, deal, then put the hand in a known position with the
        person to move; they get that hand by NOTICE, as after any change."""
        self.channel(lambda t: "opens" in t, self.say(".uno"))
        for _ in range(2):
            self.channel(lambda t: "NormalBot" in t, self.say(".addbot normal"))
        self.channel(lambda t: "turn" in t or "picks" in t, self.say(".deal"))
        time.sleep(0.5)  # let a computer's first move, if it has one, go by

        def rig() -> None:
            table = self.bot.table()
            assert table.match is not None and table.players[0].nick == self.nick
            table.match.game = Game.from_position(
                table.config.rules,
                [[Card.parse(c) for c in hand] for hand in hands],
                Card.parse(top),
                draw_pile=[Card.parse("Y9")] * 40,
            )
            hand = table.hand_of(self.nick)
            self.bot.bot.publish(table, Update(hands={self.nick: HandNotice(hand)}))

        mark = len(self.client.snapshot())
        self.bot.call(rig)
        self.client.wait_for(
            lambda m: m.command == "NOTICE" and f"Your cards ({len(hands[0])})" in m.text,
            after=mark,
            what="the rigged hand",
        )
        time.sleep(1.0)  # a person reads their hand

    def hand(self) -> tuple[Card, ...]:
        """The person's hand as the table holds it (read on the reactor thread)."""
        return self.bot.call(lambda: self.bot.table().hand_of(self.nick))

    def close(self) -> None:
        self.client.close()
        self.bot.bot.computers.close()
        self.bot.stop()


BOTS_CANT_PLAY = [["R5", "B1"], ["G1", "G2", "G3"], ["G4", "G6", "G7"]]


def next_to_last_card_played(person: Callable[[str], Person]) -> tuple[Person, int, Msg]:
    """amy, seated where the computer players can't play (:data:`BOTS_CANT_PLAY`, R7 on
    top), lays R5, her next-to-last card, without calling UNO: amy, the mark before her
    ``.p r5`` and the channel's line saying she played it."""
    amy = person("official")
    amy.seat(BOTS_CANT_PLAY, "R7")
    mark = amy.say(".p r5")
    return amy, mark, amy.channel(lambda t: f"{amy.nick} plays R5" in t, mark)


@pytest.fixture
def person(server: Any) -> Iterator[Callable[[str], Person]]:
    made: list[Person] = []

    def make(rules: str = "official") -> Person:
        made.append(Person(server, rules))
        return made[-1]

    yield make
    for p in made:
        p.close()


def test_a_uno_called_a_second_and_a_half_late_is_accepted(
    person: Callable[[str], Person],
) -> None:
    amy, mark, played = next_to_last_card_played(person)
    assert "UNO" not in strip_codes(played.text).split("Top:")[0]
    time.sleep(PACE)  # the person notices and types
    call = amy.say(".uno")
    amy.channel(lambda t: f"{amy.nick} calls UNO" in t, call)
    # The computer players go on (NormalBot1 has nothing to play: it draws), nobody catches.
    amy.channel(lambda t: "NormalBot1 draws" in t, call, timeout=GRACE + 10)
    time.sleep(1.0)
    assert not any("catches" in t for t in amy.channel_since(mark)), amy.channel_since(mark)
    assert not [t for t in amy.notices_since(call) if "Your cards" not in t]  # no refusal
    assert len(amy.hand()) == 1


def test_a_person_who_never_calls_is_caught_after_the_grace(
    person: Callable[[str], Person],
) -> None:
    amy, mark, _line = next_to_last_card_played(person)
    played = time.monotonic()
    caught = amy.channel(lambda t: f"catches {amy.nick}" in t, mark, timeout=GRACE + 10)
    waited = time.monotonic() - played
    print(f"caught {waited:.2f} s after the card (grace {GRACE} s)")
    assert GRACE - 0.3 <= waited <= GRACE + 3, waited
    lines = amy.channel_since(mark)
    before = lines[: lines.index(strip_codes(caught.text))]
    moved = ("NormalBot1 draws", "NormalBot1 plays", "NormalBot2 ")
    assert not any(m in t for t in before for m in moved), before  # nobody moved in the grace
    assert len(amy.hand()) == 3


def test_an_early_uno_plays_the_card_and_says_why_not_uno(
    person: Callable[[str], Person],
) -> None:
    amy = person("official")
    amy.seat([["WD4", "G1", "B2"], ["R1", "R2", "R3"], ["R4", "R6", "R8"]], "R7")
    mark = amy.say(".p wd4 y uno")
    line = strip_codes(amy.channel(lambda t: f"{amy.nick} plays WD4" in t, mark).text)
    assert "2 cards left" in line and "UNO" not in line.split("Top:")[0], line
    note = amy.client.wait_for(
        lambda m: m.command == "NOTICE" and "UNO is not called" in m.text, after=mark
    )
    assert strip_codes(note.text) == (
        "Your card is played, but UNO is not called: you still hold 2 cards. Call it with your "
        "next-to-last card (.p <card> uno)."
    )
    assert note.target == amy.nick
    assert not any("more than one card" in t for t in amy.notices_since(mark))
