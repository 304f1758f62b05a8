""".unogame <id>: a link to the game's page when the stats site is published, else a short
summary sent privately; unknown or malformed ids get one short reply that echoes nothing."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

import pytest

from plugins.uno_stats import game_lines
from tests.core.test_stats_commands import ask
from tests.core.test_stats_recording import RecordingStore, StatsHarness
from unobot.core.bot import BotConfig
from unobot.replay.simulate import recorded_games
from unobot.replay.steps import steps
from unobot.stats import GameRecord
from unobot.stats.memory import MemoryStatsStore
from unobot.stats.model import StatsUnavailable


@dataclass(frozen=True)
class WebConfig(BotConfig):
    """The bot's settings with the site's public address (the hook ``.unogame`` reads)."""

    web_public_url: str = ""


@pytest.fixture(scope="module")
def games() -> list[GameRecord]:
    records = recorded_games(3, 31, network="testnet", presets=("official",))
    records[2] = dataclasses.replace(records[2], moves=None)  # recorded without its moves
    return records


def harness(games: list[GameRecord], url: str = "") -> StatsHarness:
    store = RecordingStore(MemoryStatsStore("testnet"))
    for game in games:
        store.record_game(game)
    return StatsHarness(1, WebConfig(network="testnet", web_public_url=url), store)


def test_without_a_site_a_summary_is_sent_privately(games: list[GameRecord]) -> None:
    h = harness(games)
    game = games[0]
    short = game.game_id[:8]
    said, told = ask(h, "zed", f".unogame {short.upper()}")
    assert said == []
    assert game.moves is not None
    hands = steps(game.moves)[-1].hand
    head = told[0]
    assert head.startswith(f"Game {short} in #uno (official), 2025-01-06 ")
    minutes = int((game.ended - game.started).total_seconds()) // 60
    assert f" UTC, {minutes // 60}h{minutes % 60:02d}m, {hands} hands:" in head
    assert hands > 1
    for r in game.results:
        assert f"{r.place}. {r.nick} {r.points_won}" in head
    winner = next(r for r in game.results if r.won)
    assert f"1. {winner.nick} {winner.points_won} (won)" in head
    # The summary only: "unobot replay" is a shell command no IRC player can run.
    assert not any("unobot replay" in line for line in told), told
    assert ask(h, "zed", ".unogame 1")[1] == told  # by its number too


def test_a_game_without_moves_is_summed_up_without_hands(games: list[GameRecord]) -> None:
    h = harness(games)
    _, told = ask(h, "zed", ".unogame 3")
    assert told[0].startswith(f"Game {games[2].game_id[:8]} in #uno (")
    assert " hand" not in told[0]
    assert not any("move list" in line or "replay" in line for line in told), told


def test_with_a_site_the_answer_is_a_link_in_the_channel(games: list[GameRecord]) -> None:
    h = harness(games, url="https://example.net/uno/")
    short = games[1].game_id[:8]
    said, told = ask(h, "zed", f".unogame {games[1].game_id}")
    assert told == []
    assert len(said) == 1
    assert said[0].startswith(f"Game {short} (#uno, 2025-")
    assert said[0].endswith(f"UTC): https://example.net/uno/game/{short}")
    # While a game is played there, privately (the game's lines are not buried).
    h.start(["alice", "bob"])
    said, told = ask(h, "zed", f".unogame {short}")
    assert said == [] and told[0].endswith(f"/game/{short}")
    # Asked privately, privately.
    said, told = ask(h, "zed", f".unogame {short}", channel=None)
    assert told[0].endswith(f"/game/{short}")


@pytest.mark.parametrize("text", ["abcdef", "99", "00000000"])
def test_an_unknown_game_gets_one_short_reply(games: list[GameRecord], text: str) -> None:
    said, told = ask(harness(games), "zed", f".unogame {text}")
    assert said == []
    assert told == ["No recorded game has that id (or several do: give more of it)."]


@pytest.mark.parametrize(
    "text", ["xyz", "abc", "1 2", "\x02\x0304evil\x0f", "1a2b3c4d' OR 1=1", "9" * 40]
)
def test_a_malformed_id_gets_the_usage_and_is_never_echoed(
    games: list[GameRecord], text: str
) -> None:
    said, told = ask(harness(games), "zed", f".unogame {text}".rstrip())
    assert said == []
    assert len(told) == 1 and told[0].startswith("usage: .unogame [id]")
    if text.strip():
        assert text.split()[-1] not in told[0]


def test_asking_too_fast_is_refused_once(games: list[GameRecord]) -> None:
    h = harness(games)
    short = games[0].game_id[:8]
    ask(h, "zed", f".unogame {short}")
    told = [h.say("zed", f".unogame {short}") for _ in range(3)]
    texts = [s.text for sent in told for s in sent]
    assert texts == [texts[0]] and texts[0].startswith("Not so fast: try again in ")


def test_a_database_that_fails_and_stats_turned_off(games: list[GameRecord]) -> None:
    h = harness(games)

    def down(key: str) -> None:
        raise StatsUnavailable("database gone")

    h.store.inner.game = down  # type: ignore[method-assign]
    assert ask(h, "zed", ".unogame 1") == ([], ["Stats are unavailable right now."])
    h.bot.store = None
    assert ask(h, "zed", ".unogame 1") == ([], ["Stats are off on this bot."])


def test_without_an_id_it_is_your_last_game(games: list[GameRecord]) -> None:
    h = harness(games)
    nick = games[1].results[0].nick
    mine = [g for g in games if any(r.nick == nick for r in g.results)]
    said, told = ask(h, nick, ".unogame")
    assert said == []
    assert told and told[0].startswith(f"Game {mine[-1].game_id[:8]} ")
    said, told = ask(h, "zed", ".unogame")
    assert told == [
        "You have no recorded game yet. "
        "A game counts once a hand of it is played out; a stopped game counts, won by nobody."
    ]


def test_a_stopped_game_is_shown_as_stopped_never_won() -> None:
    """Issue 37: ``… 2 hands: 1. NormalBot1 28 (won)`` for a game stopped in its second hand.
    A game stopped with ``.unostop`` after a complete hand is shown stopped, in the hand it was
    stopped in, with nobody marked as the winner; with the site, its link says so too."""
    from tests.core.test_games import Driver
    from unobot.core.table import TableConfig
    from unobot.engine import preset

    config = WebConfig(network="testnet", table=TableConfig(rules=preset("official")))
    h = StatsHarness(7, config, RecordingStore(MemoryStatsStore("testnet")))
    d = Driver(h, ["alice", "bob", "carol"], seed=7)
    table = h.bot.tables["#uno"]
    while table.hand_number < 2:
        d.step()
    h.say("alice", ".unostop")
    (record,) = h.store.games
    assert record.stopped
    _, told = ask(h, "bob", ".unogame")
    head = " ".join(told)
    assert head.startswith(f"Game {record.game_id[:8]} in #uno (official), ")
    assert ", stopped: 1. " in head and "won" not in head  # (no journal here: no hands)
    for r in record.results:
        assert f"{r.place}. {r.nick} {r.points_won}" in head
    stored = h.store.game(record.game_id[:8])
    assert stored is not None and stored.stopped
    (line,) = game_lines(stored, 2, "")  # with its move list: the hand it was stopped in
    assert ", stopped in hand 2: 1. " in line and "won" not in line
    h.bot.config = dataclasses.replace(config, web_public_url="https://example.net/uno")
    said, _ = ask(h, "bob", f".unogame {record.game_id[:8]}")
    assert said == [
        f"Game {record.game_id[:8]} (#uno, {record.started:%Y-%m-%d %H:%M} UTC, stopped): "
        f"https://example.net/uno/game/{record.game_id[:8]}"
    ]
