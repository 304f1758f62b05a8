"""The settings store's contract on SQLite and a real PostgreSQL server: every player
preference (colours, the turn's hand, hands by private message) and a channel's rules and
languages are kept across a restart (a new connection), and a ``player_setting`` table made by
an older bot gains the columns it lacks, keeping its rows."""

from __future__ import annotations

from pathlib import Path

import peewee
import pytest

from unobot.core.settings import DatabaseSettings
from unobot.stats.sql import open_database


@pytest.fixture(params=["sqlite", "postgresql"])
def url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    if request.param == "postgresql":
        return str(request.getfixturevalue("pg_server").new_database())
    return f"sqlite:///{tmp_path / 'stats.db'}"


def test_every_preference_survives_a_restart(url: str) -> None:
    first = DatabaseSettings(url)
    assert (first.colors("amy"), first.turn_hands("amy"), first.hand_query("amy")) == (
        True,
        True,
        False,
    )  # the defaults, with no row
    first.set_hand_query("amy", True)
    first.set_turn_hands("amy", False)
    first.set_colors("bob", False)
    first.set_hand_query("bob", False)
    first.set_channel_rules("#uno", "knockout", {"stacking": "same"})
    first.set_language("amy", "de")
    first.close()
    again = DatabaseSettings(url)
    assert (again.colors("amy"), again.turn_hands("amy"), again.hand_query("amy")) == (
        True,
        False,
        True,
    )
    assert (again.colors("bob"), again.turn_hands("bob"), again.hand_query("bob")) == (
        False,
        True,
        False,
    )
    colors, rules, turn, query, languages = again.load_all()
    assert query == {"amy": True, "bob": False} and turn == {"amy": False, "bob": True}
    assert colors == {"amy": True, "bob": False}
    assert rules == {"#uno": ("knockout", {"stacking": "same"})} and languages == {"amy": "de"}
    again.close()


def test_an_older_player_setting_table_gains_its_columns(url: str) -> None:
    """The table as the first bots made it (player, colors): the next bot adds
    ``turn_hand`` and ``hand_query`` with their defaults for the rows already there."""
    db = open_database(url)

    class Old(peewee.Model):
        player = peewee.CharField(primary_key=True, max_length=200)
        colors = peewee.BooleanField(default=True)

        class Meta:
            database = db
            table_name = "player_setting"

    db.create_tables([Old])
    Old.create(player="bob", colors=False)
    db.close()
    settings = DatabaseSettings(url)
    assert settings.colors("bob") is False
    assert settings.turn_hands("bob") is True and settings.hand_query("bob") is False
    settings.set_hand_query("bob", True)
    settings.close()
    again = DatabaseSettings(url)
    assert again.hand_query("bob") is True and again.colors("bob") is False
    columns = {c.name for c in again.db.get_columns("player_setting")}
    assert {"player", "colors", "turn_hand", "hand_query"} <= columns
    again.close()
