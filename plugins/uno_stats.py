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

What counts as a game (:mod:`unobot.stats.recorder`): a game counts once a hand of it has been
played out; a game stopped after that (``.unostop``, or no person left) counts for everyone in
it, won by nobody, and is shown as stopped (``.unogame``, the player's line: ``12 games (2
stopped)``); one stopped before any hand ended is not recorded. The lines of players below the
minimum games, and of a player with none, say so (:data:`GAME_RULE`), as the site does. Lists
(``.unotop10``, ``.unostats pw|ppg N``, ``rating``) rank the players with the minimum games, then
fill the rest of the list with the others, marked provisional and unnumbered, so a new
channel's list is never empty.

The commands read :class:`~unobot.stats.PlayerStats` from the same store. Answers follow the
original bot: a list asked for in a channel goes to the channel, unless a game is being played
there (then privately, so the game's lines are not buried) or it is long; a private question gets
a private answer. Leaderboards are rate-limited per user and per channel, so nobody can use the
bot to flood.

Everything said is in the translation domain ``stats``: a private reply in the asker's language
(``.unolang me``), a line said in the channel in the channel's. An answer comes back from the
database worker after the command's own ``speaking()`` block is over, so the lines are built
inside :func:`_spoken` in the language of where they go. Stored data (nicks, channels, preset
and record keys) and numbers are shown as they are; what people type (``pw``, ``week``,
``here``, ``streak``…) is the same in every language.
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
from unobot.i18n import N_, domain, speaking
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
    "player_lines",
    "public_url",
    "rating_line",
    "rating_list_lines",
]

log = logging.getLogger(__name__)
_, ngettext = domain("stats")

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
                _(
                    "'{word}' is not a nick, number, pw/ppg/rating, week/month/all or here",
                    word=shown,
                )
            )
    return StatsQuery(ranking, count, nick, period, here, rating)


# --- answers ---------------------------------------------------------------------------------

DEFAULT_RANKING = Ranking.POINTS_PER_GAME
"""The ranking when none is named (``.unotop10`` ranks by points per game)."""
TOP = 10
"""Length of a list when none is given (``.unostats pw``)."""


def _scope(query: StatsQuery, channel: str | None) -> str:
    """``this week``, ``this month in #uno``…, or "" for all time everywhere: one translated
    phrase (the period and the channel together, as each language orders them)."""
    here = channel if query.here else None
    if query.period is Period.WEEK:
        return _("this week in {channel}", channel=here) if here else _("this week")
    if query.period is Period.MONTH:
        return _("this month in {channel}", channel=here) if here else _("this month")
    return _("in {channel}", channel=here) if here else ""


def _shown(nick: str) -> str:
    """A stored nick as a line shows it: one longer than any server gives out is cut short, so
    that a line stays within LIMIT."""
    return nick if len(nick) <= 60 else nick[:59] + "…"


def _number(value: float) -> str:
    """A figure with one decimal, the same in every language (``41.7``): IRC reads a decimal
    point everywhere, and the English lines stay exactly as they were."""
    return f"{value:.1f}"


def _games(stats: PlayerStats) -> str:
    """``12 games``, or ``12 games (3 in teams)`` when some were team games (a win shared with
    a partner), ``12 games (2 stopped)`` when some were stopped (won by nobody), or both: a
    line only grows for players who have such games."""
    teams, stopped = stats.team_games, stats.stopped_games
    if teams and stopped:
        return ngettext(
            "{n} game ({teams} in teams, {stopped} stopped)",
            "{n} games ({teams} in teams, {stopped} stopped)",
            stats.games,
            teams=teams,
            stopped=stopped,
        )
    if teams:
        return ngettext(
            "{n} game ({teams} in teams)", "{n} games ({teams} in teams)", stats.games, teams=teams
        )
    if stopped:
        return ngettext(
            "{n} game ({stopped} stopped)",
            "{n} games ({stopped} stopped)",
            stats.games,
            stopped=stopped,
        )
    return ngettext("{n} game", "{n} games", stats.games)


COMPUTER = N_("a computer player (not ranked with people)")
"""Where a computer player's rank would be (in every player and rating line)."""
GAME_RULE = N_(
    "A game counts once a hand of it is played out; a stopped game counts, won by nobody."
)
"""What counts as a game, said where a player's few (or no) games may surprise them: the line
of a player below the minimum games, and every "no games" answer."""


def _provisional(min_games: int) -> str:
    return ngettext(
        "provisional (fewer than {n} game)", "provisional (fewer than {n} games)", min_games
    )


def _rank(stats: PlayerStats, ranking: Ranking, min_games: int) -> str:
    if stats.is_bot:
        return _(COMPUTER)
    if stats.rank is None:
        return _provisional(min_games)
    if ranking is Ranking.PERCENT_WINS:
        return _("rank {rank} by percent wins", rank=stats.rank)
    return _("rank {rank} by points per game", rank=stats.rank)


def stats_line(stats: PlayerStats, ranking: Ranking, min_games: int, scope: str) -> str:
    """``alice: 12 games (3 in teams), 5 wins (41.7%), 340 points, 28.3 points/game, rank 3
    by ...`` (the team and stopped games only when there are some), in the language being
    spoken: each figure is a whole translated label, the labels joined by commas. A person
    below ``min_games`` is provisional (:func:`player_lines` then adds what counts as a
    game)."""
    # A message of its own so that a translated scope is spoken again with the line.
    who = _("{nick} ({scope})", nick=_shown(stats.nick), scope=scope) if scope else None
    figures = [
        _games(stats),
        ngettext(
            "{n} win ({percent}%)",
            "{n} wins ({percent}%)",
            stats.wins,
            percent=_number(stats.percent_wins),
        ),
        ngettext("{n} point", "{n} points", stats.points),
        _("{figure} points/game", figure=_number(stats.points_per_game)),
        _rank(stats, ranking, min_games),
    ]
    return f"{who or _shown(stats.nick)}: " + ", ".join(figures)


def player_lines(stats: PlayerStats, ranking: Ranking, min_games: int, scope: str) -> list[str]:
    """The answer to a player's ``.unostats``: :func:`stats_line`, and for a person below
    ``min_games`` what counts as a game (:data:`GAME_RULE`): on the same line, or on a second
    one when both would not fit in LIMIT bytes."""
    line = stats_line(stats, ranking, min_games, scope)
    if stats.games >= min_games or stats.is_bot:
        return [line]
    joined = _ruled(f"{line}.")
    return [joined] if len(joined.encode()) <= LIMIT else [line, _(GAME_RULE)]


def _list_head(ranking: Ranking, count: int, scope: str) -> str:
    if ranking is Ranking.PERCENT_WINS:
        if scope:
            return _("Uno top {count} by percent wins (games) {scope}:", count=count, scope=scope)
        return _("Uno top {count} by percent wins (games):", count=count)
    if scope:
        return _("Uno top {count} by points per game (games) {scope}:", count=count, scope=scope)
    return _("Uno top {count} by points per game (games):", count=count)


def list_lines(
    board: list[PlayerStats], ranking: Ranking, count: int, scope: str, min_games: int = 5
) -> list[str]:
    """A header and ``1. alice 41.3 (12)`` entries (``(12, 3 in teams)`` for a player with
    team games), several to a line of at most LIMIT bytes, never splitting an entry. The
    players below ``min_games`` (``rank`` None) come last, unnumbered, after ``provisional
    (fewer than 5 games):``."""
    entries = []
    for s in board:
        figure = (
            f"{_number(s.percent_wins)}%"
            if ranking is Ranking.PERCENT_WINS
            else _number(s.points_per_game)
        )
        nick = _shown(s.nick)
        if s.team_games:
            entry = _(
                "{nick} {figure} ({games}, {teams} in teams)",
                nick=nick,
                figure=figure,
                games=s.games,
                teams=s.team_games,
            )
        else:
            entry = f"{nick} {figure} ({s.games})"
        entries.append(entry if s.rank is None else f"{s.rank}. {entry}")
    return packed(_list_head(ranking, count, scope), _marked(board, entries, min_games))


def _marked(board: list[Any], entries: list[str], min_games: int, rated: bool = False) -> list[str]:
    """``entries`` with the first provisional one (``rank`` None) led by the words that say
    it and all after it are provisional (``rated``: fewer rated games)."""
    first = next((i for i, p in enumerate(board) if p.rank is None), None)
    if first is None:
        return entries
    entries = list(entries)
    if rated:
        entries[first] = ngettext(
            "provisional (fewer than {n} rated game): {entry}",
            "provisional (fewer than {n} rated games): {entry}",
            min_games,
            entry=entries[first],
        )
    else:
        entries[first] = ngettext(
            "provisional (fewer than {n} game): {entry}",
            "provisional (fewer than {n} games): {entry}",
            min_games,
            entry=entries[first],
        )
    return entries


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
        figure = ngettext(
            "rating {rating}, provisional ({games} of {n} rated game)",
            "rating {rating}, provisional ({games} of {n} rated games)",
            min_games,
            rating=shown,
            games=rated.games,
        )
    else:
        figure = ngettext(
            "rating {rating} ({n} rated game)",
            "rating {rating} ({n} rated games)",
            rated.games,
            rating=shown,
        )
    if rated.is_bot:
        rank = _(COMPUTER)
    elif rated.rank is not None:
        rank = _("rank {rank} by rating", rank=rated.rank)
    else:
        rank = _("not ranked yet")
    return f"{_shown(rated.nick)}: {figure}, {rank}"


def rating_list_lines(board: list[RatedPlayer], count: int, min_games: int = 5) -> list[str]:
    """A header and ``1. alice 612 (42)`` entries, packed like :func:`list_lines` (those rated
    in fewer than ``min_games`` games last, unnumbered, marked provisional)."""
    entries = [
        f"{r.rank}. {_shown(r.nick)} {conservative(r.mu, r.sigma)} ({r.games})"
        if r.rank is not None
        else f"{_shown(r.nick)} {conservative(r.mu, r.sigma)} ({r.games})"
        for r in board
    ]
    return packed(
        _("Uno top {count} by rating (games):", count=count),
        _marked(board, entries, min_games, rated=True),
    )


UNAVAILABLE = N_("Stats are unavailable right now.")
"""The answer when the stats database does not answer (down, stalled or refusing); translated
where it is said (``_(UNAVAILABLE)``)."""
RATINGS_ALL_TIME = N_("ratings are all-time and network-wide: no week, month or here")
"""Refusing ``week``/``month``/``here`` with ratings (the words as typed, in every language)."""

_CHANNEL_LINES = 2
"""Longer lists always go privately (the channel shouldn't scroll for one person's question)."""


def _store_of(ctx: Context) -> StatsStore:
    store = ctx.bot.store
    if store is None:
        raise UnoError(_("Stats are off on this bot."))
    return store


def _in_game_here(ctx: Context) -> bool:
    channel = ctx.channel
    table = ctx.bot.tables.get(irc_lower(channel)) if channel is not None else None
    return table is not None and table.dealt


Lines = Callable[[], list[str]]
"""Makes an answer's lines in the language being spoken (called inside :func:`_spoken`)."""


def _spoken(ctx: Context, public: bool, make: Lines) -> list[str]:
    """``make()`` in the language of where its lines go: the channel's when they are said
    there, else the asker's own. (The answer comes from the database worker, outside the
    command's ``speaking()``; and a line joined from several messages is a plain ``str`` that
    can't be spoken again later.)"""
    channel = ctx.channel if public else None
    with speaking(ctx.bot.channel_language(channel) if channel else ctx.language):
        return make()


def _ruled(sentence: str) -> str:
    """``sentence`` and then what counts as a game (:data:`GAME_RULE`), in the language being
    spoken."""
    return f"{sentence} {_(GAME_RULE)}"


def _tell(ctx: Context, make: Callable[[], str]) -> None:
    """A private answer joined from several messages, made in the asker's language (a joined
    line is a plain ``str``, which :meth:`Context.reply` can't say again in another)."""
    with speaking(ctx.language):
        text = make()
    ctx.reply(text)


def _send(ctx: Context, make: Lines, public: bool) -> None:
    public = public and ctx.channel is not None
    for text in _spoken(ctx, public, make):
        if public and ctx.channel is not None:
            ctx.bot.send(Line("privmsg", ctx.channel, text, ctx.reply_tag()))
        else:
            ctx.reply(text)


Refusal = Callable[[int], str]
"""The reply to a request that must wait, given the whole seconds left."""


def _not_so_fast(seconds: int) -> str:
    return ngettext("Not so fast: try again in {n}s.", "Not so fast: try again in {n}s.", seconds)


def _one_list(seconds: int) -> str:
    return ngettext(
        "One list at a time: try again in {n}s.", "One list at a time: try again in {n}s.", seconds
    )


def _list_shown(seconds: int) -> str:
    return ngettext(
        "A list was just shown here (ask me privately, or wait): try again in {n}s.",
        "A list was just shown here (ask me privately, or wait): try again in {n}s.",
        seconds,
    )


def _wait(limit: Cooldown, key: str, ctx: Context, refusal: Refusal) -> bool:
    """True if the request must wait (and the user was told, once per window)."""
    left = limit.take(key, ctx.now)
    if left <= 0:
        return False
    if limit.tell(key):
        ctx.reply(refusal(math.ceil(left)))
    return True


def _answer(ctx: Context, query: StatsQuery, *, listing: bool) -> None:
    store = _store_of(ctx)
    bot = ctx.bot
    cfg = bot.config
    if query.here and ctx.channel is None:
        raise UnoError(_("'here' works in a channel only"))
    channel = irc_lower(ctx.channel) if query.here and ctx.channel is not None else None
    limits = _limits_of(bot)
    scope = _scope(query, ctx.channel)

    def unavailable(reason: str) -> None:
        log.warning("stats: %s asked and got no answer (%s)", ctx.nick, reason)
        ctx.reply(_(UNAVAILABLE))

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
                ranking,
                count,
                query.period,
                channel,
                min_games=cfg.stats_min_games,
                provisional=True,
            )

        ask(store, board, lambda found: _show_list(ctx, found, ranking, count, scope), unavailable)
        return
    if _wait(limits.lines_by_user, ctx.ident, ctx, _not_so_fast):
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
        raise UnoError(
            ngettext(
                "a list has 1 to {n} player", "a list has 1 to {n} players", cfg.stats_max_list
            )
        )
    if _wait(_limits_of(ctx.bot).lists_by_user, ctx.ident, ctx, _one_list):
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
        raise UnoError(_(RATINGS_ALL_TIME))
    if listing:
        count = _list_count(ctx, query)
        if count is None:
            return

        def board(store: Any) -> list[RatedPlayer]:
            return store.rating_leaderboard(  # type: ignore[no-any-return]
                count, min_games=cfg.stats_min_games, provisional=True
            )

        def show(found: list[RatedPlayer]) -> None:
            if not found:
                _tell(ctx, lambda: _ruled(_("Nobody has a rating yet.")))
                return
            _show_lines(ctx, lambda: rating_list_lines(found, count, cfg.stats_min_games))

        ask(store, board, show, unavailable)
        return
    if _wait(limits.lines_by_user, ctx.ident, ctx, _not_so_fast):
        return
    name = query.nick or ctx.ident

    def player(store: Any) -> RatedPlayer | None:
        return store.rating(name, min_games=cfg.stats_min_games)  # type: ignore[no-any-return]

    def show_player(found: RatedPlayer | None) -> None:
        if found is None:
            ctx.reply(
                _("No rated Uno games recorded for {nick}.", nick=query.nick)
                if query.nick
                else _("No rated Uno games recorded for you.")
            )
            return
        public = ctx.channel is not None and not _in_game_here(ctx)
        _send(ctx, lambda: [rating_line(found, cfg.stats_min_games)], public)

    ask(store, player, show_player, unavailable)


def _show_list(
    ctx: Context, board: list[PlayerStats], ranking: Ranking, count: int, scope: str
) -> None:
    """The answer to a list, on the reactor once the store replied."""
    cfg = ctx.bot.config
    if not board:

        def nobody() -> str:
            if scope:
                return _ruled(_("Nobody has played Uno yet {scope}.", scope=scope))
            return _ruled(_("Nobody has played Uno yet."))

        _tell(ctx, nobody)
        return
    _show_lines(ctx, lambda: list_lines(board, ranking, count, scope, cfg.stats_min_games))


def _show_lines(ctx: Context, make: Lines) -> None:
    """A list's lines: in the channel when short and no game is on there, else privately.
    "Short" is counted in the channel's language (German and Polish lines run longer)."""
    limits = _limits_of(ctx.bot)
    public = ctx.channel is not None and not _in_game_here(ctx)
    if public and len(_spoken(ctx, True, make)) > _CHANNEL_LINES:
        public = False
    if public and _wait(limits.lists_by_channel, irc_lower(ctx.channel or ""), ctx, _list_shown):
        limits.lists_by_user.release(ctx.ident)  # so asking privately works at once
        return
    _send(ctx, make, public)


def _show_player(
    ctx: Context, query: StatsQuery, stats: PlayerStats | None, ranking: Ranking, scope: str
) -> None:
    """The answer to a player's line, on the reactor once the store replied."""
    cfg = ctx.bot.config
    if stats is None:
        if query.nick:  # somebody else (or a typo): no lesson
            ctx.reply(_no_games(query.nick, scope))
        else:
            _tell(ctx, lambda: _ruled(_no_games(None, scope)))
        return
    public = ctx.channel is not None and not _in_game_here(ctx)
    _send(ctx, lambda: player_lines(stats, ranking, cfg.stats_min_games, scope), public)


def _no_games(nick: str | None, scope: str) -> str:
    """No games for ``nick`` (None: the asker) in ``scope``: four whole sentences."""
    if nick:
        if scope:
            return _("No Uno games recorded for {nick} {scope}.", nick=nick, scope=scope)
        return _("No Uno games recorded for {nick}.", nick=nick)
    if scope:
        return _("No Uno games recorded for you {scope}.", scope=scope)
    return _("No Uno games recorded for you.")


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
        raise UnoError(
            _(
                "{command} takes only rating, week, month, all or here",
                command=f"{ctx.prefix}unotop10",
            )
        )
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
        raise UnoError(_("{command} takes only a nick", command=f"{ctx.prefix}unorating"))
    if query.here:
        raise UnoError(_(RATINGS_ALL_TIME))
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
    """The answer to ``.unogame``: the link when ``url`` is set, else the summary lines. A
    stopped game says so (``stopped in hand 3``), and nobody in it is shown as having won."""
    short = game.short_id
    when = game.started.strftime("%Y-%m-%d %H:%M")
    if url:
        link = {"id": short, "channel": game.channel, "when": when, "url": f"{url}/game/{short}"}
        if game.stopped:
            return [_("Game {id} ({channel}, {when} UTC, stopped): {url}", **link)]
        return [_("Game {id} ({channel}, {when} UTC): {url}", **link)]
    known = {
        "id": short,
        "channel": game.channel,
        "preset": game.preset,
        "when": when,
        "length": game_length(game.seconds),
    }
    if game.teams:
        head = _("Game {id} in {channel} ({preset}, a team game), {when} UTC, {length}", **known)
    else:
        head = _("Game {id} in {channel} ({preset}), {when} UTC, {length}", **known)
    if game.stopped:
        # The hand in play when it was stopped: the ones before it were played out.
        played = _("stopped") if hands is None else _("stopped in hand {n}", n=hands)
        head = f"{head}, {played}"
    elif hands is not None:
        played = ngettext("{n} hand", "{n} hands", hands)
        head = f"{head}, {played}"
    entries = []
    for r in game.results:
        entry = f"{r.place}. {_shown(r.nick)} {r.points_won}"
        if r.won and not r.finished:
            entry = _("{entry} (won, left)", entry=entry)
        elif r.won:
            entry = _("{entry} (won)", entry=entry)
        elif not r.finished:
            entry = _("{entry} (left)", entry=entry)
        entries.append(entry)
    return packed(f"{head}:", entries)


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
            _(
                "usage: {command} [id]: a game's number or its 8-character id "
                "(no id: your last game)",
                command=f"{ctx.prefix}unogame",
            )
        )
    if _wait(_limits_of(ctx.bot).lines_by_user, ctx.ident, ctx, _not_so_fast):
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
            if key:
                ctx.reply(_("No recorded game has that id (or several do: give more of it)."))
            else:
                _tell(ctx, lambda: _ruled(_("You have no recorded game yet.")))
            return

        def lines() -> list[str]:
            return game_lines(found, hands, url)

        if url:  # one short line: where everyone can see it, unless a game is on here
            _send(ctx, lines, ctx.channel is not None and not _in_game_here(ctx))
        else:
            _send(ctx, lines, False)

    def unavailable(reason: str) -> None:
        log.warning("stats: %s asked for a game and got no answer (%s)", ctx.nick, reason)
        ctx.reply(_(UNAVAILABLE))

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
    "moves": N_("fewest moves"), "time": N_("fastest"), "points": N_("biggest hand"),
    "streak": N_("streak"), "cards": N_("most cards"), "comeback": N_("comeback"),
    "day": N_("games in a day"),
}  # fmt: skip
"""Each record's name in a summary line (by the kind's stored key), translated where shown."""
_TITLE = {
    "moves": N_("Fastest win (moves)"), "time": N_("Fastest win (time)"),
    "points": N_("Biggest hand won"), "streak": N_("Longest winning streak"),
    "cards": N_("Most cards held at once"), "comeback": N_("Best comeback"),
    "day": N_("Most games in a day"),
}  # fmt: skip
"""Each record's title as ``RecordKind.title`` (stored and shown by the site in English)
says it, for the one-record reply in the language being spoken."""


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
                _(
                    "'{word}' is not week/month/all, everywhere, a #channel or a record "
                    "(moves, time, points, streak, cards, comeback, day)",
                    word=shown,
                )
            )
    return RecordsQuery(period, irc_lower(channel) if channel else None, record)


def _records_scope(query: RecordsQuery) -> str:
    """``in #uno this week``, ``in all channels``…: one translated phrase."""
    channel, period = query.channel, query.period
    if channel:
        if period is Period.WEEK:
            return _("in {channel} this week", channel=channel)
        if period is Period.MONTH:
            return _("in {channel} this month", channel=channel)
        return _("in {channel}", channel=channel)
    if period is Period.WEEK:
        return _("in all channels this week")
    if period is Period.MONTH:
        return _("in all channels this month")
    return _("in all channels")


def _figure(record: Any) -> str:
    """``7 moves``, ``4m08s``, ``1 win in a row``."""
    key, n = record.kind.key, record.figure
    if key == "time":
        return game_length(n)
    if key == "streak":
        return ngettext("{n} win in a row", "{n} wins in a row", n)
    if key == "moves":
        return ngettext("{n} move", "{n} moves", n)
    if key == "points":
        return ngettext("{n} point", "{n} points", n)
    if key == "day":
        return ngettext("{n} game", "{n} games", n)
    return ngettext("{n} card", "{n} cards", n)  # most cards held, and cards at a comeback


def _title(record: Any, titles: dict[str, str]) -> str:
    """A record kind's name in the language being spoken (its stored English title for a
    kind this table does not know yet)."""
    key = record.kind.key
    return _(titles[key]) if key in titles else str(record.kind.title)


def records_lines(records: list[Any], query: RecordsQuery, url: str) -> list[str]:
    """The answer to ``.unorecords``: one line for one record (who, the figure, when, the
    game and its link), else every record packed into a line or two."""
    scope = _records_scope(query)
    if query.record is not None:
        if not records:
            return [_("Nobody holds that record {scope} yet.", scope=scope)]
        r = records[0]
        short = r.game_id[:8]
        known = {
            "title": _title(r, _TITLE),
            "scope": scope,
            "nick": _shown(r.nick),
            "figure": _figure(r),
            "when": f"{r.at:%Y-%m-%d %H:%M}",
            "game": f"{url}/game/{short}" if url else _("game {id}", id=short),
        }
        if query.channel:
            return [_("{title} {scope}: {nick}, {figure}, {when} UTC, {game}", **known)]
        return [
            _(
                "{title} {scope}: {nick}, {figure}, {when} UTC in {channel}, {game}",
                channel=r.channel,
                **known,
            )
        ]
    if not records:
        return [_("No Uno records {scope} yet.", scope=scope)]
    entries = [f"{_title(r, _SHORT_TITLE)}: {_shown(r.nick)} {_figure(r)}" for r in records]
    if url:
        entries.append(f"{url}/records")
    return packed(_("Uno records {scope} (people only):", scope=scope), entries)


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
    if _wait(_limits_of(ctx.bot).lists_by_user, ctx.ident, ctx, _one_list):
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
            ctx.reply(_("Records are kept by the SQL stats store only."))
            return

        def lines() -> list[str]:
            return records_lines(found, query, url)

        if query.record is not None:
            _send(ctx, lines, ctx.channel is not None and not _in_game_here(ctx))
        else:
            _show_lines(ctx, lines)

    def unavailable(reason: str) -> None:
        log.warning("stats: %s asked for records and got no answer (%s)", ctx.nick, reason)
        ctx.reply(_(UNAVAILABLE))

    ask(store, read, show, unavailable)
