"""The journal's on-disk records are their own format (``unobot.core.journal_format``), not
``Table``'s method and parameter names (issue 40): renaming either must not break the journals
and recorded move lists an earlier release wrote. (``test_journal.py`` restores journals the
previous release wrote: ``journals/*.jsonl``.)"""

from __future__ import annotations

import inspect

import pytest

from unobot.core.journal_format import RECORDS, from_record, to_record
from unobot.core.table import Table


def journaled_methods() -> dict[str, tuple[str, ...]]:
    """Every journaled method of ``Table`` with its parameters (the decorator wraps it)."""
    found = {}
    for name, func in inspect.getmembers(Table, inspect.isfunction):
        inner = getattr(func, "__wrapped__", None)
        if inner is not None and "journaled" in func.__code__.co_qualname:
            found[name] = tuple(inspect.signature(inner).parameters)[1:]
    return found


def test_every_journaled_method_and_parameter_has_its_record_and_field() -> None:
    """If this fails after a rename in ``Table``: change the method or parameter on the
    right-hand side of ``RECORDS``, keeping the record's and the field's names as they are on
    disk; a new journaled method gets a record of its own."""
    methods = journaled_methods()
    assert len(methods) >= 20, methods  # the decorator was found
    covered = {method: set(params.values()) for method, params in RECORDS.values()}
    for name, params in methods.items():
        assert name in covered, f"Table.{name} is journaled but has no record in RECORDS"
        missing = set(params) - covered[name]
        assert not missing, f"Table.{name}'s parameters {missing} fill no field of its record"
    for record, (method, params) in RECORDS.items():
        assert method in methods, f"record {record!r} replays into Table.{method}, not journaled"
        assert set(params.values()) <= set(methods[method]), (record, method)


def test_a_record_reads_back_as_the_call_it_was_written_from() -> None:
    args = {"nick": "ann", "card": "R5", "color": None, "now": 12.0, "uno": True}
    record, fields = to_record("play", args)
    assert record == "play" and fields == args
    assert from_record(record, fields) == ("play", args)


def test_a_record_or_field_this_version_does_not_know_is_refused_not_half_read() -> None:
    with pytest.raises(ValueError, match="unknown"):
        from_record("fly", {"nick": "ann"})
    with pytest.raises(ValueError, match="unknown"):
        from_record("play", {"nick": "ann", "wings": 2})
