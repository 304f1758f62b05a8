"""Every refusal the table layer and the plugins raise can be said in the reader's language.

Issue 38: the table answered ``.challenge`` with a refusal of its own, a bare English string
no catalogue held, so every language read it in English. Here the source of ``unobot/core``
and ``plugins/`` is read (:mod:`ast`, nothing imported) for every refusal raised with its
text written out: an error of the engine's family (``UnoError``, ``CannotChallenge``, any
subclass of ``Explained``) given a string literal or an f-string. Its text must be marked for
translation (``_("...")``, ``N_("...")``) or be a message id of the ``commands`` catalogue,
which is where the dispatcher looks up an engine error's text.
"""

from __future__ import annotations

import ast
import inspect
from pathlib import Path

import pytest

from unobot.engine import errors
from unobot.i18n import catalogs

ROOT = Path(__file__).resolve().parents[2]
SCANNED = [
    *sorted((ROOT / "unobot" / "core").rglob("*.py")),
    *sorted((ROOT / "plugins").glob("*.py")),
]

REFUSALS = frozenset(
    name
    for name, value in vars(errors).items()
    if inspect.isclass(value) and issubclass(value, errors.Explained)
)
"""The engine's error classes: what the dispatcher answers a player with (``refusal``)."""

NEVER_SHOWN = {
    ("unobot/core/computers.py", "unknown action {action!r}"): (
        "a computer seat's move of no known kind: computer seats are told no refusals, and a "
        "refused move is replaced by a legal one"
    ),
}
"""Literal refusals no person can read, each with why."""


def _called(node: ast.Call) -> str:
    func = node.func
    if isinstance(func, ast.Name):
        return func.id
    if isinstance(func, ast.Attribute):
        return func.attr
    return ""


def _text(node: ast.expr) -> str | None:
    """The literal text of a refusal's first argument (an f-string as its source), or None
    when it is marked for translation or is not written out here."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.JoinedStr):
        return ast.unparse(node)[2:-1]
    return None


def literal_refusals() -> list[tuple[str, int, str]]:
    """(file, line, text) of every refusal raised with its text written out."""
    found = []
    for path in SCANNED:
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and _called(node) in REFUSALS and node.args:
                text = _text(node.args[0])
                if text is not None:
                    found.append((path.relative_to(ROOT).as_posix(), node.lineno, text))
    return found


def test_every_refusal_with_its_text_written_out_is_in_the_catalogue() -> None:
    ids = {m.id for m in catalogs.extract("commands") if m.id}
    missing = [
        f"{where}:{line}: {text!r}"
        for where, line, text in literal_refusals()
        if text not in ids and (where, text) not in NEVER_SHOWN
    ]
    assert not missing, "refusals that reach every language in English:\n" + "\n".join(missing)


def test_the_scan_finds_a_bare_refusal(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The workaround issue 38 removed would have been found."""
    bad = tmp_path / "table.py"
    bad.write_text(
        "from unobot.engine import errors\n"
        "def challenge():\n"
        "    raise errors.CannotChallenge(\n"
        '        "whoever played that WD4 has left: nobody to challenge")\n'
        "def fine():\n"
        '    raise errors.CannotSwap(_("Seven-O is not played here: hands are never swapped"))\n',
        encoding="utf-8",
    )
    monkeypatch.setitem(globals(), "ROOT", tmp_path)
    monkeypatch.setitem(globals(), "SCANNED", [bad])
    assert literal_refusals() == [
        ("table.py", 3, "whoever played that WD4 has left: nobody to challenge")
    ]
