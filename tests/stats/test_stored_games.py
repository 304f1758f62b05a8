"""Recorded games read back whole in every store (memory, SQLite, PostgreSQL): by row id or
game-id prefix, with places, points, each player's rating after the game, and the move list;
and the schema's v5 step filling the rating history of games written before it."""

from __future__ import annotations

import dataclasses
import json

import pytest

from tests.stats.conftest import StoreFactory
from tests.stats.test_contract import game, res
from tests.stats.test_rating_contract import random_games
from unobot.stats.model import game_key, game_lookups
from unobot.stats.ratings import update

MOVES = (
    "\n".join(
        json.dumps(line, separators=(",", ":"))
        for line in [
            ["open", {"version": 3, "channel": "#uno", "seed": 1}],
            ["join", {"nick": "Bob", "now": 1.0}],
            ["play", {"nick": "Ann", "card": "B9", "color": None, "now": 2.0}],
        ]
    )
    + "\n"
)


def test_game_keys() -> None:
    assert game_key("42") == 42
    assert game_key(" #3F9A2C ") == "3f9a2c"
    for bad in ("", "3f9a", "xyzxyzxy", "٣٤", "a" * 33, "-1", "1.5"):
        assert game_key(bad) is None


def test_a_game_reads_back_with_ratings_and_moves(make_store: StoreFactory) -> None:
    store = make_store(network="testnet")
    first = dataclasses.replace(
        game(res("Ann", True, 40, place=1), res("Bob", place=2, left=40), game_id="a1b2c3d4" * 4),
        moves=MOVES,
    )
    second = game(res("Bob", True, 10, place=1), res("Cy", place=2), game_id="a1b2ffff" * 4)
    store.record_game(first)
    store.record_game(second)
    store.record_game(first)  # idempotent: still one game, one move list
    got = store.game("a1b2c3")
    assert got is not None
    assert got.game_id == first.game_id and got.short_id == "a1b2c3d4"
    assert got.channel == "#uno" and got.preset == "official" and got.seconds == 600
    assert [(r.nick, r.place, r.won, r.points_won) for r in got.results] == [
        ("Ann", 1, True, 40),
        ("Bob", 2, False, 0),
    ]
    expected = update({}, first)
    for line, ident in zip(got.results, ("ann", "bob"), strict=True):
        assert line.mu == pytest.approx(expected[ident].mu)
        assert line.sigma == pytest.approx(expected[ident].sigma)
    assert got.moves == MOVES
    assert store.game(str(got.id)) == got  # by row id too
    other = store.game("A1B2FF")
    assert other is not None and other.moves is None and other.results[0].nick == "Bob"
    assert store.game("a1b2") is None  # too short to be a key
    assert store.game("a1b2c") is None
    assert store.game("a1b2cf") is None  # no such game
    assert store.game("<script>") is None
    assert store.game("99999") is None


def test_an_ambiguous_prefix_finds_nothing(make_store: StoreFactory) -> None:
    store = make_store()
    store.record_game(game(res("Ann", True, place=1), res("Bob", place=2), game_id="abcdef01"))
    store.record_game(game(res("Ann", True, place=1), res("Bob", place=2), game_id="abcdef02"))
    assert store.game("abcdef") is None
    assert store.game("abcdef02") is not None


def test_rating_history_equals_the_ratings_replayed(make_store: StoreFactory) -> None:
    """Each result keeps its player's rating after the game; the last of a player's is their
    current rating, and a rebuild gives the same history."""
    store = make_store(network="net1")
    games = [
        dataclasses.replace(g, game_id=f"{n:02x}" * 16)
        for n, g in enumerate(random_games(11, 60))
        if g.network == "net1"
    ]
    for g in games:
        store.record_game(g)

    def history() -> dict[str, list[tuple[float | None, float | None]]]:
        out: dict[str, list[tuple[float | None, float | None]]] = {}
        for g in games:
            got = store.game(g.game_id)
            assert got is not None
            for line in got.results:
                out.setdefault(line.nick, []).append((line.mu, line.sigma))
        return out

    before = history()
    ratings = store.player_ratings()
    for (_net, ident), rating in ratings.items():
        nick = ident.upper()  # the helpers' nicks are P0..P11, Bot1 (idents folded)
        nick = "Bot1" if ident == "bot1" else nick
        last = [h for h in before[nick] if h[0] is not None][-1]
        assert last[0] == pytest.approx(rating.mu) and last[1] == pytest.approx(rating.sigma)
    store.rebuild_ratings()
    after = history()
    assert after.keys() == before.keys()
    for nick, lines in before.items():
        for (mu, sigma), (mu2, sigma2) in zip(after[nick], lines, strict=True):
            assert (mu is None) == (mu2 is None)
            if mu is not None:
                assert (mu, sigma) == pytest.approx((mu2, sigma2), abs=1e-9)


def test_the_v5_step_fills_the_history_of_games_written_before_it(
    tmp_path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A store written by a v4 bot (no rating history columns) is upgraded: every result gets
    the rating it would have had, the same as in a store written at v5 from the start."""
    from unobot.stats import schema
    from unobot.stats.sql import SqlStatsStore

    games = [
        dataclasses.replace(g, game_id=f"{n:02x}" * 16) for n, g in enumerate(random_games(5, 40))
    ]
    old_url = f"sqlite:///{tmp_path / 'old.db'}"
    with monkeypatch.context() as m:
        m.setattr(schema, "SCHEMA_VERSION", 4)
        old = SqlStatsStore(old_url)
        for g in games:
            old.record_game(g)
        # (a new store's v1 step makes the columns from today's model: they stay empty)
        assert old.db.execute_sql("SELECT COUNT(mu) FROM game_result").fetchone()[0] == 0
        old.close()
    upgraded = SqlStatsStore(old_url)
    fresh = SqlStatsStore(f"sqlite:///{tmp_path / 'new.db'}")
    for g in games:
        fresh.record_game(g)
    assert schema.schema_version(upgraded.db) == schema.SCHEMA_VERSION
    for g in games:
        a, b = upgraded.game(g.game_id), fresh.game(g.game_id)
        assert a is not None and b is not None
        assert [r.mu is None for r in a.results] == [r.mu is None for r in b.results]
        for x, y in zip(a.results, b.results, strict=True):
            if y.mu is not None:
                assert (x.mu, x.sigma) == pytest.approx((y.mu, y.sigma), abs=1e-9)
    assert upgraded.db.execute_sql("SELECT COUNT(mu) FROM game_result").fetchone()[0] > 0
    upgraded.close()
    fresh.close()


def test_an_all_digit_short_id_is_found_as_a_prefix(make_store: StoreFactory) -> None:
    """1 game id in 40 starts with 8 digits: no game has that row number, so it is a prefix."""
    store = make_store()
    store.record_game(game(res("Ann", True, place=1), res("Bob", place=2), game_id="94751968ab"))
    got = store.game("94751968")
    assert got is not None and got.game_id == "94751968ab"
    assert store.game("1") == got  # row 1 is still row 1
    zeros = "00000002" + "cd" * 12  # an all-digit short id that is also a row number
    store.record_game(game(res("Ann", True, place=1), res("Bob", place=2), game_id=zeros))
    second = store.game("00000002")
    assert second is not None and second.game_id == zeros  # the short id, as printed
    assert store.game("2") == second  # and row 2 by its number
    store.record_game(game(res("Ann", True, place=1), res("Bob", place=2), game_id="ef" * 16))
    third = store.game("3")
    assert third is not None and third.game_id == "ef" * 16
    assert store.game("00000003") == third  # no game id starts so: the row number


def test_game_lookups() -> None:
    assert game_lookups("42") == [42]
    assert game_lookups("#00123") == [123]
    assert game_lookups("012345") == [12345, "012345"]  # a row first, then a prefix
    assert game_lookups("00941234") == ["00941234", 941234]  # a short id first
    assert game_lookups("3F9A2C") == ["3f9a2c"]
    assert game_lookups("xyz") == [] and game_lookups("") == []


def test_a_players_last_game(make_store: StoreFactory) -> None:
    store = make_store(network="testnet")
    store.record_game(game(res("Ann", True, place=1), res("Bob", place=2), game_id="aaaaaa01"))
    store.record_game(game(res("Bob", True, place=1), res("Cy", place=2), game_id="bbbbbb02"))
    store.record_game(game(res("Cy", True, place=1), res("Dee", place=2), game_id="cccccc03"))
    ann, bob = store.last_game("ANN"), store.last_game("bob")
    assert ann is not None and ann.game_id == "aaaaaa01"
    assert bob is not None and bob.game_id == "bbbbbb02"
    assert store.last_game("nobody") is None
