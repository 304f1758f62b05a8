"""Keeping the catalogues in step with the code: extract, update, compile, check (with Babel).

``python -m unobot.i18n update`` extracts every marked message and brings each language's
``.po`` up to date (new messages added untranslated, gone ones marked obsolete);
``python -m unobot.i18n compile`` writes the ``.mo`` files (setup.py does it when building);
``python -m unobot.i18n check`` says what is missing or stale, and fails if anything is.

Which domain a message belongs to is said once, in its module: the ``domain("game")`` (or
``plain("game")``) call that gives the module its ``_`` (a module that must not import the
translations, such as the rules engine's errors, says it in a comment:
``# translations: domain("commands")``).
Templates of the stats site are the ``web`` domain.
"""

from __future__ import annotations

import datetime
import io
import os
import re
from collections.abc import Iterator
from dataclasses import dataclass, field

from unobot.i18n import DEFAULT, DOMAINS, LANGUAGE_NAMES, LANGUAGES, LOCALE_DIR

__all__ = ["Problems", "check", "compile_all", "extract", "sources", "update"]

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
"""The ``unobot`` package folder."""
PLUGINS = os.path.join(os.path.dirname(ROOT), "plugins")
"""``plugins/`` in a checkout (installed, the plugins sit in ``unobot/plugins``)."""
KEYWORDS = {"_": None, "N_": None, "gettext": None, "ngettext": (1, 2)}
"""``gettext``: what Jinja's singular ``{% trans %}`` blocks call."""
_DOMAIN_CALL = re.compile(r"""\b(?:domain|plain)\(\s*["'](\w+)["']\s*\)""")
_EPOCH = datetime.datetime(2026, 11, 26, tzinfo=datetime.UTC)
PLACEHOLDER = re.compile(r"\{(\w*)(?:[!:][^}]*)?\}")
"""``{name}`` in Python's messages."""
PERCENT = re.compile(r"%\((\w+)\)[sd]")
_GENERATED_BY = re.compile(rb'^"Generated-By: [^"]*"\n', re.MULTILINE)
"""``%(name)s`` in the site's templates (Jinja's style)."""


def sources(name: str) -> Iterator[tuple[str, str]]:
    """``(path, method)`` of every file whose messages belong to domain ``name``."""
    folders = [ROOT] + ([PLUGINS] if os.path.isdir(PLUGINS) else [])
    for folder in folders:
        for base, dirs, files in os.walk(folder):
            dirs[:] = sorted(d for d in dirs if d not in ("__pycache__", "locale"))
            for entry in sorted(files):
                path = os.path.join(base, entry)
                if entry.endswith(".html") and os.sep + "templates" in base:
                    if name == "web":
                        yield path, "jinja2"
                elif entry.endswith(".py"):
                    with open(path, encoding="utf-8") as f:
                        found = _DOMAIN_CALL.search(f.read())
                    if found and found.group(1) == name:
                        yield path, "python"


def extract(name: str):  # -> babel.messages.catalog.Catalog
    """Every message of domain ``name`` in the code, as a Babel catalogue (the template)."""
    from babel.messages.catalog import Catalog
    from babel.messages.extract import extract_from_file

    # A fixed date: ``update`` rewrites a file only when a message changed.
    template = Catalog(project="unobot", domain=name, charset="utf-8", creation_date=_EPOCH,
                       revision_date=_EPOCH, fuzzy=False)  # fmt: skip
    for path, method in sources(name):
        method_ref = "jinja2.ext:babel_extract" if method == "jinja2" else "python"
        options = {"extensions": "jinja2.ext.i18n", "trimmed": "true"} if method == "jinja2" else {}
        for lineno, message, comments, context in extract_from_file(
            method_ref, path, keywords=KEYWORDS, options=options, strip_comment_tags=True
        ):
            where = os.path.relpath(path, os.path.dirname(ROOT))
            template.add(message, None, [(where, lineno)], auto_comments=comments, context=context)
    return template


def _po(lang: str, name: str) -> str:
    return os.path.join(LOCALE_DIR, lang, "LC_MESSAGES", name + ".po")


def _read(path: str, lang: str, name: str):
    from babel.messages.catalog import Catalog
    from babel.messages.pofile import read_po

    if not os.path.exists(path):
        return Catalog(locale=lang, domain=name, project="unobot", charset="utf-8")
    with open(path, "rb") as f:
        return read_po(f, locale=lang, domain=name)


def _write(path: str, catalog) -> None:
    from babel.messages.pofile import write_po

    os.makedirs(os.path.dirname(path), exist_ok=True)
    out = io.BytesIO()
    write_po(out, catalog, width=100, omit_header=False, ignore_obsolete=True,
             include_lineno=False, sort_output=True)  # fmt: skip
    # Babel writes its own version into the header: a translator's update with another Babel
    # would rewrite every file for nothing, so the files name no tool version.
    data = _GENERATED_BY.sub(b"", out.getvalue())
    if os.path.exists(path):
        with open(path, "rb") as f:
            if f.read() == data:
                return
    with open(path, "wb") as f:
        f.write(data)


def update(domains: tuple[str, ...] = DOMAINS) -> None:
    """Bring every language's ``.po`` of ``domains`` up to date with the code."""
    for name in domains:
        template = extract(name)
        _write(os.path.join(LOCALE_DIR, name + ".pot"), template)
        for lang in LANGUAGES:
            if lang == DEFAULT:
                continue
            path = _po(lang, name)
            catalog = _read(path, lang, name)
            catalog.update(template, no_fuzzy_matching=True)
            catalog.fuzzy = False
            catalog.revision_date = _EPOCH
            catalog.last_translator = "unobot contributors"
            catalog.language_team = LANGUAGE_NAMES[lang]
            _write(path, catalog)


def compile_all(target: str = LOCALE_DIR) -> list[str]:
    """Write each ``.po``'s ``.mo`` beside it under ``target`` (the build's copy or the
    checkout); returns the files written."""
    from babel.messages.mofile import write_mo
    from babel.messages.pofile import read_po

    written = []
    for lang in LANGUAGES:
        for name in DOMAINS:
            po = _po(lang, name)
            if not os.path.exists(po):
                continue
            with open(po, "rb") as f:
                catalog = read_po(f, locale=lang, domain=name)
            mo = os.path.join(target, lang, "LC_MESSAGES", name + ".mo")
            os.makedirs(os.path.dirname(mo), exist_ok=True)
            with open(mo, "wb") as f:
                write_mo(f, catalog)
            written.append(mo)
    return written


@dataclass
class Problems:
    """What :func:`check` found, by ``(lang, domain)``."""

    new: dict[str, list[str]] = field(default_factory=dict)
    """Messages in the code but not in the catalogue (``update`` not run)."""
    stale: dict[str, list[str]] = field(default_factory=dict)
    """Messages in the catalogue the code no longer has."""
    untranslated: dict[str, list[str]] = field(default_factory=dict)
    fuzzy: dict[str, list[str]] = field(default_factory=dict)
    placeholders: dict[str, list[str]] = field(default_factory=dict)
    """Translations whose ``{names}`` differ from the message id's."""

    def __bool__(self) -> bool:
        return any((self.new, self.stale, self.untranslated, self.fuzzy, self.placeholders))

    def report(self) -> str:
        lines = []
        for label, found in (("new (run update)", self.new), ("stale", self.stale),
                             ("untranslated", self.untranslated), ("fuzzy", self.fuzzy),
                             ("placeholders differ", self.placeholders)):  # fmt: skip
            for where, ids in sorted(found.items()):
                lines.append(f"{where}: {len(ids)} {label}")
                lines.extend(f"    {i!r}" for i in ids[:20])
        return "\n".join(lines)


def names(text: str) -> set[str]:
    """The ``{placeholders}`` (or a template's ``%(placeholders)s``) of a message."""
    text = text.replace("{{", "").replace("}}", "").replace("%%", "")
    found = [*PLACEHOLDER.finditer(text), *PERCENT.finditer(text)]
    return {m.group(1) for m in found}


def check(domains: tuple[str, ...] = DOMAINS, langs: tuple[str, ...] = LANGUAGES) -> Problems:
    """Every message of the code translated in every language, placeholders kept."""
    problems = Problems()
    for name in domains:
        wanted = {_key(m.id) for m in extract(name) if m.id}
        for lang in langs:
            if lang == DEFAULT:
                continue
            where = f"{lang}/{name}"
            catalog = _read(_po(lang, name), lang, name)
            have = {_key(m.id): m for m in catalog if m.id}
            if missing := sorted(str(k) for k in wanted - have.keys()):
                problems.new[where] = missing
            if gone := sorted(str(k) for k in have.keys() - wanted):
                problems.stale[where] = gone
            for key, message in have.items():
                if key not in wanted:
                    continue
                ids = message.id if isinstance(message.id, tuple) else (message.id,)
                strs = message.string if isinstance(message.string, tuple) else (message.string,)
                if not all(strs):
                    problems.untranslated.setdefault(where, []).append(str(ids[0]))
                    continue
                if message.fuzzy:
                    problems.fuzzy.setdefault(where, []).append(str(ids[0]))
                if not placeholders_kept(ids, strs):
                    problems.placeholders.setdefault(where, []).append(str(ids[0]))
    return problems


def _key(message_id: str | tuple[str, ...]) -> str:
    """A message's identity: its singular (a plural message is found by its first form)."""
    return message_id[0] if isinstance(message_id, tuple) else message_id


def placeholders_kept(ids: tuple[str, ...], strs: tuple[str, ...]) -> bool:
    """A translation uses exactly the message's ``{names}``; a plural form may leave out its
    count (``eine Karte``) but nothing else."""
    expected = set().union(*(names(i) for i in ids))
    if len(ids) == 1:
        return all(names(s) == expected for s in strs)
    return all(names(s) <= expected and expected - _COUNTS <= names(s) for s in strs)


_COUNTS = {"n", "num", "count"}
"""The count of a plural message (``n`` in Python's, ``num``/``count`` in Jinja's)."""
