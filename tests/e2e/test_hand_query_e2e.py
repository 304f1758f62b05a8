"""Hands by private message over real IRC (issue 37 item 4), on the bot's embedded server and
on ngircd: a real client says ``.unohand query`` and plays a whole game on the hands that
arrive as PRIVMSGs to its nick (what irssi, WeeChat, HexChat and mIRC show in a query window)
while the other player keeps NOTICEs; the choice outlives the bot (settings in its SQLite
database); and on ircu, with the bot opped, such a hand leaves as ``CPRIVMSG`` (no target
change counted), as a NOTICE hand leaves as ``CNOTICE``."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.core.fakes import strip_codes
from tests.e2e.client import Msg, TestClient
from tests.e2e.conftest import unique
from tests.e2e.servers import IrcServer
from tests.e2e.test_embedded_clients import Irssi
from tests.e2e.test_games import NetGame, Player, RunningBot
from tests.e2e.test_uno_pace_e2e import server  # noqa: F401  (fixture: embedded, ngircd)
from unobot.core.table import TableConfig
from unobot.engine import preset
from unobot.irc.casemap import irc_lower


def from_bot(m: Msg, bot: str, nick: str, command: str) -> bool:
    return m.nick == bot and m.command == command and irc_lower(m.target) == irc_lower(nick)


def to_nick(m: Msg, bot: str, nick: str) -> bool:
    """A line of the bot's to ``nick`` alone: a NOTICE or a private message (a query hand)."""
    return from_bot(m, bot, nick, "NOTICE") or from_bot(m, bot, nick, "PRIVMSG")


class QueryPlayer(Player):
    """A player whose agent reads its hands from private messages (``.unohand query``) as
    well as from NOTICEs (the replies to its commands)."""

    def told(self, m: Msg, bot: str) -> bool:
        return to_nick(m, bot, self.client.nick)


class QueryGame(NetGame):
    """NetGame where a player's own private lines (NOTICE or PRIVMSG to their nick) answer
    their command: a hand alone means a drawn card waits for a decision."""

    def private(self, player: Player, m: Msg) -> bool:
        return to_nick(m, self.bot.nick, player.client.nick)


def hand_lines(client: TestClient, bot: str, command: str) -> list[Msg]:
    return [
        m
        for m in client.snapshot()
        if from_bot(m, bot, client.nick, command) and "Your cards (" in strip_codes(m.text)
    ]


@pytest.fixture
def bots(server: Any, tmp_path: Path) -> Iterator[Callable[..., RunningBot]]:  # noqa: F811
    made: list[RunningBot] = []

    def make(channel: str, database: str | None = None) -> RunningBot:
        bot = RunningBot(server, channel, TableConfig(), 11, database=database)  # one hand
        made.append(bot)
        return bot

    yield make
    for bot in made:
        bot.stop()


def test_a_query_player_plays_a_whole_game_on_private_messages(
    server: Any,  # noqa: F811
    bots: Callable[..., RunningBot],
) -> None:
    bot = bots("#" + unique("q"))
    amy = QueryPlayer(TestClient(server.port, unique("amy")), seed=1)
    bob = Player(TestClient(server.port, unique("bob")), seed=2)
    try:
        for p in (amy, bob):
            p.client.join(bot.channel)
        game = QueryGame(bot, [amy, bob])
        mark = len(amy.client.snapshot())
        amy.client.privmsg(bot.channel, ".unohand query")
        reply = amy.client.wait_for(
            lambda m: from_bot(m, bot.nick, amy.client.nick, "PRIVMSG"), after=mark
        )
        assert "as a private message (a query window)" in strip_codes(reply.text)
        game.start()
        winner = game.play_to_end()
        assert " wins" in winner
        # Every hand amy got came as a PRIVMSG to her nick, none as a NOTICE; bob's the other
        # way; no hand was ever said in the channel.
        got = hand_lines(amy.client, bot.nick, "PRIVMSG")
        assert len(got) >= 5, len(got)
        assert hand_lines(amy.client, bot.nick, "NOTICE") == []
        assert hand_lines(bob.client, bot.nick, "NOTICE")
        assert hand_lines(bob.client, bot.nick, "PRIVMSG") == []
        assert not any("Your cards" in t for t in game.channel_text())
        assert any("Your turn | " in strip_codes(m.text) for m in got)  # the turn's hand too
        # .cards answers where the hands go.
        mark = len(amy.client.snapshot())
        amy.client.privmsg(bot.channel, ".unohand")
        amy.client.wait_for(lambda m: from_bot(m, bot.nick, amy.client.nick, "PRIVMSG"), after=mark)
    finally:
        amy.client.close()
        bob.client.close()


def test_the_choice_outlives_the_bot(
    server: Any,  # noqa: F811
    bots: Callable[..., RunningBot],
    tmp_path: Path,
) -> None:
    """Said once, kept in the settings database: the next bot process (same database) sends
    the deal's hand by private message, and ``.cards`` too."""
    url = f"sqlite:///{tmp_path / 'stats.db'}"
    channel = "#" + unique("q")
    first = bots(channel, database=url)
    amy = TestClient(server.port, unique("amy"))
    bob = TestClient(server.port, unique("bob"))
    try:
        for c in (amy, bob):
            c.join(channel)
        mark = len(amy.snapshot())
        amy.privmsg(channel, ".unohand query")
        amy.wait_for(lambda m: from_bot(m, first.nick, amy.nick, "PRIVMSG"), after=mark)
        deadline = time.monotonic() + 10
        while first.prefs.pending:  # type: ignore[attr-defined]  # written by the worker
            assert time.monotonic() < deadline, "the setting was not written"
            time.sleep(0.05)
        first.stop()
        second = bots(channel, database=url)
        deadline = time.monotonic() + 10
        while not second.prefs.loaded:  # type: ignore[attr-defined]
            assert time.monotonic() < deadline, "the settings were not loaded"
            time.sleep(0.05)
        for c in (amy, bob):
            c.join(channel)  # a no-op when still in it
        mark_a, mark_b = len(amy.snapshot()), len(bob.snapshot())
        amy.privmsg(channel, ".uno")
        amy.wait_for(lambda m: m.nick == second.nick and "opens" in m.text, after=mark_a)
        time.sleep(0.5)
        bob.privmsg(channel, ".join")
        bob.wait_for(lambda m: m.nick == second.nick and "joins" in m.text, after=mark_b)
        time.sleep(0.5)
        amy.privmsg(channel, ".deal")
        hand = amy.wait_for(
            lambda m: m.nick == second.nick and "Your cards (7)" in strip_codes(m.text),
            after=mark_a,
        )
        assert hand.command == "PRIVMSG" and irc_lower(hand.target) == irc_lower(amy.nick)
        other = bob.wait_for(
            lambda m: m.nick == second.nick and "Your cards (7)" in strip_codes(m.text),
            after=mark_b,
        )
        assert other.command == "NOTICE"
    finally:
        amy.close()
        bob.close()


def test_on_ircu_an_opped_bot_sends_a_query_hand_as_cprivmsg(
    fresh_server: Callable[..., IrcServer],
) -> None:
    """ircu counts every new person a client messages (``439`` past the free targets) unless
    the line goes as ``CPRIVMSG nick #channel`` from a channel operator: the adapter does for
    a hand by private message exactly what it does for one by NOTICE."""
    ircu = fresh_server("ircu")
    channel = "#" + unique("q")
    bot = RunningBot(ircu, channel, TableConfig(rules=preset("official")), 5)
    sent: list[str] = []
    try:
        conn = bot.adapter._conn
        raw = conn.send_raw

        def spy(line: str) -> None:
            sent.append(line)
            raw(line)

        conn.send_raw = spy
        amy = TestClient(ircu.port, unique("amy"), source="127.0.37.1")
        bob = TestClient(ircu.port, unique("bob"), source="127.0.37.2")
        for c in (amy, bob):
            c.join(channel)
        time.sleep(2.5)  # ircu reads slowly: one line at a time, each a little apart
        amy.privmsg(channel, ".unohand query")
        amy.wait_for(lambda m: from_bot(m, bot.nick, amy.nick, "PRIVMSG"), timeout=30)
        for who, text in ((amy, ".uno"), (bob, ".join"), (amy, ".deal")):
            time.sleep(2.5)
            who.privmsg(channel, text)
        hand = amy.wait_for(
            lambda m: m.nick == bot.nick and "Your cards (7)" in strip_codes(m.text), timeout=60
        )
        assert hand.command == "PRIVMSG" and irc_lower(hand.target) == irc_lower(amy.nick)
        bob.wait_for(
            lambda m: m.nick == bot.nick and m.command == "NOTICE" and "Your cards (7)" in m.text,
            timeout=60,
        )
        words = [line.split(" ", 2)[:2] for line in sent]
        assert ["CPRIVMSG", amy.nick] in words, sent  # the hand, through the channel
        assert ["CNOTICE", bob.nick] in words, sent
        assert not any(w == ["PRIVMSG", amy.nick] for w in words), sent
        amy.close()
        bob.close()
    finally:
        bot.stop()


IRSSI_CONFIG = """servers = ( {{ address = "127.0.0.1"; chatnet = "local"; port = "{port}";
  use_tls = "no"; autoconnect = "yes"; }} );
chatnets = {{ local = {{ type = "IRC"; }}; }};
channels = ( {{ name = "{channel}"; chatnet = "local"; autojoin = "yes"; }} );
settings = {{ "irc/core" = {{ cmd_queue_speed = "0"; cmds_max_at_once = "100"; }};
  core = {{ real_name = "Irssi User"; user_name = "irssi"; nick = "{nick}"; }}; }};
"""


def test_a_real_irssi_shows_notice_hands_in_its_status_window_and_query_hands_in_a_query(
    server: Any,  # noqa: F811
    bots: Callable[..., RunningBot],
    tmp_path: Path,
) -> None:
    """The issue, as irssi 1.4 (the client the start banner suggests) shows it: the dealt
    hand, by NOTICE, lands in the status window (window 1), not the channel's; after
    ``.unohand query`` typed in the channel the bot's answer opens a query window named after
    the bot, and the hands come there (``.cards`` here); the status window gets no more."""
    channel = "#" + unique("irssi")
    bot = bots(channel)
    nick = unique("irs")
    bob = TestClient(server.port, unique("bob"))
    config = IRSSI_CONFIG.format(port=server.port, channel=channel, nick=nick)
    irssi = Irssi(tmp_path / "irssi", config)
    try:
        bob.join(channel)
        bob.wait_for(lambda m: m.command == "JOIN" and m.nick == nick, timeout=30, what="irssi")
        time.sleep(1.5)  # its channel sync
        irssi.type("/window 1")
        irssi.type(f"/window log on {irssi.home / 'status.log'}")
        irssi.type("/window 2")
        irssi.type(f"/window log on {irssi.home / 'channel.log'}")
        bob.privmsg(channel, ".uno")
        bob.wait_for(lambda m: m.nick == bot.nick and "opens" in m.text)
        irssi.type(".join", 1.0)
        bob.privmsg(channel, ".deal")
        bob.wait_for(lambda m: m.nick == bot.nick and "Your cards (7)" in strip_codes(m.text))
        time.sleep(1.0)
        status = strip_codes(irssi.log("status.log"))
        assert f"-{bot.nick}(" in status and "Your cards (7)" in status, status  # a NOTICE
        assert "Your cards" not in strip_codes(irssi.log("channel.log"))
        assert "QUERY" not in irssi.windows()
        irssi.type("/window 2")
        irssi.type(".unohand query", 1.5)  # said in the channel; the answer opens a query
        layout = irssi.windows()
        assert 'type = "QUERY"' in layout and f'name = "{bot.nick}"' in layout, layout
        irssi.type("/window 3")
        irssi.type(f"/window log on {irssi.home / 'query.log'}")
        irssi.type("/window 2")
        irssi.type(".cards", 1.5)
        query = strip_codes(irssi.log("query.log"))
        assert "Your cards (7)" in query and f"<{bot.nick}>" in query, query  # a PRIVMSG
        assert strip_codes(irssi.log("status.log")).count("Your cards") == 1  # the deal's only
        assert "Your cards" not in strip_codes(irssi.log("channel.log"))
    finally:
        irssi.close()
        bob.close()
