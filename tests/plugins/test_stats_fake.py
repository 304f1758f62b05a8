"""A minimal in-memory StatsStore for the stats plugin's tests (until ``unobot.stats.memory``
lands), and a few checks that it computes what the protocol says."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime, timedelta

from unobot.casemap import irc_eq, irc_lower
from unobot.stats import GameRecord, Period, PlayerResult, PlayerStats, Ranking

_DAYS = {Period.WEEK: 7, Period.MONTH: 30}


class FakeStatsStore:
    """Keeps every GameRecord; figures are computed from them on each question."""

    def __init__(self, now: Callable[[], datetime] | None = None) -> None:
        self.games: list[GameRecord] = []
        self.now = now or (lambda: datetime.now(UTC))
        self.fail = False
        """Make record_game raise (to check the bot survives a broken store)."""

    def record_game(self, game: GameRecord) -> None:
        if self.fail:
            raise RuntimeError("database on fire")
        if all(g.game_id != game.game_id for g in self.games):
            self.games.append(game)

    def _rows(
        self, period: Period, channel: str | None
    ) -> dict[str, list[tuple[GameRecord, PlayerResult]]]:
        since = self.now() - timedelta(days=_DAYS[period]) if period in _DAYS else None
        rows: dict[str, list[tuple[GameRecord, PlayerResult]]] = {}
        for game in sorted(self.games, key=lambda g: g.ended):
            if since is not None and game.ended < since:
                continue
            if channel is not None and not irc_eq(game.channel, channel):
                continue
            for result in game.results:
                rows.setdefault(result.ident, []).append((game, result))
        return rows

    @staticmethod
    def _stats(rows: list[tuple[GameRecord, PlayerResult]]) -> PlayerStats:
        return PlayerStats(
            nick=rows[-1][1].nick,
            games=len(rows),
            wins=sum(r.won for _, r in rows),
            points=sum(r.points_won for _, r in rows),
            seconds=int(sum((g.ended - g.started).total_seconds() for g, _ in rows)),
        )

    def _ranked(
        self, ranking: Ranking, period: Period, channel: str | None, min_games: int
    ) -> list[tuple[str, PlayerStats]]:
        out = [(i, self._stats(r)) for i, r in self._rows(period, channel).items()]
        out = [(i, s) for i, s in out if s.games >= min_games]

        def key(item: tuple[str, PlayerStats]) -> tuple[float, int, str]:
            s = item[1]
            fig = s.percent_wins if ranking is Ranking.PERCENT_WINS else s.points_per_game
            return (-fig, -s.games, item[0])

        out.sort(key=key)
        return [
            (i, PlayerStats(s.nick, s.games, s.wins, s.points, s.seconds, n))
            for n, (i, s) in enumerate(out, 1)
        ]

    def player(
        self,
        name: str,
        ranking: Ranking = Ranking.PERCENT_WINS,
        period: Period = Period.ALL,
        channel: str | None = None,
        min_games: int = 5,
        include_bots: bool = False,
    ) -> PlayerStats | None:
        rows = self._rows(period, channel)
        ident = next(
            (
                i
                for i, r in rows.items()
                if i == name or any(irc_eq(res.nick, name) for _, res in r)
            ),
            None,
        )
        if ident is None:
            return None
        ranked = dict(self._ranked(ranking, period, channel, min_games))
        return ranked.get(ident) or self._stats(rows[ident])

    def leaderboard(
        self,
        ranking: Ranking,
        limit: int,
        period: Period = Period.ALL,
        channel: str | None = None,
        min_games: int = 5,
        include_bots: bool = False,
    ) -> list[PlayerStats]:
        return [s for _, s in self._ranked(ranking, period, channel, min_games)[:limit]]

    def close(self) -> None:
        pass


def make_result(nick: str, won: bool, points: int, place: int = 1) -> PlayerResult:
    return PlayerResult(irc_lower(nick), nick, place, won, points, 0)


def make_game(
    n: int,
    results: list[PlayerResult],
    channel: str = "#uno",
    ended: datetime = datetime(2026, 11, 20, tzinfo=UTC),
) -> GameRecord:
    return GameRecord(
        f"g{n}", "testnet", channel, "irc-classic", ended - timedelta(minutes=5), ended,
        tuple(results),
    )  # fmt: skip


def test_fake_store_figures_and_ranks() -> None:
    store = FakeStatsStore(lambda: datetime(2026, 11, 21, tzinfo=UTC))
    for n in range(4):
        store.record_game(
            make_game(n, [make_result("Alice", True, 30), make_result("bob", False, 0, 2)])
        )
    store.record_game(make_game(0, [make_result("Alice", True, 999)]))  # same id: ignored
    alice = store.player("ALICE", Ranking.POINTS_PER_GAME, min_games=2)
    assert alice == PlayerStats("Alice", 4, 4, 120, 1200, 1)
    assert store.player("bob", min_games=5) == PlayerStats("bob", 4, 0, 0, 1200, None)
    board = store.leaderboard(Ranking.PERCENT_WINS, 10, min_games=1)
    assert [(s.nick, s.rank) for s in board] == [("Alice", 1), ("bob", 2)]
    assert store.player("carol") is None
