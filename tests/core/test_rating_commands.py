""".unorating, .unotop10 rating and .unostats rating N against a store with known games:
the conservative number (provisional below the minimum games), rank, computer players, and
refused periods."""

from __future__ import annotations

from tests.core.test_stats_commands import RECENT, ask, filled_store, harness, make_game
from unobot.stats import PlayerResult
from unobot.stats.ratings import conservative


def figure(h, nick: str) -> int:  # type: ignore[no-untyped-def]
    r = h.store.rating(nick)
    return conservative(r.mu, r.sigma)


def test_own_rating_and_another_players() -> None:
    h = harness()
    shown = figure(h, "alice")
    said, told = ask(h, "alice", ".unorating")
    rank = h.store.rating("alice").rank
    assert said == [f"alice: rating {shown} (6 rated games), rank {rank} by rating"]
    assert told == []
    said, _ = ask(h, "alice", ".unorating ERIN")
    shown = figure(h, "erin")
    assert said == [f"erin: rating {shown}, provisional (1 of 5 rated games), not ranked yet"]
    assert shown > 0 and "±" not in said[0]  # no "-21 ± 952" after a game or two
    said, _ = ask(h, "alice", ".unostats rating dave")
    assert said[0].startswith("dave: rating ") and "by rating" in said[0]
    _, told = ask(h, "alice", ".unorating nobody")
    assert told == ["No rated Uno games recorded for nobody."]


def test_rating_lists_follow_the_store_order() -> None:
    h = harness()
    board = h.store.rating_leaderboard(10, min_games=5)
    assert {r.nick for r in board} == {"alice", "bob", "carol", "dave"}
    entries = ", ".join(
        f"{r.rank}. {r.nick} {conservative(r.mu, r.sigma)} ({r.games})" for r in board
    )
    rest = h.store.rating_leaderboard(10, min_games=5, provisional=True)[len(board) :]
    assert {r.nick for r in rest} == {"erin", "frank"} and {r.rank for r in rest} == {None}
    later = ", ".join(f"{r.nick} {conservative(r.mu, r.sigma)} ({r.games})" for r in rest)
    top = f"Uno top 10 by rating (games): {entries}, provisional (fewer than 5 rated games): "
    top += later
    assert ask(h, "alice", ".unotop10 rating")[0] == [top]
    assert ask(h, "alice", ".unostats rating")[0] == [top]
    two = ask(h, "alice", ".unostats rating 2")[0]
    assert two == [f"Uno top 2 by rating (games): {entries.split(', 3.')[0]}"]


def test_computer_players_are_rated_but_not_ranked_with_people() -> None:
    store = filled_store()
    for n in range(5):
        store.record_game(
            make_game(
                200 + n,
                [PlayerResult("unobot", "UnoBot", 1, True, 9, 0, is_bot=True),
                 PlayerResult("alice", "alice", 2, False, 0, 9)],
                "#uno",
                RECENT,
            )
        )  # fmt: skip
    h = harness(store)
    said, _ = ask(h, "alice", ".unorating UnoBot")
    assert said[0].startswith("UnoBot: rating ")
    assert said[0].endswith("(5 rated games), a computer player (not ranked with people)")
    assert "UnoBot" not in ask(h, "alice", ".unotop10 rating")[0][0]


def test_periods_and_here_are_refused_for_ratings() -> None:
    h = harness()
    refused = "ratings are all-time and network-wide: no week, month or here"
    for text in (".unotop10 rating week", ".unostats rating 5 here", ".unorating here"):
        said, told = ask(h, "alice", text)
        assert said == [] and told == [refused]
    _, told = ask(h, "alice", ".unorating 5")
    assert told == [".unorating takes only a nick"]
