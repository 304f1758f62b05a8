"""The IRC adapter against real servers (miniircd, ngircd, inspircd) and real client sockets."""

from __future__ import annotations

import time
from collections.abc import Callable

import pytest

from tests.e2e.client import TestClient
from tests.e2e.conftest import BotHarness, bot_settings, unique
from tests.e2e.servers import IrcServer
from unobot.irc.adapter import IrcAdapter
from unobot.irc.transport import Incoming, Kind, Tag

MakeBot = Callable[..., BotHarness]
MakeClient = Callable[..., TestClient]


def test_messages_in_and_out(
    irc_server: IrcServer, make_bot: MakeBot, make_client: MakeClient
) -> None:
    """Channel/private messages arrive as Incoming records; notices and channel lines go out."""
    channel = unique("#uno")
    bot = make_bot(bot_settings(irc_server, channels={channel: ""}))
    bot.wait_joined(channel)
    me = bot.adapter.nickname
    alice = make_client(irc_server)
    alice.join(channel)
    bot.wait_record(lambda r: r.kind is Kind.JOIN and r.nick == alice.nick)

    alice.privmsg(channel, ".uno please")
    rec = bot.wait_record(lambda r: r.kind is Kind.MESSAGE and r.text == ".uno please")
    assert (rec.nick, rec.target, rec.private) == (alice.nick, channel, False)
    assert rec.userhost.endswith("@127.0.0.1")

    alice.privmsg(me, "psst")
    rec = bot.wait_record(lambda r: r.text == "psst")
    assert rec.private and rec.target == me

    bot.call(lambda: bot.adapter.notice(alice.nick, "Your hand: \x0304R5\x0f \x0309G2\x0f"))
    bot.call(lambda: bot.adapter.privmsg(channel, "alice plays R5"))
    note = alice.wait_for(lambda m: m.command == "NOTICE" and m.nick == me)
    assert note.target == alice.nick and note.text == "Your hand: \x0304R5\x0f \x0309G2\x0f"
    line = alice.wait_for(lambda m: m.command == "PRIVMSG" and m.nick == me)
    assert line.target == channel and line.text == "alice plays R5"

    bob = make_client(irc_server)
    bob.join(channel)
    new = unique("bob")
    bob.send(f"NICK {new}")
    rec = bot.wait_record(lambda r: r.kind is Kind.NICK and r.nick == bob.nick)
    assert rec.new_nick == new
    bob.send(f"PART {channel} :bored")
    rec = bot.wait_record(lambda r: r.kind is Kind.PART and r.nick == new)
    assert rec.target == channel
    alice.send("QUIT :bye")
    rec = bot.wait_record(lambda r: r.kind is Kind.QUIT and r.nick == alice.nick)
    assert rec.target == ""


def test_is_op_where_the_server_has_ops(
    irc_server: IrcServer, make_bot: MakeBot, make_client: MakeClient
) -> None:
    if irc_server.kind == "miniircd":
        pytest.skip("miniircd has no channel operators")
    channel = unique("#ops")
    alice = make_client(irc_server)
    alice.join(channel)  # first in: alice is @
    bot = make_bot(bot_settings(irc_server, channels={channel: ""}))
    bot.wait_joined(channel)
    bob = make_client(irc_server)
    bob.join(channel)
    alice.privmsg(channel, "stop the game")
    bob.privmsg(channel, "me too")
    assert bot.wait_record(lambda r: r.text == "stop the game").is_op
    assert not bot.wait_record(lambda r: r.text == "me too").is_op


def test_names_on_join_lists_the_members_without_prefixes(
    irc_server: IrcServer, make_bot: MakeBot, make_client: MakeClient
) -> None:
    """The bot joins a channel where people are (the first of them an operator where the
    server has ops): one NAMES record follows its JOIN, with every nick, its own included,
    and no status prefix."""
    channel = unique("#names")
    alice = make_client(irc_server)
    alice.join(channel)
    bob = make_client(irc_server)
    bob.join(channel)
    bot = make_bot(bot_settings(irc_server, channels={channel: ""}))
    rec = bot.wait_record(lambda r: r.kind is Kind.NAMES)
    assert rec.target.lower() == channel.lower()
    assert sorted(rec.text.split()) == sorted([alice.nick, bob.nick, bot.adapter.nickname])


def test_invite_reaches_the_player_and_lets_them_in(
    irc_server: IrcServer, make_bot: MakeBot, make_client: MakeClient
) -> None:
    """A tournament table's invitation (the director calls ``invite``): the player gets an
    INVITE naming the channel and can join it."""
    if irc_server.kind == "miniircd":
        pytest.skip("miniircd has no INVITE")
    channel = unique("#table")
    bot = make_bot(bot_settings(irc_server, channels={channel: ""}))
    bot.wait_joined(channel)
    alice = make_client(irc_server)
    bot.adapter.call_soon_threadsafe(lambda: bot.adapter.invite(alice.nick, channel))
    got = alice.wait_for(lambda m: m.command == "INVITE")
    assert got.text.lower() == channel.lower()
    alice.join(channel)
    rec = bot.wait_record(lambda r: r.kind is Kind.JOIN and r.nick == alice.nick)
    assert rec.target.lower() == channel.lower()


def test_kick_record(irc_server: IrcServer, make_bot: MakeBot, make_client: MakeClient) -> None:
    if irc_server.kind == "miniircd":
        pytest.skip("miniircd has no KICK")
    channel = unique("#kick")
    alice = make_client(irc_server)
    alice.join(channel)
    bot = make_bot(bot_settings(irc_server, channels={channel: ""}))
    bot.wait_joined(channel)
    bob = make_client(irc_server)
    bob.join(channel)
    alice.send(f"KICK {channel} {bob.nick} :no cheating")
    rec = bot.wait_record(lambda r: r.kind is Kind.KICK)
    assert (rec.nick, rec.target, rec.text) == (bob.nick, channel, "no cheating")


def test_user_text_cannot_inject_protocol_lines(
    irc_server: IrcServer, make_bot: MakeBot, make_client: MakeClient
) -> None:
    channel = unique("#inj")
    bot = make_bot(bot_settings(irc_server, channels={channel: ""}))
    bot.wait_joined(channel)
    me = bot.adapter.nickname
    alice = make_client(irc_server)
    alice.join(channel)
    evil = f"hi\r\nPRIVMSG {channel} :injected\r\nQUIT :pwned\x00\nJOIN #evil\rend"
    bot.call(lambda: bot.adapter.privmsg(channel, evil))
    bot.call(lambda: bot.adapter.notice(f"{alice.nick}\r\nQUIT :x", "target attack"))
    bot.call(lambda: bot.adapter.privmsg(channel, "after"))
    alice.wait_for(lambda m: m.command == "PRIVMSG" and m.text == "after")
    from_bot = [m for m in alice.snapshot() if m.nick == me]
    texts = [m.text for m in from_bot if m.command == "PRIVMSG"]
    assert texts[0].startswith("hi  PRIVMSG") and "QUIT :pwned" in texts[0]
    assert "\x00" not in texts[0] and texts[0].endswith("end")
    assert "injected" not in texts[1:]
    assert not [m for m in from_bot if m.command in ("QUIT", "JOIN") and m.target != channel]
    assert bot.adapter.connected and bot.adapter.disconnects == 0
    assert "#evil" not in [c.lower() for c in bot.joined()]


def test_long_output_is_split_at_words_within_400_bytes(
    irc_server: IrcServer, make_bot: MakeBot, make_client: MakeClient
) -> None:
    bot = make_bot(bot_settings(irc_server, rate=0))
    bot.wait(lambda: bot.adapter.connected)
    me = bot.adapter.nickname
    alice = make_client(irc_server)
    cards = [f"\x03{c:02d}{'é' if c % 2 else 'R'}{i}\x0f" for i, c in enumerate(range(300))]
    bot.call(lambda: bot.adapter.notice(alice.nick, " ".join(cards)))
    expected_words = len(cards)
    got: list[str] = []
    deadline = time.monotonic() + 10
    while len(got) < expected_words and time.monotonic() < deadline:
        lines = [m.text for m in alice.received("NOTICE", me)]
        got = [w for t in lines for w in t.split(" ")]
        time.sleep(0.05)
    assert got == cards
    assert all(len(t.encode()) <= 400 for t in (m.text for m in alice.received("NOTICE", me)))


@pytest.mark.parametrize("irc_server", ["miniircd", "inspircd"], indirect=True)
def test_oversized_and_invalid_utf8_input_does_not_kill_the_adapter(
    irc_server: IrcServer, make_bot: MakeBot, make_client: MakeClient
) -> None:
    """A 10 KB line and latin-1/garbage bytes. (Not ngircd: it spins on >2 KB lines.)"""
    channel = unique("#bytes")
    bot = make_bot(bot_settings(irc_server, channels={channel: ""}))
    bot.wait_joined(channel)
    alice = make_client(irc_server)
    alice.join(channel)
    # inspircd drops a client whose line passes its 8 KB recvq: 6 KB there (it cuts to 512).
    size = 10_000 if irc_server.kind == "miniircd" else 6_000
    alice.send_bytes(f"PRIVMSG {channel} :".encode() + b"x" * size + b"\r\n")
    alice.send_bytes(f"PRIVMSG {channel} :caf".encode() + b"\xe9 \xff\xfe\xc3 ok\r\n")
    alice.send_bytes(f"PRIVMSG {bot.adapter.nickname} :".encode() + b"\x80\x81\r\n")
    alice.privmsg(channel, "still alive?")
    bot.wait_record(lambda r: r.text == "still alive?", timeout=15)
    texts = [r.text for r in bot.seen() if r.kind is Kind.MESSAGE]
    assert any(t.startswith("xxxx") for t in texts)
    assert any(t.startswith("caf") and t.endswith(" ok") for t in texts)
    assert bot.adapter.connected and bot.adapter.disconnects == 0


def test_handler_exception_is_logged_and_answered_with_an_apology(
    make_bot: MakeBot, make_client: MakeClient, fresh_server: Callable[[str], IrcServer]
) -> None:
    server = fresh_server("miniircd")

    def handler(adapter: IrcAdapter, record: Incoming) -> None:
        if record.text == "boom":
            raise RuntimeError("bug in a plugin")
        if record.text == "ping":
            adapter.notice(record.nick, "pong")

    bot = make_bot(bot_settings(server), handler)
    bot.wait(lambda: bot.adapter.connected)
    me = bot.adapter.nickname
    alice = make_client(server)
    alice.privmsg(me, "boom")
    alice.privmsg(me, "boom")
    alice.privmsg(me, "ping")
    alice.wait_for(lambda m: m.command == "NOTICE" and m.text == "pong")
    notices = [m.text for m in alice.received("NOTICE", me)]
    assert notices == [bot.adapter.settings.apology, "pong"]  # one apology, no traceback
    assert bot.adapter.connected and bot.thread.is_alive()


def test_nick_in_use_takes_the_alternates(
    irc_server: IrcServer, make_bot: MakeBot, make_client: MakeClient
) -> None:
    taken = unique("unonick")
    alt = taken + "a"
    make_client(irc_server, taken)
    first = make_bot(bot_settings(irc_server, nick=taken, alt_nicks=(alt,)))
    first.wait(lambda: first.adapter.connected, 15)
    assert first.adapter.nickname == alt
    second = make_bot(bot_settings(irc_server, nick=taken, alt_nicks=(alt,)))
    second.wait(lambda: second.adapter.connected, 15)
    assert second.adapter.nickname == alt + "_"


def test_reconnects_and_rejoins_after_server_restart(
    irc_server: IrcServer,
    make_bot: MakeBot,
    make_client: MakeClient,
    fresh_server: Callable[[str], IrcServer],
) -> None:
    server = fresh_server(irc_server.kind)  # a private one: we are going to restart it
    channel, key = unique("#re"), "sesame"
    bot = make_bot(bot_settings(server, channels={channel: key}))
    bot.wait_joined(channel, 15)
    server.restart()
    began = time.monotonic()
    bot.wait(lambda: bot.adapter.connects >= 2, 20, "reconnect")
    bot.wait_joined(channel, 15)
    took = time.monotonic() - began
    alice = make_client(server)
    alice.send(f"JOIN {channel} {key}")
    alice.wait_for(lambda m: m.command == "366")
    alice.privmsg(channel, "welcome back")
    bot.wait_record(lambda r: r.text == "welcome back")
    assert took < 15


def test_reconnects_after_the_connection_is_killed(
    make_bot: MakeBot, make_client: MakeClient, fresh_server: Callable[[str], IrcServer]
) -> None:
    server = fresh_server("miniircd")
    channel = unique("#kill")
    bot = make_bot(bot_settings(server, channels={channel: ""}))
    bot.wait_joined(channel)
    # What a dropped link looks like to the reactor: the socket dies under it.
    bot.call(lambda: bot.adapter._conn.socket.shutdown(2))
    bot.wait(lambda: bot.adapter.connects >= 2, 15, "reconnect")
    bot.wait_joined(channel)
    alice = make_client(server)
    alice.join(channel)
    alice.privmsg(channel, "hi again")
    bot.wait_record(lambda r: r.text == "hi again")
    assert bot.adapter.disconnects >= 1


def test_private_notices_overtake_channel_lines_queued_earlier(
    make_bot: MakeBot, make_client: MakeClient, fresh_server: Callable[[str], IrcServer]
) -> None:
    server = fresh_server("miniircd")
    channel = unique("#prio")
    bot = make_bot(bot_settings(server, channels={channel: ""}, burst=1, rate=20))
    bot.wait_joined(channel)
    me = bot.adapter.nickname
    alice = make_client(server)
    alice.join(channel)

    def deal() -> None:  # one handler's output: chatter first, hands last (of that game)
        for i in range(5):
            bot.adapter.privmsg(channel, f"chatter {i}")
        bot.adapter.notice(alice.nick, "your hand", Tag(channel))

    bot.call(deal)
    alice.wait_for(lambda m: m.text == "chatter 4")
    order = [m.text for m in alice.snapshot() if m.nick == me and m.command != "JOIN"]
    assert order == ["your hand"] + [f"chatter {i}" for i in range(5)]


def test_scheduler_timers_run_on_the_reactor_cancel_and_survive_errors(
    make_bot: MakeBot, fresh_server: Callable[[str], IrcServer]
) -> None:
    server = fresh_server("miniircd")
    bot = make_bot(bot_settings(server))
    bot.wait(lambda: bot.adapter.connected)
    fired: list[tuple[str, float]] = []
    adapter = bot.adapter

    def boom() -> None:
        raise RuntimeError("a buggy turn timer")

    def arm() -> float:
        now = adapter.now()
        adapter.call_later(0.05, boom)
        handle = adapter.call_later(0.1, lambda: fired.append(("cancelled", adapter.now())))
        adapter.call_later(0.2, lambda: fired.append(("late", adapter.now())))
        adapter.call_later(0.1, lambda: fired.append(("early", adapter.now())))
        adapter.cancel(handle)
        return now

    armed = bot.call(arm)
    bot.wait(lambda: len(fired) >= 2, 5, "timers")
    time.sleep(0.2)
    assert [name for name, _ in fired] == ["early", "late"]
    assert 0.1 <= fired[0][1] - armed < 0.5
    assert 0.2 <= fired[1][1] - armed < 0.6
    assert adapter.connected and bot.thread.is_alive()


def test_library_handler_errors_do_not_lose_the_bot(
    irc_server: IrcServer,
    make_bot: MakeBot,
    make_client: MakeClient,
    caplog: pytest.LogCaptureFixture,
) -> None:
    """NAMES for a channel the bot is not in makes the library's tracker raise KeyError."""
    other = unique("#other")
    alice = make_client(irc_server)
    alice.join(other)
    bot = make_bot(bot_settings(irc_server))
    bot.wait(lambda: bot.adapter.connected, 15)
    bot.call(lambda: bot.adapter._conn.names([other]))
    alice.privmsg(bot.adapter.nickname, "still there?")
    bot.wait_record(lambda r: r.text == "still there?")
    assert bot.adapter.connected and bot.thread.is_alive()
    assert "namreply" in caplog.text  # the library's handler did raise, and was contained


def test_fifty_channels_are_joined_in_seconds_at_one_line_a_second(
    irc_server: IrcServer, make_bot: MakeBot
) -> None:
    """JOINs share the send budget; one channel a line, fifty channels took 48 s on a strict
    server. Comma lists join them in a few lines."""
    count = 20 if irc_server.kind == "inspircd" else 50  # inspircd: 20 channels a user
    channels = {unique("#many"): "" for _ in range(count)}
    bot = make_bot(bot_settings(irc_server, channels=channels, burst=4, rate=1.0))
    started = time.monotonic()
    for channel in channels:
        bot.wait_joined(channel, timeout=15)
    assert time.monotonic() - started < 10
