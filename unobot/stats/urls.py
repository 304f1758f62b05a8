"""The stats database's URL, checked before anything connects with it.

Here, in the stats layer, so that the settings (``unobot.config``) and the stats tools
(``unobot import-scores``) check a URL the same way, without importing the database driver.
"""

from __future__ import annotations

import urllib.parse

__all__ = ["DATABASE_SCHEMES", "database_url_problem"]

DATABASE_SCHEMES = frozenset(
    {"sqlite", "postgres", "postgresql", "postgresext", "postgresqlext"}
    | {"sqlite+pool", "postgres+pool", "postgresql+pool", "postgresext+pool"}
    | {"postgresqlext+pool"}
)
"""The URL schemes the stats store opens (``unobot.stats.sql.open_database``)."""

_URL_EXAMPLES = "e.g. sqlite:///stats.db, postgresql://user:password@host:5432/dbname"


def database_url_problem(url: str) -> str | None:
    """What is wrong with a stats database URL, in words fit for the one line a bad setting
    gets, or None. Checked with the settings (``unobot check-config`` too), so that a URL the
    database driver would choke on later (a port that is not a number, a PostgreSQL URL
    without a database) stops the bot at once with that line, not a traceback. The URL is
    never quoted whole: it may hold a password; only what follows the ``@`` is shown."""
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
        if not parts.path.strip("/"):
            return f"{shown} names no file (e.g. sqlite:///stats.db, sqlite:////var/lib/uno.db)"
        return None
    if port == 0:
        return f"{shown}: port 0 is not a port (1 to 65535)"
    if not parts.path.strip("/"):
        return (
            f"{shown} names no database (postgresql://user@host/dbname; a local server: "
            "postgresql:///dbname)"
        )
    return None
