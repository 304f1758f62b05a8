"""Held games alone (``unobot.core.channels.Holds``): a table whose channel the bot is out of
(kicked, disconnected, restarted, paused) wants only its hold's end, counted from the right
moment; without a bot, a table or a clock."""

from __future__ import annotations

from unobot.core.channels import Hold, Holds


def test_a_game_not_held_keeps_its_own_deadlines() -> None:
    holds = Holds()
    assert holds.deadlines("#uno") is None and "#uno" not in holds and len(holds) == 0


def test_a_lost_connection_holds_without_an_end_until_the_reconnect() -> None:
    holds = Holds()
    assert holds.hold("#uno", 100.0, "disconnect")
    assert holds.deadlines("#uno") == {}  # no timers at all while not connected
    assert holds.waiting() == ["#uno"] and not holds.expired("#uno", 10_000.0)
    holds.count_from("#uno", 190.0)  # connected again at 130, grace 60
    assert holds.deadlines("#uno") == {"offline": 190.0} and holds.waiting() == []
    assert not holds.expired("#uno", 189.0) and holds.expired("#uno", 190.0)


def test_a_held_game_keeps_its_first_hold() -> None:
    holds = Holds()
    holds.hold("#uno", 100.0, "kick", 160.0)
    assert not holds.hold("#uno", 120.0, "disconnect")  # a kicked game keeps its own hold
    assert holds.get("#uno") == Hold(100.0, "kick", 160.0)


def test_a_kick_counts_the_grace_from_now_and_keeps_when_the_clocks_stopped() -> None:
    holds = Holds()
    holds.kicked("#a", 100.0, 60.0)
    assert holds.get("#a") == Hold(100.0, "kick", 160.0)
    holds.hold("#b", 50.0, "disconnect")
    holds.kicked("#b", 100.0, 60.0)
    assert holds.get("#b") == Hold(50.0, "kick", 160.0)


def test_a_pause_is_released_alone_and_a_return_ends_any_hold() -> None:
    holds = Holds()
    holds.hold("#a", 100.0, "pause")
    holds.hold("#b", 100.0, "restart", 200.0)
    assert holds.paused("#a") and not holds.paused("#b") and not holds.paused("#c")
    holds.count_from("#a", 300.0)  # a reconnect during the pause: a network hold now counts
    assert not holds.paused("#a")
    assert sorted(holds) == ["#a", "#b"]
    assert holds.end("#b") == Hold(100.0, "restart", 200.0)
    assert holds.end("#b") is None and "#b" not in holds
