"""The manual clock every test, benchmark and replay gives the bot (``unobot.core.clock``)."""

from __future__ import annotations

from unobot.core.clock import ManualClock


def test_timers_run_in_the_order_they_fall_due_and_time_stands_at_the_end() -> None:
    clock = ManualClock(100.0)
    ran: list[tuple[str, float]] = []
    clock.call_later(5, lambda: ran.append(("b", clock.now())))
    clock.call_later(2, lambda: ran.append(("a", clock.now())))
    clock.call_later(5, lambda: ran.append(("c", clock.now())))  # a tie: armed after b
    late = clock.call_later(30, lambda: ran.append(("late", clock.now())))
    assert clock.pending == 4
    assert clock.advance(10) is True
    assert ran == [("a", 102.0), ("b", 105.0), ("c", 105.0)]
    assert clock.now() == 110.0 and clock.pending == 1
    clock.cancel(late)
    clock.cancel(late)  # twice, or a handle long run: nothing happens
    assert clock.advance(100) is True and len(ran) == 3 and clock.pending == 0


def test_a_timer_armed_by_a_timer_runs_in_the_same_advance_if_due() -> None:
    clock = ManualClock(0.0)
    ran: list[float] = []

    def tick() -> None:
        ran.append(clock.now())
        if len(ran) < 3:
            clock.call_later(1, tick)

    clock.call_later(1, tick)
    clock.advance(10)
    assert ran == [1.0, 2.0, 3.0]


def test_a_limit_stops_a_timer_that_rearms_at_once_and_kill_forgets_all() -> None:
    clock = ManualClock(0.0)
    count = [0]

    def again() -> None:
        count[0] += 1
        clock.call_later(0, again)

    clock.call_later(0, again)
    assert clock.advance(1, limit=50) is False
    assert count[0] == 50 and clock.now() == 1.0 and clock.pending == 1
    clock.kill()
    assert clock.pending == 0 and clock.advance(5) is True and count[0] == 50
