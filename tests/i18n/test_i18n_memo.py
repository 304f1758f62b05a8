"""The looked-up-once patterns (issue 39) say exactly what the catalogues say: for every
message of every domain in every language, through both kinds of functions, and again after a
test swaps the catalogues (a pseudo-language) and puts them back."""

from __future__ import annotations

import gettext

import pytest

import unobot.i18n as i18n
from unobot.i18n import DOMAINS, LANGUAGES, domain, plain, speaking
from unobot.i18n import catalogs as cats


@pytest.mark.parametrize("name", DOMAINS)
def test_every_message_is_what_the_catalogue_says_twice(name: str) -> None:
    fast, fast_n = plain(name)
    full, full_n = domain(name)
    for lang in LANGUAGES[1:]:
        cat = i18n.catalog(lang, name)
        with speaking(lang):
            for _round in range(2):  # the first fills the memo, the second reads it
                for message in cats.extract(name):
                    if isinstance(message.id, tuple):
                        singular, plural = message.id[:2]
                        for n in (0, 1, 2, 5, 22, 1_000_001):
                            want = cat.ngettext(singular, plural, n)
                            # a pattern with places other than {n}: compared unformatted
                            assert i18n._plural_pattern(name, lang, singular, plural, n) == want
                            if "{" not in want.replace("{n}", ""):
                                assert fast_n(singular, plural, n) == want.format(n=n)
                                assert full_n(singular, plural, n) == want.format(n=n)
                    else:
                        want = cat.gettext(message.id)
                        assert i18n._pattern(name, lang, message.id) == want
                        if "{" not in want:
                            assert fast(message.id) == want
                            assert full(message.id) == want


class Shouting(gettext.NullTranslations):
    def gettext(self, message: str) -> str:
        return message.upper()

    def ngettext(self, singular: str, plural: str, n: int) -> str:
        return "{n} KARTE" if n == 1 else "{n} KARTEN"


def test_swapped_catalogues_are_heard_and_the_real_ones_again_after(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    _, ngettext = plain("game")
    with speaking("de"):
        real = _("Top:")
        real_n = ngettext("{n} card", "{n} cards", 3)
        with monkeypatch.context() as m:
            m.setattr(i18n, "catalog", lambda lang, name: Shouting())
            assert _("Top:") == "TOP:"
            assert ngettext("{n} card", "{n} cards", 3) == "3 KARTEN"
        assert _("Top:") == real and real != "TOP:"
        assert ngettext("{n} card", "{n} cards", 3) == real_n
