"""The stats benchmark runs end to end on a tiny store (figures are not checked here:
targets live in the benchmark, never in timed unit tests)."""

from __future__ import annotations

import pytest

from unobot.bench import main


def test_stats_benchmark_runs_tiny(capsys: pytest.CaptureFixture[str]) -> None:
    main(["stats", "--players", "50", "--results", "600", "--queries", "5", "--record", "20"])
    out = capsys.readouterr().out.splitlines()
    assert out[-1].startswith("stats: ") and "games recorded/s" in out[-1]
    assert any(line.startswith(".unotop10") for line in out)
