"""The stats site's tournament pages over a real stats database holding tournaments of all
three formats, played by the formats' own logic (``unobot.tournament.simulate``: the entries
and score sheet written as the director writes them) — finished, running and in sign-up."""

from __future__ import annotations

import csv
import io
import re
import warnings
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import quote

import pytest

with warnings.catch_warnings():
    warnings.filterwarnings("ignore", "Using `httpx` with `starlette.testclient`")
    from starlette.testclient import TestClient

import itertools

from unobot.stats.sql import SqlStatsStore, open_database
from unobot.tournament.export import export_csv
from unobot.tournament.simulate import play_more, simulate
from unobot.tournament.state import Tournament
from unobot.tournament.store import Entry, SqlTournamentLog
from unobot.web.app import create_app
from unobot.web.tournaments import build_view

ODD = 'Odd <b>&"cup"/é'
"""A name no IRC command makes, but the store takes: markup, quotes, a slash, non-ASCII."""


@dataclass
class World:
    url: str
    log: SqlTournamentLog
    running: Tournament


@pytest.fixture(scope="module")
def world(tmp_path_factory: pytest.TempPathFactory) -> Iterator[World]:
    folder: Path = tmp_path_factory.mktemp("tournaments")
    url = f"sqlite:///{folder / 'stats.db'}"
    SqlStatsStore(url, spool_path=folder / "spool").close()  # the schema, as the bot makes it
    log = SqlTournamentLog.from_url(url)
    simulate(log, "cup", "ocuk", 9, extras=True, seed=3)
    simulate(log, "small", "ocuk", 6, channel="#small", seed=4)
    simulate(log, "ko", "knockout", 64, extras=True, channel="#ko", seed=5)
    simulate(log, "bac", "rotation", 13, words=["rounds=3"], extras=True, channel="#bac", seed=6)
    simulate(log, ODD, "knockout", 5, channel="#odd", seed=7)
    running = simulate(log, "live", "knockout", 16, results=2, channel="#live", seed=8)
    log.create("open", "rotation", "#open", 1_800_000_000.0)
    _head, entry = Tournament.new("open", "rotation", "#open", [], 1, 1_800_000_000.0, "op")
    log.append("open", Entry(0, entry.kind, entry.data, entry.at))
    log.append("open", Entry(1, "join", {"name": "ann", "key": "ann"}, 1_800_000_060.0))
    yield World(url, log, running)
    log.close()


@pytest.fixture(scope="module")
def client(world: World) -> Iterator[TestClient]:
    db = open_database(world.url)
    with TestClient(create_app(db)) as test_client:
        yield test_client
    db.close()


def csv_rows(text: str) -> list[list[str]]:
    return list(csv.reader(io.StringIO(text)))


def exported(world: World, name: str) -> bytes:
    stored = world.log.load(name)
    assert stored is not None
    out = io.StringIO()
    export_csv(stored, out)
    return out.getvalue().encode("utf-8")


def live_version(html: str) -> str | None:
    found = re.search(r'<main id="main"[^>]*data-live-version="([^"]*)"', html)
    return None if found is None else found.group(1)


def test_the_list_shows_every_tournament_with_format_status_and_winner(
    client: TestClient, world: World
) -> None:
    page = client.get("/tournaments")
    assert page.status_code == 200
    assert 'href="/tournaments"' in page.text  # in the site's navigation
    data = client.get("/api/tournaments").json()["tournaments"]
    by_name = {t["name"]: t for t in data}
    assert set(by_name) == {"cup", "small", "ko", "bac", ODD, "live", "open"}
    assert by_name["ko"]["format"] == "knockout" and by_name["ko"]["status"] == "done"
    assert by_name["ko"]["entrants"] == 64
    assert by_name["live"]["status"] == "running" and by_name["live"]["winner"] is None
    assert by_name["open"]["status"] == "signup" and by_name["open"]["entrants"] == 1
    for name in ("cup", "ko", "bac"):
        stored = world.log.load(name)
        assert stored is not None
        champion = next(e for e in reversed(stored.entries) if e.kind == "standings")
        assert by_name[name]["winner"] == champion.data["rows"][0][1]
        assert f">{name}</a>" in page.text
    # Markup in a name is text, and its link is quoted.
    assert "Odd &lt;b&gt;&amp;" in page.text and "<b>&" not in page.text
    assert by_name[ODD]["url"] == "/tournament/" + quote(ODD, safe="")


@pytest.mark.parametrize("name", ["cup", "small", "ko", "bac", ODD])
def test_the_csv_download_is_the_bots_export_and_agrees_with_the_page(
    client: TestClient, world: World, name: str
) -> None:
    path = "/tournament/" + quote(name, safe="")
    download = client.get(path + "/export.csv")
    assert download.status_code == 200
    assert download.headers["content-type"].startswith("text/csv")
    assert "attachment" in download.headers["content-disposition"]
    assert download.content == exported(world, name)
    rows = csv_rows(download.text)
    standings = [(int(r[3]), r[4], int(r[5])) for r in rows if r[0] == "standing"]
    data = client.get("/api" + path).json()
    assert data["final"] and data["placings"] is not None
    assert [(s["place"], s["name"], s["score"]) for s in data["standings"]] == standings
    sheet = [r[6] for r in rows if r[0] == "sheet"]
    assert [line["text"] for s in data["sheet"] for line in s["lines"]] == sheet
    html = client.get(path).text
    assert live_version(html) == ""  # finished: the page never polls
    for _, who, score in standings[:3]:
        assert re.search(
            rf"<th scope=\"row\">{re.escape(who)}</th><td class=\"num\">{score}<", html
        )
    for line in sheet[:5]:
        assert line.replace(">", "&gt;") in html
    assert data["csv"] == path + "/export.csv"


def test_knockout_bracket_sends_the_round_winners_on_and_ends_with_the_champion(
    client: TestClient,
) -> None:
    data = client.get("/api/tournament/ko").json()
    bracket = data["bracket"]
    assert [r["title"] for r in bracket] == ["Round 1", "Round 2", "Final"]
    assert [len(r["games"]) for r in bracket] == [16, 4, 1]
    for this, after in itertools.pairwise(bracket):
        went = {g["through"] for g in this["games"]}
        came = {p["name"] for g in after["games"] for p in g["players"]}
        assert went == came
    champion = data["standings"][0]
    assert champion["note"] == "champion"
    assert bracket[-1]["games"][0]["through"] == champion["name"] == data["winner"]
    # Everyone knocked out in round 1 is placed below everyone who reached round 2.
    reached = {p["name"] for g in bracket[1]["games"] for p in g["players"]}
    places = {s["name"]: s["place"] for s in data["standings"]}
    assert max(places[n] for n in reached) < min(p for n, p in places.items() if n not in reached)
    html = client.get("/tournament/ko").text
    assert html.count('class="bracket-round"') == 3
    assert html.count('class="seat through"') == 21  # 16 + 4 + the champion


def test_rotation_moves_say_who_changed_table_between_rounds(client: TestClient) -> None:
    data = client.get("/api/tournament/bac").json()
    rounds = data["rotation"]
    assert [r["round"] for r in rounds] == [1, 2, 3]
    assert rounds[-1]["moves"] == []
    for this, after in itertools.pairwise(rounds):
        table_of = {p["name"]: t["table"] for t in after["tables"] for p in t["players"]}
        before = {p["name"]: t["table"] for t in this["tables"] for p in t["players"]}
        moved = {m["name"]: (m["from"], m["to"]) for m in this["moves"]}
        assert moved  # three tables: someone moves every round
        for name, (origin, target) in moved.items():
            assert before[name] == origin and table_of[name] == target
        for name, table in table_of.items():
            if name not in moved:
                assert before.get(name) == table
    html = client.get("/tournament/bac").text
    assert "Rounds and table moves" in html and 'class="move"' in html


def test_ocuk_shows_tables_final_sheet_sections_and_the_records(client: TestClient) -> None:
    data = client.get("/api/tournament/cup").json()
    assert [s["title"] for s in data["sheet"]] == ["Tables", "Final and play-offs"]
    kinds = {r["kind"] for r in data["records"]}
    assert {"correction", "penalty"} <= kinds
    assert {g["key"] for g in data["games"]} >= {"t1", "t2", "t3", "final"}
    small = client.get("/api/tournament/small").json()
    assert small["sheet"][0]["title"] == "Hands"
    ko = client.get("/api/tournament/ko").json()
    assert {"correction", "penalty", "removal"} <= {r["kind"] for r in ko["records"]}
    html = client.get("/tournament/ko").text
    assert "Corrections, penalties and removals" in html


def test_the_score_sheet_prints_one_round_per_page(client: TestClient) -> None:
    html = client.get("/tournament/ko").text
    assert html.count('class="sheet-round"') == 3
    css = client.get("/static/site.css").text
    printed = css[css.index("@media print") :]
    assert "break-before: page" in printed and "size: A4" in css


def test_a_running_tournament_page_updates_itself_when_the_bot_writes(
    client: TestClient, world: World
) -> None:
    page = client.get("/tournament/live")
    version = live_version(page.text)
    assert version, "a running tournament's page is live"
    assert 'src="/static/live.js' in page.text
    data = client.get("/api/tournament/live").json()
    assert data["current"] == "Round 1" and len(data["tables"]) == 2
    assert all(t["live"] is None and t["channel"].startswith("#live-t") for t in data["tables"])
    # Polled with the version it shows: nothing changed, nothing sent.
    same = client.get("/tournament/live", headers={"X-Live-Version": version})
    assert same.status_code == 204 and same.content == b""
    before = {g["key"] for g in data["games"] if g["done"]}
    play_more(world.log, world.running, results=1)
    fresh = client.get("/tournament/live", headers={"X-Live-Version": version})
    assert fresh.status_code == 200
    assert live_version(fresh.text) not in (None, "", version)
    after = client.get("/api/tournament/live").json()
    done = {g["key"] for g in after["games"] if g["done"]}
    assert len(done - before) == 1
    assert after["standings"] != data["standings"]
    # Played to the end: the page's version becomes "" (static) and polling stops.
    play_more(world.log, world.running, results=100)
    last = client.get("/tournament/live", headers={"X-Live-Version": version})
    assert last.status_code == 200 and live_version(last.text) == ""
    assert client.get("/api/tournament/live").json()["status"] == "done"


def test_sign_up_unknown_names_and_a_replay_that_fails(client: TestClient) -> None:
    page = client.get("/tournament/OPEN")  # names compare folded, as on IRC
    assert page.status_code == 200 and "ann" in page.text and "sign-up is open" in page.text
    for path in ("/tournament/nope", "/tournament/nope/export.csv", "/tournament/%00x"):
        missing = client.get(path)
        assert missing.status_code == 404 and "No such tournament" in missing.text
    api = client.get("/api/tournament/nope")
    assert api.status_code == 404 and api.json()["status"] == 404


def test_a_log_the_code_cannot_replay_still_gets_its_stored_standings(world: World) -> None:
    stored = world.log.load("cup")
    assert stored is not None
    broken = [e for e in stored.entries if e.kind != "start"]  # results without a start
    view = build_view(type(stored)(**{**_fields(stored), "entries": broken}))
    assert view.problem and view.standings and view.final
    assert view.winner == stored.entries[-2].data["rows"][0][1]


def _fields(stored: object) -> dict[str, object]:
    return {name: getattr(stored, name) for name in stored.__dataclass_fields__}  # type: ignore[attr-defined]
