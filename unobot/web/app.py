"""The stats site as an ASGI application (Starlette): routes, pages, errors, timing.

Every page has its JSON twin under ``/api``. Endpoints are plain functions, so Starlette runs
them in its thread pool (a few threads: the database, not Python, is the work) and a slow
query never blocks the event loop. The database is only read (:mod:`unobot.web.queries`);
a schema older than v5 gets a page saying to run the bot once (which migrates it), never a
migration from here.

Links are root-relative paths built from the route names plus the request's ``root_path``, so
the site works behind a reverse proxy under a sub-path (``unobot web --root-path /uno``).
"""

from __future__ import annotations

import contextlib
import hashlib
import io
import logging
import re
import threading
import time
from collections.abc import AsyncIterator, Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any
from urllib.parse import quote, urlencode

import anyio.to_thread
import jinja2
import markupsafe
import peewee as pw
from babel.dates import format_date, format_datetime
from starlette.applications import Starlette
from starlette.datastructures import MutableHeaders
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles
from starlette.templating import Jinja2Templates
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from unobot.i18n import N_, catalog, domain, language
from unobot.irc.casemap import irc_lower
from unobot.stats import live_rows
from unobot.stats.model import Period, game_key
from unobot.stats.ratings import conservative, explained
from unobot.stats.summaries import period_start
from unobot.tournament.export import export_csv
from unobot.tournament.words import note_text, stage_text
from unobot.web import charts
from unobot.web import lang as site_lang
from unobot.web.cards import card_view, color_name
from unobot.web.lang import LanguageMiddleware, html_lang, switch_links
from unobot.web.pages import (
    board_json,
    game_json,
    player_json,
    replay_view,
    tournament_json,
    tournament_summary_json,
)
from unobot.web.params import (
    PERIOD_NAMES,
    RANKING_NAMES,
    BadParameter,
    LeaderboardQuery,
    RecordsQuery,
    leaderboard_query,
    records_query,
)
from unobot.web.queries import (
    DB_ERRORS,
    NEEDED_VERSION,
    Choices,
    Reader,
    TournamentHead,
    link_key,
    tournament_head,
    tournament_heads,
    tournament_stored,
)
from unobot.web.tournaments import (
    TournamentView,
    ViewCache,
    format_label,
)

__all__ = ["LIVE_HEADER", "Problem", "ServerTiming", "create_app", "live_page"]

log = logging.getLogger(__name__)
_, ngettext = domain("web")

HERE = Path(__file__).resolve().parent
TEMPLATES = HERE / "templates"
STATIC = HERE / "static"
THREADS = 8
"""Worker threads for the endpoints (each keeps its own database connection)."""
CHOICES_SECONDS = 60.0
"""How long the leaderboard form's channel and network lists are reused."""
SECURITY_HEADERS = {
    # pygal's SVG carries its own <style>: inline styles allowed, inline scripts not.
    "Content-Security-Policy": "default-src 'self'; style-src 'self' 'unsafe-inline'; "
    "img-src 'self' data:; frame-ancestors 'none'; base-uri 'none'; form-action 'self'",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "same-origin",
}


class Problem(Exception):
    """A request the site answers with an error page (or JSON under /api): ``status`` and a
    sentence for the reader."""

    def __init__(self, status: int, title: str, message: str) -> None:
        super().__init__(message)
        self.status, self.title, self.message = status, title, message


class ServerTiming:
    """ASGI middleware: ``Server-Timing: app;dur=<ms>`` on every response, the time from the
    request's arrival to its response's start (what ``python -m unobot.bench web`` reads)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        start = time.perf_counter()
        scope = _unprefixed(scope)

        async def timed(message: Message) -> None:
            if message["type"] == "http.response.start":
                took = (time.perf_counter() - start) * 1000
                headers = MutableHeaders(scope=message)
                headers.append("Server-Timing", f"app;dur={took:.2f}")
                for name, value in SECURITY_HEADERS.items():
                    if name not in headers:
                        headers[name] = value
            await send(message)

        await self.app(scope, receive, timed)


def _unprefixed(scope: Scope) -> Scope:
    """``scope`` with its root path once, whether or not the reverse proxy stripped it.

    uvicorn's ``root_path`` means the proxy removed the prefix (nginx ``proxy_pass
    http://127.0.0.1:8080/;``) and prepends it to the path again; a proxy that passes the path
    as is (``proxy_pass http://127.0.0.1:8080;``) would then give ``/uno/uno/...``, which no
    route matches. Both set-ups work: a doubled prefix loses one copy."""
    root = scope.get("root_path", "")
    path = scope.get("path", "")
    if not root or not path.startswith(root + root):
        return scope
    rest = path[len(root) * 2 :]
    if rest and not rest.startswith("/"):
        return scope
    raw = scope.get("raw_path")
    if isinstance(raw, bytes) and raw.startswith(root.encode() * 2):
        raw = raw[len(root.encode()) :]
    return {**scope, "path": path[len(root) :], "raw_path": raw}


FAVICON = (STATIC / "favicon.svg").read_bytes()


def favicon(request: Request) -> Response:
    """``/favicon.ico``, which browsers and feed readers ask for whatever the page links: the
    site's SVG icon (browsers read an icon by its content, not its name), not a 404 in every
    log."""
    return Response(
        FAVICON, media_type="image/svg+xml", headers={"Cache-Control": "public, max-age=86400"}
    )


def _static_version() -> str:
    """A digest of the static files, appended to their links so a new release's CSS and
    script are fetched, not taken from a browser's cache."""
    digest = hashlib.sha256()
    for path in sorted(STATIC.iterdir()):
        if path.is_file():
            digest.update(path.name.encode() + path.read_bytes())
    return digest.hexdigest()[:10]


def _duration(seconds: int | None) -> str:
    seconds = int(seconds or 0)
    hours, rest = divmod(seconds, 3600)
    minutes, secs = divmod(rest, 60)
    if hours:
        return f"{hours}h {minutes:02d}m"
    if minutes:
        return f"{minutes}m {secs:02d}s"
    return f"{secs}s"


def _locale() -> str | None:
    """Babel's locale for the language being spoken; None for English, whose figures keep
    the site's own plain forms (``2026-11-20 18:04 UTC``, ``41.7 %``)."""
    return site_lang.babel_locale()


def _when(at: float | datetime | None) -> str:
    """Epoch seconds or a naive-UTC datetime as ``2026-11-20 18:04 UTC`` (in another
    language, Babel's medium date and time of that language, in UTC)."""
    if at is None:
        return ""
    if isinstance(at, datetime):
        when = at if at.tzinfo else at.replace(tzinfo=UTC)
    else:
        when = datetime.fromtimestamp(at, UTC)
    loc = _locale()
    if loc is None:
        return f"{when:%Y-%m-%d %H:%M} UTC"
    return f"{format_datetime(when, 'medium', tzinfo=UTC, locale=loc)} UTC"


def _percent(share: float | None) -> str:
    if share is None:
        return "–"
    loc = _locale()
    if loc is None:
        return f"{share * 100:.1f} %"
    return site_lang.format_number(share, "#,##0.0\u00a0%", loc)


def _decimal(value: float | None) -> str:
    """One decimal place, in the language's own notation (``12,5`` in German)."""
    if value is None:
        return "–"
    loc = _locale()
    return f"{value:.1f}" if loc is None else site_lang.format_number(value, "#,##0.0", loc)


def _jinja_gettext(message: str) -> str:
    """The template's ``_`` and ``{% trans %}``: the web catalogue of the language being
    spoken (Jinja's new-style gettext formats the placeholders and escapes them)."""
    return catalog(language(), "web").gettext(message)


def _jinja_ngettext(singular: str, plural: str, n: int) -> str:
    return catalog(language(), "web").ngettext(singular, plural, n)


RECORD_TITLES = {
    "moves": N_("Fastest win (moves)"),
    "time": N_("Fastest win (time)"),
    "points": N_("Biggest hand won"),
    "streak": N_("Longest winning streak"),
    "cards": N_("Most cards held at once"),
    "comeback": N_("Best comeback"),
    "day": N_("Most games in a day"),
}
"""The records' titles (the stats store names them in English) for the page."""


def _record_title(kind: Any) -> str:
    title = RECORD_TITLES.get(kind.key)
    return kind.title if title is None else _(title)


def _record_unit(kind: Any, figure: int) -> str:
    """The unit after a record's figure, in the plural form the figure takes."""
    n = int(figure)
    units = {
        "moves": lambda: ngettext("move", "moves", n),
        "points": lambda: ngettext("point", "points", n),
        "streak": lambda: ngettext("win in a row", "wins in a row", n),
        "cards": lambda: ngettext("card", "cards", n),
        "comeback": lambda: ngettext("card held in a hand won", "cards held in a hand won", n),
        "day": lambda: ngettext("game", "games", n),
    }
    unit = units.get(kind.key)
    return kind.unit if unit is None else unit()


STATUS_NAMES = {
    "signup": N_("signup"),
    "running": N_("running"),
    "done": N_("done"),
    "cancelled": N_("cancelled"),
}


def _status_name(status: str) -> str:
    """A tournament's status as the page says it (the CSS class keeps the stored word; the
    English is the stored word itself, "signup", as the pages always said it)."""
    name = STATUS_NAMES.get(status)
    return status if name is None else _(name)


RECORD_KINDS = {
    "correction": N_("correction"),
    "penalty": N_("penalty"),
    "removal": N_("removal"),
    "substitution": N_("substitution"),
    "cancellation": N_("cancellation"),
}


def _record_kind(kind: str) -> str:
    """A tournament record's kind as the page says it (the CSS class keeps the stored word)."""
    name = RECORD_KINDS.get(kind)
    return kind if name is None else _(name)


def _translate(message: str, **params: Any) -> str:
    """A label kept in Python (``N_`` constants: ranking and period names, tournament
    stages) said in the page's language, for templates."""
    return _(message, **params)


class Site:
    """The application's state: the reader, the templates, and the cached form choices."""

    def __init__(self, reader: Reader, min_games: int) -> None:
        self.reader = reader
        self.min_games = min_games
        self._version_ok = False
        self._choices: tuple[float, Choices] | None = None
        self._lock = threading.Lock()
        self.tournaments = ViewCache()
        env = jinja2.Environment(
            loader=jinja2.FileSystemLoader(TEMPLATES),
            autoescape=True,
            trim_blocks=True,
            lstrip_blocks=True,
            undefined=jinja2.StrictUndefined,
            extensions=["jinja2.ext.i18n"],
        )
        # One environment for every language: the callables read the language being spoken.
        env.install_gettext_callables(  # type: ignore[attr-defined]
            _jinja_gettext, _jinja_ngettext, newstyle=True
        )
        env.filters["duration"] = _duration
        env.filters["percent"] = _percent
        env.filters["when"] = _when
        env.filters["decimal"] = _decimal
        env.globals["tr"] = _translate
        env.globals["Markup"] = markupsafe.Markup
        env.globals["record_title"] = _record_title
        env.globals["record_unit"] = _record_unit
        env.globals["status_name"] = _status_name
        env.globals["record_kind"] = _record_kind
        # The tournament's own words for stages and standings notes (stored in English).
        env.globals["stage_label"] = stage_text
        env.filters["stage_label"] = stage_text
        env.globals["note_label"] = note_text
        env.globals["format_label"] = format_label
        env.globals["color_name"] = color_name
        self.static_version = _static_version()
        env.globals["PERIOD_NAMES"] = PERIOD_NAMES
        env.globals["RANKING_NAMES"] = RANKING_NAMES
        # Ratings read as on IRC: provisional below the bot's minimum games, one sentence.
        env.globals["PROVISIONAL_GAMES"] = min_games
        self.templates = Jinja2Templates(env=env)

    # -- reading ---------------------------------------------------------------------------

    def read(self, fn: Callable[[Reader], Any]) -> Any:
        """``fn(reader)`` once the schema is known to be new enough; database trouble is a
        503 page, not a traceback."""
        try:
            if not self._version_ok:
                version = self._schema_version()
                if version < NEEDED_VERSION:
                    if version == 0:
                        message = _(
                            "The stats database has no stats tables yet; the site needs "
                            "v{needed}. Run the bot once to upgrade the database, then reload "
                            "this page.",
                            needed=NEEDED_VERSION,
                        )
                    else:
                        message = _(
                            "The stats database is at v{version}; the site needs v{needed}. "
                            "Run the bot once to upgrade the database, then reload this page.",
                            version=version,
                            needed=NEEDED_VERSION,
                        )
                    raise Problem(503, _("Database not ready"), message)
                self._version_ok = True
            return fn(self.reader)
        except DB_ERRORS as err:
            self.reader.reset()
            log.warning("stats database unavailable: %s", err)
            raise Problem(
                503, _("Stats unavailable"), _("The stats database can't be reached right now.")
            ) from None

    def _schema_version(self) -> int:
        try:
            rows = self.reader._rows("SELECT MAX(version) FROM schema_version")
        except DB_ERRORS:
            self.reader.reset()
            if self._table_missing():
                return 0
            raise
        return int(rows[0][0] or 0) if rows else 0

    def _table_missing(self) -> bool:
        try:
            return not self.reader.db.table_exists("schema_version")
        except DB_ERRORS:
            return False

    def choices(self) -> Choices:
        now = time.monotonic()
        with self._lock:
            cached = self._choices
        if cached is not None and now - cached[0] < CHOICES_SECONDS:
            return cached[1]
        fresh = self.reader.choices()
        with self._lock:
            self._choices = (now, fresh)
        return fresh

    # -- links -----------------------------------------------------------------------------

    @staticmethod
    def link(
        request: Request, name: str, query: dict[str, str] | None = None, **params: str
    ) -> str:
        """The root-relative URL of route ``name`` (path parameters quoted, so any nick
        makes a working link), under the request's root path."""
        quoted = {k: quote(str(v), safe="") for k, v in params.items()}
        path = request.scope.get("root_path", "") + str(request.app.url_path_for(name, **quoted))
        return f"{path}?{urlencode(query)}" if query else path

    def player_link(self, request: Request) -> Callable[[str, str], str]:
        def link(nick: str, network: str) -> str:
            query = {"network": network} if network else None
            return self.link(request, "player", query, nick=nick)

        return link

    def game_link(self, request: Request) -> Callable[[str], str]:
        return lambda key: self.link(request, "game", key=key)

    def render(
        self, request: Request, template: str, status: int = 200, **context: Any
    ) -> Response:
        def link(name: str, query: dict[str, str] | None = None, **params: str) -> str:
            return self.link(request, name, query, **params)

        def static(path: str) -> str:
            return self.link(request, "static", {"v": self.static_version}, path=path)

        context.setdefault("api_url", None)
        context.setdefault("live_version", None)
        context["html_lang"] = html_lang()
        context["languages"] = switch_links(request.url.path, request.url.query)
        # The bot's own sentence (.unorating says it on IRC), in the page's language.
        context["RATING_EXPLAINED"] = explained(self.min_games)
        context["WHAT_COUNTS"] = _(WHAT_COUNTS)
        return self.templates.TemplateResponse(
            request,
            template,
            {
                "link": link,
                "static": static,
                "player_link": self.player_link(request),
                "game_link": self.game_link(request),
                **context,
            },
            status_code=status,
        )


WHAT_COUNTS = N_(
    "A game counts once a hand of it has been played out. A game stopped after that (.unostop, "
    "or when no person is left) counts for everyone in it, is won by nobody and is marked "
    "stopped; one stopped before any hand ended is not recorded."
)
"""What counts as a game, said where games are counted (the leaderboards, a player's page),
as the bot says it on IRC (``plugins.uno_stats.GAME_RULE``)."""

LIVE_HEADER = "X-Live-Version"
"""The header :file:`static/live.js` polls with: the version of the page it shows."""


def live_page(
    request: Request, version: str | None, make: Callable[[str | None], Response]
) -> Response:
    """A page that updates itself (``static/live.js``): 204 when the poller already shows
    ``version``, else ``make(version)``, which renders with ``live_version=version``.
    ``version``: a short string that changes whenever the page would (e.g. the newest entry's
    number and the live table's stamp), cheap to compute — it is asked for once a second per
    open page; ``""`` marks a page that will never change again (polling stops) and ``None``
    a page that is not live."""
    seen = request.headers.get(LIVE_HEADER)
    if version and seen is not None and seen == version:
        return Response(status_code=204, headers={"Cache-Control": "no-store"})
    response = make(version)
    if seen is not None:
        response.headers["Cache-Control"] = "no-store"
    return response


def _site(request: Request) -> Site:
    return request.app.state.site


def _leaderboard_query(request: Request, site: Site) -> LeaderboardQuery:
    try:
        return leaderboard_query(request.query_params, site.min_games)
    except BadParameter as err:
        raise Problem(400, _("Bad request"), str(err)) from None


def _form_choices(choices: Choices, channel: str, network: str) -> dict[str, Any]:
    """The channel and network lists of a leaderboard-like form (leaderboards, records), with
    the one asked for still shown chosen when it has no data yet."""
    selected = irc_lower(channel)
    channels = list(choices.channels)
    if selected and selected not in channels:
        channels.insert(0, selected)
    networks = list(choices.networks)
    if network and network not in networks:
        networks.insert(0, network)
    return {"channels": channels, "networks": networks, "selected_channel": selected}


def leaderboard_page(request: Request) -> Response:
    site = _site(request)
    query = _leaderboard_query(request, site)

    def read(reader: Reader) -> tuple[Any, Choices]:
        board = reader.leaderboard(
            query.ranking, query.period, query.channel, query.network, query.min_games,
            query.limit, query.bots,
        )  # fmt: skip
        return board, site.choices()

    board, choices = site.read(read)
    return site.render(
        request,
        "leaderboard.html",
        board=board,
        query=query,
        **_form_choices(choices, query.channel, query.network),
        week_start=_period_start(query.period, site.reader.clock()),
        api_url=site.link(request, "api_leaderboard", query.params()),
    )


def _period_start(period: Period, now: datetime) -> str:
    """ "Monday 16 November 2026": when this week or month began (UTC)."""
    if period is Period.ALL:
        return ""
    start = period_start(period, now)
    loc = _locale()
    if loc is None:
        return f"{start:%A} {start.day} {start:%B %Y}"
    return format_date(start, "full", locale=loc)


def leaderboard_api(request: Request) -> Response:
    site = _site(request)
    query = _leaderboard_query(request, site)
    board = site.read(
        lambda reader: reader.leaderboard(
            query.ranking, query.period, query.channel, query.network, query.min_games,
            query.limit, query.bots,
        )
    )  # fmt: skip
    data = board_json(board, site.player_link(request))
    data["limit"] = query.limit
    return JSONResponse(data)


# -- records ---------------------------------------------------------------------------------


def _records(request: Request) -> tuple[Site, RecordsQuery, list[Any]]:
    site = _site(request)
    try:
        query = records_query(request.query_params)
    except BadParameter as err:
        raise Problem(400, _("Bad request"), str(err)) from None
    found = site.read(
        lambda reader: reader.records(query.period, query.channel, query.network, query.bots)
    )
    if found is None:
        raise Problem(
            503,
            _("Records not ready"),
            _(
                "The stats database predates the records; run the bot once to upgrade it (then "
                "unobot records rebuild fills in the games stored before), and reload this page."
            ),
        )
    return site, query, found


def _record_json(request: Request, site: Site, record: Any) -> dict[str, Any]:
    key = link_key(record.game_id)
    return {
        "record": record.kind.key,
        "title": record.kind.title,
        "figure": record.figure,
        "unit": record.kind.unit,
        "nick": record.nick,
        "network": record.network,
        "is_bot": record.is_bot,
        "player_url": site.player_link(request)(record.nick, record.network),
        "game": key,
        "game_url": site.link(request, "game", key=key),
        "channel": record.channel,
        "at": record.at.isoformat() + "Z",
    }


def records_page(request: Request) -> Response:
    site, query, found = _records(request)
    choices = site.read(lambda reader: site.choices())
    return site.render(
        request,
        "records.html",
        records=found,
        game_keys={r.game_id: link_key(r.game_id) for r in found},
        query=query,
        **_form_choices(choices, query.channel, query.network),
        week_start=_period_start(query.period, site.reader.clock()),
        api_url=site.link(request, "api_records", query.params()),
    )


def records_api(request: Request) -> Response:
    site, query, found = _records(request)
    return JSONResponse(
        {
            "period": query.period.value,
            "channel": irc_lower(query.channel),
            "network": query.network,
            "bots": query.bots,
            "records": [_record_json(request, site, r) for r in found],
        }
    )


def _network_param(request: Request) -> str:
    network = request.query_params.get("network", "").strip()
    if len(network) > 100 or not network.isprintable():
        raise Problem(400, _("Bad request"), _("network is not a network name"))
    return network


def _player_row(request: Request) -> Any:
    site = _site(request)
    nick = request.path_params["nick"]
    network = _network_param(request)
    if not nick or len(nick) > 255 or not nick.isprintable():
        raise Problem(404, _("No such player"), _("No player goes by that name."))
    row = site.read(lambda reader: reader.find_player(nick, network))
    if row is None:
        if network:
            message = _(
                "No player called {nick} has played here on {network}.",
                nick=repr(nick),
                network=network,
            )
        else:
            message = _("No player called {nick} has played here.", nick=repr(nick))
        raise Problem(404, _("No such player"), message)
    return row


def _player(request: Request) -> Any:
    site = _site(request)
    row = _player_row(request)
    return site.read(lambda reader: reader.player(row, site.min_games))


def player_page(request: Request) -> Response:
    """A player's page; while they play, it says where (linking to the spectator view) and
    updates itself: its version is the live game they sit in and their latest recorded game,
    two index lookups."""
    site = _site(request)
    row = _player_row(request)
    now = _live_now(site)

    def state(reader: Reader) -> tuple[Any, str]:
        playing = live_rows.playing_now(reader.db, row.nick, now, row.network)
        last = reader._rows("SELECT MAX(game_id) FROM game_result WHERE player_id = ?", (row.id,))
        where = "-" if playing is None else f"{playing.network}/{playing.channel}"
        return playing, f"{where}|{last[0][0] if last else 0}"

    playing, version = site.read(state)

    def make(shown: str | None) -> Response:
        page = site.read(lambda reader: reader.player(row, site.min_games))
        p = page.player
        return site.render(
            request,
            "player.html",
            page=page,
            playing=playing,
            playing_link=None if playing is None else _spectate_link(request, playing),
            rating_svg=charts.rating_chart(page.rating_history),
            rating_text=charts.rating_summary(page.rating_history),
            ppg_svg=charts.ppg_chart(page.weeks),
            ppg_text=charts.ppg_summary(page.weeks),
            min_games=site.min_games,
            live_version=shown,
            api_url=site.link(
                request, "api_player", {"network": p.network} if p.network else None, nick=p.nick
            ),
        )

    return live_page(request, version, make)


def player_api(request: Request) -> Response:
    site = _site(request)
    page = _player(request)
    return JSONResponse(player_json(page, site.player_link(request), site.game_link(request)))


def _game(request: Request) -> Any:
    site = _site(request)
    key = request.path_params["key"]
    if game_key(key) is None:
        raise Problem(
            404,
            _("No such game"),
            _("A game is named by its number or the 8 characters of its id."),
        )
    game = site.read(lambda reader: reader.game(key))
    if game is None:
        raise Problem(404, _("No such game"), _("No recorded game is called {key}.", key=repr(key)))
    return game


def game_page(request: Request) -> Response:
    site = _site(request)
    game = _game(request)
    replay = replay_view(game.moves)
    return site.render(
        request,
        "game.html",
        game=game,
        replay=replay,
        replay_data={
            "steps": replay.steps,
            "cards": replay.cards,
            "words": _replay_words(replay),
        },
        ratings=[
            None if r.mu is None or r.sigma is None else conservative(r.mu, r.sigma)
            for r in game.results
        ],
        api_url=site.link(request, "api_game", key=link_key(game.game_id)),
    )


def _replay_words(replay: Any) -> dict[str, Any]:
    """What ``static/replay.js`` writes as it steps, in the page's language: whole sentences
    with ``{name}`` places the script fills, and each hand size's "N cards" (plural forms
    differ by language, so the server says them all)."""
    sizes = {len(h["cards"]) for s in replay.steps for h in s["hands"]}
    return {
        "step": _("Step {n} of {total}", n="{n}", total="{total}"),
        "colour": _("Colour chosen: {colour}", colour="{colour}"),
        "turn": _("To play: {nick}", nick="{nick}"),
        "to": _("to {nick}:", nick="{nick}"),
        "to_play": _("to play"),
        "empty": _("empty"),
        "colours": {c: color_name(c) for c in "rygb"},
        "cards": {str(n): ngettext("{n} card", "{n} cards", n) for n in sorted(sizes)},
    }


def game_api(request: Request) -> Response:
    site = _site(request)
    game = _game(request)
    return JSONResponse(game_json(game, replay_view(game.moves), site.player_link(request)))


# -- tournaments -------------------------------------------------------------------------------


def tournament_live(
    request: Request, reader: Reader, head: TournamentHead
) -> tuple[dict[str, Any], str]:
    """What the bots' live-game rows (``unobot.stats.live_rows``) say of the games being
    played now at ``head``'s tables, by folded channel name, and a short version of it that
    the page's live version carries (so a move changes the page).

    Each value is shown on the tournament page's table as ``live_games[channel]`` (JSON
    ``tables[].live``): ``turn`` (whose turn it is), ``url`` (the spectator view), ``cards``
    (each player's card count) and ``totals`` (the game's own totals over its finished
    hands). Never a card of a hand: the rows hold none."""
    views = live_rows.tournament_tables(reader.db, head.name, reader.clock().timestamp())
    live = {
        irc_lower(v.channel): {
            "turn": v.turn,
            "url": _spectate_link(request, v),
            "cards": dict(v.players),
            "totals": {str(n): int(t) for n, t in v.info.get("totals") or ()},
        }
        for v in views
    }
    return live, ",".join(v.stamp for v in views)


def _tournament_name(request: Request) -> str:
    name = request.path_params["tournament"]
    if not name or len(name) > 100 or not name.isprintable():
        raise Problem(404, _("No such tournament"), _("No tournament goes by that name."))
    return name


def _tournament_head(request: Request) -> TournamentHead:
    site = _site(request)
    name = _tournament_name(request)
    head = site.read(lambda reader: tournament_head(reader, name))
    if head is None:
        raise Problem(
            404,
            _("No such tournament"),
            _("No tournament called {name} is stored here.", name=repr(name)),
        )
    return head


def _tournament_view(site: Site, head: TournamentHead) -> TournamentView:
    def read(reader: Reader) -> TournamentView | None:
        return site.tournaments.get(
            _view_key(head.key), head.version, lambda: tournament_stored(reader, head.key)
        )

    view = site.read(read)
    if view is None:  # deleted between the two reads
        raise Problem(
            404,
            _("No such tournament"),
            _("No tournament called {name} is stored.", name=repr(head.name)),
        )
    return view


def _view_key(key: str) -> str:
    """The view cache's key: a view holds labels in the language it was built in ("Runde 2"),
    so each language has its own (the JSON API's is English)."""
    return f"{key}\n{language()}"


def _tournament_links(request: Request, site: Site, name: str) -> tuple[str, str]:
    return (
        site.link(request, "tournament", tournament=name),
        site.link(request, "tournament_csv", tournament=name),
    )


def _views(request: Request) -> list[TournamentView]:
    site = _site(request)

    def read(reader: Reader) -> list[TournamentView]:
        views = []
        for head in tournament_heads(reader):
            view = site.tournaments.get(
                _view_key(head.key), head.version, lambda h=head: tournament_stored(reader, h.key)
            )
            if view is not None:
                views.append(view)
        return views

    return site.read(read)


def tournaments_page(request: Request) -> Response:
    site = _site(request)
    return site.render(
        request,
        "tournaments.html",
        tournaments=_views(request),
        api_url=site.link(request, "api_tournaments"),
    )


def tournaments_api(request: Request) -> Response:
    site = _site(request)
    rows = [
        tournament_summary_json(v, *_tournament_links(request, site, v.name))
        for v in _views(request)
    ]
    return JSONResponse({"tournaments": rows})


def tournament_page(request: Request) -> Response:
    """A tournament's page; live (``static/live.js``) while it runs: its version is the
    newest entry's number and the sheet's row count, one indexed query a poll."""
    site = _site(request)
    head = _tournament_head(request)
    live, live_version = site.read(lambda reader: tournament_live(request, reader, head))
    version = head.live_version
    if version and live_version:
        version = f"{version}.{live_version}"

    def make(shown: str | None) -> Response:
        view = _tournament_view(site, head)
        _, csv = _tournament_links(request, site, view.name)
        return site.render(
            request,
            "tournament.html",
            t=view,
            live_games=live,
            csv_url=csv,
            live_version=shown,
            api_url=site.link(request, "api_tournament", tournament=view.name),
        )

    return live_page(request, version, make)


def tournament_api(request: Request) -> Response:
    site = _site(request)
    head = _tournament_head(request)
    live, _ = site.read(lambda reader: tournament_live(request, reader, head))
    view = _tournament_view(site, head)
    link, csv = _tournament_links(request, site, view.name)
    return JSONResponse(tournament_json(view, link, csv, live))


def tournament_csv(request: Request) -> Response:
    """The bot's export (``unobot tournament export``), byte for byte, as a download."""
    site = _site(request)
    head = _tournament_head(request)
    stored = site.read(lambda reader: tournament_stored(reader, head.key))
    if stored is None:
        raise Problem(
            404,
            _("No such tournament"),
            _("No tournament called {name} is stored.", name=repr(head.name)),
        )
    out = io.StringIO()
    export_csv(stored, out)
    safe = re.sub(r"[^A-Za-z0-9_.-]", "_", stored.name) or "tournament"
    return Response(
        out.getvalue().encode("utf-8"),
        media_type="text/csv; charset=utf-8",
        headers={
            "Content-Disposition": f'attachment; filename="{safe}.csv"; '
            f"filename*=UTF-8''{quote(stored.name, safe='')}.csv",
            "Cache-Control": "no-store",
        },
    )


# -- live games ------------------------------------------------------------------------------


def _live_now(site: Site) -> float:
    """Epoch seconds by the site's clock (the bots stamp their live rows with theirs)."""
    return site.reader.clock().timestamp()


def _spectate_link(request: Request, view: live_rows.LiveView) -> str:
    """``/live/<network>/<channel>``: ``-`` for the empty network, the channel quoted (its
    ``#`` would otherwise start a fragment)."""
    return _site(request).link(
        request, "spectate", network=view.network or "-", channel=view.channel
    )


def _live_json(request: Request, view: live_rows.LiveView) -> dict[str, Any]:
    """A live game's public state: never a hand (the rows hold none)."""
    return {
        "network": view.network,
        "channel": view.channel,
        "tournament": view.tournament,
        "table": view.table_no,
        "players": [{"nick": n, "cards": c} for n, c in view.players],
        "turn": view.turn,
        "top": view.top,
        "color": view.color,
        "direction": "clockwise" if view.direction >= 0 else "counter-clockwise",
        "hand": view.info.get("hand"),
        "rules": view.info.get("rules"),
        "pending": view.info.get("pending", 0),
        "totals": view.info.get("totals"),
        "version": view.stamp,
        "ended": view.ended is not None,
        "url": _spectate_link(request, view),
    }


def live_list_page(request: Request) -> Response:
    site = _site(request)
    now = _live_now(site)
    version = site.read(lambda reader: live_rows.list_version(reader.db, now))

    def make(shown: str | None) -> Response:
        games = site.read(lambda reader: live_rows.live_games(reader.db, now))
        return site.render(
            request,
            "live.html",
            games=[(g, _spectate_link(request, g)) for g in games],
            live_version=shown,
            api_url=site.link(request, "api_live"),
        )

    return live_page(request, version, make)


def live_list_api(request: Request) -> Response:
    site = _site(request)
    now = _live_now(site)
    games = site.read(lambda reader: live_rows.live_games(reader.db, now))
    return JSONResponse({"games": [_live_json(request, g) for g in games]})


def _spectated(request: Request) -> tuple[str, str]:
    network = request.path_params["network"]
    channel = request.path_params["channel"]
    network = "" if network == "-" else network
    if (
        not channel
        or len(channel) > 255
        or len(network) > 100
        or not channel.isprintable()
        or not network.isprintable()
    ):
        raise Problem(404, _("No such game"), _("That is not a channel's address."))
    return network, channel


def _recorded_after(reader: Reader, view: live_rows.LiveView) -> tuple[str, bool] | None:
    """The link key of the game recorded in ``view``'s channel since it started (its replay)
    and whether it was stopped, if the bot has written it yet."""
    stopped = "stopped" if reader.stops() else "FALSE"
    rows = reader._rows(
        f"SELECT game_id, started, {stopped} FROM game WHERE network = ? AND channel = ? "
        "ORDER BY network DESC, channel DESC, ended DESC LIMIT 1",
        (view.network, irc_lower(view.channel)),
    )
    if not rows:
        return None
    game_id, started, cut = rows[0]
    began = started if isinstance(started, datetime) else datetime.fromisoformat(str(started))
    if began.replace(tzinfo=UTC).timestamp() < view.started - 120:
        return None  # an older game's: this one was not recorded (stopped before a hand ended)
    return link_key(str(game_id)), bool(cut)


def _spectate_state(request: Request) -> tuple[Any, ...]:
    site = _site(request)
    network, channel = _spectated(request)
    now = _live_now(site)

    def read(reader: Reader) -> tuple[Any, ...]:
        view = live_rows.live_game(reader.db, network, channel, now)
        if view is None:
            return None, [], None
        lines = live_rows.live_lines(reader.db, network, channel)
        replay = _recorded_after(reader, view) if view.ended is not None else None
        return view, lines, replay

    return (network, channel, *site.read(read))


def spectate_page(request: Request) -> Response:
    """One game as a spectator sees it: the pile's top, whose turn, every player's card count,
    the channel's lines, updating itself after every move; never a hand. An ended game's
    page says so and links to its replay; then it stops updating."""
    site = _site(request)
    network, channel = _spectated(request)
    now = _live_now(site)
    version = site.read(lambda reader: live_rows.live_version(reader.db, network, channel, now))
    if version.endswith("-ended"):
        version = ""  # finished: the page will not change again

    def make(shown: str | None) -> Response:
        network_, channel_, view, lines, replay = _spectate_state(request)
        return site.render(
            request,
            "spectate.html",
            network=network_,
            channel=channel_,
            view=view,
            lines=lines,
            replay=None if replay is None else replay[0],
            stopped=replay is not None and replay[1],
            top=None if view is None or not view.top else card_view(view.top),
            live_version=shown,
            api_url=site.link(request, "api_spectate", network=network_ or "-", channel=channel_),
        )

    return live_page(request, version, make)


def spectate_api(request: Request) -> Response:
    _network, channel, view, lines, replay = _spectate_state(request)
    if view is None:
        raise Problem(
            404, _("No such game"), _("No game is being played in {channel} now.", channel=channel)
        )
    data = _live_json(request, view)
    data["lines"] = [{"at": line.at, "text": line.text} for line in lines]
    data["replay"] = None if replay is None else _site(request).link(request, "game", key=replay[0])
    data["stopped"] = replay is not None and replay[1]
    return JSONResponse(data)


def _wants_json(request: Request) -> bool:
    root = request.scope.get("root_path", "")
    path = request.url.path
    path = path[len(root) :] if root and path.startswith(root) else path
    return path.startswith("/api/")


def _problem_response(request: Request, status: int, title: str, message: str) -> Response:
    if _wants_json(request):
        return JSONResponse({"error": message, "status": status}, status_code=status)
    site = _site(request)
    return site.render(request, "error.html", status, title=title, message=message)


async def _on_problem(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, Problem)
    return _problem_response(request, exc.status, exc.title, exc.message)


async def _on_http(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, HTTPException)
    if exc.status_code == 404:
        return _problem_response(
            request, 404, _("Not found"), _("There is no page at this address.")
        )
    if exc.status_code == 405:
        return _problem_response(
            request, 405, _("Not allowed"), _("This site only answers GET and HEAD requests.")
        )
    return _problem_response(request, exc.status_code, _("Error"), str(exc.detail))


async def _on_error(request: Request, exc: Exception) -> Response:
    log.error("error answering %s", request.url.path, exc_info=exc)
    return _problem_response(
        request,
        500,
        _("Something went wrong"),
        _("The page could not be made; the error is logged."),
    )


def create_app(
    db: pw.Database,
    *,
    min_games: int = 5,
    clock: Callable[[], datetime] | None = None,
    threads: int = THREADS,
) -> ASGIApp:
    """The site reading ``db`` (opened by :func:`unobot.stats.sql.open_database`).
    ``min_games``: games to be ranked unless a link asks otherwise; ``clock``: "now" for
    the week and month (UTC), for tests."""
    site = Site(Reader(db, clock or (lambda: datetime.now(UTC))), min_games)

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        anyio.to_thread.current_default_thread_limiter().total_tokens = threads
        yield
        with contextlib.suppress(*DB_ERRORS):
            db.close()

    app = Starlette(
        routes=[
            Route("/", leaderboard_page, name="home"),
            Route("/leaderboard", leaderboard_page, name="leaderboard"),
            Route("/player/{nick:path}", player_page, name="player"),
            Route("/game/{key}", game_page, name="game"),
            Route("/tournaments", tournaments_page, name="tournaments"),
            Route(
                "/tournament/{tournament:path}/export.csv", tournament_csv, name="tournament_csv"
            ),
            Route("/tournament/{tournament:path}", tournament_page, name="tournament"),
            Route("/records", records_page, name="records"),
            Route("/live", live_list_page, name="live"),
            Route("/live/{network}/{channel:path}", spectate_page, name="spectate"),
            Route("/favicon.ico", favicon, name="favicon"),
            Route("/api/leaderboard", leaderboard_api, name="api_leaderboard"),
            Route("/api/player/{nick:path}", player_api, name="api_player"),
            Route("/api/game/{key}", game_api, name="api_game"),
            Route("/api/tournaments", tournaments_api, name="api_tournaments"),
            Route("/api/tournament/{tournament:path}", tournament_api, name="api_tournament"),
            Route("/api/records", records_api, name="api_records"),
            Route("/api/live", live_list_api, name="api_live"),
            Route("/api/live/{network}/{channel:path}", spectate_api, name="api_spectate"),
            Mount("/static", StaticFiles(directory=STATIC), name="static"),
        ],
        exception_handlers={
            Problem: _on_problem,
            HTTPException: _on_http,
            Exception: _on_error,
        },
        lifespan=lifespan,
    )
    app.state.site = site
    return ServerTiming(LanguageMiddleware(app))
