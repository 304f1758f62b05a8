"""Network faults over real servers: the bot kicked mid-game, kicked and banned, the ircd killed.

The whole bot (adapter + core + plugins) as in ``test_games.py``, with the delays shortened
through settings (``rejoin_delay``, ``reconnect_min``/``max``, the seat ``grace``) so each test
takes a few seconds. ngircd has channel operators, KICK and bans; miniircd (no KICK) still
shows the restart.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Iterator

import pytest

from tests.core.fakes import read_status, strip_codes
from tests.e2e.client import Msg, TestClient
from tests.e2e.conftest import module_server, unique
from tests.e2e.servers import IrcServer
from tests.e2e.test_games import NetGame, Player, RunningBot, make_players
from unobot.core.table import TableConfig

log = logging.getLogger("e2e")


ngircd = module_server("ngircd")


@pytest.fixture
def cleanup() -> Iterator[Callable[[object], object]]:
    """Stops bots and closes clients made by a test, whatever happens to it."""
    things: list[object] = []

    def add(thing: object) -> object:
        things.append(thing)
        return thing

    yield add
    for thing in reversed(things):
        if isinstance(thing, RunningBot):
            thing.stop()
        elif isinstance(thing, TestClient):
            thing.close()
        elif isinstance(thing, Player):
            thing.client.close()


def said(bot: RunningBot, channel: str, text: str) -> Callable[[Msg], bool]:
    """A predicate: a channel line from the bot containing ``text``."""

    def match(m: Msg) -> bool:
        return (
            m.nick == bot.nick
            and m.command == "PRIVMSG"
            and m.target == channel
            and text in strip_codes(m.text)
        )

    return match


def test_kicked_mid_game_the_bot_rejoins_says_so_once_and_the_game_ends(
    ngircd: IrcServer, cleanup: Callable[[object], object]
) -> None:
    channel = "#" + unique("kick")
    op = cleanup(TestClient(ngircd.port, unique("op")))
    assert isinstance(op, TestClient)
    op.join(channel)  # first in: a channel operator
    bot = RunningBot(ngircd, channel, TableConfig(), seed=3, rejoin_delay=0.3)
    cleanup(bot)
    players = make_players(ngircd, 3, channel)
    for p in players:
        cleanup(p)
    game = NetGame(bot, players)
    game.start()
    for _ in range(5):
        game.step()
    seen = read_status(game.channel_text())
    watcher = players[0]
    before = len(watcher.bot_lines(bot.nick, channel))
    mark = len(watcher.client.snapshot())
    kicked = time.monotonic()
    op.send(f"KICK {channel} {bot.nick} :testing the bot")
    line = watcher.client.wait_for(said(bot, channel, "game goes on"), timeout=5, after=mark)
    took = time.monotonic() - kicked
    log.info("kick -> back in the channel and announced: %.3f s (rejoin_delay 0.3 s)", took)
    text = strip_codes(line.text)
    assert text.startswith("Back after a kick: the game goes on. Top: "), text
    assert read_status([text]) == seen  # the turn re-announced: same player, same top card
    assert took < 3
    time.sleep(0.3)  # nothing else follows the one line
    assert len(watcher.bot_lines(bot.nick, channel)) == before + 1
    table = bot.table()
    assert table is not None and table.turn_started >= kicked  # a whole turn again
    game.sync(before + 1)
    winner = game.play_to_end()
    assert " wins" in winner


def test_kicked_and_banned_the_bot_logs_it_holds_the_game_then_drops_it(
    ngircd: IrcServer, cleanup: Callable[[object], object], caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, "unobot")
    channel = "#" + unique("ban")
    op = cleanup(TestClient(ngircd.port, unique("op")))
    assert isinstance(op, TestClient)
    op.join(channel)
    bot = RunningBot(ngircd, channel, TableConfig(grace=1.5), seed=5, rejoin_delay=0.2)
    cleanup(bot)
    players = make_players(ngircd, 2, channel)
    for p in players:
        cleanup(p)
    game = NetGame(bot, players)
    game.start()
    op.send(f"MODE {channel} +b {bot.nick}!*@*")
    op.wait_for(lambda m: m.command == "MODE" and "+b" in m.params)
    kicked = time.monotonic()
    op.send(f"KICK {channel} {bot.nick} :go away")
    deadline = kicked + 5
    while "can't join" not in caplog.text:
        assert time.monotonic() < deadline, caplog.text
        time.sleep(0.02)
    refused = [r for r in caplog.records if "can't join" in r.getMessage()]
    assert refused[0].levelno == logging.WARNING
    assert f"can't join {channel}: the bot is banned (+b)" in refused[0].getMessage()
    assert bot.table() is not None  # held for the seat grace
    while bot.table() is not None:
        assert time.monotonic() < kicked + 5, "the game was never dropped"
        time.sleep(0.02)
    held = time.monotonic() - kicked
    log.info("banned: game dropped %.2f s after the kick (grace 1.5 s)", held)
    assert 1.4 < held < 3
    assert f"table in {channel} dropped: the bot could not get back in within 2 s" in caplog.text
    sent = bot.adapter.sent_lines
    time.sleep(1.0)  # no retry loop against the ban
    assert bot.adapter.sent_lines == sent
    assert len([r for r in caplog.records if "can't join" in r.getMessage()]) == 1
    assert bot.adapter.connected and bot.thread.is_alive()
    # Nothing reached the channel after the kick (the bot was not there to say it).
    assert not [m for m in op.snapshot() if said(bot, channel, "game goes on")(m)]


@pytest.mark.parametrize("kind", ["ngircd", "miniircd"])
def test_ircd_killed_mid_game_the_bot_reconnects_every_game_gets_one_line_and_ends(
    kind: str,
    fresh_server: Callable[[str], IrcServer],
    cleanup: Callable[[object], object],
    caplog: pytest.LogCaptureFixture,
) -> None:
    caplog.set_level(logging.INFO, "unobot")
    server = fresh_server(kind)  # private: it is going to be killed
    playing, waiting = "#" + unique("dealt"), "#" + unique("lobby")
    # The bot comes back 1 s after the crash, so the players (who reconnect at once) are in
    # their channels again to read what it says when it rejoins.
    bot = RunningBot(
        server,
        playing,
        TableConfig(),
        seed=9,
        channels={playing: "", waiting: ""},
        reconnect_min=1.0,
        reconnect_max=1.0,
    )
    cleanup(bot)
    deadline = time.monotonic() + 5
    while waiting not in bot.adapter.joined:
        assert time.monotonic() < deadline
        time.sleep(0.02)
    players = make_players(server, 3, playing)
    for p in players:
        cleanup(p)
    (host,) = make_players(server, 1, waiting)
    cleanup(host)
    host.client.privmsg(waiting, ".uno")
    host.client.wait_for(said(bot, waiting, "opens a game"))
    game = NetGame(bot, players)
    game.start()
    for _ in range(4):
        game.step()
    seen = read_status(game.channel_text())
    turn_started = bot.table().turn_started  # type: ignore[union-attr]

    back = server.restart(kill=True)
    log.info("%s killed and listening again in %.3f s", kind, server.start_seconds)
    for p in [*players, host]:  # every client lost its connection: each comes back, same nick
        p.client.close()
        channel = waiting if p is host else playing
        p.client = TestClient(server.port, p.client.nick)
        p.read = 0
        p.client.join(channel)
    line = players[0].client.wait_for(said(bot, playing, "game goes on"), timeout=10)
    took = time.monotonic() - back
    lobby = host.client.wait_for(said(bot, waiting, "game goes on"), timeout=5)
    log.info("%s restarted -> 'Reconnected' in the channel: %.3f s (backoff 1 s)", kind, took)
    registered = [r.created for r in caplog.records if r.getMessage().startswith("registered")]
    resumed = [r.created for r in caplog.records if r.getMessage().startswith("back in")]
    assert len(registered) == 2 and len(resumed) == 2  # both channels, one line each
    log.info(
        "%s: registered again -> both channels told: %.0f ms",
        kind,
        (max(resumed) - registered[1]) * 1000,
    )
    assert took < 5
    text = strip_codes(line.text)
    assert text.startswith("Reconnected: the game goes on. Top: "), text
    assert read_status([text]) == seen
    assert strip_codes(lobby.text) == (
        f"Reconnected: the game goes on. {host.client.nick}'s game is open "
        f"(1 player: {host.client.nick}): .join to play."
    )
    table = bot.table()
    assert table is not None and table.turn_started > turn_started
    assert table.turn_started >= back  # the turn clock starts at the rejoin, not before
    time.sleep(0.3)
    for p, channel in [(players[0], playing), (host, waiting)]:
        assert len(p.bot_lines(bot.nick, channel)) == 1, p.bot_lines(bot.nick, channel)
    game.sync(1)
    winner = game.play_to_end()
    assert " wins" in winner
    assert bot.adapter.connects == 2
