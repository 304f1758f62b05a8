"""Every finished game becomes one GameRecord in the store: played through commands only, with
the figures checked against what the table and the channel showed."""

from __future__ import annotations

import logging
from datetime import UTC, datetime, timedelta
from random import Random

import pytest

from tests.core.fakes import Harness, channel_lines, notices, read_status
from tests.core.test_games import Driver
from unobot.core.bot import Bot, BotConfig
from unobot.core.table import Table, TableConfig
from unobot.engine import preset
from unobot.irc.casemap import irc_lower
from unobot.irc.transport import Kind
from unobot.stats import GameRecord, PlayerResult, StatsStore
from unobot.stats.memory import MemoryStatsStore
from unobot.stats.recorder import GameRecorder

EPOCH = datetime(2026, 11, 1, tzinfo=UTC)


class RecordingStore:
    """A real store (the in-memory one by default) that also keeps every GameRecord it was
    handed, in order, and can be made to fail, to check what the bot sends and survives."""

    def __init__(self, inner: StatsStore | None = None) -> None:
        self.inner: StatsStore = inner if inner is not None else MemoryStatsStore()
        self.games: list[GameRecord] = []
        self.fail = False

    def record_game(self, game: GameRecord) -> None:
        if self.fail:
            raise RuntimeError("database on fire")
        self.games.append(game)
        self.inner.record_game(game)

    def __getattr__(self, name: str) -> object:  # player, leaderboard, close
        return getattr(self.inner, name)


class StatsHarness(Harness):
    """The plugin tests' harness, with a stats store and a wall clock that follows the fake
    scheduler (``EPOCH`` + scheduler seconds)."""

    def __init__(
        self,
        seed: int = 1,
        config: BotConfig | None = None,
        store: RecordingStore | None = None,
    ) -> None:
        super().__init__(seed, config)
        self.store = store if store is not None else RecordingStore()
        self.bot = Bot(
            self.transport,
            self.clock,
            self.settings,
            config or BotConfig(network="testnet"),
            rng=Random(seed),
            store=self.store,  # type: ignore[arg-type]
            recorder=GameRecorder.following(self.store, "testnet", self.clock, self.wall),  # type: ignore[arg-type]
        )

    def wall(self) -> datetime:
        return EPOCH + timedelta(seconds=self.clock.now())

    @property
    def records(self) -> list[GameRecord]:
        return self.store.games


def table(h: Harness, channel: str = "#uno") -> Table:
    return h.bot.tables[irc_lower(channel)]


def by_nick(record: GameRecord) -> dict[str, PlayerResult]:
    return {r.nick: r for r in record.results}


def hand_points(t: Table, nick: str) -> int:
    return sum(c.points for c in t.hand_of(nick))


def test_a_complete_game_is_recorded_once_with_winner_points_and_places() -> None:
    h = StatsHarness(3)
    nicks = ["alice", "Bob", "carol"]
    d = Driver(h, nicks, seed=3)
    dealt_at = h.wall()
    h.clock.time += 42  # some thinking time before the first move
    left_before: dict[str, int] = {}
    while d.running:
        t = table(h)
        left_before = {n: hand_points(t, n) for n in nicks}
        d.step()
    (record,) = h.records
    assert record.network == "testnet" and record.channel == "#uno"
    assert record.preset == "irc-classic"
    assert len(record.game_id) == 32 and int(record.game_id, 16) >= 0
    assert record.started == dealt_at and record.ended == h.wall() > dealt_at
    results = by_nick(record)
    assert set(results) == set(nicks)
    (winner,) = [r for r in record.results if r.won]
    losers = [r for r in record.results if not r.won]
    assert winner.place == 1 and winner.points_left == 0
    # winner-collects: the winner's points are what the others were left holding
    assert winner.points_won == sum(r.points_left for r in losers) > 0
    assert all(r.points_won == 0 for r in losers)
    for r in losers:  # the last move was the winner's: the others' hands did not change
        assert r.points_left == left_before[r.nick]
    assert sorted(r.place for r in losers) == sorted(
        2 + sum(o.points_left < r.points_left for o in losers) for r in losers
    )
    assert all(r.finished and r.ident == irc_lower(r.nick) for r in record.results)
    assert f"{winner.nick} wins the hand and {winner.points_won} points" in " ".join(
        channel_lines(h.sent)
    )
    assert record.results == tuple(sorted(record.results, key=lambda r: r.place))


def test_a_player_who_leaves_is_recorded_as_not_finished_and_last() -> None:
    h = StatsHarness(5)
    d = Driver(h, ["alice", "bob", "carol"], seed=5)
    for _ in range(3):
        d.step()
    t = table(h)
    carol_points = hand_points(t, "carol")
    out = h.say("carol", ".leave")
    del d.agents["carol"]
    d.seen = read_status([" ".join(channel_lines(out))]) or d.seen
    d.drawn = d.drawn and d.seen is not None and irc_lower(d.seen.turn) != "carol"
    d.finish()
    (record,) = h.records
    carol = by_nick(record)["carol"]
    assert not carol.finished and not carol.won
    assert carol.place == 3 and carol.points_left == carol_points and carol.points_won == 0
    others = [r for r in record.results if r.nick != "carol"]
    assert all(r.finished for r in others) and sum(r.won for r in others) == 1
    (winner,) = [r for r in others if r.won]
    assert winner.points_won == sum(r.points_left for r in others)  # carol's cards don't count


def test_two_player_game_ends_when_one_is_gone_for_good() -> None:
    h = StatsHarness(4)
    h.start(["alice", "bob"])
    bob_points = hand_points(table(h), "bob")
    h.event(Kind.QUIT, "bob")
    h.advance(60)
    (record,) = h.records
    alice, bob = by_nick(record)["alice"], by_nick(record)["bob"]
    assert alice.won and alice.finished and alice.place == 1 and alice.points_won == bob_points
    assert not bob.won and not bob.finished and bob.place == 2 and bob.points_left == bob_points


def test_a_game_stopped_before_any_hand_ended_is_not_recorded() -> None:
    h = StatsHarness(2)
    d = Driver(h, ["alice", "bob"], seed=2)
    d.step()
    h.say("alice", ".unostop")
    assert not h.bot.tables and h.records == []
    h.say("alice", ".uno")
    h.say("alice", ".unostop")  # a lobby that never dealt
    assert h.records == []


def test_a_match_stopped_after_a_complete_hand_is_recorded_as_stopped_nobody_won() -> None:
    """Issue 37: a stopped game was recorded as won by whoever led. It is a game for everyone
    in it, with the totals so far and places by them, but marked stopped and won by nobody."""
    config = BotConfig(table=TableConfig(rules=preset("official")), network="n")
    h = StatsHarness(7, config)
    d = Driver(h, ["alice", "bob", "carol"], seed=7)
    t = table(h)
    while t.hand_number < 2:
        d.step()
    assert t.match is not None
    totals = dict(zip(t.names, t.match.totals, strict=True))
    in_hand = {n: hand_points(t, n) for n in t.names}
    h.say("alice", ".unostop")
    (record,) = h.records
    assert record.preset == "official" and record.stopped and not record.teams
    results = by_nick(record)

    def key(nick: str) -> tuple[int, int]:  # higher totals first, then fewer points in hand
        return (-totals[nick], in_hand[nick])

    for nick, result in results.items():
        assert result.points_won == totals[nick] and result.points_left == in_hand[nick]
        assert not result.won and result.finished
        assert result.place == 1 + sum(key(o) < key(nick) for o in totals)
    assert min(r.place for r in record.results) == 1
    stats = h.store.player("alice", min_games=1)
    assert stats is not None and (stats.games, stats.wins, stats.stopped_games) == (1, 0, 1)


def test_a_game_the_table_stops_for_want_of_people_is_recorded_as_stopped() -> None:
    """The last person leaves a match against computer players after a complete hand: the
    table stops itself, and the game is recorded as stopped too, won by nobody."""
    from tests.core.test_computers import FAST, HumanVsComputers, with_store

    h = Harness(4, BotConfig(table=TableConfig(rules=preset("official")), bots=FAST))
    store = with_store(h)
    game = HumanVsComputers(h, ["normal", "normal"], seed=4)
    t = table(h)
    for _ in range(3000):
        game.catch_up()
        if not game.running or t.hand_number >= 2:
            break
        game.step()
    assert game.running and t.hand_number >= 2, "no hand was completed"
    h.say("alice", ".leave")
    assert not h.bot.tables
    (stored,) = store._games.values()
    assert stored.stopped and not any(r.won for r in stored.results)
    assert sorted(r.place for r in stored.results)[0] == 1


def test_services_accounts_become_the_ident() -> None:
    h = StatsHarness(9)
    h.say("Alice", ".uno", account="AliceAcct")
    h.say("bob", ".join")
    h.say("carol", ".join")
    h.say("Alice", ".deal")
    h.say("bob", ".top", account="Bobby")  # logged in after joining: still counts
    h.event(Kind.QUIT, "carol")
    h.event(Kind.QUIT, "bob")
    h.advance(60)
    (record,) = h.records
    results = by_nick(record)
    assert results["Alice"].ident == "$a:aliceacct" and results["Alice"].account == "aliceacct"
    assert results["bob"].ident == "$a:bobby" and results["bob"].account == "bobby"
    assert results["carol"].ident == "carol" and results["carol"].account is None


def test_a_nick_change_keeps_the_ident_and_records_the_new_nick() -> None:
    h = StatsHarness(10)
    h.start(["alice", "bob"])
    h.event(Kind.NICK, "bob", new_nick="Robert")
    h.event(Kind.QUIT, "alice")
    h.advance(60)
    (record,) = h.records
    robert = by_nick(record)["Robert"]
    assert robert.ident == "bob" and robert.won


def test_a_failing_store_is_logged_and_the_bot_goes_on(caplog: pytest.LogCaptureFixture) -> None:
    h = StatsHarness(11)
    h.store.fail = True
    h.start(["alice", "bob"])
    with caplog.at_level(logging.ERROR):
        h.say("bob", ".leave")
    assert "could not record game" in caplog.text
    assert not h.bot.tables
    out = h.say("alice", ".uno")  # the next game opens as usual
    assert channel_lines(out) and not notices(out, "alice")


def test_without_a_store_nothing_is_recorded_and_stats_are_off() -> None:
    h = Harness(12)
    assert h.bot.store is None and h.bot.recorder is None
    h.start(["alice", "bob"])
    h.say("bob", ".leave")
    assert notices(h.say("alice", ".unostats"), "alice") == ["Stats are off on this bot."]
    assert notices(h.say("alice", ".unotop10"), "alice") == ["Stats are off on this bot."]


def test_games_in_several_channels_are_recorded_apart() -> None:
    h = StatsHarness(13)
    h.start(["alice", "bob"], "#One")
    h.start(["carol", "dave"], "#two")
    h.say("bob", ".leave", "#One")
    h.say("carol", ".leave", "#two")
    first, second = h.records
    assert first.channel == "#one" and {r.nick for r in first.results} == {"alice", "bob"}
    assert second.channel == "#two" and {r.nick for r in second.results} == {"carol", "dave"}
    assert first.game_id != second.game_id


def test_a_nick_taken_over_in_the_lobby_still_gives_every_player_an_ident_of_their_own() -> None:
    h = StatsHarness(14)
    h.say("bob", ".uno")
    h.event(Kind.NICK, "bob", new_nick="robert")  # robert's key stays "bob"
    h.say("bob", ".join")  # someone else, now called bob
    h.say("robert", ".deal")
    h.say("robert", ".leave")
    (record,) = h.records
    assert {(r.nick, r.ident) for r in record.results} == {("robert", "robert"), ("bob", "bob")}


def test_a_timed_own_points_match_is_recorded_lowest_first() -> None:
    rules = preset("knockout")
    assert rules.time_limit_minutes
    config = BotConfig(table=TableConfig(rules=rules, turn_timeout=10**6), network="n")
    h = StatsHarness(15, config)
    h.start(["alice", "bob", "carol"])
    t = table(h)
    in_hand = {n: hand_points(t, n) for n in t.names}
    h.advance(rules.time_limit_minutes * 60)
    (record,) = h.records
    assert record.preset == "knockout"
    results = by_nick(record)
    best = min(in_hand.values())
    for nick, r in results.items():
        assert r.points_won == r.points_left == in_hand[nick] and r.finished
        assert r.won == (in_hand[nick] == best)
        assert r.place == 1 + sum(v < in_hand[nick] for v in in_hand.values())


# --- seats without an ident of their own ------------------------------------------------------
# Each result is filed under an ident no other seat of the game has: the store refuses one ident
# twice, and a result under somebody else's ident would corrupt their stats. Before, a seat that
# lost its ident to a clash went by its current nick, which could be another seat's ident (the
# game was then recorded without one of them, with a warning), a held seat's "nick(gone)", or
# the nick of a stranger with no account.


def finish_by_quits(h: StatsHarness, *nicks: str) -> None:
    """``nicks`` quit; their seats' grace runs out (one at a time, as the game may end)."""
    for nick in nicks:
        h.event(Kind.QUIT, nick)
    for _ in range(len(nicks) + 1):
        h.advance(61)


def left_out(caplog: pytest.LogCaptureFixture) -> list[str]:
    """The recorder's INFO lines naming a seat left out of a record; and no warning at all."""
    recorder = [r for r in caplog.records if r.name == "unobot.stats.recorder"]
    assert not [r for r in recorder if r.levelno >= logging.WARNING], recorder
    return [r.getMessage() for r in recorder if "recorded without" in r.getMessage()]


@pytest.mark.parametrize("later", [False, True])
def test_one_account_on_two_seats_is_left_out_and_the_others_are_recorded(
    later: bool, caplog: pytest.LogCaptureFixture
) -> None:
    """bob and bobphone play with one services account (joined with it, or bobphone seen
    logged in to it after the deal): neither seat is recorded, not even under its nick
    (before: as "bob" and "bobphone", idents of whoever has those nicks), and carol is."""
    h = StatsHarness(3)
    h.say("carol", ".uno")
    h.say("bob", ".join", account="acct")
    h.say("bobphone", ".join", account=None if later else "acct")
    h.say("carol", ".deal")
    if later:
        h.say("bobphone", ".top", account="ACCT")
    with caplog.at_level(logging.INFO, "unobot.stats.recorder"):
        finish_by_quits(h, "bob", "bobphone")
    (record,) = h.records
    assert [(r.nick, r.ident, r.place, r.won) for r in record.results] == [
        ("carol", "carol", 1, True)
    ]
    said = left_out(caplog)
    assert len(said) == 2 and all("the services account acct holds 2 seats" in s for s in said)


def test_a_seat_taking_the_nick_of_a_seat_that_quit_gets_no_result_under_its_ident(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """The bug: alice quits mid-game, bobphone (one account with bob) takes the nick alice, so
    alice's held seat becomes alice(gone). bob's and bobphone's seats clashed on the account,
    and bobphone's fell back to its nick, alice: the ident of alice's seat. One of the two was
    dropped with "stats: alice has no ident of its own in #uno". Now alice's seat keeps her
    ident, and the account's two seats are left out."""
    h = StatsHarness(3)
    h.say("carol", ".uno")
    h.say("alice", ".join")
    h.say("bob", ".join", account="acct")
    h.say("bobphone", ".join", account="acct")
    h.say("carol", ".deal")
    h.event(Kind.QUIT, "alice")
    h.event(Kind.NICK, "bobphone", new_nick="alice")
    assert table(h).names == ("carol", "alice(gone)", "bob", "alice")
    with caplog.at_level(logging.INFO, "unobot.stats.recorder"):
        finish_by_quits(h, "alice", "bob")
    (record,) = h.records
    results = {r.ident: r for r in record.results}
    assert set(results) == {"carol", "alice"}
    assert results["carol"].won and results["alice"].nick == "alice(gone)"
    assert not results["alice"].finished and results["alice"].place == 4
    said = left_out(caplog)
    assert sorted(s.split(": ")[1] for s in said) == [
        f"game {record.game_id} in #uno recorded without alice",
        f"game {record.game_id} in #uno recorded without bob",
    ]


def test_a_nick_given_up_for_another_seats_nick_gets_no_result_under_that_ident(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """No accounts: bobby opens and becomes x (ident bobby); bob joins and becomes bobby;
    another bob joins. The second bob has the nick both bobs joined with, so keeps "bob"; the
    first could go by its nick now, bobby, but that is x's ident (before: one of x and that
    seat was dropped with a warning)."""
    h = StatsHarness(3)
    h.say("bobby", ".uno")
    h.event(Kind.NICK, "bobby", new_nick="x")
    h.say("bob", ".join")
    h.event(Kind.NICK, "bob", new_nick="bobby")
    h.say("bob", ".join")
    h.say("x", ".deal")
    assert table(h).names == ("x", "bobby", "bob")
    with caplog.at_level(logging.INFO, "unobot.stats.recorder"):
        finish_by_quits(h, "bobby", "bob")
    (record,) = h.records
    assert {(r.nick, r.ident) for r in record.results} == {("x", "bobby"), ("bob", "bob")}
    (said,) = left_out(caplog)
    assert said.endswith(
        "recorded without bobby: they joined as bob, which another seat has, "
        "and go by bobby, which another seat joined with"
    )


def test_a_held_seat_whose_nick_was_taken_is_not_recorded_as_nick_gone(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """bob becomes robert in the lobby, another bob joins; in the game that bob quits and
    robert takes the nick back, so the held seat is bob(gone). robert's seat holds the nick
    both joined with and is recorded as bob; the held seat was recorded as "bob(gone)", a
    player nobody is: it is left out."""
    h = StatsHarness(3)
    h.say("alice", ".uno")
    h.say("bob", ".join")
    h.event(Kind.NICK, "bob", new_nick="robert")
    h.say("bob", ".join")
    h.say("alice", ".deal")
    h.event(Kind.QUIT, "bob")
    h.event(Kind.NICK, "robert", new_nick="bob")
    assert table(h).names == ("alice", "bob", "bob(gone)")
    with caplog.at_level(logging.INFO, "unobot.stats.recorder"):
        finish_by_quits(h, "bob")
    (record,) = h.records
    assert {(r.nick, r.ident) for r in record.results} == {("alice", "alice"), ("bob", "bob")}
    (said,) = left_out(caplog)
    assert "recorded without bob(gone): they joined as bob" in said


def test_a_game_of_one_account_against_itself_is_not_recorded_and_says_so(
    caplog: pytest.LogCaptureFixture,
) -> None:
    h = StatsHarness(3)
    h.say("bob", ".uno", account="acct")
    h.say("bobphone", ".join", account="acct")
    h.say("bob", ".deal")
    with caplog.at_level(logging.INFO, "unobot.stats.recorder"):
        finish_by_quits(h, "bobphone")
    assert not h.records and "#uno" not in h.bot.tables
    assert len(left_out(caplog)) == 2
    assert "not recorded: no seat has an ident of its own" in caplog.text
