"""The command throttle's decision (``dispatch.CommandThrottle``), trusted hosts
(``core.trusted``) and the table's "would act on it now" predicate (``Table.is_timely``).

Issue 27: people behind one address share one command budget; once an onlooker on that
address spent it, a seated player's move at their turn was silently dropped and the table
waited for the turn timer. A timely move now always goes through; whatever is ignored is
answered with one "Slow down" per nick; trusted hosts get a larger budget.
"""

from __future__ import annotations

from random import Random

import pytest

from unobot.core.dispatch import CommandThrottle
from unobot.core.table import Table, TableConfig
from unobot.core.trusted import TrustedHosts
from unobot.engine import Phase, preset
from unobot.engine.actions import CallUno, Catch, Challenge, ChooseColor, Draw, Pass, Play
from unobot.engine.cards import Card
from unobot.engine.game import Game

LAN = "$h:192.168.1.20"
KINDS = (Play, Draw, Pass, ChooseColor, Challenge, CallUno, Catch)


def spend(throttle: CommandThrottle, who: str, now: float = 0.0, count: int = 10) -> None:
    for _ in range(count):
        throttle.charge(who, now, "#uno")


# --- the decision ------------------------------------------------------------------------------


def test_a_timely_move_goes_through_a_spent_budget_and_nothing_else_does() -> None:
    throttle = CommandThrottle()
    spend(throttle, LAN)
    assert throttle.allow(LAN, 0, "#uno", move=True, nick="bob", timely=True) is True
    # the same nick's move that the table would not act on now, and an onlooker's command
    assert throttle.allow(LAN, 0, "#uno", move=True, nick="bob") is None  # told once
    assert throttle.allow(LAN, 0, "#uno", move=True, nick="bob") is False
    assert throttle.allow(LAN, 0, "#uno", nick="zed") is None
    assert throttle.allow(LAN, 0, "#uno", nick="zed") is False
    # timely moves go on for ever, as long as the table accepts them
    assert all(
        throttle.allow(LAN, 0, "#uno", move=True, nick="bob", timely=True) for _ in range(100)
    )


def test_refused_timely_moves_run_out_of_their_own_budget() -> None:
    """A current player sending card after card they don't hold can't flood: each refusal
    costs their nick's small budget (3, then one every 5 s), and then they are throttled
    like anyone else; others' timely moves are unaffected."""
    throttle = CommandThrottle()
    spend(throttle, LAN)
    for _ in range(3):
        assert throttle.allow(LAN, 0, "#uno", move=True, nick="bob", timely=True)
        throttle.refused_timely("Bob", 0)  # nicks fold as IRC does
    assert throttle.allow(LAN, 0, "#uno", move=True, nick="bob", timely=True) is None
    assert throttle.allow(LAN, 0, "#uno", move=True, nick="carol", timely=True) is True
    assert throttle.allow(LAN, 5.0, "#uno", move=True, nick="bob", timely=True) is True


def test_slow_down_goes_to_each_nick_once_and_to_a_few_nicks_per_host() -> None:
    """Everyone ignored is told once a minute, by nick (a LAN shares one host); a host's nicks
    together get at most five such notices, then one every 12 s (clones, nick changes)."""
    throttle = CommandThrottle()
    spend(throttle, LAN)
    told = [
        n for n in (f"n{i}" for i in range(8)) if throttle.allow(LAN, 0, "#uno", nick=n) is None
    ]
    assert told == ["n0", "n1", "n2", "n3", "n4"]
    assert throttle.allow(LAN, 0, "#uno", nick="n0") is False
    spend(throttle, LAN, 12)  # still flooding
    assert throttle.allow(LAN, 12, "#uno", nick="n5") is None  # the host's notices refill
    assert throttle.allow(LAN, 12, "#uno", nick="n6") is False
    spend(throttle, LAN, 59)
    assert throttle.allow(LAN, 59, "#uno", nick="n0") is False  # n0: not again within 60 s
    # another host has notices of its own
    spend(throttle, "$h:elsewhere", 59)
    assert throttle.allow("$h:elsewhere", 59, "#uno", nick="x") is None


def asked(throttle: CommandThrottle, who: str, now: float, nick: str, channel: str) -> int:
    """Informational commands answered before the first refusal (which tells them to slow
    down)."""
    count = 0
    while throttle.allow(who, now, channel, nick=nick) is True:
        throttle.charge(who, now, channel, nick)
        count += 1
    return count


def test_a_trusted_host_gets_a_larger_budget() -> None:
    lan = TrustedHosts(["192.168.0.0/16", "*.lan"])
    throttle = CommandThrottle(trusted=lan, channel_burst=1000, global_burst=1000)
    assert throttle.is_trusted(LAN) and throttle.is_trusted("$h:box7.LAN")
    assert not throttle.is_trusted("$h:10.0.0.1") and not throttle.is_trusted("$a:192.168.1.20")
    assert asked(throttle, "$h:10.0.0.1", 0, "n", "#uno") == 10
    assert asked(throttle, LAN, 0, "n", "#uno") == 40  # four times the burst ...
    assert asked(throttle, LAN, 0.5, "n", "#uno") == 1  # ... and the refill rate (2 s -> 0.5 s)
    assert asked(throttle, LAN, 0.5, "quiet", "#uno") == 0  # the host's own budget: spent
    doubled = CommandThrottle(trusted=lan, trusted_multiplier=2, channel_burst=1000)
    assert asked(doubled, "$h:a.lan", 0, "n", "#uno") == 20


def test_on_a_trusted_host_each_nick_counts_as_a_person() -> None:
    """One LAN player asking again and again spends the channel's budget (12): another LAN
    player who has not been asking is still answered, as a person on a host of their own
    would be. On a host nobody trusts, the host is the person: nothing is left for them."""
    throttle = CommandThrottle(trusted=TrustedHosts(["192.168.0.0/16"]))
    assert asked(throttle, LAN, 0, "zed", "#uno") == 12
    assert asked(throttle, LAN, 0, "bob", "#uno") == 2  # bob is answered while quiet
    assert throttle.allow(LAN, 0, "#uno", nick="zed") is False  # told once already
    plain = CommandThrottle()
    assert asked(plain, "$h:10.0.0.1", 0, "zed", "#uno") == 10
    assert asked(plain, "$h:10.0.0.1", 0, "bob", "#uno") == 0


# --- trusted hosts ------------------------------------------------------------------------------


def test_trusted_hosts_match_networks_addresses_and_masks() -> None:
    trusted = TrustedHosts(["192.168.0.0/16", "10.1.2.3", "fd00::/8", "*.LAN", "gw?.example.net"])
    for host in ("192.168.44.2", "10.1.2.3", "fd12::1", "box.lan", "A.B.Lan", "gw1.example.net"):
        assert host in trusted, host
    for host in ("192.169.0.1", "10.1.2.4", "::1", "lan", "box.lan.evil", "gw12.example.net",
                 "192.168.1.1.example.net", "user/cloak"):  # fmt: skip
        assert host not in trusted, host
    assert not TrustedHosts() and "192.168.1.1" not in TrustedHosts()


@pytest.mark.parametrize(
    ("entry", "message"),
    [
        ("300.1.1.0/24", "not an address or network"),
        ("10.0.0.0/33", "not an address or network"),
        ("fd00::/200", "not an address or network"),
        ("1.2.3", "not an address or network"),
        ("*", "would trust every host"),
        ("*.*", "would trust every host"),
        ("a b", "not a network"),
        ("host\r\nQUIT", "not a network"),
    ],
)
def test_bad_trusted_entries_are_refused(entry: str, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        TrustedHosts([entry])


# --- the table's predicate ----------------------------------------------------------------------


def dealt(rules: str = "irc-classic", seed: int = 1) -> Table:
    table = Table("#uno", "alice", "alice", 0.0, TableConfig(rules=preset(rules)), Random(seed))
    for nick in ("bob", "carol"):
        table.join(nick, nick, 0.0)
    table.deal("alice", 0.0)
    return table


def kinds(table: Table, nick: str) -> set[type]:
    return {k for k in KINDS if table.is_timely(nick, k)}


AT_TURN = {Play, Draw, Pass, ChooseColor, Challenge}


def test_is_timely_is_the_movers_turn_or_an_open_window_and_changes_nothing() -> None:
    lobby = Table("#uno", "alice", "alice", 0.0)
    lobby.join("bob", "bob", 0.0)
    assert kinds(lobby, "alice") == set()
    for seed in range(20):
        table = dealt(seed=seed)
        game = table.game
        assert game is not None
        before = (game.current, game.phase, tuple(map(tuple, game.hands)), game.top)
        for seat, nick in enumerate(table.names):
            windows = {type(a) for a in game.legal_actions(seat)} & {CallUno, Catch}
            expected = (AT_TURN if seat == game.current else set()) | windows
            assert kinds(table, nick) == expected
            assert kinds(table, nick.upper()) == expected  # nicks fold as IRC does
        assert kinds(table, "zed") == set()  # not seated
        assert (game.current, game.phase, tuple(map(tuple, game.hands)), game.top) == before
        current = table.names[game.current]
        table.frozen = "restarting"
        assert kinds(table, current) == set()


def test_is_timely_for_uno_calls_catches_and_challenges() -> None:
    """Official rules (manual UNO calls, WD4 challenges): alice goes down to one card without
    calling; until bob moves, bob and carol may catch her and she may still call; then bob
    faces her WD4 and may challenge it."""
    table = dealt("official")
    assert table.match is not None
    r5, r7, wd4, b1 = (Card.parse(c) for c in ("R5", "R7", "WD4", "B1"))
    table.match.game = Game.from_position(
        table.config.rules, [[r5, wd4], [r7, b1, b1], [b1, b1, r7]], Card.parse("R3")
    )
    assert kinds(table, "alice") == AT_TURN | {CallUno} and kinds(table, "bob") == set()
    table.play("alice", r5, None, 1.0)
    assert kinds(table, "alice") == {CallUno}  # a late call, before she is caught
    assert kinds(table, "bob") == AT_TURN | {Catch} and kinds(table, "carol") == {Catch}
    table.catch("carol", "alice", 2.0)
    assert kinds(table, "carol") == set() and kinds(table, "bob") == AT_TURN
    game = table.game
    assert game is not None
    table.match.game = Game.from_position(
        table.config.rules, [[r5, r7], [r7, b1, b1], [b1, b1, r7]], wd4,
        color=Card.parse("R5").color, current=1, pending=4, phase=Phase.PENDING,
    )  # fmt: skip
    table.match.game.wd4_offender = 0
    assert kinds(table, "bob") == AT_TURN
    assert Challenge in {type(a) for a in table.match.game.legal_actions(1)}
    assert kinds(table, "alice") == set() and kinds(table, "carol") == set()
