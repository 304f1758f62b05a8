"""Whole tournaments over a real IRC server (miniircd): real client connections for the people,
computer entrants filling the other seats, every clock shortened through the configuration
(``BotConfig.tournament_scale``), each format from sign-up to "is over!".

The people are :class:`AutoPlayer` clients: each watches the tournament channel for the seating
line that names it (``Table 1: a, b, c -> #cup-t1``), joins that channel, and plays whenever the
table's latest status line says it is its turn, knowing only its NOTICEs and the channel (the
``Agent`` of tests/core/fakes.py). The checks compare what the bot finally says (``is over!``
and the ``.tstatus`` standings) with the game results the clients saw announced on the way.

In-process bots (the adapter and the bot in a thread, as tests/e2e/test_games.py's RunningBot)
get a generous command throttle: every test client connects from 127.0.0.1, and the real
throttle gives one host one budget (ten commands, then one per 2 s), which the admin's sign-up
commands alone would use up. The restart test runs the real ``unobot`` process with its real
throttle and paces itself instead.
"""

from __future__ import annotations

import contextlib
import re
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from random import Random

import pytest

from tests.core.fakes import Agent, Seen, read_status, strip_codes
from tests.e2e.client import Msg, TestClient
from tests.e2e.conftest import bot_settings, module_server, unique
from tests.e2e.servers import IrcServer
from unobot.core.bot import Bot, BotConfig
from unobot.core.computers import ComputerConfig
from unobot.core.dispatch import CommandThrottle
from unobot.core.settings import MemorySettings
from unobot.core.table import TableConfig
from unobot.engine.cards import Card, Color
from unobot.irc.adapter import IrcAdapter
from unobot.irc.casemap import irc_lower

ROOT = Path(__file__).resolve().parents[2]

server = module_server("miniircd")

ADMIN = "boss"
"""Admin clients' nicks start with this; the bots take ``boss*!*@*`` as their admins."""

SCALE = 0.0045
"""Tournament durations x this: a 60-minute game or round lasts 16 s."""

_ARROW = re.compile(r"^(?P<stage>.+?): (?P<players>.+) -> (?P<channel>#\S+)$")
_OVER = re.compile(
    r"^(?P<stage>.+?) \((?P<channel>#\S+)\) over: (?P<totals>.*); (?P<winners>.+?) wins?\.$"
)
_LOADING = "tournaments are still being read from the database"
_IS_OVER = re.compile(r"Tournament (?P<name>\S+) is over! (?P<top>.*?)\. Full standings")
_TOP = re.compile(r"(\d+)\. (\S+) \((-?\d+)\)")
_STANDING = re.compile(r"^(\d+)\. (\S+) (-?\d+)(?: \((.*)\))?$")
_CONTINUED = re.compile(r"[RYGBWD0-9 ]+")
_END = ("wins the match", "Time is up", "not played", "This table is closed")


# --- the people -------------------------------------------------------------------------------


def last_status(lines: list[str]) -> Seen | None:
    """The status at the end of the table's last update (a long update splits it over two
    lines: ``... Top: RD2.`` / ``bob's turn.``)."""
    for k in (1, 2, 3):
        seen = read_status([" ".join(lines[-k:])])
        if seen is not None:
            return seen
    return read_status(lines)


class AutoPlayer:
    """A person in a tournament: a real client that goes where the tournament channel sends
    it (or an INVITE does) and plays by what the bot told it, in a thread of its own."""

    def __init__(self, srv: IrcServer, home: str, bot_nick: str, seed: int) -> None:
        self.client = TestClient(srv.port, unique("pl"))
        self.client.join(home)
        self.nick = self.client.nick
        self.home = home
        self.bot_nick = bot_nick
        self.agent = Agent(self.nick, Random(seed), follow_hints=True, call_uno=True)
        self.read = 0
        self.table: str | None = None
        self.lines: list[str] = []
        """The bot's lines at the current table since this player was sent there."""
        self.tables: list[str] = []
        """Every table channel the tournament channel sent this player to, in order."""
        self.acted_at = 0
        self.answer: str | None = None
        """What came back to the last command privately: "error", "must" (a drawn card to
        play), "pass" (a drawn card this player may keep); None: nothing yet."""
        self.command = ""
        self.sent_at = 0.0
        self.errors = 0
        self.moves = 0
        self.refused: list[str] = []
        self.failure: BaseException | None = None
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True, name=f"auto-{self.nick}")
        self._thread.start()

    def close(self) -> None:
        self._stop.set()
        self._thread.join(5)
        self.client.close()

    def _run(self) -> None:
        try:
            while not self._stop.is_set():
                lines = self.client.snapshot()
                new, self.read = lines[self.read :], len(lines)
                for m in new:
                    self._take(m)
                self._act()
                time.sleep(0.02)
        except BaseException as err:  # handed to the test
            self.failure = err

    # reading

    def _take(self, m: Msg) -> None:
        me = irc_lower(self.nick)
        if m.command == "INVITE" and len(m.params) > 1 and irc_lower(m.params[0]) == me:
            self.client.send(f"JOIN {m.params[1]}")
            return
        if m.nick != self.bot_nick:
            return
        text = strip_codes(m.text)
        target = irc_lower(m.target)
        if m.command == "PRIVMSG" and target == irc_lower(self.home):
            seated = _ARROW.match(text)
            if seated and me in {irc_lower(p) for p in seated["players"].split(", ")}:
                self._go(seated["channel"])
            elif self.table and f"({irc_lower(self.table)}) over:" in irc_lower(text):
                self.table = None
        elif m.command == "PRIVMSG" and self.table and target == irc_lower(self.table):
            self.lines.append(text)
            self.errors = 0
            command, self.command = self.command, ""
            said = irc_lower(text)
            # "ann plays G5", or after a draw "ann draws 3 cards and plays G5"
            if (
                command.startswith((".p ", ".play"))
                and said.startswith(f"{me} ")
                and (" plays " in said.split(",")[0] and "wins the" not in said)
            ):
                self._played(command)
        elif m.command == "NOTICE" and target == me:
            if "Your cards" in text or _CONTINUED.fullmatch(text):
                self.agent.read_notice(text.split(" | Cards:")[0])
                if self.command == ".cards" and "Your cards" in text:
                    self.answer = "cards"
                elif "You must play" in text:
                    self.answer = "must"
                elif "or .pass" in text:
                    self.answer = "pass"
            elif self.command and not text.startswith("Cards: "):  # (.cards' last line)
                self.refused.append(f"{self.command} -> {text}")
                self.answer = "error"

    def _played(self, command: str) -> None:
        with contextlib.suppress(ValueError):  # a newer notice already replaced the hand
            self.agent.played(command)

    def _go(self, channel: str) -> None:
        self.client.send(f"JOIN {channel}")
        self.table = channel
        self.tables.append(channel)
        self.lines = []
        self.acted_at = 0
        self.answer = None
        self.command = ""
        self.errors = 0
        self.agent.hand = []

    # playing

    def _act(self) -> None:
        if self.table is None or not self.lines:
            return
        if any(word in line for line in self.lines[-2:] for word in _END):
            return
        seen = last_status(self.lines)
        if seen is None or irc_lower(seen.turn) != irc_lower(self.nick):
            return
        now = time.monotonic()
        if len(self.lines) == self.acted_at and self.answer is None:
            if now - self.sent_at < 4.0:
                return  # the answer is on its way
            self.answer = "stale"
        if self.answer == "error":
            # Refused: read the hand again (.cards), then choose again; refused again: draw,
            # then pass; then wait for the table to move on (its turn timer at worst).
            self.errors += 1
            if self.errors > 3:
                self.answer, self.sent_at = None, now + 30
                return
            command = (".cards", ".draw", ".pass")[self.errors - 1]
        elif seen.phase == "picks":
            command = f".color {self._colour()}"
        elif seen.phase == "must":
            command = ".draw"
        elif self.answer == "must":
            command = self.agent.choose(seen.top, seen.color, True)
        elif self.answer == "pass":
            command = ".pass"
        else:
            command = self.agent.choose(seen.top, seen.color, False)
        self.client.privmsg(self.table, command)
        self.command = command
        self.acted_at = len(self.lines)
        self.answer = None
        self.sent_at = now
        self.moves += command != ".cards"

    def _colour(self) -> str:
        colours = [c.color for c in self.agent.hand if c.color is not None]
        best = max(Color, key=colours.count) if colours else Color.GREEN
        return best.letter.lower()


# --- the bot in a thread ------------------------------------------------------------------------


class TourneyBot:
    """The real adapter and bot on a real connection, its reactor in a thread (as
    test_games.RunningBot), with tournaments on a shortened clock and ``boss*`` as admins."""

    def __init__(self, srv: IrcServer, channel: str, seed: int, scale: float) -> None:
        self.channel = channel
        settings = bot_settings(srv, rate=0.0, channels={channel: ""})
        self.adapter = IrcAdapter(settings, lambda rec: self.bot.handle(rec))
        config = BotConfig(
            table=TableConfig(turn_timeout=15.0),
            admins=frozenset({f"{ADMIN}*!*@*"}),
            bots=ComputerConfig(delay=0.02, budget_ms=5, workers=0),
            tournament_scale=scale,
        )
        self.bot = Bot(self.adapter, self.adapter, MemorySettings(), config, rng=Random(seed))
        many = 100_000
        self.bot.dispatcher.throttle = CommandThrottle(
            many, 0.01, channel_burst=many, channel_interval=0.01,
            global_burst=many, global_interval=0.01,
        )  # fmt: skip
        self.nick = settings.nick
        self.thread = threading.Thread(target=self.adapter.run, daemon=True, name="bot")
        self.thread.start()
        deadline = time.monotonic() + 10
        while channel not in self.adapter.joined:
            assert time.monotonic() < deadline, "bot did not join"
            time.sleep(0.02)

    def stop(self) -> None:
        self.adapter.stop("test over")
        self.thread.join(5)
        self.bot.computers.close()


# --- the tournament channel, as a client saw it ---------------------------------------------


@dataclass
class Over:
    stage: str
    channel: str
    totals: dict[str, int]
    winners: list[str]


def parse_over(line: str) -> Over | None:
    m = _OVER.match(line)
    if m is None:
        return None
    totals: dict[str, int] = {}
    for item in m["totals"].split(", "):
        if item:
            name, _, total = item.rpartition(" ")
            totals[name] = int(total)
    winners = [] if m["winners"] == "nobody" else m["winners"].split(", ")
    return Over(m["stage"], m["channel"], totals, winners)


@dataclass
class Scene:
    """A tournament channel, its admin (who also watches), the people and the bot."""

    server: IrcServer
    channel: str = ""
    bot_nick: str = ""
    admin: TestClient | None = None
    players: list[AutoPlayer] = field(default_factory=list)
    closers: list[Callable[[], None]] = field(default_factory=list)
    started: float = field(default_factory=time.monotonic)

    def lines(self) -> list[str]:
        assert self.admin is not None
        return [
            strip_codes(m.text)
            for m in self.admin.snapshot()
            if m.nick == self.bot_nick and m.command == "PRIVMSG" and m.target == self.channel
        ]

    def say(self, text: str, expect: str, who: TestClient | None = None, timeout=10.0) -> str:
        """``who`` (the admin) says ``text`` in the channel; the bot's line containing
        ``expect`` that answers it (the admin watches)."""
        assert self.admin is not None
        deadline = time.monotonic() + timeout
        while True:
            after = len(self.admin.snapshot())
            (who or self.admin).privmsg(self.channel, text)
            found = self.admin.wait_for(
                lambda m: (
                    m.nick == self.bot_nick
                    and (expect in strip_codes(m.text) or _LOADING in strip_codes(m.text))
                ),
                timeout=max(0.1, deadline - time.monotonic()),
                what=f"the answer to {text!r} ({expect!r})",
                after=after,
            )
            if _LOADING not in strip_codes(found.text):
                return strip_codes(found.text)
            # A bot just started reads its tournaments first (under load, a moment): as a
            # person would, say it again.
            time.sleep(0.3)

    def wait_over(self, name: str, timeout: float) -> str:
        """Until the channel says the tournament is over; fail early if a person's loop broke."""
        deadline = time.monotonic() + timeout
        while True:
            for p in self.players:
                assert p.failure is None, f"{p.nick}'s loop failed: {p.failure!r}"
            done = [t for t in self.lines() if _IS_OVER.search(t)]
            if done:
                return done[0]
            assert time.monotonic() < deadline, (
                f"{name} not over after {timeout:.0f} s; last lines: {self.lines()[-8:]}"
            )
            time.sleep(0.1)

    def finish(self, name: str, timeout: float) -> tuple[str, float]:
        """Until ``name`` is over, then every person must have played cleanly: the channel's
        over line and the seconds it took since the start."""
        over_line = self.wait_over(name, timeout)
        took = time.monotonic() - self.started
        self.check_people()
        return over_line, took

    def overs(self) -> list[Over]:
        return [o for line in self.lines() if (o := parse_over(line)) is not None]

    def seatings(self) -> list[tuple[str, list[str], str]]:
        return [
            (m["stage"], m["players"].split(", "), m["channel"])
            for line in self.lines()
            if (m := _ARROW.match(line))
        ]

    def standings(self, name: str) -> list[tuple[int, str, int, str]]:
        """The full standings ``.tstatus <name>`` sends privately: (place, name, score, note)."""
        assert self.admin is not None
        after = len(self.admin.snapshot())
        self.admin.privmsg(self.channel, f".tstatus {name}")
        self.admin.wait_for(
            lambda m: m.command == "NOTICE" and m.nick == self.bot_nick and _STANDING.match(
                strip_codes(m.text).split("; ")[0]
            ) is not None,
            timeout=10,
            what=".tstatus standings",
            after=after,
        )  # fmt: skip
        time.sleep(0.5)  # the rest of the lines
        rows: list[tuple[int, str, int, str]] = []
        for m in self.admin.snapshot()[after:]:
            if m.command != "NOTICE" or m.nick != self.bot_nick:
                continue
            for item in strip_codes(m.text).split("; "):
                found = _STANDING.match(item)
                if found:
                    rows.append((int(found[1]), found[2], int(found[3]), found[4] or ""))
        return rows

    def notices(self) -> list[str]:
        """The bot's NOTICEs to the admin so far."""
        assert self.admin is not None
        return [
            strip_codes(m.text)
            for m in self.admin.snapshot()
            if m.nick == self.bot_nick and m.command == "NOTICE"
        ]

    def summary(self) -> str:
        return "; ".join(
            f"{p.nick} {p.moves} moves, {len(p.refused)} refused {p.refused[:4]}"
            for p in self.players
        )

    def check_people(self) -> None:
        """Every person went where they were sent and made moves; none was left out."""
        text = " ".join(self.lines())
        assert "no-show" not in text and "not played" not in text, self.lines()
        for p in self.players:
            assert p.failure is None, f"{p.nick}: {p.failure!r}"
            assert p.tables, f"{p.nick} was never sent to a table"
            assert p.moves > 0, f"{p.nick} never moved at {p.tables}"


@pytest.fixture
def scene(server: IrcServer) -> Iterator[Scene]:
    made = Scene(server)
    yield made
    for p in made.players:
        p.close()
    for close in reversed(made.closers):
        close()


def open_tournament(
    scene: Scene, fmt: str, options: str, people: int, computers: int, seed: int
) -> str:
    """A bot in a fresh channel, an admin, ``people`` AutoPlayers signed up with ``.tjoin``
    and ``computers`` easy computer entrants; the tournament started. Its name."""
    scene.channel = "#" + unique(fmt[:3])
    bot = TourneyBot(scene.server, scene.channel, seed, SCALE)
    scene.closers.append(bot.stop)
    scene.bot_nick = bot.nick
    admin = TestClient(scene.server.port, unique(ADMIN))
    scene.closers.append(admin.close)
    admin.join(scene.channel)
    scene.admin = admin
    name = unique(fmt[:3])
    scene.say(f".tournament new {fmt} {name} {options}", f"Tournament {name} ({fmt}) is open")
    for k in range(people):
        player = AutoPlayer(scene.server, scene.channel, bot.nick, seed=seed + k)
        scene.players.append(player)
        scene.say(".tjoin", f"{player.nick} is in {name}", who=player.client)
    if computers:  # one command for them all (one each ran into the command throttle)
        joined = scene.say(f".tournament addbot easy {computers}", "computer")
        entrants = f"({people + computers} entrant{'s' if people + computers != 1 else ''})"
        assert joined.endswith(f"in {name}: " + joined.split(": ", 1)[1]) and entrants in joined
        assert joined.startswith(
            f"{computers} computer players (easy) are in" if computers > 1 else "EasyBot1 ("
        ), joined
    scene.started = time.monotonic()
    admin.privmsg(scene.channel, ".tournament start")
    return name


# --- the formats -----------------------------------------------------------------------------


def test_ocuk_tables_then_the_final(scene: Scene) -> None:
    name = open_tournament(scene, "ocuk", "target=100 grace=30m", people=2, computers=7, seed=3)
    over_line, took = scene.finish(name, timeout=90)
    seatings = scene.seatings()
    tables = [s for s in seatings if s[0].startswith("Table ")]
    assert len(tables) == 3 and all(len(players) == 3 for _, players, _ in tables), seatings
    overs = scene.overs()
    table_overs = [o for o in overs if o.stage.startswith("Table ")]
    assert sorted(o.stage for o in table_overs) == ["Table 1", "Table 2", "Table 3"], overs
    for o in table_overs:
        assert o.winners and all(o.totals[w] >= 100 for w in o.winners), o
    winners = {w for o in table_overs for w in o.winners}
    # The finalists are exactly the table winners the channel announced.
    finals = [s for s in seatings if s[0] == "Final"]
    assert len(finals) == 1, seatings
    assert set(finals[0][1]) == winners, (finals, table_overs)
    final = next(o for o in overs if o.stage == "Final")
    assert set(final.totals) == winners
    # The champion is the final's winner (one hand, whoever went out: the lowest points).
    top = _TOP.findall(_IS_OVER.search(over_line)["top"])  # type: ignore[index]
    champion = top[0][1]
    assert top[0][0] == "1" and champion in final.winners, (over_line, final)
    assert f"Champion: {champion}!" in scene.lines()
    assert final.totals[champion] == min(final.totals.values())
    # Places: the finalists first, by their final points (play-offs only order equal points).
    rows = scene.standings(name)
    finalists = rows[: len(winners)]
    assert {r[1] for r in finalists} == winners, rows
    assert [r[2] for r in finalists] == [final.totals[r[1]] for r in finalists], (rows, final)
    assert [r[2] for r in finalists] == sorted(r[2] for r in finalists), rows
    assert finalists[0][3] == "champion" and finalists[0][1] == champion, rows
    assert len(rows) == 9 and {r[1] for r in rows} >= {p.nick for p in scene.players}
    print(f"ocuk: {took:.1f} s, {len(overs)} games; {scene.summary()}")


def test_knockout_bracket(scene: Scene) -> None:
    name = open_tournament(scene, "knockout", "game=60m grace=30m", people=2, computers=6, seed=5)
    over_line, took = scene.finish(name, timeout=120)
    overs = scene.overs()
    lines = scene.lines()
    # Each game's announced winner has the lowest total of its totals line.
    for o in overs:
        low = min(o.totals.values())
        assert o.winners and all(o.totals[w] == low for w in o.winners), o
        if len(o.winners) > 1:  # a tie: settled by sudden death
            assert any(s[0] == f"{o.stage} sudden death" for s in scene.seatings()), lines
    # Who goes through is the winner of their game (or of its sudden death).
    decided: dict[str, str] = {}
    for o in overs:
        if len(o.winners) == 1:
            decided[o.stage.split(" sudden death")[0]] = o.winners[0]
    round1 = sorted(s for s in decided if s.startswith("Round 1 game"))
    assert round1 == ["Round 1 game 1", "Round 1 game 2"], overs
    for stage in round1:
        assert f"{stage}: {decided[stage]} goes through." in lines, (stage, lines)
    finals = [s for s in scene.seatings() if s[0] == "Final"]
    assert len(finals) == 1 and set(finals[0][1]) == {decided[s] for s in round1}, finals
    champion = decided["Final"]
    assert f"{champion} is the knockout champion!" in lines
    top = _TOP.findall(_IS_OVER.search(over_line)["top"])  # type: ignore[index]
    assert top[0][:2] == ("1", champion), over_line
    rows = scene.standings(name)
    assert rows[0][1] == champion and rows[0][3] == "champion", rows
    assert len(rows) == 8
    assert {r[3] for r in rows if r[0] > 1 and r[1] in finals[0][1]} == {"finalist"}, rows
    # The score sheet names the final: its lines are not more hands of table 1.
    sheet = [line for line in scene.notices() if " > " in line]
    assert any(" > Final,G" in line for line in sheet), sheet
    assert all(re.fullmatch(r"\S+ > (T\d+|Final|(Final|Round 1 game \d+) sudden death"
                            r"( \d+)?),G\d+,(Won|\d+)( \(clock\))?", line)
               for line in sheet), sheet  # fmt: skip
    counted = check_counted_hands(scene, name, overs)
    assert counted, "no game's clock cut a hand short"
    print(f"knockout: {took:.1f} s, {len(overs)} games, {counted} clock-ended hands")


def test_rotation_totals(scene: Scene) -> None:
    name = open_tournament(
        scene, "rotation", "rounds=2 round=60m warning=15m grace=30m", people=2, computers=6,
        seed=7,
    )  # fmt: skip
    _, took = scene.finish(name, timeout=120)
    overs = scene.overs()
    rounds = sorted({o.stage.split(" table ")[0] for o in overs})
    assert rounds == ["Round 1", "Round 2"], overs
    assert len(overs) == 4, overs  # two tables of four, two rounds
    sums: dict[str, int] = {}
    played: dict[str, int] = {}
    for o in overs:
        for who, total in o.totals.items():
            sums[who] = sums.get(who, 0) + total
            played[who] = played.get(who, 0) + 1
    assert len(sums) == 8 and set(played.values()) == {2}, played
    rows = scene.standings(name)
    assert {r[1]: r[2] for r in rows} == sums, (rows, overs)
    assert [r[2] for r in rows] == sorted(sums.values()), rows
    for k, (place, _, score, _) in enumerate(rows):
        assert place == (rows[k - 1][0] if k and rows[k - 1][2] == score else k + 1), rows
    print(f"rotation: {took:.1f} s, {len(overs)} games")


_POINTS = re.compile(r"(\S+) (\d+) cards? \((\d+) pts\): ([RYGBWDS0-9 ]+?)(?=;|\.|$)")
_COUNTED = "Cards counted: "


def check_counted_hands(scene: Scene, name: str, overs: list[Over]) -> int:
    """Every game a person played, as their table channel showed it: the points listed hand by
    hand (``Left: ann 3 cards (26 pts): …`` for a finished hand, ``Counted from the unfinished
    hand: …`` for the one the clock cut short) add up to the totals the tournament channel
    announced, and each listed hand's points are its cards' points. Returns how many games
    ended with a counted unfinished hand."""
    counted = 0
    seen: set[str] = set()
    for person in scene.players:
        for channel in dict.fromkeys(person.tables):
            lines = at(person.client, scene.bot_nick, channel)
            starts = [k for k, line in enumerate(lines) if line.startswith(f"Tournament {name} - ")]
            for n, k in enumerate(starts):
                stage = lines[k].split(" - ", 1)[1].split(":")[0]
                if stage in seen:
                    continue
                seen.add(stage)
                end = starts[n + 1] if n + 1 < len(starts) else len(lines)
                text = " ".join(lines[k:end])
                over = next(o for o in overs if o.stage == stage)
                sums = dict.fromkeys(over.totals, 0)
                for who, cards, pts, shown in _POINTS.findall(text):
                    hand = [Card.parse(c) for c in shown.split()]
                    assert len(hand) == int(cards), (stage, who, shown)
                    assert sum(c.points for c in hand) == int(pts), (stage, who, shown)
                    sums[who] = sums.get(who, 0) + int(pts)
                assert sums == over.totals, (stage, text)
                if _COUNTED in text:
                    counted += 1
                    assert "Time is up: the unfinished hand counts. " + _COUNTED in text, text
    return counted


# --- a restart in the middle ------------------------------------------------------------------


def at(client: TestClient, nick: str, channel: str) -> list[str]:
    """The bot's lines in ``channel`` as ``client`` saw them."""
    return [
        strip_codes(m.text)
        for m in client.snapshot()
        if m.nick == nick and m.command == "PRIVMSG" and irc_lower(m.target) == irc_lower(channel)
    ]


class BotProcess:
    """The real ``unobot`` process on a config file in ``cwd`` (its stats.db and journal)."""

    def __init__(self, cwd: Path, config: Path, watcher: TestClient, nick: str) -> None:
        joins = self._joins(watcher, nick)
        self.proc = subprocess.Popen(
            [sys.executable, str(ROOT / "unobot.py"), "--config", str(config)],
            cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
        )  # fmt: skip
        deadline = time.monotonic() + 20
        while self._joins(watcher, nick) <= joins:
            assert self.proc.poll() is None, self.proc.stdout.read()  # type: ignore[union-attr]
            assert time.monotonic() < deadline, "the bot did not join"
            time.sleep(0.05)

    @staticmethod
    def _joins(watcher: TestClient, nick: str) -> int:
        return sum(1 for m in watcher.snapshot() if m.command == "JOIN" and m.nick == nick)

    def kill(self) -> str:
        self.proc.send_signal(signal.SIGKILL)
        out, _ = self.proc.communicate(timeout=10)
        return out

    def term(self) -> str:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
        out, _ = self.proc.communicate(timeout=15)
        return out


def test_knockout_goes_on_after_sigkill(scene: Scene, tmp_path: Path) -> None:
    """Six computers in a knockout; the bot killed during the final (both round-1 results
    announced), started again on the same database and journal: the final is played to its
    end and the standings keep round 1."""
    scale = 0.0033  # 60-minute games last 12 s
    scene.channel = "#" + unique("kor")
    nick = unique("unobot")
    config = tmp_path / "unobot.toml"
    config.write_text(
        f"""[irc]
nick = "{nick}"
send_rate = 0
[[irc.servers]]
host = "127.0.0.1"
port = {scene.server.port}
tls = false
[irc.channels]
"{scene.channel}" = ""
[bot]
admins = ["{ADMIN}*!*@*"]
tournament_time_scale = {scale}
turn_timeout = 15
[bots]
delay = 0.05
budget_ms = 5
workers = 0
""",
        encoding="utf-8",
    )
    admin = TestClient(scene.server.port, unique(ADMIN))
    scene.closers.append(admin.close)
    admin.join(scene.channel)
    scene.admin, scene.bot_nick = admin, nick
    procs: list[BotProcess] = []

    def stop() -> None:
        for proc in procs:
            if proc.proc.poll() is None:
                print("the bot's log:", proc.kill()[-6000:])  # shown on a failure

    scene.closers.append(stop)
    procs.append(BotProcess(tmp_path, config, admin, nick))
    name = unique("kor")
    # The real throttle: one host (every test client is 127.0.0.1) has ten commands at once.
    scene.say(f".tournament new knockout {name} game=60m grace=30m", "is open")
    for _ in range(6):
        scene.say(".tournament addbot easy", "(computer, easy) is in")
    started = time.monotonic()
    admin.privmsg(scene.channel, ".tournament start")
    deadline = time.monotonic() + 40
    while not any(s[0] == "Final" for s in scene.seatings()):
        assert time.monotonic() < deadline, scene.lines()[-6:]
        time.sleep(0.1)
    before = scene.overs()
    assert sorted(o.stage for o in before) == ["Round 1 game 1", "Round 1 game 2"], before
    table = next(s[2] for s in scene.seatings() if s[0] == "Final")
    admin.join(table)  # to watch the final
    time.sleep(scale * 3600 / 3)  # a third of the final
    assert read_status(at(admin, nick, table)) is not None, "the final is not being played"
    assert not any(_IS_OVER.search(t) for t in scene.lines())
    out = procs[-1].kill()
    assert "Traceback" not in out, out
    count = len(scene.lines())
    procs.append(BotProcess(tmp_path, config, admin, nick))
    over_line = scene.wait_over(name, timeout=60)
    took = time.monotonic() - started
    watched = at(admin, nick, table)
    # The journal restored the final's table: it went on, it was not played again.
    assert any(t.startswith("Restored after a restart") for t in watched), watched
    assert not any("played again" in t for t in watched + scene.lines()), watched
    after = scene.overs()
    finals = [o for o in after if o.stage == "Final"]
    assert len(finals) == 1, after  # announced once, after the restart
    assert after.index(finals[0]) >= len(before) and len(scene.lines()) > count
    decided = {o.stage: o.winners[0] for o in before if len(o.winners) == 1}
    final_players = next(s[1] for s in scene.seatings() if s[0] == "Final")
    assert set(final_players) == set(decided.values()), (final_players, before)
    champion = finals[0].winners[0]
    assert champion in final_players
    top = _TOP.findall(_IS_OVER.search(over_line)["top"])  # type: ignore[index]
    assert top[0][:2] == ("1", champion), over_line
    # The pre-restart results are kept: round 1's losers are out in round 1 with the totals
    # the channel announced before the kill.
    rows = {r[1]: r for r in scene.standings(name)}
    assert len(rows) == 6, rows
    for o in before:
        for who, total in o.totals.items():
            if who not in o.winners:
                assert rows[who][3] == "out in round 1" and rows[who][2] == total, (rows, o)
    out = procs[-1].term()
    assert "Traceback" not in out, out
    print(f"knockout with a restart: {took:.1f} s")
