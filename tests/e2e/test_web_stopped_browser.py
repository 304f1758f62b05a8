"""Issue 37 item 7 on the stats site, in a real browser (Debian's Chromium through Selenium,
as ``tests/e2e/test_web_browser.py``): a new install with a few games and one match stopped
with ``.unostop``.

A person opens the site: every leaderboard lists the players so far under "Provisional", none
ranked, with the sentence that says what counts as a game; they follow a player's link, see
their games total count the stopped game and that game marked stopped in their recent games,
and follow it to the game's page, which says it was stopped and nobody won it. Each page fits
a phone. Screenshots go with the other site pictures (``$UNOBOT_ARTIFACTS/web/``).
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from tests.e2e.browser import PHONE, Screenshots, Site, set_viewport
from tests.e2e.test_web_browser import (  # noqa: F401  (fixtures)
    browser,
    css,
    page,
    page_fits,
    player_path,
    row_nicks,
    shots,
    visit,
)
from unobot.stats.model import GameRecord, PlayerResult, player_ident

NETWORK = "testnet"
CHANNEL = "#uno"
STOPPED = "5709" * 8
PLAYERS = {"Ann": 3, "Ben": 3, "Cy": 2}
"""Games each has: two finished games and the stopped one (Cy missed the first)."""


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Site]:
    from unobot.stats.sql import SqlStatsStore

    path = tmp_path_factory.mktemp("stoppeddb") / "stats.db"
    url = f"sqlite:///{path}"
    now = datetime.now(UTC)
    finished = [["Ann", "Ben"], ["Ben", "Ann", "Cy"]]
    store = SqlStatsStore(url, network=NETWORK)
    try:
        for number, order in enumerate(finished):
            results = tuple(
                PlayerResult(player_ident(n), n, place, place == 1,
                             40 if place == 1 else 0, 0 if place == 1 else 20)
                for place, n in enumerate(order, 1)
            )  # fmt: skip
            ended = now - timedelta(hours=3 - number)
            store.record_game(
                GameRecord(f"{number:x}" * 32, NETWORK, CHANNEL, "official",
                           ended - timedelta(minutes=9), ended, results)
            )  # fmt: skip
        stopped = (  # .unostop in the second hand: Cy led with 28, nobody won
            PlayerResult("cy", "Cy", 1, False, 28, 9),
            PlayerResult("ann", "Ann", 2, False, 0, 14),
            PlayerResult("ben", "Ben", 3, False, 0, 30),
        )
        store.record_game(
            GameRecord(STOPPED, NETWORK, CHANNEL, "official", now - timedelta(minutes=40),
                       now - timedelta(minutes=5), stopped, stopped=True)
        )  # fmt: skip
    finally:
        store.close()
    server = Site(url, tmp_path_factory.mktemp("stoppedweb"))
    yield server
    server.stop()


WHAT_COUNTS = "A game counts once a hand of it has been played out."


def test_a_new_install_lists_everyone_as_provisional_and_says_what_counts(
    page: Any,  # noqa: F811
    site: Site,
    shots: Screenshots,  # noqa: F811
) -> None:
    for ranking in ("rating", "pw", "ppg"):
        visit(page, site, f"/leaderboard?ranking={ranking}")
        heading = css(page, "#leaderboard tr.provisional-head").text
        assert heading.startswith("Provisional: fewer than 5"), heading
        assert row_nicks(page) == [], "somebody is ranked with fewer than 5 games"
        listed = row_nicks(page, "tr.player-row.provisional")
        assert sorted(listed) == sorted(PLAYERS), (ranking, listed)
        ranks = [
            td.text
            for td in page.find_elements("css selector", "tr.provisional td.num:first-child")
        ]
        assert ranks == ["–"] * len(PLAYERS), ranks
        assert "No player has" not in page.find_element("css selector", "main").text
        assert css(page, "#what-counts").text.startswith(WHAT_COUNTS)
        rule = css(page, "#min-games").text
        assert "Players with fewer are listed after them, marked provisional." in rule
    shots.take(page, "provisional-leaderboard-desktop")
    set_viewport(page, PHONE, mobile=True)
    visit(page, site, "/leaderboard?ranking=ppg")
    assert not page_fits(page, "/leaderboard?ranking=ppg", PHONE[0])
    shots.take(page, "provisional-leaderboard-phone")


def test_a_stopped_game_reads_stopped_from_the_board_to_its_page(
    page: Any,  # noqa: F811
    site: Site,
    shots: Screenshots,  # noqa: F811
) -> None:
    visit(page, site, "/leaderboard?ranking=ppg")
    link = next(
        a
        for a in page.find_elements("css selector", "#leaderboard a.player-link")
        if a.text == "Ann"
    )
    link.click()
    assert css(page, "#player-name").text.strip() == "Ann"
    assert css(page, "#games-total").text == "3 (1 stopped)"
    assert css(page, "#what-counts").text.startswith(WHAT_COUNTS)
    rows = page.find_elements("css selector", "#recent-games tbody tr")
    newest = rows[0].text
    assert "stopped" in newest and "won" not in newest, newest
    assert all("stopped" not in row.text for row in rows[1:])
    rows[0].find_element("css selector", "a.game-link").click()
    tag = css(page, "h1 .tag.stopped")
    assert tag.text == "stopped"
    note = css(page, "#stopped").text
    assert note.startswith("This game was stopped before its end: nobody won it."), note
    results = css(page, "#results tbody").text
    assert "won" not in results and "Cy" in results
    places = [
        td.text for td in page.find_elements("css selector", "#results tbody td.num:first-child")
    ]
    assert places == ["1", "2", "3"], places
    shots.take(page, "stopped-game-desktop")
    set_viewport(page, PHONE, mobile=True)
    visit(page, site, f"/game/{STOPPED[:8]}")
    assert css(page, "h1 .tag.stopped").is_displayed()
    assert not page_fits(page, f"/game/{STOPPED[:8]}", PHONE[0])
    shots.take(page, "stopped-game-phone")
