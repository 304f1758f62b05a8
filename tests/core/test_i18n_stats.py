"""The stats commands in every shipped language: ``.unostats``, ``.unotop10``, ``.unorating``,
``.unogame`` and ``.unorecords``, their refusals and cooldown replies, driven through the bot's
core with real stores (memory and SQLite). No English sentence of the ``stats`` domain leaks,
counts take the right plural form (Polish has three), every line fits in an IRC line for the
longest nicks and channel names, and each line is in the language of where it goes: the
channel's for what is said there, the asker's own for what is sent to them alone."""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable, Iterator
from datetime import datetime
from pathlib import Path
from typing import Any

import pytest

from tests.core.fakes import Harness, channel_lines, notices
from tests.core.test_game_command import WebConfig
from tests.core.test_stats_commands import (
    NOW,
    RECENT,
    ask,
    filled_store,
    harness,
    make_game,
    new_store,
)
from tests.core.test_stats_recording import RecordingStore, StatsHarness
from unobot.core.bot import BotConfig
from unobot.core.render_irc import LIMIT
from unobot.i18n import LANGUAGES, speaking
from unobot.i18n.catalogs import PLACEHOLDER, check, extract
from unobot.plugins import uno_stats
from unobot.plugins.uno_stats import (
    RecordsQuery,
    game_lines,
    list_lines,
    rating_line,
    rating_list_lines,
    records_lines,
    stats_line,
)
from unobot.replay.figures import move_figures
from unobot.replay.simulate import recorded_games
from unobot.stats import GameRecord, PlayerResult, PlayerStats, Ranking
from unobot.stats.memory import MemoryStatsStore
from unobot.stats.model import Period, RatedPlayer, StatsUnavailable, StoredGame, StoredResult
from unobot.stats.ratings import EXPLAINED, explained
from unobot.stats.record_rows import RECORDS, Record
from unobot.stats.sql import SqlStatsStore

LANGS = [lang for lang in LANGUAGES if lang != "en"]


# --- what counts as English ------------------------------------------------------------------


def _english_fragments() -> list[str]:
    """The text between the placeholders of every ``stats`` message id that has at least two
    words of three letters or more ("this week", "Not so fast: try again in"): one of them in
    a German line is English leaking. (Single words are left out: "rating" is Brazilian
    Portuguese too, and "points" French.)"""
    found = set()
    for message in extract("stats"):
        if not message.id:
            continue
        ids = message.id if isinstance(message.id, tuple) else (message.id,)
        for text in ids:
            for piece in PLACEHOLDER.sub("\0", text).split("\0"):
                piece = piece.strip(" .,:;()'")
                if len(re.findall(r"[A-Za-z]{3,}", piece)) >= 2:
                    found.add(piece)
    return sorted(found)


ENGLISH = _english_fragments()


def assert_not_english(lines: list[str], lang: str) -> None:
    assert lines
    for line in lines:
        leaked = [f for f in ENGLISH if f in line]
        assert not leaked, (lang, line, leaked)
        assert "{" not in line and "}" not in line, (lang, line)  # every placeholder filled


def test_the_fragments_are_found_and_english_has_them() -> None:
    assert "Not so fast: try again in" in ENGLISH and "this week" in ENGLISH
    h = harness()
    said, _ = ask(h, "alice", ".unostats")
    assert "points per game" in said[0]


def test_the_catalogues_are_complete() -> None:
    problems = check(("stats",))
    assert not problems, problems


# --- every command in every language ---------------------------------------------------------


def _everything_said(h: StatsHarness, lang: str) -> list[str]:
    """Every kind of answer of the memory store's commands, said in ``lang`` in #uno (the
    asker has no language of their own, so private replies follow the channel)."""
    h.settings.set_language("#uno", lang)
    out: list[str] = []

    def both(nick: str, text: str, channel: str | None = "#uno") -> None:
        said, told = ask(h, nick, text, channel)
        out.extend(said + told)

    for text in (
        ".unostats", ".unostats bob", ".unostats erin week here", ".unostats ppg carol month",
        ".unostats pw 3", ".unostats ppg 2 month here", ".unotop10", ".unotop10 rating",
        ".unostats rating 2", ".unorating", ".unorating erin", ".unorating nobody",
        ".unostats nobody", ".unostats nobody week here", ".unotop10 week here",
        ".unostats bob alice", ".unotop10 alice", ".unorating 5", ".unotop10 rating week",
        ".unorating here", ".unostats 0", ".unogame", ".unogame nothere", ".unogame 99999",
        ".unorecords",
    ):  # fmt: skip
        both("alice", text)
    h.settings.set_language("#empty", lang)
    both("alice", ".unotop10 here", "#empty")  # nobody has played there: the empty answer
    # Asked privately, away from any table: the asker's own language (none: the bot's).
    h.settings.set_language("alice", lang)
    both("alice", ".unostats pw 5 here", None)  # 'here' needs a channel
    h.settings.set_language("alice", None)
    both("zed", ".unogame")
    # The limits: a second line at once, a second list at once, a list just shown here.
    h.advance(11)
    out += notices(h.say("bob", ".unostats") + h.say("bob", ".unostats"), "bob")
    h.advance(11)
    out += notices(h.say("bob", ".unotop10") + h.say("bob", ".unotop10"), "bob")
    h.advance(11)
    out += notices(h.say("bob", ".unotop10") + h.say("carol", ".unotop10"), "carol")
    return out


def _expected_replies(out: list[str]) -> None:
    """In English, the same battery says each kind of reply (what the other languages must
    translate)."""
    text = "\n".join(out)
    for english in (
        "rank 2 by points per game", "Uno top 3 by percent wins", "Uno top 10 by rating",
        "provisional (1 of 5 rated games)", "No rated Uno games recorded for nobody.",
        "No Uno games recorded for nobody this week in #uno.",
        "Nobody has played Uno yet in #empty. A game counts once a hand of it is played out",
        "provisional (fewer than 5 games): ", "provisional (fewer than 5 rated games): ",
        "(fewer than 5 games). A game counts once",
        "is not a nick", "takes only rating", "takes only a nick", "ratings are all-time",
        "a list has 1 to 25 players", "Game g6 in #uno", "(won)", "No recorded game has that",
        "usage: .unogame", "Records are kept by the SQL", "'here' works in a channel only",
        "You have no recorded game yet.",
        "Not so fast: try again in", "One list at a time: try again in",
        "A list was just shown here",
    ):  # fmt: skip
        assert english in text, english


def test_english_battery_says_every_kind_of_reply() -> None:
    out = _everything_said(harness(), "en")
    _expected_replies(out)
    assert len(out) >= 30


@pytest.mark.parametrize("lang", LANGS)
def test_every_command_speaks_the_channels_language(lang: str) -> None:
    out = _everything_said(harness(), lang)
    assert len(out) >= 30
    assert_not_english(out, lang)
    assert all(len(line.encode()) <= LIMIT for line in out)
    # The same replies as in English, one for one (nothing lost or doubled).
    assert len(out) == len(_everything_said(harness(), "en"))


@pytest.mark.parametrize("lang", LANGS)
def test_stats_off_and_unavailable_in_every_language(lang: str) -> None:
    h = Harness(1, BotConfig(network="testnet"))
    h.settings.set_language("#uno", lang)
    off = notices(h.say("alice", ".unostats"), "alice")

    class Broken(MemoryStatsStore):
        def leaderboard(self, *args: object, **kwargs: object) -> list[Any]:
            raise StatsUnavailable("database gone")

    broken = harness(RecordingStore(Broken()))
    broken.settings.set_language("#uno", lang)
    _, down = ask(broken, "alice", ".unotop10")
    english = harness(RecordingStore(Broken()))
    assert ask(english, "alice", ".unotop10")[1] == ["Stats are unavailable right now."]
    assert len(off) == 1 and len(down) == 1
    assert off[0] != "Stats are off on this bot." and down[0] != "Stats are unavailable right now."
    assert_not_english(off + down, lang)


# --- records (SQLite) ------------------------------------------------------------------------


@pytest.fixture(scope="module")
def games() -> list[GameRecord]:
    uno = recorded_games(6, 5, network="testnet", channel="#uno")
    other = recorded_games(3, 6, network="testnet", channel="#other", players=["mallory", "oscar"])
    return sorted(uno + other, key=lambda g: g.ended)


@pytest.fixture
def sql(tmp_path: Path, games: list[GameRecord]) -> Iterator[SqlStatsStore]:
    store = SqlStatsStore(
        f"sqlite:///{tmp_path / 's.db'}", network="testnet", analyse=move_figures,
        spool_path=tmp_path / "spool", clock=lambda: games[-1].ended,
    )  # fmt: skip
    for g in games:
        store.record_game(g)
    yield store
    store.close()


def _records_said(store: SqlStatsStore, lang: str, url: str, games: list[GameRecord]) -> list[str]:
    h = StatsHarness(1, WebConfig(network="testnet", web_public_url=url), RecordingStore(store))
    h.settings.set_language("#uno", lang)
    out: list[str] = []
    for text in (
        ".unorecords", ".unorecords everywhere month", ".unorecords week", ".unorecords streak",
        ".unorecords fastest everywhere", ".unorecords moves", ".unorecords points",
        ".unorecords cards", ".unorecords comeback", ".unorecords day everywhere",
        ".unorecords #empty", ".unorecords #empty cards week", ".unorecords \x02bold\x03 x",
        f".unogame {games[0].game_id[:8]}",
    ):  # fmt: skip
        said, told = ask(h, "zed", text)
        out += said + told
    h.settings.set_language("zed", lang)  # asked privately: the asker's own language
    _, told = ask(h, "zed", ".unorecords", channel=None)
    return out + told


@pytest.mark.parametrize("lang", LANGS)
def test_records_and_game_summaries_in_every_language(
    sql: SqlStatsStore, games: list[GameRecord], lang: str
) -> None:
    english = _records_said(sql, "en", "", games)
    text = "\n".join(english)
    for phrase in ("Uno records in #uno (people only)", "Longest winning streak in #uno",
                   "in a row", "Fastest win (time) in all channels", "No Uno records in #empty",
                   "Nobody holds that record", "is not week/month/all"):  # fmt: skip
        assert phrase in text, phrase
    assert re.search(r", \d+ hands?: 1\. \w+ \d+ \(won\)", text)  # the game's summary
    for url in ("", "https://example.net/uno"):
        out = _records_said(sql, lang, url, games)
        assert len(out) == len(english) + (1 if url else 0) or len(out) >= len(english)
        assert_not_english(out, lang)
        assert all(len(line.encode()) <= LIMIT for line in out)


# --- plural forms ----------------------------------------------------------------------------

_SINGULAR_AT_ZERO = {"fr", "pt_BR"}
"""French and Brazilian Portuguese say 0 partie / 0 partida (CLDR: 0 and 1 are "one")."""

FORMS: dict[str, dict[str, tuple[str, ...]]] = {
    "de": {"game": ("Spiel", "Spiele"), "win": ("Sieg", "Siege"), "point": ("Punkt", "Punkte"),
           "rated": ("gewertetes Spiel", "gewertete Spiele")},
    "fr": {"game": ("partie", "parties"), "win": ("victoire", "victoires"),
           "point": ("point", "points"), "rated": ("partie cotée", "parties cotées")},
    "es": {"game": ("partida", "partidas"), "win": ("victoria", "victorias"),
           "point": ("punto", "puntos"), "rated": ("partida valorada", "partidas valoradas")},
    "pt_BR": {"game": ("partida", "partidas"), "win": ("vitória", "vitórias"),
              "point": ("ponto", "pontos"), "rated": ("partida com rating", "partidas com rating")},
    "it": {"game": ("partita", "partite"), "win": ("vittoria", "vittorie"),
           "point": ("punto", "punti"), "rated": ("partita valutata", "partite valutate")},
    "pl": {"game": ("gra", "gry", "gier"), "win": ("wygrana", "wygrane", "wygranych"),
           "point": ("punkt", "punkty", "punktów"),
           "rated": ("gra rankingowa", "gry rankingowe", "gier rankingowych")},
}  # fmt: skip
"""Each language's forms of what the stats count: Polish one / few (2-4, 22-24) / many."""


def form(lang: str, word: str, n: int) -> str:
    forms = FORMS[lang][word]
    if len(forms) == 3:
        few = n % 10 in (2, 3, 4) and n % 100 not in (12, 13, 14)
        return f"{n} {forms[0] if n == 1 else forms[1] if few else forms[2]}"
    one = n == 1 or (n == 0 and lang in _SINGULAR_AT_ZERO)
    return f"{n} {forms[0] if one else forms[1]}"


def test_polish_forms_are_the_glossarys() -> None:
    assert [form("pl", "game", n) for n in (0, 1, 2, 5, 22, 25)] == [
        "0 gier", "1 gra", "2 gry", "5 gier", "22 gry", "25 gier"]  # fmt: skip


def counted_store() -> RecordingStore:
    """``wN`` has won N games of N, a point each (``w0`` lost five); ``rival`` plays them all."""
    store = new_store()
    n = 0
    for wins in (1, 2, 5, 22):
        for _ in range(wins):
            n += 1
            store.record_game(make_game(n, [PlayerResult(f"w{wins}", f"w{wins}", 1, True, 1, 0),
                                            PlayerResult("rival", "rival", 2, False, 0, 1)],
                                        "#uno", RECENT))  # fmt: skip
    for _ in range(5):
        n += 1
        store.record_game(make_game(n, [PlayerResult("rival", "rival", 1, True, 0, 0),
                                        PlayerResult("w0", "w0", 2, False, 0, 0)],
                                    "#uno", RECENT))  # fmt: skip
    return store


@pytest.mark.parametrize("lang", LANGS)
def test_counts_take_their_plural_form(lang: str) -> None:
    h = harness(counted_store(), stats_min_games=1)
    h.settings.set_language("#uno", lang)
    for n, games in ((0, 5), (1, 1), (2, 2), (5, 5), (22, 22)):
        said, _ = ask(h, "alice", f".unostats w{n}")
        line = said[0]
        assert f": {form(lang, 'game', games)}, {form(lang, 'win', n)} (" in line, line
        assert f"%), {form(lang, 'point', n)}, " in line, line
        said, _ = ask(h, "alice", f".unorating w{n}")
        assert f"({form(lang, 'rated', games)})" in said[0], said[0]
    # The minimum games in "provisional (fewer than N games)", at 2, 5 and 22.
    for minimum in (2, 5, 22):
        h = harness(counted_store(), stats_min_games=minimum)
        h.settings.set_language("#uno", lang)
        said, told = ask(h, "alice", ".unotop10")
        text = " ".join(said + told)
        words = FORMS[lang]["game"]
        assert any(w in text for w in words) and f" {minimum} " in text, text


@pytest.mark.parametrize("lang", LANGS)
def test_the_rating_sentence_counts_its_minimum(lang: str) -> None:
    with speaking("en"):
        assert explained(5) == EXPLAINED.format(min_games=5)
    for n in (0, 1, 2, 5, 22):
        with speaking(lang):
            said = explained(n)
        assert f" {n} " in said and said != EXPLAINED.format(min_games=n)
        assert_not_english([said], lang)
    if lang == "pl":
        with speaking("pl"):
            assert explained(1).endswith("1 gry.") and explained(5).endswith("5 gier.")
            assert explained(22).endswith("22 gier.")  # "do rozegrania": the genitive


# --- byte limits -----------------------------------------------------------------------------

LONG_NICK = "N" * 60
"""A stored nick as long as a line shows one (a longer one is cut to 59 characters and "…")."""
LONG_CHANNEL = "#" + "c" * 49


def _records_for(nick: str, figure: int) -> list[Record]:
    at = datetime(2026, 11, 20, 23, 59)
    return [Record(kind, figure, nick, "testnet", False, "f" * 32, LONG_CHANNEL, at)
            for kind in RECORDS]  # fmt: skip


@pytest.mark.parametrize("lang", [*LANGS, "en"])
def test_every_line_fits_for_the_longest_nicks(lang: str) -> None:
    big = 10**9
    stats = PlayerStats(LONG_NICK + "x", big, big - 1, big * 500, 0, rank=big, team_games=big)
    board = [dataclasses.replace(stats, nick=f"{LONG_NICK}{i}", rank=i + 1) for i in range(25)]
    rated = RatedPlayer(LONG_NICK, 90.0, 0.1, big, rank=big)
    provisional = RatedPlayer(LONG_NICK, -90.0, 8.0, 4, rank=None)
    results = tuple(StoredResult(f"{LONG_NICK}{i}", i + 1, i == 0, big, 0, i % 2 == 0, False)
                    for i in range(10))  # fmt: skip
    stored = StoredGame(big, "f" * 32, "testnet", LONG_CHANNEL, "ocuk-tournament",
                        NOW, NOW, 99 * 3600, results, None, True)  # fmt: skip
    new_player = dataclasses.replace(
        stats, games=big - 1, rank=None, team_games=big - 2, stopped_games=big - 3
    )
    unranked = [dataclasses.replace(s, rank=None, stopped_games=big) for s in board[12:]]
    stopped = dataclasses.replace(
        stored,
        stopped=True,
        results=tuple(dataclasses.replace(r, won=False) for r in results),
    )
    lines: list[str] = []
    with speaking(lang):
        month_here = uno_stats.StatsQuery(period=Period.MONTH, here=True)
        for where in ("", uno_stats._scope(month_here, LONG_CHANNEL)):
            for ranking in Ranking:
                lines.append(stats_line(stats, ranking, big, where))
                lines += list_lines(board, ranking, 25, where)
                # Issue 37: a provisional line (with what counts as a game) that counts team
                # and stopped games; a list ending with the provisional players.
                lines += uno_stats.player_lines(new_player, ranking, big, where)
                assert len(uno_stats.player_lines(new_player, ranking, big, "")) == 1
                lines += list_lines([*board[:12], *unranked], ranking, 25, where, big)
        lines += [rating_line(rated, 5), rating_line(provisional, big)]
        lines += rating_list_lines([rated] * 25, 25)
        lines += rating_list_lines([rated] * 12 + [provisional] * 13, 25, big)
        lines += game_lines(stored, big, "")
        lines += game_lines(stored, None, "https://stats.example.net/" + "u" * 60)
        lines += game_lines(stopped, big, "") + game_lines(stopped, None, "")
        lines += game_lines(stopped, None, "https://stats.example.net/" + "u" * 60)
        for period in Period:
            for channel in (LONG_CHANNEL, None):
                query = RecordsQuery(period, channel, None)
                lines += records_lines(
                    _records_for(LONG_NICK + "x", big), query, "https://x.example"
                )
                for kind in RECORDS:
                    one = RecordsQuery(period, channel, kind.key)
                    lines += records_lines(_records_for(LONG_NICK, big)[:1], one,
                                           "https://stats.example.net/" + "u" * 60)  # fmt: skip
                    lines += records_lines([], one, "")
    assert len(lines) > 100
    too_long = [line for line in lines if len(line.encode()) > LIMIT]
    assert not too_long, too_long[0]
    if lang != "en":
        assert_not_english(lines, lang)


@pytest.mark.parametrize("lang", LANGS)
def test_refusals_fit_for_the_longest_nicks_and_channels(lang: str) -> None:
    h = harness()
    h.settings.set_language(LONG_CHANNEL, lang)
    nick = "n" * 50  # the longest nick a query quotes back
    out: list[str] = []
    for text in (f".unostats {nick} month here", f".unorating {nick}", ".unotop10 week here",
                 ".unostats " + "x" * 400, ".unorecords"):  # fmt: skip
        said, told = ask(h, "q" * 30, text, LONG_CHANNEL)
        out += said + told
    assert len(out) == 5
    assert all(len(line.encode()) <= LIMIT for line in out)
    assert_not_english(out, lang)


# --- whose language --------------------------------------------------------------------------


def test_a_german_channel_answers_a_french_asker_privately_in_french() -> None:
    h = harness()
    h.settings.set_language("#uno", "de")
    h.settings.set_language("alice", "fr")
    said, told = ask(h, "alice", ".unostats")
    assert said == ["alice: 6 Spiele, 4 Siege (66.7%), 120 Punkte, 20.0 Punkte/Spiel, "
                    "Platz 2 nach Punkten pro Spiel"] and told == []  # fmt: skip
    said, told = ask(h, "alice", ".unorating nobody")
    assert said == [] and told == ["Aucune partie Uno cotée enregistrée pour nobody."]
    said, told = ask(h, "bob", ".unorating nobody")  # bob has no language: the channel's
    assert told == ["Keine gewerteten Uno-Spiele von nobody gespeichert."]
    _, told = ask(h, "alice", ".unostats bob", channel=None)  # asked privately
    assert told == ["bob: 6 parties, 2 victoires (33.3%), 100 points, 16.7 points/partie, "
                    "rang 3 aux points par partie"]  # fmt: skip
    # A game is on in #uno: lists go privately, in the asker's language.
    h.start(["carol", "dave"])
    said, told = ask(h, "alice", ".unotop10")
    assert said == [] and told[0].startswith("Classement Uno, top 10 aux points par partie")
    said, told = ask(h, "bob", ".unotop10")
    assert said == [] and told[0].startswith("Uno-Rangliste, Top 10 nach Punkten pro Spiel")
    said, told = ask(h, "alice", ".unorating")
    assert said == [] and told[0].startswith("alice: cote ") and "rang " in told[0]


def test_a_long_list_goes_privately_counted_in_the_asker_language() -> None:
    """A list too long for the channel goes to the asker, built in their language (German
    lines are longer: they are counted in the language they are sent in)."""
    store = filled_store()
    for i in range(40):
        store.record_game(make_game(500 + i, [PlayerResult(f"p{i}", "P" * 50 + str(i), 1, True,
                                                           i, 0)], "#uno", RECENT))  # fmt: skip
    h = harness(store, stats_min_games=1)
    h.settings.set_language("#uno", "de")
    h.settings.set_language("alice", "pl")
    said, told = ask(h, "alice", ".unostats ppg 25")
    assert said == [] and len(told) > 2
    assert told[0].startswith("Ranking Uno, top 25 wg punktów na grę (gry): ")
    assert all(len(line.encode()) <= LIMIT for line in told)


def test_an_answer_from_the_database_worker_is_built_in_the_right_language(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The store's answer comes back on the reactor after the command's ``speaking()`` block
    is over (here: a timer of the bot's clock); it is still said in the channel's language, and
    a private one in the asker's."""
    h = harness()

    def later(store: object, job: Callable[[Any], Any], answer: Callable[[Any], None],
              failed: Callable[[str], None]) -> None:  # fmt: skip
        found = job(store)
        h.clock.call_later(0.5, lambda: answer(found))

    monkeypatch.setattr(uno_stats, "ask", later)
    h.settings.set_language("#uno", "it")
    h.settings.set_language("alice", "es")
    h.advance(11)
    assert h.say("bob", ".unostats", "#uno") == []  # nothing yet: the answer is pending
    said = channel_lines(h.advance(1))
    assert said == ["bob: 6 partite, 2 vittorie (33.3%), 100 punti, 16.7 punti/partita, "
                    "posizione 3 per punti per partita"]  # fmt: skip
    h.advance(11)
    h.say("alice", ".unorating nobody", "#uno")
    assert notices(h.advance(1), "alice") == [
        "No hay partidas de Uno valoradas registradas de nobody."
    ]
    h.advance(11)
    h.pm("alice", ".unotop10")
    told = notices(h.advance(1), "alice")
    assert told[0].startswith("Clasificación de Uno, top 10 por puntos por partida (partidas): ")
