"""Optional mypyc compilation of the rules engine's hot modules (everything else is pyproject).

``pip install .`` and ``pip install -e .`` compile ``unobot/engine/cards.py``, the engine's
``actions``, ``events``, ``game`` and ``variants``, and ``hard``'s playouts and search
(``unobot/ai/playout.py``, ``unobot/ai/hard.py``) with mypyc (about 1.6x faster games, so more
playouts in ``hard``'s time budget). The .py files stay
installed and are the reference: nothing requires the compiled modules. The build falls back
to pure Python, with a warning, when mypyc or a C compiler is missing or compilation fails, and
compiles nothing when ``UNOBOT_PURE=1`` is set. A compiling build records the SHA-256 of each
compiled source in ``unobot/_build_hashes.py``; at run time a compiled module whose source no
longer matches is never used, and ``UNOBOT_PURE=1`` selects pure Python too (see
``unobot/build_mode.py``).
"""

from __future__ import annotations

import os
import runpy
import sys

from setuptools import find_packages, setup

HERE = os.path.dirname(os.path.abspath(__file__))
# The package's own list and hashing, loaded by path: the package can't be imported here.
BUILD_MODE = runpy.run_path(os.path.join(HERE, "unobot", "build_mode.py"))
COMPILED = [m.replace(".", "/") + ".py" for m in BUILD_MODE["COMPILED_MODULES"]]
HASHES = os.path.join(HERE, BUILD_MODE["HASHES_FILE"])


def _remove_inplace_builds() -> None:
    """Delete compiled modules (and their hashes) an earlier editable install left."""
    if os.path.exists(HASHES):
        os.remove(HASHES)
    for source in COMPILED:
        folder, name = os.path.split(os.path.join(HERE, source))
        for entry in os.listdir(folder):
            if entry.startswith(name[:-3] + ".") and entry.endswith((".so", ".pyd")):
                os.remove(os.path.join(folder, entry))
    for folder in (HERE, os.path.join(HERE, "unobot")):  # older builds: at the top level
        for entry in os.listdir(folder):
            if "__mypyc." in entry and entry.endswith((".so", ".pyd")):
                os.remove(os.path.join(folder, entry))


def _remove_orphans() -> None:
    """Delete in-place compiled modules whose source is gone (a module that moved, e.g.
    ``unobot/cards.py`` -> ``unobot/engine/cards.py``): left behind, it would still import."""
    for folder, _dirs, files in os.walk(os.path.join(HERE, "unobot")):
        for entry in files:
            stem = entry.split(".", 1)[0]
            orphan = not os.path.exists(os.path.join(folder, stem + ".py"))
            if entry.endswith((".so", ".pyd")) and "__mypyc" not in stem and orphan:
                os.remove(os.path.join(folder, entry))


def _extensions() -> list:
    _remove_orphans()
    if os.environ.get("UNOBOT_PURE", "") not in ("", "0"):
        _remove_inplace_builds()
        return []
    try:
        from mypyc.build import mypycify

        # Only the compiled modules must type-check; the rest of the package is read, not judged.
        # group_name: the library the seven modules share is unobot._engine__mypyc, inside the
        # package, not a top-level "<hash>__mypyc" module beside every other project's.
        extensions = mypycify(
            ["--follow-imports=silent", *COMPILED],
            opt_level="3",
            debug_level="0",
            group_name="unobot._engine",
        )
    except (Exception, SystemExit) as exc:  # no mypyc, or the code no longer type-checks
        print(f"unobot: not compiling with mypyc ({exc}); using pure Python", file=sys.stderr)
        return []
    for ext in extensions:
        ext.optional = True  # a failing C compiler only warns: the .py modules are used
    _record_hashes()
    return extensions


def _record_hashes() -> None:
    """Write what the compiled modules are built from, for the run-time check (build_mode)."""
    lines = [
        '"""Written by setup.py when it compiles the engine: SHA-256 of each compiled source."""',
        "",
        "SOURCES = {",
        *(f"    {m!r}: {h!r}," for m, h in BUILD_MODE["source_hashes"](HERE).items()),
        "}",
        "",
    ]
    with open(HASHES, "w", encoding="utf-8") as f:
        f.write("\n".join(lines))


def _compile_translations() -> None:
    """Compile each ``unobot/locale/<lang>/LC_MESSAGES/<domain>.po`` to its ``.mo`` in the
    source tree before the package data is collected, so every build (wheel, sdist, editable)
    carries compiled catalogues. Babel is a build requirement (pyproject.toml); the package
    itself can't be imported here, so this is ``unobot.i18n.catalogs.compile_all`` in short."""
    from babel.messages.mofile import write_mo
    from babel.messages.pofile import read_po

    locale = os.path.join(HERE, "unobot", "locale")
    for lang in sorted(os.listdir(locale)) if os.path.isdir(locale) else []:
        folder = os.path.join(locale, lang, "LC_MESSAGES")
        for entry in sorted(os.listdir(folder)) if os.path.isdir(folder) else []:
            if entry.endswith(".po"):
                with open(os.path.join(folder, entry), "rb") as f:
                    catalog = read_po(f, locale=lang)
                with open(os.path.join(folder, entry[:-3] + ".mo"), "wb") as f:
                    write_mo(f, catalog)


_compile_translations()


# The repository keeps its command plugins in a top-level plugins/ folder; installed they are
# unobot.plugins, so no top-level "plugins" package collides with another project's.
setup(
    packages=[*find_packages(include=["unobot", "unobot.*"]), "unobot.plugins"],
    package_dir={"unobot.plugins": "plugins"},
    # The stats site's templates and static files travel in the wheel (a non-editable install
    # has no checkout to read them from).
    package_data={
        "unobot.web": ["templates/*.html", "static/*"],
        # Only the compiled catalogues: an install reads the .mo, a checkout its .po.
        "unobot": ["locale/*/LC_MESSAGES/*.mo"],
    },
    ext_modules=_extensions(),
)
