"""The stats site in a real browser: leaderboard, a player's charts, a replay stepped through.

The site (``unobot web``) runs as its own process on a SQLite stats database seeded with real
recorded games (simulated tables whose journals are the move lists) and a few hand-written
games so several people pass the 5-game minimum. Headless Chromium (Debian's, through Selenium)
visits it as a person would: follows links, switches rankings, steps a replay, turns on the
colour-blind cards, and looks at every page at a phone's width.

Issue 28's checks run at 360 and 390 px (emulated phones) and at 1280: no page wider than the
screen, the columns people look for on screen without scrolling the table, the replay's
buttons in view while stepping, chart text of 10 px or more in charts as wide as their column,
a new database's few values in words instead of empty charts, titles and a favicon.

Screenshots of every page (desktop 1280x900 and phone 360x740, the tables and a player at
390x844, the replay's screen after stepping, a new database's player page) are written to the
test's tmp dir and copied to ``$UNOBOT_ARTIFACTS/web/`` (default ``tests/artifacts/web/``).
The pictures in docs/stats-site.md (docs/web-*.png) are three of them, cut to size:
``UNOBOT_WEB_DOCS=docs pytest tests/e2e/test_web_browser.py -k phone`` writes
docs/web-leaderboard.png, docs/web-player.png and docs/web-game.png.
"""

from __future__ import annotations

import os
import random
import re
import urllib.parse
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from tests.e2e.browser import (
    DESKTOP,
    PHONE,
    Screenshots,
    Site,
    browser_errors,
    overflow,
    require_browser,
    set_viewport,
    start_browser,
    unreachable,
    wait_until,
)
from unobot.stats.model import GameRecord, PlayerResult, player_ident

NETWORK = "testnet"
CHANNEL = "#uno"
PEOPLE = ("Alice", "Bob", "Carol", "Dave", "[Zed]")
"""People with enough games to be ranked; ``[Zed]`` has the brackets IRC nicks may have, which
a player link must carry through the URL."""
NEWCOMER = "Fay"
"""Two games only: below the minimum, never ranked (listed after the ranked ones, marked
provisional: issue 37)."""
STEP = re.compile(r"Step\s+(\d+)\s+of\s+(\d+)")
CARD_COLOURS = {"card-r", "card-y", "card-g", "card-b", "card-w"}


@dataclass(frozen=True)
class Seeded:
    url: str
    """The database's URL, for ``unobot web --database``."""
    path: Path
    replay_game: str
    """Key (game id) of a recorded game that has its move list."""
    replay_players: tuple[str, ...]


def hand_written_games(now: datetime) -> list[GameRecord]:
    """Games among PEOPLE over the last three weeks (so the week, month and all-time boards all
    have rows), Alice winning more often than the rest so the rankings differ; and NEWCOMER's
    two games."""
    rng = random.Random(19)
    games: list[GameRecord] = []
    for number in range(16):
        table = [PEOPLE[(number + k) % len(PEOPLE)] for k in range(3 + number % 2)]
        if NEWCOMER not in table and number in (3, 11):
            table.append(NEWCOMER)
        weights = [3.0 if nick == "Alice" else 1.0 for nick in table]
        order = []
        pool = list(zip(table, weights, strict=True))
        while pool:
            pick = rng.choices(range(len(pool)), [w for _, w in pool])[0]
            order.append(pool.pop(pick)[0])
        left = {nick: rng.randint(3, 60) for nick in order[1:]}
        results = [
            PlayerResult(
                ident=player_ident(nick),
                nick=nick,
                place=place,
                won=place == 1,
                points_won=sum(left.values()) if place == 1 else 0,
                points_left=left.get(nick, 0),
            )
            for place, nick in enumerate(order, 1)
        ]
        ended = now - timedelta(days=20 - number * 1.25, minutes=rng.randint(0, 300))
        games.append(
            GameRecord(
                game_id=f"{number:02d}" + "b" * 30,
                network=NETWORK,
                channel=CHANNEL,
                preset="classic",
                started=ended - timedelta(minutes=rng.randint(4, 25)),
                ended=ended,
                results=tuple(results),
            )
        )
    return games


def replayable_games(now: datetime) -> list[GameRecord]:
    """Real games with move lists among PEOPLE (the bot's tables played out with its plugins,
    journaled and recorded as it does), the most recent games of the seed."""
    from unobot.replay.simulate import recorded_games

    return recorded_games(
        4,
        19,
        players=PEOPLE,
        network=NETWORK,
        channel=CHANNEL,
        start=now - timedelta(days=1),
        gap=3600.0,
    )


def seed(path: Path) -> Seeded:
    from unobot.replay.figures import move_figures
    from unobot.stats.sql import SqlStatsStore

    url = f"sqlite:///{path}"
    store = SqlStatsStore(url, network=NETWORK, analyse=move_figures)
    try:
        now = datetime.now(UTC)
        recorded = replayable_games(now)
        for game in [*hand_written_games(now), *recorded]:
            store.record_game(game)
        assert store.pending == 0, "the seed games did not reach the database"
    finally:
        store.close()
    with_moves = [g for g in recorded if g.moves]
    assert with_moves, "recorded_games gave no game with a move list"
    game = max(with_moves, key=lambda g: len(g.results))
    return Seeded(url, path, game.game_id, tuple(r.nick for r in game.results))


# -- fixtures ----------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def seeded(tmp_path_factory: pytest.TempPathFactory) -> Seeded:
    return seed(tmp_path_factory.mktemp("webdb") / "stats.db")


@pytest.fixture(scope="module")
def site(seeded: Seeded, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Site]:
    server = Site(seeded.url, tmp_path_factory.mktemp("web"))
    yield server
    server.stop()


@pytest.fixture(scope="module")
def browser(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    require_browser()
    driver = start_browser(tmp_path_factory.mktemp("chromium-profile"))
    yield driver
    driver.quit()


@pytest.fixture(scope="module")
def shots(tmp_path_factory: pytest.TempPathFactory) -> Screenshots:
    return Screenshots.artefacts(tmp_path_factory.mktemp("screenshots"))


@pytest.fixture
def page(browser: Any, site: Site) -> Iterator[Any]:
    """The browser at desktop size, console cleared; after the test, no script errors and no
    request to any other host (the site works offline and tells nobody who looks at it)."""
    set_viewport(browser, DESKTOP, mobile=False)
    browser.get("about:blank")
    browser_errors(browser)
    yield browser
    errors = browser_errors(browser)
    assert not errors, f"errors in the browser console: {errors}"


def visit(driver: Any, site: Site, path: str) -> None:
    driver.get(site.url(path))
    foreign = driver.execute_script(
        "return performance.getEntriesByType('resource').map(e => e.name)"
        ".filter(u => !u.startsWith(location.origin) && !u.startsWith('data:'))"
    )
    assert not foreign, f"{path} loads from other hosts: {foreign}"


def css(driver: Any, selector: str) -> Any:
    return wait_until(
        lambda: driver.find_elements("css selector", selector), what=f"an element {selector}"
    )[0]


def player_path(nick: str) -> str:
    return "/player/" + urllib.parse.quote(nick, safe="")


def row_nicks(driver: Any, rows: str = "tr.player-row:not(.provisional)") -> list[str]:
    """The ranked players of the leaderboard on screen (``rows``: which rows)."""
    return [
        link.text.strip()
        for link in driver.find_elements("css selector", f"#leaderboard {rows} a.player-link")
    ]


# -- leaderboard -------------------------------------------------------------------------------


def test_leaderboard_rows_rankings_and_player_link(page: Any, site: Site, seeded: Seeded) -> None:
    from unobot.stats.model import Ranking
    from unobot.stats.sql import SqlStatsStore

    visit(page, site, "/")
    css(page, "#leaderboard tr.player-row")
    assert "5" in css(page, "#min-games").text, "the min-games rule is not shown"
    visit(page, site, "/leaderboard?ranking=pw&period=all")
    css(page, "#leaderboard tr.player-row")
    nicks = row_nicks(page)
    assert set(PEOPLE) <= set(nicks), f"ranked people missing from the leaderboard: {nicks}"
    assert NEWCOMER not in nicks, "a player below the minimum games is ranked"
    # ... but listed after the ranked ones, under the heading that says they are provisional.
    later = row_nicks(page, "tr.player-row.provisional")
    assert NEWCOMER in later, f"the newcomer is not listed as provisional: {later}"
    heading = css(page, "#leaderboard tr.provisional-head").text
    assert heading.startswith("Provisional: fewer than 5 games"), heading
    everyone = row_nicks(page, "tr.player-row")
    assert everyone == nicks + later, "provisional players are not after the ranked ones"

    store = SqlStatsStore(seeded.url, network=NETWORK)
    try:
        by_pw = [p.nick for p in store.leaderboard(Ranking.PERCENT_WINS, 50)]
        by_rating = [p.nick for p in store.rating_leaderboard(50)]
    finally:
        store.close()
    assert nicks == by_pw[: len(nicks)], f"percent-wins order {nicks} != {by_pw}"

    page.find_element("css selector", "#ranking-rating").click()
    wait_until(lambda: "ranking=rating" in page.current_url, what="the rating ranking's URL")
    css(page, "#leaderboard tr.player-row")
    rated = row_nicks(page)
    assert rated == by_rating[: len(rated)] and rated, f"rating order {rated} != {by_rating}"
    assert rated != nicks or by_rating == by_pw, "switching to rating changed nothing"

    page.find_element("css selector", "#ranking-ppg").click()
    wait_until(lambda: "ranking=ppg" in page.current_url, what="the ppg ranking's URL")

    link = next(
        a
        for a in page.find_elements("css selector", "#leaderboard a.player-link")
        if a.text.strip() == "[Zed]"
    )
    link.click()
    assert css(page, "#player-name").text.strip() == "[Zed]"


# -- player page -------------------------------------------------------------------------------

CHART = """
const svg = document.querySelector(arguments[0] + ' svg');
if (!svg) return null;
const box = svg.getBoundingClientRect();
const lines = [];
for (const p of svg.querySelectorAll('.series path, .series polyline, path.line')) {
    const d = p.getAttribute('d') || p.getAttribute('points') || '';
    const numbers = d.match(/-?\\d+(\\.\\d+)?(e-?\\d+)?/g) || [];
    const b = p.getBoundingClientRect();
    lines.push({points: Math.floor(numbers.length / 2), width: b.width, height: b.height});
}
return {width: box.width, height: box.height, lines: lines,
        dots: svg.querySelectorAll('.series .dot, .series circle').length};
"""


def test_player_page_charts_opponents_and_games(page: Any, site: Site) -> None:
    visit(page, site, player_path("Alice"))
    assert css(page, "#player-name").text.strip() == "Alice"
    for chart in ("#rating-chart", "#ppg-chart"):
        css(page, chart + " svg")
        drawn = page.execute_script(CHART, chart)
        assert drawn and drawn["width"] > 100 and drawn["height"] > 50, f"{chart}: {drawn}"
        plotted = [line for line in drawn["lines"] if line["points"] >= 2 and line["width"] > 0]
        assert plotted, f"{chart} has no plotted line of 2+ points: {drawn}"

    opponents = [li.text for li in page.find_elements("css selector", "#opponents li")]
    assert opponents, "no opponents listed"
    assert any(nick in text for text in opponents for nick in PEOPLE if nick != "Alice")

    games = page.find_elements("css selector", "#recent-games a.game-link")
    assert games, "no recent games listed"
    games[0].click()
    results = css(page, "#results")
    assert "Alice" in results.text, "the game page does not list the player who played it"


@pytest.mark.parametrize(
    "path",
    [player_path("nobody-like-this"), "/game/zzzz", "/game/999999", "/leaderboard?period=x"],
)
def test_a_bad_address_gets_a_short_page_with_a_way_back(page: Any, site: Site, path: str) -> None:
    """What a visitor with a stale or mistyped link sees: a heading saying what is wrong, no
    traceback, and a link back that leads to the leaderboard."""
    visit(page, site, path)
    heading = css(page, "h1").text.strip()
    body = page.find_element("css selector", "body").text
    assert heading and "Traceback" not in body, f"{path}: {body[:300]!r}"
    expected = [e for e in browser_errors(page) if re.search(r"status of 40[04]", e)]
    assert expected, f"{path} was not answered 404/400"
    page.find_element("css selector", "main a[href*='leaderboard']").click()
    css(page, "#leaderboard tr.player-row")


# -- game page: the replay ---------------------------------------------------------------------

STATE = """
const text = s => (document.querySelector(s) || {}).textContent || '';
const hands = {};
for (const h of document.querySelectorAll('#replay .hand')) {
    hands[h.dataset.nick] = [...h.querySelectorAll('.card')].map(
        c => c.getAttribute('aria-label'));
}
return {step: text('#replay-step').trim(), lines: text('#replay-lines').trim(),
        top: (document.querySelector('#replay-top') || {}).innerHTML || '', hands: hands};
"""

RENDERING = """
const out = [];
for (const c of document.querySelectorAll('#replay .card')) {
    const s = getComputedStyle(c), before = getComputedStyle(c, '::before'),
        after = getComputedStyle(c, '::after');
    out.push([c.className, c.innerText, s.backgroundColor, s.backgroundImage, s.color,
              s.borderStyle, before.content, after.content, before.backgroundImage]);
}
return JSON.stringify(out);
"""


def step_of(state: dict[str, Any]) -> tuple[int, int]:
    found = STEP.search(state["step"])
    assert found, f"#replay-step reads {state['step']!r}, not 'Step N of M'"
    return int(found.group(1)), int(found.group(2))


def test_game_replay_steps_through_the_hands(page: Any, site: Site, seeded: Seeded) -> None:
    visit(page, site, f"/game/{seeded.replay_game}")
    results = css(page, "#results").text
    for nick in seeded.replay_players:
        assert nick in results, f"{nick} missing from the results table"
    css(page, "#replay .hand .card")

    def state() -> dict[str, Any]:
        return page.execute_script(STATE)

    first = wait_until(lambda: (s := state()) and STEP.search(s["step"]) and s, what="the step")
    assert step_of(first)[0] == 1, first["step"]
    total = step_of(first)[1]
    assert total > 5, f"a whole game in {total} steps?"
    assert set(first["hands"]) == set(seeded.replay_players), first["hands"].keys()
    assert page.find_elements("css selector", "#replay-top .card"), "no top card shown"

    seen = [first]
    for n in range(2, 5):
        page.find_element("css selector", "#replay-next").click()
        now = wait_until(lambda n=n: (s := state()) and step_of(s)[0] == n and s, what=f"step {n}")
        assert step_of(now) == (n, total)
        assert now["lines"] and now["lines"] != seen[-1]["lines"], f"step {n}: same lines"
        seen.append(now)
    assert any(s["hands"] != first["hands"] for s in seen[1:]), "the hands never changed"

    page.find_element("css selector", "#replay-prev").click()
    back = wait_until(lambda: (s := state()) and step_of(s)[0] == 3 and s, what="step 3 again")
    assert back == seen[2], "stepping back does not show the same step again"

    page.find_element("css selector", "#replay-last").click()
    last = wait_until(lambda: (s := state()) and step_of(s)[0] == total and s, what="last step")
    assert step_of(last) == (total, total)
    page.find_element("css selector", "#replay-first").click()
    wait_until(lambda: step_of(state())[0] == 1, what="back to step 1")

    # Without a mouse: the arrow keys step once a replay button has the focus.
    from selenium.webdriver.common.keys import Keys

    page.find_element("css selector", "#replay-next").send_keys(Keys.ARROW_RIGHT)
    wait_until(lambda: step_of(state())[0] == 2, what="step 2 by the right arrow key")
    page.find_element("css selector", "#replay-next").send_keys(Keys.ARROW_LEFT)
    wait_until(lambda: step_of(state())[0] == 1, what="step 1 by the left arrow key")


def test_cards_have_colours_labels_and_a_colour_blind_form(
    page: Any, site: Site, seeded: Seeded
) -> None:
    visit(page, site, f"/game/{seeded.replay_game}")
    cards = page.find_elements("css selector", "#replay .card")
    assert cards, "no cards on the replay"
    for card in cards:
        classes = set((card.get_attribute("class") or "").split())
        assert classes & CARD_COLOURS, f"a card without a colour class: {classes}"
        assert (card.get_attribute("aria-label") or "").strip(), "a card without an aria-label"
        size = card.size
        assert size["width"] > 0 and size["height"] > 0, "an invisible card"

    before = page.execute_script(RENDERING)
    assert not page.find_element("css selector", "input#colorblind").is_selected()
    after = toggle_colour_blind(page, before)
    assert after != before

    page.refresh()  # the choice is remembered by the browser
    css(page, "#replay .card")
    assert page.find_element("css selector", "input#colorblind").is_selected()
    assert page.execute_script(RENDERING) == after, "the colour-blind choice was not kept"
    assert toggle_colour_blind(page, after) == before, "turning it off left the cards changed"


def toggle_colour_blind(page: Any, rendering: str) -> str:
    """Click the colour-blind box (or its label, if the box is styled away) and wait for the
    cards to look different from ``rendering``; the new rendering."""
    box = page.find_element("css selector", "input#colorblind")
    was = box.is_selected()
    if box.is_displayed():
        box.click()
    else:
        page.find_element("css selector", "label[for=colorblind]").click()
    wait_until(lambda: box.is_selected() != was, what="the colour-blind box to change")
    return wait_until(
        lambda: (r := page.execute_script(RENDERING)) != rendering and r,
        what="the cards to look different",
    )


# -- phone width and screenshots ---------------------------------------------------------------


DOCS_SHOTS = {"leaderboard-desktop": 900, "player-desktop": 1320, "game-desktop": 3000}
"""The stats-site docs' pictures (docs/web-*.png) and how much of each page they show, in pixels."""


def test_every_page_fits_a_phone_and_is_photographed(
    page: Any, site: Site, seeded: Seeded, shots: Screenshots
) -> None:
    pages = {
        "leaderboard": "/",
        "leaderboard-week": "/leaderboard?ranking=pw&period=week",
        "player": player_path("Alice"),
        "game": f"/game/{seeded.replay_game}",
        "records": "/records?bots=1",
    }
    docs = os.environ.get("UNOBOT_WEB_DOCS")
    problems = []
    for name, path in pages.items():
        for size, mobile in ((DESKTOP, False), (PHONE, True)):
            set_viewport(page, size, mobile=mobile)
            visit(page, site, path)
            if name == "game":  # a few moves in: cards played, hands of different sizes
                for _ in range(6):
                    page.find_element("css selector", "#replay-next").click()
                wait_until(lambda: "Step 7 " in page.execute_script(STATE)["step"])
            shot = f"{name}-{'phone' if mobile else 'desktop'}"
            shots.take(page, shot)
            if docs and shot in DOCS_SHOTS:
                Screenshots(Path(docs)).take(page, f"web-{name}", DOCS_SHOTS[shot])
            if mobile:
                problems += phone_problems(page, path)
    assert not problems, "\n".join(problems)
    assert all(p.stat().st_size > 1000 for p in shots.taken), "an empty screenshot"


def phone_problems(page: Any, path: str) -> list[str]:
    """What keeps the page from fitting a phone: no viewport declaration (the phone would lay
    it out 980 px wide and zoom out), a page wider than the screen, or content cut off where
    no box scrolls to it (a wide table in its own scrolling box is fine)."""
    viewport = page.execute_script(
        "const m = document.querySelector('meta[name=viewport]'); return m && m.content"
    )
    measured = overflow(page, PHONE[0])
    if "width=device-width" not in (viewport or ""):
        return [
            f"{path}: no <meta name=viewport content=width=device-width> ({viewport!r}): "
            f"a phone lays it out {measured['innerWidth']} px wide and zooms out"
        ]
    if max(measured["scrollWidth"], measured["innerWidth"]) > PHONE[0] + 1:
        return [
            f"{path}: {measured['scrollWidth']} px wide on a {PHONE[0]} px phone, "
            f"sticking out: {measured['widest']}"
        ]
    hidden = unreachable(page, PHONE[0])
    if hidden:
        return [f"{path}: cut off on a phone, no way to scroll to it: {hidden}"]
    return []


# -- issue 28: phones, little data, charts, favicon -------------------------------------------

WIDTHS = (((360, 740), True), ((390, 844), True), (DESKTOP, False))
"""Two common phones (CSS pixels, emulated as phones) and the desktop."""

COLUMNS = """
const [table, names] = arguments;
const box = table.closest('.table-scroll');
const frame = box.getBoundingClientRect();
const heads = [...table.querySelectorAll('thead th')].map(
    th => th.textContent.replace(/\\s+/g, ' ').trim());
const out = {scrollLeft: box.scrollLeft, heads: heads, cut: []};
for (const name of names) {
    const i = heads.indexOf(name);
    if (i < 0) { out.cut.push(name + ': no such column'); continue; }
    const cells = [table.querySelector('thead tr').children[i]];
    for (const row of table.querySelectorAll('tbody tr')) {
        if (row.children.length === heads.length) cells.push(row.children[i]);
    }
    for (const cell of cells) {
        const r = cell.getBoundingClientRect();
        if (r.left < Math.max(0, frame.left) - 1 || r.right > Math.min(innerWidth, frame.right) + 1
                || cell.scrollWidth > cell.clientWidth + 1) {
            out.cut.push(name + ' (' + cell.textContent.trim() + '): ' + Math.round(r.left)
                + '..' + Math.round(r.right) + ' of ' + Math.round(frame.right));
            break;
        }
    }
}
return out;
"""

CHART_TEXT = """
const out = {texts: 0, smallest: 999, small: [], charts: []};
for (const svg of document.querySelectorAll('figure svg')) {
    const box = svg.getBoundingClientRect();
    if (!box.width) continue;  // the drawing for the other width
    const column = svg.closest('section').getBoundingClientRect().width;
    out.charts.push([Math.round(box.width), Math.round(column)]);
    for (const t of svg.querySelectorAll('text')) {
        const r = t.getBoundingClientRect();
        if (!r.width || !t.textContent.trim()) continue;
        const m = t.getScreenCTM();  // the viewBox's scale, rotated for the y axis's title
        const px = parseFloat(getComputedStyle(t).fontSize) * Math.hypot(m.a, m.b);
        out.texts += 1;
        out.smallest = Math.min(out.smallest, px);
        const across = Math.abs(m.b) > Math.abs(m.a) ? r.width : r.height;
        if (px < 10 || across < 10) out.small.push(t.textContent + ' ' + px.toFixed(1) + 'px');
    }
}
return out;
"""

IN_VIEW = """
const r = document.querySelector(arguments[0]).getBoundingClientRect();
return {top: r.top, bottom: r.bottom, inView: r.top >= -1 && r.bottom <= innerHeight + 1,
        scrollY: scrollY};
"""


def size_name(size: tuple[int, int], mobile: bool) -> str:
    return f"phone{size[0]}" if mobile else "desktop"


def page_fits(page: Any, path: str, width: int) -> list[str]:
    """The page no wider than the screen (``scrollWidth <= innerWidth``) at ``width``."""
    measured = overflow(page, width)
    if max(measured["scrollWidth"], measured["innerWidth"]) > width + 1:
        return [f"{path} at {width}: {measured['scrollWidth']} px wide: {measured['widest']}"]
    return []


def columns_cut(page: Any, table: str, names: tuple[str, ...]) -> list[str]:
    found = page.execute_script(COLUMNS, css(page, table), list(names))
    assert found["scrollLeft"] == 0, found
    return found["cut"]


def test_the_columns_people_look_for_are_on_screen_at_every_width(
    page: Any, site: Site, seeded: Seeded, shots: Screenshots
) -> None:
    """Issue 28: at 360 and 390 px the ranked figure, a game's place and points and the rating
    after a game are on screen without scrolling the table; no page scrolls sideways."""
    tables = {
        "board-pw": ("/leaderboard?ranking=pw&period=all", "#leaderboard",
                     ("#", "Player", "% wins", "Points per game")),
        "board-rating": ("/", "#leaderboard", ("#", "Player", "Rating", "% wins")),
        "player": (player_path("Alice"), "#recent-games", ("Game ended (UTC)", "Place", "Points")),
        "game": (f"/game/{seeded.replay_game}", "#results",
                 ("Place", "Player", "Points won", "Rating after")),
    }  # fmt: skip
    problems = []
    for size, mobile in WIDTHS:
        set_viewport(page, size, mobile=mobile)
        for name, (path, table, names) in tables.items():
            visit(page, site, path)
            problems += page_fits(page, path, size[0])
            problems += [f"{path} at {size[0]}: {cut}" for cut in columns_cut(page, table, names)]
            if size[0] == 390:  # 360 and desktop are photographed by the test above
                shots.take(page, f"{name}-{size_name(size, mobile)}")
    assert not problems, "\n".join(problems)


def test_a_wide_table_says_it_scrolls(page: Any, site: Site, seeded: Seeded) -> None:
    """A table wider than the phone fades at the edge it scrolls to and says so underneath."""
    set_viewport(page, PHONE, mobile=True)
    visit(page, site, player_path("Alice"))
    box = css(page, "#recent-games").find_element("xpath", "..")
    wait_until(lambda: "scrolls" in (box.get_attribute("class") or ""), what="the scroll mark")
    assert "more-right" in (box.get_attribute("class") or "")
    hint = page.find_element("css selector", ".table-scroll.scrolls + .scroll-hint")
    assert hint.is_displayed() and "swipe" in hint.text
    page.execute_script("arguments[0].scrollLeft = arguments[0].scrollWidth", box)
    wait_until(lambda: "more-right" not in (box.get_attribute("class") or ""), what="the end")
    assert "more-left" in (box.get_attribute("class") or "")
    set_viewport(page, DESKTOP, mobile=False)
    visit(page, site, player_path("Alice"))
    assert not page.find_element("css selector", ".scroll-hint").is_displayed()


def test_replay_controls_stay_on_screen_while_stepping(
    page: Any, site: Site, seeded: Seeded, shots: Screenshots
) -> None:
    """Read the hands at the bottom of the replay, press Next several times: the buttons and
    the step stay in view and the page does not jump back up."""
    for size, mobile in WIDTHS:
        set_viewport(page, size, mobile=mobile)
        visit(page, site, f"/game/{seeded.replay_game}")
        wait_until(lambda: STEP.search(page.execute_script(STATE)["step"]), what="the replay")
        page.execute_script(
            "document.querySelector('#replay-score-box').scrollIntoView({block: 'end'})"
        )
        below = page.execute_script(IN_VIEW, "#replay-hands")
        assert below["scrollY"] > 100 or not mobile, f"{size}: the page did not scroll {below}"
        for n in range(2, 8):
            controls = page.execute_script(IN_VIEW, "#replay-bar")
            assert controls["inView"], f"{size}: replay controls off screen: {controls}"
            page.find_element("css selector", "#replay-next").click()
            wait_until(lambda n=n: f"Step {n} " in page.execute_script(STATE)["step"])
        after = page.execute_script(IN_VIEW, "#replay-bar")
        assert after["inView"], f"{size}: controls off screen after stepping: {after}"
        assert page.execute_script(IN_VIEW, "#replay-step")["inView"]
        # Still reading the hands (the page may shrink as hands do, never jump back up).
        hands = page.execute_script(IN_VIEW, "#replay-hands")
        assert hands["top"] < size[1] and hands["bottom"] > 0, f"{size}: hands left: {hands}"
        shots.take_viewport(page, f"replay-stepped-{size_name(size, mobile)}")


def test_chart_text_is_readable_and_charts_fill_their_column(
    page: Any, site: Site, shots: Screenshots
) -> None:
    for size, mobile in WIDTHS:
        set_viewport(page, size, mobile=mobile)
        visit(page, site, player_path("Alice"))
        css(page, "#rating-chart svg")
        found = page.execute_script(CHART_TEXT)
        assert len(found["charts"]) == 2, f"{size}: {found}"
        assert found["texts"] >= 10, f"{size}: no axis text measured: {found}"
        assert not found["small"], f"{size}: chart text below 10 px: {found['small']}"
        for width, column in found["charts"]:
            assert width >= column - 2, f"{size}: a chart {width} px wide in a {column} column"
        if mobile and size[0] == 390:
            shots.take(page, f"player-{size_name(size, mobile)}")


def test_titles_say_which_game_and_the_favicon_answers(
    page: Any, site: Site, seeded: Seeded
) -> None:
    visit(page, site, f"/game/{seeded.replay_game}")
    title = page.title
    assert re.fullmatch(r"Game \d+ — #uno, \d{4}-\d{2}-\d{2} · unobot", title), title
    assert seeded.replay_game[:8] not in title
    visit(page, site, player_path("[Zed]"))
    assert page.title.startswith("[Zed]"), page.title
    icon = page.execute_script("return document.querySelector('link[rel=icon]').href")
    for url in (site.url("/favicon.ico"), icon):
        with urllib.request.urlopen(url, timeout=5) as answer:
            assert answer.status == 200, url
            assert answer.headers["Content-Type"].startswith("image/svg+xml"), url
            assert "default-src 'self'" in answer.headers["Content-Security-Policy"], url
            assert answer.read().startswith(b"<svg"), url
    drawn = page.execute_script(
        "const i = new Image(); i.src = arguments[0];"
        "return i.decode().then(() => i.naturalWidth, () => 0);",
        icon,
    )
    assert drawn > 0, "the favicon does not draw (CSP or a broken SVG)"


# -- a new database: a few games only -----------------------------------------------------------

FRESH = {"Ann": 3, "Ben": 3, "Cy": 1, "Di": 2}
"""Games each player has on a new database (three games in all)."""


@pytest.fixture(scope="module")
def fresh_site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Site]:
    """What a new operator sees first: a database with three games, all today."""
    from unobot.stats.sql import SqlStatsStore

    path = tmp_path_factory.mktemp("freshdb") / "stats.db"
    url = f"sqlite:///{path}"
    now = datetime.now(UTC)
    tables = [["Ann", "Ben", "Cy"], ["Ben", "Ann", "Di"], ["Di", "Ann", "Ben"]]
    store = SqlStatsStore(url, network=NETWORK)
    try:
        for number, order in enumerate(tables):
            results = tuple(
                PlayerResult(player_ident(n), n, place, place == 1,
                             30 if place == 1 else 0, 0 if place == 1 else 15)
                for place, n in enumerate(order, 1)
            )  # fmt: skip
            ended = now - timedelta(minutes=30 * (3 - number))
            store.record_game(
                GameRecord(f"{number:x}" * 32, NETWORK, CHANNEL, "official",
                           ended - timedelta(minutes=9), ended, results)
            )  # fmt: skip
    finally:
        store.close()
    server = Site(url, tmp_path_factory.mktemp("freshweb"))
    yield server
    server.stop()


def test_a_new_database_says_the_few_values_instead_of_empty_charts(
    page: Any, fresh_site: Site, shots: Screenshots
) -> None:
    for size, mobile in WIDTHS[::2]:
        set_viewport(page, size, mobile=mobile)
        for nick, games in FRESH.items():
            visit(page, fresh_site, player_path(nick))
            assert css(page, "#player-name").text.strip() == nick
            assert not page.find_elements("css selector", "figure svg"), f"{nick}: a chart"
            rating = css(page, "#rating-words").text
            assert rating.startswith("Rating after each rated game so far: "), rating
            assert len(re.findall(r"\b\d+ \(\d{4}-\d{2}-\d{2}\)", rating)) == games, rating
            ppg = css(page, "#ppg-words").text
            assert ppg.startswith("Points per game: ") and f"({games} game" in ppg, ppg
            assert not page_fits(page, nick, size[0])
            if nick == "Ann":
                shots.take(page, f"new-database-player-{size_name(size, mobile)}")
        visit(page, fresh_site, "/leaderboard?ranking=pw&min=1")
        assert set(row_nicks(page)) == set(FRESH)
        assert not page_fits(page, "leaderboard", size[0])
