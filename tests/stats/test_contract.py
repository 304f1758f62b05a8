"""The StatsStore contract, run against the in-memory store, SQLite and real PostgreSQL.

Each test states one promise of unobot.stats.model in figures small enough to check by hand;
the last ones compare the SQL stores with the in-memory reference on seeded random games.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from random import Random

import pytest

from tests.stats.conftest import NOW, StoreFactory
from unobot.irc.casemap import irc_lower
from unobot.stats import GameRecord, Period, PlayerResult, PlayerStats, Ranking
from unobot.stats.memory import MemoryStatsStore
from unobot.stats.model import ImportedScore

_ids = iter(range(1, 10**9))


def res(
    nick: str,
    won: bool = False,
    points: int = 0,
    *,
    place: int | None = None,
    left: int = 0,
    account: str | None = None,
    ident: str | None = None,
    is_bot: bool = False,
    finished: bool = True,
) -> PlayerResult:
    if ident is None:
        ident = f"$a:{account.lower()}" if account else irc_lower(nick)
    return PlayerResult(
        ident, nick, place or (1 if won else 2), won, points, left, finished, account, is_bot
    )


def game(
    *results: PlayerResult,
    channel: str = "#uno",
    ended: datetime = NOW - timedelta(hours=1),
    minutes: int = 10,
    network: str = "testnet",
    game_id: str | None = None,
) -> GameRecord:
    return GameRecord(
        game_id or f"g{next(_ids)}", network, channel, "official",
        ended - timedelta(minutes=minutes), ended, tuple(results),
    )  # fmt: skip


def play(store: object, n: int, *results: PlayerResult, **kw: object) -> None:
    for _ in range(n):
        store.record_game(game(*results, **kw))  # type: ignore[attr-defined, arg-type]


def test_figures_are_computed_from_the_recorded_games(make_store: StoreFactory) -> None:
    store = make_store()
    play(store, 3, res("Alice", True, 50), res("bob", left=50), minutes=10)
    play(store, 2, res("Alice", left=7), res("bob", True, 7), minutes=5)
    alice = store.player("alice", min_games=1)
    assert alice == PlayerStats("Alice", 5, 3, 150, 40 * 60, 1)
    assert alice.percent_wins == pytest.approx(60.0)
    assert alice.points_per_game == pytest.approx(30.0)
    assert store.player("BOB", min_games=1) == PlayerStats("bob", 5, 2, 14, 2400, 2)


def test_a_game_is_recorded_once_whatever_the_retries(make_store: StoreFactory) -> None:
    store = make_store()
    record = game(res("alice", True, 20), res("bob"), game_id="same")
    for _ in range(3):
        store.record_game(record)
    store.record_game(game(res("alice", True, 999), game_id="same"))
    assert store.player("alice", min_games=1) == PlayerStats("alice", 1, 1, 20, 600, 1)


def test_invalid_records_are_refused(make_store: StoreFactory) -> None:
    store = make_store()
    with pytest.raises(ValueError):
        store.record_game(game(res("alice", True), res("ALICE")))
    with pytest.raises(ValueError):
        store.record_game(game())
    assert store.player("alice") is None


def test_leaderboards_rank_by_percent_wins_and_points_per_game(
    make_store: StoreFactory,
) -> None:
    store = make_store()
    # carol: 6 games, 6 wins, 10 points each; dave: 6 games, 3 wins, 100 points each win.
    play(store, 3, res("carol", True, 10), res("dave", left=10))
    play(store, 3, res("carol", True, 10), res("erin", left=10))
    play(store, 3, res("dave", True, 100), res("erin", left=100))
    play(store, 1, res("fred", True, 500), res("erin"))  # fred: 1 game, below the minimum
    pw = store.leaderboard(Ranking.PERCENT_WINS, 10)
    assert [(s.nick, s.games, s.wins, s.rank) for s in pw] == [
        ("carol", 6, 6, 1),
        ("dave", 6, 3, 2),
        ("erin", 7, 0, 3),
    ]
    ppg = store.leaderboard(Ranking.POINTS_PER_GAME, 10)
    assert [(s.nick, s.points, s.rank) for s in ppg] == [
        ("dave", 300, 1),
        ("carol", 60, 2),
        ("erin", 0, 3),
    ]
    assert [s.nick for s in store.leaderboard(Ranking.POINTS_PER_GAME, 2)] == ["dave", "carol"]
    assert store.leaderboard(Ranking.POINTS_PER_GAME, 0) == []
    with_fred = store.leaderboard(Ranking.POINTS_PER_GAME, 10, min_games=1)
    assert [s.nick for s in with_fred] == ["fred", "dave", "carol", "erin"]


def test_a_players_line_carries_their_rank_or_none_below_the_minimum(
    make_store: StoreFactory,
) -> None:
    store = make_store()
    play(store, 5, res("alice", True, 10), res("bob"))
    play(store, 2, res("carol", True, 90), res("bob"))
    assert store.player("bob", Ranking.POINTS_PER_GAME).rank == 2
    assert store.player("alice", Ranking.POINTS_PER_GAME).rank == 1
    carol = store.player("carol", Ranking.POINTS_PER_GAME)
    assert carol == PlayerStats("carol", 2, 2, 180, 1200, None)
    assert store.player("carol", Ranking.POINTS_PER_GAME, min_games=2).rank == 1
    assert store.player("nobody") is None


def test_ties_go_to_more_games_then_to_whoever_was_recorded_first(
    make_store: StoreFactory,
) -> None:
    store = make_store()
    play(store, 5, res("zed", True, 10), res("x1"))
    play(store, 5, res("amy", True, 10), res("x2"))
    play(store, 6, res("bea", True, 10), res("x3"))
    board = store.leaderboard(Ranking.PERCENT_WINS, 3)
    assert [s.nick for s in board] == ["bea", "zed", "amy"]
    assert [store.player(n).rank for n in ("bea", "zed", "amy")] == [1, 2, 3]


def test_periods_are_the_calendar_week_and_month_in_utc(make_store: StoreFactory) -> None:
    store = make_store()
    monday = datetime(2026, 11, 16, 0, 0, 1)  # this week
    sunday = datetime(2026, 11, 15, 23, 59)  # last week, this month
    october = datetime(2026, 10, 31, 23, 0)  # last month
    play(store, 1, res("alice", True, 10), res("bob"), ended=monday)
    play(store, 2, res("alice", True, 20), res("bob"), ended=sunday)
    play(store, 4, res("alice", True, 40), res("bob"), ended=october)
    figures = {p: store.player("alice", period=p, min_games=1) for p in (Period.WEEK, Period.MONTH)}
    assert (figures[Period.WEEK].games, figures[Period.WEEK].points) == (1, 10)
    assert (figures[Period.MONTH].games, figures[Period.MONTH].points) == (3, 50)
    assert store.player("alice", min_games=1).games == 7
    week = store.leaderboard(Ranking.PERCENT_WINS, 5, Period.WEEK, min_games=1)
    assert [(s.nick, s.games) for s in week] == [("alice", 1), ("bob", 1)]
    later = make_store(clock=lambda: datetime(2026, 12, 1, 9, 0))  # a new month, a new week
    assert later.player("alice", period=Period.MONTH) is None
    assert later.leaderboard(Ranking.PERCENT_WINS, 5, Period.WEEK, min_games=1) == []


def test_channel_figures_fold_the_channel_name(make_store: StoreFactory) -> None:
    store = make_store()
    play(store, 2, res("alice", True, 10), res("bob"), channel="#Uno[1]")
    play(store, 3, res("bob", True, 30), res("alice"), channel="#other")
    here = store.player("alice", channel="#uno{1}", min_games=1)
    assert (here.games, here.wins, here.rank) == (2, 2, 1)
    assert store.player("alice", min_games=1).games == 5
    board = store.leaderboard(Ranking.PERCENT_WINS, 5, channel="#OTHER", min_games=1)
    assert [(s.nick, s.wins) for s in board] == [("bob", 3), ("alice", 0)]
    assert store.player("alice", channel="#nowhere") is None


def test_computer_players_are_left_out_of_rankings_unless_asked(
    make_store: StoreFactory,
) -> None:
    store = make_store()
    play(store, 5, res("UnoBot", True, 50, is_bot=True), res("alice", left=50))
    play(store, 5, res("alice", True, 10), res("bob"))
    board = store.leaderboard(Ranking.PERCENT_WINS, 5)
    assert [s.nick for s in board] == ["alice", "bob"]
    assert [s.rank for s in board] == [1, 2]
    with_bots = store.leaderboard(Ranking.PERCENT_WINS, 5, include_bots=True)
    assert [s.nick for s in with_bots] == ["UnoBot", "alice", "bob"]
    assert store.player("unobot") == PlayerStats("UnoBot", 5, 5, 250, 3000, None, is_bot=True)
    assert store.player("unobot", include_bots=True).rank == 1
    assert store.player("alice").rank == 1


def test_a_person_and_a_computer_player_of_one_name_stay_apart(
    make_store: StoreFactory,
) -> None:
    """A computer player named like a person (``.addbot hard alice``) is stored under its own
    ident (``$bot:alice``); asking by the name finds the person, by the ident the computer."""
    store = make_store()
    play(store, 2, res("alice", True, 10), res("bob"))
    later = NOW + timedelta(minutes=5)
    play(store, 3, res("alice", True, 50, ident="$bot:alice", is_bot=True), res("bob"), ended=later)
    person = store.player("Alice", min_games=1)
    assert (person.games, person.is_bot) == (2, False)
    computer = store.player("$bot:alice", min_games=1)
    assert (computer.games, computer.is_bot, computer.rank) == (3, True, None)


def test_players_are_found_by_account_current_nick_or_last_nick(
    make_store: StoreFactory,
) -> None:
    store = make_store()
    t = NOW - timedelta(days=2)
    play(store, 1, res("Alice", True, 10, account="AliceAcct"), res("bob"), ended=t)
    play(store, 1, res("Ally", True, 10, account="aliceacct"), res("bob"), ended=t.replace(hour=13))
    # Same account, new nick: one player, shown under the newest nick.
    assert store.player("$a:ALICEACCT", min_games=1).nick == "Ally"
    assert store.player("ally", min_games=1).games == 2
    assert store.player("alice", min_games=1) == store.player("Ally", min_games=1)
    # IRC case rules: [ ] \\ ~ are upper case of { } | ^.
    play(store, 1, res("Nick[a]", True, 5), res("bob"))
    assert store.player("nick{A}", min_games=1).nick == "Nick[a]"
    # Someone now using a nick that another player had earlier takes the lookup.
    play(store, 1, res("alice", True, 1, account="other"), res("bob"), ended=NOW)
    assert store.player("alice", min_games=1).nick == "alice"
    assert store.player("alice", min_games=1).games == 1
    assert store.player("ally", min_games=1).games == 2


def test_a_nick_change_mid_game_keeps_the_ident(make_store: StoreFactory) -> None:
    store = make_store()
    play(store, 1, res("bob", True, 10), res("carol"))
    play(store, 1, res("robert", True, 10, ident="bob"), res("carol"))
    assert store.player("robert", min_games=1) == store.player("bob", min_games=1)
    assert store.player("bob", min_games=1).nick == "robert"
    assert store.player("bob", min_games=1).games == 2


def test_networks_never_mix(make_store: StoreFactory) -> None:
    libera = make_store(network="libera")
    play(libera, 5, res("alice", True, 10), res("bob"), network="libera")
    oftc = make_store(network="oftc")
    play(oftc, 5, res("alice", left=3), res("bob", True, 3), network="oftc")
    assert libera.player("alice") == PlayerStats("alice", 5, 5, 50, 3000, 1)
    assert oftc.player("alice") == PlayerStats("alice", 5, 0, 0, 3000, 2)
    assert [s.nick for s in oftc.leaderboard(Ranking.PERCENT_WINS, 5)] == ["bob", "alice"]


def test_imported_scores_count_in_all_time_figures_only(make_store: StoreFactory) -> None:
    store = make_store()
    play(store, 1, res("alice", True, 10), res("Bob"))
    scores = [ImportedScore("Alice", 20, 10, 400, 3600), ImportedScore("Carol", 8, 1, 20, 600)]
    assert store.import_scores(scores, source="uno.scores", network="testnet") == 2
    alice = store.player("alice")
    assert alice == PlayerStats("alice", 21, 11, 410, 3600 + 600, 1)
    assert store.player("carol") == PlayerStats("Carol", 8, 1, 20, 600, 2)
    assert store.player("alice", period=Period.WEEK, min_games=1).games == 1
    assert store.player("carol", period=Period.WEEK) is None
    assert store.player("carol", channel="#uno") is None
    # Importing the same source again replaces it rather than adding it twice.
    store.import_scores(scores[:1], source="uno.scores", network="testnet")
    assert store.player("alice").games == 21
    assert store.player("carol") is None
    # Imported for a channel, they count in that channel too.
    store.import_scores([ImportedScore("dave", 5, 5, 50, 60)], "old", "testnet", "#Uno")
    assert store.player("dave", channel="#uno").rank == 1


def _random_games(rng: Random, count: int) -> list[GameRecord]:
    nicks = [f"p{i}" for i in range(12)] + ["Bot1"]
    games = []
    for n in range(count):
        seated = rng.sample(nicks, rng.randint(2, 5))
        winner = seated[0]
        stop = n % 9 == 4  # a stopped game: the leader first, but nobody won
        results = tuple(
            PlayerResult(
                irc_lower(nick), nick, 1 if nick == winner else 2, nick == winner and not stop,
                rng.randint(0, 60) if nick == winner else 0, rng.randint(0, 40),
                rng.random() > 0.1, None, nick == "Bot1",
            )
            for nick in seated
        )  # fmt: skip
        ended = NOW - timedelta(days=rng.uniform(0, 60))
        games.append(
            GameRecord(f"r{n}", "net", rng.choice(["#a", "#b"]), "official",
                       ended - timedelta(seconds=rng.randint(30, 900)), ended, results,
                       teams=rng.random() < 0.3, stopped=stop)
        )  # fmt: skip
    return games


def test_the_sql_stores_agree_with_the_reference_on_random_games(
    kind: str, make_store: StoreFactory
) -> None:
    if kind == "memory":
        pytest.skip("memory is the reference")
    rng = Random(4)
    store, ref = make_store(), MemoryStatsStore(clock=lambda: NOW)
    for record in _random_games(rng, 150):
        store.record_game(record)
        ref.record_game(record)
    assert store.summary_mismatches() == []
    for period in Period:
        for channel in (None, "#a", "#B"):
            for ranking in Ranking:
                for bots in (False, True):
                    args = (ranking, 20, period, channel, 3, bots)
                    assert store.leaderboard(*args) == ref.leaderboard(*args)
                    for limit in (4, 20):  # after the ranked ones, those with fewer games
                        wide = (ranking, limit, period, channel, 3, bots, True)
                        assert store.leaderboard(*wide) == ref.leaderboard(*wide)
                    for nick in ("p0", "P5", "bot1", "p11"):
                        a = (nick, ranking, period, channel, 3, bots)
                        assert store.player(*a) == ref.player(*a)
    # The derived summary is exactly what a rebuild from the rows gives.
    board = store.leaderboard(Ranking.POINTS_PER_GAME, 20, min_games=1)
    store.rebuild_summaries()
    assert store.summary_mismatches() == []
    assert store.leaderboard(Ranking.POINTS_PER_GAME, 20, min_games=1) == board


def test_games_survive_reopening_the_store(kind: str, make_store: StoreFactory) -> None:
    if kind == "memory":
        pytest.skip("nothing in memory survives")
    first = make_store()
    play(first, 5, res("alice", True, 10), res("bob"))
    first.close()
    again = make_store()
    assert again.player("alice") == PlayerStats("alice", 5, 5, 50, 3000, 1)


def test_upkeep_keeps_the_summary_exact_without_queries(make_store: StoreFactory) -> None:
    """The bot writes games without touching the summary and catches it up from a timer."""
    store = make_store()
    if not hasattr(store, "maintain"):
        pytest.skip("only the SQL stores keep a summary")
    store.catch_up_every = 0  # type: ignore[attr-defined]
    play(store, 7, res("alice", True, 30), res("bob", left=30))
    store.maintain()  # type: ignore[attr-defined]
    assert store.summary_mismatches() == []  # type: ignore[attr-defined]
    assert store.player("alice", min_games=1) == PlayerStats("alice", 7, 7, 210, 4200, 1)
