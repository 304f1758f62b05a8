"""The send budget against the servers' own accounting: the outbox's penalty clock, the pacer,
refused private lines (ircu's 439) and replies taking turns by person, with a fake clock.

The strongest check here replays what the outbox sends through ircu's flood control as its
source has it (``s_bsd.c`` ``read_packet``, ``parse.c`` ``parse_client``): a line is read while
the client's clock is less than 10 s ahead of the server's whole-second time, costs
``2 + params/120`` seconds, and a client whose unread lines pass 1024 bytes is killed.
"""

from __future__ import annotations

import math
from collections import deque

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from unobot.irc.flood import MODELS, Pacer, bucket, flood_words, model_for_server
from unobot.irc.outbox import Outbox, WireLine
from unobot.irc.transport import Tag


def drain(
    box: Outbox, until: float = 100_000.0, start: float = 0.0
) -> list[tuple[float, WireLine]]:
    sent: list[tuple[float, WireLine]] = []
    now = start
    while (t := box.next_time(now)) is not None and t <= until:
        now = t
        sent.extend((now, line) for line in box.due(now))
    return sent


def ircu(sent: list[tuple[float, WireLine]], flood: int = 1024) -> tuple[bool, float]:
    """(killed, longest time a line waited unread) for these lines arriving at ircu."""
    since = 0
    queue: deque[tuple[float, WireLine]] = deque()
    longest = 0.0
    arrivals = deque(sent)
    clock = 0.0
    while arrivals or queue:
        # The server's loop runs at least once a second, and at every arrival.
        clock = min(arrivals[0][0], math.floor(clock) + 1.0) if arrivals else math.floor(clock) + 1
        current = math.floor(clock)
        while arrivals and arrivals[0][0] <= clock:
            queue.append(arrivals.popleft())
            since = max(since, current)  # cli_lasttime on a read
        size = sum(len(f"{ln.command} {ln.target} :{ln.text}\r\n") for _, ln in queue)
        if size > flood:
            return True, longest
        while queue and since - current < 10:
            when, line = queue.popleft()
            longest = max(longest, clock - when)
            since += 2 + line.params_bytes() // 120
    return False, longest


def test_models_are_picked_from_the_servers_version() -> None:
    fallback = bucket(4, 1.0)
    assert model_for_server("u2.10.12.10", fallback).name == "ircu"
    assert model_for_server("u2.10.12.14+snircd(1.3.4a)", fallback).name == "ircu"
    assert model_for_server("2.11.2p3", fallback).name == "irc2"
    assert model_for_server("ircd-hybrid-8.2.43", fallback).name == "hybrid"
    assert model_for_server("solanum-1.0-dev", fallback).name == "solanum"
    assert model_for_server("UnrealIRCd-6.1.2", fallback).name == "unreal"
    assert model_for_server("InspIRCd-3", fallback).name == "inspircd"
    assert model_for_server("ngircd-26.1", fallback).name == "ngircd"
    assert model_for_server("miniircd-2.3", fallback) is fallback
    own = model_for_server("unobot-embedded", fallback)  # the bot's own server: no budget
    assert own.name == "embedded" and own.per_line == 0 and Outbox(model=own).unlimited
    assert MODELS["ircu"].cost(80) == 2 and MODELS["ircu"].cost(250) == 4


def test_flood_words() -> None:
    assert flood_words("Closing Link: unobot by irc.test (Excess Flood)")
    assert flood_words("RecvQ exceeded")
    assert not flood_words("Ping timeout")


def test_ircu_model_sends_half_a_line_a_second_and_is_never_held_or_killed() -> None:
    box = Outbox(model=MODELS["ircu"])
    for i in range(60):
        box.push("NOTICE", "#uno", f"line {i} " + "x" * 60)
    sent = drain(box)
    assert len(sent) == 60
    # A burst, then one short line every 2 s: the whole lot in about two minutes.
    assert 100 < sent[-1][0] < 125
    killed, longest = ircu(sent)
    assert not killed and longest == 0.0
    # The old flat budget (a burst of 4, then a line a second) is killed by the same server.
    old = Outbox(burst=4, rate=1.0)
    for i in range(60):
        old.push("NOTICE", "#uno", f"line {i} " + "x" * 60)
    assert ircu(drain(old))[0]


@settings(max_examples=60, deadline=None)
@given(
    st.lists(
        st.tuples(st.floats(0, 200), st.integers(1, 390), st.sampled_from(["#a", "#b", "bob"])),
        min_size=1,
        max_size=120,
    )
)
def test_ircu_never_holds_or_kills_whatever_is_pushed_when(
    pushes: list[tuple[float, int, str]],
) -> None:
    box = Outbox(model=MODELS["ircu"])
    sent: list[tuple[float, WireLine]] = []
    now = 0.0
    for at, size, target in sorted(pushes):
        while (t := box.next_time(now)) is not None and t <= at:
            now = t
            sent.extend((now, line) for line in box.due(now))
        now = at
        box.push("PRIVMSG", target, "y" * size)
        sent.extend((now, line) for line in box.due(now))
    sent += drain(box, start=now)
    assert len(sent) == len(pushes)
    killed, longest = ircu(sent)
    assert not killed and longest == 0.0


def test_registration_lines_count_against_the_allowance() -> None:
    box = Outbox(model=MODELS["ircu"])
    box.reset(0.0, [WireLine("NICK", "unobot", ""), WireLine("USER", "unobot 0 *", "unobot")])
    assert box.ahead(0.0) == 4.0
    for i in range(10):
        box.push("PRIVMSG", "#uno", f"{i}")
    assert len(box.due(0.0)) == 3  # ahead 4, 6, 8: then it waits


def test_the_pacer_slows_down_on_lag_and_after_a_flood_kill_and_recovers_slowly() -> None:
    pacer = Pacer()
    assert not pacer.lag(0.1) and pacer.factor == 1.0
    assert pacer.lag(5.0) and pacer.factor == 1.5
    pacer.flooded()
    assert pacer.factor == 3.0
    for _ in range(20):
        pacer.lag(0.1)
    assert pacer.factor == pytest.approx(2.0)
    for _ in range(100):
        pacer.lag(0.1)
    assert pacer.factor == 1.0
    box = Outbox(model=MODELS["ircu"])
    box.pacer.flooded()
    assert box.cost(WireLine("PRIVMSG", "#uno", "hi")) == 4.0


def test_a_late_probe_pauses_sending() -> None:
    box = Outbox(burst=4, rate=1.0)
    for i in range(10):
        box.push("PRIVMSG", "#uno", str(i))
    assert len(box.due(0.0)) == 4
    box.pause(0.0, 4.0)
    assert box.next_time(0.0) == pytest.approx(5.0)


def hand(box: Outbox, nick: str, text: str, now: float = 0.0) -> None:
    box.push("NOTICE", nick, text, tag=Tag("#uno", key=f"hand {nick}"), now=now)


def test_a_refused_hand_is_sent_again_when_the_server_says_and_others_go_on() -> None:
    box = Outbox(burst=10, rate=1.0)
    hand(box, "amy", "Your cards: R1")
    hand(box, "bob", "Your cards: B2")
    assert [ln.target for ln in box.due(0.0)] == ["amy", "bob"]
    # The server refused bob's hand: "439 unobot bob :Target change too fast. Please wait 20 s"
    again = box.refused("bob", 20.0, 1.0)
    assert again == (WireLine("NOTICE", "bob", "Your cards: B2"), "hands", True)
    assert box.held(1.0) == ["bob"]
    # amy (accepted before) and the channel go on; bob and new targets (carl) wait.
    hand(box, "amy", "Your cards: R1 G5", 1.0)
    hand(box, "carl", "Your cards: Y7", 1.0)
    box.push("PRIVMSG", "#uno", "amy draws", now=1.0)
    assert [ln.target for ln in box.due(2.0)] == ["amy", "#uno"]
    assert box.next_time(2.0) == pytest.approx(22.0)
    assert box.due(21.0) == []
    assert [ln.target for ln in box.due(22.0)] == ["bob"]  # one new target at a time
    assert box.next_time(22.0) == pytest.approx(27.0)
    assert [ln.target for ln in box.due(27.0)] == ["carl"]
    assert box.requeued == 1 and box.refusals == 1


def test_a_newer_hand_waiting_makes_the_refused_one_moot() -> None:
    box = Outbox(burst=10, rate=1.0)
    hand(box, "bob", "Your cards: B2")
    box.due(0.0)
    hand(box, "bob", "Your cards: B2 R3", 0.5)
    assert box.refused("bob", 5.0, 1.0) == (
        WireLine("NOTICE", "bob", "Your cards: B2"),
        "hands",
        False,
    )
    assert [ln.text for _, ln in drain(box, start=1.0)] == ["Your cards: B2 R3"]


def test_both_lines_of_a_refused_long_hand_come_back_in_order() -> None:
    box = Outbox(burst=10, rate=1.0)
    for part, text in enumerate(["Your cards (30): ...", "... G9"]):
        box.push("NOTICE", "bob", text, tag=Tag("#uno", key="hand bob", part=part))
    box.due(0.0)
    assert box.refused("bob", 3.0, 0.5) is not None
    assert box.refused("bob", 5.0, 0.5) is not None
    assert [ln.text for _, ln in drain(box, start=0.5)] == ["Your cards (30): ...", "... G9"]


def test_lines_the_adapter_can_send_as_cnotice_are_never_held() -> None:
    box = Outbox(burst=10, rate=1.0)
    box.exempt = lambda line: line.via == "#uno"
    hand(box, "bob", "Your cards: B2")
    box.push("NOTICE", "zed", "help", tag=Tag("#other", reply=True))
    box.due(0.0)
    box.refused("zed", 30.0, 0.5)
    hand(box, "carl", "Your cards: Y7", 1.0)
    assert [ln.target for ln in box.due(1.0)] == ["carl"]  # exempt: goes at once
    assert box.due(2.0) == [] and box.held(2.0) == ["zed"]


def test_one_persons_replies_only_delay_their_own() -> None:
    """A flooder's twenty queued replies and an innocent user's one, in the same channel: the
    innocent's goes second, not twenty-first."""
    box = Outbox(burst=1, rate=1.0, reply_ttl=1e9)
    box.due(0.0)
    for i in range(20):
        box.push("NOTICE", "spam", f"help {i}", tag=Tag("#uno", reply=True, person="$h:a"))
    box.push("PRIVMSG", "#uno", "Top: R5", tag=Tag("#uno", reply=True, person="$h:b"))
    texts = [ln.text for _, ln in drain(box)]
    assert texts.index("Top: R5") == 1
    assert texts.count("Top: R5") == 1 and len(texts) == 21


def test_after_a_refusal_new_targets_go_one_at_a_time() -> None:
    """When the server's wait is over it allows one new target, not all of them: released
    together, every one but the first would be refused again (and push the wait on)."""
    box = Outbox(burst=10, rate=1.0)
    hand(box, "amy", "Your cards: R1")
    box.due(0.0)
    box.refused("amy", 10.0, 0.5)
    for nick in ("bob", "carl", "dan"):
        hand(box, nick, f"Your cards: {nick}", 1.0)
    sent = drain(box, start=1.0)
    times = {line.target: when for when, line in sent}
    assert times["amy"] == pytest.approx(11.5)
    others = sorted(times[n] for n in ("bob", "carl", "dan"))
    assert others[0] >= 11.5 and others[1] - others[0] >= 5.0 and others[2] - others[1] >= 5.0


def test_the_target_refused_first_goes_first_when_the_wait_is_over() -> None:
    """ircu lets one new target through when the wait is over: the player refused first must
    be it, not whoever is next in the round (amy's game comes first there)."""
    box = Outbox(burst=10, rate=1.0)
    hand(box, "bob", "Your cards: B2")
    box.due(0.0)
    box.push("NOTICE", "amy", "Your cards: R1", tag=Tag("#two", key="hand amy"), now=0.2)
    box.refused("bob", 10.0, 0.5)
    sent = drain(box, start=1.0)
    assert [line.target for _, line in sent] == ["bob", "amy"]
    assert sent[1][0] - sent[0][0] >= 5.0


def test_a_servers_channel_limit_is_read_from_isupport() -> None:
    from unobot.irc.serverinfo import ServerInfo

    def limit(*tokens: str) -> int | None:
        info = ServerInfo()
        info.read_isupport([*tokens, "are supported by this server"])
        return info.max_channels

    assert limit("MAXCHANNELS=10", "CNOTICE", "CPRIVMSG") == 10  # ircu
    assert limit("CHANLIMIT=#:25") == 25  # hybrid
    assert limit("CHANLIMIT=#&+:0") is None  # ngircd, MaxJoins = 0: no limit
    assert limit("CHANLIMIT=#:") is None and limit("NETWORK=x") is None
    info = ServerInfo()
    info.read_isupport(["CNOTICE", "CPRIVMSG", "NICKLEN=12", "are supported by this server"])
    assert info.supports("CNOTICE") and info.supports("cprivmsg") and not info.supports("WHOX")
