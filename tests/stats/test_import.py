"""``unobot import-scores``: the old bot's totals show up in the all-time figures."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest

from unobot.main import main
from unobot.stats import Period, Ranking
from unobot.stats.importer import ScoreFileError, parse_scores
from unobot.stats.sql import SqlStatsStore

OLD = """# nick games wins points seconds
Alice 20 12 1500 7200
bob[1] 6 1 90 1800

BOB{1} 4 1 10 600
"""


def test_parse_merges_case_variants_and_refuses_bad_lines() -> None:
    scores = parse_scores(OLD)
    assert [(s.nick, s.games, s.wins, s.points, s.seconds) for s in scores] == [
        ("Alice", 20, 12, 1500, 7200),
        ("BOB{1}", 10, 2, 100, 2400),
    ]
    with pytest.raises(ScoreFileError, match="line 2"):
        parse_scores("ok 1 1 1 1\nbad 1 2\n")
    with pytest.raises(ScoreFileError, match="impossible"):
        parse_scores("x 1 5 0 0\n")


def test_import_scores_command_feeds_unostats(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    scores = tmp_path / "uno.scores"
    scores.write_text(OLD)
    url = f"sqlite:///{tmp_path / 'stats.db'}"
    with pytest.raises(SystemExit) as done:
        main(["import-scores", str(scores), "--database", url])
    assert done.value.code == 0
    assert "imported 2 players (30 games)" in capsys.readouterr().out
    store = SqlStatsStore(url, clock=lambda: datetime(2026, 11, 20, tzinfo=UTC))
    alice = store.player("alice", Ranking.POINTS_PER_GAME)
    assert (alice.games, alice.wins, alice.points, alice.seconds, alice.rank) == (
        20, 12, 1500, 7200, 1,
    )  # fmt: skip
    board = store.leaderboard(Ranking.PERCENT_WINS, 10)
    assert [s.nick for s in board] == ["Alice", "BOB{1}"]
    assert store.player("alice", period=Period.WEEK) is None
    store.close()
    with pytest.raises(SystemExit) as failed:
        main(["import-scores", str(tmp_path / "missing"), "--database", url])
    assert failed.value.code == 2
