"""A whole tournament watched in a browser: the real ``unobot`` process runs a knockout of
computer entrants on a real IRC server (miniircd) with a shortened clock
(``tournament_time_scale``) and writes it to its stats database; ``unobot web`` serves that
database; headless Chromium (Debian's, through Selenium) keeps the tournament's page open
from sign-up to the end, never reloading it, while the page updates itself
(``static/live.js``). The page must show the tables, totals and standings as the bot writes
them (within 2 s of the result announced on IRC), draw the bracket the channel announced,
end as a static page with the final placings, print its score sheet one round per A4 page,
and fit a phone.
"""

from __future__ import annotations

import base64
import csv
import io
import json
import re
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import quote

import pytest

from tests.core.fakes import strip_codes
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
from tests.e2e.client import TestClient
from tests.e2e.conftest import module_server, unique
from tests.e2e.test_tournaments_e2e import (
    _IS_OVER,
    _TOP,
    ADMIN,
    BotProcess,
    Scene,
)

server = module_server("miniircd")

SCALE = 0.0033
"""A 60-minute knockout game lasts 12 s."""

MARK = "window.__watched = 'since the start'"
"""Set once in the page: still there at the end means the page was never reloaded."""


@pytest.fixture
def browser(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    require_browser()
    driver = start_browser(tmp_path_factory.mktemp("chromium-profile"))
    yield driver
    driver.quit()


def config_text(nick: str, port: int, channel: str) -> str:
    return f"""[irc]
nick = "{nick}"
send_rate = 0
[[irc.servers]]
host = "127.0.0.1"
port = {port}
tls = false
[irc.channels]
"{channel}" = ""
[bot]
admins = ["{ADMIN}*!*@*"]
tournament_time_scale = {SCALE}
turn_timeout = 15
[bots]
delay = 0.05
budget_ms = 5
workers = 0
"""


def tournament_bot(server: Any, tmp_path: Path, prefix: str) -> tuple[Scene, TestClient, Any]:
    """The real bot on ``server`` with an admin client in a fresh tournament channel."""
    scene = Scene(server)
    scene.channel = "#" + unique(prefix)
    nick = unique("unobot")
    config = tmp_path / "unobot.toml"
    config.write_text(config_text(nick, server.port, scene.channel), encoding="utf-8")
    admin = TestClient(server.port, unique(ADMIN))
    admin.join(scene.channel)
    scene.admin, scene.bot_nick = admin, nick
    return scene, admin, BotProcess(tmp_path, config, admin, nick)


def open_tournament(scene: Scene, words: str) -> None:
    """``.tournament new WORDS`` until it is open: a bot just started reads its tournaments
    from the database first, and says so to a command that comes too early."""
    admin = scene.admin
    assert admin is not None
    for _ in range(20):
        after = len(admin.snapshot())
        admin.privmsg(scene.channel, f".tournament new {words}")
        said = admin.wait_for(
            lambda m: (
                m.nick == scene.bot_nick and ("is open" in m.text or "still being read" in m.text)
            ),
            timeout=10,
            what="the tournament opened",
            after=after,
        )
        if "is open" in strip_codes(said.text):
            return
        time.sleep(0.5)
    raise AssertionError("the bot never opened the tournament")


def texts(driver: Any, selector: str) -> list[str]:
    return [e.text.strip() for e in driver.find_elements("css selector", selector)]


def page_state(driver: Any) -> dict[str, Any]:
    return driver.execute_script(
        """
        const all = (s) => Array.from(document.querySelectorAll(s));
        return {
          watched: window.__watched || null,
          version: document.getElementById('main').getAttribute('data-live-version'),
          status: (document.getElementById('tournament-status') || {}).textContent,
          tables: all('#tables .table-card').length,
          done: all('#games tr.game-row:not(.playing)').map(r => r.getAttribute('data-key')),
          standings: all('#standings tr.standing-row')
            .map(r => Array.from(r.children).map(c => c.textContent.trim()).join(' ')),
        };
        """
    )


def placings_are_the_csv(browser: Any, site: Site, name: str) -> list[list[str]]:
    """The page's placings (place, name, score) are the CSV download's standings, the bot's
    export; returns the CSV's rows."""
    with urllib.request.urlopen(site.url(f"/tournament/{name}/export.csv")) as answer:
        rows = list(csv.reader(io.StringIO(answer.read().decode("utf-8"))))
    exported = [f"{r[3]} {r[4]} {r[5]}" for r in rows if r[0] == "standing"]
    shown = [" ".join(s.split()[:3]) for s in page_state(browser)["standings"]]
    assert shown == exported, (shown, exported)
    return rows


def test_a_knockout_is_followed_live_in_the_browser(
    server: Any, browser: Any, tmp_path: Path
) -> None:
    shots = Screenshots.artefacts(tmp_path / "shots")
    scene, admin, bot = tournament_bot(server, tmp_path, "kow")
    site: Site | None = None
    try:
        name = unique("kow")
        open_tournament(scene, f"knockout {name} game=60m grace=30m")
        for _ in range(6):
            scene.say(".tournament addbot easy", "(computer, easy) is in")
        site = Site(f"sqlite:///{tmp_path / 'stats.db'}", tmp_path)
        set_viewport(browser, DESKTOP, mobile=False)
        browser.get(site.url(f"/tournament/{name}"))
        browser.execute_script(MARK)
        first = page_state(browser)
        assert first["status"] == "signup" and first["version"], first
        assert len(texts(browser, "#entrants li")) == 6

        admin.privmsg(scene.channel, ".tournament start")
        # The round's two tables appear without a reload, with their channels and players.
        wait_until(lambda: page_state(browser)["tables"] == 2, 10, "the tables on the page")
        seated = {s[2]: set(s[1]) for s in scene.seatings()}
        cards = browser.find_elements("css selector", "#tables .table-card")
        for card in cards:
            channel = card.find_element("css selector", "h3 .muted").text
            players = {e.text for e in card.find_elements("css selector", ".seat-name")}
            assert seated[channel] == players, (channel, players, seated)

        # The bot's live rows reach the tables: whose turn it is, every seat's card count
        # (never a card) and a link to the table's spectator view.
        def watched() -> list[dict[str, Any]]:
            return browser.execute_script(
                """
                return Array.from(document.querySelectorAll('#tables .table-card')).map(c => ({
                  channel: c.querySelector('h3 .muted').textContent,
                  turn: (c.querySelector('.to-play') || {}).textContent || '',
                  cards: Array.from(c.querySelectorAll('.seat-cards')).map(e => e.textContent),
                  watch: (c.querySelector('.live-hook a') || {}).href || '',
                }));
                """
            )

        live = wait_until(
            lambda: (w := watched()) and all(t["watch"] and t["cards"] for t in w) and w,
            10,
            "whose turn and the watch links on the tables",
        )
        for table in live:
            assert "/live/" in table["watch"], table
            assert table["watch"].endswith("/" + quote(table["channel"], safe="")), table
            api = table["watch"].replace("/live/", "/api/live/", 1)
            with urllib.request.urlopen(api, timeout=10) as answer:
                spectated = json.loads(answer.read())
            assert spectated["channel"] == table["channel"], spectated
            assert spectated["tournament"] == name and "hand" not in json.dumps(
                spectated["players"]
            ), spectated
            assert len(table["cards"]) == 3 and all(
                re.fullmatch(r"\d+\xa0cards?", c) for c in table["cards"]
            ), table
        shots.take(browser, "tournament-live-round1-desktop")

        # Each game's end reaches the page within 2 s of its announcement on IRC.
        delays: list[float] = []
        seen = 0
        deadline = time.monotonic() + 120
        while True:
            assert time.monotonic() < deadline, scene.lines()[-6:]
            finished = any(_IS_OVER.search(t) for t in scene.lines())
            overs = scene.overs()
            if finished and len(overs) == seen:
                break
            if len(overs) > seen:
                heard = time.monotonic()
                stage = overs[seen].stage
                seen += 1
                wait_until(
                    lambda stage=stage: (
                        stage in texts(browser, "#games tr.game-row:not(.playing) th")
                    ),
                    5,
                    f"{stage} done on the page",
                )
                delays.append(time.monotonic() - heard)
            time.sleep(0.05)
        over_line = next(t for t in scene.lines() if _IS_OVER.search(t))
        assert len(delays) >= 3 and max(delays) < 2.0, delays  # round 1's two games, the final
        print(f"page updated {', '.join(f'{d:.2f}' for d in delays)} s after the IRC lines")

        # The end: static (no more polling), final placings, never reloaded.
        end = wait_until(
            lambda: (s := page_state(browser))["status"] == "done" and s["version"] == "" and s,
            10,
            "the finished page",
        )
        assert end["watched"] == "since the start", "the page was reloaded"
        champion = _TOP.findall(_IS_OVER.search(over_line)["top"])[0][1]  # type: ignore[index]
        assert browser.find_element("css selector", "#winner").text == champion
        assert "Final placings" in browser.find_element("css selector", "#standings-heading").text

        # The bracket is what the channel announced: who went through, and the champion.
        lines = scene.lines()
        games = browser.find_elements("css selector", "#bracket .bracket-game")
        drawn = {
            g.find_element("css selector", ".bracket-stage").text.replace("playing", "").strip(): [
                e.text for e in g.find_elements("css selector", ".seat.through .seat-name")
            ]
            for g in games
        }
        for stage, through in drawn.items():
            assert len(through) == 1, drawn
            if stage == "Final":
                assert through[0] == champion
            else:
                assert f"{stage}: {through[0]} goes through." in lines, (stage, drawn)
        # The page's placings are the CSV's (the bot's export), which are the announced ones.
        rows = placings_are_the_csv(browser, site, name)
        for o in scene.overs():
            for who, total in o.totals.items():
                assert any(r[0] == "result" and r[4] == who and r[5] == str(total) for r in rows), (
                    o,
                    who,
                )
        shots.take(browser, "tournament-done-desktop")

        # The score sheet prints: only the sheet, one round per A4 page.
        browser.execute_cdp_cmd("Emulation.setEmulatedMedia", {"media": "print"})
        printed = browser.execute_script(
            """
            const shown = (s) => Array.from(document.querySelectorAll(s))
              .filter(e => e.getClientRects().length > 0).length;
            return {rounds: shown('.sheet-round'), lines: shown('.sheet-line'),
                    nav: shown('.site-header'), standings: shown('#standings')};
            """
        )
        assert printed["rounds"] == 2 and printed["lines"] > 6, printed  # round 1, the final
        assert printed["nav"] == 0 and printed["standings"] == 0, printed
        pdf = base64.b64decode(
            browser.execute_cdp_cmd("Page.printToPDF", {"preferCSSPageSize": True})["data"]
        )
        pages = pdf.count(b"/Type /Page") - pdf.count(b"/Type /Pages")
        assert pages == 2, pages
        (shots.directory / "tournament-sheet.pdf").write_bytes(pdf)
        browser.execute_cdp_cmd("Emulation.setEmulatedMedia", {"media": ""})

        # A phone: nothing wider than the screen that can't be swiped.
        set_viewport(browser, PHONE, mobile=True)
        browser.get(site.url(f"/tournament/{name}"))
        wide = overflow(browser, PHONE[0])
        assert wide["scrollWidth"] <= PHONE[0] and wide["innerWidth"] == PHONE[0], wide
        assert not unreachable(browser, PHONE[0])
        shots.take(browser, "tournament-done-phone")
        browser.get(site.url("/tournaments"))
        assert name in texts(browser, "#tournaments a.tournament-link")
        assert overflow(browser, PHONE[0])["scrollWidth"] <= PHONE[0]
        assert not browser_errors(browser)
    finally:
        if site is not None:
            site.stop()
        out = bot.term()
        admin.close()
    assert "Traceback" not in out, out[-4000:]


def test_a_rotation_is_followed_live_and_its_moves_are_the_announced_ones(
    server: Any, browser: Any, tmp_path: Path
) -> None:
    """8 computer entrants, two timed rounds of two tables: the page follows round 1 live
    (card counts and whose turn at each table), and once over its rotation view shows each
    round's tables exactly as the channel seated them, every move between them, and the
    CSV's placings."""
    scene, admin, bot = tournament_bot(server, tmp_path, "rot")
    site: Site | None = None
    try:
        name = unique("rot")
        open_tournament(scene, f"rotation {name} rounds=2 round=60m warning=15m grace=30m")
        scene.say(".tournament addbot easy 8", "computer players")
        site = Site(f"sqlite:///{tmp_path / 'stats.db'}", tmp_path)
        set_viewport(browser, DESKTOP, mobile=False)
        browser.get(site.url(f"/tournament/{name}"))
        browser.execute_script(MARK)
        admin.privmsg(scene.channel, ".tournament start")
        wait_until(
            lambda: browser.find_elements("css selector", "#tables .table-card .seat-cards"),
            20,
            "live card counts at the round's tables",
        )
        scene.finish(name, timeout=150)
        end = wait_until(
            lambda: (s := page_state(browser))["status"] == "done" and s["version"] == "" and s,
            10,
            "the finished page",
        )
        assert end["watched"] == "since the start", "the page was reloaded"

        seated = {stage: set(players) for stage, players, _ in scene.seatings()}
        where: dict[int, dict[str, int]] = {}
        drawn = browser.execute_script(
            """
            return Array.from(document.querySelectorAll('.rotation-round')).map(r => ({
              round: Number(r.getAttribute('data-round')),
              tables: Array.from(r.querySelectorAll('.table-card')).map(c => ({
                table: c.querySelector('h4').firstChild.textContent.trim(),
                seats: Array.from(c.querySelectorAll('.seat-name')).map(e => e.textContent.trim()),
              })),
              moves: Array.from(r.querySelectorAll('.move')).map(e => e.textContent.trim()),
            }));
            """
        )
        assert [r["round"] for r in drawn] == [1, 2], drawn
        for r in drawn:
            for t in r["tables"]:
                number = int(t["table"].split()[-1])
                stage = f"Round {r['round']} table {number}"
                assert set(t["seats"]) == seated[stage], (stage, t, seated)
                for who in t["seats"]:
                    where.setdefault(r["round"], {})[who] = number
        moved = {who for who, table in where[1].items() if where[2][who] != table}
        listed = {m.split(":")[0] for m in drawn[0]["moves"]}
        assert listed == moved and moved, (drawn[0]["moves"], where)
        for m in drawn[0]["moves"]:
            who = m.split(":")[0]
            assert f"table {where[1][who]} → table {where[2][who]}" in m, (m, where)

        placings_are_the_csv(browser, site, name)

        set_viewport(browser, PHONE, mobile=True)
        browser.get(site.url(f"/tournament/{name}"))
        assert overflow(browser, PHONE[0])["scrollWidth"] <= PHONE[0]
        assert not browser_errors(browser)
    finally:
        if site is not None:
            site.stop()
        out = bot.term()
        admin.close()
    assert "Traceback" not in out, out[-4000:]
