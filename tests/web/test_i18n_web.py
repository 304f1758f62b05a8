"""The stats site in its seven languages: how a request's language is chosen (``?lang=``,
remembered in a cookie; the cookie; ``Accept-Language``; English), the page saying it
(``<html lang>``, ``Vary``), the JSON API staying English, and plural forms."""

from __future__ import annotations

import pytest

from unobot.i18n import speaking
from unobot.web.lang import COOKIE, choose

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


def test_choose_order() -> None:
    assert choose("", "", "") == ("en", None)
    assert choose("", "", "pl-PL,pl;q=0.9,en;q=0.5") == ("pl", None)
    assert choose("", "", "fr;q=0.2, de;q=0.8") == ("de", None)
    assert choose("", "", "pt") == ("pt_BR", None)
    assert choose("", "", "xx-YY") == ("en", None)
    assert choose("", f"{COOKIE}=de", "pl-PL,pl;q=0.9") == ("de", None)  # the cookie wins
    assert choose("lang=it", f"{COOKIE}=de", "pl") == ("it", "it")  # the switch wins, kept
    assert choose("lang=klingon", "", "es") == ("es", None)  # an unknown lang is ignored
    assert choose("lang=klingon", "", "") == ("en", None)
    assert choose("", "garbage;;==", "") == ("en", None)


def test_accept_language_gives_polish_page(client) -> None:
    page = client.get("/leaderboard", headers={"Accept-Language": "pl-PL,pl;q=0.9"})
    assert page.status_code == 200
    assert '<html lang="pl">' in page.text
    assert "Rankingi" in page.text and "Leaderboards" not in page.text
    assert "Accept-Language" in page.headers["vary"] and "Cookie" in page.headers["vary"]
    assert page.headers["content-language"] == "pl"


def test_switch_sets_cookie_and_cookie_beats_header(client) -> None:
    page = client.get("/leaderboard?lang=de", headers={"Accept-Language": "pl"})
    assert '<html lang="de">' in page.text and "Ranglisten" in page.text
    assert f"{COOKIE}=de" in page.headers["set-cookie"]
    # the switch lists the seven languages in their own names, this page's link kept
    for name in ("English", "Deutsch", "Français", "Español", "Português (Brasil)", "Polski"):
        assert name in page.text
    again = client.get("/records", headers={"Accept-Language": "pl", "Cookie": f"{COOKIE}=de"})
    assert '<html lang="de">' in again.text
    client.cookies.clear()


def test_unknown_lang_falls_back_to_english(client) -> None:
    page = client.get("/leaderboard?lang=zz")
    assert '<html lang="en">' in page.text and "Leaderboards" in page.text
    assert "set-cookie" not in page.headers


def test_api_stays_english(client) -> None:
    data = client.get("/api/leaderboard", headers={"Accept-Language": "pl"}).json()
    assert "lines" in data or "players" in data or isinstance(data, dict)
    missing = client.get("/api/game/zzzzzzzzzzzz", headers={"Accept-Language": "de"})
    assert missing.json()["error"].startswith("A game is named")  # English, not German


def test_error_page_translated(client) -> None:
    page = client.get("/nowhere", headers={"Accept-Language": "fr"})
    assert page.status_code == 404 and "Introuvable" in page.text


@pytest.mark.parametrize(
    ("n", "word"), [(0, "kart"), (1, "karta"), (2, "karty"), (5, "kart"), (22, "karty")]
)
def test_polish_plural_forms(n: int, word: str) -> None:
    from unobot.web.cards import ngettext

    with speaking("pl"):
        assert ngettext("{n} card", "{n} cards", n) == f"{n} {word}"
