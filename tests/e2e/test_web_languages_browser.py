"""The stats site's language in a real browser: a Polish browser gets Polish pages, the footer's
switch changes to German and the choice is remembered on the next pages, and the translated
pages (longer words than English) still fit a 360 px phone.

The site runs as its own process (``unobot web``) on a SQLite stats database seeded as the
browser tests of the site do (real recorded games with move lists), plus a knockout tournament
played by the format's own logic. Headless Chromium (Debian's, through Selenium) is started with
Polish as its language (``--lang=pl`` and ``intl.accept_languages``): the site learns it from
the ``Accept-Language`` header the browser sends, as it would from a person's. Screenshots go
to the test's tmp dir and ``$UNOBOT_ARTIFACTS/web/`` (default ``tests/artifacts/web/``).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from tests.e2e.browser import (
    DESKTOP,
    PHONE,
    Screenshots,
    Site,
    browser_errors,
    require_browser,
    set_viewport,
    start_browser,
    wait_until,
)
from tests.e2e.test_web_browser import Seeded, css, phone_problems, player_path, seed, visit

TOURNAMENT = "puchar"


@pytest.fixture(scope="module")
def seeded(tmp_path_factory: pytest.TempPathFactory) -> Seeded:
    from unobot.tournament.simulate import simulate
    from unobot.tournament.store import SqlTournamentLog

    seeded = seed(tmp_path_factory.mktemp("webdb-languages") / "stats.db")
    log = SqlTournamentLog.from_url(seeded.url)
    try:
        simulate(log, TOURNAMENT, "knockout", 16, extras=True, channel="#puchar", seed=5)
    finally:
        log.close()
    return seeded


@pytest.fixture(scope="module")
def site(seeded: Seeded, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Site]:
    server = Site(seeded.url, tmp_path_factory.mktemp("web-languages"))
    yield server
    server.stop()


@pytest.fixture(scope="module")
def polish_browser(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    require_browser()
    driver = start_browser(tmp_path_factory.mktemp("chromium-pl"), language="pl")
    yield driver
    driver.quit()


@pytest.fixture(scope="module")
def shots(tmp_path_factory: pytest.TempPathFactory) -> Screenshots:
    return Screenshots.artefacts(tmp_path_factory.mktemp("screenshots-languages"))


@pytest.fixture
def page(polish_browser: Any) -> Iterator[Any]:
    """The Polish browser at desktop size, no cookie from an earlier test, console cleared;
    afterwards no script errors."""
    set_viewport(polish_browser, DESKTOP, mobile=False)
    polish_browser.get("about:blank")
    polish_browser.execute_cdp_cmd("Network.clearBrowserCookies", {})
    browser_errors(polish_browser)
    yield polish_browser
    errors = browser_errors(polish_browser)
    assert not errors, f"errors in the browser console: {errors}"


def html_lang(driver: Any) -> str:
    return driver.execute_script("return document.documentElement.lang")


def test_a_polish_browser_gets_polish_pages(page: Any, site: Site) -> None:
    sent = page.execute_script("return navigator.languages")
    assert sent and sent[0].startswith("pl"), f"the browser's languages are {sent}"
    visit(page, site, "/")
    css(page, "#leaderboard tr.player-row")
    assert html_lang(page) == "pl"
    assert page.title.startswith("Ranking"), page.title
    text = page.find_element("css selector", "body").text
    assert "Rankingi" in text and "Leaderboards" not in text
    current = page.find_element("css selector", "#lang-switch [aria-current]")
    assert current.text.strip() == "Polski"


def test_the_switch_changes_the_language_and_it_is_remembered(
    page: Any, site: Site, shots: Screenshots
) -> None:
    visit(page, site, "/")
    assert html_lang(page) == "pl"
    page.find_element("css selector", "#lang-de").click()
    wait_until(lambda: html_lang(page) == "de", what="the German page")
    assert "lang=de" in page.current_url
    assert "Ranglisten" in page.find_element("css selector", "body").text
    # The next pages, reached by the site's own links (no lang= in them), stay German
    # although the browser still asks for Polish first.
    page.find_element("css selector", "a[href='/tournaments']").click()
    wait_until(lambda: "/tournaments" in page.current_url, what="the tournaments list")
    assert "lang=" not in page.current_url
    assert html_lang(page) == "de"
    assert "Turniere" in page.find_element("css selector", "body").text
    visit(page, site, f"/tournament/{TOURNAMENT}")
    assert html_lang(page) == "de"
    body = page.find_element("css selector", "body").text
    assert "Turnierbaum" in body and "Finale" in body
    shots.take(page, "i18n-de-tournament-desktop")
    # Back to Polish by the switch: remembered the same way.
    page.find_element("css selector", "#lang-pl").click()
    wait_until(lambda: html_lang(page) == "pl", what="the Polish page again")
    visit(page, site, "/records")
    assert html_lang(page) == "pl" and "Rekordy" in page.find_element("css selector", "h1").text


@pytest.mark.parametrize("lang", ["pl", "de"])
def test_translated_pages_fit_a_phone(
    page: Any, site: Site, seeded: Seeded, shots: Screenshots, lang: str
) -> None:
    """German and Polish run longer than English: at 360 px no page is wider than the screen
    and nothing is cut off where no box scrolls to it."""
    pages = {
        "leaderboard": "/",
        "player": player_path("Alice"),
        "game": f"/game/{seeded.replay_game}",
        "records": "/records?bots=1",
        "tournament": f"/tournament/{TOURNAMENT}",
        "live": "/live",
    }
    set_viewport(page, PHONE, mobile=True)
    visit(page, site, f"/?lang={lang}")
    problems = []
    for name, path in pages.items():
        visit(page, site, path)
        assert html_lang(page) == lang, (path, html_lang(page))
        shots.take(page, f"i18n-{lang}-{name}-phone")
        problems += phone_problems(page, path)
    assert not problems, "\n".join(problems)
    assert all(p.stat().st_size > 1000 for p in shots.taken), "an empty screenshot"


FACES = ["R9", "RS", "RR", "RD2", "RSE", "RDA", "RD4", "W", "WD4", "WD6", "WD10", "WRD4", "WCR"]
"""A card of every face (No Mercy's included)."""

MEASURE = """
const views = arguments[0], out = [];
const box = document.createElement('div');
document.body.appendChild(box);
for (const v of views) {
    const card = document.createElement('span');
    card.className = 'card ' + v.css;
    const face = document.createElement('span');
    face.className = v.face_class;
    face.textContent = v.face;
    card.appendChild(face);
    box.appendChild(card);
    const c = card.getBoundingClientRect(), f = face.getBoundingClientRect();
    if (face.scrollWidth > face.clientWidth + 1 || f.left < c.left - 1 || f.right > c.right + 1
        || f.height > c.height) {
        out.push(v.lang + ' ' + v.code + ' ' + JSON.stringify(v.face)
                 + ' ' + Math.round(f.width) + '>' + Math.round(c.width));
    }
}
box.remove();
return out;
"""


def test_every_card_face_fits_its_card_in_every_language(page: Any, site: Site) -> None:
    """The faces are short words chosen per language ("Setzt aus", "Zwrot", "Passe"): drawn
    with the site's own style at a phone's size and at a desktop's, none spills off its card."""
    from unobot.i18n import LANGUAGES, speaking
    from unobot.web.cards import card_view

    views = []
    for lang in LANGUAGES:
        with speaking(lang):
            views += [{**card_view(code).as_json(), "lang": lang} for code in FACES]
    assert {v["face"] for v in views if v["lang"] == "de"} >= {"Setzt aus", "Wende"}
    for size, mobile in ((PHONE, True), (DESKTOP, False)):
        set_viewport(page, size, mobile=mobile)
        visit(page, site, "/")
        spilled = page.execute_script(MEASURE, views)
        assert not spilled, f"faces wider than their card at {size}: {spilled}"


def test_the_replay_steps_in_polish(page: Any, site: Site, seeded: Seeded) -> None:
    """What the replay's script writes as it steps (the step, whose turn, hand sizes, the
    cards' spoken labels) is in the page's language, Polish plural forms included."""
    visit(page, site, f"/game/{seeded.replay_game}")
    assert html_lang(page) == "pl"
    assert css(page, "#replay-step").text.startswith("Krok 1 z ")
    for _ in range(5):
        page.find_element("css selector", "#replay-next").click()
    step = page.find_element("css selector", "#replay-step")
    wait_until(lambda: step.text.startswith("Krok 6 z "), what="step 6 in Polish")
    sizes = [e.text for e in page.find_elements("css selector", "#replay-hands .hand-name .muted")]
    assert sizes, "no hands drawn"
    for size in sizes:
        n, word = size.split()
        form = "karta" if n == "1" else ("karty" if int(n) % 10 in (2, 3, 4) and int(n) % 100
                                         not in (12, 13, 14) else "kart")  # fmt: skip
        assert word == form, sizes
    labels = [
        e.get_attribute("aria-label")
        for e in page.find_elements("css selector", "#replay-hands .card")
    ]
    assert labels and all("kolor" in label or "zmiana koloru" in label for label in labels), labels
    assert "Kolej: " in css(page, "#replay-turn").text or not css(page, "#replay-turn").text
