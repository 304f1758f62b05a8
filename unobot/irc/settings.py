"""What the adapter needs to reach a network, typed: the TOML loader (:mod:`unobot.config`)
builds these, and the adapter and its parts (:mod:`unobot.irc.services`, ...) read them.

Kept apart from :mod:`unobot.irc.adapter` so that those parts can read the settings without
importing the adapter (which imports them). ``unobot.irc.adapter`` re-exports both classes.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

__all__ = ["IrcSettings", "ServerSettings"]


@dataclass(frozen=True, slots=True)
class ServerSettings:
    """One server to try; the adapter cycles through the list on every reconnect."""

    host: str
    port: int = 0
    """0 means the usual port: 6697 with TLS, 6667 without."""
    tls: bool = False
    tls_verify: bool = True
    """Check the certificate chain and host name (default). False accepts any certificate."""
    tls_ca_file: str | None = None
    """Trust this PEM file (e.g. a self-signed server certificate) instead of the system CAs."""
    password: str | None = field(default=None, repr=False)
    """Server password (PASS), sent with or without SASL. Kept out of ``repr`` (and so out of
    any log line or traceback that shows the settings)."""

    @property
    def effective_port(self) -> int:
        return self.port or (6697 if self.tls else 6667)


@dataclass(frozen=True)
class IrcSettings:
    """Everything the adapter needs to reach a network, typed (the TOML loader builds this)."""

    servers: tuple[ServerSettings, ...]
    nick: str = "unobot"
    alt_nicks: tuple[str, ...] = ()
    """Tried in order when the nick is taken; then ``_`` is appended."""
    username: str | None = None
    realname: str = "unobot - Uno for IRC"
    channels: Mapping[str, str] = field(default_factory=dict)
    """Channel -> key ("" for none)."""
    sasl_login: str | None = None
    sasl_password: str | None = field(default=None, repr=False)
    nickserv_password: str | None = field(default=None, repr=False)
    """IDENTIFY to NickServ after registering, when SASL is not configured or failed, and
    only once a WHOIS confirmed it is the service (``nickserv_server``, ``nickserv_host``)."""
    nickserv_nick: str = "NickServ"
    nickserv_server: str = "services.*"
    """Glob (case-insensitive) the server NickServ is on (WHOIS 312) must match. Networks put
    their services on a server of their own, usually ``services.<network>``; an impostor who
    took the nick on a network without services is on an ordinary server. ``*``: any server,
    for networks that hide server names (then ``nickserv_host`` says who the service is)."""
    nickserv_host: str = ""
    """Glob (case-insensitive) NickServ's ``user@host`` (WHOIS 311) must match too; without an
    ``@`` only the host is matched. "" checks the server alone."""
    burst: int = 4
    rate: float = 1.0
    """Lines per second after the burst; 0 = unlimited (only for servers without flood limits)."""
    flood_model: str = "auto"
    """How the server counts the bot's lines (:mod:`unobot.irc.flood`): ``auto`` reads it off
    the server's version (the configured bucket for a server it does not know), ``bucket``
    always uses ``burst`` and ``rate``, or a model's name (``ircu``, ``irc2``, ``hybrid``...)."""
    lag_probe: float = 30.0
    """Seconds between lag probes (a PING whose PONG says how long the server holds the bot's
    lines) while the bot is sending; 0: never probe. Each probe is a line of the budget (on
    ircu, 2 s of it): every 30 s costs 3-7 % of it; every 5 s cost 40 % on ircu."""
    line_bytes: int = 400
    reconnect_min: float = 2.0
    reconnect_max: float = 120.0
    connect_timeout: float = 15.0
    ping_interval: float = 120.0
    """Silence after which we PING the server; twice this and we reconnect."""
    apology: str = "Sorry, something went wrong with that command."
    apology_interval: float = 30.0
    """At most one apology per nick in this many seconds (no apology floods)."""
    rejoin_delay: float = 5.0
    """Seconds after being kicked before the bot joins the channel again (one try: a refusal
    such as a ban is logged, not retried). Negative: never rejoin after a kick."""
    connections: int = 1
    """Connections to open to the network, each with its own send budget (``unobot.irc.pool``:
    the adapter itself is always one of them)."""
