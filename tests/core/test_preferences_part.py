"""Preferences alone (``unobot.core.preferences.Preferences``): channels' and people's
languages, and how each player wants their cards, from a settings store and the configured
languages, without a bot."""

from __future__ import annotations

import logging

import pytest

from unobot.core.preferences import Preferences, keys_of
from unobot.core.settings import MemorySettings
from unobot.core.table import Table


def prefs(
    language: str = "en", channels: dict[str, str] | None = None
) -> tuple[Preferences, MemorySettings]:
    settings = MemorySettings()
    return Preferences(settings, language, channels or {}), settings


def test_a_channel_speaks_its_unolang_else_the_configured_else_the_bots() -> None:
    p, settings = prefs("fr", {"#de": "de"})
    assert p.channel_language("#elsewhere") == "fr"
    assert p.channel_language("#DE") == "de"  # configured under the folded name
    settings.set_language("#de", "pl")
    assert p.channel_language("#DE") == "pl"


def test_a_kept_language_is_forgotten_when_the_settings_or_the_config_change() -> None:
    p, settings = prefs()
    assert p.channel_language("#uno") == "en"
    settings.language_listeners.clear()  # a change the preferences are not told of ...
    settings.set_language("#uno", "de")
    assert p.channel_language("#uno") == "en"  # ... is not seen: the language is kept
    p.configure("it", {})  # a new config forgets every kept language
    assert p.channel_language("#uno") == "de"
    p2, settings2 = prefs()
    assert p2.channel_language("#uno") == "en"
    settings2.set_language("#uno", "es")  # told through the store's listeners
    assert p2.channel_language("#uno") == "es"


class Broken(MemorySettings):
    def language(self, key: str) -> str | None:
        raise OSError("disk gone")


def test_a_store_that_fails_leaves_the_configured_language(
    caplog: pytest.LogCaptureFixture,
) -> None:
    p = Preferences(Broken(), "fr", {"#uno": "de"})
    with caplog.at_level(logging.ERROR):
        assert p.channel_language("#uno") == "de"
        assert p.person_language("ann", "#uno") == "de"
    assert "can't read the language of #uno" in caplog.text


def test_a_person_hears_their_own_language_else_the_channels_else_the_bots() -> None:
    p, settings = prefs("fr", {"#de": "de"})
    assert p.person_language("ann") == "fr"
    assert p.person_language("ann", "#de") == "de"
    settings.set_language("ann", "pt_BR")
    assert p.person_language("ann", "#de") == "pt_BR"


def test_seated_players_are_known_by_their_seats_key_through_nick_changes() -> None:
    table = Table("#uno", "ann", "$a:acct", 0.0)
    table.join("Bob", "bob", 0.0)
    key = keys_of(table)
    assert key("ann") == "$a:acct"
    assert key("BOB") == "bob"  # written otherwise than the table's nick
    assert key("Cat") == "cat"  # not seated: the folded nick


def test_hands_follow_each_players_choices_by_key() -> None:
    table = Table("#uno", "ann", "$a:acct", 0.0)
    table.join("bob", "bob", 0.0)
    p, settings = prefs("en")
    settings.set_colors("$a:acct", False)
    settings.set_turn_hands("$a:acct", False)
    settings.set_hand_query("$a:acct", True)
    settings.set_language("$a:acct", "it")
    colors = p.colors_for(table)
    assert (colors("ann"), colors("bob")) == (False, True)
    turn_hands = p.turn_hands_for(table)
    assert (turn_hands("ann"), turn_hands("bob")) == (False, True)
    query = p.hand_query_for(table)
    assert (query("ann"), query("bob")) == (True, False)
    languages = p.languages_for(table, "de")
    assert (languages("ann"), languages("bob")) == ("it", "de")
    assert p.languages_for(table)("bob") == "en"  # the channel's, looked up
