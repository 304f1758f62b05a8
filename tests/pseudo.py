"""A pseudo-language for finding text said without asking the catalogues.

Every translation in it is the English message in brackets (``⟦{nick} plays {card}⟧``): once
the bracketed parts of a line or a page are taken out, what is left was never looked up, so it
is English that no reader of another language would get translated. The tests of the bot's
lines (tests/core/test_i18n_games.py) and of the site's pages (tests/web/test_i18n_pages.py)
speak it.
"""

from __future__ import annotations

import gettext
import re

import pytest

import unobot.i18n as i18n

__all__ = ["PSEUDO", "Pseudo", "speak_pseudo", "unbracketed"]

PSEUDO = "xx"
_BRACKETED = re.compile(r"⟦[^⟦⟧]*⟧")


class Pseudo(gettext.NullTranslations):
    def gettext(self, message: str) -> str:
        return f"⟦{message}⟧"

    def ngettext(self, singular: str, plural: str, n: int) -> str:
        return f"⟦{singular if n == 1 else plural}⟧"


def speak_pseudo(monkeypatch: pytest.MonkeyPatch) -> None:
    """Make :data:`PSEUDO` a language the translations know, every catalogue :class:`Pseudo`."""
    real = i18n.catalog

    def catalog(lang: str, name: str) -> gettext.NullTranslations:
        return Pseudo() if lang == PSEUDO else real(lang, name)

    monkeypatch.setattr(i18n, "_KNOWN", i18n._KNOWN | {PSEUDO})
    monkeypatch.setitem(i18n.LANGUAGE_NAMES, PSEUDO, "Pseudo")
    monkeypatch.setattr(i18n, "catalog", catalog)


def unbracketed(text: str) -> str:
    """``text`` with every bracketed (looked up) part, nested ones too, made a space."""
    while True:
        inner = _BRACKETED.sub(" ", text)
        if inner == text:
            return text
        text = inner
