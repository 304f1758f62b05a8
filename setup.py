"""Optional mypyc compilation of the rules engine's hot modules (everything else is pyproject).

``pip install .`` and ``pip install -e .`` compile ``unobot/cards.py``, the engine's
``actions``, ``events`` and ``game``, and ``hard``'s playouts and search
(``unobot/ai/playout.py``, ``unobot/ai/hard.py``) with mypyc (about 1.6x faster games, so more
playouts in ``hard``'s time budget). The .py files stay
installed and are the reference: nothing requires the compiled modules. The build falls back
to pure Python, with a warning, when mypyc or a C compiler is missing or compilation fails, and
compiles nothing when ``UNOBOT_PURE=1`` is set. At run time ``UNOBOT_PURE=1`` also selects pure
Python, and a compiled module older than its source is never used (see
``unobot.cards.pure_python_instead``).
"""

from __future__ import annotations

import os
import sys

from setuptools import setup

COMPILED = ["unobot/cards.py", "unobot/engine/actions.py", "unobot/engine/events.py",
            "unobot/engine/game.py", "unobot/ai/playout.py", "unobot/ai/hard.py"]  # fmt: skip


def _remove_inplace_builds() -> None:
    """Delete compiled modules an earlier editable install left next to the sources."""
    here = os.path.dirname(os.path.abspath(__file__))
    for source in COMPILED:
        folder, name = os.path.split(os.path.join(here, source))
        for entry in os.listdir(folder):
            if entry.startswith(name[:-3] + ".") and entry.endswith((".so", ".pyd")):
                os.remove(os.path.join(folder, entry))
    for entry in os.listdir(here):
        if "__mypyc." in entry and entry.endswith((".so", ".pyd")):
            os.remove(os.path.join(here, entry))


def _extensions() -> list:
    if os.environ.get("UNOBOT_PURE", "") not in ("", "0"):
        _remove_inplace_builds()
        return []
    try:
        from mypyc.build import mypycify

        # Only the compiled modules must type-check; the rest of the package is read, not judged.
        extensions = mypycify(
            ["--follow-imports=silent", *COMPILED], opt_level="3", debug_level="0"
        )
    except (Exception, SystemExit) as exc:  # no mypyc, or the code no longer type-checks
        print(f"unobot: not compiling with mypyc ({exc}); using pure Python", file=sys.stderr)
        return []
    for ext in extensions:
        ext.optional = True  # a failing C compiler only warns: the .py modules are used
    return extensions


setup(ext_modules=_extensions())
