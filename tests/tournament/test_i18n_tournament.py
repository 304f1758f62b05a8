"""Tournaments in the channels' own languages: whole knockout, rotation and ocuk tournaments of
computer entrants on the bot's core (fakes, the clock moved by hand), the lobby channel in one
language and each table channel in another.

What is checked: no English message of the ``tournament`` domain leaks into a translated
channel (any literal run of an English message id that its translation does not share);
each channel hears its own language; counts take the right plural forms; every line fits
IRC's 400 bytes with long names; the stored score sheet and its CSV export are the same bytes
whatever language was spoken."""

from __future__ import annotations

import csv
import io
import re

import pytest

from tests.tournament.test_director import Event
from unobot.core.render_irc import LIMIT
from unobot.i18n import LANGUAGES, catalog, domain, speaking
from unobot.i18n.catalogs import PLACEHOLDER, extract
from unobot.tournament.export import rows
from unobot.tournament.store import MemoryTournamentLog

_, ngettext = domain("tournament")

LONG = 16
"""The longest computer entrant's name (``.tournament addbot``)."""


def english_runs(lang: str, shortest: int) -> set[str]:
    """The literal runs (between placeholders) of every tournament message id, at least
    ``shortest`` characters with a letter, that the ``lang`` translation does not contain."""
    cat = catalog(lang, "tournament")
    runs: set[str] = set()
    for message in extract("tournament"):
        if not message.id:
            continue
        ids = message.id if isinstance(message.id, tuple) else (message.id,)
        for n, msgid in enumerate(ids):
            translated = (
                cat.ngettext(ids[0], ids[1], 1 if n == 0 else 5)
                if len(ids) > 1
                else cat.gettext(msgid)
            )
            for run in PLACEHOLDER.split(msgid):
                run = run.strip(" ,.;:()")
                if len(run) >= shortest and re.search("[a-z]", run) and run not in translated:
                    runs.add(run)
    return runs


def leaks(lines: list[str], lang: str, shortest: int) -> list[tuple[str, str]]:
    runs = english_runs(lang, shortest)
    return [(run, line) for line in lines for run in runs if run in line]


def run_tournament(
    words: str, count: int, seconds: float, languages: dict[str, str], scale: float
) -> tuple[Event, MemoryTournamentLog]:
    """Open ``.tournament new <words>`` in #cup with ``count`` long-named computer entrants,
    each channel of ``languages`` in its language, and play it out."""
    log = MemoryTournamentLog()
    event = Event(scale=scale, log=log)
    for channel, lang in languages.items():
        event.bot.settings.set_language(channel, lang)
    event.say("op", f".tournament new {words}", op=True)
    for i in range(count):
        event.say("op", f".tournament addbot easy Kz{i:014d}", op=True)
    event.say("op", ".tournament start", op=True)
    director = event.bot.director
    assert director is not None
    found = director.find(words.split()[1])
    assert found is not None
    for _step in range(int(seconds)):
        event.clock.advance(1.0)
        event.answer_joins()
        if found.status == "done":
            break
    assert found.status == "done", event.lines()[-5:]
    return event, log


FORMATS = [
    # (words, entrants, seconds, scale, languages: lobby de and a table in Polish, and the rest)
    (
        "knockout ko",
        8,
        600,
        20 / 3600,
        {"#cup": "de", "#cup-t1": "pl", "#cup-t2": "fr"},
    ),
    (
        "rotation bac rounds=2 round=60m warning=15m",
        8,
        400,
        1 / 60,
        {"#cup": "de", "#cup-t1": "pl", "#cup-t2": "es"},
    ),
    (
        "ocuk cup",
        9,
        3000,
        0.01,
        {"#cup": "de", "#cup-t1": "pl", "#cup-t2": "pt_BR", "#cup-t3": "it"},
    ),
]


@pytest.mark.parametrize(("words", "count", "seconds", "scale", "languages"), FORMATS)
def test_a_whole_tournament_speaks_each_channels_language(
    words: str, count: int, seconds: float, scale: float, languages: dict[str, str]
) -> None:
    event, _log = run_tournament(words, count, seconds, languages, scale)
    lobby = event.lines("#cup")
    assert len(lobby) > 5
    # The lobby hears only German tournament lines: nothing of an English message id.
    assert leaks(lobby, "de", 6) == []
    assert any(line.startswith("Turnier ") and "ist vorbei!" in line for line in lobby), lobby
    # Each table channel: the director's line in that channel's language (the table's own
    # game lines are the game domain's), no long run of English tournament text.
    first_words = {"pl": "Turniej ", "fr": "Tournoi ", "es": "Torneo ", "pt_BR": "Torneio ",
                   "it": "Torneo "}  # fmt: skip
    for channel, lang in languages.items():
        if channel == "#cup":
            continue
        lines = event.lines(channel)
        ours = [line for line in lines if line.startswith(first_words[lang])]
        assert ours, (channel, lines[:3])
        assert not any(line.startswith("Tournament ") for line in lines), channel
        assert leaks(lines, lang, 14) == []
    # Every line fits IRC's line with 16-character names.
    for sent in event.transport.sent:
        assert len(sent.text.encode()) <= LIMIT, sent.text


def test_the_lobby_and_a_table_differ_and_the_stages_are_translated() -> None:
    event, _log = run_tournament("knockout ko", 8, 600, {"#cup": "de", "#cup-t1": "pl"}, 20 / 3600)
    lobby = " ".join(event.lines("#cup"))
    assert "Runde 1, Spiel 1" in lobby and "Finale" in lobby
    assert "Round 1 game 1" not in lobby and "Final " not in lobby
    table = event.lines("#cup-t1")
    assert any(line.startswith("Turniej ko - Runda 1, gra 1") for line in table), table[:3]


@pytest.mark.parametrize("lang", [lang for lang in LANGUAGES if lang != "en"])
def test_every_language_runs_an_ocuk_without_english(lang: str) -> None:
    event, _log = run_tournament(
        "ocuk cup", 7, 3000, {"#cup": lang, "#cup-t1": lang, "#cup-t2": lang}, 0.01
    )
    lobby = event.lines("#cup")
    assert leaks(lobby, lang, 6) == []
    assert leaks(event.lines("#cup-t1") + event.lines("#cup-t2"), lang, 14) == []
    for sent in event.transport.sent:
        assert len(sent.text.encode()) <= LIMIT, sent.text


def test_the_sheet_and_its_csv_are_the_same_in_every_language() -> None:
    """Stored data stays English: the same tournament in English and in German/Polish
    channels gives byte-identical score sheets and CSV exports."""

    def exported(languages: dict[str, str]) -> tuple[list[str], str]:
        _event, log = run_tournament("knockout ko", 8, 600, languages, 20 / 3600)
        stored = log.load("ko")
        assert stored is not None
        out = io.StringIO()
        csv.writer(out).writerows(rows(stored))
        return [r.text() for r in stored.sheet], out.getvalue()

    english = exported({})
    translated = exported({"#cup": "de", "#cup-t1": "pl", "#cup-t2": "fr"})
    assert english == translated
    assert "Final" in english[1] and "Finale" not in english[1]


@pytest.mark.parametrize(
    ("lang", "forms"),
    [
        ("pl", {0: "0 zgłoszeń", 1: "1 zgłoszenie", 2: "2 zgłoszenia", 5: "5 zgłoszeń",
                22: "22 zgłoszenia"}),
        ("de", {0: "0 Teilnehmer", 1: "1 Teilnehmer", 2: "2 Teilnehmer", 5: "5 Teilnehmer",
                22: "22 Teilnehmer"}),
        ("fr", {0: "0 inscrit", 1: "1 inscrit", 2: "2 inscrits", 5: "5 inscrits",
                22: "22 inscrits"}),
    ],
)  # fmt: skip
def test_entrant_counts_take_each_languages_plural(lang: str, forms: dict[int, str]) -> None:
    with speaking(lang):
        for n, want in forms.items():
            assert ngettext("{n} entrant", "{n} entrants", n) == want


def test_sign_up_counts_in_a_polish_channel() -> None:
    """``.tournament addbot`` and ``.tjoin`` say the count in the channel's plural form."""
    event = Event()
    event.bot.settings.set_language("#cup", "pl")
    event.say("op", ".tournament new knockout ko", op=True)
    event.say("op", ".tournament addbot easy", op=True)
    assert event.lines()[-1].endswith("(1 zgłoszenie).")
    event.say("ann", ".tjoin")
    assert event.lines()[-1] == "ann jest w turnieju ko (2 zgłoszenia)."
    event.say("op", ".tournament addbot easy 3", op=True)
    assert event.lines()[-1].endswith("(5 zgłoszeń).")
    event.say("op", ".tournament addbot easy 17", op=True)
    assert event.lines()[-1].endswith("(22 zgłoszenia).")
    assert leaks(event.lines(), "pl", 6) == []


def test_refusals_go_to_the_asker_in_their_own_language() -> None:
    event = Event()
    event.bot.settings.set_language("#cup", "de")
    event.bot.settings.set_language("ann", "fr")
    event.say("ann", ".tournament new ocuk cup")  # not an operator
    mine = [s.text for s in event.transport.sent if s.kind == "notice" and s.target == "ann"]
    assert mine and "only a bot admin" not in mine[-1]
    with speaking("fr"):
        assert mine[-1] == _("only a bot admin or a channel operator runs the tournament")
    event.say("op", ".tournament new ocuk cup", op=True)
    event.say("op", ".tournament start", op=True)  # nobody signed up: refused, in German
    theirs = [s.text for s in event.transport.sent if s.kind == "notice" and s.target == "op"]
    with speaking("de"):
        assert theirs[-1] == _("the ocuk format needs at least 3 players")
