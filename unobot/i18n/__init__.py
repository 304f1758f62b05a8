"""Translations: everything the bot and the site say, in the channel's or the person's language.

The standard machinery (GNU gettext catalogues, Babel to extract, update and compile them): the
English text in the code is the message id; ``unobot/locale/<lang>/LC_MESSAGES/<domain>.po``
holds each language, compiled to ``.mo`` when the package is built (setup.py), so a wheel install
carries them. Each part of the program has its own catalogue (a *domain*: ``game``,
``commands``, ``stats``, ``tournament``, ``web``, ``terminal``) so that translating one part never
touches another's file.

Which language? The one *being spoken*: a context variable the bot sets around each piece of
work (:func:`speaking`): the channel's language while it renders a channel's lines, the person's
while it renders their hand. A module marks its messages with its domain's functions::

    from unobot.i18n import domain
    _, ngettext = domain("game")

    _("{nick} plays {card}", nick=nick, card=card)          # a whole sentence, named places
    ngettext("{n} card", "{n} cards", n)                     # ``n`` is filled in for you

Both return a :class:`Text`: a ``str`` in the language being spoken that also remembers its
message id and arguments, so that a reply rendered in the channel's language can be spoken again
in the language of the person it is finally sent to (:meth:`Text.speak`), arguments included.
A ``str`` built by joining Texts is just a ``str``: it stays in the language it was made in.

What players type never changes (commands, card notation): only prose is translated.
"""

from __future__ import annotations

import functools
import gettext
import io
import logging
import os
from collections.abc import Callable, Mapping
from contextvars import ContextVar, Token
from typing import Any

__all__ = [
    "DEFAULT",
    "DOMAINS",
    "LANGUAGES",
    "LANGUAGE_NAMES",
    "N_",
    "Text",
    "catalog",
    "domain",
    "language",
    "normalize",
    "plain",
    "speak",
    "speaking",
]

log = logging.getLogger(__name__)

DEFAULT = "en"
LANGUAGES: tuple[str, ...] = ("en", "de", "fr", "es", "pt_BR", "it", "pl")
"""Every shipped language; English is the source, the others have complete catalogues."""
LANGUAGE_NAMES: dict[str, str] = {
    "en": "English",
    "de": "Deutsch",
    "fr": "Français",
    "es": "Español",
    "pt_BR": "Português (Brasil)",
    "it": "Italiano",
    "pl": "Polski",
}
"""Each language in its own words (``.unolang`` lists them, the site's switch shows them)."""
DOMAINS: tuple[str, ...] = ("game", "commands", "stats", "tournament", "web", "terminal")
LOCALE_DIR = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "locale")
"""``unobot/locale``: the ``.po`` sources and (after a build) their compiled ``.mo``."""

_current: ContextVar[str] = ContextVar("unobot_language", default=DEFAULT)

_ALIASES = {
    "pt": "pt_BR",
    "br": "pt_BR",
    "ptbr": "pt_BR",
    "pt_br": "pt_BR",
    "english": "en",
    "deutsch": "de",
    "german": "de",
    "francais": "fr",
    "français": "fr",
    "french": "fr",
    "espanol": "es",
    "español": "es",
    "spanish": "es",
    "portugues": "pt_BR",
    "português": "pt_BR",
    "portuguese": "pt_BR",
    "italiano": "it",
    "italian": "it",
    "polski": "pl",
    "polish": "pl",
}


def normalize(code: str | None) -> str | None:
    """A shipped language for what a person typed or a browser sent (``de``, ``DE``,
    ``de-AT``, ``pt-br``, ``pt``, ``polski``), or None when none matches."""
    if not code:
        return None
    text = code.strip().replace("-", "_")
    lowered = text.lower()
    if lowered in _ALIASES:
        return _ALIASES[lowered]
    for lang in LANGUAGES:
        if lowered == lang.lower():
            return lang
    base = lowered.split("_", 1)[0]
    if base in _ALIASES:
        return _ALIASES[base]
    return base if base in LANGUAGES else None


def language() -> str:
    """The language being spoken now."""
    return _current.get()


class speaking:  # a class named as the function it is used as: ``with speaking("de"):``
    """Speak ``lang`` (None or unknown: the default) inside the block.

    A class, not a generator context manager: the bot enters one around every command, every
    update and every hand, and this costs a third of what ``contextlib`` does."""

    __slots__ = ("_token", "lang")

    _token: Token[str] | None

    def __init__(self, lang: str | None) -> None:
        self.lang = lang if lang in _KNOWN else (normalize(lang) or DEFAULT)

    def __enter__(self) -> str:
        # Already spoken (a channel's update inside a command said there): nothing to set.
        self._token = None if _current.get() == self.lang else _current.set(self.lang)
        return self.lang

    def __exit__(self, *exc: object) -> None:
        if self._token is not None:
            _current.reset(self._token)


_KNOWN = frozenset(LANGUAGES)


# --- catalogues --------------------------------------------------------------------------------


def _po_path(lang: str, name: str) -> str:
    return os.path.join(LOCALE_DIR, lang, "LC_MESSAGES", name + ".po")


@functools.cache
def catalog(lang: str, name: str) -> gettext.NullTranslations:
    """The compiled catalogue of domain ``name`` in ``lang`` (English: none needed).

    A built package has ``.mo`` files. A checkout whose ``.po`` is newer than its ``.mo`` (a
    translator's edit, no rebuild yet) compiles the ``.po`` in memory with Babel when Babel is
    there, so an edit is seen at the next start without a reinstall."""
    if lang == DEFAULT:
        return gettext.NullTranslations()
    po = _po_path(lang, name)
    mo = po[:-3] + ".mo"
    po_time = os.path.getmtime(po) if os.path.exists(po) else None
    mo_time = os.path.getmtime(mo) if os.path.exists(mo) else None
    if po_time is not None and (mo_time is None or po_time > mo_time):
        compiled = _compile_in_memory(po)
        if compiled is not None:
            return gettext.GNUTranslations(io.BytesIO(compiled))
    if mo_time is not None:
        with open(mo, "rb") as f:
            return gettext.GNUTranslations(f)
    log.warning("no %s catalogue for %s: English is used", name, lang)
    return gettext.NullTranslations()


def _compile_in_memory(po: str) -> bytes | None:
    try:
        from babel.messages.mofile import write_mo
        from babel.messages.pofile import read_po
    except ImportError:
        return None
    with open(po, "rb") as f:
        parsed = read_po(f)
    out = io.BytesIO()
    write_mo(out, parsed)
    return out.getvalue()


# --- what each message is in each language, looked up once -------------------------------------
#
# A line's pieces are looked up in the catalogues many times a command (gettext's own lookup is
# a Python method with a fallback chain and, for plurals, a call of the plural formula). The
# answer never changes while the catalogues don't, so each (domain, language) keeps a dict of
# message id -> pattern, filled on first use. A test that swaps :func:`catalog` (a
# pseudo-language) empties them: the fast paths check that ``catalog`` is the one they filled
# from.

_memo_source: object = None
_MEMO_N = 1000
"""Plural forms are kept for counts below this (cards, points of a hand): a count of games
or points in the millions is looked up each time rather than kept forever."""
_MEMO_SIZE = 20_000
"""At most this many kept per (domain, language): the ids are the program's messages (a few
hundred a domain), but a caller that passed text it didn't write must not grow them forever."""
_memos: dict[tuple[str, str], dict[Any, str]] = {}


def _memo(name: str, lang: str) -> dict[Any, str]:
    """The message -> pattern dict of ``name`` in ``lang`` (a new one if the catalogues were
    swapped since the last was made)."""
    global _memo_source
    if _memo_source is not catalog:
        _memos.clear()
        _memo_source = catalog
    found = _memos.get((name, lang))
    if found is None:
        found = _memos[(name, lang)] = {}
    return found


def _pattern(name: str, lang: str, message: str) -> str:
    """``message`` of domain ``name`` in ``lang``: what ``catalog(lang, name).gettext`` says."""
    memo = _memos.get((name, lang)) if _memo_source is catalog else None
    if memo is None:
        memo = _memo(name, lang)
    found = memo.get(message)
    if found is None:
        found = catalog(lang, name).gettext(message)
        if len(memo) < _MEMO_SIZE:
            memo[message] = found
    return found


def _plural_pattern(name: str, lang: str, singular: str, plural: str, n: int) -> str:
    """What ``catalog(lang, name).ngettext(singular, plural, n)`` says, looked up once per
    (message, n)."""
    memo = _memo(name, lang)
    key = (singular, n)  # a message id is its singular (gettext's own key: (msgid, form))
    found = memo.get(key)
    if found is None:
        found = catalog(lang, name).ngettext(singular, plural, n)
        if 0 <= n < _MEMO_N and len(memo) < _MEMO_SIZE:
            memo[key] = found
    return found


# --- messages ----------------------------------------------------------------------------------


class Text(str):
    """A translated message: the text in the language it was made in, plus how to make it in
    another (:meth:`speak`). Behaves as the ``str`` it is everywhere else."""

    __slots__ = ("_how", "lang")

    _how: tuple[str, str, str | None, int, Mapping[str, Any]]
    lang: str

    def speak(self, lang: str) -> str:
        """This message in ``lang`` (itself when already in it)."""
        if lang == self.lang:
            return self
        name, singular, plural, n, params = self._how
        return _render(lang, name, singular, plural, n, params)

    def __reduce__(self) -> tuple[type[str], tuple[str]]:  # pickles and copies as plain str
        return (str, (str(self),))


def speak(text: str, lang: str) -> str:
    """``text`` in ``lang``: a :class:`Text` is spoken again, a plain ``str`` stays as it is."""
    return text.speak(lang) if isinstance(text, Text) else text


def _render(
    lang: str,
    name: str,
    singular: str,
    plural: str | None,
    n: int,
    params: Mapping[str, Any],
) -> Text:
    # Every line the bot sends passes here several times: kept to a few dict lookups.
    if lang == DEFAULT:
        pattern = singular if plural is None or n == 1 else plural
    elif plural is None:
        pattern = _pattern(name, lang, singular)
    else:
        pattern = _plural_pattern(name, lang, singular, plural, n)
    if params:
        values = params
        for value in params.values():
            if isinstance(value, Text) and value.lang != lang:  # a part made in another
                values = {
                    k: (v.speak(lang) if isinstance(v, Text) else v) for k, v in params.items()
                }
                break
        try:
            said = pattern.format_map(values)
        except (KeyError, IndexError, ValueError, AttributeError):
            # A translation with a broken placeholder must not lose the line: say it in English.
            log.warning("bad %s translation of %r in %s", name, singular, lang)
            said = (singular if plural is None or n == 1 else plural).format_map(values)
            lang = DEFAULT
    else:
        said = pattern
    text = _new_text(Text, said)
    text.lang = lang
    text._how = (name, singular, plural, n, params)
    return text


_new_text = str.__new__


def N_(message: str) -> str:
    """Marks a constant for extraction, translated later where it is used (``_(CONST)``)."""
    return message


def plain(name: str) -> tuple[Callable[..., str], Callable[..., str]]:
    """``(_, ngettext)`` like :func:`domain`'s, returning a plain ``str``: for a module that
    only builds pieces of longer lines in the language being spoken (the table's lines, a
    hand), which nobody says again in another. Saves making a :class:`Text` for each piece:
    a few of them go into every line the bot sends. Its arguments are taken as they are: one
    that may be a :class:`Text` made in another language (a reason the table wrote on a
    timer) is :func:`speak`-ed by the caller first."""
    if name not in DOMAINS:
        raise ValueError(f"unknown translation domain {name!r}")

    memos: dict[str, dict[Any, str]] = {}  # this domain's :func:`_memo` by language
    source: list[object] = [None]  # the ``catalog`` they were filled from

    def lookup(lang: str) -> dict[Any, str]:
        if source[0] is not catalog:
            memos.clear()
            source[0] = catalog
        found = memos.get(lang)
        if found is None:
            found = memos[lang] = _memo(name, lang)
        return found

    def gettext_(message: str, /, **params: Any) -> str:
        lang = _current.get()
        if lang == DEFAULT:
            pattern = message
        else:
            memo = memos.get(lang) if source[0] is catalog else None
            if memo is None:
                memo = lookup(lang)
            pattern = memo.get(message)  # type: ignore[assignment]
            if pattern is None:
                pattern = catalog(lang, name).gettext(message)
                if len(memo) < _MEMO_SIZE:
                    memo[message] = pattern
        if not params:
            return pattern
        try:
            return pattern.format_map(params)
        except (KeyError, IndexError, ValueError, AttributeError):
            return _render(lang, name, message, None, 1, params)  # says it in English

    def ngettext_(singular: str, plural: str, n: int, /, **params: Any) -> str:
        params.setdefault("n", n)
        lang = _current.get()
        if lang == DEFAULT:
            pattern = singular if n == 1 else plural
        else:
            memo = memos.get(lang) if source[0] is catalog else None
            if memo is None:
                memo = lookup(lang)
            key = (singular, n)
            pattern = memo.get(key)  # type: ignore[assignment]
            if pattern is None:
                pattern = catalog(lang, name).ngettext(singular, plural, n)
                if 0 <= n < _MEMO_N and len(memo) < _MEMO_SIZE:
                    memo[key] = pattern
        try:
            return pattern.format_map(params)
        except (KeyError, IndexError, ValueError, AttributeError):
            return _render(lang, name, singular, plural, n, params)

    return gettext_, ngettext_


def domain(name: str) -> tuple[Callable[..., Text], Callable[..., Text]]:
    """``(_, ngettext)`` for a module of domain ``name``: each renders in :func:`language`."""
    if name not in DOMAINS:
        raise ValueError(f"unknown translation domain {name!r}")

    def gettext_(message: str, /, **params: Any) -> Text:
        lang = _current.get()
        if lang == DEFAULT and not params:  # the commonest case, the shortest way
            text = _new_text(Text, message)
            text.lang = lang
            text._how = (name, message, None, 1, params)
            return text
        return _render(lang, name, message, None, 1, params)

    def ngettext_(singular: str, plural: str, n: int, /, **params: Any) -> Text:
        params.setdefault("n", n)
        return _render(_current.get(), name, singular, plural, n, params)

    return gettext_, ngettext_
