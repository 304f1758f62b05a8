"""The network edge: the only module that imports ``irc`` (jaraco).

It turns server events into :class:`~unobot.irc.transport.Incoming` records for the core and
implements :class:`~unobot.irc.transport.Transport` (queued, split, sanitised output) and
:class:`~unobot.irc.transport.Scheduler` (timers on the reactor). Everything runs on one thread,
the reactor's; :meth:`IrcAdapter.call_soon_threadsafe` is the only door in from other threads.

Why each piece is here (see shared/IRC-NOTES.md for the measurements):

- Output goes through :class:`~unobot.irc.outbox.Outbox`, drained by timers on the reactor's
  scheduler, because strict servers (inspircd) disconnect a client whose unprocessed input
  passes 8 KB and ``connection.set_rate_limit`` would ``time.sleep`` inside the reactor.
- Incoming bytes are decoded with ``LenientDecodingLineBuffer``: one latin-1 byte from a user
  otherwise raises ``UnicodeDecodeError`` and ends ``process_forever``.
- Every call into the core (and every timer callback) is wrapped: an exception is logged, the
  user gets a short apology at most, and the bot lives on. The reactor loop itself is ours, so an
  exception from the library's own handlers cannot end it either.
- Reconnects use a fresh ``ExponentialBackoff`` per adapter (the library's default argument is
  one shared instance with 60-300 s intervals) and a new one after every successful
  registration, so a flaky network does not push the next retry to minutes.
- The core hears of the network's faults as records too: ``DISCONNECTED`` when a registered
  connection is lost, ``RECONNECTED`` when it is back, and its own ``JOIN`` when it is in a
  channel again (after a reconnect, or after a kick: the adapter rejoins ``rejoin_delay``
  seconds later, once). A refused JOIN (banned, invite-only, full, bad key) is logged at
  WARNING and not retried, so a ban can't make the bot spin; the core holds the game for its
  grace and drops it with a log line.
- Secrets go only where they belong. The server password is sent as ``PASS`` with SASL too
  (the library's ``connect`` uses one ``password`` for both). The NickServ password is sent
  only to a service whose identity a WHOIS confirmed (its server, and its ``user@host`` when
  configured: :func:`~unobot.irc.services.service_verdict`), never to whoever holds the nick:
  on a network without services anyone can take it. The library logs every line at DEBUG;
  the filter of :mod:`unobot.irc.redact` masks the passwords in them.

Four parts that need no library are classes of their own, each given only what it needs and
fed the events' arguments: :class:`~unobot.irc.services.ServicesLogin` (SASL's outcome,
NickServ), :class:`~unobot.irc.lag.LagProbe` (the lag probe),
:class:`~unobot.irc.names.ChannelNames` (NAMES replies, who is an operator) and
:class:`~unobot.irc.joins.ChannelJoins` (joins, rejoins after a kick, refusals).
"""

from __future__ import annotations

import contextlib
import dataclasses
import functools
import itertools
import logging
import random
import socket
import ssl
import threading
import time
from collections import deque
from collections.abc import Callable
from typing import Any

import irc.bot
import irc.client
import irc.connection
import irc.schedule
import more_itertools
from jaraco.stream.buffer import LenientDecodingLineBuffer
from tempora import schedule as tempora_schedule

from unobot.irc import redact
from unobot.irc.casemap import irc_lower
from unobot.irc.flood import MODELS, FloodModel, bucket, flood_words, model_for_server
from unobot.irc.joins import ChannelJoins
from unobot.irc.lag import LagProbe
from unobot.irc.names import ChannelNames
from unobot.irc.outbox import CHANNEL_PREFIXES, Lane, Outbox, WireLine, is_private
from unobot.irc.serverinfo import ServerInfo, refusal_wait
from unobot.irc.services import ServicesLogin, service_verdict
from unobot.irc.settings import IrcSettings, ServerSettings
from unobot.irc.transport import UNTAGGED, Incoming, Kind, Tag

__all__ = ["IrcAdapter", "IrcSettings", "ServerSettings", "service_verdict"]

log = logging.getLogger(__name__)

redact.install()  # before any connection: the library logs PASS and IDENTIFY lines at DEBUG


def _event_text(event: irc.client.Event) -> str:
    """The text of an event. irc 20.5 puts the reason of its own SASL failures ("server does
    not support sasl") in the event's *target* (a list), not its arguments: read both."""
    parts = [str(a) for a in event.arguments or ()]
    if not parts and isinstance(event.target, list):
        parts = [str(a) for a in event.target]
    return " ".join(parts).strip()


class _Handle:
    """A cancellable timer: tempora's commands compare as datetimes, so we flag instead."""

    __slots__ = ("callback", "cancelled")

    def __init__(self, callback: Callable[[], None]) -> None:
        self.callback = callback
        self.cancelled = False


class _SafeScheduler(irc.schedule.DefaultScheduler):
    """The reactor's scheduler, but a raising timer is logged and dropped.

    Why: tempora's ``run_pending`` leaves a command that raised at the head of the queue, so it
    would raise again on every loop turn and no later timer would ever run.
    """

    def run(self, command: Any) -> None:
        try:
            command.target()
        except Exception:
            log.exception("error in a timer (ignored)")


class _ServerConnection(irc.client.ServerConnection):
    """The library's connection, but the server password goes out as ``PASS`` with SASL too.

    Why: irc 20.5's ``connect`` has one ``password`` argument; with ``sasl_login`` it becomes
    the SASL password and ``PASS`` is never sent, so on a network with a server password the
    bot was refused at every registration (ngircd: "Access denied: Bad password?"). The
    library starts a SASL login with ``CAP LS``; ``PASS`` goes just before it, ahead of
    ``NICK`` and ``USER`` as servers want it (ngircd refuses a ``PASS`` after ``NICK``).
    """

    server_password: str | None = None
    """Set by :meth:`_Bot._connect` before each SASL connect; sent once, then cleared."""

    def cap(self, subcommand: str, *args: str) -> None:
        password = self.server_password
        if subcommand == "LS" and password and getattr(self, "sasl_login", None):
            self.server_password = None
            self.pass_(password)
        super().cap(subcommand, *args)

    def end_sasl(self) -> bool:
        """End a SASL exchange the library is still waiting on (``CAP END``, so registration
        goes on); False when none is under way. Why: the library's state machine knows only
        903 and 904, so a 902, 905 or 906 would leave registration suspended for good."""
        if getattr(self, "_sasl_step", None) is None:
            return False
        self._sasl_end()
        return True


class _Reactor(irc.client.Reactor):
    """The library's reactor with a safe scheduler and guarded event handlers.

    Why: a handler that raises (ours, or the library's channel tracking on an odd NAMES reply)
    would otherwise abort ``process_data`` and lose the rest of the lines read in that chunk.
    """

    scheduler_class = _SafeScheduler
    connection_class = _ServerConnection

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        self._wake_r, self._wake_w = socket.socketpair()
        """Written by :meth:`wake` from another thread to end the reactor's select at once."""
        self._wake_r.setblocking(False)
        self._wake_w.setblocking(False)
        self._sorted: dict[str, list[Any]] = {}
        """Handlers per event type, merged with ``all_events`` and sorted; dropped whenever a
        handler is added or removed. Why: the library merges and sorts both lists for each of
        the two events every line makes (~5% of a command's time in the irc benchmark)."""
        super().__init__(*args, **kwargs)  # adds handlers of its own

    @property
    def sockets(self) -> list[Any]:
        """The connections' sockets plus the wake-up one, for the select."""
        return [*super().sockets, self._wake_r]

    def process_data(self, sockets: list[Any]) -> None:
        if self._wake_r in sockets:
            with contextlib.suppress(OSError):  # BlockingIOError once it is empty
                while self._wake_r.recv(4096):
                    pass
            sockets = [s for s in sockets if s is not self._wake_r]
        super().process_data(sockets)

    def wake(self) -> None:
        """End a select in progress (any thread): work was handed to the reactor."""
        with contextlib.suppress(OSError):  # a full pipe is already a pending wake-up
            self._wake_w.send(b"\0")

    def close_wake(self) -> None:
        self._wake_r.close()
        self._wake_w.close()

    def add_global_handler(self, event: str, handler: Any, priority: int = 0) -> None:
        super().add_global_handler(event, handler, priority)
        self._sorted.clear()

    def remove_global_handler(self, event: str, handler: Any) -> int:
        try:
            return super().remove_global_handler(event, handler)  # type: ignore[no-any-return]
        finally:
            self._sorted.clear()

    def _handle_event(self, connection: Any, event: irc.client.Event) -> None:
        with self.mutex:
            handlers = self._sorted.get(event.type)
            if handlers is None:
                handlers = self._sorted[event.type] = sorted(
                    self.handlers.get("all_events", []) + self.handlers.get(event.type, [])
                )
            for handler in handlers:
                try:
                    result = handler.callback(connection, event)
                except Exception:
                    log.exception("error in the %s handler %r (ignored)", event.type, handler)
                    continue
                if result == "NO MORE":
                    return


class _TimeoutFactory(irc.connection.Factory):
    """``irc.connection.Factory`` with a connect timeout.

    Why: the stock factory connects a blocking socket without a timeout, so an unreachable
    server would freeze the reactor (and every game timer) for the OS default of minutes.
    Nagle's algorithm is turned off (``TCP_NODELAY``): every write is a whole IRC line meant to
    leave now, and with Nagle a reply written while an earlier line is unacknowledged would
    wait for that ACK (an RTT, or a delayed ACK's 40 ms).
    """

    def __init__(self, timeout: float, wrapper: Callable[[socket.socket], Any]) -> None:
        super().__init__(wrapper=wrapper)
        self.timeout = timeout

    def connect(self, server_address: tuple[str, int]) -> Any:
        sock = socket.create_connection(server_address, timeout=self.timeout)
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        try:
            wrapped = self.wrapper(sock)  # TLS handshake, bounded by the same timeout
        except BaseException:
            sock.close()
            raise
        wrapped.settimeout(None)  # the reactor selects before reading
        return wrapped


def _tls_wrapper(server: ServerSettings) -> Callable[[socket.socket], Any]:
    if not server.tls:
        return irc.connection.identity
    ctx = ssl.create_default_context(cafile=server.tls_ca_file)
    if not server.tls_verify:
        ctx.check_hostname = False
        ctx.verify_mode = ssl.CERT_NONE
    return functools.partial(ctx.wrap_socket, server_hostname=server.host)


class _Bot(irc.bot.SingleServerIRCBot):
    """SingleServerIRCBot with per-server TLS/password and CTCP replies through the outbox."""

    reactor_class = _Reactor

    def __init__(self, adapter: IrcAdapter, settings: IrcSettings) -> None:
        specs = [irc.bot.ServerSpec(s.host, s.effective_port, s.password) for s in settings.servers]
        super().__init__(
            specs,
            settings.nick,
            settings.realname,
            recon=adapter._fresh_backoff(),
        )
        self.adapter = adapter
        self.settings = settings
        # Our own cycle of ServerSettings (TLS options per server); jump_server advances it.
        self.servers = more_itertools.peekable(itertools.cycle(settings.servers))
        self.connection.buffer_class = LenientDecodingLineBuffer
        self.connection._process_line = _guarded(self.connection._process_line)  # type: ignore[method-assign]

    def _connect(self) -> None:
        """Connect to the server at the front of the list (the library's, plus TLS/SASL/timeout)."""
        server: ServerSettings = self.servers.peek()
        cfg = self.settings
        use_sasl = bool(cfg.sasl_login and cfg.sasl_password)
        nick = self.adapter._start_nick()
        self.adapter._new_connection()
        # With SASL the library's ``password`` is the SASL one; the server's goes as PASS here.
        self.connection.server_password = server.password if use_sasl else None
        log.info("connecting to %s:%s (tls=%s)", server.host, server.effective_port, server.tls)
        try:
            self.connect(
                server.host,
                server.effective_port,
                nick,
                cfg.sasl_password if use_sasl else server.password,
                username=cfg.username,
                ircname=cfg.realname,
                connect_factory=_TimeoutFactory(cfg.connect_timeout, _tls_wrapper(server)),
                sasl_login=cfg.sasl_login if use_sasl else None,
            )
        except (irc.client.ServerConnectionError, OSError) as exc:
            log.warning("connect to %s:%s failed: %s", server.host, server.effective_port, exc)
            self.connection._handle_event(
                irc.client.Event("disconnect", self.connection.server, "", [str(exc)])
            )

    def on_ctcp(self, connection: irc.client.ServerConnection, event: irc.client.Event) -> None:
        """Answer VERSION/PING like the library, but queued (lowest lane) so CTCP can't flood us."""
        nick = event.source.nick
        args = event.arguments
        if len(self.adapter._outbox) > 20:
            return  # busy (or a CTCP flood): game output first, no replies
        if args[0] == "VERSION":
            self.adapter._outbox.push(
                "CTCPREPLY", nick, "VERSION unobot", Lane.CHANNEL, tag=_CTCP, now=time.monotonic()
            )
        elif args[0] == "PING" and len(args) > 1:
            self.adapter._outbox.push(
                "CTCPREPLY", nick, "PING " + args[1][:64], Lane.CHANNEL, tag=_CTCP,
                now=time.monotonic(),
            )  # fmt: skip
        self.adapter._schedule_drain()


class IrcAdapter:
    """One network connection: Transport + Scheduler for the core, Incoming records out of it.

    ``on_incoming`` is called on the reactor thread for every message, join, part, quit, kick
    and nick change (including the bot's own joins, so the core can notice a rejoin).
    """

    def __init__(self, settings: IrcSettings, on_incoming: Callable[[Incoming], None]) -> None:
        if not settings.servers:
            raise ValueError("at least one server is needed")
        self.settings = settings
        self.on_incoming = on_incoming
        self._outbox = Outbox(settings.burst, settings.rate, settings.line_bytes)
        self._outbox.exempt = lambda line: self._via_channel(line) is not None
        self._nicks = [settings.nick, *settings.alt_nicks]
        self._nick_index = 0
        self._tried_nick = settings.nick
        self._registered = False
        self._drain_timer: object | None = None
        self._last_rx = time.monotonic()
        self._calls: deque[Callable[[], None]] = deque()
        self._stop = threading.Event()
        self._apologised: dict[str, float] = {}
        self._delivering = False
        self._server = ServerInfo()
        """What the server said about itself on this connection (004, 005)."""
        self._told_439 = False
        self.connects = 0
        """Successful registrations so far (tests and monitoring read it)."""
        self.disconnects = 0
        self.sent_lines = 0
        self._bot = _Bot(self, settings)
        self._conn = self._bot.connection
        self._reactor = self._bot.reactor
        # The parts that need no library (module docstring): each told only what it needs.
        connected, drain = (lambda: self.connected), self._schedule_drain
        self._members = ChannelNames(lambda channel: self._bot.channels.get(channel))
        self._joins = ChannelJoins(
            settings.channels, settings.rejoin_delay, self._outbox, self,
            connected=connected, joined=lambda: self.joined, drain=drain,
        )  # fmt: skip
        self._lag = LagProbe(
            settings.lag_probe, self._outbox, self,
            connected=connected, sent_lines=lambda: self.sent_lines, drain=drain,
        )  # fmt: skip
        self._services = ServicesLogin(
            settings, self._outbox, self, connected=connected,
            nickname=lambda: self.nickname, join_channels=self._joins.join_all, drain=drain,
        )  # fmt: skip
        self._install_handlers()

    # -- Transport -------------------------------------------------------------------------
    @property
    def nickname(self) -> str:
        """The nick we have now (may be an alternate), else the configured one."""
        return self._conn.get_nickname() if self._registered else self.settings.nick

    def privmsg(self, target: str, text: str, tag: Tag = UNTAGGED) -> None:
        """Queue a PRIVMSG; it is sanitised, split to ``line_bytes`` and sent by the bucket,
        fairly between channels (``tag``: see :class:`unobot.irc.outbox.Outbox`). One to a
        nick (a hand for a player who chose ``.unohand query``) waits and leaves exactly as a
        NOTICE to them would, as ``CPRIVMSG`` where ``CNOTICE`` would be used."""
        self._outbox.push("PRIVMSG", target, text, tag=tag, now=time.monotonic())
        self._schedule_drain()

    def notice(self, target: str, text: str, tag: Tag = UNTAGGED) -> None:
        """Queue a NOTICE (a hand goes before its game's channel lines)."""
        self._outbox.push("NOTICE", target, text, tag=tag, now=time.monotonic())
        self._schedule_drain()

    def join(self, channel: str, key: str = "") -> None:
        """Join ``channel`` now (queued); it is rejoined after reconnects and kicks too."""
        self._joins.join(channel, key)

    def invite(self, nick: str, channel: str) -> None:
        """Invite ``nick`` to ``channel`` (a tournament table); queued like a JOIN. A server
        may refuse (the bot not an operator there, +i): the answer is logged, no more."""
        self._outbox.push("INVITE", nick, channel)
        self._schedule_drain()

    def is_op(self, channel: str, nick: str) -> bool:
        """Whether ``nick`` holds @ (or & / ~) in ``channel`` (:meth:`ChannelNames.is_op`)."""
        return self._members.is_op(channel, nick)

    @property
    def connected(self) -> bool:
        """Registered on a server (welcome received) and not yet disconnected."""
        return self._registered and self._conn.is_connected()

    @property
    def joined(self) -> list[str]:
        return list(self._bot.channels.keys())

    @property
    def queued(self) -> int:
        return len(self._outbox)

    # -- Scheduler -------------------------------------------------------------------------
    def call_later(self, delay: float, callback: Callable[[], None]) -> object:
        """Run ``callback`` on the reactor after ``delay`` s; exceptions are logged, not raised."""
        handle = _Handle(callback)
        self._reactor.scheduler.execute_after(max(0.0, delay), lambda: self._fire(handle))
        return handle

    def cancel(self, handle: object) -> None:
        if isinstance(handle, _Handle):
            handle.cancelled = True

    def now(self) -> float:
        return time.monotonic()

    def _fire(self, handle: _Handle) -> None:
        if handle.cancelled:
            return
        handle.cancelled = True
        self._guard("timer", handle.callback)

    # -- running ---------------------------------------------------------------------------
    def call_soon_threadsafe(self, fn: Callable[[], None]) -> None:
        """Run ``fn`` on the reactor thread at once: queued, and the reactor's select woken.

        Why: a computer player's decision comes back from a worker process this way, and the
        select may otherwise sleep until the next timer (up to 0.2 s)."""
        self._calls.append(fn)
        self._reactor.wake()

    def run(self) -> None:
        """Connect and run the reactor loop until :meth:`stop`. Blocks; never raises."""
        self._guard("connect", self._bot._connect)
        while not self._stop.is_set():
            try:
                self._reactor.process_once(timeout=self._select_timeout())
                while self._calls:
                    self._guard("call", self._calls.popleft())
            except Exception:
                log.exception("error in the reactor loop; carrying on")
        self._shutdown()

    def stop(self, message: str = "Bye") -> None:
        """Ask the loop to quit (from any thread); the loop sends QUIT and closes."""
        self._quit_message = message
        self._stop.set()

    def _shutdown(self) -> None:
        self._bot.recon = _NoReconnect()
        try:
            if self._conn.is_connected():
                self._conn.quit(getattr(self, "_quit_message", "Bye"))
            self._conn.close()
            self._reactor.close_wake()
        except Exception:
            log.exception("error while closing")

    def disconnect(self, message: str = "Reconnecting") -> None:
        """Drop the connection; the reconnect strategy brings it back."""
        self._conn.disconnect(message)

    def _select_timeout(self) -> float:
        """Sleep in select until the next timer is due, 0.2 s at most (for threadsafe calls)."""
        queue = getattr(self._reactor.scheduler, "queue", None)
        if not queue:
            return 0.2
        delay = (queue[0] - tempora_schedule.now()).total_seconds()
        return min(0.2, max(0.0, delay))

    # -- output ----------------------------------------------------------------------------
    def _schedule_drain(self) -> None:
        """Arm one timer for when the bucket allows the next line (none if one is armed).

        Not while a handler runs: :meth:`_flush` sends its output as soon as it returns."""
        if self._drain_timer is not None or not self._registered or self._delivering:
            return
        now = time.monotonic()
        when = self._outbox.next_time(now)
        if when is None:
            return
        # Even "now" goes through the scheduler: a handler's whole output is queued first, so
        # private hands overtake channel lines queued earlier in the same handler.
        self._drain_timer = self.call_later(max(0.0, when - now), self._drain)

    def _drain(self) -> None:
        self._drain_timer = None
        if not self.connected:
            return  # kept queued; the next welcome re-arms the drain
        for line in self._outbox.due(time.monotonic()):
            self._send(line)
            if not self._conn.is_connected():
                return
        self._schedule_drain()

    def _send(self, line: WireLine) -> None:
        conn = self._conn
        try:
            via = self._via_channel(line) if line.via else None
            if via is not None:  # CNOTICE nick #chan :text (ircu): no target change counted
                conn.send_items("C" + line.command, line.target, via, ":" + line.text)
            elif line.command == "PRIVMSG":
                conn.privmsg(line.target, line.text)
            elif line.command == "NOTICE":
                conn.notice(line.target, line.text)
            elif line.command == "PING":
                conn.send_items("PING", ":" + line.target)
                self._lag.left(line.target)
            elif line.command == "JOIN":
                conn.join(line.target, line.text)
            elif line.command == "INVITE":
                conn.invite(line.target, line.text)
            elif line.command == "CTCPREPLY":
                conn.ctcp_reply(line.target, line.text)
            elif line.command == "NICK":
                conn.nick(line.target)
            else:
                conn.send_items(line.command, line.target, line.text and ":" + line.text)
            self.sent_lines += 1
        except irc.client.ServerNotConnectedError:
            log.info("not connected; dropped %s to %s", line.command, line.target)
        except (irc.client.MessageTooLong, irc.client.InvalidCharacters) as exc:
            log.error("dropped %s to %s: %s", line.command, line.target, exc)

    def _via_channel(self, line: WireLine) -> str | None:
        """The channel a private line may be sent through as ``CNOTICE``/``CPRIVMSG``, or
        None. ircu counts every new person the bot messages against a target-change limit
        (a new one every two minutes, once twenty are used: ``439``), unless it sends as
        ``CNOTICE nick #chan`` where it holds +o or +v and the person is in ``#chan``."""
        if not line.via or not is_private(line) or not self._server.supports("C" + line.command):
            return None
        channel = self._bot.channels.get(line.via)
        me = self._conn.get_nickname()
        if channel is None or not (channel.is_oper(me) or channel.is_voiced(me)):
            return None
        return line.via if channel.has_user(line.target) else None

    # -- what the server says about itself and the bot's lines -------------------------------
    def _new_connection(self) -> None:
        """Forget what the last server said: the next one may be another kind."""
        self._server = ServerInfo()
        self._lag.reset()
        self._services.reset()

    def _registration(self) -> list[WireLine]:
        """What registering sent (the library wrote it): charged to the server's clock."""
        nick = self._conn.get_nickname() or self.settings.nick
        user = self.settings.username or nick
        return [WireLine("NICK", nick, ""), WireLine("USER", f"{user} 0 *", self.settings.realname)]

    def flood_model(self, version: str) -> FloodModel:
        """The model to send by on a server that calls itself ``version``."""
        cfg = self.settings
        fallback = bucket(cfg.burst, cfg.rate)
        if cfg.rate == 0 or cfg.flood_model == "bucket":
            return fallback
        if cfg.flood_model == "auto":
            return model_for_server(version, fallback)
        return MODELS[cfg.flood_model]

    def _on_myinfo(self, conn: Any, event: irc.client.Event) -> None:
        """004: the server's name and version: which flood model applies."""
        self._server.read_myinfo(list(event.arguments))
        model = self.flood_model(self._server.version)
        self._outbox.set_model(model)
        self._outbox.reset(time.monotonic(), self._registration())
        if model.per_line <= 0:
            why = "the bot's own server" if model.name == "embedded" else "irc.send_rate = 0"
            log.info("server %s runs %s: sending without limit (%s)",
                     self._server.name, self._server.version, why)  # fmt: skip
        else:
            log.info(
                "server %s runs %s: sending by the %s flood model (%.1f s a line%s, %.0f s "
                "ahead at most%s)",
                self._server.name,
                self._server.version or "an unknown version",
                model.name,
                model.per_line,
                f" + 1 s per {model.per_bytes} bytes" if model.per_bytes else "",
                model.allowance,
                ", slower while the server lags" if self.settings.lag_probe else "",
            )

    def _on_isupport(self, conn: Any, event: irc.client.Event) -> None:
        """005: CNOTICE/CPRIVMSG, and how many channels the bot may be in."""
        self._server.read_isupport(list(event.arguments))
        self._joins.server_limit(self._server.max_channels)

    def _on_unknown_command(self, conn: Any, event: irc.client.Event) -> None:
        """421: the server does not know a command the bot sent (ircu and irc2: CAP)."""
        command = event.arguments[0] if event.arguments else ""
        if command.upper() != "CAP":
            log.info("the server does not know the command %s", command)

    def _on_ping(self, conn: Any, event: irc.client.Event) -> None:
        """The library answers the server's PING itself: its PONG costs like any line."""
        self._outbox.charge(WireLine("PONG", str(event.target or ""), ""), time.monotonic())

    def _on_target_too_fast(self, conn: Any, event: irc.client.Event) -> None:
        """439 (ircu) / 707 (Solanum): a message to a new target, or a JOIN, refused for now.
        The refused line is queued again for when the server says, never lost."""
        args = [str(a) for a in event.arguments or ()]
        target = args[0] if args else ""
        text = args[-1] if len(args) > 1 else ""
        wait = refusal_wait(text, 60.0)
        now = time.monotonic()
        if target.startswith(CHANNEL_PREFIXES):
            self._joins.later(target, text, wait)
            return
        was_held = irc_lower(target) in self._outbox.held(now)
        again = self._outbox.refused(target, wait, now)
        if not self._told_439:
            self._told_439 = True
            log.warning(
                "the server refuses private messages to new people for now (%s %s: %s); "
                "held lines go when it allows. Give the bot +v or +o in its channels: "
                "then hands go as CNOTICE, which this limit does not count%s",
                event.type,
                target,
                text,
                "" if self._server.supports("CNOTICE") else " (this server has no CNOTICE)",
            )
        else:
            log.info("%s refused for %s (%s): held %.0f s", event.type, target, text, wait)
        if again is not None and again[1] == "hands" and again[0].via and not was_held:
            # The player waits for their cards (this line, or a newer one of theirs).
            self._deliver(Incoming(Kind.HELD, target, again[0].via, str(round(wait))))
        self._schedule_drain()

    # -- input -----------------------------------------------------------------------------
    def _install_handlers(self) -> None:
        conn = self._conn
        handlers: dict[str, Callable[[Any, irc.client.Event], None]] = {
            "all_raw_messages": self._on_raw,
            "welcome": self._on_welcome,
            "nicknameinuse": self._on_nick_refused,
            "erroneusnickname": self._on_nick_refused,
            "unavailresource": self._on_nick_refused,
            "disconnect": self._on_disconnect,
            "error": self._on_error,
            "passwdmismatch": self._on_error,
            "login_failed": lambda conn, event: self._services.sasl_failed(_event_text(event)),
            "saslsuccess": lambda conn, event: self._services.sasl_succeeded(),
            "nicklocked": self._on_sasl_stuck,
            "sasltoolong": self._on_sasl_stuck,
            "saslaborted": self._on_sasl_stuck,
            "whoisuser": self._on_whois,
            "whoisserver": self._on_whois,
            "endofwhois": self._on_whois,
            "nosuchnick": self._on_whois,
            "pubmsg": self._on_message,
            "privmsg": self._on_message,
            "join": self._on_membership,
            "part": self._on_membership,
            "quit": self._on_membership,
            "kick": self._on_membership,
            "nick": self._on_membership,
            "mode": lambda conn, event: self._members.forget_ops(),
            "namreply": self._on_namreply,
            "endofnames": self._on_endofnames,
            "channelisfull": self._on_join_refused,
            "inviteonlychan": self._on_join_refused,
            "bannedfromchan": self._on_join_refused,
            "badchannelkey": self._on_join_refused,
            "nochanmodes": self._on_join_refused,  # 477: on many networks, a registered nick
            "toomanychannels": self._on_join_refused,  # 405: ircu's MAXCHANNELS=10
            "myinfo": self._on_myinfo,
            "featurelist": self._on_isupport,
            "cap": lambda conn, event: self._services.cap_seen(),
            "unknowncommand": self._on_unknown_command,
            "pong": lambda conn, event: self._lag.pong([str(a) for a in event.arguments or ()]),
            "ping": self._on_ping,
            "439": self._on_target_too_fast,  # ircu: Target change too fast
            "707": self._on_target_too_fast,  # Solanum/charybdis: ERR_TARGCHANGE
            "privnotice": self._on_private_notice,
            "loggedin": lambda conn, event: self._services.logged_in(_event_text(event)),
        }
        for name, fn in handlers.items():
            conn.add_global_handler(name, self._guarded(name, fn), 0)
        self.call_later(min(30.0, self.settings.ping_interval / 2), self._keepalive)
        self._lag.start()

    def _guarded(
        self, name: str, fn: Callable[[Any, irc.client.Event], None]
    ) -> Callable[[Any, irc.client.Event], None]:
        def handler(conn: Any, event: irc.client.Event) -> None:
            self._guard(name, lambda: fn(conn, event))

        return handler

    def _guard(self, what: str, fn: Callable[[], None]) -> bool:
        """Call ``fn``; log any exception instead of letting it end the reactor loop."""
        try:
            fn()
            return True
        except Exception:
            log.exception("error in %s (ignored, the bot carries on)", what)
            return False

    def _on_raw(self, conn: Any, event: irc.client.Event) -> None:
        self._last_rx = time.monotonic()

    def _start_nick(self) -> str:
        self._nick_index = 0
        self._tried_nick = self._nicks[0]
        return self._tried_nick

    def _on_nick_refused(self, conn: Any, event: irc.client.Event) -> None:
        """433/432/437 before registration: try the next alternate, then append ``_``."""
        if self._registered:
            return  # a later NICK (regaining the main nick) failed: keep the one we have
        self._nick_index += 1
        if self._nick_index < len(self._nicks):
            nick = self._nicks[self._nick_index]
        elif event.type == "nicknameinuse" and len(self._tried_nick) < 16:
            nick = self._tried_nick + "_"
        else:
            nick = f"{self.settings.nick[:9]}{random.randrange(1000):03d}"
        log.info("nick %s refused (%s); trying %s", self._tried_nick, event.type, nick)
        self._tried_nick = nick
        conn.nick(nick)

    def _on_welcome(self, conn: Any, event: irc.client.Event) -> None:
        self._registered = True
        self.connects += 1
        self._bot.recon = self._fresh_backoff()
        now = time.monotonic()
        self._last_rx = now
        self._outbox.reset(now, self._registration())
        log.info("registered as %s on %s", conn.get_nickname(), conn.get_server_name())
        self._services.registered()  # SASL's outcome said; NickServ checked (the joins wait)
        # IRCv3 (3.1 allows it after registration): who is logged in to which services account,
        # for admin checks by account. Requested one by one: an unknown cap NAKs its whole REQ.
        for cap in ("account-tag", "extended-join"):
            self._outbox.push("CAP", "REQ", cap)
        if not self._services.checking:
            self._joins.join_all()
        if self._drain_timer is not None:  # armed on the previous connection
            self.cancel(self._drain_timer)
            self._drain_timer = None
        if self.connects > 1:  # the core holds its games until it is back in their channels
            self._deliver(Incoming(Kind.RECONNECTED, conn.get_nickname()))
        self._schedule_drain()

    # -- identifying (unobot.irc.services) -------------------------------------------------
    def _on_whois(self, conn: Any, event: irc.client.Event) -> None:
        self._services.whois(event.type, list(event.arguments or ()))

    def _on_private_notice(self, conn: Any, event: irc.client.Event) -> None:
        source = event.source
        if source is not None:
            self._services.notice(source.nick, _event_text(event))

    def _on_sasl_stuck(self, conn: Any, event: irc.client.Event) -> None:
        """902/905/906 during SASL: the library would wait for ever; end it so the bot
        registers (without an account)."""
        if isinstance(conn, _ServerConnection) and conn.end_sasl():
            self._services.sasl_stuck(_event_text(event), event.type)

    def _on_error(self, conn: Any, event: irc.client.Event) -> None:
        """ERROR (the server closes the link) or 464: say why, as the disconnect that follows
        only says "Connection reset by peer" (a wrong or missing server password shows here:
        ngircd "Access denied: Bad password?", inspircd "Access denied by configuration")."""
        if event.type == "passwdmismatch":  # the target is our nick; the text says why
            text = _event_text(event) or "no reason given"
            log.error("the server refused the password (irc.servers password): %s", text)
        else:  # ERROR's one parameter is parsed as the event's target
            text = event.target if isinstance(event.target, str) else _event_text(event)
            if flood_words(text or "") and not self._stop.is_set():
                self._outbox.pacer.flooded()
                log.warning(
                    "the server closes the link for flooding: %s; coming back with half the "
                    "send budget (the %s model, %.1fx slower), which grows back slowly; every "
                    "seated player's hand is sent again after the rejoin",
                    text,
                    self._outbox.model.name,
                    self._outbox.pacer.factor,
                )
                return
            level = logging.DEBUG if self._stop.is_set() else logging.WARNING
            log.log(level, "the server closes the link: %s", text or "no reason given")

    def _on_disconnect(self, conn: Any, event: irc.client.Event) -> None:
        self._members.clear()
        self._services.lost()
        was = self._registered
        nick = self.nickname
        self._registered = False
        self.disconnects += 1
        stopping = self._stop.is_set()
        cause = " ".join(event.arguments)
        log.log(
            # Asked for: no cause for alarm, and the stop has said its own line already.
            logging.DEBUG if stopping else logging.WARNING,
            "disconnected (%s)%s",
            cause,
            "" if stopping else "; reconnecting" if was else "; retrying",
        )
        if was and not stopping:
            self._deliver(Incoming(Kind.DISCONNECTED, nick, "", cause))

    def _on_join_refused(self, conn: Any, event: irc.client.Event) -> None:
        """471/473/474/475/477/405: said by :meth:`ChannelJoins.refused`, never retried here."""
        self._joins.refused(event.type, list(event.arguments or ()))

    def _keepalive(self) -> None:
        """PING after ``ping_interval`` of silence; reconnect after twice that; regain nick."""
        try:
            if self._conn.is_connected():
                idle = time.monotonic() - self._last_rx
                if idle > 2 * self.settings.ping_interval:
                    log.warning("no data from the server for %.0f s; reconnecting", idle)
                    self._conn.disconnect("Ping timeout")
                elif idle > self.settings.ping_interval:
                    self._conn.ping(self._conn.get_server_name() or "keepalive")
                elif (
                    self._registered
                    and self._conn.get_nickname() != self.settings.nick
                    and self._services.identified is not False  # they would rename it again
                ):
                    self._outbox.push("NICK", self.settings.nick, "")
                    self._schedule_drain()
        finally:
            self.call_later(min(30.0, self.settings.ping_interval / 2), self._keepalive)

    def _account(self, event: irc.client.Event) -> str | None:
        for tag in event.tags or ():
            if tag.get("key") == "account":
                return tag.get("value") or None
        return None

    def _on_message(self, conn: Any, event: irc.client.Event) -> None:
        source = event.source
        nick = source.nick if source else ""
        target = event.target or ""
        is_op = target.startswith(CHANNEL_PREFIXES) and self.is_op(target, nick)
        record = Incoming(
            Kind.MESSAGE,
            nick,
            target,
            event.arguments[0] if event.arguments else "",
            userhost=source.userhost if source and "@" in source else "",
            account=self._account(event),
            is_op=is_op,
        )
        self._deliver(record)

    def _on_namreply(self, conn: Any, event: irc.client.Event) -> None:
        """353: gathered by :meth:`ChannelNames.namreply`, less the server's status prefixes."""
        prefixes = "".join(getattr(conn.features, "prefix", {}) or "@+")
        self._members.namreply(list(event.arguments or ()), prefixes)

    def _on_endofnames(self, conn: Any, event: irc.client.Event) -> None:
        """366: the gathered names go to the core as one NAMES record."""
        record = self._members.endofnames(list(event.arguments or ()))
        if record is not None:
            self._deliver(record)

    def _on_membership(self, conn: Any, event: irc.client.Event) -> None:
        self._members.forget_ops()
        source = event.source
        nick = source.nick if source else ""
        userhost = source.userhost if source and "@" in source else ""
        args = event.arguments
        kind = event.type
        if kind == "join":
            # extended-join: arguments are [account or "*", realname]
            account = args[0] if args and args[0] != "*" else self._account(event)
            record = Incoming(
                Kind.JOIN, nick, event.target or "", userhost=userhost, account=account
            )
        elif kind == "part":
            record = Incoming(Kind.PART, nick, event.target or "", args[0] if args else "")
            if irc_lower(nick) == irc_lower(conn.get_nickname()):
                self._joins.left()
        elif kind == "quit":
            record = Incoming(Kind.QUIT, nick, "", args[0] if args else "", userhost=userhost)
        elif kind == "kick":
            record = Incoming(
                Kind.KICK,
                args[0] if args else "",
                event.target or "",
                args[1] if len(args) > 1 else "",
            )
            if record.nick and irc_lower(record.nick) == irc_lower(conn.get_nickname()):
                self._joins.kicked(record.target, nick, record.text)
                self._joins.left()
        else:  # nick
            record = Incoming(Kind.NICK, nick, "", userhost=userhost, new_nick=event.target or "")
            if record.new_nick:  # what waits for the old nick would be refused, hands lost
                self._outbox.renamed(nick, record.new_nick)
                if irc_lower(record.new_nick) == irc_lower(conn.get_nickname()):
                    self._services.renamed(nick, record.new_nick)
        self._deliver(record)

    def _deliver(self, record: Incoming) -> None:
        """Hand a record to the core; on an exception, log it and apologise (rarely)."""
        record = _cleaned(record)
        self._delivering = True
        try:
            self._deliver_one(record)
        finally:
            self._delivering = False
            self._flush()

    def _flush(self) -> None:
        """Send what the bucket allows now, right after a handler queued its whole output.

        A server hands us many lines in one read (50 channels playing at once: dozens); waiting
        for the scheduler would make every reply in the batch wait for the whole batch. Within
        one handler's output the lanes still apply (hands before channel lines), and under a
        rate limit whatever the bucket refuses stays queued for the timer as before.
        """
        if not self.connected:
            return
        now = time.monotonic()
        when = self._outbox.next_time(now)
        if when is None:
            return
        if when > now:
            self._schedule_drain()  # the bucket is empty: the timer sends the rest
            return
        if self._drain_timer is not None:
            self.cancel(self._drain_timer)
            self._drain_timer = None
        self._drain()

    def _deliver_one(self, record: Incoming) -> None:
        if self._guard(f"on_incoming({record.kind.value})", lambda: self.on_incoming(record)):
            return
        if record.kind is Kind.MESSAGE and record.nick and self.settings.apology:
            now = time.monotonic()
            last = self._apologised.get(record.nick)
            if last is None or now - last >= self.settings.apology_interval:
                self._apologised[record.nick] = now
                self.notice(record.nick, self.settings.apology)

    def _fresh_backoff(self) -> irc.bot.ExponentialBackoff:
        return irc.bot.ExponentialBackoff(
            min_interval=self.settings.reconnect_min, max_interval=self.settings.reconnect_max
        )


class _NoReconnect(irc.bot.ReconnectStrategy):
    """Used while shutting down: a deliberate quit must not reconnect."""

    def run(self, bot: Any) -> None:
        return None


def _guarded(process_line: Callable[[str], None]) -> Callable[[str], None]:
    """The library's per-line parser, made to skip a line it can't parse (``PRIVMSG`` with no
    parameters, a line starting with a space): unguarded, its exception leaves
    ``process_data`` and every later line of the same read is lost."""

    def process(line: str) -> None:
        try:
            process_line(line)
        except Exception as err:
            log.info("ignored a line from the server that can't be parsed (%s): %.80r", err, line)

    return process


_DIRTY = ("\r", "\n", "\0")

_CTCP = Tag("", reply=True)
"""CTCP answers share the flow of private replies, and expire like them."""


def _clean(text: str) -> str:
    return text.replace("\r", " ").replace("\n", " ").replace("\0", " ")


def _cleaned(record: Incoming) -> Incoming:
    """``record`` with CR, LF and NUL turned to spaces in every field: a server may relay
    them inside a line (IRC forbids them there), and nothing past the adapter should ever
    see one, nor echo it."""
    fields = (record.nick, record.target, record.text, record.userhost, record.new_nick,
              record.account or "")  # fmt: skip
    if not any(bad in value for value in fields for bad in _DIRTY):
        return record
    return dataclasses.replace(
        record,
        nick=_clean(record.nick),
        target=_clean(record.target),
        text=_clean(record.text),
        userhost=_clean(record.userhost),
        new_nick=_clean(record.new_nick),
        account=None if record.account is None else _clean(record.account),
    )
