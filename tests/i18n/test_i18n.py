"""The translation machinery: language choice, messages spoken again in another language, the
catalogues complete and up to date with the code, plural forms, the settings that choose."""

from __future__ import annotations

import functools
import gettext
import shutil
from pathlib import Path
from typing import ClassVar

import pytest

import unobot.i18n as i18n
from unobot.i18n import DOMAINS, LANGUAGES, Text, domain, normalize, speak, speaking
from unobot.i18n import catalogs as cats


@pytest.mark.parametrize(
    ("typed", "lang"),
    [("de", "de"), ("DE", "de"), ("de-AT", "de"), ("de_DE.UTF-8", "de"), ("pt-br", "pt_BR"),
     ("pt", "pt_BR"), ("pt_PT", "pt_BR"), ("polski", "pl"), ("Français", "fr"), ("en_US", "en"),
     ("it", "it"), ("es-419", "es"), ("xx", None), ("", None), ("d e", None), ("\x00", None)],
)  # fmt: skip
def test_normalize_reads_what_people_and_browsers_send(typed: str, lang: str | None) -> None:
    assert normalize(typed) == lang


def test_speaking_nests_and_falls_back_to_english() -> None:
    assert i18n.language() == "en"
    with speaking("de"):
        assert i18n.language() == "de"
        with speaking("pl"):
            assert i18n.language() == "pl"
        with speaking("klingon"):
            assert i18n.language() == "en"
        assert i18n.language() == "de"
    assert i18n.language() == "en"


class FakeCatalog(gettext.NullTranslations):
    """A tiny German catalogue (plural rule n != 1)."""

    WORDS: ClassVar[dict[str, str]] = {
        "{nick} picks {color}": "{nick} wählt {color}",
        "green": "Grün",
        "{broken}": "{gebrochen}",
    }

    def gettext(self, message: str) -> str:
        return self.WORDS.get(message, message)

    def ngettext(self, singular: str, plural: str, n: int) -> str:
        return "{n} Karte" if n == 1 else "{n} Karten"


@pytest.fixture
def fake_german(monkeypatch: pytest.MonkeyPatch) -> None:
    real = i18n.catalog

    def catalog(lang: str, name: str) -> gettext.NullTranslations:
        return FakeCatalog() if lang == "de" else real(lang, name)

    monkeypatch.setattr(i18n, "catalog", catalog)


def test_a_text_is_spoken_again_in_another_language_arguments_too(fake_german: None) -> None:
    _, ngettext = domain("game")
    with speaking("en"):
        said = _("{nick} picks {color}", nick="ann", color=_("green"))
    assert said == "ann picks green" and isinstance(said, Text) and said.lang == "en"
    assert said.speak("de") == "ann wählt Grün"
    assert said.speak("en") is said
    assert speak("plain", "de") == "plain"  # a str made by joining Texts stays as it is
    with speaking("de"):
        assert ngettext("{n} card", "{n} cards", 1) == "1 Karte"
        assert ngettext("{n} card", "{n} cards", 5) == "5 Karten"
    assert ngettext("{n} card", "{n} cards", 1) == "1 card"
    assert ngettext("{n} card", "{n} cards", 0) == "0 cards"


def test_a_translation_with_a_broken_placeholder_says_it_in_english(fake_german: None) -> None:
    _, _n = domain("game")
    with speaking("de"):
        assert _("{broken}", broken="ok") == "ok"


def test_an_unknown_domain_is_refused() -> None:
    with pytest.raises(ValueError):
        domain("nope")


def test_a_text_pickles_as_the_plain_string_it_is() -> None:
    import pickle

    _, _n = domain("game")
    assert pickle.loads(pickle.dumps(_("hello"))) == "hello"


# --- the catalogues ----------------------------------------------------------------------------


def test_every_message_is_translated_in_every_language_with_its_placeholders() -> None:
    """Extraction from the code finds nothing the catalogues lack (nothing stale either), and
    every message has a translation in all six languages keeping its ``{placeholders}``."""
    problems = cats.check()
    assert not problems, problems.report()


def _messages(path: Path) -> tuple[list[tuple[str, str]], list[tuple]]:
    """A ``.po``/``.pot`` as what it says: its header fields but the tool's version, and each
    message with its context, translation, places, flags and comments (not Babel's layout,
    which may change with its version)."""
    from babel.messages.pofile import read_po

    with path.open("rb") as f:
        catalog = read_po(f)
    header = [(k, v) for k, v in catalog.mime_headers if k != "Generated-By"]
    messages = [
        (m.id, m.context, m.string, sorted(m.locations), sorted(m.flags), m.auto_comments,
         m.user_comments)
        for m in catalog
        if m.id
    ]  # fmt: skip
    return header, messages


def test_the_catalogues_are_as_update_writes_them(tmp_path: Path, monkeypatch) -> None:
    """``python -m unobot.i18n update`` on the committed catalogues changes no message: none
    in the code is missing from them, none is stale, and nobody hand-edited one. Compared as
    messages, not bytes: whichever Babel a fresh install gets, the catalogues are the same."""
    copy = tmp_path / "locale"
    shutil.copytree(i18n.LOCALE_DIR, copy, ignore=shutil.ignore_patterns("*.mo"))
    monkeypatch.setattr(cats, "LOCALE_DIR", str(copy))
    cats.update()
    files = sorted(copy.rglob("*.po*"))
    assert len(files) == len(DOMAINS) * len(LANGUAGES)  # a .pot and 6 .po per domain
    for po in files:
        original = Path(i18n.LOCALE_DIR) / po.relative_to(copy)
        assert _messages(po) == _messages(original), f"{original} is not up to date"


def test_the_catalogues_name_no_tool_version() -> None:
    """The header says no Babel version: an update with another Babel rewrites nothing."""
    for po in sorted(Path(i18n.LOCALE_DIR).rglob("*.po*")):
        assert b"Generated-By" not in po.read_bytes(), po


extracted = functools.cache(cats.extract)


PLURAL_FORMS = {
    # n: the form each language uses (the index of msgstr[i]) at 0, 1, 2, 5, 22
    "de": [1, 0, 1, 1, 1],
    "es": [1, 0, 1, 1, 1],
    "it": [1, 0, 1, 1, 1],
    "pt_BR": [0, 0, 1, 1, 1],  # as French (CLDR, GNU gettext's pt_BR): "0 carta"
    "fr": [0, 0, 1, 1, 1],  # French: "0 carte"
    "pl": [2, 0, 1, 2, 1],  # 0 kart, 1 karta, 2 karty, 5 kart, 22 karty
}


@pytest.mark.parametrize("lang", LANGUAGES[1:])
def test_plural_forms_at_0_1_2_5_22(lang: str) -> None:
    """Each compiled catalogue picks the language's own plural form, and every plural message
    says the number wherever the language's form needs it."""
    for name in DOMAINS:
        cat = i18n.catalog(lang, name)
        plural = getattr(cat, "plural", None)
        if plural is None:  # a domain with no messages yet
            continue
        assert [plural(n) for n in (0, 1, 2, 5, 22)] == PLURAL_FORMS[lang], (lang, name)
    for name in DOMAINS:
        for message in extracted(name):
            if not isinstance(message.id, tuple):
                continue
            one, many = message.id
            if "{n}" not in many:
                continue
            _, ngettext = domain(name)
            params = {k: "x" for k in cats.names(one) | cats.names(many) if k != "n"}
            with speaking(lang):
                for n in (2, 5, 22):
                    said = ngettext(one, many, n, **params)
                    assert str(n) in said, (lang, message.id, n, said)


def test_the_plural_helper_in_english() -> None:
    _, ngettext = domain("game")
    assert [ngettext("{n} card", "{n} cards", n) for n in (0, 1, 2)] == [
        "0 cards",
        "1 card",
        "2 cards",
    ]


# --- the settings that choose ------------------------------------------------------------------


def test_languages_are_remembered_in_the_database(tmp_path: Path) -> None:
    from unobot.core.settings import DatabaseSettings

    url = f"sqlite:///{tmp_path / 'settings.db'}"
    store = DatabaseSettings(url)
    store.set_language("#uno", "de")
    store.set_language("$a:ann", "fr")
    store.set_language("bob", "pl")
    store.set_language("bob", None)
    store.close()
    again = DatabaseSettings(url)
    assert again.language("#uno") == "de" and again.language("$a:ann") == "fr"
    assert again.language("bob") is None
    *_, languages = again.load_all()
    assert languages == {"#uno": "de", "$a:ann": "fr"}
    again.close()


def test_background_settings_load_and_write_languages_through_the_worker(tmp_path: Path) -> None:
    from tests.stats.test_worker import Reactor
    from unobot.core.settings import BackgroundSettings, DatabaseSettings
    from unobot.stats.worker import DbWorker

    url = f"sqlite:///{tmp_path / 'settings.db'}"
    stored = DatabaseSettings(url)
    stored.set_language("#uno", "de")
    stored.close()
    reactor = Reactor()
    worker = DbWorker(reactor, timeout=1.0)
    settings = BackgroundSettings(lambda: DatabaseSettings(url, 1.0), worker)
    reactor.pump(until=lambda: settings.loaded)
    assert settings.language("#uno") == "de"
    settings.set_language("#uno", "it")
    settings.set_language("$a:ann", "pl")
    assert settings.language("#uno") == "it"  # at once, from memory
    reactor.pump(until=lambda: settings.pending == 0)
    settings.close()
    assert worker.close(2.0)
    again = DatabaseSettings(url)
    assert again.language("#uno") == "it" and again.language("$a:ann") == "pl"
    again.close()


def test_config_languages(tmp_path: Path) -> None:
    from tests.test_config import parse
    from unobot.config import ConfigError, load

    path = tmp_path / "unobot.toml"
    path.write_text(
        '[bot]\nlanguage = "pt-BR"\n[bot.channel_languages]\n"#UNO-de" = "de"\n"#pl" = "Polski"\n'
    )
    config = load(parse("--config", str(path)))
    assert config.bot.language == "pt_BR"
    assert dict(config.bot.channel_languages) == {"#uno-de": "de", "#pl": "pl"}
    assert load(parse()).bot.language == "en"
    path.write_text('[bot]\nlanguage = "klingon"\n')
    with pytest.raises(ConfigError, match="klingon"):
        load(parse("--config", str(path)))
