"""``/records`` and ``/api/records``: the store's records, period/channel/network/computer
choices as on the leaderboard form, each record with its holder, figure, date and a link to the
game's replay page that opens; linked from every page's navigation; bad parameters are a 400."""

from __future__ import annotations

import re
from html import unescape

from starlette.testclient import TestClient

from tests.web.conftest import NOW
from unobot.stats.model import Period
from unobot.stats.sql import SqlStatsStore


def test_api_records_are_the_stores(client: TestClient, store: SqlStatsStore) -> None:
    for period in Period:
        for channel in ("", "#uno", "#side"):
            params = {"period": period.value, "channel": channel, "network": "net"}
            data = client.get("/api/records", params=params).json()
            store.network = "net"
            want = store.records(period, channel or None)
            assert [(r["record"], r["figure"], r["nick"]) for r in data["records"]] == [
                (r.kind.key, r.figure, r.nick) for r in want
            ], (period, channel)
            assert data["period"] == period.value and data["channel"] == channel
    data = client.get("/api/records", params={"network": "net"}).json()
    keys = [r["record"] for r in data["records"]]
    assert keys == ["moves", "time", "points", "streak", "cards", "comeback", "day"]
    for r in data["records"]:
        assert r["game_url"] == f"/game/{r['game']}" and not r["is_bot"]
        assert client.get(r["game_url"]).status_code == 200
        assert r["at"].endswith("Z") and r["player_url"].startswith("/player/")


def test_computer_players_only_when_asked(client: TestClient) -> None:
    people = client.get("/api/records", params={"channel": "#side", "network": "net"}).json()
    everyone = client.get(
        "/api/records", params={"channel": "#side", "network": "net", "bots": "1"}
    ).json()
    assert all(r["nick"] != "Robo" for r in people["records"])
    # Robo won five games in a row in #Side: the streak is theirs once computers count.
    streak = {r["record"]: r for r in everyone["records"]}["streak"]
    assert (streak["nick"], streak["is_bot"]) == ("Robo", True)


def test_records_page(client: TestClient, store: SqlStatsStore) -> None:
    page = client.get("/records", params={"network": "net", "channel": "#uno"})
    assert page.status_code == 200
    html = page.text
    assert "<h1>Records, all time in #uno on net</h1>" in html
    assert "Computer players are left out" in html
    store.network = "net"
    for r in store.records(Period.ALL, "#uno"):
        block = re.search(rf'<li class="record" id="record-{r.kind.key}">(.*?)</li>', html, re.S)
        assert block is not None, r.kind.key
        text = unescape(block.group(1))
        assert r.kind.title in text and r.nick in text
        assert f"{r.at:%Y-%m-%d %H:%M} UTC" in text
        assert f'href="/game/{r.game_id[:8]}"' in text
    assert 'id="period-week" href="/records?period=week&amp;channel=%23uno&amp;network=net"' in html
    # Every page links the records.
    assert '<a href="/records">Records</a>' in client.get("/leaderboard").text
    assert '<a href="/records">Records</a>' in html
    # The JSON twin is announced.
    assert 'href="/api/records?channel=%23uno&amp;network=net"' in html


def test_an_empty_period_and_bad_parameters(client: TestClient) -> None:
    page = client.get("/records", params={"channel": "#nobody", "period": "week"})
    assert page.status_code == 200 and "Nobody holds a record here yet." in page.text
    assert f"began Monday 16 November {NOW.year}" in page.text
    for params in ({"period": "year"}, {"channel": "uno"}, {"bots": "maybe"}):
        bad = client.get("/api/records", params=params)
        assert bad.status_code == 400, params
