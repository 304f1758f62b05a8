"""The table's clocks alone (``unobot.core.timers.TurnClock``): when the turn's and a timed
match's timers are due, their warnings, and an absence caught up, on the fake clock."""

from __future__ import annotations

from tests.core.fakes import FakeScheduler
from unobot.core.timers import TurnClock


def clock(time_warning: float = 0.0) -> tuple[TurnClock, FakeScheduler]:
    fake = FakeScheduler()
    made = TurnClock(fake.now(), turn_timeout=120.0, turn_warning=30.0, time_warning=time_warning)
    return made, fake


def test_a_turn_is_warned_once_then_times_out() -> None:
    turns, fake = clock()
    fake.advance(10)
    turns.new_turn(fake.now(), 2)
    out: dict[str, float] = {}
    turns.turn_deadlines(out)
    assert out == {"warn": fake.now() + 90, "turn": fake.now() + 120} and turns.seat == 2
    fake.advance(90)
    assert turns.warn_turn(fake.now()) == 30
    out.clear()
    turns.turn_deadlines(out)
    assert out == {"turn": fake.now() + 30}
    turns.new_turn(fake.now(), 0)  # a new turn is a whole one, warned again
    out.clear()
    turns.turn_deadlines(out)
    assert set(out) == {"warn", "turn"}


def test_no_warning_when_it_would_not_come_before_the_timeout() -> None:
    fake = FakeScheduler()
    turns = TurnClock(fake.now(), turn_timeout=20.0, turn_warning=30.0, time_warning=0.0)
    out: dict[str, float] = {}
    turns.turn_deadlines(out)
    assert out == {"turn": fake.now() + 20}


def test_a_timed_match_is_warned_a_fifth_before_its_end_at_most_five_minutes() -> None:
    turns, fake = clock()
    out: dict[str, float] = {}
    turns.match_deadlines(out)
    assert out == {}  # untimed
    turns.start(fake.now(), 600.0)
    turns.match_deadlines(out)
    assert out == {"time-warn": fake.now() + 480, "time": fake.now() + 600}
    assert turns.warn_time() == 120
    assert not turns.last_hand(False) and turns.last_hand(True)
    out.clear()
    turns.match_deadlines(out)
    assert out == {"time": fake.now() + 600}
    hour, fake = clock()
    hour.start(fake.now(), 3600.0)
    assert hour.time_warning() == 300
    set_, fake = clock(time_warning=1000.0)
    set_.start(fake.now(), 600.0)
    assert set_.time_warning() == 600  # never before the deal


def test_catching_up_gives_a_whole_turn_and_moves_the_other_clocks_on() -> None:
    turns, fake = clock()
    turns.start(fake.now(), 600.0)
    turns.new_turn(fake.now(), 1)
    turns.warn_turn(fake.now() + 90)
    since = fake.now() + 100
    fake.advance(250)
    turns.catch_up(since, fake.now(), dealt=True)
    assert turns.turn_started == fake.now() and not turns.warned
    assert turns.dealt_at == since - 100 + 150 and turns.idle_for(fake.now()) == 100
    lobby, fake = clock()
    lobby.catch_up(fake.now(), fake.now() + 30, dealt=False)
    assert lobby.turn_started == fake.now() and lobby.last_activity == fake.now() + 30


def test_activity_is_what_the_idle_stop_reads() -> None:
    turns, fake = clock()
    fake.advance(40)
    assert turns.idle_for(fake.now()) == 40
    turns.touch(fake.now())
    assert turns.idle_for(fake.now() + 5) == 5
