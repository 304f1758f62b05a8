"""An in-memory :class:`~unobot.stats.model.StatsStore`: the reference for the contract.

Every figure is computed from the kept game records on each question (no summaries, no
indexes), so it doubles as the plain statement of what the SQL store's faster queries must
answer; the same contract suite runs against both. Plugin tests use it as a real store.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from datetime import UTC, datetime

from unobot.irc.casemap import irc_lower
from unobot.stats.model import (
    GameRecord,
    ImportedScore,
    Period,
    PlayerStats,
    Ranking,
    RatedPlayer,
    StoredGame,
    StoredResult,
    bucket_of,
    game_lookups,
    player_ident,
)
from unobot.stats.ratings import PlayerRating, update
from unobot.stats.records import normalized

__all__ = ["MemoryStatsStore"]

_NEVER = datetime(1970, 1, 1)
"""last_seen of a player known only from an import: any real game is more recent."""


@dataclass(slots=True)
class _Player:
    seq: int
    """Order of first appearance: the last tie-break in rankings (as the SQL id is)."""
    network: str
    ident: str
    nick: str
    last_seen: datetime
    is_bot: bool = False
    nicks: dict[str, datetime] = field(default_factory=dict)
    """Folded nick -> when last used."""


@dataclass(slots=True)
class _Totals:
    games: int = 0
    wins: int = 0
    points: int = 0
    seconds: int = 0
    team_games: int = 0
    stopped_games: int = 0


class MemoryStatsStore:
    """Games in a dict keyed by game_id (so writes are idempotent); nothing survives close."""

    def __init__(
        self, network: str | None = None, clock: Callable[[], datetime] | None = None
    ) -> None:
        """``network``: the network whose players the queries see (None: every network).
        ``clock``: "now" for week/month periods (default: the system clock, UTC)."""
        self.network = network
        self.clock = clock or (lambda: datetime.now(UTC))
        self._games: dict[str, GameRecord] = {}
        self._players: dict[tuple[str, str], _Player] = {}
        self._imported: dict[tuple[str, str, str, str], ImportedScore] = {}
        """(network, ident, channel or "", source) -> totals."""
        self._ratings: dict[tuple[str, str], PlayerRating] = {}
        """(network, ident) -> rating, updated as each game is recorded."""
        self._after: dict[str, dict[str, PlayerRating]] = {}
        """game_id -> its players' ratings after it (the SQL store's result columns)."""

    # -- writing ---------------------------------------------------------------------------

    def _player(self, network: str, ident: str, nick: str, when: datetime) -> _Player:
        key = (network, ident)
        player = self._players.get(key)
        if player is None:
            player = _Player(len(self._players) + 1, network, ident, nick, when)
            self._players[key] = player
        elif when >= player.last_seen:
            player.nick, player.last_seen = nick, when
        folded = irc_lower(nick)
        if when >= player.nicks.get(folded, _NEVER):
            player.nicks[folded] = when
        return player

    def record_game(self, game: GameRecord) -> None:
        game = normalized(game)
        if game.game_id in self._games:
            return
        self._games[game.game_id] = game
        for result in game.results:
            player = self._player(game.network, result.ident, result.nick, game.ended)
            player.is_bot = result.is_bot
        self._rate(game)

    def _rate(self, game: GameRecord) -> None:
        net = game.network
        before = {
            r.ident: self._ratings[(net, r.ident)]
            for r in game.results
            if (net, r.ident) in self._ratings
        }
        after = update(before, game)
        self._after[game.game_id] = after
        for ident, rating in after.items():
            self._ratings[(net, ident)] = rating

    def import_scores(
        self,
        scores: Iterable[ImportedScore],
        source: str,
        network: str = "",
        channel: str | None = None,
    ) -> int:
        """Add the old bot's totals as aggregate rows; importing ``source`` again replaces
        its rows. Returns the number of players imported."""
        chan = irc_lower(channel) if channel else ""
        for key in [k for k in self._imported if k[0] == network and k[3] == source]:
            del self._imported[key]
        count = 0
        for score in scores:
            ident = player_ident(score.nick)
            self._player(network, ident, score.nick, _NEVER)
            self._imported[(network, ident, chan, source)] = score
            count += 1
        return count

    def flush_pending(self) -> int:
        """Nothing ever waits here (the SQL store's queue); 0 games written."""
        return 0

    def close(self) -> None:
        pass

    # -- reading ---------------------------------------------------------------------------

    def _totals(self, period: Period, channel: str | None) -> dict[tuple[str, str], _Totals]:
        chan = irc_lower(channel) if channel else None
        bucket = bucket_of(period, self.clock())
        out: dict[tuple[str, str], _Totals] = {}
        for game in self._games.values():
            if self.network is not None and game.network != self.network:
                continue
            if chan is not None and game.channel != chan:
                continue
            if bucket_of(period, game.ended) != bucket:
                continue
            seconds = int((game.ended - game.started).total_seconds())
            for r in game.results:
                t = out.setdefault((game.network, r.ident), _Totals())
                t.games += 1
                t.wins += r.won
                t.points += r.points_won
                t.seconds += seconds
                t.team_games += game.teams
                t.stopped_games += game.stopped
        if period is Period.ALL:
            for (network, ident, ichan, _), s in self._imported.items():
                if self.network is not None and network != self.network:
                    continue
                if chan is not None and ichan != chan:
                    continue
                t = out.setdefault((network, ident), _Totals())
                t.games += s.games
                t.wins += s.wins
                t.points += s.points
                t.seconds += s.seconds
        return {k: t for k, t in out.items() if t.games > 0}

    def _ranked(
        self,
        totals: dict[tuple[str, str], _Totals],
        ranking: Ranking,
        min_games: int,
        include_bots: bool,
    ) -> list[tuple[str, str]]:
        def key(k: tuple[str, str]) -> tuple[float, int, int]:
            t = totals[k]
            num = t.wins if ranking is Ranking.PERCENT_WINS else t.points
            return (-(num / t.games), -t.games, self._players[k].seq)

        eligible = [
            k
            for k, t in totals.items()
            if t.games >= min_games and (include_bots or not self._players[k].is_bot)
        ]
        return sorted(eligible, key=key)

    def _stats(self, key: tuple[str, str], t: _Totals, rank: int | None) -> PlayerStats:
        player = self._players[key]
        return PlayerStats(
            player.nick, t.games, t.wins, t.points, t.seconds, rank, player.is_bot, t.team_games,
            t.stopped_games,
        )  # fmt: skip

    def find(self, name: str) -> tuple[str, str] | None:
        """The player ``name`` means: an ident (``$a:acct`` or folded nick); else whoever uses
        that nick now (most recently seen first), whose ident it is, or who used it last."""
        folded = irc_lower(name)
        players = [
            p for p in self._players.values() if self.network is None or p.network == self.network
        ]

        def latest(cands: list[_Player]) -> tuple[str, str] | None:
            if not cands:
                return None
            # A person before a computer player of the same name (``.unostats alice``).
            best = max(cands, key=lambda p: (not p.is_bot, p.last_seen, p.seq))
            return (best.network, best.ident)

        if folded.startswith("$a:"):
            return latest([p for p in players if p.ident == folded])
        found = latest([p for p in players if irc_lower(p.nick) == folded])
        found = found or latest([p for p in players if p.ident == folded])
        if found:
            return found
        cands = [p for p in players if folded in p.nicks]
        if not cands:
            return None
        best = max(cands, key=lambda p: (p.nicks[folded], p.seq))
        return (best.network, best.ident)

    def player(
        self,
        name: str,
        ranking: Ranking = Ranking.PERCENT_WINS,
        period: Period = Period.ALL,
        channel: str | None = None,
        min_games: int = 5,
        include_bots: bool = False,
    ) -> PlayerStats | None:
        key = self.find(name)
        if key is None:
            return None
        totals = self._totals(period, channel)
        if key not in totals:
            return None
        ranked = self._ranked(totals, ranking, min_games, include_bots)
        rank = ranked.index(key) + 1 if key in ranked else None
        return self._stats(key, totals[key], rank)

    def leaderboard(
        self,
        ranking: Ranking,
        limit: int,
        period: Period = Period.ALL,
        channel: str | None = None,
        min_games: int = 5,
        include_bots: bool = False,
        provisional: bool = False,
    ) -> list[PlayerStats]:
        totals = self._totals(period, channel)
        ranked = self._ranked(totals, ranking, min_games, include_bots)[: max(0, limit)]
        board = [self._stats(k, totals[k], n) for n, k in enumerate(ranked, 1)]
        if provisional and len(board) < limit:
            # The same order over everyone, those below the minimum after the ranked ones.
            everyone = self._ranked(totals, ranking, 0, include_bots)
            rest = [k for k in everyone if totals[k].games < min_games]
            board += [self._stats(k, totals[k], None) for k in rest[: limit - len(board)]]
        return board

    # -- ratings ---------------------------------------------------------------------------

    def rebuild_ratings(self) -> int:
        """Recompute every rating from the games in the order they were recorded."""
        self._ratings.clear()
        self._after.clear()
        for game in self._games.values():
            self._rate(game)
        return len(self._games)

    def last_game(self, name: str) -> StoredGame | None:
        key = self.find(name)
        if key is None:
            return None
        for row, game in reversed(list(enumerate(self._games.values(), 1))):
            if game.network == key[0] and any(r.ident == key[1] for r in game.results):
                return self.game(str(row))
        return None

    def game(self, key: str) -> StoredGame | None:
        games: list[GameRecord] = []
        for lookup in game_lookups(key):  # as find_game: the first look-up finding any
            if isinstance(lookup, int):  # the SQL row id: order of recording, from 1
                games = list(self._games.values())[lookup - 1 : lookup] if lookup > 0 else []
            else:
                games = [g for g in self._games.values() if g.game_id.startswith(lookup)]
            if games:
                break
        if len(games) != 1 or (self.network is not None and games[0].network != self.network):
            return None
        game = games[0]
        after = self._after.get(game.game_id, {})
        lines = []
        for r in sorted(game.results, key=lambda r: r.place):
            rating = after.get(r.ident)
            nick = self._players[(game.network, r.ident)].nick
            lines.append(
                StoredResult(
                    nick, r.place, r.won, r.points_won, r.points_left, r.finished, r.is_bot,
                    rating.mu if rating else None, rating.sigma if rating else None,
                )
            )  # fmt: skip
        seconds = max(0, int((game.ended - game.started).total_seconds()))
        row = list(self._games).index(game.game_id) + 1
        return StoredGame(
            row, game.game_id, game.network, game.channel, game.preset, game.started,
            game.ended, seconds, tuple(lines), game.moves, game.teams, game.stopped,
        )  # fmt: skip

    def player_ratings(self) -> dict[tuple[str, str], PlayerRating]:
        return {
            k: r for k, r in self._ratings.items() if self.network is None or k[0] == self.network
        }

    def _rated(self, min_games: int, include_bots: bool) -> list[tuple[str, str]]:
        def key(k: tuple[str, str]) -> tuple[float, int, int]:
            r = self._ratings[k]
            return (-(r.mu - 3.0 * r.sigma), -r.games, self._players[k].seq)

        return sorted(
            (
                k
                for k, r in self.player_ratings().items()
                if r.games >= min_games and (include_bots or not self._players[k].is_bot)
            ),
            key=key,
        )

    def _rated_player(self, key: tuple[str, str], rank: int | None) -> RatedPlayer:
        r, p = self._ratings[key], self._players[key]
        return RatedPlayer(p.nick, r.mu, r.sigma, r.games, rank, p.is_bot)

    def rating(
        self, name: str, min_games: int = 5, include_bots: bool = False
    ) -> RatedPlayer | None:
        key = self.find(name)
        if key is None or key not in self._ratings:
            return None
        ranked = self._rated(min_games, include_bots)
        return self._rated_player(key, ranked.index(key) + 1 if key in ranked else None)

    def rating_leaderboard(
        self, limit: int, min_games: int = 5, include_bots: bool = False, provisional: bool = False
    ) -> list[RatedPlayer]:
        ranked = self._rated(min_games, include_bots)[: max(0, limit)]
        board = [self._rated_player(k, n) for n, k in enumerate(ranked, 1)]
        if provisional and len(board) < limit:
            rest = [k for k in self._rated(0, include_bots) if self._ratings[k].games < min_games]
            board += [self._rated_player(k, None) for k in rest[: limit - len(board)]]
        return board
