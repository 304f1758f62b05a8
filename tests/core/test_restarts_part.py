"""A table's journal when the table goes (``unobot.core.restarts.journal_done``), alone: a
real journal folder, a table and a stand-in for the stats recorder, without a bot."""

from __future__ import annotations

import logging
from pathlib import Path
from random import Random

import pytest

from tests.core.fakes import FakeScheduler
from unobot.core.journal import Journal
from unobot.core.restarts import journal_done, unsaved
from unobot.core.table import Table


class Recorder:
    """The stats recorder's one question: is a finished game in memory only?"""

    def __init__(self, in_memory: bool) -> None:
        self.in_memory = in_memory

    def unsaved(self, table: Table) -> bool:
        return self.in_memory


def journaled(tmp_path: Path) -> tuple[Journal, Table]:
    clock = FakeScheduler()
    journal = Journal(tmp_path, clock.now, wall=lambda: 1_700_000_000.0)
    table = Table("#uno", "ann", "ann", clock.now(), rng=Random(3))
    journal.opened(table, 3, clock.now(), "ann")
    table.stop("ann")  # finished
    return journal, table


def files(tmp_path: Path) -> list[Path]:
    return sorted(p for p in tmp_path.iterdir() if p.stat().st_size > 0)


def test_a_recorder_without_the_question_keeps_nothing_in_memory_only() -> None:
    table = Table("#uno", "ann", "ann", 0.0)
    assert not unsaved(None, table) and not unsaved(object(), table)
    assert unsaved(Recorder(True), table)


def test_a_saved_game_lets_its_journal_go(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    journal, table = journaled(tmp_path)
    assert files(tmp_path)
    journal_done(journal, Recorder(False), table)
    assert table.journal is None and not files(tmp_path)  # recycled: empty again
    assert not caplog.records


def test_a_game_in_memory_only_keeps_its_journal_and_says_so(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    journal, table = journaled(tmp_path)
    with caplog.at_level(logging.ERROR):
        journal_done(journal, Recorder(True), table)
    (kept,) = files(tmp_path)
    assert f"its journal {kept} is kept and the next start records it" in caplog.text


def test_without_a_journal_a_game_in_memory_only_is_said_to_be_at_risk(
    caplog: pytest.LogCaptureFixture,
) -> None:
    table = Table("#uno", "ann", "ann", 0.0)
    with caplog.at_level(logging.ERROR):
        journal_done(None, Recorder(True), table)  # not finished: nothing to say
        assert not caplog.records
        table.stop("ann")
        journal_done(None, Recorder(True), table)
    assert "no journal is kept (bot.journal is off)" in caplog.text
