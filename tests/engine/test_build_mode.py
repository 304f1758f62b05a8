"""Which engine build runs: mypyc-compiled (setup.py) or pure Python. Both must pass the suite."""

from __future__ import annotations

import dataclasses
import importlib

from unobot import cards
from unobot.cards import CARDS, Color
from unobot.engine import events


def test_report_build_mode() -> None:
    modes = {
        name: not (importlib.import_module(name).__file__ or "").endswith(".py")
        for name in cards.COMPILED_MODULES
    }
    # All compiled or none: a compiled Game cannot work with pure-Python cards.
    assert len(set(modes.values())) == 1, modes
    assert modes["unobot.cards"] == cards.COMPILED
    print(f"engine modules: {'compiled (mypyc)' if cards.COMPILED else 'pure Python'}")


def test_written_event_inits_match_the_dataclass_fields() -> None:
    """Events with a hand-written __init__ (for mypyc) take exactly their fields, defaults kept."""
    samples = {
        "seat": 3,
        "card": CARDS[5],
        "color": Color.GREEN,
        "cards_left": 4,
        "cards": (CARDS[1], CARDS[2]),
        "reason": events.DrawReason.CHALLENGE,
        "direction": -1,
        "automatic": True,
    }
    written = [events.CardPlayed, events.CardsDrawn, events.Skipped, events.Reversed,
               events.TurnPassed, events.UnoCalled]  # fmt: skip
    for cls in written:
        fields = dataclasses.fields(cls)
        values = {f.name: samples[f.name] for f in fields}
        made = cls(**values)
        assert {f: getattr(made, f) for f in values} == values, cls
        assert made == cls(*values.values()), cls
        required = {f.name: values[f.name] for f in fields if f.default is dataclasses.MISSING}
        made = cls(**required)
        for f in fields:
            if f.default is not dataclasses.MISSING:
                assert getattr(made, f.name) == f.default, (cls, f.name)
