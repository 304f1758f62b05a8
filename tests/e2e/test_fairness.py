"""Fairness on a strict network: the real bot process at its default send budget (a burst of
4, then 1 line/s) on inspircd with its default flood limits, several games at once and a
flooder, all real clients.

What must hold (issue 17): no channel with a game waits more than (active channels) x 1.5 s,
rounded up to whole send slots as the outbox guarantees (N + ceil(N/2) lines: a wait of
five 1 s slots for three games was read against 4.5 s + 0.5 s of slack and failed one run in
eight by 0.1 ms), plus a little slack for the network, for its next bot line, whatever
another channel or a flooding user does; the games all finish; a flooder is told "Slow down"
once per nick (people behind one address may be several: issue 27), and from clones on one
host or while changing nicks only a few times in all (five, then one every 12 s for the host).

The players are the capacity benchmark's simulated players (:class:`unobot.bench.capacity.
Players`: they know only what the bot told them), answering at once so that every channel
always has something waiting in the bot's queue, each from its own loopback address (the bot
budgets commands by host). A channel *waits on the bot* while its game is open and none of its
players is about to answer; the wait ends with the next bot line for that channel (a channel
line or a notice to one of its players; a reply to the flooder is not one). The games are
timed matches of two players (``.deal 15s``): an untimed two-player hand, even of one card,
sometimes runs past 40 turns (two minutes at a line a second shared by three channels); a
timed match ends when its time is up, whoever is ahead winning it.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.core.fakes import strip_codes
from tests.e2e.client import TestClient
from tests.e2e.conftest import require
from tests.e2e.servers import IrcServer, start_server
from unobot.bench.capacity import BotProcess, Figures, Players, fair_bound
from unobot.bench.irc import BOT_NICK

pytestmark = pytest.mark.serial
"""Under xdist these run last, alone (tests/parallel.py):
waits are measured against a bound of a second or so."""
SLACK = 0.5
"""Seconds over the bound a wait may take: the server's relay, the bot's timer, the read
(measured waits land within 2 ms of a whole number of the bot's 1 s send slots)."""
MATCH = "20s"
"""The flood scenario's matches (the flood and its replies last about as long)."""
SHORT_MATCH = "15s"
LATE_MOVE = "no Uno game is being played here"
"""The one refusal a player may get: a move sent on the last status line of a timed match
while the bot's "Time is up" line was still queued behind other channels' lines."""
FLOOD_HOST = "127.0.200.1"
"""The flooder's address: every clone of theirs connects from it (one host, one person)."""


@pytest.fixture
def inspircd() -> Iterator[IrcServer]:
    """A fresh inspircd with Debian's default flood limits (as tests/e2e/servers.py sets)."""
    require("inspircd")
    server = start_server("inspircd")
    yield server
    server.cleanup()


def over_bound(waits: list[tuple[float, int, str]], channel: str = "") -> list[tuple]:
    """Waits (of ``channel``, or all) longer than the fair bound + slack (:func:`fair_bound`:
    (active channels) x 1.5 s, rounded up to whole send slots)."""
    return [
        w for w in waits if (not channel or w[2] == channel) and w[0] > fair_bound(w[1]) + SLACK
    ]


def fair(players: Players, waits: list[tuple[float, int, str]], channel: str = "") -> str:
    """ "" when no wait is over the bound, else the worst ones and what went on during the
    longest (each command and bot line with its time from the wait's start: which lines of
    which channels took the send slots meanwhile)."""
    over = over_bound(waits, channel)
    if not over:
        return ""
    worst = max(over, key=lambda w: w[0] - fair_bound(w[1]))
    shown = sorted(w for w in waits if not channel or w[2] == channel)[-5:]
    return f"{shown}\nduring the worst ({worst}):\n{players.around(worst)}"


def play_timed(
    players: Players, bot: BotProcess, opened: Callable[[], None] = lambda: None
) -> Figures:
    """Join, open every game (then call ``opened``), measure until every match is over."""
    figures = Figures(len(players.games), 1)
    try:
        players.join(bot)
        players.measure(figures, players.open())
        opened()
        players.until(lambda: all(m.finished for m in players.meters.values()), 60, bot, "end")
        players.close_window(time.monotonic())
    except RuntimeError as err:
        texts = {m.channel: m.texts[-4:] for m in players.meters.values()}
        raise AssertionError(f"{err}; last lines: {texts}") from None
    return figures


def summary(what: str, figures: Figures) -> str:
    worst = Figures.worst(figures.waits)
    return (
        f"{what}: {figures.seconds:.1f} s, {figures.lines} game lines, {figures.turns} moves "
        f"shown, longest wait {worst[0]:.2f} s in {worst[2]} ({worst[1]} active)"
    )


def test_three_games_at_once_all_finish_and_none_is_starved(
    inspircd: IrcServer, tmp_path: Path
) -> None:
    players = Players(
        inspircd.port, 3, seed=3, players=2, think=(0.0, 0.0), hands=1, deal=SHORT_MATCH
    )
    bot = BotProcess(inspircd.port, [g.channel for g in players.games], 1, tmp_path)
    try:
        figures = play_timed(players, bot)
    finally:
        bot.stop()
        players.close()
    print("\n" + summary("3 games", figures))
    assert [m.finished for m in players.meters.values()] == [1, 1, 1]
    assert not (why := fair(players, figures.waits)), why
    assert figures.turns >= 6, "the games hardly moved"
    assert [e for e in figures.errors if not e.endswith(LATE_MOVE)] == []
    assert figures.stalls == 0 and figures.slow_downs == 0 and figures.bot_quits == 0


# --- a flood -------------------------------------------------------------------------------------


def client_from(port: int, nick: str, address: str) -> TestClient:
    """A test client connecting from ``address`` (clones: several from one address)."""
    return TestClient(port, nick, source=address)


def flood_script(nick: str, channel: str, commands: int, clone: int) -> bytes:
    """``commands`` informational commands written at once, so that the server hands them to
    the bot as fast as it lets any client speak (a burst of 10, then 1 a second): ``.unohelp``
    (three lines of reply), later ``.top`` every third; a new nick before the 16th and the
    21st (late, so that what the bot says at first reaches the nicks it was meant for)."""
    lines = []
    for k in range(commands):
        if k in (15, 20):
            lines.append(f"NICK {nick}n{k}")
        top = k >= 8 and (k + clone) % 3 == 0
        lines.append(f"PRIVMSG {channel} :{'.top' if top else '.unohelp'}")
    return "".join(f"{line}\r\n" for line in lines).encode()


@dataclass
class Flood:
    """What one flood scenario left: the games' figures and what the flooder was told."""

    figures: Figures
    players: Players
    notices: list[tuple[str, str]]
    """(target nick, text) of every bot NOTICE the flooder's connections received."""

    @property
    def slow_downs(self) -> list[tuple[str, str]]:
        return [n for n in self.notices if n[1].startswith("Slow down")]


@pytest.fixture(scope="module")
def flood(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Flood]:
    """One person floods #bench0 from three clones on one host (25 commands each, changing
    nick twice on the way) from the moment a game opens there and another in #bench1, until
    well after both matches are over. Run once; the tests below read what happened."""
    require("inspircd")
    server = start_server("inspircd")
    players = Players(server.port, 2, seed=4, players=2, think=(0.0, 0.0), hands=1, deal=MATCH)
    channels = [g.channel for g in players.games]
    bot = BotProcess(server.port, channels, 1, tmp_path_factory.mktemp("flood"))
    flooders: list[TestClient] = []
    began: list[float] = []

    def start() -> None:
        began.append(time.monotonic())
        for i, flooder in enumerate(flooders):
            flooder.send_bytes(flood_script(flooder.nick, channels[0], 25, i))

    try:
        for i in range(3):
            flooders.append(client_from(server.port, f"flood{i}", FLOOD_HOST))
            flooders[-1].join(channels[0])
        figures = play_timed(players, bot, start)
        # A reply waits at most 30 s: by then whatever the flooder is to be told has left.
        time.sleep(max(0.0, began[0] + 31 - time.monotonic()))
        notices = [
            (m.target, strip_codes(m.text))
            for f in flooders
            for m in f.received("NOTICE", BOT_NICK)
        ]
        print(
            "\n" + summary("flood", figures) + f"; the flooder got {len(notices)} notices "
            f"for 75 commands"
        )
        yield Flood(figures, players, notices)
    finally:
        bot.stop()
        players.close()
        for f in flooders:
            f.close()
        server.cleanup()


def test_flood_games_finish_and_the_other_channel_keeps_its_share(flood: Flood) -> None:
    figures = flood.figures
    assert [m.finished for m in flood.players.meters.values()] == [1, 1]
    assert not (why := fair(flood.players, figures.waits, "#bench1")), why
    assert figures.turns >= 4, "the games hardly moved"
    assert [e for e in figures.errors if not e.endswith(LATE_MOVE)] == []
    assert figures.slow_downs == 0 and figures.bot_quits == 0


def test_flood_game_in_the_same_channel_keeps_its_share(flood: Flood) -> None:
    waits = flood.figures.waits
    assert not (why := fair(flood.players, waits, "#bench0")), why


def test_the_flooder_is_told_to_slow_down_once_per_nick_and_a_few_times_in_all(
    flood: Flood,
) -> None:
    """Three clones on one host, each changing nick twice (nine nicks, 75 commands in about
    40 s): each nick is told at most once, the host five times and then once every 12 s."""
    told = [target for target, _ in flood.slow_downs]
    assert told and len(told) == len(set(told)), flood.notices
    assert len(told) <= 5 + 4, flood.notices


# --- a nick change while a reply waits -----------------------------------------------------------


def test_a_queued_reply_follows_a_nick_change(inspircd: IrcServer, tmp_path: Path) -> None:
    """Three ``.unohelp`` (nine lines: the bot's burst of 4 goes at once, the rest one a
    second), then a new nick: the lines still waiting must reach the one who asked."""
    alice = client_from(inspircd.port, "alice", "127.0.100.1")
    bot = None
    try:
        alice.join("#nick")
        bot = BotProcess(inspircd.port, ["#nick"], 1, tmp_path)
        alice.wait_for(lambda m: m.command == "JOIN" and m.nick == BOT_NICK, 20, "the bot")
        time.sleep(4)  # its send bucket, spent on registering and joining, fills up again
        alice.send_bytes(b"PRIVMSG #nick :.unohelp\r\n" * 3)
        # Lines already sent can't be called back (the burst of 4 leaves at once, and the
        # server may hold them a moment): the nick changes once those four have arrived,
        # while five still wait in the bot's queue.
        alice.wait_count(lambda m: m.command == "NOTICE" and m.nick == BOT_NICK, 4, 5)
        alice.send("NICK alice2")
        told = alice.wait_count(lambda m: m.command == "NOTICE" and m.nick == BOT_NICK, 9, 7)
    finally:
        if bot is not None:
            bot.stop()
        alice.close()
    assert len(told) == 9, [m.raw for m in told]


# --- one person's requests delay only their own ---------------------------------------------------


def test_a_flooder_and_five_clones_delay_an_innocent_users_answer_by_seconds_only(
    inspircd: IrcServer, tmp_path: Path
) -> None:
    """One nick sending ``.unohelp`` every 1.55 s (within its own budget after one "Slow
    down") once kept another user's ``.top`` unanswered for 93 s, and five clones on five
    hosts had the innocent user told "Slow down". Replies now take turns by person, and a
    person who has not been asking is answered even when others spent the channel's budget:
    with both floods at once, carol's two ``.top`` are each answered within 10 s."""
    channel = "#fair"
    carol = client_from(inspircd.port, "carol", "127.0.101.1")
    flooders = [client_from(inspircd.port, "flood", "127.0.101.2")] + [
        client_from(inspircd.port, f"clone{i}", f"127.0.101.{10 + i}") for i in range(5)
    ]
    bot = None
    stop = threading.Event()

    def flood(client: TestClient, every: float) -> None:
        while not stop.wait(every):
            client.send(f"PRIVMSG {channel} :.unohelp")

    threads = [
        threading.Thread(target=flood, args=(c, 1.55 if i == 0 else 2.0), daemon=True)
        for i, c in enumerate(flooders)
    ]
    waited: list[float] = []
    try:
        bot = BotProcess(inspircd.port, [channel], 1, tmp_path)
        carol.join(channel)
        carol.wait_for(lambda m: m.command == "JOIN" and m.nick == BOT_NICK, 20, "the bot")
        for client in flooders:
            client.join(channel)
        for thread in threads:
            thread.start()
        time.sleep(8)  # the backlog of help builds up
        for _ in range(2):
            mark = len(carol.snapshot())
            asked = time.monotonic()
            carol.send(f"PRIVMSG {channel} :.top")
            answer = carol.wait_for(
                lambda m: m.command == "NOTICE" and m.nick == BOT_NICK, 30, "an answer", mark
            )
            waited.append(time.monotonic() - asked)
            assert "Slow down" not in answer.text
            assert "no Uno game" in strip_codes(answer.text)
            time.sleep(2)
    finally:
        stop.set()
        if bot is not None:
            bot.stop()
        for client in [carol, *flooders]:
            client.close()
    print(f"\ncarol's answers with a flooder and five clones at work: {waited}")
    assert max(waited) < 10, waited
