"""Every finished game becomes one GameRecord in the store: played through commands only, with
the figures checked against what the table and the channel showed."""

from __future__ import annotations

import logging
from datetime import UTC, datetime, timedelta
from random import Random

import pytest

from tests.plugins.fakes import Harness, channel_lines, notices, read_status
from tests.plugins.test_games import Driver
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


def test_a_match_stopped_after_a_complete_hand_is_recorded_with_the_totals() -> None:
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
    assert record.preset == "official"
    results = by_nick(record)
    best = max(totals.values())
    winners = [n for n in totals if totals[n] == best]

    def key(nick: str) -> tuple[int, int]:  # higher totals first, then fewer points in hand
        return (-totals[nick], in_hand[nick])

    for nick, result in results.items():
        assert result.points_won == totals[nick] and result.points_left == in_hand[nick]
        assert result.won == (nick in winners) and result.finished
        ahead = sum(key(o) < key(nick) for o in totals if o not in winners)
        assert result.place == (1 if nick in winners else 1 + len(winners) + ahead)


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
