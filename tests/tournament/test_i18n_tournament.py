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
from unobot.irc.transport import Incoming, Kind
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
    assert "Durchgang 1, Spiel 1" in lobby and "Finale" in lobby
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


def said(lang: str, message: str, **params: object) -> str:
    """``message`` as the ``lang`` catalogue says it."""
    with speaking(lang):
        return _(message, **params)


def test_admin_commands_are_announced_in_the_lobbys_language_and_tables_in_theirs() -> None:
    """Pause, resume, correction, removal, substitution and cancelling, said in an Italian
    lobby; the table closed by the cancel hears it in Polish."""
    event = Event(scale=1 / 60)  # 60-minute games as 60 s
    event.bot.settings.set_language("#cup", "it")
    event.bot.settings.set_language("#cup-t1", "pl")
    event.bot.settings.set_language("#cup-t2", "pl")
    event.say("op", ".tournament new knockout ko game=60m", op=True)
    event.say("ann", ".tjoin")
    event.say("op", ".tournament addbot easy 7", op=True)
    event.say("op", ".tournament reserve zed", op=True)
    assert event.lines()[-1] == said("it", "{nick} is a reserve in {name}.", nick="zed", name="ko")
    event.say("op", ".tournament remove zed", op=True)  # (a reserve drawn in would not come)
    event.say("op", ".tournament sub EasyBot7 Ezio", op=True)  # still a computer entrant
    assert event.lines()[-1] == "Ezio prende il posto di EasyBot7."
    event.say("op", ".tournament start", op=True)
    ko = event.bot.director.find("ko")  # type: ignore[union-attr]
    assert ko is not None
    event.say("op", ".tournament pause", op=True)
    assert event.lines()[-1] == "Torneo ko: l'orologio è in pausa."
    event.say("ann", ".tstatus")
    assert "(knockout, in corso (in pausa)):" in event.lines()[-1]
    event.say("op", ".tournament resume", op=True)
    assert "Torneo ko: l'orologio riparte." in event.lines()
    at = next(ko.channel_of(g) for g in ko.pending() if "ann" in g.players)
    event.feed(Incoming(Kind.JOIN, "ann", at))
    key = next(g.key for g in ko.pending() if "ann" in g.players)
    while key not in ko.results:
        event.clock.advance(1.0)
    event.say("op", f".tournament correct ann {key} -5 contati male", op=True)
    assert f"Correzione: ann -5 in {key} (contati male)." in event.lines()
    event.say("op", ".tournament cancel pioggia", op=True)
    assert event.lines()[-1] == "Torneo ko annullato (pioggia)."
    closed = [
        line
        for channel in ("#cup-t1", "#cup-t2")
        for line in event.lines(channel)
        if line.startswith("Ten stół jest zamknięty")
    ]
    assert closed in ([], ["Ten stół jest zamknięty: turniej został odwołany."])
    assert leaks(event.lines(), "it", 6) == []
    # English stays in the log: the cancel reason is the admin's own words, as typed.
    assert ko.log[-1].kind == "cancel" and ko.reason == "pioggia"


def test_tstatus_says_the_channel_line_in_its_language_and_the_rest_in_the_askers() -> None:
    event = Event(scale=20 / 3600)
    event.bot.settings.set_language("#cup", "de")
    event.bot.settings.set_language("ann", "fr")
    event.say("op", ".tournament new knockout ko", op=True)
    event.say("op", ".tournament addbot easy 4", op=True)
    event.say("op", ".tournament start", op=True)
    ko = event.bot.director.find("ko")  # type: ignore[union-attr]
    assert ko is not None
    while ko.status != "done":
        event.clock.advance(1.0)
        event.answer_joins()
    event.say("ann", ".tstatus ko")
    assert event.lines()[-1].startswith("ko (knockout, vorbei): 1. ")
    mine = [s.text for s in event.transport.sent if s.kind == "notice" and s.target == "ann"]
    standings = [line for line in mine if line.startswith("1. ")]
    assert standings and "(vainqueur)" in standings[0] and "(finaliste)" in standings[0]
    sheet = [line for line in mine if " > " in line]
    assert sheet and all(" > Finale,G" in line for line in sheet)
    assert any(line.endswith(",Gagné") for line in sheet)
    # the stored sheet is untouched: English, as exported
    assert all(" > Final,G" in row.text() for row in ko.sheet.lines)
    assert leaks(mine, "fr", 6) == []


@pytest.mark.parametrize("lang", [lang for lang in LANGUAGES if lang != "en"])
def test_every_count_has_its_languages_forms_at_0_1_2_5_22(lang: str) -> None:
    """Each counted message of the domain, rendered through ngettext at 0, 1, 2, 5 and 22: the
    catalogue's form for that number (Polish: 22 takes the 2-4 form, 25 and 0 the many)."""
    cat = catalog(lang, "tournament")
    plural = cat.plural  # type: ignore[attr-defined]
    counted = [m.id for m in extract("tournament") if isinstance(m.id, tuple)]
    assert len(counted) >= 8
    for singular, plural_id in counted:
        forms = [cat.ngettext(singular, plural_id, n) for n in (1, 2, 5)]
        for n in (0, 1, 2, 5, 22):
            with speaking(lang):
                got = ngettext(singular, plural_id, n, level="easy", tournament="t", names="a",
                               entrants="e", stage="s", channel="#c", totals="t", winners="w",
                               score=1, why="y")  # fmt: skip
            index = plural(n)
            want_pattern = cat.ngettext(singular, plural_id, n)
            assert got == want_pattern.format(
                n=n, level="easy", tournament="t", names="a", entrants="e", stage="s",
                channel="#c", totals="t", winners="w", score=1, why="y",
            )  # fmt: skip
            if lang == "pl":
                assert index == {0: 2, 1: 0, 2: 1, 5: 2, 22: 1}[n]
        if lang == "pl" and singular == "{n} game":
            assert len(set(forms)) == 3  # gra, gry, gier


@pytest.mark.parametrize("lang", [lang for lang in LANGUAGES if lang != "en"])
def test_usage_and_option_refusals_in_every_language(lang: str) -> None:
    """The usage line (commands and options as typed, the prose translated) and a format's
    option refusal, answered to the asker in the channel's language, within the line."""
    event = Event()
    event.bot.settings.set_language("#cup", lang)
    event.say("op", ".tournament", op=True)
    event.say("op", ".tournament new knockout ko game_size=99", op=True)
    event.say("op", ".tournament new knockout ko speed=9", op=True)
    usage, size, option = [
        s.text for s in event.transport.sent if s.kind == "notice" and s.target == "op"
    ][-3:]
    # The placeholders are prose (French <nom>, Italian <nome>); what is typed is not.
    assert ".tournament new <" in usage and "| start | cancel " in usage
    assert usage.endswith("ocuk, knockout, rotation")
    assert "usage:" not in usage or lang == "fr"  # (French says "usage" too)
    assert size == said(lang, "game_size is 2 to {most}", most=10) != "game_size is 2 to 10"
    assert "'speed'" in option and "max_entrants, game_size, game, warning" in option
    assert leaks([usage, size], lang, 6) == []  # (option names are as typed)
    assert all(len(line.encode()) <= LIMIT for line in (usage, size, option))
