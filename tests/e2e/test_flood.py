"""Flood control against inspircd's default limits (10-line burst, 1 line/s, 8 KB recvq).

Dealing hands to a table means dozens of NOTICEs at once. Sent unthrottled, ~200-byte notices
overflow inspircd's 8 KB receive queue and the server drops the bot ("RecvQ exceeded"); the
outbox (burst 4, then 1 line/s: the production default, used here unchanged) must deliver all of
them without a disconnect and without blocking the reactor (no ``set_rate_limit``, no sleep).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator

import irc.client
import pytest

from tests.e2e.client import TestClient
from tests.e2e.conftest import BotHarness, bot_settings, unique
from tests.e2e.servers import IrcServer

MakeBot = Callable[..., BotHarness]
MakeClient = Callable[..., TestClient]
pytestmark = pytest.mark.serial
"""Under xdist these run last, alone (tests/parallel.py):
the reactor's latency and the send pace are measured."""
COUNT = 60


def _hand(i: int) -> str:
    cards = " ".join(f"\x03{(i + j) % 16:02d}R{j % 10}\x0f" for j in range(30))
    return f"[{i:02d}] Your hand: {cards}"  # ~200 bytes, like a real 30-card hand


@pytest.fixture
def no_set_rate_limit(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Fail loudly if anything uses the library's sleeping throttle."""

    def refuse(self: object, frequency: float) -> None:
        raise AssertionError("set_rate_limit sleeps inside the reactor; must not be used")

    monkeypatch.setattr(irc.client.ServerConnection, "set_rate_limit", refuse)
    yield


@pytest.mark.parametrize("irc_server", ["inspircd"], indirect=True)
def test_sixty_notices_are_all_delivered_without_disconnect(
    irc_server: IrcServer, make_bot: MakeBot, make_client: MakeClient, no_set_rate_limit: None
) -> None:
    bot = make_bot(bot_settings(irc_server))  # default outbox: burst 4, then 1 line/s
    assert (bot.adapter.settings.burst, bot.adapter.settings.rate) == (4, 1.0)
    bot.wait(lambda: bot.adapter.connected, 15)
    me = bot.adapter.nickname
    alice = make_client(irc_server)
    hands = [_hand(i) for i in range(COUNT)]
    assert all(150 < len(h.encode()) < 400 for h in hands)

    def queue_all() -> float:
        t0 = time.monotonic()
        for h in hands:
            bot.adapter.notice(alice.nick, h)
        return time.monotonic() - t0

    started = time.monotonic()
    queued_in = bot.call(queue_all)  # on the reactor thread, like a real handler

    # While the queue drains, the reactor must keep handling input promptly.
    time.sleep(5)
    sent_at = time.monotonic()
    alice.privmsg(me, "are you there?")
    rec_at = next(
        t for t, r in _wait_timed(bot, lambda r: r.text == "are you there?") if r.nick == alice.nick
    )
    latency = rec_at - sent_at

    got = alice.wait_count(
        lambda m: m.command == "NOTICE" and m.nick == me, COUNT, timeout=COUNT + 30
    )
    took = time.monotonic() - started
    print(
        f"\nflood: {COUNT} notices queued in {queued_in * 1000:.2f} ms, all delivered in "
        f"{took:.1f} s; input latency during the drain {latency * 1000:.0f} ms"
    )
    assert [m.text for m in got] == hands
    assert bot.adapter.disconnects == 0 and bot.adapter.connected
    assert not alice.received("QUIT", me)
    assert queued_in < 0.1  # queuing never waits for the network
    assert latency < 1.0  # the reactor was not asleep
    # The bucket, not the server, paced the lines: burst 4 then 1/s.
    assert took > (COUNT - 4) * 1.0 - 1


def _wait_timed(
    bot: BotHarness, predicate: Callable[..., bool], timeout: float = 10.0
) -> list[tuple[float, object]]:
    bot.wait_record(predicate, timeout)
    with bot._lock:
        return [(t, r) for t, r in bot.records if predicate(r)]


@pytest.mark.parametrize("irc_server", ["inspircd"], indirect=True)
def test_the_same_burst_unthrottled_gets_the_bot_disconnected(
    irc_server: IrcServer, make_bot: MakeBot, make_client: MakeClient, no_set_rate_limit: None
) -> None:
    """The control experiment: rate 0 (no bucket) is flood-killed, and the bot comes back."""
    channel = unique("#flood")
    bot = make_bot(bot_settings(irc_server, rate=0, channels={channel: ""}))
    bot.wait_joined(channel, 15)
    me = bot.adapter.nickname
    alice = make_client(irc_server)
    alice.join(channel)
    started = time.monotonic()
    bot.call(lambda: [bot.adapter.notice(alice.nick, _hand(i)) for i in range(COUNT)])
    quit_msg = alice.wait_for(lambda m: m.command == "QUIT" and m.nick == me, timeout=15)
    killed_after = time.monotonic() - started
    delivered = len(alice.received("NOTICE", me))
    bot.wait(lambda: bot.adapter.connects >= 2, 20, "reconnect after the flood kill")
    bot.wait_joined(channel, 15)
    print(
        f"\nunthrottled: disconnected after {killed_after:.1f} s ({quit_msg.text!r}), "
        f"{delivered}/{COUNT} notices delivered; reconnected and rejoined"
    )
    assert "RecvQ" in quit_msg.text
    assert delivered < COUNT
