"""Settings: a TOML file and command-line flags -> typed values, with one clear error message.

Flags override the file; with neither, the embedded default runs (a local IRC server inside the
process, channel ``#uno``, ``./stats.db``). ``unobot.toml.example`` documents every key.
"""

from __future__ import annotations

import argparse
import dataclasses
import difflib
import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from unobot.core.bot_config import DEFAULT_PLUGINS, BotConfig
from unobot.core.computers import ComputerConfig
from unobot.core.plugin import is_file_spec
from unobot.core.table import TableConfig
from unobot.core.trusted import TrustedHosts
from unobot.engine import preset
from unobot.irc.adapter import IrcSettings, ServerSettings
from unobot.irc.casemap import irc_lower
from unobot.irc.flood import MODELS
from unobot.stats.urls import database_url_problem

__all__ = ["ConfigError", "Settings", "WebSettings", "add_arguments", "load"]

DEFAULT_DATABASE = "sqlite:///stats.db"


class ConfigError(ValueError):
    """A setting that can't be used; the message names it and says what is expected."""


@dataclass(frozen=True)
class WebSettings:
    """``[web]``: the read-only stats site (``unobot web``), read by the site and by the bot
    (``.unogame`` links to ``public_url``), so both take it from the same section.

    - ``host``, ``port``: where ``unobot web`` listens (127.0.0.1:8080; put a reverse proxy
      in front to publish it).
    - ``public_url``: the address people reach the site at (``https://example.net/uno``), ""
      when it is not published: the bot then answers ``.unogame`` without a link.
    - ``database``: the stats database the site reads, "" for the bot's (``[stats] database``).
    - ``root_path``: the path prefix the reverse proxy serves the site under (``/uno``), so
      its links carry it; "" at the root.
    - ``forwarded_allow_ips``: the proxies whose ``X-Forwarded-For``/``-Proto`` headers are
      believed (comma separated, ``*`` for any), as uvicorn's option of that name.
    """

    host: str = "127.0.0.1"
    port: int = 8080
    public_url: str = ""
    database: str = ""
    root_path: str = ""
    forwarded_allow_ips: str = "127.0.0.1"


@dataclass(frozen=True)
class Settings:
    irc: IrcSettings
    bot: BotConfig
    database: str = DEFAULT_DATABASE
    embedded: bool = False
    """Run the bundled local IRC server on the first server's host and port."""
    log_level: str = "INFO"
    journal: str = "unobot-tables"
    """Folder of the games' journals (a restart restores every game from it); "" for none."""
    db_timeout: float = 5.0
    """Seconds a database may take to answer before the bot says stats are unavailable (and
    PostgreSQL cancels the statement); games wait in the local spool meanwhile."""
    web: WebSettings = WebSettings()
    """``[web]``: the stats site; its ``database`` is filled in (the stats one when unset)."""
    live: bool = True
    """``[stats] live``: write the games being played to the database for the site's
    ``/live`` pages (``unobot.stats.live``)."""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The flags that mirror the config file (the file's values are the defaults)."""
    parser.add_argument("--config", metavar="FILE", help="TOML settings (see unobot.toml.example)")
    parser.add_argument("--server", metavar="HOST", help="IRC server to connect to")
    parser.add_argument("--port", type=int, metavar="N", help="port (6667, or 6697 with --tls)")
    parser.add_argument("--tls", action="store_true", default=None, help="connect with TLS")
    parser.add_argument(
        "--insecure", action="store_true", default=None, help="accept any TLS certificate"
    )
    parser.add_argument("--nick", help="the bot's nick (default unobot)")
    parser.add_argument(
        "--channel", action="append", metavar="'#CHAN'", help="channel to join (repeatable)"
    )
    parser.add_argument(
        "--admin",
        action="append",
        metavar="NICK",
        help="a bot admin for this run, besides bot.admins (repeatable or comma separated; "
        "a nick means NICK!*@*, or give a nick!user@host mask or $a:account)",
    )
    parser.add_argument("--database", metavar="URL", help=f"stats store ({DEFAULT_DATABASE})")
    parser.add_argument("--preset", help="default rules preset for new tables")
    parser.add_argument(
        "--send-rate",
        type=float,
        metavar="LINES_PER_SECOND",
        help="outbound lines per second after a burst of 4 (0 = unlimited, local servers only)",
    )
    parser.add_argument("--log-level", default=None, help="DEBUG, INFO, WARNING (default INFO)")


def load(args: argparse.Namespace) -> Settings:
    """Settings from ``args.config`` (if any) overridden by the flags. Raises ConfigError."""
    data: dict[str, Any] = {}
    if args.config:
        path = Path(args.config)
        try:
            data = tomllib.loads(path.read_text(encoding="utf-8"))
        except FileNotFoundError:
            raise ConfigError(f"no config file {path}") from None
        except (OSError, UnicodeDecodeError) as err:
            raise ConfigError(f"can't read {path}: {err}") from None
        except tomllib.TOMLDecodeError as err:
            raise ConfigError(f"{path} is not valid TOML: {err}") from None
    try:
        return _build(data, args)
    except ConfigError:
        raise
    except (TypeError, ValueError, KeyError) as err:
        raise ConfigError(str(err)) from None


def _languages(bot_cfg: dict[str, Any]) -> tuple[str, dict[str, str]]:
    """``[bot] language`` and ``[bot.channel_languages]``, each a shipped language."""
    from unobot.i18n import LANGUAGES, normalize

    def known(where: str, value: object) -> str:
        lang = normalize(str(value))
        if lang is None:
            raise ConfigError(f"{where} = {value!r}: not a language unobot speaks "
                              f"(one of {', '.join(LANGUAGES)})")  # fmt: skip
        return lang

    default = known("bot.language", _typed("bot", bot_cfg, "language", str, "en"))
    per_channel = _typed("bot", bot_cfg, "channel_languages", dict, {})
    channels = {
        irc_lower(str(c)): known(f"bot.channel_languages.{c}", v) for c, v in per_channel.items()
    }
    return default, channels


def _tournament_scale(bot_cfg: dict[str, Any]) -> float:
    """``bot.tournament_time_scale``: every tournament duration is multiplied by it (1 in
    play; tests and rehearsals run an hour's game in 20 s with 0.0056)."""
    scale = _typed("bot", bot_cfg, "tournament_time_scale", float, 1.0)
    if not 0.0001 <= scale <= 10:
        raise ConfigError("bot.tournament_time_scale is 0.0001 to 10")
    return scale


KEYS: dict[str, tuple[str, ...]] = {
    "irc": ("nick", "alt_nicks", "username", "realname", "send_burst", "send_rate",
            "flood_model", "lag_probe", "sasl_login", "sasl_password", "nickserv_password",
            "nickserv_server", "nickserv_host", "servers", "channels", "rejoin_delay",
            "connections"),
    "bot": ("prefix", "preset", "turn_timeout", "grace", "lobby_timeout", "idle_stop", "admins",
            "admin_code", "turn_hand", "channel_presets", "plugins", "journal",
            "tournament_time_scale", "trusted_hosts", "trusted_multiplier", "language",
            "channel_languages"),
    "bots": ("enabled", "delay", "uno_grace", "budget_ms", "playouts", "workers"),
    "stats": ("database", "min_games", "max_list", "timeout", "live"),
    "web": ("host", "port", "public_url", "database", "root_path", "forwarded_allow_ips"),
    "log": ("level",),
}  # fmt: skip
"""Every setting by section (``unobot.toml.example`` documents each). A key the file has and
this lacks stops the bot: a misspelt ``nik`` or ``sasl_pasword`` must not quietly do nothing.
``irc.channels`` and ``bot.channel_presets`` are tables keyed by channel name, not settings."""


def _check_keys(where: str, values: dict[str, Any], known: tuple[str, ...]) -> None:
    """ConfigError naming the first unknown key of ``values`` and the closest known one."""
    unknown = sorted(k for k in values if k not in known)
    if not unknown:
        return
    key = unknown[0]
    close = difflib.get_close_matches(key, known, 1)
    name = f"{where}.{key}" if where else key
    if close:
        hint = f"did you mean {where}.{close[0]}?" if where else f"did you mean [{close[0]}]?"
    else:
        hint = f"known: {', '.join(known)}"
    more = f"; also unknown: {', '.join(unknown[1:])}" if unknown[1:] else ""
    what = "setting" if where else "section"
    shown = name if where else f"[{name}]"
    raise ConfigError(f"unknown {what} {shown} ({hint}){more}")


def _section(data: dict[str, Any], name: str) -> dict[str, Any]:
    value = data.get(name, {})
    if not isinstance(value, dict):
        raise ConfigError(f"[{name}] must be a table of settings")
    _check_keys(name, value, KEYS[name])
    return value


SECRET_KEYS = frozenset({"password", "sasl_password", "nickserv_password", "database"})
"""Settings whose value is (or may hold) a secret: an error about one names its type, never
its value (``stats.database`` may be ``postgresql://user:password@host/db``)."""


def is_secret(key: str) -> bool:
    """Whether ``key`` holds a secret: the known ones, and any named like a password, token
    or secret (so that a setting added later is covered without remembering this list)."""
    name = key.lower()
    return name in SECRET_KEYS or any(w in name for w in ("password", "passwd", "secret", "token"))


def _typed(section: str, values: dict[str, Any], key: str, kind: type, default: Any) -> Any:
    value = values.get(key, default)
    if kind is float and isinstance(value, int) and not isinstance(value, bool):
        value = float(value)
    if value is not None and not isinstance(value, kind):
        # A secret misplaced in the file (a list instead of a string, an unquoted number)
        # must not be printed: the message goes to the terminal, the journal, a CI log.
        shown = f"a {type(value).__name__}" if is_secret(key) else repr(value)
        raise ConfigError(f"{section}.{key} must be {kind.__name__}, not {shown}")
    return value


def _build(data: dict[str, Any], args: argparse.Namespace) -> Settings:
    _check_keys("", data, tuple(KEYS))
    irc_cfg = _section(data, "irc")
    bot_cfg = _section(data, "bot")
    stats_cfg = _section(data, "stats")

    servers = [_server(i, s) for i, s in enumerate(irc_cfg.get("servers", []))]
    embedded = not servers and not args.server
    if args.server or args.port or args.tls or args.insecure:
        base = servers[0] if servers else ServerSettings(host="127.0.0.1")
        servers = [
            dataclasses.replace(
                base,
                host=args.server or base.host,
                port=args.port if args.port is not None else base.port,
                tls=bool(args.tls) or base.tls,
                tls_verify=base.tls_verify and not args.insecure,
            ),
            *servers[1:],
        ]
    if not servers:
        servers = [ServerSettings(host="127.0.0.1", port=6667)]
    if embedded and args.port:
        servers = [dataclasses.replace(servers[0], port=args.port)]

    channels = irc_cfg.get("channels", {"#uno": ""})
    if isinstance(channels, list):
        channels = {str(c): "" for c in channels}
    if not isinstance(channels, dict):
        raise ConfigError("irc.channels must be a table of channel = key")
    if args.channel:
        channels = {c: channels.get(c, "") for c in args.channel}
    for name in channels:
        if not name or name[0] not in "#&+!" or any(ch in name for ch in " ,\x07\r\n\0"):
            raise ConfigError(f"{name!r} is not a channel name (e.g. '#uno')")

    rate = _typed("irc", irc_cfg, "send_rate", float, 1.0)
    if args.send_rate is not None:
        rate = args.send_rate
    if rate is None or rate < 0:
        raise ConfigError("send rate must be 0 (unlimited) or more lines per second")
    burst = _typed("irc", irc_cfg, "send_burst", int, 4)
    if burst < 1:
        raise ConfigError("irc.send_burst must be at least 1")

    # Numbers of one's own mean one's own bucket, unless a model is named as well (a network
    # that granted the bot a higher rate must not see it replaced by the server's default).
    own = args.send_rate is not None or "send_rate" in irc_cfg or "send_burst" in irc_cfg
    flood_model = _typed("irc", irc_cfg, "flood_model", str, "bucket" if own else "auto")
    if flood_model not in ("auto", "bucket", *MODELS):
        known = ", ".join(["auto", "bucket", *MODELS])
        raise ConfigError(f"irc.flood_model must be one of {known}, not {flood_model!r}")
    lag_probe = _typed("irc", irc_cfg, "lag_probe", float, 30.0)
    if lag_probe < 0 or 0 < lag_probe < 2:
        raise ConfigError("irc.lag_probe must be 0 (never) or at least 2 seconds")

    connections = _typed("irc", irc_cfg, "connections", int, 1)
    if not 1 <= connections <= 10:
        raise ConfigError("irc.connections must be 1 to 10 (networks allow a few per host)")

    nick = args.nick or _typed("irc", irc_cfg, "nick", str, "unobot")
    irc = IrcSettings(
        servers=tuple(servers),
        nick=nick,
        alt_nicks=tuple(_typed("irc", irc_cfg, "alt_nicks", list, [])),
        username=_typed("irc", irc_cfg, "username", str, None),
        realname=_typed("irc", irc_cfg, "realname", str, "unobot - Uno for IRC"),
        channels={str(k): str(v) for k, v in channels.items()},
        sasl_login=_typed("irc", irc_cfg, "sasl_login", str, None),
        sasl_password=_typed("irc", irc_cfg, "sasl_password", str, None),
        nickserv_password=_typed("irc", irc_cfg, "nickserv_password", str, None),
        nickserv_server=_typed("irc", irc_cfg, "nickserv_server", str, "services.*"),
        nickserv_host=_typed("irc", irc_cfg, "nickserv_host", str, ""),
        burst=burst,
        rate=rate,
        flood_model=flood_model,
        lag_probe=lag_probe,
        rejoin_delay=_typed("irc", irc_cfg, "rejoin_delay", float, 5.0),
        connections=connections,
    )

    _check_service_identity(irc)

    preset_name = args.preset or _typed("bot", bot_cfg, "preset", str, "irc-classic")
    rules = preset(preset_name)
    table = TableConfig(
        rules=rules,
        turn_timeout=_typed("bot", bot_cfg, "turn_timeout", float, 120.0),
        grace=_typed("bot", bot_cfg, "grace", float, 60.0),
        lobby_timeout=_typed("bot", bot_cfg, "lobby_timeout", float, 60.0),
        idle_stop=_typed("bot", bot_cfg, "idle_stop", float, 300.0),
        turn_hand=_typed("bot", bot_cfg, "turn_hand", bool, True),
    )
    if table.turn_timeout < 10:
        raise ConfigError("bot.turn_timeout must be at least 10 seconds")
    prefix = _typed("bot", bot_cfg, "prefix", str, ".")
    if len(prefix) != 1 or prefix.isalnum() or prefix.isspace():
        raise ConfigError("bot.prefix must be one punctuation character, e.g. '.' or '!'")
    per_channel = _typed("bot", bot_cfg, "channel_presets", dict, {})
    channel_rules = {str(c).lower(): preset(str(p)) for c, p in per_channel.items()}
    language, channel_languages = _languages(bot_cfg)
    min_games = _typed("stats", stats_cfg, "min_games", int, 5)
    max_list = _typed("stats", stats_cfg, "max_list", int, 25)
    if min_games < 1 or not 1 <= max_list <= 100:
        raise ConfigError("stats.min_games must be at least 1, stats.max_list 1 to 100")
    bot = BotConfig(
        prefix=prefix,
        table=table,
        admins=frozenset(str(a) for a in _typed("bot", bot_cfg, "admins", list, []))
        | _admin_flags(getattr(args, "admin", None)),
        admin_code=_typed("bot", bot_cfg, "admin_code", bool, True),
        channel_rules=channel_rules,
        language=language,
        channel_languages=channel_languages,
        network=servers[0].host,  # stored with each game, so two networks' stats never mix
        stats_min_games=min_games,
        stats_max_list=max_list,
        bots=_bots(_section(data, "bots")),
        tournament_scale=_tournament_scale(bot_cfg),
        plugins=_plugins(bot_cfg, Path(args.config).parent if args.config else None),
        **_trusted(bot_cfg),
    )
    if bot.bots.delay * 3 > table.turn_timeout:  # a pause runs up to 1.3 x delay
        raise ConfigError("bots.delay must be well under bot.turn_timeout (a third at most)")
    database = args.database or _typed("stats", stats_cfg, "database", str, DEFAULT_DATABASE)
    problem = database_url_problem(database)
    if problem is not None:
        raise ConfigError(f"stats.database: {problem}")
    level = (args.log_level or _typed("log", _section(data, "log"), "level", str, "INFO")).upper()
    if level not in ("DEBUG", "INFO", "WARNING", "ERROR"):
        raise ConfigError("log level is DEBUG, INFO, WARNING or ERROR")
    db_timeout = _typed("stats", stats_cfg, "timeout", float, 5.0)
    if not 0.5 <= db_timeout <= 60:
        raise ConfigError("stats.timeout must be 0.5 to 60 seconds")
    journal = _typed("bot", bot_cfg, "journal", str, "unobot-tables")
    web = _web(_section(data, "web"), database)
    if web.public_url:
        bot = dataclasses.replace(bot, web_public_url=web.public_url)
    live = _typed("stats", stats_cfg, "live", bool, True)
    return Settings(
        irc,
        bot,
        database,
        embedded,
        level,
        db_timeout=db_timeout,
        journal=journal,
        web=web,
        live=live,
    )


def _admin_flags(values: list[str] | None) -> frozenset[str]:
    """``--admin`` entries as ``bot.admins`` patterns: a bare nick is ``nick!*@*`` (anyone
    with that nick: right for the embedded server, where the nick is the only identity;
    on a network a ``nick!user@host`` mask or ``$a:account`` is safer), anything else as
    given. Raises ConfigError for an entry that can't be a nick or a mask."""
    admins = set()
    for value in values or ():
        for entry in (e.strip() for e in value.split(",")):
            if not entry:
                continue
            if not entry.isprintable() or " " in entry:
                raise ConfigError(f"--admin {entry!r} is not a nick, a mask or $a:account")
            if entry.startswith("$a:") or "!" in entry or "@" in entry:
                admins.add(entry)
            else:
                admins.add(f"{entry}!*@*")
    return frozenset(admins)


def _web(raw: dict[str, Any], stats_database: str) -> WebSettings:
    """``[web]`` (keys checked by ``_section``); ``database`` defaults to the stats one."""
    default = WebSettings()
    port = _typed("web", raw, "port", int, default.port)
    if isinstance(port, bool) or not 1 <= port <= 65535:
        raise ConfigError("web.port must be a port number (1 to 65535)")
    public_url = _typed("web", raw, "public_url", str, "").strip().rstrip("/")
    if public_url and (
        not public_url.startswith(("http://", "https://")) or any(c.isspace() for c in public_url)
    ):
        raise ConfigError(
            f"web.public_url {public_url!r} must be an http:// or https:// address "
            '(e.g. "https://example.net/uno"), or "" when the site is not published'
        )
    root_path = _typed("web", raw, "root_path", str, "").strip().rstrip("/")
    if root_path and not root_path.startswith("/"):
        raise ConfigError(f'web.root_path {root_path!r} must start with "/" (e.g. "/uno")')
    allowed = raw.get("forwarded_allow_ips", default.forwarded_allow_ips)
    if isinstance(allowed, list) and all(isinstance(a, str) for a in allowed):
        allowed = ",".join(a.strip() for a in allowed)
    if not isinstance(allowed, str):
        raise ConfigError(
            'web.forwarded_allow_ips must be addresses, e.g. "127.0.0.1" or ["10.0.0.1", "::1"]'
        )
    database = _typed("web", raw, "database", str, "") or stats_database
    problem = database_url_problem(database)
    if problem is not None:
        raise ConfigError(f"web.database: {problem}")
    return WebSettings(
        host=_typed("web", raw, "host", str, default.host).strip() or default.host,
        port=port,
        public_url=public_url,
        database=database,
        root_path=root_path,
        forwarded_allow_ips=allowed.strip() or default.forwarded_allow_ips,
    )


def _check_service_identity(irc: IrcSettings) -> None:
    """The NickServ identity must say something: ``nickserv_server = "*"`` (any server) with
    no ``nickserv_host``, or a host mask of wildcards only, would trust anyone who takes the
    nick, which is what the check is there to stop."""
    server = irc.nickserv_server.strip()
    if not server:
        raise ConfigError('irc.nickserv_server must not be empty (default "services.*")')
    host_mask = irc.nickserv_host.rpartition("@")[2]
    if irc.nickserv_host and not host_mask.strip("*?."):
        raise ConfigError(
            "irc.nickserv_host must name the service's host (e.g. "
            '"NickServ@services.example.net" or "services.example.net"), not wildcards only'
        )
    if not server.strip("*?.") and not irc.nickserv_host:
        raise ConfigError(
            "irc.nickserv_server accepts any server: set irc.nickserv_host to the service's "
            "host too, or anyone who takes the nick NickServ would get the password"
        )


def _plugins(bot_cfg: dict[str, Any], folder: Path | None) -> tuple[str, ...]:
    """``bot.plugins``: module names or ``.py`` paths (relative ones from the config file's
    folder), the built-in plugins by default. Loading them is the composition root's job."""
    specs = _typed("bot", bot_cfg, "plugins", list, list(DEFAULT_PLUGINS))
    if not all(isinstance(s, str) and s.strip() for s in specs):
        raise ConfigError("bot.plugins must be a list of module names or paths of .py files")
    return tuple(
        str(folder / s)
        if folder is not None and is_file_spec(s) and not Path(s).is_absolute()
        else s
        for s in (s.strip() for s in specs)
    )


def _trusted(bot_cfg: dict[str, Any]) -> dict[str, Any]:
    """``bot.trusted_hosts`` (networks and host masks, checked here so that a bad one stops
    the bot with one line) and ``bot.trusted_multiplier``, as ``BotConfig`` fields."""
    hosts = _typed("bot", bot_cfg, "trusted_hosts", list, [])
    if not all(isinstance(h, str) for h in hosts):
        raise ConfigError('bot.trusted_hosts must be a list of strings, e.g. ["192.168.0.0/16"]')
    try:
        TrustedHosts(hosts)
    except ValueError as err:
        raise ConfigError(f"bot.trusted_hosts: {err}") from None
    multiplier = _typed("bot", bot_cfg, "trusted_multiplier", float, 4.0)
    if not 1 <= multiplier <= 100:
        raise ConfigError("bot.trusted_multiplier must be 1 to 100")
    return {"trusted_hosts": tuple(h.strip() for h in hosts), "trusted_multiplier": multiplier}


def _bots(raw: dict[str, Any]) -> ComputerConfig:
    """``[bots]``: computer players (``.addbot``); keys checked by ``_section``."""
    default = ComputerConfig()
    config = ComputerConfig(
        enabled=_typed("bots", raw, "enabled", bool, default.enabled),
        delay=_typed("bots", raw, "delay", float, default.delay),
        uno_grace=_typed("bots", raw, "uno_grace", float, default.uno_grace),
        budget_ms=_typed("bots", raw, "budget_ms", float, default.budget_ms),
        playouts=_typed("bots", raw, "playouts", int, default.playouts),
        workers=_typed("bots", raw, "workers", int, default.workers),
    )
    if not 0 <= config.delay <= 60:
        raise ConfigError("bots.delay must be 0 to 60 seconds")
    if not 0 <= config.uno_grace <= 60:
        raise ConfigError("bots.uno_grace must be 0 to 60 seconds")
    if not 1 <= config.budget_ms <= 10_000:
        raise ConfigError("bots.budget_ms must be 1 to 10000")
    if config.playouts is not None and config.playouts < 1:
        raise ConfigError("bots.playouts must be at least 1")
    if not 0 <= config.workers <= 16:
        raise ConfigError("bots.workers must be 0 to 16")
    return config


def _server(index: int, raw: Any) -> ServerSettings:
    where = f"irc.servers[{index}]"
    if not isinstance(raw, dict) or "host" not in raw:
        raise ConfigError(f'{where} needs at least host = "irc.example.net"')
    _check_keys(where, raw, tuple(f.name for f in dataclasses.fields(ServerSettings)))
    port = raw.get("port", 0)
    if not isinstance(port, int) or not 0 <= port <= 65535:
        raise ConfigError(f"{where}.port must be a port number")
    for key in ("host", "password", "tls_ca_file"):
        _typed(where, raw, key, str, None)  # a secret's error names its type only
    for key in ("tls", "tls_verify"):
        _typed(where, raw, key, bool, None)
    return ServerSettings(**raw)
