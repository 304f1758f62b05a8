"""Which engine build runs: the mypyc-compiled modules or their Python sources.

``pip install`` compiles the engine's hot modules with mypyc when it can (see setup.py); the .py
files stay installed and are the reference. Python imports a compiled module in preference to
its source, and mypyc's modules cannot hand over to their source once loaded, so the choice is
made here, before any of them is imported (``unobot/__init__.py`` calls :func:`select`):

- compiled, when every compiled module's source is byte for byte the one it was built from;
- the sources, all seven together, when ``UNOBOT_PURE=1`` asks for pure Python, or when a source
  changed after it was compiled (an editable install being edited): stale compiled code never
  runs, and the bot still starts, with one warning that says how to compile again.

Build and source are compared by the SHA-256 of each source, recorded by setup.py at build time
in ``unobot/_build_hashes.py``, never by file times: an installed wheel writes its files in
archive order, so a correct install can have sources a few microseconds newer than their
compiled modules (which is how a time check once refused every fresh install).

This module uses only the standard library and imports nothing from the package: setup.py loads
it by path, before the package's dependencies are installed.
"""

from __future__ import annotations

import hashlib
import importlib.abc
import importlib.machinery
import importlib.util
import os
import sys
from collections.abc import Sequence
from types import ModuleType

__all__ = [
    "COMPILED_MODULES",
    "HASHES_FILE",
    "BuildChoice",
    "select",
    "source_hashes",
    "source_path",
    "stale",
]

COMPILED_MODULES = ("unobot.engine.cards", "unobot.engine.actions", "unobot.engine.events",
                    "unobot.engine.game", "unobot.engine.variants", "unobot.ai.playout",
                    "unobot.ai.hard")  # fmt: skip
"""The modules setup.py compiles: all of them run compiled, or none does (a compiled Game
cannot work with pure-Python cards)."""

HASHES_FILE = os.path.join("unobot", "_build_hashes.py")
"""Written by setup.py next to the compiled modules: ``SOURCES = {module: sha256 of source}``."""

_ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def source_path(module: str, root: str = _ROOT) -> str:
    """The .py file of ``module`` under ``root`` (the folder holding the ``unobot`` package)."""
    return os.path.join(root, *module.split(".")) + ".py"


def source_hashes(root: str = _ROOT) -> dict[str, str]:
    """SHA-256 of each compiled module's source, as setup.py records it at build time."""
    out = {}
    for module in COMPILED_MODULES:
        with open(source_path(module, root), "rb") as f:
            out[module] = hashlib.sha256(f.read()).hexdigest()
    return out


def _has_extension(module: str, root: str = _ROOT) -> bool:
    stem = source_path(module, root)[:-3]
    return any(os.path.exists(stem + suffix) for suffix in importlib.machinery.EXTENSION_SUFFIXES)


def _recorded_hashes(root: str) -> dict[str, str] | None:
    path = os.path.join(root, HASHES_FILE)
    try:
        spec = importlib.util.spec_from_file_location("unobot._build_hashes", path)
        if spec is None or spec.loader is None:
            return None
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
    except (OSError, SyntaxError):
        return None
    recorded = getattr(module, "SOURCES", None)
    return recorded if isinstance(recorded, dict) else None


class BuildChoice:
    """What :func:`select` decided: ``compiled`` (True/False) and, if the sources were chosen
    although compiled modules are installed, ``why`` (empty otherwise)."""

    def __init__(self, compiled: bool, why: str = "") -> None:
        self.compiled = compiled
        self.why = why

    def __repr__(self) -> str:
        return f"BuildChoice(compiled={self.compiled}, why={self.why!r})"


class _SourceFinder(importlib.abc.MetaPathFinder):
    """Loads the compiled modules from their .py sources (first on ``sys.meta_path``)."""

    def __init__(self, modules: Sequence[str]) -> None:
        self.paths = {name: source_path(name) for name in modules}

    def find_spec(
        self, fullname: str, path: Sequence[str] | None, target: ModuleType | None = None
    ) -> importlib.machinery.ModuleSpec | None:
        found = self.paths.get(fullname)
        return None if found is None else importlib.util.spec_from_file_location(fullname, found)


def stale(root: str = _ROOT) -> str:
    """Why the compiled modules under ``root`` must not run (empty when they match their
    sources)."""
    recorded = _recorded_hashes(root)
    if recorded is None:
        return f"{HASHES_FILE} (written when the engine was compiled) is missing"
    missing = [m for m in COMPILED_MODULES if not _has_extension(m, root)]
    if missing:
        return f"{', '.join(missing)} not compiled"
    try:
        current = source_hashes(root)
    except OSError as err:
        return f"can't read a source ({err})"
    for module in COMPILED_MODULES:
        if recorded.get(module) != current[module]:
            return f"{source_path(module, root)} changed after it was compiled"
    return ""


_choice: BuildChoice | None = None


def select() -> BuildChoice:
    """Decide once, before any compiled module is imported, which build runs (see above)."""
    global _choice
    if _choice is not None:
        return _choice
    if not any(_has_extension(m) for m in COMPILED_MODULES):
        _choice = BuildChoice(False)  # a pure install: nothing to choose
        return _choice
    if os.environ.get("UNOBOT_PURE", "") not in ("", "0"):
        why = "UNOBOT_PURE is set"  # asked for: no warning
    else:
        why = stale()
        if why:
            print(
                f"unobot: {why}: running the engine as pure Python (slower); reinstall "
                "(pip install ., or pip install -e . in a checkout) to compile it again",
                file=sys.stderr,
            )
    if why:
        sys.meta_path.insert(0, _SourceFinder(COMPILED_MODULES))
    _choice = BuildChoice(not why, why)
    return _choice
