"""Which engine build runs: mypyc-compiled (setup.py) or pure Python. Both must pass the suite."""

from __future__ import annotations

import dataclasses
import importlib
import importlib.machinery
import os
import subprocess
import sys
from pathlib import Path

from unobot import build_mode
from unobot.engine import cards, events
from unobot.engine.cards import CARDS, Color

ROOT = Path(__file__).resolve().parents[2]


def test_report_build_mode() -> None:
    modes = {
        name: not (importlib.import_module(name).__file__ or "").endswith(".py")
        for name in build_mode.COMPILED_MODULES
    }
    # All compiled or none: a compiled Game cannot work with pure-Python cards.
    assert len(set(modes.values())) == 1, modes
    assert modes["unobot.engine.cards"] == cards.COMPILED == build_mode.select().compiled
    print(f"engine modules: {'compiled (mypyc)' if cards.COMPILED else 'pure Python'}")


def _fake_compiled_tree(root: Path) -> None:
    """A package tree as a compiling install leaves it: sources, extensions, recorded hashes."""
    suffix = importlib.machinery.EXTENSION_SUFFIXES[0]
    for module in build_mode.COMPILED_MODULES:
        source = Path(build_mode.source_path(module, str(root)))
        source.parent.mkdir(parents=True, exist_ok=True)
        source.write_text(f"# {module}\n")
        Path(str(source)[:-3] + suffix).write_bytes(b"")
    recorded = build_mode.source_hashes(str(root))
    (root / build_mode.HASHES_FILE).write_text(f"SOURCES = {recorded!r}\n")


def test_sources_newer_than_their_build_are_not_stale(tmp_path: Path) -> None:
    """The wheel bug: installed files are written in archive order, sources after the .so."""
    _fake_compiled_tree(tmp_path)
    for module in build_mode.COMPILED_MODULES:
        source = build_mode.source_path(module, str(tmp_path))
        os.utime(source, (2e9, 2e9))  # far newer than the compiled module next to it
    assert build_mode.stale(str(tmp_path)) == ""


def test_an_edited_source_makes_the_build_stale(tmp_path: Path) -> None:
    """The editable-install case: a source edited after compiling must not run compiled."""
    _fake_compiled_tree(tmp_path)
    game = Path(build_mode.source_path("unobot.engine.game", str(tmp_path)))
    game.write_text(game.read_text() + "x = 1\n")
    assert build_mode.stale(str(tmp_path)) == f"{game} changed after it was compiled"


def test_a_build_without_recorded_hashes_is_stale(tmp_path: Path) -> None:
    """Compiled modules from before hashes were recorded (or copied without them)."""
    _fake_compiled_tree(tmp_path)
    (tmp_path / build_mode.HASHES_FILE).unlink()
    assert "missing" in build_mode.stale(str(tmp_path))
    _fake_compiled_tree(tmp_path)
    suffix = importlib.machinery.EXTENSION_SUFFIXES[0]
    Path(build_mode.source_path("unobot.ai.hard", str(tmp_path))[:-3] + suffix).unlink()
    assert build_mode.stale(str(tmp_path)) == "unobot.ai.hard not compiled"


def test_unobot_pure_runs_every_engine_module_from_source() -> None:
    """UNOBOT_PURE=1 at run time gets pure Python, whatever is installed (no error)."""
    code = (
        "import importlib, unobot.engine.cards as c; "
        "from unobot.build_mode import COMPILED_MODULES as M; "
        "print(c.COMPILED, all(importlib.import_module(m).__file__.endswith('.py') for m in M))"
    )
    env = {**os.environ, "UNOBOT_PURE": "1"}
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["False", "True"]
    assert done.stderr == ""


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
