"""Stats store benchmark: ``python -m unobot.bench stats [--players N --results N]``.

Fills a database with players and game results (bulk inserts in a few transactions, then the
derived summaries rebuilt from the rows, as a migration would), then times what the bot asks
of it: ``.unotop10`` (points-per-game leaderboard, 10), ``.unostats pw 25`` and one player's
line with rank, ``.unorecords`` (all time everywhere, a week in one channel; after the records
are rebuilt from the rows) (median and p99 each), and ``record_game`` for new games one
transaction each (the records' rows included).
Targets on SQLite (2-core machine): every query p99 under 50 ms, at least 2,000 games/s.
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from collections.abc import Callable
from datetime import datetime, timedelta
from pathlib import Path
from random import Random

from unobot.stats.model import GameRecord, Period, PlayerResult, Ranking
from unobot.stats.sql import SqlStatsStore

__all__ = ["add_arguments", "bench_stats", "fill"]

CHANNELS = ["#uno", "#uno-fr", "#cards", "#games", "#lobby"]
NOW = datetime(2026, 11, 20, 12, 0)


def fill(store: SqlStatsStore, players: int, results: int, seed: int) -> int:
    """Insert ``players`` players and games totalling ``results`` results (2-6 players a game,
    spread over the last 180 days); returns the number of games. Bypasses record_game on
    purpose: that is timed separately, and a million single-game transactions would only
    measure the same thing longer."""
    rng = Random(seed)
    db = store.db
    stamp = store._stamp
    sql = store._s
    cur = db.cursor()
    with db.atomic():
        long_ago = stamp(NOW - timedelta(days=400))
        cur.executemany(
            sql(
                "INSERT INTO player (id, network, ident, account, nick, nick_folded, is_bot, "
                "first_seen, last_seen) VALUES (?, 'bench', ?, NULL, ?, ?, ?, ?, ?)"
            ),
            (
                (i, f"p{i}", f"P{i}", f"p{i}", i % 1000 == 0, long_ago, long_ago)
                for i in range(1, players + 1)
            ),
        )
        cur.executemany(
            sql(
                "INSERT INTO player_nick (player_id, nick, nick_folded, last_seen) "
                "VALUES (?, ?, ?, ?)"
            ),
            ((i, f"P{i}", f"p{i}", long_ago) for i in range(1, players + 1)),
        )
    games: list[tuple[object, ...]] = []
    rows: list[tuple[object, ...]] = []
    written = gid = 0
    while written < results:
        gid += 1
        seated = rng.sample(range(1, players + 1), min(players, rng.randint(2, 6)))
        seconds = rng.randint(60, 1800)
        ended = NOW - timedelta(seconds=rng.randint(0, 180 * 86400))
        games.append(
            (gid, f"bench{gid}", "bench", rng.choice(CHANNELS), "official",
             stamp(ended - timedelta(seconds=seconds)), stamp(ended), seconds, seated[0])
        )  # fmt: skip
        for place, pid in enumerate(seated, 1):
            won = place == 1
            rows.append((gid, pid, place, won, rng.randint(20, 300) if won else 0,
                         0 if won else rng.randint(0, 120), True, pid % 1000 == 0))  # fmt: skip
        written += len(seated)
        if len(rows) >= 100_000 or written >= results:
            with db.atomic():
                cur.executemany(
                    sql(
                        "INSERT INTO game (id, game_id, network, channel, preset, started, "
                        "ended, seconds, winner_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)"
                    ),
                    games,
                )
                cur.executemany(
                    sql(
                        "INSERT INTO game_result (game_id, player_id, place, won, points_won, "
                        "points_left, finished, is_bot) VALUES (?, ?, ?, ?, ?, ?, ?, ?)"
                    ),
                    rows,
                )
            games, rows = [], []
    if not store.db.__class__.__name__.startswith("Sqlite"):
        cur.execute(sql("SELECT setval('player_id_seq', ?)"), (players,))
        cur.execute(sql("SELECT setval('game_id_seq', ?)"), (gid,))
    store.rebuild_summaries()
    return gid


def _timed(fn: Callable[[], object], runs: int) -> tuple[float, float]:
    """Median and p99 of ``runs`` calls, in milliseconds."""
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        fn()
        times.append((time.perf_counter() - start) * 1000)
    times.sort()
    return statistics.median(times), times[min(len(times) - 1, int(len(times) * 0.99))]


def bench_stats(args: argparse.Namespace) -> None:
    tmp = None
    url = args.database
    if url is None:
        tmp = tempfile.TemporaryDirectory(prefix="unobot-bench-")
        url = f"sqlite:///{Path(tmp.name) / 'bench.db'}"
    spool = Path(tmp.name if tmp else ".") / "bench.spool"
    store = SqlStatsStore(url, network="bench", clock=lambda: NOW, spool_path=spool)
    rng = Random(args.seed)
    start = time.perf_counter()
    games = fill(store, args.players, args.results, args.seed)
    elapsed = time.perf_counter() - start
    print(f"database: {url.split('@')[-1]}")
    print(
        f"filled: {args.players} players, {args.results} results in {games} games, "
        f"{elapsed:.1f} s ({args.results / elapsed:.0f} results/s, summaries rebuilt from rows)"
    )
    start = time.perf_counter()
    store.rebuild_records()
    print(f"records: rebuilt from the rows in {time.perf_counter() - start:.1f} s")
    runs = args.queries
    top10 = _timed(lambda: store.leaderboard(Ranking.POINTS_PER_GAME, 10), runs)
    pw25 = _timed(lambda: store.leaderboard(Ranking.PERCENT_WINS, 25), runs)
    nick = _timed(
        lambda: store.player(f"p{rng.randint(1, args.players)}", Ranking.PERCENT_WINS), runs
    )
    records_all = _timed(lambda: store.records(Period.ALL), runs)
    records_week = _timed(lambda: store.records(Period.WEEK, rng.choice(CHANNELS)), runs)
    for label, (median, p99) in (
        (".unotop10 (ppg, 10)", top10),
        (".unostats pw 25", pw25),
        (".unostats <nick> (with rank)", nick),
        (".unorecords everywhere (all time)", records_all),
        (".unorecords week (a channel)", records_week),
    ):
        print(f"{label}: median {median:.2f} ms, p99 {p99:.2f} ms ({runs} runs)")
    records = []
    for n in range(args.record):
        seated = rng.sample(range(1, args.players + 1), min(args.players, 4))
        ended = NOW - timedelta(seconds=rng.randint(0, 3600))
        records.append(
            GameRecord(
                f"new{n}", "bench", rng.choice(CHANNELS), "official",
                ended - timedelta(minutes=10), ended,
                tuple(
                    PlayerResult(f"p{pid}", f"P{pid}", place, place == 1,
                                 rng.randint(20, 300) if place == 1 else 0, 0)
                    for place, pid in enumerate(seated, 1)
                ),
            )
        )  # fmt: skip
    # As in the bot: record_game writes each game durably in its own transaction; the
    # leaderboard summary (derived from those rows) is caught up by the bot's upkeep timer
    # (store.maintain, every 30 s) or before a query, whichever comes first.
    store.catch_up_every = 0
    start = time.perf_counter()
    for record in records:
        store.record_game(record)
    elapsed = time.perf_counter() - start
    rate = args.record / elapsed
    assert store.pending == 0, "games were queued: the database failed during the benchmark"
    start = time.perf_counter()
    store.maintain()
    upkeep = time.perf_counter() - start
    print(
        f"record_game: {args.record} games (4 players, one durable transaction each) in "
        f"{elapsed:.2f} s: {rate:.0f} games/s"
    )
    print(
        f"summary upkeep for them (store.maintain): {upkeep:.2f} s; recording and upkeep "
        f"together: {args.record / (elapsed + upkeep):.0f} games/s"
    )
    store.close()
    if tmp is not None:
        tmp.cleanup()
    worst = max(top10[1], pw25[1], nick[1], records_all[1], records_week[1])
    print(f"stats: {rate:.0f} games recorded/s, worst query p99 {worst:.1f} ms")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--players", type=int, default=100_000)
    parser.add_argument("--results", type=int, default=1_000_000, help="game results to fill")
    parser.add_argument("--queries", type=int, default=300, help="timed runs of each query")
    parser.add_argument("--record", type=int, default=5_000, help="games timed in record_game")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--database", default=None, help="URL (default: a SQLite file in a temp directory)"
    )
    parser.add_argument(
        "--small",
        action="store_true",
        help="a quick run: 2,000 players, 20,000 results, 50 queries, 500 games",
    )
    parser.set_defaults(run=_run)


def _run(args: argparse.Namespace) -> None:
    if args.small:
        args.players, args.results, args.queries, args.record = 2_000, 20_000, 50, 500
    bench_stats(args)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(prog="python -m unobot.bench.stats", description=__doc__)
    add_arguments(parser)
    ns = parser.parse_args()
    ns.run(ns)
