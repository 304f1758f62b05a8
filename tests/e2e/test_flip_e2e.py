"""A hand of UNO Flip over real IRC servers: two people on real client connections and a
computer seat play it to its end, by what the bot tells them (the channel's status line, their
own hand notices with the playable cards marked); the first move is a Flip card (the dealt hand
is replaced by an exact position), so the dark side comes up; ``.cards <nick>`` shows the
backs of a player's hand privately."""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from random import Random

import pytest

from tests.core.fakes import strip_codes
from tests.e2e.client import TestClient
from tests.e2e.conftest import module_server, on_reactor, unique
from tests.e2e.servers import IrcServer
from tests.e2e.test_games import GAME_SERVERS, RunningBot
from unobot.core.computers import ComputerConfig
from unobot.core.flip_table import FlipTable
from unobot.core.table import TableConfig
from unobot.engine import preset
from unobot.engine.flip import FLIP_DECK
from unobot.engine.notation import parse_flip_position
from unobot.irc.casemap import irc_lower

server = module_server(*GAME_SERVERS)

_STATUS = re.compile(
    r"Top: (?P<top>\S+?)(?: \(\w+\))?, (?P<side>light|dark) side up\. "
    r"(?P<nick>\S+?)(?P<phase>'s turn| must answer| picks the colour)"
)
_MARKED = re.compile(r"\[(\w+)\]")
_COUNT = re.compile(r"Your cards \((\d+)\)")
_HINT = re.compile(r"\| Play (\w+)")

HANDS = {
    0: "RF/P9 R3/O3 Y4/P7 B3/PF",
    1: "B7/O4 G2/T4 W/T7 G5/WDC",
    2: "G2/P5 R9/T7 Y8/W",
}
TOP = "R5/T3"


@pytest.fixture
def made() -> Iterator[tuple[list[RunningBot], list[TestClient]]]:
    out: tuple[list[RunningBot], list[TestClient]] = ([], [])
    yield out
    for c in out[1]:
        c.close()
    for b in out[0]:
        b.stop()


class Flip:
    """Two people at a Flip table with a computer seat, reading only what they were sent."""

    def __init__(self, bot: RunningBot, people: list[TestClient]) -> None:
        self.bot = bot
        self.people = {irc_lower(c.nick): c for c in people}
        self.first = people[0]
        self.mark = {irc_lower(c.nick): 0 for c in people}
        self.rng = Random(7)
        self.challenged = False

    def lines(self) -> list[str]:
        return [
            strip_codes(m.text)
            for m in self.first.snapshot()
            if m.nick == self.bot.nick and m.command == "PRIVMSG" and m.target == self.bot.channel
        ]

    def notices(self, client: TestClient, since: int = 0) -> list[str]:
        return [
            strip_codes(m.text)
            for m in client.snapshot()[since:]
            if m.nick == self.bot.nick and m.command == "NOTICE"
        ]

    def say(self, client: TestClient, text: str, timeout: float = 20.0) -> list[str]:
        """``text`` in the channel; wait for the channel's answer (a new line), a private
        refusal, or a draw's hint. Returns the notices it brought."""
        before = len(self.lines())
        seen = len(client.snapshot())
        client.privmsg(self.bot.channel, text)
        deadline = time.monotonic() + timeout
        while True:
            notes = self.notices(client, seen)
            if len(self.lines()) > before:
                time.sleep(0.1)  # the hand notices that follow the line
                return self.notices(client, seen)
            if any("Your cards (" not in n or _HINT.search(n) for n in notes):
                return notes
            assert time.monotonic() < deadline, f"no answer to {text!r}: {self.lines()[-2:]}"
            time.sleep(0.01)

    def wait_line(self, count: int, timeout: float = 20.0) -> None:
        deadline = time.monotonic() + timeout
        while len(self.lines()) <= count:
            assert time.monotonic() < deadline, f"nobody moved: {self.lines()[-2:]}"
            time.sleep(0.01)
        time.sleep(0.1)

    def turn_hand(self, client: TestClient, timeout: float = 10.0) -> str:
        """The hand the turn brought ``client`` (the playable cards marked ``[X]``). A turn
        that came back to them with their own move's answer (a Skip Everyone, a won
        challenge) brought it with that answer: the last one they were sent."""
        deadline = time.monotonic() + timeout
        since = time.monotonic()
        while True:
            notes = [n for n in self.notices(client, self.mark[irc_lower(client.nick)])]
            turns = [n for n in notes if n.startswith("Your turn | Your cards")]
            if turns:
                return turns[-1]
            if time.monotonic() > since + 1.0:
                earlier = [n for n in self.notices(client) if n.startswith("Your turn | Your")]
                if earlier:
                    return earlier[-1]
            assert time.monotonic() < deadline, f"no turn hand for {client.nick}: {notes}"
            time.sleep(0.01)

    def act(self, client: TestClient, text: str) -> list[str]:
        notes = self.say(client, text)
        self.mark[irc_lower(client.nick)] = len(client.snapshot())
        return notes

    def step(self) -> None:
        lines = self.lines()
        status = next((m for line in reversed(lines[-2:]) if (m := _STATUS.search(line))), None)
        assert status is not None, lines[-3:]
        mover = self.people.get(irc_lower(status["nick"]))
        if mover is None:  # the computer seat's turn
            self.wait_line(len(lines))
            return
        letter = "r" if status["side"] == "light" else "p"
        phase = status["phase"]
        if phase == " must answer":
            command = ".draw" if self.challenged else ".challenge"
            self.challenged = True
            refused = [n for n in self.act(mover, command) if "Your cards (" not in n]
            assert not refused, refused
            return
        if phase == " picks the colour":
            self.act(mover, f".color {letter}")
            return
        hand = self.turn_hand(mover)
        marked = _MARKED.findall(hand)
        if not marked:
            notes = self.act(mover, ".draw")
            hint = next((m for n in notes if (m := _HINT.search(n))), None)
            if hint is None:
                return  # nothing playable drawn: the turn moved on
            face = hint.group(1).lower()
            color = f" {letter}" if face.startswith("w") else ""
            self.act(mover, f".p {face}{color}")
            return
        plain = [c for c in marked if not c.startswith("W")]
        face = (plain or marked)[0].lower()
        color = f" {letter}" if face.startswith("w") else ""
        count = _COUNT.search(hand)
        uno = " uno" if count is not None and count.group(1) == "2" else ""  # the call with it
        refused = [n for n in self.act(mover, f".p {face}{color}{uno}") if "Your cards (" not in n]
        assert not refused, (face, refused, hand)


def rig(bot: RunningBot, hands: dict[int, str], top: str) -> list[str]:
    """Replace the dealt hand by ``hands`` (by seat, cards with their backs) on ``top``, the
    first seat to move; the rest of the deck is the draw pile. On the reactor thread."""
    table = bot.table()
    assert isinstance(table, FlipTable) and table.match is not None
    names = list(table.names)
    used = {t for h in hands.values() for t in h.split()} | {top}
    pile = [f"{c.light}/{c.dark}" for c in FLIP_DECK if f"{c.light}/{c.dark}" not in used]
    seats = " | ".join(f"{n}{'*' if i == 0 else ''}: {hands[i]}" for i, n in enumerate(names))
    position = f"top={top} | {seats} | pile={' '.join(pile[:40])}"
    flip_game, seated = parse_flip_position(position, Random(1))
    assert seated == names
    table.match.game = flip_game
    table._new_turn(bot.adapter.now())
    return names


def open_flip(
    server: IrcServer,
    made: tuple[list[RunningBot], list[TestClient]],
    name: str,
    seed: int,
    bots: ComputerConfig | None = None,
) -> tuple[Flip, TestClient, TestClient]:
    """A Flip table in a channel of its own with two people on real connections, in plain
    text (the playable cards marked ``[X]``): ann opened it with ``.uno``, bob joined."""
    bot = RunningBot(
        server, "#" + unique(name), TableConfig(rules=preset("flip")), seed=seed, bots=bots
    )
    made[0].append(bot)
    ann, bob = (TestClient(server.port, unique(name[:2])) for _ in range(2))
    made[1].extend([ann, bob])
    for c in (ann, bob):
        c.join(bot.channel)
    game = Flip(bot, [ann, bob])
    for c in (ann, bob):
        game.say(c, ".pce-off")
    game.say(ann, ".uno")
    game.say(bob, ".join")
    return game, ann, bob


def test_a_flip_hand_is_played_to_its_end_over_irc(
    server: IrcServer, made: tuple[list[RunningBot], list[TestClient]]
) -> None:
    game, ann, bob = open_flip(server, made, "flip", 4, ComputerConfig(delay=0.3))
    bot = game.bot
    game.say(ann, ".addbot normal")
    game.say(ann, ".deal")
    deal = " ".join(game.lines())
    assert "Uno (flip) [to 500 points]" in deal and "light side up" in deal

    names = on_reactor(bot.adapter, lambda: rig(bot, HANDS, TOP))
    assert names[:2] == [ann.nick, bob.nick] and names[2] == "NormalBot1"
    # ann's Flip card turns everything over: the dark side is up.
    notes = game.act(ann, ".p r f")
    flip_line = game.lines()[-1]
    assert "FLIP! Everything turns over: the dark side is up, top T3." in flip_line
    assert f"Top: T3, dark side up. {bob.nick}'s turn." in flip_line
    assert any(n == "Your cards (3): P7 PF O3" for n in notes), notes
    # .cards <nick>: the backs of ann's cards (the light side now), privately.
    count = len(game.lines())
    backs = game.say(bob, f".cards {ann.nick}")
    assert backs == [f"{ann.nick}'s cards facing the table, light side: R3 Y4 B3"]
    public = on_reactor(bot.adapter, lambda: bot.table().public_hand_of(ann.nick))  # type: ignore[union-attr]
    assert " ".join(f.text for f in sorted(public, key=lambda f: f.code)) == "R3 Y4 B3"
    computer = game.say(bob, ".cards NormalBot1")
    assert computer == ["NormalBot1's cards facing the table, light side: R9 Y8 G2"]
    assert game.say(bob, ".cards nobody") == ["no player of that name is in this hand"]
    assert len(game.lines()) == count  # nothing of it in the channel
    # bob plays a light card while the dark side is up: a short clear refusal.
    refusal = game.say(bob, ".p g 2")
    assert refusal == [
        "that is a light-side card or colour: the dark side is up (colours p, t, o, u)"
    ]
    for _ in range(400):
        if any("wins the hand" in line for line in game.lines()):
            break
        game.step()
    text = " ".join(game.lines())
    assert "wins the hand" in text, game.lines()[-3:]
    assert "NormalBot1 plays" in text or "NormalBot1 draws" in text
    end = next(line for line in game.lines() if "wins the hand" in line)
    assert "Totals:" in " ".join(game.lines()[game.lines().index(end) :])
    # Nobody's hand reached the channel; every notice went to its own player.
    for line in game.lines():
        assert "Your cards" not in line and "You drew" not in line
    for c in (ann, bob):
        for m in c.received("NOTICE", bot.nick):
            assert irc_lower(m.target) == irc_lower(c.nick)
    game.say(ann, ".unostop")


def test_a_hard_computer_seat_plays_a_flip_hand_over_irc(
    server: IrcServer, made: tuple[list[RunningBot], list[TestClient]]
) -> None:
    """``.addbot hard`` at a Flip table seats a real ``hard`` (no "plays as normal" notice any
    more): its moves are searched in the bot's worker process and the hand is played to its
    end with two people on real connections."""
    game, ann, _bob = open_flip(server, made, "fliphard", 6, ComputerConfig(delay=0.3, playouts=40))
    notes = game.say(ann, ".addbot hard")
    assert "HardBot1 (computer, hard) joins" in game.lines()[-1]
    assert not notes  # no notice: hard plays as hard at Flip too
    game.say(ann, ".deal")
    # A Wild Draw on a person is drawn (this helper follows a won challenge's turn badly).
    game.challenged = True
    for _ in range(600):
        if any("wins the hand" in line for line in game.lines()):
            break
        game.step()
    text = " ".join(game.lines())
    assert "wins the hand" in text, game.lines()[-3:]
    assert "HardBot1 plays" in text
    game.say(ann, ".unostop")


def test_uno_is_called_and_caught_at_flip_over_irc(
    server: IrcServer, made: tuple[list[RunningBot], list[TestClient]]
) -> None:
    """Two people on real connections, at a person's pace: ann plays her next-to-last card
    without calling UNO and bob catches her (she draws 2, told privately); then bob calls UNO
    with his own next-to-last card (``.p r 8 uno``) and ann can't catch him."""
    game, ann, bob = open_flip(server, made, "flipuno", 4)
    bot = game.bot
    game.say(ann, ".deal")
    hands = {0: "R5/T3 B2/U1", 1: "R8/T5 G9/U4"}
    names = on_reactor(bot.adapter, lambda: rig(bot, hands, "R3/O3"))
    assert names == [ann.nick, bob.nick]
    time.sleep(1.0)
    game.act(ann, ".p r 5")
    assert game.lines()[-1].startswith(f"{ann.nick} plays R5. Top: R5, light side up.")
    time.sleep(1.5)
    seen = len(ann.snapshot())
    assert not game.act(bob, f".catch {ann.nick}")
    line = game.lines()[-1]
    assert line.startswith(f"{bob.nick} catches {ann.nick} without UNO: {ann.nick} draws 2.")
    assert f"{bob.nick}'s turn" in line
    drew = [n for n in game.notices(ann, seen) if n.startswith("You drew ")]
    assert len(drew) == 1 and "| Your cards (3): " in drew[0], drew
    time.sleep(1.0)
    game.act(bob, ".p r 8 uno")
    line = game.lines()[-1]
    assert line.startswith(f"{bob.nick} plays R8 (UNO!). Top: R8, light side up."), line
    time.sleep(1.0)
    assert game.say(ann, f".catch {bob.nick}") == ["there is nobody to catch"]
    game.say(ann, ".unostop")
