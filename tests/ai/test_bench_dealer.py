"""The dealer benchmark runs end to end on a few games and prints one row per dealer (its
figures are not checked here: targets live in the benchmark, never in timed unit tests)."""

from __future__ import annotations

import pytest

from unobot.bench import main


def test_dealer_benchmark_runs_tiny(capsys: pytest.CaptureFixture[str]) -> None:
    main(["dealer", "--games", "3", "--worlds", "2"])
    out = capsys.readouterr().out.splitlines()
    rows = {line.split()[0]: line.split()[1:] for line in out[2:5]}
    assert set(rows) == {"facts", "+runs", "+earlier"}
    for error, overlap, _ in rows.values():
        assert float(error) >= 0 and 0 <= float(overlap) <= 1
    assert out[-1].startswith("dealer: colour error ")
