"""Spectating in a real browser: a real bot plays a real game on a real IRC server, people's
clients playing it move by move, while headless Chromium watches the game's spectator view on
``unobot web`` (its own process, reading the SQLite store the bot writes its live rows to).

The page must follow every move without a reload (``live.js`` swaps its content; a marker
set on the window at the start survives), within 2 s of the move on IRC, at desktop width
and at a 390 px phone's, and never show a hand: not the cards any player was told by NOTICE,
not the "Your cards" notice (the cards left are counted in the channel once the game is over,
as on IRC: the page shows the channel's lines and nothing else). When the game ends the page
says so and links to its replay.
"""

from __future__ import annotations

import statistics
import time
import urllib.parse
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.e2e.browser import (
    DESKTOP,
    Screenshots,
    Site,
    browser_errors,
    overflow,
    require_browser,
    set_viewport,
    start_browser,
    wait_until,
)
from tests.e2e.conftest import unique
from tests.e2e.servers import IrcServer
from tests.e2e.test_games import NetGame, RunningBot, make_players, server  # noqa: F401
from unobot.core.table import TableConfig

PHONE_390 = (390, 844)
FOLLOW = 8
"""Moves followed one by one at each width."""


@pytest.fixture
def browser(tmp_path: Path) -> Iterator[Any]:
    require_browser()
    driver = start_browser(tmp_path / "profile")
    yield driver
    driver.quit()


def shown(driver: Any) -> dict[str, Any]:
    return driver.execute_script(
        """
        const q = s => document.querySelector(s);
        const players = [...document.querySelectorAll('#live-players li')].map(li => [
            li.querySelector('.nick').textContent,
            parseInt(li.querySelector('.count').textContent)]);
        const top = q('#live-top .card');
        return {marker: window.__spectating === 1,
                turn: q('#live-turn') && q('#live-turn').textContent,
                top: top && top.getAttribute('aria-label'), players: players,
                text: document.body.innerText,
                state: q('#live-state') && q('#live-state').textContent};
        """
    )


def label(card: Any) -> str:
    from unobot.web.cards import card_view

    return card_view(card.text).label


def never_a_hand(game: NetGame, text: str) -> None:
    assert "Your cards" not in text
    for p in game.order:
        hand = " ".join(c.text for c in p.agent.hand)
        if len(p.agent.hand) >= 2:
            assert hand not in text, f"{p.client.nick}'s hand is on the page"


def follow(driver: Any, game: NetGame, moves: int, latencies: list[float]) -> None:
    """Make ``moves`` moves over IRC; after each, the page shows the table's new public state
    (whose turn, the pile's top, every count) by itself."""
    for _ in range(moves):
        if game.over():
            return
        game.step()
        moved = time.monotonic()
        table = game.bot.table()
        status = None if table is None else table.status()
        if status is None:
            return
        want = ([[n, c] for n, c in status.counts], label(status.top), status.current)

        def showing(want: tuple[Any, ...] = want) -> bool:
            s = shown(driver)
            return s["players"] == want[0] and s["top"] == want[1] and want[2] in (s["turn"] or "")

        wait_until(
            showing,
            timeout=5.0,
            what=f"the page to show {status.current}'s turn on {status.top.text}",
        )
        latencies.append(time.monotonic() - moved)
        now = shown(driver)
        assert now["marker"], "the page was reloaded"
        never_a_hand(game, now["text"])


def test_a_spectator_follows_a_real_game_move_by_move_and_never_sees_a_hand(
    server: IrcServer,  # noqa: F811
    browser: Any,
    tmp_path: Path,
) -> None:
    url = f"sqlite:///{tmp_path / 'stats.db'}"
    bot = RunningBot(
        server, "#" + unique("live"), TableConfig(), seed=31, database=url, live=True, upkeep=5.0
    )
    players = make_players(server, 3, bot.channel)
    site = Site(url, tmp_path)
    shots = Screenshots.artefacts(tmp_path / "shots")
    try:
        game = NetGame(bot, players)
        game.start()
        path = "/live/-/" + urllib.parse.quote(bot.channel, safe="")
        set_viewport(browser, DESKTOP, mobile=False)
        browser.get(site.url("/live"))
        link = wait_until(
            lambda: browser.find_elements("css selector", "a.spectate-link"),
            what="the game on /live",
        )[0]
        assert link.text == bot.channel
        set_viewport(browser, PHONE_390, mobile=True)  # the list fits a phone too
        listed = overflow(browser, PHONE_390[0])
        assert listed["scrollWidth"] <= PHONE_390[0], listed
        shots.take(browser, "live-list-phone")
        set_viewport(browser, DESKTOP, mobile=False)
        link = browser.find_elements("css selector", "a.spectate-link")[0]
        link.click()
        wait_until(lambda: browser.current_url == site.url(path), what="the spectator view")
        browser.execute_script("window.__spectating = 1")
        latencies: list[float] = []
        follow(browser, game, FOLLOW, latencies)
        shots.take(browser, "live-spectate-desktop")
        wide = overflow(browser, DESKTOP[0])
        assert wide["scrollWidth"] <= DESKTOP[0], wide
        set_viewport(browser, PHONE_390, mobile=True)  # no reload: the same page, narrower
        follow(browser, game, FOLLOW, latencies)
        narrow = overflow(browser, PHONE_390[0])
        assert narrow["scrollWidth"] <= PHONE_390[0], narrow
        assert narrow["innerWidth"] == PHONE_390[0], narrow
        shots.take(browser, "live-spectate-phone")
        assert len(latencies) >= FOLLOW, latencies
        print(
            f"\nspectator view: {len(latencies)} moves followed; page updated "
            f"{statistics.median(latencies):.2f} s median, {max(latencies):.2f} s max after the "
            "move's reply on IRC"
        )
        assert max(latencies) < 2.0, latencies  # the bound, every move
        game.play_to_end()
        ended = wait_until(
            lambda: "This game has ended" in (shown(browser)["state"] or ""),
            timeout=10.0,
            what="the page to say the game ended",
        )
        assert ended
        replay = wait_until(
            lambda: browser.find_elements("css selector", "#replay-link"), what="the replay link"
        )[0]
        final = shown(browser)
        assert final["marker"], "the page was reloaded"
        assert "Your cards" not in final["text"]
        assert any(cards == 0 for _, cards in final["players"]), final["players"]  # how it ended
        # After the end the channel counted the cards left (its public scoring line, as on
        # IRC): the page shows the channel's lines and nothing else.
        lines = browser.execute_script(
            "return [...document.querySelectorAll('#live-lines li')].map(li => li.textContent)"
        )
        said = game.channel_text()
        assert lines and all(line in said for line in lines), (lines, said[-5:])
        shots.take(browser, "live-spectate-ended")
        replay.click()
        wait_until(lambda: "/game/" in browser.current_url, what="the replay page")
        assert not browser_errors(browser)
    finally:
        for p in players:
            p.client.close()
        bot.stop()
        site.stop()
