"""Replies to commands, refusals and help in every shipped language (issue 31, domain
``commands``): driven through the bot core with the plugin fakes, the channel's language set.

What is checked: no English sentence of the ``commands`` catalogue reaches a German, French …
player (a fragment of a message id that its own translation does not keep); placeholders
filled; cards named in prose by the glossary; ``.unohelp`` three lines of at most 400 bytes
listing every command; plural forms; ``.unolang`` end to end, kept across a restart in SQLite.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from plugins.uno_game import help_lines, rating_explained
from tests.core.fakes import Harness, Sent, channel_lines, notices
from tests.stats.test_worker import Reactor
from unobot.core.bot import Bot
from unobot.core.dispatch import CommandThrottle
from unobot.core.refusals import card_prose
from unobot.core.render_irc import LIMIT
from unobot.core.settings import BackgroundSettings, DatabaseSettings
from unobot.engine.cards import Card
from unobot.engine.errors import CardNotInHand, card_name
from unobot.i18n import DEFAULT, LANGUAGES, catalog, speaking
from unobot.i18n.catalogs import PLACEHOLDER, check, extract
from unobot.stats.ratings import EXPLAINED
from unobot.stats.worker import DbWorker

FOREIGN = [lang for lang in LANGUAGES if lang != DEFAULT]
LONG = "N" * 30
"""A nick as long as networks allow (NICKLEN 30): lines must fit with it."""
COLOURS = {
    "de": ("Rot", "Gelb", "Grün", "Blau"),
    "fr": ("rouge", "jaune", "vert", "bleu"),
    "es": ("rojo", "amarillo", "verde", "azul"),
    "pt_BR": ("vermelho", "amarelo", "verde", "azul"),
    "it": ("rosso", "giallo", "verde", "blu"),
    "pl": ("czerwonym", "żółtym", "zielonym", "niebieskim"),
}


def _fragments(message_id: str) -> list[str]:
    """The English prose of a message id: its runs between placeholders of three words or more."""
    return [p.strip() for p in PLACEHOLDER.split(message_id) if len(p.strip().split()) >= 3]


_IDS = [m.id for m in extract("commands") if m.id]


def english_leaks(lines: list[str], lang: str) -> list[tuple[str, str]]:
    """(fragment, line) for every English fragment of the ``commands`` catalogue found in
    ``lines`` that the message's own translation in ``lang`` does not contain too (commands
    and option names such as ``stacking same`` are the same in every language)."""
    cat = catalog(lang, "commands")
    found = []
    for message_id in _IDS:
        ids = message_id if isinstance(message_id, tuple) else (message_id,)
        translated = (
            cat.ngettext(ids[0], ids[1], 1) + cat.ngettext(ids[0], ids[1], 5)
            if len(ids) > 1
            else cat.gettext(ids[0])
        )
        for english in ids:
            for fragment in _fragments(english):
                if fragment in translated:
                    continue
                found += [(fragment, line) for line in lines if fragment in line]
    return found


def _texts(sent: list[Sent]) -> list[str]:
    return [s.text for s in sent]


def _assert_clean(lines: list[str], lang: str) -> None:
    assert not english_leaks(lines, lang)
    for line in lines:
        assert len(line.encode()) <= LIMIT, line
        assert not re.search(r"\{\w*\}", line), line  # every placeholder filled
        assert "\r" not in line and "\n" not in line


def _channel(lang: str) -> Harness:
    """A bot whose ``#uno`` speaks ``lang``, with command budgets wide enough for a test that
    asks many things in a row (the budgets are tested elsewhere)."""
    h = Harness()
    h.bot.dispatcher.throttle = CommandThrottle(1000, channel_burst=1000, global_burst=1000)
    h.bot.settings.set_language("#uno", lang)
    return h


def _current(h: Harness) -> str:
    table = h.bot.tables["#uno"]
    return table.players[table.game.current].nick


@pytest.mark.parametrize("lang", FOREIGN)
def test_replies_and_refusals_before_a_game(lang: str) -> None:
    h = _channel(lang)
    out: list[Sent] = []
    for text in (".join", ".p r 5", ".cards", ".top", ".unostop", ".team", ".pce-off",
                 ".pce-on", ".unohand", ".unohand on", ".unohand off", ".unohand maybe",
                 ".unohand query", ".unohand off", ".unohand on notice",
                 ".unorules", ".unorules list", ".unorules set stacking", ".unorules bogus",
                 ".unorules preset", ".unolang", ".unolang me", ".unolang xx"):  # fmt: skip
        out += h.say(LONG, text)
    for text in (".unorules preset nope", ".unorules set stackin same",
                 ".unorules set stacking sometimes", ".unorules set hand_size 99",
                 ".unorules set jump_in lots", ".unorules set uno_penalty 77"):  # fmt: skip
        out += h.say("op", text, is_op=True)
    h.say("alice", ".uno")
    for text in (".uno", ".deal 5x", ".team", ".unorules set stacking same", ".addbot"):
        out += h.say(LONG, text, is_op=True)
    lines = [s.text for s in out if s.kind == "notice" or s.target == LONG]  # query: PRIVMSG
    assert len(lines) >= 30
    _assert_clean(lines, lang)
    with speaking(lang):  # a rule option's own refusal, from the engine, translated
        assert any("stacking" in line and "same" in line for line in lines)


@pytest.mark.parametrize("lang", FOREIGN)
def test_refusals_during_a_game(lang: str) -> None:
    h = _channel(lang)
    h.start(["alice", "bob"])
    current = _current(h)
    other = "bob" if current == "alice" else "alice"
    table = h.bot.tables["#uno"]
    hand = set(table.hand_of(current))
    missing = next(
        c for c in map(Card.parse, ("R9", "GS", "YR", "BD2", "R1", "G2")) if c not in hand
    )
    out: list[Sent] = []
    for nick, text in ((current, ".p zz"), (current, ".p r"), (current, ".p r 5x"),
                       (current, f".p {missing.text}"), (other, ".p r 5"), (current, ".swap"),
                       (current, ".catch"), (current, ".catch nobody"), (current, ".challenge"),
                       (current, ".pass"), (current, ".unocall"), (current, ".color g"),
                       (other, ".unostop"), (current, ".uno"), (current, ".cards"),
                       (current, ".top"), (current, ".deal")):  # fmt: skip
        out += h.say(nick, text)
    lines = [s.text for s in out if s.kind == "notice"]
    _assert_clean(lines, lang)
    with speaking(lang):
        assert f"{current}" in " ".join(lines)  # "it is alice's turn", translated
        prose = card_prose(missing)
        assert prose != card_name(missing) and any(prose in line for line in lines)
    colour = COLOURS[lang][int(missing.color)]
    assert any(colour in line for line in lines), (colour, lines)


@pytest.mark.parametrize("lang", FOREIGN)
def test_private_refusals_in_the_person_language(lang: str) -> None:
    """The channel is German (or Polish): one player who asked for ``lang`` hears their
    refusals in it, the others in the channel's."""
    h = _channel("pl" if lang == "de" else "de")
    h.bot.settings.set_language("bob", lang)
    h.start(["alice", "bob"])
    current = _current(h)
    other = "bob" if current == "alice" else "alice"
    told = notices(h.say(other, ".p zz"), other)
    with speaking(lang if other == "bob" else h.bot.channel_language("#uno")):
        expected = _refusal_text(
            "'{text}' is not a card: e.g. r 5, g s, b d2, w g, wd4 b", text="zz"
        )
    assert told == [expected]


def _refusal_text(message_id: str, **params: object) -> str:
    from unobot.core.refusals import _

    return _(message_id, **params)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_help_is_three_lines_listing_every_command(lang: str) -> None:
    h = _channel(lang)
    out = [s.text for s in h.say(LONG, ".unohelp")]
    assert len(out) == 3
    text = " ".join(out)
    # .unoadmin is told where its code is, on the bot's console (the start banner), and is of
    # use to that one person: the three lines for everybody keep their room.
    shown_as = {"play": ".p ", "uno-help": "", "unoadmin": ""}
    for name in h.bot.commands():
        assert shown_as.get(name, f".{name}") in text, (lang, name)
    # Room on every line for one more entry, as the English help keeps.
    assert all(
        len(t.encode()) + len(" .unohand on|off: your hand on your turn.") <= LIMIT for t in out
    ), [len(t.encode()) for t in out]
    if lang != DEFAULT:
        _assert_clean(out, lang)


def test_the_help_says_the_ratings_sentence_of_the_stats() -> None:
    for n in (1, 5):
        assert rating_explained(n) == EXPLAINED.format(min_games=n).replace("1 games", "1 game")
    assert help_lines(".", 5)[2].endswith(EXPLAINED.format(min_games=5))


@pytest.mark.parametrize(
    ("lang", "words"),
    [
        ("pl", ["0 gier", "1 grę", "2 gry", "5 gier", "22 gry"]),
        ("de", ["0 Spiele", "1 Spiel ", "2 Spiele", "5 Spiele", "22 Spiele"]),
        ("fr", ["0 partie", "1 partie.", "2 parties", "5 parties", "22 parties"]),
        ("en", ["0 games", "1 game.", "2 games", "5 games", "22 games"]),
    ],
)
def test_plural_forms(lang: str, words: list[str]) -> None:
    with speaking(lang):
        said = [rating_explained(n) for n in (0, 1, 2, 5, 22)]
    for text, word in zip(said, words, strict=True):
        assert word in text, (text, word)


def test_engine_errors_keep_english_and_carry_their_ids() -> None:
    err = CardNotInHand(Card.parse("BS"))
    assert str(err) == "you have no Blue Skip"
    assert err.message_id == "you have no {card}"
    with speaking("de"):
        assert _refusal_text(err.message_id, card=card_prose(Card.parse("BS"))) == (
            "du hast keine Karte Blau Aussetzen"
        )
    with speaking("fr"):
        assert card_prose(Card.parse("WD4")) == "Super Joker +4"
        assert card_prose(Card.parse("R9")) == "9 rouge"


def test_catalogues_complete() -> None:
    problems = check(("commands",))
    assert not problems, problems.report()


# --- .unolang end to end ---------------------------------------------------------------------


def _unolang_story(h: Harness) -> None:
    """The channel operator sets German; bob wants French for himself."""
    refused = notices(h.say("bob", ".unolang fr"), "bob")
    assert refused == [
        "only a channel operator or a bot admin can change the channel's language; "
        ".unolang me <code> changes yours"
    ]
    said = channel_lines(h.say("alice", ".unolang de", is_op=True))
    assert said == ["alice hat die Sprache hier festgelegt: Deutsch."]
    assert notices(h.say("bob", ".unolang me fr"), "bob") == [
        "Ce qui t'est envoyé en privé est maintenant en Français."
    ]


def test_unolang_through_the_bot() -> None:
    h = Harness()
    _unolang_story(h)
    assert h.bot.channel_language("#uno") == "de"
    # Refusals: bob in French, alice in German, the channel stays German.
    assert notices(h.say("bob", ".p r 5"), "bob") == ["aucune partie d'Uno n'est en cours ici"]
    assert notices(h.say("alice", ".p r 5"), "alice") == ["hier wird gerade kein Uno gespielt"]
    h.say("alice", ".uno")
    h.say("bob", ".join")
    h.say("alice", ".deal")
    assert h.bot.person_language("bob", "#uno") == "fr"
    assert h.bot.person_language("alice", "#uno") == "de"
    help_bob = _texts(h.say("bob", ".unohelp"))
    assert help_bob[0].startswith("Uno: .uno [teams] ouvre une partie")
    # Private: asks for their own table's language, and for the channel's elsewhere.
    assert notices(h.pm("bob", ".unolang de"), "bob") == [
        "dis-le dans le salon dont tu veux changer la langue, ou .unolang me <code> pour la tienne"
    ]
    # ``default`` forgets: bob follows the channel again.
    assert notices(h.say("bob", ".unolang me default"), "bob") == [
        "Was nur an dich geht, folgt jetzt der Sprache des Channels."
    ]
    assert h.bot.person_language("bob", "#uno") == "de"
    # The channel forgets too: English again (the bot's default).
    said = channel_lines(h.say("alice", ".unolang default", is_op=True))
    assert said == ["alice set the language here: English."]


def test_unolang_bad_codes_are_answered_without_echoing_anything_unsafe() -> None:
    h = Harness()
    h.bot.settings.set_language("#uno", "de")
    for text in (
        ".unolang \x01VERSION\x01",
        ".unolang \x0304klingon",
        ".unolang me xx" + "y" * 300,
    ):
        told = notices(h.say("bob", text, is_op=True), "bob")
        assert len(told) == 1 and told[0].startswith("Ich spreche kein "), told
        assert "\x01" not in told[0] and "\x03" not in told[0]
        assert "y" * 25 not in told[0]
    assert notices(h.say("bob", ".unolang me"), "bob")[0].startswith(".unolang me <code>: eins von")
    assert h.bot.channel_language("#uno") == "de" and h.bot.settings.language("bob") is None


def test_unolang_survives_a_restart(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'stats.db'}"

    def harness(reactor: Reactor, worker: DbWorker) -> tuple[Harness, BackgroundSettings]:
        settings = BackgroundSettings(lambda: DatabaseSettings(url, 1.0), worker)
        reactor.pump(until=lambda: settings.loaded)
        h = Harness()
        h.settings = settings  # type: ignore[assignment]
        h.bot = Bot(h.transport, h.clock, settings)
        return h, settings

    reactor = Reactor()
    worker = DbWorker(reactor, timeout=1.0)
    h, settings = harness(reactor, worker)
    _unolang_story(h)
    reactor.pump(until=lambda: settings.pending == 0)
    settings.close()
    assert worker.close(2.0)

    reactor = Reactor()  # the bot starts again
    worker = DbWorker(reactor, timeout=1.0)
    h, settings = harness(reactor, worker)
    assert h.bot.channel_language("#uno") == "de"
    assert h.bot.person_language("bob", "#uno") == "fr"
    assert notices(h.say("bob", ".p r 5"), "bob") == ["aucune partie d'Uno n'est en cours ici"]
    assert notices(h.say("carol", ".p r 5"), "carol") == ["hier wird gerade kein Uno gespielt"]
    settings.close()
    assert worker.close(2.0)


def test_a_plain_uno_refused_in_the_person_language() -> None:
    """``uno`` said in the channel (not a command) is answered like ``.unocall``: privately,
    in the caller's own language while the channel speaks another."""
    h = _channel("de")
    h.bot.settings.set_language("bob", "it")
    h.say("alice", ".uno official")
    h.say("bob", ".join")
    h.say("alice", ".deal")
    told = notices(h.say("bob", "uno"), "bob")
    assert told == ["hai più di una carta: niente UNO da dichiarare"], told
    told = notices(h.say("alice", "UNO!"), "alice")
    assert told == ["du hast mehr als eine Karte: kein UNO zu rufen"], told
