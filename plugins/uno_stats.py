"""Stats commands: ``.unostats`` / ``.unotop10`` / ``.unorating`` / ``.unogame`` (games are
recorded by :class:`unobot.stats.recorder.GameRecorder`).

``.unogame <id>`` answers with a link to the game's page on the stats site when the site's
public address is configured (``[web] public_url``, see :func:`public_url`), else with a short
summary sent privately (players by place with their points, hands played, duration). It
never names the ``unobot replay`` shell command: players on IRC can't run it (the operator
finds it in docs/stats-site.md).

Skill ratings (``rating`` in ``.unostats``/``.unotop10``, and ``.unorating``) are openskill
Plackett-Luce ratings (:mod:`unobot.stats.ratings`), shown as the conservative number
``1000 + (mu - 3*sigma) * 40`` (never below 0, the site shows the same), marked provisional
below the minimum games instead of carrying a ``±``. They are all-time and network-wide, so
``week``/``month``/``here`` are refused for them; the minimum games and the computer-player
rule are the other rankings' (computer players are rated and can be looked up, but are not
ranked among people).

The commands read :class:`~unobot.stats.PlayerStats` from the same store. Answers follow the
original bot: a list asked for in a channel goes to the channel, unless a game is being played
there (then privately, so the game's lines are not buried) or it is long; a private question gets
a private answer. Leaderboards are rate-limited per user and per channel, so nobody can use the
bot to flood.
"""

from __future__ import annotations

import logging
import math
import re
import weakref
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from unobot.core.plugin import command, example
from unobot.core.render import game_length
from unobot.core.render_irc import LIMIT, Line
from unobot.engine.errors import UnoError
from unobot.irc.casemap import irc_lower
from unobot.stats import Period, PlayerStats, Ranking, StatsStore
from unobot.stats.background import ask
from unobot.stats.model import RatedPlayer, StoredGame, game_key
from unobot.stats.ratings import conservative

if TYPE_CHECKING:
    from unobot.core.plugin import BotApi, Context

__all__ = [
    "Cooldown",
    "StatsQuery",
    "game_lines",
    "packed",
    "parse_query",
    "public_url",
    "rating_line",
    "rating_list_lines",
]

log = logging.getLogger(__name__)

# --- rate limits -----------------------------------------------------------------------------


class Cooldown:
    """At most one request per ``seconds`` per key; a refused key is told once per window,
    then ignored, so replying to a flood cannot become a flood."""

    def __init__(self, seconds: float) -> None:
        self.seconds = seconds
        self._until: dict[str, float] = {}
        self._told: set[str] = set()

    def take(self, key: str, now: float) -> float:
        """0 and the window starts if ``key`` may go ahead; else the seconds left to wait."""
        until = self._until.get(key, 0.0)
        if now < until:
            return until - now
        if len(self._until) > 1000:  # forget windows that are over
            self._until = {k: u for k, u in self._until.items() if u > now}
            self._told &= set(self._until)
        self._until[key] = now + self.seconds
        self._told.discard(key)
        return 0.0

    def release(self, key: str) -> None:
        """Forget ``key``'s window (its request was refused for another reason)."""
        self._until.pop(key, None)

    def tell(self, key: str) -> bool:
        """Whether to answer this refusal (only the first in a window)."""
        if key in self._told:
            return False
        self._told.add(key)
        return True


@dataclass(slots=True)
class _Limits:
    lists_by_user: Cooldown
    lists_by_channel: Cooldown
    lines_by_user: Cooldown


_limits: weakref.WeakKeyDictionary[BotApi, _Limits] = weakref.WeakKeyDictionary()


def _limits_of(bot: BotApi) -> _Limits:
    limits = _limits.get(bot)
    if limits is None:
        seconds = bot.config.stats_cooldown
        limits = _Limits(Cooldown(seconds), Cooldown(seconds), Cooldown(min(3.0, seconds)))
        _limits[bot] = limits
    return limits


# --- parsing ---------------------------------------------------------------------------------

_PERIODS = {p.value: p for p in Period}
_RANKINGS = {r.value: r for r in Ranking}
_NICK = re.compile(r"[^\x00-\x20\x7f\d\-#&!+:,.*?][^\x00-\x20\x7f,*?]{0,49}")
"""Roughly an IRC nick: no digit or '-' first, no channel sigil, no control characters or
wildcards, at most 50 characters (what we may quote back in a reply)."""


@dataclass(frozen=True, slots=True)
class StatsQuery:
    """What ``.unostats`` / ``.unotop10`` asked for."""

    ranking: Ranking | None = None
    count: int | None = None
    nick: str | None = None
    period: Period = Period.ALL
    here: bool = False
    rating: bool = False
    """``rating``: the skill rating instead of ``ranking``."""


def parse_query(args: str) -> StatsQuery:
    """``pw``/``ppg``/``rating``, a number, a nick, ``week``/``month``/``all`` and ``here``, in
    any order; raises UnoError for anything else (a short reply, not a usage essay)."""
    ranking: Ranking | None = None
    count: int | None = None
    nick: str | None = None
    period = Period.ALL
    here = False
    rating = False
    for word in args.split():
        low = word.lower()
        if low in _PERIODS:
            period = _PERIODS[low]
        elif low == "here":
            here = True
        elif low in _RANKINGS and ranking is None and not rating:
            ranking = _RANKINGS[low]
        elif low == "rating" and ranking is None and not rating:
            rating = True
        elif word.isdecimal() and count is None and nick is None:  # what int() takes
            count = int(word[:9])
        elif _NICK.fullmatch(word) and nick is None and count is None:
            nick = word
        else:
            shown = re.sub(r"[\x00-\x1f\x7f]", "?", word[:20])  # no formatting echoed back
            raise UnoError(
                f"'{shown}' is not a nick, number, pw/ppg/rating, week/month/all or here"
            )
    return StatsQuery(ranking, count, nick, period, here, rating)


# --- answers ---------------------------------------------------------------------------------

_RANKING_NAME = {Ranking.PERCENT_WINS: "percent wins", Ranking.POINTS_PER_GAME: "points per game"}
DEFAULT_RANKING = Ranking.POINTS_PER_GAME
"""The ranking when none is named (``.unotop10`` ranks by points per game)."""
TOP = 10
"""Length of a list when none is given (``.unostats pw``)."""


def _scope(query: StatsQuery, channel: str | None) -> str:
    parts = {Period.WEEK: ["this week"], Period.MONTH: ["this month"], Period.ALL: []}[query.period]
    if query.here and channel is not None:
        parts.append(f"in {channel}")
    return " ".join(parts)


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def _shown(nick: str) -> str:
    """A stored nick as a line shows it: one longer than any server gives out is cut short, so
    that a line stays within LIMIT."""
    return nick if len(nick) <= 60 else nick[:59] + "…"


def _in_teams(stats: PlayerStats) -> str:
    """`` (3 in teams)`` after a count of games some of which were team games (a win shared
    with a partner), else nothing: a line only grows for players who played in teams."""
    return f" ({stats.team_games} in teams)" if stats.team_games else ""


def stats_line(stats: PlayerStats, ranking: Ranking, min_games: int, scope: str) -> str:
    """``alice: 12 games (3 in teams), 5 wins (41.7%), 340 points, 28.3 points/game, rank 3
    by ...`` (the team games only when there are some)."""
    where = f" ({scope})" if scope else ""
    if stats.is_bot:
        rank = "a computer player (not ranked with people)"
    elif stats.rank is not None:
        rank = f"rank {stats.rank} by {_RANKING_NAME[ranking]}"
    else:
        rank = f"unranked (fewer than {min_games} games)"
    return (
        f"{_shown(stats.nick)}{where}: {_plural(stats.games, 'game')}{_in_teams(stats)}, "
        f"{_plural(stats.wins, 'win')} "
        f"({stats.percent_wins:.1f}%), {stats.points} points, "
        f"{stats.points_per_game:.1f} points/game, {rank}"
    )


def list_lines(board: list[PlayerStats], ranking: Ranking, count: int, scope: str) -> list[str]:
    """A header and ``1. alice 41.3 (12)`` entries (``(12, 3 in teams)`` for a player with
    team games), several to a line of at most LIMIT bytes, never splitting an entry."""
    where = f" {scope}" if scope else ""
    head = f"Uno top {count} by {_RANKING_NAME[ranking]} (games){where}:"
    entries = []
    for i, s in enumerate(board, 1):
        figure = (
            f"{s.percent_wins:.1f}%"
            if ranking is Ranking.PERCENT_WINS
            else f"{s.points_per_game:.1f}"
        )
        teams = f", {s.team_games} in teams" if s.team_games else ""
        entries.append(f"{s.rank or i}. {_shown(s.nick)} {figure} ({s.games}{teams})")
    return packed(head, entries)


def packed(head: str, entries: Iterable[str]) -> list[str]:
    """``head`` and the comma-separated ``entries``, several to a line of at most LIMIT bytes,
    never splitting an entry (every list and summary the stats commands send)."""
    lines = [head]
    for entry in entries:
        glue = " " if lines[-1] == head else ", "
        if len((lines[-1] + glue + entry).encode()) < LIMIT:  # a byte for the comma after
            lines[-1] += glue + entry
        else:
            lines[-1] += ","
            lines.append(entry)
    return lines


def rating_line(rated: RatedPlayer, min_games: int) -> str:
    """``alice: rating 1612 (42 rated games), rank 3 by rating``; before ``min_games``:
    ``erin: rating 979, provisional (1 of 5 rated games), not ranked yet``."""
    shown = conservative(rated.mu, rated.sigma)
    if rated.games < min_games:
        figure = f"{shown}, provisional ({rated.games} of {min_games} rated games)"
    else:
        figure = f"{shown} ({_plural(rated.games, 'rated game')})"
    if rated.is_bot:
        rank = "a computer player (not ranked with people)"
    elif rated.rank is not None:
        rank = f"rank {rated.rank} by rating"
    else:
        rank = "not ranked yet"
    return f"{_shown(rated.nick)}: rating {figure}, {rank}"


def rating_list_lines(board: list[RatedPlayer], count: int) -> list[str]:
    """A header and ``1. alice 612 (42)`` entries, packed like :func:`list_lines`."""
    return packed(
        f"Uno top {count} by rating (games):",
        (
            f"{r.rank or i}. {_shown(r.nick)} {conservative(r.mu, r.sigma)} ({r.games})"
            for i, r in enumerate(board, 1)
        ),
    )


UNAVAILABLE = "Stats are unavailable right now."
"""The answer when the stats database does not answer (down, stalled or refusing)."""

_CHANNEL_LINES = 2
"""Longer lists always go privately (the channel shouldn't scroll for one person's question)."""


def _store_of(ctx: Context) -> StatsStore:
    store = ctx.bot.store
    if store is None:
        raise UnoError("Stats are off on this bot.")
    return store


def _in_game_here(ctx: Context) -> bool:
    channel = ctx.channel
    table = ctx.bot.tables.get(irc_lower(channel)) if channel is not None else None
    return table is not None and table.dealt


def _send(ctx: Context, lines: list[str], public: bool) -> None:
    for text in lines:
        if public and ctx.channel is not None:
            ctx.bot.send(Line("privmsg", ctx.channel, text, ctx.reply_tag()))
        else:
            ctx.reply(text)


def _wait(limit: Cooldown, key: str, ctx: Context, what: str) -> bool:
    """True if the request must wait (and the user was told, once per window)."""
    left = limit.take(key, ctx.now)
    if left <= 0:
        return False
    if limit.tell(key):
        ctx.reply(f"{what}: try again in {math.ceil(left)}s.")
    return True


def _answer(ctx: Context, query: StatsQuery, *, listing: bool) -> None:
    store = _store_of(ctx)
    bot = ctx.bot
    cfg = bot.config
    if query.here and ctx.channel is None:
        raise UnoError("'here' works in a channel only")
    channel = irc_lower(ctx.channel) if query.here and ctx.channel is not None else None
    limits = _limits_of(bot)
    scope = _scope(query, ctx.channel)

    def unavailable(reason: str) -> None:
        log.warning("stats: %s asked and got no answer (%s)", ctx.nick, reason)
        ctx.reply(UNAVAILABLE)

    if query.rating:
        _answer_rating(ctx, store, query, listing=listing, unavailable=unavailable)
        return
    ranking = query.ranking or DEFAULT_RANKING
    if listing:
        count = _list_count(ctx, query)
        if count is None:
            return

        def board(store: StatsStore) -> list[PlayerStats]:
            return store.leaderboard(
                ranking, count, query.period, channel, min_games=cfg.stats_min_games
            )

        ask(store, board, lambda found: _show_list(ctx, found, ranking, count, scope), unavailable)
        return
    if _wait(limits.lines_by_user, ctx.ident, ctx, "Not so fast"):
        return
    name = query.nick or ctx.ident

    def player(store: StatsStore) -> PlayerStats | None:
        return store.player(name, ranking, query.period, channel, min_games=cfg.stats_min_games)

    ask(store, player, lambda found: _show_player(ctx, query, found, ranking, scope), unavailable)


def _list_count(ctx: Context, query: StatsQuery) -> int | None:
    """How many players a list shows (``TOP`` unless asked, at most ``stats.max_list``);
    None when this user must wait for their next list (they were told)."""
    cfg = ctx.bot.config
    count = TOP if query.count is None else query.count
    if count < 1:
        raise UnoError(f"a list has 1 to {cfg.stats_max_list} players")
    if _wait(_limits_of(ctx.bot).lists_by_user, ctx.ident, ctx, "One list at a time"):
        return None
    return min(count, cfg.stats_max_list)


def _answer_rating(
    ctx: Context,
    store: StatsStore,
    query: StatsQuery,
    *,
    listing: bool,
    unavailable: Callable[[str], None],
) -> None:
    cfg = ctx.bot.config
    limits = _limits_of(ctx.bot)
    if query.period is not Period.ALL or query.here:
        raise UnoError("ratings are all-time and network-wide: no week, month or here")
    if listing:
        count = _list_count(ctx, query)
        if count is None:
            return

        def board(store: Any) -> list[RatedPlayer]:
            return store.rating_leaderboard(count, min_games=cfg.stats_min_games)  # type: ignore[no-any-return]

        def show(found: list[RatedPlayer]) -> None:
            if not found:
                ctx.reply(f"Nobody has played {cfg.stats_min_games} rated Uno games yet.")
                return
            _show_lines(ctx, rating_list_lines(found, count))

        ask(store, board, show, unavailable)
        return
    if _wait(limits.lines_by_user, ctx.ident, ctx, "Not so fast"):
        return
    name = query.nick or ctx.ident

    def player(store: Any) -> RatedPlayer | None:
        return store.rating(name, min_games=cfg.stats_min_games)  # type: ignore[no-any-return]

    def show_player(found: RatedPlayer | None) -> None:
        if found is None:
            ctx.reply(f"No rated Uno games recorded for {query.nick or 'you'}.")
            return
        line = rating_line(found, cfg.stats_min_games)
        _send(ctx, [line], ctx.channel is not None and not _in_game_here(ctx))

    ask(store, player, show_player, unavailable)


def _show_list(
    ctx: Context, board: list[PlayerStats], ranking: Ranking, count: int, scope: str
) -> None:
    """The answer to a list, on the reactor once the store replied."""
    cfg = ctx.bot.config
    if not board:
        where = f" {scope}" if scope else ""
        ctx.reply(f"Nobody has played {cfg.stats_min_games} Uno games yet{where}.")
        return
    _show_lines(ctx, list_lines(board, ranking, count, scope))


def _show_lines(ctx: Context, lines: list[str]) -> None:
    """A list's lines: in the channel when short and no game is on there, else privately."""
    limits = _limits_of(ctx.bot)
    public = ctx.channel is not None and not _in_game_here(ctx) and len(lines) <= _CHANNEL_LINES
    if public and _wait(
        limits.lists_by_channel,
        irc_lower(ctx.channel or ""),
        ctx,
        "A list was just shown here (ask me privately, or wait)",
    ):
        limits.lists_by_user.release(ctx.ident)  # so asking privately works at once
        return
    _send(ctx, lines, public)


def _show_player(
    ctx: Context, query: StatsQuery, stats: PlayerStats | None, ranking: Ranking, scope: str
) -> None:
    """The answer to a player's line, on the reactor once the store replied."""
    cfg = ctx.bot.config
    if stats is None:
        who = query.nick or "you"
        where = f" {scope}" if scope else ""
        ctx.reply(f"No Uno games recorded for {who}{where}.")
        return
    line = stats_line(stats, ranking, cfg.stats_min_games, scope)
    _send(ctx, [line], ctx.channel is not None and not _in_game_here(ctx))


@command("unostats")
@example(".unostats")
@example(".unostats pw 10")
@example(".unostats ppg alice")
@example(".unostats pw 10 week here")
@example(".unostats rating 10")
def unostats(ctx: Context) -> None:
    """Your line, a player's line (``<nick>``, ``pw <nick>``, ``ppg <nick>``,
    ``rating <nick>``), or a list (``pw N``, ``ppg N``, ``rating N``, ``pw``);
    ``week``/``month``/``all`` and ``here`` narrow any but ratings (all-time only)."""
    _store_of(ctx)
    query = parse_query(ctx.args)
    ranked = query.ranking is not None or query.rating
    listing = query.count is not None or (ranked and query.nick is None)
    _answer(ctx, query, listing=listing)


@command("unotop10")
@example(".unotop10 month here")
@example(".unotop10 rating")
def unotop10(ctx: Context) -> None:
    """The top 10 by points per game, or by skill rating (``rating``); ``week``/``month``/
    ``all`` and ``here`` narrow the points list."""
    _store_of(ctx)
    query = parse_query(ctx.args)
    if query.count is not None or query.nick is not None or query.ranking is not None:
        raise UnoError(f"{ctx.prefix}unotop10 takes only rating, week, month, all or here")
    if query.rating:
        _answer(ctx, StatsQuery(None, TOP, None, query.period, query.here, True), listing=True)
        return
    _answer(ctx, StatsQuery(DEFAULT_RANKING, TOP, None, query.period, query.here), listing=True)


@command("unorating")
@example(".unorating")
@example(".unorating alice")
def unorating(ctx: Context) -> None:
    """Your skill rating or a player's (``<nick>``): the conservative number, its ± and
    rank; all-time, computer players included."""
    _store_of(ctx)
    query = parse_query(ctx.args)
    if query.count is not None or query.ranking is not None or query.period is not Period.ALL:
        raise UnoError(f"{ctx.prefix}unorating takes only a nick")
    if query.here:
        raise UnoError("ratings are all-time and network-wide: no week, month or here")
    _answer(ctx, StatsQuery(None, None, query.nick, Period.ALL, False, True), listing=False)


# --- .unogame --------------------------------------------------------------------------------


def public_url(bot: BotApi) -> str:
    """The stats site's public address (``[web] public_url``, no trailing slash), "" when the
    site is not published.

    Read from ``bot.config.web_public_url`` (``unobot.config`` fills it from ``[web]``);
    anything but an http(s) address counts as unpublished."""
    url = getattr(bot.config, "web_public_url", "")
    if not isinstance(url, str) or not url.startswith(("http://", "https://")):
        return ""
    return url.rstrip("/")


def _hands_played(moves: str | None) -> int | None:
    """Hands dealt in a recorded game, from its move list (replayed: the journal holds the
    calls, not the hands); None without one or when it does not replay."""
    if moves is None:
        return None
    from unobot.core.journal import replay_text

    try:
        return replay_text(moves).hand_number
    except ValueError:
        return None


def game_lines(game: StoredGame, hands: int | None, url: str) -> list[str]:
    """The answer to ``.unogame``: the link when ``url`` is set, else the summary lines."""
    short = game.short_id
    when = game.started.strftime("%Y-%m-%d %H:%M")
    if url:
        return [f"Game {short} ({game.channel}, {when} UTC): {url}/game/{short}"]
    head = (
        f"Game {short} in {game.channel} ({game.preset}{', teams of two' if game.teams else ''}), "
        f"{when} UTC, {game_length(game.seconds)}"
    )
    if hands is not None:
        head += f", {_plural(hands, 'hand')}"
    entries = []
    for r in game.results:
        notes = [n for n, on in (("won", r.won), ("left", not r.finished)) if on]
        extra = f" ({', '.join(notes)})" if notes else ""
        entries.append(f"{r.place}. {_shown(r.nick)} {r.points_won}{extra}")
    return packed(head + ":", entries)


@command("unogame")
@example(".unogame")
@example(".unogame 1a2b3c4d")
@example(".unogame 42")
def unogame(ctx: Context) -> None:
    """A recorded game by its number or id (as the web site and the replay show it), or with
    no id your last one: a link to its replay, or a short summary sent to you."""
    store = _store_of(ctx)
    words = ctx.args.split()
    key = words[0] if len(words) == 1 else ""
    if words and game_key(key) is None:
        raise UnoError(
            f"usage: {ctx.prefix}unogame [id]: a game's number or its 8-character id "
            "(no id: your last game)"
        )
    if _wait(_limits_of(ctx.bot).lines_by_user, ctx.ident, ctx, "Not so fast"):
        return
    url = public_url(ctx.bot)

    def find(store: Any) -> tuple[StoredGame | None, int | None]:
        # On the database worker: the replay that counts the hands stays off the reactor.
        found: StoredGame | None = store.game(key) if key else store.last_game(ctx.ident)
        if found is None or url:
            return found, None
        return found, _hands_played(found.moves)

    def show(answer: tuple[StoredGame | None, int | None]) -> None:
        found, hands = answer
        if found is None:
            ctx.reply(
                "No recorded game has that id (or several do: give more of it)."
                if key
                else "You have no recorded game yet."
            )
            return
        lines = game_lines(found, hands, url)
        if url:  # one short line: where everyone can see it, unless a game is on here
            _send(ctx, lines, ctx.channel is not None and not _in_game_here(ctx))
        else:
            _send(ctx, lines, False)

    def unavailable(reason: str) -> None:
        log.warning("stats: %s asked for a game and got no answer (%s)", ctx.nick, reason)
        ctx.reply(UNAVAILABLE)

    ask(store, find, show, unavailable)


# --- .unorecords -----------------------------------------------------------------------------

_RECORD_WORDS = {
    "moves": "moves", "fewest": "moves", "time": "time", "fastest": "time",
    "points": "points", "biggest": "points", "hand": "points",
    "streak": "streak", "cards": "cards", "comeback": "comeback",
    "day": "day", "games": "day",
}  # fmt: skip
"""What ``.unorecords`` takes to name one record (the keys of ``RECORDS`` and a few words)."""
_EVERYWHERE = ("everywhere", "network", "channels")
"""All channels: ``.unorecords everywhere``, ``network``, or ``all channels`` as people say it."""
_CHANNEL = re.compile(r"[#&][^\x00-\x20\x7f,:]{1,49}")
_SHORT_TITLE = {
    "moves": "fewest moves", "time": "fastest", "points": "biggest hand",
    "streak": "streak", "cards": "most cards", "comeback": "comeback", "day": "games in a day",
}  # fmt: skip


@dataclass(frozen=True, slots=True)
class RecordsQuery:
    """What ``.unorecords`` asked for: ``channel`` None means all channels."""

    period: Period = Period.ALL
    channel: str | None = None
    record: str | None = None


def parse_records_query(args: str, here: str | None) -> RecordsQuery:
    """``week``/``month``/``all`` (the period, all-time by default), ``everywhere`` (all
    channels: the default in a private message) or ``#channel``, and a record's name, in any
    order. ``here``: the channel asked in (its records unless told otherwise)."""
    period = Period.ALL
    channel = here
    record: str | None = None
    for word in args.split():
        low = word.lower()
        if low in _PERIODS:
            period = _PERIODS[low]
        elif low in _EVERYWHERE:
            channel = None
        elif low == "here" and here is not None:
            channel = here
        elif low in _RECORD_WORDS and record is None:
            record = _RECORD_WORDS[low]
        elif _CHANNEL.fullmatch(word):
            channel = word
        else:
            shown = re.sub(r"[\x00-\x1f\x7f]", "?", word[:20])
            raise UnoError(
                f"'{shown}' is not week/month/all, everywhere, a #channel or a record "
                "(moves, time, points, streak, cards, comeback, day)"
            )
    return RecordsQuery(period, irc_lower(channel) if channel else None, record)


def _records_scope(query: RecordsQuery) -> str:
    where = f"in {query.channel}" if query.channel else "in all channels"
    when = {Period.WEEK: " this week", Period.MONTH: " this month", Period.ALL: ""}[query.period]
    return where + when


_UNIT = {"moves": "move", "points": "point", "cards": "card", "comeback": "card", "day": "game"}


def _figure(record: Any) -> str:
    """``7 moves``, ``4m08s``, ``1 win in a row``."""
    key, n = record.kind.key, record.figure
    if key == "time":
        return game_length(n)
    if key == "streak":
        return f"{_plural(n, 'win')} in a row"
    return _plural(n, _UNIT[key])


def records_lines(records: list[Any], query: RecordsQuery, url: str) -> list[str]:
    """The answer to ``.unorecords``: one line for one record (who, the figure, when, the
    game and its link), else every record packed into a line or two."""
    scope = _records_scope(query)
    if query.record is not None:
        if not records:
            return [f"Nobody holds that record {scope} yet."]
        r = records[0]
        where = "" if query.channel else f" in {r.channel}"
        short = r.game_id[:8]
        game = f"{url}/game/{short}" if url else f"game {short}"
        return [
            f"{r.kind.title} {scope}: {_shown(r.nick)}, {_figure(r)}, "
            f"{r.at:%Y-%m-%d %H:%M} UTC{where}, {game}"
        ]
    if not records:
        return [f"No Uno records {scope} yet."]
    entries = [f"{_SHORT_TITLE[r.kind.key]}: {_shown(r.nick)} {_figure(r)}" for r in records]
    if url:
        entries.append(f"{url}/records")
    return packed(f"Uno records {scope} (people only):", entries)


@command("unorecords")
@example(".unorecords")
@example(".unorecords week")
@example(".unorecords streak month everywhere")
def unorecords(ctx: Context) -> None:
    """The records (fewest moves and fastest time to win a hand, biggest hand, longest winning
    streak, most cards held, best comeback, most games in a day) of this channel, or of all
    channels (``everywhere``, or asked privately) or of a ``#channel``; ``week``/``month``/
    ``all``; a record's name (``moves``, ``time``, ``points``, ``streak``, ``cards``,
    ``comeback``, ``day``) for its holder, when and the game. Computer players are left out."""
    store = _store_of(ctx)
    query = parse_records_query(ctx.args, ctx.channel)
    if _wait(_limits_of(ctx.bot).lists_by_user, ctx.ident, ctx, "One list at a time"):
        return
    url = public_url(ctx.bot)

    def read(store: Any) -> list[Any] | None:
        reader = getattr(store, "records", None)
        if reader is None:
            return None
        only = None if query.record is None else [query.record]
        return reader(query.period, query.channel, only=only)  # type: ignore[no-any-return]

    def show(found: list[Any] | None) -> None:
        if found is None:
            ctx.reply("Records are kept by the SQL stats store only.")
            return
        lines = records_lines(found, query, url)
        if query.record is not None:
            _send(ctx, lines, ctx.channel is not None and not _in_game_here(ctx))
        else:
            _show_lines(ctx, lines)

    def unavailable(reason: str) -> None:
        log.warning("stats: %s asked for records and got no answer (%s)", ctx.nick, reason)
        ctx.reply(UNAVAILABLE)

    ask(store, read, show, unavailable)
