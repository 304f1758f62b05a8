"""The director on the bot's core with fakes: whole tournaments of computer entrants, the
clock moved by hand (no IRC server: tests/e2e/test_tournaments_e2e.py plays them on one)."""

from __future__ import annotations

from pathlib import Path
from random import Random

from tests.core.fakes import FakeScheduler, FakeTransport, channel_lines
from unobot.core.bot import Bot, BotConfig
from unobot.core.computers import ComputerConfig
from unobot.core.journal import Journal
from unobot.core.settings import MemorySettings
from unobot.irc.transport import Incoming, Kind
from unobot.tournament.director import Director
from unobot.tournament.state import Tournament
from unobot.tournament.store import MemoryTournamentLog


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


WALL = 1_800_000_000.0


class Event:
    """A bot with a tournament channel #cup; with ``folder`` its tables are journaled there
    and its tournaments kept in ``log``, the wall clock ``wall`` at the clock's ``start``."""

    def __init__(
        self,
        seed: int = 3,
        scale: float = 0.01,
        *,
        folder: Path | None = None,
        log: MemoryTournamentLog | None = None,
        start: float = 1000.0,
        wall: float = WALL,
    ) -> None:
        self.transport = Joining()
        self.clock = FakeScheduler(start)
        config = BotConfig(tournament_scale=scale, bots=ComputerConfig(delay=0.2, budget_ms=5))
        self.bot = Bot(self.transport, self.clock, MemorySettings(), config, rng=Random(seed))

        def now_wall() -> float:
            return wall + self.clock.time - start

        if folder is not None:
            self.bot.journal = Journal(folder, self.clock.now, wall=now_wall)
            self.bot.restore()
        self.bot.director = Director(self.bot, log, scale=scale, wall=now_wall)
        self.bot.director.load()
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


def knockout_with_ann(event: Event, options: str, computers: int) -> tuple[Tournament, str]:
    """``.tournament new knockout ko <options>``; ann signs up, then ``computers`` computer
    entrants; started. The tournament and the channel of ann's first game (not joined yet)."""
    event.say("op", f".tournament new knockout ko {options}", op=True)
    event.say("ann", ".tjoin")
    for _ in range(computers):
        event.say("op", ".tournament addbot easy", op=True)
    event.say("op", ".tournament start", op=True)
    ko = event.bot.director.find("ko")  # type: ignore[union-attr]
    assert ko is not None
    return ko, next(ko.channel_of(g) for g in ko.pending() if "ann" in g.players)


def play_out(
    event: Event, words: str, computers: int, seconds: float
) -> tuple[Tournament, list[str]]:
    """Open ``.tournament new <words>`` with ``computers`` computer entrants, start it and run
    ``seconds`` of the clock: the tournament, over, and the channel's lines."""
    open_with_computers(event, words, computers)
    event.say("op", ".tournament start", op=True)
    event.run(seconds)
    lines = event.lines()
    assert event.over(), lines[-5:]
    assert event.bot.director is not None
    found = event.bot.director.find(words.split()[1])
    assert found is not None and found.status == "done"
    return found, lines


def test_an_ocuk_tournament_of_computers_runs_from_sign_up_to_the_final() -> None:
    event = Event()
    cup, lines = play_out(event, "ocuk cup", 9, 3000)
    assert set(cup.games) >= {"t1", "t2", "t3", "final"}
    assert cup.standings()[0].place == 1
    assert sorted(event.transport.joins) == ["#cup-t1", "#cup-t2", "#cup-t3"]
    assert any(line.startswith("Final:") for line in lines)


def test_a_knockout_of_computers_plays_timed_games_to_a_champion() -> None:
    event = Event(scale=20 / 3600)  # 60-minute games as 20 s
    ko, lines = play_out(event, "knockout ko", 8, 600)
    finals = [line for line in lines if line.startswith("Final (")]
    assert len(finals) == 1, lines
    champion = ko.standings()[0]
    assert champion.place == 1 and f"{champion.name} wins" in finals[0]
    # Every round-one game was a timed match of about 20 s that counted its unfinished hand.
    table = channel_lines(event.transport.sent, "#cup-t1")
    assert sum("Time is up: the unfinished hand counts" in line for line in table) == 2


def test_a_rotation_moves_the_lowest_down_and_the_highest_up_each_round() -> None:
    event = Event(scale=1 / 60)  # a 60-minute round as 60 s, its 15-minute warning as 15 s
    bac, _ = play_out(event, "rotation bac rounds=2 round=60m warning=15m", 8, 400)
    rounds = [r for r in bac.results.values()]
    assert len(rounds) == 4  # two tables, two rounds
    totals: dict[str, int] = {}
    for result in rounds:
        for name, total in result.totals:
            totals[name] = totals.get(name, 0) + total
    standings = bac.standings()
    assert [s.score for s in standings] == sorted(totals.values())
    assert {s.name: s.score for s in standings} == totals
    # Round 2's tables are not round 1's: two players moved between the two tables.
    first = {g.key: set(g.players) for g in bac.games.values()}
    assert first["r1-t1"] != first["r2-t1"]


def test_a_tournament_goes_on_after_a_restart_with_its_results_and_tables(
    tmp_path: Path,
) -> None:
    log = MemoryTournamentLog()
    first = Event(folder=tmp_path, log=log)
    open_with_computers(first, "ocuk ko target=150", 9)
    first.say("op", ".tournament start", op=True)
    while not any(" over: " in line for line in first.lines()):
        first.clock.advance(1.0)
        first.answer_joins()
    ko = first.bot.director.find("ko")  # type: ignore[union-attr]
    assert ko is not None
    done_before = dict(ko.results)
    assert len(done_before) == 1  # one table is over, the two others still playing
    playing = next(t for t in first.bot.tables.values() if t.dealt)
    hands_before = (playing.channel, playing.hand_number, playing.names)
    died = first.clock.time  # the process dies here: nothing more is written
    stored = log.load("ko")
    assert stored is not None and [e.kind for e in stored.entries][-1] in ("standings", "seat")

    second = Event(folder=tmp_path, log=log, start=5.0, wall=WALL + died - 1000.0 + 30)
    ko2 = second.bot.director.find("ko")  # type: ignore[union-attr]
    assert ko2 is not None and ko2.status == "running"
    assert dict(ko2.results) == done_before
    restored = second.bot.tables.get(hands_before[0])
    assert restored is not None and (restored.hand_number, restored.names) == hands_before[1:]
    for channel in ("#cup-t1", "#cup-t2", "#cup-t3"):
        second.feed(Incoming(Kind.JOIN, "unobot", channel))
    second.run(900)
    assert second.over(), second.lines()[-5:]
    assert ko2.status == "done"
    for key, result in done_before.items():
        assert ko2.results[key] == result
    assert log.load("ko").status == "done"  # type: ignore[union-attr]


def notices_to(event: Event, nick: str) -> list[str]:
    return [s.text for s in event.transport.sent if s.kind == "notice" and s.target == nick]


def test_players_sign_up_and_only_admins_run_the_tournament() -> None:
    event = Event()
    event.say("ann", ".tournament new ocuk cup")
    assert "only a bot admin or a channel operator" in notices_to(event, "ann")[-1]
    event.say("op", ".tournament new ocuk cup grace=5m", op=True)
    assert "Tournament cup (ocuk) is open" in event.lines()[-1]
    event.say("op", ".tournament new ocuk cup2", op=True)
    assert "#cup already runs a tournament" in notices_to(event, "op")[-1]
    for nick in ("ann", "bob", "cat"):
        event.say(nick, ".tjoin")
    event.say("ann", ".tjoin")
    assert "ann is already signed up" in notices_to(event, "ann")[-1]
    event.say("cat", ".tleave")
    assert event.lines()[-1] == "cat has left cup."
    event.say("dan", ".tstatus")
    assert event.lines()[-1] == "cup (ocuk) sign-up: ann, bob."
    event.say("op", ".tournament new nonsense x", op=True)
    event.say("op", ".tournament start", op=True)
    assert "at least 3 players" in notices_to(event, "op")[-1]


def test_a_no_show_is_out_and_the_table_plays_without_them() -> None:
    event = Event(scale=0.01)  # the 5-minute grace is 3 s
    event.say("op", ".tournament new ocuk cup grace=5m target=60", op=True)
    for nick in ("ann", "bob"):
        event.say(nick, ".tjoin")
    event.say("op", ".tournament addbot easy", op=True)
    event.say("op", ".tournament addbot easy", op=True)
    event.say("op", ".tournament start", op=True)
    assert ("ann", "#cup-t1") in event.transport.invites
    cup = event.bot.director.find("cup")  # type: ignore[union-attr]
    assert cup is not None and len(cup.games["h1"].players) == 4  # the alternative ruleset
    event.feed(Incoming(Kind.JOIN, "ann", "#cup-t1"))
    table = event.bot.tables["#cup-t1"]
    assert not table.dealt  # bob is not there yet
    event.clock.advance(4.0)
    assert table.dealt and set(table.names) == {"ann", "EasyBot1", "EasyBot2"}
    assert any("bob did not come to #cup-t1 within 3s: out (no-show)" in x for x in event.lines())


def test_pause_correction_and_penalty_are_admin_commands_with_a_record() -> None:
    event = Event(scale=1 / 60)  # 60-minute games as 60 s
    ko, at = knockout_with_ann(event, "game=60m", 4)
    event.feed(Incoming(Kind.JOIN, "ann", at))
    table = event.bot.tables[at.lower()]
    assert table.dealt
    before = len(table.hand_of("ann"))
    event.say("op", ".tournament penalty ann", op=True)
    assert len(table.hand_of("ann")) == before + 2
    assert "ann draws 2: a penalty from the tournament director" in " ".join(
        channel_lines(event.transport.sent, at)[-1:]
    )
    event.say("ann", ".tournament pause")
    assert "only a bot admin" in notices_to(event, "ann")[-1]
    event.say("op", ".tournament pause", op=True)
    ends = table.dealt_at + table.time_limit
    event.clock.advance(100.0)  # longer than the whole game: its clock is stopped
    assert not table.finished
    event.say("op", ".tournament resume", op=True)
    assert table.dealt_at + table.time_limit >= ends + 100.0
    key = next(g.key for g in ko.pending() if "ann" in g.players)
    while key not in ko.results:
        event.clock.advance(1.0)
    event.say("op", f".tournament correct ann {key} -5 miscounted", op=True)
    assert f"Correction: ann -5 in {key} (miscounted)." in event.lines()
    event.say("op", ".tournament correct ann nope -5 x", op=True)
    assert "no game nope" in notices_to(event, "op")[-1]
    assert {"penalty", "pause", "resume", "correct"} <= {e.kind for e in ko.log}
    event.say("op", ".tournament cancel rain", op=True)
    assert "Tournament ko is cancelled (rain)." in event.lines()
    assert not any(t.config.tournament for t in event.bot.tables.values())


def test_tournament_tables_refuse_join_deal_and_a_players_stop() -> None:
    event = Event(scale=1 / 60)
    event.say("op", ".tournament new knockout ko grace=30m", op=True)
    event.say("ann", ".tjoin")
    event.say("op", ".tournament addbot easy", op=True)
    event.say("op", ".tournament start", op=True)
    event.say("zed", ".join", channel="#cup-t1")
    assert "this is a tournament table" in notices_to(event, "zed")[-1]
    event.say("ann", ".unostop", channel="#cup-t1")
    assert "stopped by a tournament admin" in notices_to(event, "ann")[-1]


def test_sign_up_closes_at_a_time_of_day_and_the_tournament_starts_by_itself() -> None:
    event = Event(scale=1.0)  # WALL is 2027-01-15 08:00 UTC
    event.say("op", ".tournament new ocuk cup signup=08:10", op=True)
    assert "sign-up closes in 9m58s" in event.lines()[-1]
    for _ in range(3):
        event.say("op", ".tournament addbot easy", op=True)
    cup = event.bot.director.find("cup")  # type: ignore[union-attr]
    assert cup is not None
    event.clock.advance(540.0)
    assert cup.status == "signup"
    event.clock.advance(60.0)
    assert cup.status == "running"  # three players: straight to the final
    assert "Final: " in " ".join(event.lines())
