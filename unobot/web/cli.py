"""``unobot web``: serve the read-only stats site with uvicorn.

The site reads the same database as the bot (``[web] database``, else ``[stats] database``,
else ``./stats.db``; ``--database`` wins) and never writes to it. Behind a reverse proxy:
``--root-path /uno`` when the proxy serves it under a sub-path, and ``forwarded_allow_ips``
naming the proxy so the client address and scheme it forwards are believed.
"""

from __future__ import annotations

import argparse
import logging
import signal
import socket
import sys
from collections.abc import Callable
from typing import Any

from unobot import config as config_mod
from unobot.stats.sql import missing_sqlite_file, open_database
from unobot.web.app import create_app
from unobot.web.queries import DB_ERRORS, NEEDED_VERSION, Reader

__all__ = ["listen", "main"]

log = logging.getLogger("unobot.web")


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="unobot web",
        description="Serve the stats site (leaderboards, players, game replays, JSON API) "
        "from the bot's stats database, read-only.",
    )
    parser.add_argument("--database", metavar="URL", help="stats database (default: the bot's)")
    parser.add_argument("--config", metavar="FILE", help="the bot's TOML settings ([web] section)")
    parser.add_argument("--host", help="address to listen on (default 127.0.0.1)")
    parser.add_argument("--port", type=int, help="port to listen on (default 8080)")
    parser.add_argument(
        "--root-path", metavar="PATH", help="sub-path a reverse proxy serves the site under (/uno)"
    )
    parser.add_argument(
        "--forwarded-allow-ips",
        metavar="IPS",
        help="proxies whose X-Forwarded-* headers are trusted (default 127.0.0.1; * for any)",
    )
    parser.add_argument("--log-level", default="info", help="debug, info, warning (default info)")
    return parser


def listen(host: str, port: int) -> socket.socket:
    """A listening socket, bound here so a taken port is one clear line (raises OSError)."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((host, port))
        sock.listen(128)
    except OSError:
        sock.close()
        raise
    sock.set_inheritable(True)
    return sock


def _check(url: str) -> str | None:
    """A warning about the database worth printing at start, or None. The site starts
    anyway: its pages say the same until the bot has created or upgraded the database."""
    db = open_database(url)
    try:
        version = Reader(db).version()
    except DB_ERRORS as err:
        return f"the stats database can't be read yet ({err}); pages will say so until it can"
    finally:
        db.close()
    if version < NEEDED_VERSION:
        return (
            f"the stats database is at schema v{version}, the site needs v{NEEDED_VERSION}: "
            "run the bot once to upgrade the database"
        )
    return None


def main(argv: list[str], database_url: Callable[[str | None, str | None], str]) -> int:
    """Serve until interrupted; 2 with one line for a bad setting, a missing database file
    or a port that is taken."""
    import uvicorn

    args = _parser().parse_args(argv)
    try:
        settings = config_mod.load(argparse.Namespace(**{**vars(_bare()), "config": args.config}))
        web = settings.web
        url = database_url(args.config, args.database) if args.database else web.database
    except config_mod.ConfigError as err:
        print(f"unobot web: {err}", file=sys.stderr)
        return 2
    host = args.host or web.host
    port = web.port if args.port is None else args.port
    root_path = (web.root_path if args.root_path is None else args.root_path).rstrip("/")
    if root_path and not root_path.startswith("/"):
        print(f"unobot web: --root-path {root_path!r} must start with /", file=sys.stderr)
        return 2
    if not 0 <= port <= 65535:
        print("unobot web: --port must be 0 to 65535", file=sys.stderr)
        return 2
    db = open_database(url)
    missing = missing_sqlite_file(db)
    if missing is not None:
        print(
            f"unobot web: no stats database at {missing} (run the bot once to create it, "
            "or pass --database)",
            file=sys.stderr,
        )
        return 2
    logging.basicConfig(
        level=args.log_level.upper() if args.log_level.upper() in _LEVELS else "INFO",
        format="%(asctime)s %(levelname)s %(name)s: %(message)s",
    )
    warning = _check(url)
    if warning:
        log.warning("%s", warning)
    try:
        sock = listen(host, port)
    except OSError as err:
        print(
            f"unobot web: can't listen on {host}:{port} ({err.strerror}); try --port {port + 1}",
            file=sys.stderr,
        )
        return 2
    app = create_app(db, min_games=settings.bot.stats_min_games)
    config = uvicorn.Config(
        app,
        root_path=root_path,
        proxy_headers=True,
        forwarded_allow_ips=args.forwarded_allow_ips or web.forwarded_allow_ips,
        log_level=args.log_level.lower() if args.log_level.upper() in _LEVELS else "info",
        server_header=False,
    )
    shown_host = f"[{host}]" if ":" in host else host
    print(
        f"unobot web: http://{shown_host}:{sock.getsockname()[1]}{root_path}/ "
        f"(database {url.split('@')[-1]}; Ctrl-C stops)",
        flush=True,
    )
    server = quiet_server(uvicorn.Server)(config)
    for signum in (signal.SIGINT, signal.SIGTERM):
        # Ours before and after uvicorn's own: a stop asked for while it starts is not
        # lost, and the signal uvicorn raises again once it has stopped (to end the process
        # "as the signal would") ends nothing more: one line, no KeyboardInterrupt traceback.
        signal.signal(signum, server.handle_exit)
    server.run(sockets=[sock])
    return 0


def quiet_server(base: Any) -> Any:
    """uvicorn's ``Server`` class, made to stop in one line of its own.

    Ctrl-C used to print uvicorn's four shutdown lines and then a ``CancelledError`` /
    ``KeyboardInterrupt`` traceback (uvicorn raises the signal again after its shutdown);
    SIGTERM ended the process by the signal. Now the stop prints ``unobot web: stopping
    (Ctrl-C).``, uvicorn's shutdown chatter is below the log level shown (warnings still
    show), and ``main`` returns 0."""

    class QuietServer(base):  # type: ignore[misc, valid-type]
        stop_signal: int | None = None

        def handle_exit(self, sig: int, frame: Any) -> None:
            if self.stop_signal is None:
                self.stop_signal = sig
            super().handle_exit(sig, frame)

        async def shutdown(self, sockets: Any = None) -> None:
            name = {signal.SIGINT: "Ctrl-C", signal.SIGTERM: "SIGTERM"}.get(
                self.stop_signal,  # type: ignore[call-overload]
                "",
            )
            print(f"unobot web: stopping{f' ({name})' if name else ''}.", flush=True)
            logging.getLogger("uvicorn.error").setLevel(logging.WARNING)
            await super().shutdown(sockets=sockets)

    return QuietServer


_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR")


def _bare() -> argparse.Namespace:
    """The bot's flags, all unset (the site reads only the config file's sections)."""
    parser = argparse.ArgumentParser(add_help=False)
    config_mod.add_arguments(parser)
    return parser.parse_args([])
