""".unostats and .unotop10 against a store with known games: every form, periods, ``here``,
the minimum number of games, the cap, where answers go, rate limits and bad input."""

from __future__ import annotations

import dataclasses
from datetime import UTC, datetime, timedelta

import pytest

from tests.core.fakes import Sent, channel_lines, notices
from tests.core.test_stats_recording import RecordingStore, StatsHarness
from unobot.core.bot import BotConfig
from unobot.stats import GameRecord, PlayerResult
from unobot.stats.memory import MemoryStatsStore
from unobot.stats.model import StatsUnavailable

NOW = datetime(2026, 11, 21, 12, tzinfo=UTC)
RULE = "A game counts once a hand of it is played out; a stopped game counts, won by nobody."
OLD = datetime(2026, 10, 1, tzinfo=UTC)  # more than a month ago
EARLIER = datetime(2026, 11, 5, tzinfo=UTC)  # this month, not this week
RECENT = datetime(2026, 11, 20, tzinfo=UTC)  # this week


def result(nick: str, won: bool, points: int = 0) -> PlayerResult:
    return PlayerResult(nick.lower(), nick, 1 if won else 2, won, points, 0)


def make_game(n: int, results: list[PlayerResult], channel: str, ended: datetime) -> GameRecord:
    started = ended - timedelta(minutes=5)
    return GameRecord(f"g{n}", "testnet", channel, "irc-classic", started, ended, tuple(results))


def new_store() -> RecordingStore:
    return RecordingStore(MemoryStatsStore("testnet", clock=lambda: NOW))


def filled_store() -> RecordingStore:
    """All time (min 5 games): by points per game carol 40.0, alice 20.0, bob 16.7, dave 8.0;
    by percent wins dave 80.0, alice 66.7, bob 33.3, carol 20.0; erin and frank 1 game each."""
    store = new_store()
    n = 0

    def game(ended: datetime, channel: str, *results: PlayerResult) -> None:
        nonlocal n
        n += 1
        store.record_game(make_game(n, list(results), channel, ended))

    for _ in range(4):
        game(OLD, "#uno", result("alice", True, 30), result("bob", False))
    for _ in range(2):
        game(RECENT, "#uno", result("bob", True, 50), result("alice", False))
    game(EARLIER, "#other", result("carol", True, 200), result("dave", False))
    for _ in range(4):
        game(EARLIER, "#other", result("dave", True, 10), result("carol", False))
    game(RECENT, "#uno", result("erin", True, 90), result("frank", False))
    return store


def harness(store: RecordingStore | None = None, **config: object) -> StatsHarness:
    cfg = BotConfig(network="testnet", **config)  # type: ignore[arg-type]
    return StatsHarness(1, cfg, store if store is not None else filled_store())


def ask(
    h: StatsHarness, nick: str, text: str, channel: str | None = "#uno", **extra: object
) -> tuple[list[str], list[str]]:
    """What the channel and ``nick`` got in answer; waits out the rate limits first."""
    h.advance(11)
    out: list[Sent] = h.pm(nick, text) if channel is None else h.say(nick, text, channel, **extra)
    return channel_lines(out, channel or "#uno"), notices(out, nick)


def test_own_line_and_another_players_line() -> None:
    h = harness()
    said, told = ask(h, "alice", ".unostats")
    assert said == [
        "alice: 6 games, 4 wins (66.7%), 120 points, 20.0 points/game, rank 2 by points per game"
    ]
    assert told == []
    said, _ = ask(h, "alice", ".unostats BOB")
    assert said == [
        "bob: 6 games, 2 wins (33.3%), 100 points, 16.7 points/game, rank 3 by points per game"
    ]
    said, _ = ask(h, "alice", ".unostats pw bob")
    assert said[0].endswith("rank 3 by percent wins")
    said, _ = ask(h, "alice", ".unostats ppg carol")
    assert said == [
        "carol: 5 games, 1 win (20.0%), 200 points, 40.0 points/game, rank 1 by points per game"
    ]
    said, _ = ask(h, "alice", ".unostats dave pw")
    assert said[0].endswith("rank 1 by percent wins")


def test_own_line_by_services_account() -> None:
    store = filled_store()
    store.record_game(make_game(99, [PlayerResult("$a:zed", "Zed", 1, True, 7, 0)], "#uno", RECENT))
    h = harness(store)
    said, _ = ask(h, "zed_away", ".unostats", account="zed")
    assert said == ["Zed: 1 game, 1 win (100.0%), 7 points, 7.0 points/game, "
                    f"provisional (fewer than 5 games). {RULE}"]  # fmt: skip


def test_ranked_lists() -> None:
    h = harness()
    said, _ = ask(h, "alice", ".unostats pw 3")
    assert said == [
        "Uno top 3 by percent wins (games): 1. dave 80.0% (5), 2. alice 66.7% (6), 3. bob 33.3% (6)"
    ]
    said, _ = ask(h, "alice", ".unostats ppg 2")
    assert said == ["Uno top 2 by points per game (games): 1. carol 40.0 (5), 2. alice 20.0 (6)"]
    top = "Uno top 10 by points per game (games): 1. carol 40.0 (5), 2. alice 20.0 (6), "
    top += "3. bob 16.7 (6), 4. dave 8.0 (5), "
    top += "provisional (fewer than 5 games): erin 90.0 (1), frank 0.0 (1)"
    assert ask(h, "alice", ".unotop10")[0] == [top]
    assert ask(h, "alice", ".unostats ppg")[0] == [top]  # a ranking alone: its top 10
    assert ask(h, "alice", ".UNOTOP10 all")[0] == [top]


def test_minimum_games_is_configurable() -> None:
    h = harness()
    said, _ = ask(h, "alice", ".unostats erin")
    assert said == [
        "erin: 1 game, 1 win (100.0%), 90 points, 90.0 points/game, "
        f"provisional (fewer than 5 games). {RULE}"
    ]
    top = ask(h, "alice", ".unotop10")[0][0]
    assert "provisional (fewer than 5 games): erin 90.0 (1)" in top and "1. erin" not in top
    h = harness(stats_min_games=1)
    said, _ = ask(h, "alice", ".unotop10")
    assert said[0].startswith("Uno top 10 by points per game (games): 1. erin 90.0 (1), ")
    assert "6. frank 0.0 (1)" in said[0] and "provisional" not in said[0]


def test_periods_and_here() -> None:
    h = harness()
    said, _ = ask(h, "alice", ".unotop10 week")  # nobody has 5 games this week: all listed
    assert said == [
        "Uno top 10 by points per game (games) this week: provisional (fewer than 5 games): "
        "erin 90.0 (1), bob 50.0 (2), alice 0.0 (2), frank 0.0 (1)"
    ]
    _, told = ask(h, "alice", ".unotop10 week here", "#other")
    assert told == [f"Nobody has played Uno yet this week in #other. {RULE}"]
    h = harness(stats_min_games=2)
    said, _ = ask(h, "alice", ".unotop10 week")
    assert said == [
        "Uno top 10 by points per game (games) this week: 1. bob 50.0 (2), 2. alice 0.0 (2), "
        "provisional (fewer than 2 games): erin 90.0 (1), frank 0.0 (1)"
    ]
    said, _ = ask(h, "alice", ".unostats week alice")
    assert said == [
        "alice (this week): 2 games, 0 wins (0.0%), 0 points, 0.0 points/game, "
        "rank 2 by points per game"
    ]
    said, _ = ask(h, "alice", ".unostats pw 10 month here", "#other")
    assert said == [
        "Uno top 10 by percent wins (games) this month in #other: 1. dave 80.0% (5), "
        "2. carol 20.0% (5)"
    ]
    said, _ = ask(h, "alice", ".unotop10 month")
    assert [e.split(" (")[0] for e in said[0].split(": ", 1)[1].split(", ")] == [
        "1. bob 50.0",
        "2. carol 40.0",
        "3. dave 8.0",
        "4. alice 0.0",
        "provisional",
        "frank 0.0",
    ]
    assert "provisional (fewer than 2 games): erin 90.0 (1), frank 0.0 (1)" in said[0]
    said, _ = ask(h, "alice", ".unotop10 here", "#Other")  # channel names fold
    assert "1. carol 40.0 (5), 2. dave 8.0 (5)" in said[0]
    _, told = ask(h, "alice", ".unostats carol here")  # carol never played in #uno
    assert told == ["No Uno games recorded for carol in #uno."]


def test_long_lists_are_capped_compact_and_private() -> None:
    store = new_store()
    for n in range(30 * 5):
        nick = f"player_with_a_long_nick{n % 30:02d}"
        store.record_game(make_game(n, [result(nick, n % 2 == 0, n)], "#uno", RECENT))
    h = harness(store)
    said, told = ask(h, "alice", ".unostats ppg 99999")
    assert said == []
    assert told[0].startswith("Uno top 25 by points per game (games): 1. ")
    entries = ", ".join(told).split(": ", 1)[1].split(", ")
    assert [e.split(".")[0] for e in entries] == [str(i) for i in range(1, 26)]
    assert 3 <= len(told) <= 4
    assert all(len(line.encode()) <= 400 for line in told)
    h = harness(store, stats_max_list=5)
    said, told = ask(h, "alice", ".unostats pw 6")
    assert said[0].startswith("Uno top 5 by percent wins") and said[0].count("%") == 5


def test_answers_are_private_during_a_game_in_that_channel() -> None:
    h = harness()
    h.start(["alice", "bob"])
    said, told = ask(h, "carol", ".unotop10")
    assert said == [] and told[0].startswith("Uno top 10 by points per game")
    said, told = ask(h, "zoe", ".unostats")
    assert said == [] and told == [f"No Uno games recorded for you. {RULE}"]
    said, told = ask(h, "alice", ".unostats bob")
    assert said == [] and told[0].startswith("bob: 6 games")
    said, told = ask(h, "carol", ".unotop10", "#other")  # no game there
    assert said[0].startswith("Uno top 10") and told == []
    said, told = ask(h, "carol", ".unotop10", None)  # asked privately: answered privately
    assert told[0].startswith("Uno top 10")
    assert all(s.kind == "notice" for s in h.sent[-1:])


def test_rate_limits_per_user_and_per_channel() -> None:
    h = harness()
    ask(h, "alice", ".unotop10")
    out = h.say("alice", ".unotop10")
    assert channel_lines(out) == [] and notices(out, "alice") == [
        "One list at a time: try again in 10s."
    ]
    for _ in range(4):  # told once, then ignored (a 7th command would meet the dispatcher's budget)
        assert h.say("alice", ".unostats pw 3") == []
    out = h.say("bob", ".unostats pw 5")  # another user, same channel, same 10 s
    assert channel_lines(out) == []
    assert notices(out, "bob") == [
        "A list was just shown here (ask me privately, or wait): try again in 10s."
    ]
    assert notices(h.pm("bob", ".unotop10"), "bob")[0].startswith("Uno top 10")
    assert notices(h.pm("carol", ".unotop10"), "carol")[0].startswith("Uno top 10")
    assert channel_lines(h.say("dave", ".unotop10", "#other"), "#other")  # another channel
    h.advance(10)
    assert channel_lines(h.say("alice", ".unotop10"))
    # single lines: a shorter window of their own
    h.advance(10)
    assert channel_lines(h.say("bob", ".unostats"))
    assert notices(h.say("bob", ".unostats alice"), "bob") == ["Not so fast: try again in 3s."]
    assert h.say("bob", ".unostats alice") == []
    h.advance(3)
    assert channel_lines(h.say("bob", ".unostats alice"))


@pytest.mark.parametrize(
    ("text", "answer"),
    [
        (".unostats pw x", "No Uno games recorded for x."),
        (".unostats nosuchnick", "No Uno games recorded for nosuchnick."),
        (".unostats pw 0", "a list has 1 to 25 players"),
        (".unostats -3", "'-3' is not a nick, number, pw/ppg/rating, week/month/all or here"),
        (
            ".unostats bob carol",
            "'carol' is not a nick, number, pw/ppg/rating, week/month/all or here",
        ),
        (".unostats #uno", "'#uno' is not a nick, number, pw/ppg/rating, week/month/all or here"),
        (".unostats a*", "'a*' is not a nick, number, pw/ppg/rating, week/month/all or here"),
        (
            ".unostats \x03" + "4red",
            "'?4red' is not a nick, number, pw/ppg/rating, week/month/all or here",
        ),
        (".unotop10 bob", ".unotop10 takes only rating, week, month, all or here"),
        (".unotop10 20", ".unotop10 takes only rating, week, month, all or here"),
    ],
)
def test_bad_input_gets_a_short_private_answer(text: str, answer: str) -> None:
    h = harness()
    said, told = ask(h, "alice", text)
    assert said == [] and told == [answer]


def test_here_needs_a_channel_and_a_broken_store_is_reported() -> None:
    h = harness()
    _, told = ask(h, "alice", ".unostats pw 5 here", None)
    assert told == ["'here' works in a channel only"]

    class Broken(MemoryStatsStore):
        def leaderboard(self, *args: object, **kwargs: object) -> list:  # type: ignore[override]
            raise StatsUnavailable("database gone")

    h = harness(RecordingStore(Broken()))
    _, told = ask(h, "alice", ".unotop10")
    assert told == ["Stats are unavailable right now."]


def test_lines_and_lists_say_how_many_games_were_team_games() -> None:
    """Team games count for each partner (a win is a win); the lines say how many there were,
    in the period and channel asked about, and only when there were some."""
    store = new_store()
    n = 0

    def game(ended: datetime, channel: str, teams: bool, *results: PlayerResult) -> None:
        nonlocal n
        n += 1
        record = make_game(n, list(results), channel, ended)
        store.record_game(dataclasses.replace(record, teams=teams))

    pair = (result("ann", True, 60), result("cat", True, 60), result("bob", False))
    for _ in range(3):
        game(OLD, "#uno", True, *pair, result("dan", False))
    game(RECENT, "#uno", True, *pair, result("dan", False))
    game(RECENT, "#other", False, result("ann", True, 10), result("bob", False))
    h = harness(store, stats_min_games=1)
    said, _ = ask(h, "ann", ".unostats")
    assert said == [
        "ann: 5 games (4 in teams), 5 wins (100.0%), 250 points, 50.0 points/game, "
        "rank 2 by points per game"
    ]
    said, _ = ask(h, "ann", ".unostats week cat")
    assert said == [
        "cat (this week): 1 game (1 in teams), 1 win (100.0%), 60 points, 60.0 points/game, "
        "rank 1 by points per game"
    ]
    said, _ = ask(h, "ann", ".unostats ann here", "#other")  # no team game in #other
    assert said == [
        "ann (in #other): 1 game, 1 win (100.0%), 10 points, 10.0 points/game, "
        "rank 1 by points per game"
    ]
    said, _ = ask(h, "ann", ".unostats pw 10")
    assert said == [
        "Uno top 10 by percent wins (games): 1. ann 100.0% (5, 4 in teams), "
        "2. cat 100.0% (4, 4 in teams), 3. bob 0.0% (5, 4 in teams), 4. dan 0.0% (4, 4 in teams)"
    ]
    said, _ = ask(h, "ann", ".unotop10 week here", "#other")
    assert said == ["Uno top 10 by points per game (games) this week in #other: "
                    "1. ann 10.0 (1), 2. bob 0.0 (1)"]  # fmt: skip


def test_team_counts_keep_long_lists_within_the_line_limit() -> None:
    store = new_store()
    for n in range(25 * 3):
        nicks = [f"a_rather_long_nick_for_teams{(n + k) % 25:02d}" for k in range(2)]
        record = make_game(n, [result(nicks[0], True, n), result(nicks[1], False)], "#uno", RECENT)
        store.record_game(dataclasses.replace(record, teams=True))
    h = harness(store)
    _, told = ask(h, "alice", ".unostats ppg 25")
    assert told[0].startswith("Uno top 25 by points per game (games): 1. ")
    assert sum(line.count(" in teams)") for line in told) == 25
    assert all(len(line.encode()) <= 400 for line in told)
