"""The tables' scheduler timers alone (``unobot.core.table_timers.TableTimers``): armed
lazily, fired by name, a failing one retried later, cancelled with their table; on the fake
clock, without a bot or a table."""

from __future__ import annotations

from tests.core.fakes import FakeScheduler
from unobot.core.table_timers import TIMER_RETRY, TableTimers


def timers() -> tuple[TableTimers, FakeScheduler, list[tuple[str, str, float]]]:
    clock = FakeScheduler()
    fired: list[tuple[str, str, float]] = []
    made = TableTimers(clock, lambda key, name: fired.append((key, name, clock.now())))
    return made, clock, fired


def test_each_wanted_deadline_fires_once_at_its_moment() -> None:
    t, clock, fired = timers()
    start = clock.now()
    t.arm("#uno", {"turn": start + 30, "warn": start + 20})
    assert clock.pending == 2
    clock.advance(25)
    assert fired == [("#uno", "warn", start + 20)]
    t.fired("#uno", "warn")
    assert t.armed("#uno") == {"turn": start + 30}
    clock.advance(10)
    assert fired[1:] == [("#uno", "turn", start + 30)]


def test_a_deadline_moved_later_keeps_its_timer_and_a_sooner_one_re_arms() -> None:
    t, clock, fired = timers()
    start = clock.now()
    t.arm("#uno", {"turn": start + 30})
    t.arm("#uno", {"turn": start + 60})  # a move: the turn's end is later
    assert t.armed("#uno") == {"turn": start + 30} and clock.pending == 1
    t.arm("#uno", {"turn": start + 10})  # sooner: cancelled and armed again
    assert t.armed("#uno") == {"turn": start + 10} and clock.pending == 1
    t.arm("#uno", {})  # no longer wanted: cancelled
    assert t.armed("#uno") == {} and clock.pending == 0
    clock.advance(100)
    assert fired == []


def test_a_past_deadline_fires_at_once() -> None:
    t, clock, fired = timers()
    t.arm("#uno", {"away:bob": clock.now() - 5})
    clock.advance(0)
    assert [name for _key, name, _at in fired] == ["away:bob"]


def test_a_failed_timer_is_tried_again_only_after_the_retry_delay() -> None:
    t, clock, fired = timers()
    start = clock.now()
    t.arm("#uno", {"turn": start + 30})
    clock.advance(30)
    assert len(fired) == 1
    # What the bot does when the table's timer raised: the handle is spent, the table still
    # wants the (past) deadline, so the sync arms it at once; the retry puts it off.
    t.fired("#uno", "turn")
    t.arm("#uno", {"turn": start + 30})
    t.retry_later("#uno", "turn")
    assert t.armed("#uno") == {"turn": start + 30}  # kept under its old moment
    t.arm("#uno", {"turn": start + 45})  # moved later meanwhile: not re-armed sooner
    clock.advance(TIMER_RETRY - 1)
    assert len(fired) == 1
    clock.advance(1)
    assert len(fired) == 2
    t.fired("#uno", "turn")
    t.retry_later("#uno", "warn")  # not armed: nothing to retry
    t.arm("#uno", {"turn": clock.now() + 50})
    t.retry_later("#uno", "turn")  # not due yet: left as it is
    assert t.armed("#uno") == {"turn": clock.now() + 50} and clock.pending == 1


def test_cancel_and_stop_forget_the_tables_timers() -> None:
    t, clock, fired = timers()
    t.arm("#a", {"turn": clock.now() + 5})
    t.arm("#b", {"turn": clock.now() + 5, "warn": clock.now() + 3})
    t.cancel("#a")
    assert t.armed("#a") == {} and clock.pending == 2
    t.stop()
    assert t.armed("#b") == {} and clock.pending == 0
    clock.advance(10)
    assert fired == []
