"""The site's pages and their JSON twins, against the store's own answers on the same rows."""

from __future__ import annotations

import html
import json
import re
from collections import Counter
from urllib.parse import quote

import pytest
from starlette.testclient import TestClient

from plugins.uno_stats import rating_list_lines
from tests.web.conftest import NASTY, NOW, Seeded
from unobot.irc.casemap import irc_lower
from unobot.replay.steps import steps
from unobot.stats.model import Period, Ranking
from unobot.stats.ratings import conservative, uncertainty
from unobot.stats.sql import SqlStatsStore
from unobot.web.queries import link_key

ROW = re.compile(r'<tr class="player-row">.*?</tr>', re.S)
PROVISIONAL_ROW = re.compile(r'<tr class="player-row provisional">.*?</tr>', re.S)
PLAYER_LINK = re.compile(r'<a class="player-link" href="([^"]*)">([^<]*)</a>')


def rows(page: str, pattern: re.Pattern[str] = ROW) -> list[tuple[str, str]]:
    """(href, nick) of each ranked row of a leaderboard page (``PROVISIONAL_ROW``: each row
    listed after them, with fewer games), in order."""
    found = []
    for row in pattern.findall(page):
        match = PLAYER_LINK.search(row)
        assert match, row
        found.append((html.unescape(match.group(1)), html.unescape(match.group(2))))
    return found


@pytest.mark.parametrize("period", [Period.ALL, Period.WEEK, Period.MONTH])
@pytest.mark.parametrize("ranking", [Ranking.PERCENT_WINS, Ranking.POINTS_PER_GAME])
def test_summary_leaderboards_match_the_store(
    client: TestClient, store: SqlStatsStore, ranking: Ranking, period: Period
) -> None:
    expected = store.leaderboard(ranking, 50, period, min_games=2, provisional=True)
    assert expected, "the seed has no ranked players for this board"
    query = f"ranking={ranking.value}&period={period.value}&min=2"
    api = client.get(f"/api/leaderboard?{query}").json()
    assert [
        (p["nick"], p["games"], p["wins"], p["points"], p["rank"], p["team_games"])
        for p in api["players"]
    ] == [(p.nick, p.games, p.wins, p.points, p.rank, p.team_games) for p in expected]
    assert api["ranking"] == ranking.value and api["period"] == period.value
    assert api["min_games"] == 2
    page = client.get(f"/leaderboard?{query}")
    assert page.status_code == 200
    assert [nick for _, nick in rows(page.text)] == [p.nick for p in expected if p.rank]
    later = [p.nick for p in expected if p.rank is None]
    assert [nick for _, nick in rows(page.text, PROVISIONAL_ROW)] == later
    assert [p["nick"] for p in api["players"] if p["provisional"]] == later
    assert "at least 2 games" in page.text


def test_rating_leaderboard_matches_the_store_across_networks(
    client: TestClient, store: SqlStatsStore
) -> None:
    expected = store.rating_leaderboard(50, provisional=True)
    assert {p["network"] for p in client.get("/api/leaderboard").json()["players"]} == {
        "net", "other",
    }  # fmt: skip
    api = client.get("/api/leaderboard?ranking=rating").json()["players"]
    assert [(p["nick"], p["rating"], p["uncertainty"], p["rated_games"]) for p in api] == [
        (p.nick, conservative(p.mu, p.sigma), uncertainty(p.sigma), p.games) for p in expected
    ]
    page = client.get("/").text  # the rating board is the home page
    assert [nick for _, nick in rows(page)] == [p.nick for p in expected if p.rank]
    later = [nick for _, nick in rows(page, PROVISIONAL_ROW)]
    assert later == [p.nick for p in expected if p.rank is None]
    current = 'id="ranking-rating" href="/leaderboard?ranking=rating&amp;min=5" aria-current="page"'
    assert current in page


def test_network_and_channel_filters(client: TestClient, store: SqlStatsStore) -> None:
    other = SqlStatsStore(store.url, network="other", clock=lambda: NOW, connect_now=False)
    try:
        expected = [p.nick for p in other.rating_leaderboard(50, min_games=1)]
        by_pw = [p.nick for p in other.leaderboard(Ranking.PERCENT_WINS, 50, min_games=1)]
    finally:
        other.close()
    api = client.get("/api/leaderboard?ranking=rating&network=other&min=1").json()["players"]
    assert [p["nick"] for p in api] == expected
    assert {p["network"] for p in api} == {"other"}
    api = client.get("/api/leaderboard?ranking=pw&network=other&min=1").json()["players"]
    assert [p["nick"] for p in api] == by_pw
    side = store.leaderboard(Ranking.POINTS_PER_GAME, 50, channel="#side", min_games=1)
    # A channel as typed, in any IRC case: ``#SIDE`` is ``#side``.
    api = client.get("/api/leaderboard?ranking=ppg&channel=%23SIDE&min=1").json()["players"]
    assert [(p["nick"], p["games"]) for p in api] == [(p.nick, p.games) for p in side]
    page = client.get("/leaderboard?ranking=ppg").text
    assert '<option value="#side">#side</option>' in page
    assert '<option value="#uno">#uno</option>' in page
    assert '<option value="other">other</option>' in page


def test_min_games_rule_and_limit(client: TestClient, store: SqlStatsStore) -> None:
    page = client.get("/leaderboard?ranking=pw&period=week&min=3").text
    rule = re.search(r'<p id="min-games"[^>]*>(.*?)</p>', page, re.S)
    assert rule and "at least 3 games this week are ranked" in " ".join(rule.group(1).split())
    ranked = [p.nick for p in store.leaderboard(Ranking.PERCENT_WINS, 50, Period.WEEK, None, 3)]
    assert [n for _, n in rows(page)] == ranked
    assert len(client.get("/api/leaderboard?ranking=pw&min=1&limit=3").json()["players"]) == 3


@pytest.mark.parametrize(
    ("query", "says"),
    [
        ("ranking=rating&period=week", "rating rankings are all-time"),
        ("ranking=rating&channel=%23uno", "ratings are kept per network"),
        ("ranking=best", "ranking must be pw"),
        ("period=year", "period must be week, month or all"),
        ("min=0", "min must be a whole number from 1"),
        ("min=five", "min must be a whole number"),
        ("limit=1000", "limit must be a whole number from 1 to 100"),
        ("ranking=pw&channel=uno", "channel must be a channel name"),
        ("network=a%0Ab", "network is not a network name"),
        ("bots=maybe", "bots must be 1"),
    ],
)
def test_bad_parameters_are_400_with_a_reason(client: TestClient, query: str, says: str) -> None:
    api = client.get(f"/api/leaderboard?{query}")
    assert api.status_code == 400
    assert says in api.json()["error"]
    page = client.get(f"/leaderboard?{query}")
    assert page.status_code == 400
    assert says in html.unescape(page.text) and "Traceback" not in page.text


def player_path(nick: str, network: str = "net") -> str:
    return f"/player/{quote(nick, safe='')}?network={network}"


def test_player_page_figures_match_the_store(
    client: TestClient, store: SqlStatsStore, seeded: Seeded
) -> None:
    for nick in ("alice", "bob", "Caro"):
        api = client.get("/api" + player_path(nick)).json()
        net = SqlStatsStore(store.url, network="net", clock=lambda: NOW, connect_now=False)
        try:
            stats = net.player(nick)
            rated = net.rating(nick)
        finally:
            net.close()
        assert stats is not None and rated is not None
        assert api["nick"] == stats.nick
        assert (api["games"], api["wins"], api["points"], api["seconds"]) == (
            stats.games, stats.wins, stats.points, stats.seconds,
        )  # fmt: skip
        assert api["rating"] == conservative(rated.mu, rated.sigma)
        assert api["uncertainty"] == uncertainty(rated.sigma)
        assert api["rating_rank"] == rated.rank
        # The chart's last point is the rating now; one point per rated game.
        assert api["rating_history"][-1]["rating"] == api["rating"]
        assert len(api["rating_history"]) == rated.games
        assert sum(w["games"] for w in api["weeks"]) == stats.games
        assert sum(w["points"] for w in api["weeks"]) == stats.points


def test_favourite_opponents_and_recent_games_from_the_records(
    client: TestClient, seeded: Seeded
) -> None:
    mine = [g for g in seeded.games if g.network == "net" and "bob" in {r.ident for r in g.results}]
    met: Counter[str] = Counter()
    won: Counter[str] = Counter()
    for game in mine:
        bob_won = next(r.won for r in game.results if r.ident == "bob")
        for r in game.results:
            if r.ident != "bob":
                met[r.ident] += 1
                won[r.ident] += bob_won
    api = client.get("/api" + player_path("bob")).json()
    seen = {irc_lower(o["nick"]) if o["nick"] != "Caro" else "carol": o for o in api["opponents"]}
    top = met.most_common(1)[0]
    assert seen[top[0]]["games"] == top[1]
    for ident, o in seen.items():
        assert (o["games"], o["wins"]) == (met[ident], won[ident]), ident
    newest = mine[::-1][:20]  # latest written first (the bot writes a game as it ends)
    assert [g["id"] for g in api["recent"]] == [g.game_id[:8] for g in newest]
    assert api["recent"][0]["players"] == len(newest[0].results)
    page = client.get(player_path("bob")).text
    assert '<h1 id="player-name">bob</h1>' in page
    assert f'<a class="game-link" href="/game/{link_key(newest[0].game_id)}">' in page
    assert page.count('class="game-link"') == len(newest)
    assert '<ul id="opponents"' in page


def test_player_page_has_both_charts_as_inline_svg(client: TestClient) -> None:
    page = client.get(player_path("alice")).text
    for section in ("rating-chart", "ppg-chart"):
        body = page.split(f'<section id="{section}"', 1)[1].split("</section>", 1)[0]
        assert '<svg role="img" aria-label="' in body
        assert "<script" not in body  # pygal's tooltip script is left out: no request anywhere
    assert "Rating over the last" in page


@pytest.mark.parametrize(
    ("name", "nick"),
    [("carol", "Caro"), ("CARO", "Caro"), ("ALICE", "alice"), ("$a:nobody", None)],
)
def test_a_nick_is_resolved_as_the_bot_does(
    client: TestClient, name: str, nick: str | None
) -> None:
    answer = client.get("/api" + player_path(name))
    if nick is None:
        assert answer.status_code == 404
    else:
        assert answer.json()["nick"] == nick


def test_unknown_player_is_a_404_page(client: TestClient) -> None:
    page = client.get("/player/nobody-at-all")
    assert page.status_code == 404
    assert "No player called" in html.unescape(page.text)
    assert '<html lang="en">' in page.text
    api = client.get("/api/player/nobody-at-all")
    assert api.status_code == 404 and "No player called" in api.json()["error"]


def test_a_nasty_nick_is_escaped_everywhere(client: TestClient) -> None:
    board = client.get("/leaderboard?ranking=pw&min=1").text
    assert NASTY not in board
    assert html.escape(NASTY) in board
    link = next(href for href, nick in rows(board) if nick == NASTY)
    assert link == f"/player/{quote(NASTY, safe='')}?network=net"
    page = client.get(link)
    assert page.status_code == 200 and NASTY not in page.text
    assert f'<h1 id="player-name">{html.escape(NASTY)}</h1>' in page.text
    assert client.get("/api" + link).json()["nick"] == NASTY
    game = client.get("/game/ffffffff").text
    assert NASTY not in game and html.escape(NASTY) in game


def test_game_page_results_and_first_step(client: TestClient, seeded: Seeded) -> None:
    game = max((g for g in seeded.games if g.moves), key=lambda g: len(g.results))
    replayed = steps(game.moves or "")
    short = game.game_id[:8]
    api = client.get(f"/api/game/{short}").json()
    assert api["game_id"] == game.game_id and api["short_id"] == short
    now_called = {"carol": "Caro"}  # results show each player's current nick
    assert [(r["nick"], r["place"], r["points_won"]) for r in api["results"]] == sorted(
        ((now_called.get(r.ident, r.nick), r.place, r.points_won) for r in game.results),
        key=lambda t: t[1],
    )
    assert len(api["steps"]) == len(replayed)
    assert api["steps"][-1]["lines"] == list(replayed[-1].lines)
    assert client.get(f"/api/game/{api['id']}").json()["game_id"] == game.game_id
    page = client.get(f"/game/{short}").text
    assert '<table id="results"' in page
    assert f"Step 1 of {len(replayed)}" in page
    for nick, cards in replayed[0].hands:
        hand = page.split(f'data-nick="{html.escape(nick)}"', 1)[1].split('<div class="hand', 1)[0]
        assert hand.count('class="card card-') == len(cards)
    assert re.search(r'<span class="card card-[rygbw]" role="img" aria-label="[a-z0-9 ]+"', page)
    data = page.split('<script type="application/json" id="replay-data">', 1)[1]
    embedded = json.loads(data.split("</script>", 1)[0])
    assert embedded["steps"] == api["steps"]
    every = {c for s in api["steps"] for h in s["hands"] for c in h["cards"]}
    assert every <= set(embedded["cards"])
    assert embedded["cards"]["WD4"]["label"] == "wild draw four" if "WD4" in every else True


def test_game_without_moves_says_so(client: TestClient) -> None:
    page = client.get("/game/dddddddd")
    assert page.status_code == 200
    assert "recorded without its move list" in html.unescape(page.text)
    assert 'id="replay-data"' not in page.text
    assert client.get("/api/game/dddddddd").json()["steps"] == []


@pytest.mark.parametrize("key", ["00000000", "99999999999", "not-a-game", "abc", "%00"])
def test_unknown_or_malformed_game_is_a_404(client: TestClient, key: str) -> None:
    page = client.get(f"/game/{key}")
    assert page.status_code == 404 and "Traceback" not in page.text
    assert client.get(f"/api/game/{key}").status_code == 404


def test_unknown_paths_and_methods(client: TestClient) -> None:
    assert client.get("/nothing/here").status_code == 404
    assert client.get("/api/nothing").json()["status"] == 404
    assert client.post("/leaderboard").status_code == 405
    assert client.get("/static/missing.css").status_code == 404


@pytest.mark.parametrize(
    "path", ["/", "/leaderboard?ranking=pw", "/api/leaderboard", "/player/nobody", "/nope",
             "/static/site.css", "/leaderboard?min=x"],
)  # fmt: skip
def test_every_response_has_server_timing(client: TestClient, path: str) -> None:
    answer = client.get(path)
    timing = answer.headers["server-timing"]
    match = re.fullmatch(r"app;dur=(\d+\.\d+)", timing)
    assert match and 0 <= float(match.group(1)) < 10_000
    assert "default-src 'self'" in answer.headers["content-security-policy"]


def test_links_carry_the_root_path(client: TestClient) -> None:
    under = TestClient(client.app, root_path="/uno")
    page = under.get("/uno/leaderboard?ranking=pw&min=1").text
    hrefs = re.findall(r'(?:href|src|action)="([^"]*)"', page)
    local = [h for h in hrefs if not h.startswith("#")]
    assert local and all(h.startswith("/uno/") for h in local), local
    assert '<link rel="stylesheet" href="/uno/static/site.css?v=' in page
    link = next(href for href, nick in rows(page) if nick == "alice")
    player = under.get(html.unescape(link)).text
    game = re.search(r'<a class="game-link" href="(/uno/game/[0-9a-f]{8})">', player)
    assert game, "no game link under the root path"
    assert under.get(game.group(1)).status_code == 200
    api = under.get("/uno/api/leaderboard").json()
    assert all(p["url"].startswith("/uno/player/") for p in api["players"])
    assert under.get("/uno/static/replay.js").status_code == 200


def test_a_short_id_of_digits_only_still_links_to_its_game(client: TestClient) -> None:
    """``12345678...``'s short id reads as a row number: its links use a longer prefix."""
    api = client.get("/api" + player_path("Caro")).json()
    digits = next(g for g in api["recent"] if g["id"] == "12345678")
    assert digits["url"] == "/game/1234567890abc"
    assert client.get(digits["url"]).status_code == 200
    assert link_key("abcdef12" + "0" * 24) == "abcdef12"


def test_computer_players_are_ranked_only_when_asked(
    client: TestClient, store: SqlStatsStore
) -> None:
    for ranking in ("rating", "pw", "ppg"):
        people = client.get(f"/api/leaderboard?ranking={ranking}").json()["players"]
        everyone = client.get(f"/api/leaderboard?ranking={ranking}&bots=1").json()["players"]
        assert "Robo" not in {p["nick"] for p in people}
        robo = next(p for p in everyone if p["nick"] == "Robo")
        assert robo["is_bot"] and robo["games"] == 5
    with_bots = [p.nick for p in store.rating_leaderboard(50, include_bots=True, provisional=True)]
    api = client.get("/api/leaderboard?ranking=rating&bots=1").json()["players"]
    assert [p["nick"] for p in api] == with_bots
    assert "computer" in client.get(player_path("Robo")).text
    assert client.get("/api" + player_path("Robo")).json()["rating_rank"] is None


RATING_CELL = re.compile(
    r'<td class="num strong">(\d+)(?: <span class="muted">provisional</span>)?</td>'
)


def test_the_site_and_the_bot_show_the_same_rating_board(
    client: TestClient, store: SqlStatsStore
) -> None:
    """Issue 27: the same players in the same order with the same numbers as ``.unotop10
    rating`` on the same network; readable numbers (none negative, no ±)."""
    net = SqlStatsStore(store.url, network="net", clock=lambda: NOW, connect_now=False)
    try:
        board = net.rating_leaderboard(10, min_games=5, provisional=True)
    finally:
        net.close()
    assert board
    irc = re.findall(r"(?:\d+\. |: )?(\S+) (\d+) \(\d+\)", " ".join(rating_list_lines(board, 10)))
    page = client.get("/leaderboard?ranking=rating&network=net&limit=10").text
    shown = [int(n) for n in RATING_CELL.findall(page)]
    nicks = [nick for _, nick in rows(page)] + [nick for _, nick in rows(page, PROVISIONAL_ROW)]
    assert [(nick, int(n)) for nick, n in irc] == list(zip(nicks, shown, strict=True))
    ranked = [n for n, r in zip(shown, board, strict=True) if r.rank]
    assert ranked == sorted(ranked, reverse=True) and min(shown) >= 0
    assert "±" not in page and "provisional until you have played 5 games" in page


def test_a_rating_before_the_minimum_games_is_provisional(client: TestClient) -> None:
    api = client.get("/api/leaderboard?ranking=rating&network=net&min=1").json()["players"]
    few = [p for p in api if p["rated_games"] < 5]
    assert few, "the seed has no player with fewer than 5 rated games"
    page = client.get("/leaderboard?ranking=rating&network=net&min=1").text
    for row in ROW.findall(page):
        nick = html.unescape(PLAYER_LINK.search(row).group(2))  # type: ignore[union-attr]
        games = next(p["rated_games"] for p in api if p["nick"] == nick)
        assert ("provisional" in row) == (games < 5), (nick, games)
    player = client.get(player_path(few[0]["nick"])).text
    assert "provisional" in player and "±" not in player


def test_favicon_and_human_titles(client: TestClient, seeded: Seeded) -> None:
    icon = client.get("/favicon.ico")
    assert icon.status_code == 200 and icon.headers["content-type"].startswith("image/svg+xml")
    assert icon.content.startswith(b"<svg") and b"<script" not in icon.content
    assert "default-src 'self'" in icon.headers["content-security-policy"]
    page = client.get("/leaderboard").text
    link = re.search(r'<link rel="icon" href="([^"]+)" type="image/svg\+xml">', page)
    assert link and client.get(html.unescape(link.group(1))).content == icon.content
    api = client.get("/api/game/ffffffff").json()
    title = re.search(r"<title>(.*?)</title>", client.get("/game/ffffffff").text)
    assert title and title.group(1) == f"Game {api['id']} — #side, 2026-11-20 · unobot"
    title = re.search(r"<title>(.*?)</title>", client.get(player_path("bob")).text)
    assert title and title.group(1) == "bob on net: player stats · unobot"
