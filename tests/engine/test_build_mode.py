"""Which engine build runs: mypyc-compiled (setup.py) or pure Python. Both must pass the suite."""

from __future__ import annotations

import importlib

from unobot import cards


def test_report_build_mode() -> None:
    modes = {
        name: not (importlib.import_module(name).__file__ or "").endswith(".py")
        for name in cards.COMPILED_MODULES
    }
    # All compiled or none: a compiled Game cannot work with pure-Python cards.
    assert len(set(modes.values())) == 1, modes
    assert modes["unobot.cards"] == cards.COMPILED
    print(f"engine modules: {'compiled (mypyc)' if cards.COMPILED else 'pure Python'}")
