"""The stats database's URL, checked before anything connects with it.

Here, in the stats layer, so that the settings (``unobot.config``) and the stats tools
(``unobot import-scores``) check a URL the same way, without importing the database driver.
"""

from __future__ import annotations

import os
import urllib.parse
from pathlib import Path

__all__ = ["DATABASE_SCHEMES", "database_url_problem", "sqlite_file_problem"]

DATABASE_SCHEMES = frozenset(
    {"sqlite", "postgres", "postgresql", "postgresext", "postgresqlext"}
    | {"sqlite+pool", "postgres+pool", "postgresql+pool", "postgresext+pool"}
    | {"postgresqlext+pool"}
)
"""The URL schemes the stats store opens (``unobot.stats.sql.open_database``)."""

_URL_EXAMPLES = "e.g. sqlite:///stats.db, postgresql://user:password@host:5432/dbname"
_SQLITE_EXAMPLES = "sqlite:///stats.db in the working folder, sqlite:////var/lib/uno.db"


def database_url_problem(url: str) -> str | None:
    """What is wrong with a stats database URL, in words fit for the one line a bad setting
    gets, or None. Checked with the settings (``unobot check-config`` too), so that a URL the
    database driver would choke on later (a port that is not a number, a PostgreSQL URL
    without a database) stops the bot at once with that line, not a traceback, and so that a
    URL that can never work does not leave the bot playing without stats for its whole run
    (``sqlite://host/x.db``: the driver is handed a ``host``; an SQLite file in a folder that
    does not exist or can't be written). A PostgreSQL server that is merely down is no
    problem here: the bot plays on, spools, and writes once it is back. The URL is never
    quoted whole: it may hold a password; only what follows the ``@`` is shown."""
    shown = repr(url.rpartition("@")[2])
    scheme, sep, _ = url.partition("://")
    if not sep or "@" in scheme or "/" in scheme:
        return f"{shown} is not a sqlite:/// or postgresql:// URL ({_URL_EXAMPLES})"
    if scheme.lower() not in DATABASE_SCHEMES:
        return f"{scheme}:// is not a sqlite:/// or postgresql:// URL ({_URL_EXAMPLES})"
    try:
        parts = urllib.parse.urlsplit(url)
        port = parts.port
    except ValueError as err:  # "Port could not be cast to integer value as 'x'", "Invalid IPv6"
        return f"{shown} is not a valid URL: {err} ({_URL_EXAMPLES})"
    if scheme.lower().startswith("sqlite"):
        if parts.netloc:
            # The driver would get it as a host (or a user, a port) and refuse to connect.
            meant = f"; did you mean sqlite:///{parts.netloc}{parts.path}?"
            return (
                f"{shown}: an SQLite URL has three slashes and no host"
                f"{meant if '@' not in parts.netloc else ''} ({_SQLITE_EXAMPLES})"
            )
        if not parts.path.strip("/"):
            return f"{shown} names no file (e.g. {_SQLITE_EXAMPLES})"
        return sqlite_file_problem(parts.path[1:])  # the driver drops the first "/" only
    if port == 0:
        return f"{shown}: port 0 is not a port (1 to 65535)"
    if not parts.path.strip("/"):
        return (
            f"{shown} names no database (postgresql://user@host/dbname; a local server: "
            "postgresql:///dbname)"
        )
    return None


def sqlite_file_problem(database: str) -> str | None:
    """What keeps the SQLite database file ``database`` (a path, relative to the working
    folder, as the driver is given it) from ever being opened for writing, or None. Creates
    nothing. Its folder must exist and be writable even when the file exists: in WAL mode
    SQLite makes its ``-wal`` and ``-shm`` files beside it."""
    if database == ":memory:" or database.startswith("file:"):  # (a URI: SQLite's to parse)
        return None
    path = Path(database)
    folder = path.parent
    try:
        if path.is_dir():
            return f"{database} is a folder, not a database file"
        if not folder.is_dir():
            what = "is not a folder" if folder.exists() else "does not exist"
            return f"{database}: the folder {folder} {what} (the file is made, not its folder)"
    except OSError as err:  # a folder on the way that this user can't look into
        return f"{database}: {err.strerror}"
    if not os.access(folder, os.W_OK | os.X_OK):
        return f"{database}: the folder {folder} is not writable by this user"
    if path.exists() and not os.access(path, os.R_OK | os.W_OK):
        return f"{database} is not readable and writable by this user"
    return None
