"""The journal's records: their names and fields on disk, apart from the table's code.

A journal line is ``[record, {field: value}]``. The records began as the names of ``Table``'s
journaled methods and their parameters, and were read back with ``getattr(table, name)``: then
renaming a method or a parameter would have silently broken the journals the previous release
wrote (an upgrade with games in progress) and the move lists recorded games keep for their
replays. So the format is this table, versioned with the journal (``journal.VERSION``): a
record names the method it replays into and, for each field, the parameter it fills. Renaming a
``Table`` method or parameter means changing the right-hand side here, never the on-disk name;
``tests/core/test_journal_format.py`` fails until that is done.
"""

from __future__ import annotations

from typing import Any, Final

__all__ = ["RECORDS", "from_record", "to_record"]

RECORDS: Final[dict[str, tuple[str, dict[str, str]]]] = {
    # record: (Table method, {field: parameter})
    "_arrive": ("_arrive", {"nick": "nick"}),
    "_depart": ("_depart", {"nick": "nick", "now": "now"}),
    "add_computer": (
        "add_computer",
        {"level": "level", "name": "name", "now": "now", "own_nick": "own_nick"},
    ),
    "call_uno": ("call_uno", {"nick": "nick", "now": "now", "computer": "computer"}),
    "catch": (
        "catch",
        {"nick": "nick", "target": "target", "now": "now", "computer": "computer"},
    ),
    "catch_up": ("catch_up", {"since": "since", "now": "now", "why": "why"}),
    "challenge": ("challenge", {"nick": "nick", "now": "now", "computer": "computer"}),
    "choose_color": (
        "choose_color",
        {"nick": "nick", "color": "color", "now": "now", "computer": "computer"},
    ),
    "deal": ("deal", {"nick": "nick", "now": "now", "time_limit": "time_limit"}),
    "draw": ("draw", {"nick": "nick", "now": "now", "computer": "computer"}),
    "join": ("join", {"nick": "nick", "key": "key", "now": "now"}),
    "leave": ("leave", {"nick": "nick", "now": "now"}),
    "pass_turn": ("pass_turn", {"nick": "nick", "now": "now", "computer": "computer"}),
    "penalize": ("penalize", {"nick": "nick", "cards": "cards", "now": "now"}),
    "play": (
        "play",
        {
            "nick": "nick",
            "card": "card",
            "color": "color",
            "now": "now",
            "uno": "uno",
            "computer": "computer",
            "target": "target",
        },
    ),
    "remove_computer": ("remove_computer", {"name": "name", "now": "now"}),
    "rename": ("rename", {"old": "old", "new": "new"}),
    "stop": ("stop", {"nick": "nick"}),
    "swap": ("swap", {"nick": "nick", "target": "target", "now": "now", "computer": "computer"}),
    "team": ("team", {"nick": "nick", "other": "other", "now": "now"}),
    "timer_due": ("timer_due", {"name": "name", "now": "now"}),
}

_BY_METHOD: Final = {
    method: (record, {param: field for field, param in fields.items()})
    for record, (method, fields) in RECORDS.items()
}


def to_record(method: str, arguments: dict[str, Any]) -> tuple[str, dict[str, Any]]:
    """The record a journaled call of ``method`` is written as. KeyError for a method or a
    parameter the format does not know (a test keeps every journaled method in it)."""
    record, fields = _BY_METHOD[method]
    return record, {fields[param]: value for param, value in arguments.items()}


def from_record(record: str, fields: dict[str, Any]) -> tuple[str, dict[str, Any]]:
    """The ``Table`` method and keyword arguments a record replays as. ValueError for a record
    or a field this version does not know (the journal is then set aside, never half-read)."""
    try:
        method, params = RECORDS[record]
        return method, {params[field]: value for field, value in fields.items()}
    except KeyError as err:
        raise ValueError(f"journal record {record!r}: unknown {err}") from None
