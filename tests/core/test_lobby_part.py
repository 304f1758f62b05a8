"""The lobby alone (``unobot.core.lobby.Lobby``): seats before the deal and its refusals,
without a table, a match or a bot; time from the fake clock."""

from __future__ import annotations

import dataclasses
import gc
import weakref

import pytest

from tests.core.fakes import FakeScheduler
from unobot.core.lobby import Lobby
from unobot.core.seats import COMPUTER_IDENT, Player
from unobot.core.table import Table
from unobot.core.teams import Teams
from unobot.core.updates import Joined, Left, TeamAsked, TeamMade
from unobot.engine import errors, preset
from unobot.engine.errors import UnoError
from unobot.engine.rules import HouseRules


@dataclasses.dataclass
class Activity:
    """The table's clock as the lobby sees it: the last change."""

    touched: float | None = None

    def touch(self, now: float) -> None:
        self.touched = now


def lobby(
    rules: HouseRules | None = None, *, tournament: bool = False, starter: str = "ann"
) -> tuple[Lobby, Activity, FakeScheduler]:
    clock = FakeScheduler()
    activity = Activity()
    rules = rules or preset("official")
    players = [Player(starter, starter)]
    made = Lobby(
        players,
        rules,
        Teams(rules),
        starter=starter,
        opened_at=clock.now(),
        lobby_timeout=60.0,
        tournament=tournament,
        touch=activity.touch,
    )
    return made, activity, clock


def test_join_seats_people_in_order_and_refuses_a_second_seat() -> None:
    lob, activity, clock = lobby()
    clock.advance(5)
    update = lob.join("bob", "bob", clock.now())
    assert update.events == [Joined("bob", 2)]
    assert [p.nick for p in lob.players] == ["ann", "bob"]
    assert activity.touched == clock.now()
    with pytest.raises(UnoError, match="already in this game"):
        lob.join("BOB", "bob", clock.now())


def test_join_refused_once_dealt_and_when_full() -> None:
    rules = dataclasses.replace(preset("official"), max_players=2)
    lob, _activity, clock = lobby(rules)
    lob.join("bob", "bob", clock.now())
    with pytest.raises(UnoError, match="full"):
        lob.join("cat", "cat", clock.now())
    lob.open = False
    with pytest.raises(UnoError, match="already been dealt"):
        lob.join("dan", "dan", clock.now())


def test_computer_players_get_free_names_and_keys_no_person_can_have() -> None:
    lob, _activity, clock = lobby()
    lob.add_computer("easy", None, clock.now(), own_nick="EasyBot1")
    update = lob.add_computer("hard", "Zed", clock.now())
    assert update.events == [Joined("Zed", 3, "hard")]
    assert [p.nick for p in lob.players] == ["ann", "EasyBot2", "Zed"]
    assert lob.players[2].key == COMPUTER_IDENT + "zed" and lob.players[2].computer
    with pytest.raises(UnoError, match="already taken"):
        lob.add_computer("easy", "zed", clock.now())
    with pytest.raises(UnoError, match="is a nick"):
        lob.add_computer("easy", "9lives", clock.now())
    with pytest.raises(UnoError, match="levels are"):
        lob.add_computer("genius", None, clock.now())
    with pytest.raises(UnoError, match="computer player here has your nick"):
        lob.join("zed", "zed", clock.now())


def test_remove_computer_takes_the_named_or_the_last_one() -> None:
    lob, _activity, clock = lobby()
    with pytest.raises(UnoError, match="no computer player"):
        lob.remove_computer(None, clock.now())
    lob.add_computer("easy", "Aa", clock.now())
    lob.add_computer("easy", "Bb", clock.now())
    assert lob.remove_computer(None, clock.now()).events == [Left("Bb")]
    with pytest.raises(UnoError, match="no computer player of that name"):
        lob.remove_computer("ann", clock.now())  # a person is not removed as a computer
    assert lob.remove_computer("aa", clock.now()).events == [Left("Aa")]
    lob.open = False
    with pytest.raises(UnoError, match="before the deal"):
        lob.remove_computer(None, clock.now())


def test_the_starter_leaving_hands_the_deal_to_the_first_person() -> None:
    lob, _activity, clock = lobby()
    lob.add_computer("easy", "Bot", clock.now())
    lob.join("bob", "bob", clock.now())
    update = lob.leave(0)
    assert update.events == [Left("ann", "bob")] and not update.finished
    assert lob.starter == "bob"


def test_computer_players_alone_close_the_lobby_but_not_a_tournaments() -> None:
    lob, _activity, clock = lobby()
    lob.add_computer("easy", "Bot", clock.now())
    assert lob.leave(0).finished and not lob.open
    with pytest.raises(UnoError, match="already been dealt"):
        lob.join("bob", "bob", clock.now())  # the table is closed: nobody joins it any more
    directed, _activity, clock = lobby(tournament=True)
    directed.add_computer("easy", "Bot", clock.now())
    assert not directed.leave(0).finished and directed.open


def test_only_the_starter_deals_until_the_lobby_time_is_up() -> None:
    lob, _activity, clock = lobby()
    lob.join("bob", "bob", clock.now())
    clock.advance(20)
    with pytest.raises(UnoError, match=r"only ann can deal for now; anyone can deal in 41s"):
        lob.deal("bob", clock.now(), None)
    clock.advance(41)
    rules, limit = lob.deal("bob", clock.now(), None)
    assert rules == lob.rules and limit == 0.0


def test_deal_refusals_in_order_and_the_time_limit() -> None:
    lob, _activity, clock = lobby()
    with pytest.raises(UnoError, match="2 players are needed"):
        lob.deal("ann", clock.now(), None)
    lob.join("bob", "bob", clock.now())
    with pytest.raises(UnoError, match="10s to 24h"):
        lob.deal("ann", clock.now(), 5)
    rules, limit = lob.deal("ann", clock.now(), 90)
    assert limit == 90 and rules.time_limit_minutes == 2  # the match knows only "timed"
    lob.open = False
    with pytest.raises(UnoError, match="already dealt"):
        lob.deal("ann", clock.now(), None)


def test_a_lobby_of_computer_players_alone_is_not_dealt() -> None:
    lob, _activity, clock = lobby(starter="ann")
    lob.players[0] = Player("A0", COMPUTER_IDENT + "a0", level="easy")  # no person seated
    lob.add_computer("easy", "A1", clock.now())
    with pytest.raises(UnoError, match="at least one person"):
        lob.deal("A0", clock.now(), None)


def test_team_is_for_seated_players_of_a_teams_game_in_the_lobby() -> None:
    lob, _activity, clock = lobby()
    with pytest.raises(UnoError, match="not played in teams"):
        lob.team("ann", "bob", clock.now())
    pairs, activity, clock = lobby(preset("pairs"))
    pairs.join("bob", "bob", clock.now())
    with pytest.raises(errors.NotAPlayer):
        pairs.team("zoe", "bob", clock.now())
    assert pairs.team("ann", "bob", clock.now()).events == [TeamAsked("ann", "bob")]
    clock.advance(3)
    assert pairs.team("bob", "ann", clock.now()).events == [TeamMade("bob", "ann")]
    assert activity.touched == clock.now()
    pairs.open = False
    with pytest.raises(UnoError, match="before the deal"):
        pairs.team("ann", "bob", clock.now())


def test_the_deal_seats_pairs_opposite_in_the_shared_list() -> None:
    pairs, _activity, clock = lobby(preset("pairs"))
    seats = pairs.players
    for nick in ("bob", "cat", "dan"):
        pairs.join(nick, nick, clock.now())
    pairs.team("ann", "dan", clock.now())
    pairs.team("dan", "ann", clock.now())
    pairs.deal("ann", clock.now(), None)
    assert pairs.players is seats  # the table's list, changed in place
    assert [p.nick for p in seats] == ["ann", "bob", "dan", "cat"]


def test_a_tables_parts_hold_no_reference_back_to_it() -> None:
    """A table dropped by the bot is freed at once, as before its split: its parts (lobby,
    teams, clock, presence) get values and the clock's ``touch``, never the table, so no
    reference cycle waits for the garbage collector (whose pauses stop the reactor)."""
    table = Table("#uno", "ann", "ann", 0.0)
    table.join("bob", "bob", 1.0)
    table.deal("ann", 2.0)
    ref = weakref.ref(table)
    enabled = gc.isenabled()
    gc.disable()
    try:
        del table
        assert ref() is None
    finally:
        if enabled:
            gc.enable()
