"""The site's benchmark runs end to end on a tiny store (figures are not checked here:
targets live in the benchmark, never in timed unit tests)."""

from __future__ import annotations

import pytest

from unobot.bench import main


def test_web_benchmark_runs_tiny(capsys: pytest.CaptureFixture[str]) -> None:
    main(
        ["web", "--players", "60", "--results", "900", "--heavy", "1", "--heavy-games", "60",
         "--replays", "3", "--requests", "2"]
    )  # fmt: skip
    out = capsys.readouterr().out.splitlines()
    assert out[-1].startswith("web: worst page p99 ") and "32 page kinds" in out[-1]
    kinds = [line for line in out if ": median " in line and "p99" in line]
    assert len(kinds) == 32
    assert any(line.startswith("game with replay:") for line in kinds)
    assert any(line.startswith("tournament knockout 64:") for line in kinds)
    assert any(line.startswith("api tournament knockout 64:") for line in kinds)
    assert any(line.startswith("tournament list:") for line in kinds)
    assert any(line.startswith("spectate poll unchanged (204):") for line in kinds)
    assert any(line.startswith("player playing now:") for line in kinds)
    assert any(line.startswith("records week:") for line in kinds)
    assert any(line.startswith("api records:") for line in kinds)


def test_web_benchmark_times_pages_in_each_language(capsys: pytest.CaptureFixture[str]) -> None:
    main(
        ["web", "--players", "60", "--results", "900", "--heavy", "1", "--heavy-games", "60",
         "--replays", "3", "--requests", "1", "--languages", "en,pl"]
    )  # fmt: skip
    out = capsys.readouterr().out.splitlines()
    assert out[-1].startswith("web: worst page p99 ") and out[-1].endswith(" in en, pl")
    kinds = [line for line in out if ": median " in line and "p99" in line]
    assert any(line.startswith("player heavy [pl]:") for line in kinds)
    assert any(line.startswith("tournament knockout 64 [pl]:") for line in kinds)
    assert not any(line.startswith("api ") and "[pl]" in line for line in kinds)
    assert len(kinds) == 32 + 32 - sum(line.startswith("api ") for line in kinds)
