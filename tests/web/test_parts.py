"""The site's parts on their own: parameters, card drawings, charts, and what it does when the
database is not ready, not there, or something breaks."""

from __future__ import annotations

import html
import re
import sqlite3
from datetime import datetime
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from tests.web.conftest import NOW
from unobot.engine.cards import CARDS
from unobot.stats.model import Period
from unobot.stats.sql import SqlStatsStore, open_database
from unobot.web import charts
from unobot.web.app import create_app
from unobot.web.cards import card_view
from unobot.web.params import BadParameter, leaderboard_query
from unobot.web.queries import RatingPoint, Reader, WeekPoints


def test_leaderboard_defaults() -> None:
    query = leaderboard_query({}, 5)
    assert (query.ranking, query.period, query.channel, query.network) == (
        "rating", Period.ALL, "", "",
    )  # fmt: skip
    assert (query.min_games, query.limit, query.bots) == (5, 50, False)
    # A week or month without a ranking is points per game: a rating has no period.
    assert leaderboard_query({"period": "week"}, 5).ranking == "ppg"
    query = leaderboard_query({"ranking": "PW", "period": "Month", "min": "12", "bots": "1"}, 5)
    assert (query.ranking, query.period, query.min_games, query.bots) == (
        "pw", Period.MONTH, 12, True,
    )  # fmt: skip


def test_link_parameters_leave_out_what_does_not_apply() -> None:
    query = leaderboard_query({"ranking": "pw", "period": "week", "channel": "#uno"}, 5)
    assert query.params() == {"ranking": "pw", "period": "week", "channel": "#uno", "min": "5"}
    # Switching to the rating drops the period and channel it can't have.
    assert query.params(ranking="rating") == {"ranking": "rating", "min": "5"}
    assert "period" not in query.params(period="all")


@pytest.mark.parametrize(
    "params",
    [
        {"ranking": "rating", "period": "month"},
        {"channel": "#a b"},
        {"network": "x" * 101},
        {"min": "-1"},
        {"min": "１２"},  # full-width digits are digits to str.isdigit, not to the site
        {"limit": "0"},
    ],
)
def test_bad_leaderboard_parameters(params: dict[str, str]) -> None:
    with pytest.raises(BadParameter):
        leaderboard_query(params, 5)


def test_every_card_has_a_face_a_label_and_a_colour_class() -> None:
    for card in CARDS:
        view = card_view(card.text)
        assert view.code == card.text
        assert view.face and view.label and view.letter
        assert view.css in ("card-r", "card-y", "card-g", "card-b", "card-w")
    assert card_view("R9") == card_view("R9").__class__("R9", "card-r", "9", "red 9", "R")
    assert (card_view("YS").face, card_view("YS").label) == ("Skip", "yellow skip")
    assert (card_view("GR").face, card_view("GR").label) == ("Rev", "green reverse")
    assert (card_view("BD2").face, card_view("BD2").label) == ("+2", "blue draw two")
    assert (card_view("W").face, card_view("W").label, card_view("W").css) == (
        "Wild", "wild", "card-w",
    )  # fmt: skip
    assert (card_view("WD4").face, card_view("WD4").label) == ("+4", "wild draw four")
    assert card_view("Q7").face == "?"  # unreadable: drawn as unknown, never an error


def test_charts_are_inline_svg_without_script_and_named_in_words() -> None:
    points = [RatingPoint(i, datetime(2026, 11, 1 + i % 20), 100 + i * 3) for i in range(80)]
    svg = charts.rating_chart(points)
    assert svg.startswith('<svg role="img" aria-label="Rating over the last 80 rated games')
    assert "<script" not in svg and "<?xml" not in svg
    assert "http" not in svg.replace("http://www.w3.org/", "")  # names no other address
    weeks = [WeekPoints("2026-11-02", 4, 120), WeekPoints("2026-11-09", 2, 20),
             WeekPoints("2026-11-16", 3, 30)]  # fmt: skip
    svg = charts.ppg_chart(weeks)
    assert "best the week of 2026-11-02 (30.0)" in html.unescape(svg)
    assert charts.rating_chart([]) == "" and charts.rating_summary([]) == "No rated games yet."


def test_each_chart_has_a_wide_and_a_narrow_drawing_with_readable_text() -> None:
    """One drawing 800 units wide, one 400 (shown below 40rem), each scaling to its column:
    every font size is set (pygal's defaults leave some at 10 units, "no data" at 64)."""
    points = [RatingPoint(i, datetime(2026, 11, 1 + i), 1000 + i) for i in range(6)]
    svg = charts.rating_chart(points)
    assert svg.count("<svg ") == 2
    assert 'class="pygal-chart chart-wide"' in svg and 'viewBox="0 0 800 320"' in svg
    assert 'class="pygal-chart chart-narrow"' in svg and 'viewBox="0 0 400 280"' in svg
    sizes = [int(n) for n in re.findall(r"font-size:(\d+)px", svg)]
    assert sizes and min(sizes) >= 14, sizes


@pytest.mark.parametrize(
    ("low", "high", "span", "ticks"),
    [
        (1000, 1000, 20, [990, 995, 1000, 1005, 1010]),
        (1000, 1003, 20, [990, 995, 1000, 1005, 1010, 1015]),
        (900, 1450, 20, [800, 1000, 1200, 1400, 1600]),
        (0, 3, 5, [0, 1, 2, 3, 4, 5]),
        (2, 2, 20, [0, 5, 10, 15, 20]),  # never below 0 for data that is not
        (0.5, 62, 5, [0, 20, 40, 60, 80]),
    ],
)
def test_axis_ticks_are_distinct_whole_numbers_over_a_minimum_span(
    low: float, high: float, span: int, ticks: list[int]
) -> None:
    assert charts.axis_ticks(low, high, span) == ticks


def test_a_chart_of_a_new_player_reads_as_the_rating_scale_without_repeats() -> None:
    """A new database: ratings near 1000 that barely move had an axis of ``131, 131, 131``."""
    points = [
        RatingPoint(i, datetime(2026, 11, 20), r) for i, r in enumerate([1000, 1002, 1001, 1003])
    ]
    svg = charts.rating_chart(points)
    wide = svg.split('class="pygal-chart chart-narrow"')[0]
    labels = re.findall(r">(\d+)</text>", wide)  # the y axis's (the x axis's are dates)
    assert labels and len(labels) == len(set(labels)), labels
    assert all(990 <= int(n) <= 1015 for n in labels), labels


@pytest.mark.parametrize("games", [1, 2, 3])
def test_too_few_points_are_a_sentence_not_a_chart(games: int) -> None:
    points = [RatingPoint(i, datetime(2026, 11, 20), 1000 + 7 * i) for i in range(games)]
    assert charts.rating_chart(points) == ""
    said = charts.rating_summary(points)
    assert said.startswith("Rating after each rated game so far: 1000 (2026-11-20)")
    assert str(1000 + 7 * (games - 1)) in said
    weeks = [WeekPoints("2026-11-16", games, 20 * games)]
    assert charts.ppg_chart(weeks) == ""
    assert "20.0 in the week of 2026-11-16" in charts.ppg_summary(weeks)


def test_an_old_schema_asks_for_the_bot_to_run(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'old.db'}"
    SqlStatsStore(url, spool_path=tmp_path / "spool").close()
    db = open_database(url)
    db.execute_sql("UPDATE schema_version SET version = 4")
    with TestClient(create_app(db, clock=lambda: NOW)) as client:
        page = client.get("/")
        assert page.status_code == 503
        assert "is at v4" in page.text and "Run the bot once to upgrade the database" in page.text
        assert client.get("/api/leaderboard").json()["status"] == 503
    db.close()


def test_an_empty_database_is_not_an_error(tmp_path: Path) -> None:
    db = open_database(f"sqlite:///{tmp_path / 'empty.db'}")
    with TestClient(create_app(db, clock=lambda: NOW)) as client:
        page = client.get("/player/alice")
        assert page.status_code == 503 and "has no stats tables yet" in page.text
    db.close()


def test_database_trouble_is_a_503_and_a_bug_a_500(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    def locked(*args: object) -> None:
        raise sqlite3.OperationalError("database is locked")

    monkeypatch.setattr(Reader, "find_player", locked)
    page = client.get("/player/alice")
    assert page.status_code == 503 and "can't be reached right now" in html.unescape(page.text)

    def broken(*args: object) -> None:
        raise RuntimeError("a bug")

    monkeypatch.setattr(Reader, "leaderboard", broken)
    quiet = TestClient(client.app, raise_server_exceptions=False)
    page = quiet.get("/leaderboard")
    assert page.status_code == 500
    assert "a bug" not in page.text and "Traceback" not in page.text
    assert "Something went wrong" in page.text
    assert page.headers["server-timing"].startswith("app;dur=")
    assert quiet.get("/api/leaderboard").json() == {
        "error": "The page could not be made; the error is logged.", "status": 500,
    }  # fmt: skip
