"""stats.db.example is rebuilt by a documented command, from seeded engine games."""

from __future__ import annotations

from pathlib import Path

from unobot.stats import Ranking
from unobot.stats.example import build
from unobot.stats.sql import SqlStatsStore


def test_example_database_is_reproducible(tmp_path: Path) -> None:
    boards = []
    for name in ("a.db", "b.db"):
        build(tmp_path / name, games=30, seed=3)
        store = SqlStatsStore(f"sqlite:///{tmp_path / name}", spool_path=tmp_path / "s")
        boards.append(store.leaderboard(Ranking.POINTS_PER_GAME, 5, min_games=1))
        assert store.summary_mismatches() == []
        store.close()
    assert boards[0] == boards[1] and boards[0]
