"""Every kind of page of the stats site in every language, over one database holding all of
it: recorded games with move lists (leaderboards, players, games and their replays, records),
tournaments of the three formats (finished, running, in sign-up), live games (the live list
and a spectator's view), and the error pages.

Two checks, as the bot's own translation tests do. A *pseudo-language* whose every message is
its English in brackets shows any text a page says without asking the catalogues: once the
bracketed parts are out, what is left may only be data (nicks, channels, numbers, dates, card
codes, the language names of the switch). Then each real language: no English message id of
the ``web`` domain appears in the page's text (where the translation differs from it), the
page says its language, and Polish counts games with its three plural forms.
"""

from __future__ import annotations

import html
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from types import SimpleNamespace

import pytest

import unobot.i18n as i18n
import unobot.replay.steps as replay_steps
import unobot.web.app as web_app
import unobot.web.lang as web_lang
from tests.pseudo import PSEUDO, speak_pseudo, unbracketed
from tests.web.conftest import NASTY, NOW, TestClient, seed_store
from unobot.i18n import LANGUAGE_NAMES, LANGUAGES, language, speaking
from unobot.i18n import catalogs as cats
from unobot.stats import live_rows
from unobot.stats.model import GameRecord
from unobot.stats.sql import open_database
from unobot.tournament.simulate import simulate
from unobot.tournament.state import Tournament
from unobot.tournament.store import Entry, SqlTournamentLog
from unobot.web import charts

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

T = NOW.timestamp()


@dataclass
class World:
    url: str
    games: tuple[GameRecord, ...]


def _state(players: dict[str, int], turn: str, top: str, **more: object) -> dict:
    return {
        "tournament": more.get("tournament"),
        "table_no": more.get("table_no"),
        "players": [{"nick": n, "cards": c} for n, c in players.items()],
        "turn": turn,
        "top": top,
        "color": "green",
        "direction": -1,
        "info": {"hand": 2, "rules": "official", "pending": 2},
    }


@pytest.fixture(scope="module")
def world(tmp_path_factory: pytest.TempPathFactory) -> World:
    folder: Path = tmp_path_factory.mktemp("i18n_pages")
    url = f"sqlite:///{folder / 'stats.db'}"
    games = seed_store(url, folder, replays=10)
    log = SqlTournamentLog.from_url(url)
    simulate(log, "cup", "ocuk", 9, extras=True, seed=3)
    simulate(log, "small", "ocuk", 6, channel="#small", seed=4)
    simulate(log, "ko", "knockout", 16, extras=True, channel="#ko", seed=5)
    simulate(log, "bac", "rotation", 13, words=["rounds=3"], extras=True, channel="#bac", seed=6)
    simulate(log, "spring", "knockout", 16, results=2, channel="#spring", seed=8)
    log.create("open", "rotation", "#open", 1_800_000_000.0)
    _head, entry = Tournament.new("open", "rotation", "#open", [], 1, 1_800_000_000.0, "op")
    log.append("open", Entry(0, entry.kind, entry.data, entry.at))
    log.append("open", Entry(1, "join", {"name": "ann", "key": "ann"}, 1_800_000_060.0))
    log.close()
    db = open_database(url)
    first = live_rows.LiveWrite(
        "net", "#Uno", _state({"ann": 3, "bob": 2}, "ann", "WD4"), fresh=True, started=T - 60
    )
    first.lines = [(T - 60, "Uno (official): ann, bob. First card \x0304R5\x0f. ann's turn.")]
    cup = live_rows.LiveWrite(
        "net", "#cup-t2", _state({NASTY: 7, "cy": 7}, NASTY, "G1", tournament="Cup", table_no=2),
        fresh=True, started=T - 30,
    )  # fmt: skip
    live_rows.write_batch(db, [first, cup], T - 10)
    db.close()
    return World(url, games)


@pytest.fixture(scope="module")
def client(world: World) -> Iterator[TestClient]:
    db = open_database(world.url)
    with TestClient(web_app.create_app(db, clock=lambda: NOW)) as test_client:
        yield test_client
    db.close()


PAGES: dict[str, tuple[str, str, int]] = {
    "leaderboard": ("GET", "/", 200),
    "leaderboard-week": ("GET", "/leaderboard?period=week&channel=%23uno", 200),
    "leaderboard-month-ppg": ("GET", "/leaderboard?period=month&ranking=ppg", 200),
    "leaderboard-rating": ("GET", "/leaderboard?ranking=rating&network=net&bots=1", 200),
    "player": ("GET", "/player/alice?network=net", 200),
    "player-computer": ("GET", "/player/Robo?network=net", 200),
    "game-replay": ("GET", "/game/{replayed}", 200),
    "game-no-moves": ("GET", "/game/dddddddd", 200),
    "records": ("GET", "/records", 200),
    "records-week": ("GET", "/records?period=week&channel=%23uno", 200),
    "tournaments": ("GET", "/tournaments", 200),
    "tournament-ocuk": ("GET", "/tournament/cup", 200),
    "tournament-ocuk-hands": ("GET", "/tournament/small", 200),
    "tournament-knockout": ("GET", "/tournament/ko", 200),
    "tournament-rotation": ("GET", "/tournament/bac", 200),
    "tournament-running": ("GET", "/tournament/spring", 200),
    "tournament-signup": ("GET", "/tournament/open", 200),
    "live": ("GET", "/live", 200),
    "spectator": ("GET", "/live/net/%23Uno", 200),
    "spectator-tournament": ("GET", "/live/net/%23cup-t2", 200),
    "spectator-none": ("GET", "/live/net/%23quiet", 200),
    "error-404": ("GET", "/nowhere", 404),
    "error-player": ("GET", "/player/nobody?network=net", 404),
    "error-game": ("GET", "/game/zzzzzzzz", 404),
    "error-tournament": ("GET", "/tournament/nope", 404),
    "error-params": ("GET", "/leaderboard?period=year&ranking=xx&min_games=-4", 400),
    "error-rating-channel": ("GET", "/leaderboard?ranking=rating&channel=%23uno", 400),
    "error-method": ("POST", "/leaderboard", 405),
}
"""Every kind of page: name -> (method, path, status); ``{replayed}`` is a game with moves."""


_SCRIPT = re.compile(r"<(script|style|code)\b.*?</\1>", re.S | re.I)
_DATA = re.compile(
    r"<li class=\"sheet-line[^\"]*\"[^>]*>.*?</li>"  # the score sheet, as the bot writes it
    r"|<ol id=\"live-lines\".*?</ol>",  # the channel's lines, as said
    re.S,
)
"""Parts of a page that are data in their own words: the score sheet's lines (notation with
stage names as stored), and the lines a live game's channel was told (stored as said there, in
the channel's language). A replay's lines are not data: the bot's renderer says them again in
the page's language (domain ``game``), and they are checked like the rest."""
_ATTR = re.compile(r"""\b(?:aria-label|title|alt|placeholder)="([^"]*)\"""")
_TAG = re.compile(r"<[^>]+>")


def page_text(markup: str) -> str:
    """What a reader meets: the text, plus labels a screen reader or a tooltip says (not
    scripts, nor ``<code>``: commands and notation are the same in every language)."""
    markup = _DATA.sub(" ", _SCRIPT.sub(" ", markup))
    said = " | ".join(_ATTR.findall(markup))
    return html.unescape(_TAG.sub(" ", markup) + " | " + said)


def fetch(client: TestClient, world: World, method: str, path: str, lang: str) -> tuple[int, str]:
    """The page at ``path`` asked for in ``lang`` (by the switch's ``?lang=``, no cookie)."""
    replayed = next(g for g in world.games if g.moves and g.network == "net")
    path = path.replace("{replayed}", replayed.game_id[:8])
    client.cookies.clear()
    sep = "&" if "?" in path else "?"
    response = client.request(method, f"{path}{sep}lang={lang}")
    client.cookies.clear()
    return response.status_code, response.text


@pytest.fixture
def pseudo(monkeypatch: pytest.MonkeyPatch) -> None:
    """``?lang=xx`` speaks the pseudo-language (Babel's figures as in English)."""
    real_normalize = web_lang.normalize
    speak_pseudo(monkeypatch)
    monkeypatch.setattr(web_app, "catalog", i18n.catalog)
    monkeypatch.setattr(
        web_lang, "normalize", lambda c: PSEUDO if c == PSEUDO else real_normalize(c)
    )
    real_locale = web_lang.babel_locale
    monkeypatch.setattr(
        web_lang, "babel_locale", lambda: None if language() == PSEUDO else real_locale()
    )


def leftover(text: str) -> list[str]:
    return unbracketed(text).split()


_DATA_WORD = re.compile(
    r"[\W\d_]*"  # numbers, figures, punctuation
    r"|[-+]?[\d.,:%]+[hms]?"
    r"|\d{4}-\d\d-\d\d:?"  # dates as the charts' tooltips give them
    r"|#[\w-]+[,.:)]*"  # channels
    r"|[RGBYW][0-9SRDW+]*[.,]?"  # card codes
    r"|p\d+[,.:]?"  # the simulated tournaments' players
    r"|[0-9a-f]{8}"  # game ids
)
DATA = {
    "unobot", "UTC", "Pygal", "net", "other", "official", "irc-classic", "Cup", "Cup,",
    "cup", "small", "ko", "bac", "spring", "open", "Caro", "Robo", "cy", "dddddddd", NASTY,
    *(word for name in LANGUAGE_NAMES.values() for word in name.split()),
}  # fmt: skip
"""Words that are data: brand, networks, preset and tournament names, the switch's names.
(The simulated MC gives reasons in English, "miscounted" and "left": their own words.)"""


def is_data(word: str, nicks: set[str]) -> bool:
    bare = word.strip(".,:;()")
    return bool(_DATA_WORD.fullmatch(word) or word in DATA or bare in DATA or bare.lower() in nicks)


@pytest.fixture(scope="module")
def nicks(world: World) -> set[str]:
    return {r.nick.lower() for g in world.games for r in g.results} | {"ann", "bob", "cy"}


@pytest.mark.parametrize("kind", list(PAGES))
def test_every_page_asks_the_catalogues(
    kind: str, client: TestClient, world: World, nicks: set[str], pseudo: None
) -> None:
    method, path, status = PAGES[kind]
    got, markup = fetch(client, world, method, path, PSEUDO)
    assert got == status, markup[:500]
    assert "⟦" in markup
    left = [w for w in leftover(page_text(markup)) if not is_data(w, nicks)]
    assert not left, (kind, sorted(set(left))[:40])


def english_pieces(lang: str) -> list[str]:
    """The English of each ``web`` message (placeholders and markup cut out: the pieces of
    two words or more, or single words of four letters or more) that must not be seen on a
    page in ``lang``: all but those the language's own translations use too ("Format",
    "Live", German's "Hand", Portuguese's "Ranking")."""
    translations = i18n.catalog(lang, "web")
    english: set[str] = set()
    said: list[str] = []
    for message in cats.extract("web"):
        ids = message.id if isinstance(message.id, tuple) else (message.id,)
        if not ids[0]:
            continue
        if len(ids) == 1:
            said.append(translations.gettext(ids[0]))
        else:
            said.extend(translations.ngettext(ids[0], ids[1], n) for n in (1, 2, 5))
        for msgid in ids:
            text = html.unescape(re.sub(r"<[^>]+>", " ", msgid))
            for piece in re.split(r"\{\w*\}|%\(\w+\)s|%%", text):
                piece = piece.strip(" .,:;!?()")
                words = piece.split()
                if words and (len(words) > 1 or len(piece) >= 4):
                    english.add(piece)
    own = html.unescape("\n".join(said))
    return sorted(
        (e for e in english if not re.search(rf"(?<!\w){re.escape(e)}(?!\w)", own)),
        key=len,
        reverse=True,
    )


@pytest.mark.parametrize("lang", LANGUAGES[1:])
def test_every_page_in_each_language_has_no_english(
    lang: str, client: TestClient, world: World
) -> None:
    english = [(e, re.compile(rf"(?<!\w){re.escape(e)}(?!\w)")) for e in english_pieces(lang)]
    assert len(english) > 150
    for kind, (method, path, status) in PAGES.items():
        got, markup = fetch(client, world, method, path, lang)
        assert got == status, (kind, markup[:500])
        assert f'<html lang="{lang.replace("_", "-")}">' in markup, kind
        text = page_text(markup).replace(": left ", ": (the MC's words) ")
        leaked = [e for e, pattern in english if pattern.search(text)]
        assert not leaked, (lang, kind, leaked[:20])


def test_the_replay_is_rendered_in_the_pages_language(
    client: TestClient, world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The game's lines come from the bot's renderer (domain ``game``): the site only has to
    speak the page's language around it."""
    heard: set[str] = set()
    real = replay_steps.render_update

    def render_update(*args, **kwargs):  # type: ignore[no-untyped-def]
        heard.add(language())
        return real(*args, **kwargs)

    monkeypatch.setattr(replay_steps, "render_update", render_update)
    got, _markup = fetch(client, world, *PAGES["game-replay"][:2], "pl")
    assert got == 200 and heard == {"pl"}
    heard.clear()
    fetch(client, world, *PAGES["game-replay"][:2], "en")
    assert heard == {"en"}


def test_a_tournament_view_cached_in_one_language_is_never_served_in_another(
    client: TestClient, world: World
) -> None:
    first = {lang: fetch(client, world, "GET", "/tournament/ko", lang)[1] for lang in LANGUAGES}
    again = {lang: fetch(client, world, "GET", "/tournament/ko", lang)[1] for lang in LANGUAGES}
    assert ">Durchgang 1<" in first["de"] and ">Runda 1<" in first["pl"]
    assert ">Round 1<" in first["en"]
    for lang in LANGUAGES:
        assert again[lang] == first[lang]
    api = client.get("/api/tournament/ko", headers={"Accept-Language": "pl"}).json()
    assert api["format_name"].startswith("Knockout")  # the JSON stays English


@pytest.mark.parametrize(
    ("n", "word"), [(0, "gier"), (1, "gra"), (2, "gry"), (5, "gier"), (22, "gry"), (25, "gier")]
)
def test_polish_counts_games_with_three_forms(n: int, word: str) -> None:
    with speaking("pl"):
        assert web_app._record_unit(SimpleNamespace(key="day", unit="games"), n) == word
        week = charts.ngettext(
            "{ppg} in the week of {week} ({n} game)",
            "{ppg} in the week of {week} ({n} games)",
            n,
            ppg="1,5",
            week="16 lis",
        )
        assert week == f"1,5 w tygodniu 16 lis ({n} {word})"


def test_polish_game_counts_on_a_page(client: TestClient, world: World) -> None:
    """The player page counts games in Polish as Polish does (whatever the count)."""
    _got, markup = fetch(client, world, "GET", "/player/alice?network=net", "pl")
    counts = re.findall(r"(\d+)\s(?:wspóln\w+\s)?(gra|gry|gier)\b", page_text(markup))
    assert counts
    for figure, word in counts:
        n = int(figure)
        form = (
            "gra"
            if n == 1
            else ("gry" if n % 10 in (2, 3, 4) and n % 100 not in (12, 13, 14) else "gier")
        )
        assert word == form, (figure, word)


def test_a_live_pages_poll_comes_back_in_the_same_language(
    client: TestClient, world: World
) -> None:
    """static/live.js asks the page's own address again with the browser's cookie: a Polish
    reader's poll brings Polish (and 204 while nothing changed)."""
    client.cookies.clear()
    first = client.get("/live/net/%23Uno?lang=pl")
    assert '<html lang="pl">' in first.text and "Kolej" in first.text
    version = re.search(r'data-live-version="([^"]*)"', first.text)
    assert version and version.group(1)
    same = client.get("/live/net/%23Uno", headers={web_app.LIVE_HEADER: version.group(1)})
    assert same.status_code == 204
    stale = client.get("/live/net/%23Uno", headers={web_app.LIVE_HEADER: "0.0"})
    assert stale.status_code == 200 and '<html lang="pl">' in stale.text
    assert "Kolej" in stale.text and "to play" not in stale.text
    client.cookies.clear()


@pytest.mark.parametrize("lang", LANGUAGES[1:])
def test_the_500_page_is_in_the_readers_language(
    lang: str, world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A page that fails (here: the records' query) still answers in the reader's language:
    the error handler runs inside the language the request asked for."""

    def broken(*args: object, **kwargs: object) -> None:
        raise RuntimeError("the test breaks the records query")

    monkeypatch.setattr(web_app, "_records", broken)
    db = open_database(world.url)
    try:
        with TestClient(
            web_app.create_app(db, clock=lambda: NOW), raise_server_exceptions=False
        ) as failing:
            page = failing.get("/records", headers={"Accept-Language": lang})
    finally:
        db.close()
    assert page.status_code == 500
    assert f'<html lang="{lang.replace("_", "-")}">' in page.text
    with speaking(lang):
        assert str(web_app._("Something went wrong")) in html.unescape(page.text)
    assert "Something went wrong" not in page.text
