"""Two languages on one real server at once: a German channel and an English channel play their
games side by side through one bot, and a player in the German channel who asked for French
(``.unolang me fr``) gets everything sent to them alone in French. Each person sees only their
own language: real clients, a real ngircd (miniircd where it is missing), the whole bot.

Moves are chosen from the table itself (read on the bot's reactor thread), not by parsing the
lines: this test is about what the lines say, so it must not depend on reading any language.
"""

from __future__ import annotations

import dataclasses
import re
import time
from collections.abc import Iterator
from random import Random

import pytest

from tests.core.fakes import strip_codes
from tests.e2e.client import TestClient
from tests.e2e.conftest import module_server, unique
from tests.e2e.servers import IrcServer
from tests.e2e.test_games import RunningBot
from unobot.bench.soak import command_for
from unobot.core.computers import ComputerConfig
from unobot.core.table import TableConfig
from unobot.irc.casemap import irc_lower

server = module_server("ngircd")

# Words that only an English line has (the bot's own, not nicks or card codes).
ENGLISH = re.compile(r"\b(joins|plays|draws|turn|opens|wins|cards|points|game)\b")
GERMAN = re.compile(r"\b(Spiel|spielt|zieht|ist dran|Karten?|gewinnt|Punkte|tritt)\b")
FRENCH = re.compile(r"\b(cartes?|tour|pioches?|joues?|main|Français)\b", re.I)


@pytest.fixture
def two_channel_bot(server: IrcServer) -> Iterator[RunningBot]:
    de, en = "#" + unique("de"), "#" + unique("en")
    bot = RunningBot(
        server,
        de,
        TableConfig(),
        seed=5,
        more_channels=(en,),
        bots=ComputerConfig(delay=0.0, playouts=16),
    )
    # The operator's config: ``[bot.channel_languages] "#de…" = "de"``; the other stays English.
    bot.bot.config = dataclasses.replace(bot.bot.config, channel_languages={irc_lower(de): "de"})
    bot.en = en  # type: ignore[attr-defined]
    yield bot
    bot.stop()


def from_bot(client: TestClient, bot: str) -> list[tuple[str, str, str]]:
    """(command, target, plain text) of every line ``client`` got from the bot."""
    return [
        (m.command, m.target, strip_codes(m.text))
        for m in client.snapshot()
        if m.nick == bot and m.command in ("PRIVMSG", "NOTICE")
    ]


def test_a_german_and_an_english_channel_at_once_and_one_player_in_french(
    server: IrcServer, two_channel_bot: RunningBot
) -> None:
    bot = two_channel_bot
    de, en = bot.channel, bot.en  # type: ignore[attr-defined]
    clients: list[TestClient] = []
    try:
        hans, amelie = (
            TestClient(server.port, unique("hans")),
            TestClient(server.port, unique("am")),
        )
        alice, bob = (
            TestClient(server.port, unique("alice")),
            TestClient(server.port, unique("bob")),
        )
        clients += [hans, amelie, alice, bob]
        for c in (hans, amelie):
            c.join(de)
        for c in (alice, bob):
            c.join(en)
        by_nick = {irc_lower(c.nick): c for c in clients}
        # Amélie asks, privately, for French: the answer is already French.
        amelie.privmsg(bot.nick, ".unolang me fr")
        amelie.wait_for(lambda m: m.nick == bot.nick and m.command == "NOTICE", timeout=10)
        for channel, (first, second) in ((de, (hans, amelie)), (en, (alice, bob))):
            first.privmsg(channel, ".uno")
            second.privmsg(channel, ".join")
            first.privmsg(channel, ".addbot easy")
        deadline = time.monotonic() + 10
        while bot.call(lambda: sum(len(t.names) for t in bot.bot.tables.values())) < 6:
            assert time.monotonic() < deadline, "the tables did not fill"
            time.sleep(0.05)
        hans.privmsg(de, ".deal")
        alice.privmsg(en, ".deal")
        rng = Random(7)
        ended: set[str] = set()
        deadline = time.monotonic() + 180
        while len(ended) < 2:
            assert time.monotonic() < deadline, "the games did not end"
            moved = False
            for channel in (de, en):
                if channel in ended:
                    continue
                move = bot.call(lambda ch=channel: _next_move(bot, ch, rng))
                if move == "over":
                    ended.add(channel)
                elif move is not None:
                    nick, text = move
                    by_nick[irc_lower(nick)].privmsg(channel, text)
                    moved = True
            time.sleep(0.15 if moved else 0.05)
        time.sleep(1.0)  # the last lines on their way
        _check(bot, de, en, hans, amelie, alice, bob)
    finally:
        for c in clients:
            c.close()


_last: dict[str, object] = {}


def _next_move(bot: RunningBot, channel: str, rng: Random) -> tuple[str, str] | str | None:
    """On the reactor: the move a person at ``channel`` should make now, "over" when the game
    has ended, None while a computer or the bot is to act (or the same state was answered)."""
    table = bot.bot.tables.get(irc_lower(channel))
    if table is None:
        return "over" if _last.get(channel) is not None else None
    game = table.game
    if game is None:
        return None
    seat = table.player(table.names[game.current])
    if seat is None or seat.computer:
        return None
    state = (game.current, tuple(game.hand_size(s) for s in range(game.n)), game.phase)
    if _last.get(channel) == state:
        return None  # the move sent for this state is still on its way
    _last[channel] = state
    return command_for(table, rng)


def _check(
    bot: RunningBot,
    de: str,
    en: str,
    hans: TestClient,
    amelie: TestClient,
    alice: TestClient,
    bob: TestClient,
) -> None:
    de_lines = [t for c, tgt, t in from_bot(hans, bot.nick) if c == "PRIVMSG" and tgt == de]
    en_lines = [t for c, tgt, t in from_bot(alice, bot.nick) if c == "PRIVMSG" and tgt == en]
    assert len(de_lines) > 10 and len(en_lines) > 10
    # The German channel: German only (nicks and card codes aside).
    for line in de_lines:
        assert not ENGLISH.search(line), line
    assert sum(bool(GERMAN.search(line)) for line in de_lines) > len(de_lines) / 2, de_lines
    # The English channel: English, untouched by the German one beside it.
    for line in en_lines:
        assert not GERMAN.search(line), line
    assert sum(bool(ENGLISH.search(line)) for line in en_lines) > len(en_lines) / 2, en_lines
    # Hands and replies: Hans in German (his channel's), Amélie in French, Alice and Bob English.
    hands = {
        c.nick: [t for k, tgt, t in from_bot(c, bot.nick) if k == "NOTICE"]
        for c in (hans, amelie, alice, bob)
    }
    for nick, told in hands.items():
        assert told, nick
    for text in hands[amelie.nick]:
        assert not ENGLISH.search(text) and not GERMAN.search(text), text
    assert any(FRENCH.search(t) for t in hands[amelie.nick]), hands[amelie.nick]
    for text in hands[hans.nick]:
        assert not ENGLISH.search(text), text
    assert any(GERMAN.search(t) for t in hands[hans.nick]), hands[hans.nick]
    for nick in (alice.nick, bob.nick):
        assert all(not GERMAN.search(t) and not FRENCH.search(t) for t in hands[nick])
        assert any("Your cards" in t for t in hands[nick])
