"""The package's imports form a strict stack: no cycles, and no layer imports one above it.

Read from the source with :mod:`ast` (nothing is imported), counting every ``unobot`` import:
at the top, inside functions, and under ``TYPE_CHECKING`` (a type-only import upward is still
a layer that knows its caller). ``plugins/`` is read as ``unobot.plugins``, as it installs.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

LAYERS: tuple[tuple[str, ...], ...] = (
    ("unobot", "unobot.build_mode", "unobot._build_hashes"),
    ("unobot.engine",),  # the rules, pure: imports nothing of ours but itself
    ("unobot.ai",),  # computer players' strategies, on the engine alone
    ("unobot.tournament",),  # tournament formats and state, pure like the engine
    ("unobot.irc",),  # the transport contract, casemap, outbox, adapter: knows no Uno
    ("unobot.stats",),  # the stats store (the recorder, below, is the exception)
    ("unobot.tournament.store", "unobot.tournament.export", "unobot.tournament.simulate"),
    # tournaments in the database (simulate: made-up ones written as the director would)
    ("unobot.core",),  # tables, bot, plugin API, dispatch, rendering, computer seats
    ("unobot.stats.recorder", "unobot.stats.live"),  # read the tables' updates into the store
    ("unobot.tournament.director",),  # runs tournaments' games at tables
    ("unobot.replay",),  # recorded games replayed from their journals, as the channel saw them
    ("unobot.plugins",),  # command plugins: the core never imports them, it loads them by name
    ("unobot.config", "unobot.terminal"),
    ("unobot.web",),  # the read-only stats site
    ("unobot.main",),  # the composition root: builds stores, recorder, plugins, adapter, bot
    ("unobot.bench", "unobot.stats.example"),  # tools: benchmarks, the example store
)
"""Bottom first. A module belongs to the layer of its longest matching prefix."""


def module_files() -> dict[str, Path]:
    files: dict[str, Path] = {}
    for path in sorted((ROOT / "unobot").rglob("*.py")):
        parts = path.relative_to(ROOT).with_suffix("").parts
        files[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    for path in sorted((ROOT / "plugins").glob("*.py")):
        name = "unobot.plugins" if path.stem == "__init__" else f"unobot.plugins.{path.stem}"
        files[name] = path
    return files


def imports_of(name: str, path: Path, known: set[str]) -> set[str]:
    """The package's modules that ``name`` imports (``from a import b`` is ``a.b`` when that is
    a module, else ``a``)."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parent = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*parent, *([base] if base else [])])
            for alias in node.names:
                sub = f"{base}.{alias.name}"
                found.add(sub if sub in known else base)
    return {m for m in found if m in known and m != name}


def graph() -> dict[str, set[str]]:
    files = module_files()
    known = set(files)
    return {name: imports_of(name, path, known) for name, path in files.items()}


def cycles(edges: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components of more than one module (Tarjan), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(edges.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for v in sorted(edges):
        if v not in index:
            visit(v)
    return found


def layer_of(module: str) -> int:
    best, layer = -1, -1
    for i, prefixes in enumerate(LAYERS):
        for prefix in prefixes:
            if (module == prefix or module.startswith(prefix + ".")) and len(prefix) > best:
                best, layer = len(prefix), i
    return layer


def test_the_package_has_no_import_cycle() -> None:
    assert cycles(graph()) == []


def test_no_layer_imports_a_layer_above_it() -> None:
    upward = [
        f"{module} (layer {layer_of(module)}) imports {target} (layer {layer_of(target)})"
        for module, targets in sorted(graph().items())
        for target in sorted(targets)
        if layer_of(target) > layer_of(module)
    ]
    assert upward == []


def test_every_module_has_a_layer_and_the_graph_is_read() -> None:
    edges = graph()
    assert all(layer_of(m) >= 0 for m in edges), [m for m in edges if layer_of(m) < 0]
    # The reader sees real edges: the bot imports the table, a plugin the plugin API.
    assert "unobot.core.table" in edges["unobot.core.bot"]
    assert "unobot.core.plugin" in edges["unobot.plugins.uno_game"]
    assert "unobot.core.table" in edges["unobot.stats.recorder"]


@pytest.mark.parametrize(
    ("edges", "expected"),
    [
        ({"a": {"b"}, "b": {"c"}, "c": set()}, []),
        ({"a": {"b"}, "b": {"a"}}, [["a", "b"]]),
        ({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}, [["a", "b", "c"]]),
    ],
)
def test_the_cycle_finder_finds_cycles(
    edges: dict[str, set[str]], expected: list[list[str]]
) -> None:
    assert cycles(edges) == expected


def test_a_type_only_or_function_level_import_counts(tmp_path: Path) -> None:
    source = tmp_path / "m.py"
    source.write_text(
        "from typing import TYPE_CHECKING\n"
        "if TYPE_CHECKING:\n    from unobot.core.bot import Bot\n"
        "def f():\n    from unobot.irc import casemap\n    import unobot.engine\n"
    )
    known = {"unobot.core.bot", "unobot.irc", "unobot.irc.casemap", "unobot.engine"}
    found = imports_of("unobot.x", source, known)
    assert found == {"unobot.core.bot", "unobot.irc.casemap", "unobot.engine"}
