"""Stats site benchmark: ``python -m unobot.bench web [--players N --results N]``.

Builds the stats benchmark's store (:func:`unobot.bench.stats.fill`: 100,000 players and
1,000,000 results by default, 2-6 players a game over 180 days), where a few heavy players
have thousands of games each (part of the results total), then:

- ratings by ``rebuild_rating_rows`` (``SqlStatsStore.rebuild_ratings``): openskill over every
  game in order, filling ``player_rating`` and each result's ``mu``/``sigma`` (the rating
  history the player pages chart), as the v5 migration does on a real store;
- real games with move lists (:func:`unobot.replay.simulate.recorded_games`, the bot core's
  tables played out) written with ``record_game`` as the bot writes them;

and serves the real application with uvicorn on a free loopback port in a thread, requests
every kind of page (leaderboards of each ranking and period, one channel's, player pages of
heavy and light players, game pages with and without a replay, the tournament list and
pages of a finished and a running 64-player knockout and a rotation (written by
:func:`unobot.tournament.simulate.simulate`), the CSV export, the live list and a game's
spectator view with ``--live-games`` games being played (the running knockout's tables among
them: its page shows whose turn it is), a spectator's once-a-second poll answered 204, a
player page of someone playing now, the records page (all time, a week, one channel's month)
and their JSON) ``--requests``
times each, one at a time, with urllib, and prints the median and p99 of the server's own
``Server-Timing`` figure per kind. Target: every kind's p99 under 100 ms.

``--languages en,pl`` times every page kind in each language (asked as a browser does, with
``Accept-Language``; the JSON API is English whatever is asked, so it is timed once): a
translated page costs its catalogue lookups and Babel's number and date formatting, and a
tournament's view is cached once per language.
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import threading
import time
import urllib.request
from collections.abc import Callable
from datetime import timedelta
from pathlib import Path
from random import Random
from urllib.parse import quote

from unobot.bench.stats import CHANNELS, NOW, fill
from unobot.stats import live_rows
from unobot.stats.sql import SqlStatsStore, open_database
from unobot.tournament.simulate import simulate
from unobot.tournament.store import SqlTournamentLog
from unobot.web.queries import link_key

__all__ = ["add_arguments", "bench_web"]

TARGET_MS = 100.0


def add_heavy(store: SqlStatsStore, first_game: int, players: int, heavy: int, games: int,
              seed: int) -> int:  # fmt: skip
    """Games of four where one of players 1..``heavy`` always sits (each heavy player in
    ``games`` games), numbered from ``first_game``; returns the results written."""
    rng = Random(seed)
    db, stamp, sql = store.db, store._stamp, store._s
    cur = db.cursor()
    rows: list[tuple[object, ...]] = []
    game_rows: list[tuple[object, ...]] = []
    gid = first_game - 1
    for who in range(1, heavy + 1):
        for _ in range(games):
            gid += 1
            others = rng.sample(range(heavy + 1, players + 1), 3)
            seated = [who, *others]
            rng.shuffle(seated)
            seconds = rng.randint(60, 1800)
            ended = NOW - timedelta(seconds=rng.randint(0, 180 * 86400))
            game_rows.append(
                (gid, f"heavy{gid}", "bench", rng.choice(CHANNELS), "official",
                 stamp(ended - timedelta(seconds=seconds)), stamp(ended), seconds, seated[0])
            )  # fmt: skip
            for place, pid in enumerate(seated, 1):
                won = place == 1
                rows.append((gid, pid, place, won, rng.randint(20, 300) if won else 0,
                             0 if won else rng.randint(0, 120), True, False))  # fmt: skip
    with db.atomic():
        cur.executemany(
            sql(
                "INSERT INTO game (id, game_id, network, channel, preset, started, ended, "
                "seconds, winner_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)"
            ),
            game_rows,
        )
        cur.executemany(
            sql(
                "INSERT INTO game_result (game_id, player_id, place, won, points_won, "
                "points_left, finished, is_bot) VALUES (?, ?, ?, ?, ?, ?, ?, ?)"
            ),
            rows,
        )
        if not store._sqlite:
            cur.execute(sql("SELECT setval('game_id_seq', ?)"), (gid,))
    return len(rows)


def add_live(url: str, count: int, people: int, seed: int) -> list[tuple[str, str, str]]:
    """``count`` live games as the bot's live writer leaves them (``live_game`` rows, 40
    lines each): the running knockout ``live64``'s unfinished tables first, then plain
    games of the store's players (``P1``…). Returns (channel, page version, a seated nick)
    of each."""
    db = open_database(url)
    rng = Random(seed)
    now = NOW.timestamp()
    log = SqlTournamentLog(db)
    stored = log.load("live64")
    seats = [e.data for e in stored.entries if e.kind == "seat"] if stored else []
    done = {e.data["key"] for e in stored.entries if e.kind == "result"} if stored else set()
    tables = [d for d in seats if d["key"] not in done]
    writes: list[live_rows.LiveWrite] = []
    for n in range(count):
        table = tables[n] if n < len(tables) else None
        players = list(table["players"]) if table else [f"P{rng.randint(1, people)}" for _ in "abc"]
        channel = table["channel"] if table else f"#play{n}"
        state = {
            "tournament": "live64" if table else None,
            "table_no": table["table"] if table else None,
            "players": [{"nick": p, "cards": rng.randint(1, 12)} for p in players],
            "turn": players[0],
            "top": "R5",
            "color": "",
            "direction": 1,
            "info": {"rules": "standard", "hand": 1, "totals": [[p, 0] for p in players]},
        }
        lines = [(now - 40 + i, f"{players[i % 3]} plays R{i % 10}. Top: R{i % 10}.")
                 for i in range(live_rows.KEEP_LINES)]  # fmt: skip
        writes.append(live_rows.LiveWrite("bench", channel, state, lines, started=now - 60))
    live_rows.write_batch(db, writes, now)
    views = live_rows.live_games(db, now, "bench")
    db.close()
    return [(v.channel, v.stamp, v.players[0][0]) for v in views]


def _percentiles(values: list[float]) -> tuple[float, float]:
    ordered = sorted(values)
    return statistics.median(ordered), ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))]


def _timing(header: str) -> float:
    """The ``app;dur=`` figure of a Server-Timing header, in ms."""
    for part in header.split(","):
        name, _, rest = part.strip().partition(";")
        if name == "app" and rest.startswith("dur="):
            return float(rest[4:])
    raise ValueError(f"no app timing in {header!r}")


def _fetch(url: str, lang: str = "en") -> tuple[float, float]:
    """(server ms, client ms) of one GET, which must answer 200 — or 204 for a live page's
    poll (``#live=VERSION`` at the end of ``url``: sent as ``X-Live-Version``, the question
    static/live.js asks once a second per open page). ``lang``: the ``Accept-Language``."""
    url, _, version = url.partition("#live=")
    headers = {"X-Live-Version": version} if version else {}
    headers["Accept-Language"] = f"{lang.replace('_', '-')},{lang[:2]};q=0.9"
    start = time.perf_counter()
    with urllib.request.urlopen(urllib.request.Request(url, headers=headers), timeout=30) as answer:
        answer.read()
        if answer.status != (204 if version else 200):
            raise RuntimeError(f"{url}: {answer.status}")
        header = answer.headers.get("Server-Timing", "")
    return _timing(header), (time.perf_counter() - start) * 1000


def _serve(url: str, min_games: int) -> tuple[object, threading.Thread, int]:
    """The site on a free loopback port, in a thread; returns (server, thread, port)."""
    import uvicorn

    from unobot.web.app import create_app
    from unobot.web.cli import listen

    app = create_app(open_database(url), min_games=min_games, clock=lambda: NOW)
    sock = listen("127.0.0.1", 0)
    server = uvicorn.Server(uvicorn.Config(app, log_level="warning", lifespan="on"))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not server.started:
        if not thread.is_alive() or time.monotonic() > deadline:
            raise RuntimeError("the site did not start")
        time.sleep(0.02)
    return server, thread, int(sock.getsockname()[1])


def bench_web(args: argparse.Namespace) -> None:
    from unobot.replay.figures import move_figures
    from unobot.replay.simulate import recorded_games

    tmp = None
    url = args.database
    if url is None:
        tmp = tempfile.TemporaryDirectory(prefix="unobot-bench-web-")
        url = f"sqlite:///{Path(tmp.name) / 'bench.db'}"
    spool = Path(tmp.name if tmp else ".") / "bench-web.spool"
    store = SqlStatsStore(
        url, network="bench", clock=lambda: NOW, spool_path=spool, analyse=move_figures
    )
    heavy_results = args.heavy * args.heavy_games * 4
    start = time.perf_counter()
    games = fill(store, args.players, max(0, args.results - heavy_results), args.seed)
    written = add_heavy(store, games + 1, args.players, args.heavy, args.heavy_games, args.seed)
    store.rebuild_summaries()
    store.rebuild_records()  # the records of the bulk-filled games (no move lists: rows only)
    games += args.heavy * args.heavy_games
    filled = time.perf_counter() - start
    print(f"database: {url.split('@')[-1]}")
    print(
        f"filled: {args.players} players, {args.results} results in {games} games "
        f"({args.heavy} heavy players with {args.heavy_games} games each, {written} of the "
        f"results), {filled:.1f} s"
    )
    start = time.perf_counter()
    nicks = [f"P{i}" for i in range(args.heavy + 1, args.heavy + 13)]
    replays = recorded_games(
        args.replays, args.seed, players=nicks, network="bench", channel="#uno",
        start=NOW - timedelta(days=20), gap=3 * 3600.0,
    )  # fmt: skip
    store.catch_up_every = 0
    for record in replays:
        store.record_game(record)
    assert store.pending == 0, "games were queued: the database failed during the benchmark"
    simulated = time.perf_counter() - start
    start = time.perf_counter()
    rated = store.rebuild_ratings()
    store.maintain()  # the summaries caught up, as the bot's upkeep does
    if not store._sqlite:
        # A bulk load leaves PostgreSQL without statistics until autovacuum gets to it; a
        # running store has them (unanalyzed, the rating board's plan took 6 s, not 2 ms).
        store.db.execute_sql("ANALYZE")
    rating_time = time.perf_counter() - start
    print(
        f"replays: {len(replays)} games played by the bot core and recorded with their move "
        f"lists, {simulated:.1f} s"
    )
    print(
        f"ratings: rebuild_rating_rows over {rated} games (player_rating and every result's "
        f"mu/sigma), {rating_time:.1f} s"
    )
    short_ids = [link_key(r.game_id) for r in replays]  # as the site's links name them
    store.close()
    start = time.perf_counter()
    tournaments = SqlTournamentLog.from_url(url)
    try:
        # A finished 64-player knockout (3 rounds, 21 games, its sheet), a running one and
        # a finished rotation, written as the director writes them.
        simulate(tournaments, "cup64", "knockout", 64, channel="#cup", seed=args.seed, extras=True)
        simulate(tournaments, "live64", "knockout", 64, channel="#live", seed=args.seed + 1,
                 results=10)  # fmt: skip
        simulate(tournaments, "bac", "rotation", 20, words=["rounds=3"], channel="#bac",
                 seed=args.seed + 2)  # fmt: skip
    finally:
        tournaments.close()
    print(
        f"tournaments: a 64-player knockout (finished), one running and a 20-player rotation, "
        f"{time.perf_counter() - start:.1f} s"
    )

    start = time.perf_counter()
    watched = add_live(url, args.live_games, args.players, args.seed)
    playing = [w for w in watched if w[0].startswith("#play")] or watched
    print(
        f"live: {args.live_games} games being played now (the running knockout's tables "
        f"among them), {live_rows.KEEP_LINES} channel lines each, "
        f"{time.perf_counter() - start:.1f} s"
    )

    languages = args.languages
    server, thread, port = _serve(url, args.min_games)
    base = f"http://127.0.0.1:{port}"
    rng = Random(args.seed)
    heavy = [f"P{i}" for i in range(1, args.heavy + 1)] or ["P1"]

    def player(names: list[str] | None = None) -> str:
        nick = rng.choice(names) if names else f"P{rng.randint(args.heavy + 1, args.players)}"
        return quote(nick, safe="")

    kinds: list[tuple[str, Callable[[], str]]] = [
        ("leaderboard rating", lambda: "/leaderboard?ranking=rating"),
        ("leaderboard pw all", lambda: "/leaderboard?ranking=pw&period=all"),
        ("leaderboard pw week", lambda: "/leaderboard?ranking=pw&period=week"),
        ("leaderboard pw month", lambda: "/leaderboard?ranking=pw&period=month"),
        ("leaderboard ppg all", lambda: "/leaderboard?ranking=ppg&period=all"),
        ("leaderboard ppg week", lambda: "/leaderboard?ranking=ppg&period=week"),
        ("leaderboard ppg month", lambda: "/leaderboard?ranking=ppg&period=month"),
        ("leaderboard ppg #uno month", lambda: "/leaderboard?ranking=ppg&period=month"
                                               "&channel=%23uno&min=2"),
        ("api leaderboard pw", lambda: "/api/leaderboard?ranking=pw"),
        ("records all", lambda: "/records"),
        ("records week", lambda: "/records?period=week"),
        ("records #uno month", lambda: "/records?period=month&channel=%23uno"),
        ("api records", lambda: "/api/records?network=bench"),
        ("player heavy", lambda: f"/player/{player(heavy)}"),
        ("player light", lambda: f"/player/{player()}"),
        ("api player heavy", lambda: f"/api/player/{player(heavy)}"),
        ("game with replay", lambda: f"/game/{rng.choice(short_ids)}"),
        ("api game with replay", lambda: f"/api/game/{rng.choice(short_ids)}"),
        ("game without moves", lambda: f"/game/{rng.randint(1, games)}"),
        ("tournament list", lambda: "/tournaments"),
        ("api tournament list", lambda: "/api/tournaments"),
        ("tournament knockout 64", lambda: "/tournament/cup64"),
        ("api tournament knockout 64", lambda: "/api/tournament/cup64"),
        ("tournament knockout 64 running", lambda: "/tournament/live64"),
        ("tournament knockout 64 csv", lambda: "/tournament/cup64/export.csv"),
        ("tournament rotation", lambda: "/tournament/bac"),
        ("live list", lambda: "/live"),
        ("api live list", lambda: "/api/live"),
        ("spectate", lambda: f"/live/bench/{quote(rng.choice(watched)[0], safe='')}"),
        ("api spectate", lambda: f"/api/live/bench/{quote(rng.choice(watched)[0], safe='')}"),
        ("spectate poll unchanged (204)", lambda: "/live/bench/{}#live={}".format(
            *(lambda w: (quote(w[0], safe=""), w[1]))(rng.choice(watched)))),
        ("player playing now", lambda: f"/player/{quote(rng.choice(playing)[2], safe='')}"),
    ]  # fmt: skip
    if not short_ids:
        kinds = [k for k in kinds if "replay" not in k[0]]
    print(
        f"served: the real app under uvicorn on 127.0.0.1:{port}, {args.requests} requests of "
        "each page kind one at a time (after one warm-up each); Server-Timing, then client"
    )
    timed = [
        (label if lang == languages[0] else f"{label} [{lang}]", path, lang)
        for label, path in kinds
        for lang in (languages[:1] if label.startswith("api ") else languages)
    ]
    worst = (0.0, "")
    try:
        for _, path, lang in timed:
            _fetch(base + path(), lang)
        for label, path, lang in timed:
            server_ms, client_ms = [], []
            for _ in range(args.requests):
                s, c = _fetch(base + path(), lang)
                server_ms.append(s)
                client_ms.append(c)
            median, p99 = _percentiles(server_ms)
            client_median, client_p99 = _percentiles(client_ms)
            print(
                f"{label}: median {median:.1f} ms, p99 {p99:.1f} ms "
                f"(client median {client_median:.1f} ms, p99 {client_p99:.1f} ms)"
            )
            worst = max(worst, (p99, label))
    finally:
        server.should_exit = True  # type: ignore[attr-defined]
        thread.join(10)
        if tmp is not None:
            tmp.cleanup()
    verdict = "under" if worst[0] < TARGET_MS else "OVER"
    print(
        f"web: worst page p99 {worst[0]:.1f} ms ({worst[1]}), {verdict} the "
        f"{TARGET_MS:.0f} ms target, {len(kinds)} page kinds on {args.results} results"
        + (f" in {', '.join(languages)}" if len(languages) > 1 else "")
    )


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--players", type=int, default=100_000)
    parser.add_argument("--results", type=int, default=1_000_000, help="game results to fill")
    parser.add_argument("--heavy", type=int, default=5, help="players with many games")
    parser.add_argument("--heavy-games", type=int, default=5_000, help="games of each heavy one")
    parser.add_argument("--replays", type=int, default=100, help="games with move lists")
    parser.add_argument(
        "--requests", type=int, default=None, help="timed requests per page kind (200)"
    )
    parser.add_argument(
        "--languages",
        type=_languages,
        default=("en",),
        help="comma-separated languages to time each page in (en,pl); the first is unmarked",
    )
    parser.add_argument("--min-games", type=int, default=5)
    parser.add_argument(
        "--live-games", type=int, default=50, help="games being played now (live rows)"
    )
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--database", default=None, help="URL (default: a SQLite file in a temp directory)"
    )
    parser.add_argument(
        "--small",
        action="store_true",
        help="a quick run: 2,000 players, 20,000 results, 2 heavy players of 1,000 games, "
        "20 replays, 30 requests (unless --requests says)",
    )
    parser.set_defaults(run=_run)


def _languages(text: str) -> tuple[str, ...]:
    from unobot.i18n import normalize

    found = tuple(normalize(part) for part in text.split(",") if part.strip())
    if not found or None in found:
        raise argparse.ArgumentTypeError(f"unknown language in {text!r}")
    return tuple(dict.fromkeys(lang for lang in found if lang is not None))


def _run(args: argparse.Namespace) -> None:
    if args.small:
        args.players, args.results, args.heavy, args.heavy_games = 2_000, 20_000, 2, 1_000
        args.replays = 20
        args.requests = args.requests or 30
    args.requests = 200 if args.requests is None else args.requests
    if args.players <= args.heavy + 12 or args.heavy < 0 or args.requests < 1:
        raise SystemExit("bench web: need more players than heavy ones + 12, and 1+ requests")
    bench_web(args)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(prog="python -m unobot.bench.web", description=__doc__)
    add_arguments(parser)
    ns = parser.parse_args()
    ns.run(ns)
