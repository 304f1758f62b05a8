"""The bot's core: what the IRC adapter drives. Records in (``handle``), lines out (transport).

One :class:`~unobot.core.table.Table` per channel, keyed by the folded channel name, and nothing
shared between them. Tables say when they need waking (``Table.deadlines``); the bot keeps one
scheduler handle per deadline and reschedules after every change, so the table stays free of
clocks and callbacks. Everything runs on the caller's thread (the reactor's).

Network faults reach the bot as records too (:class:`~unobot.irc.transport.Kind`): when it
loses the connection (``DISCONNECTED``) or is kicked (its own ``KICK``) its games in those
channels are *offline*: their timers stop, so nobody is timed out while the channel can't hear
the bot. Its own ``JOIN`` brings a game back: the turn clock starts again, the other clocks
move on by the time lost, and the channel is told in one line that the game goes on, with the
status. A game whose channel the bot doesn't get back into within the table's seat grace
(counted from the kick, or from the reconnect) is dropped. Every drop is logged.
"""

from __future__ import annotations

import dataclasses
import logging
from collections.abc import Iterable
from random import Random
from types import ModuleType
from typing import TYPE_CHECKING, Any, Protocol

from unobot.core.admins import AdminCode, Admins, Claim
from unobot.core.bot_config import BotConfig
from unobot.core.channels import Holds
from unobot.core.computers import Computers, Decider, default_decider
from unobot.core.dispatch import CommandThrottle, Dispatcher
from unobot.core.flip_table import table_class
from unobot.core.members import Members
from unobot.core.plugin import Context, load_plugins
from unobot.core.preferences import Preferences, keys_of
from unobot.core.render_irc import Cards, Line, held_text, render_update, resumed_text
from unobot.core.restarts import CONNECT_SECONDS, journal_done
from unobot.core.settings import MemorySettings, SettingsStore, rules_from_text
from unobot.core.table import Frozen, Table
from unobot.core.table_timers import TableTimers
from unobot.core.trusted import TrustedHosts
from unobot.core.updates import Update
from unobot.engine import HouseRules
from unobot.i18n import N_, domain, speak, speaking
from unobot.irc.casemap import irc_eq, irc_lower
from unobot.irc.outbox import CHANNEL_PREFIXES
from unobot.irc.transport import Incoming, Kind, Scheduler, Tag, Transport

if TYPE_CHECKING:
    from collections.abc import Callable

    from unobot.core.journal import Journal
    from unobot.stats import StatsStore

__all__ = ["Bot", "BotConfig", "Context", "GameObserver", "LiveObserver"]

log = logging.getLogger(__name__)
_, ngettext = domain("game")


class GameObserver(Protocol):
    """Follows the games (the stats recorder); it never changes a table and never raises."""

    def observe(self, table: Table, update: Update) -> None:
        """Called with every update the bot publishes, before a finished table is dropped."""

    def saw_account(self, nick: str, account: str) -> None:
        """``nick`` is logged in to services as ``account``."""

    # Optional: ``unsaved(table) -> bool``, whether the game ``table`` finished is in memory
    # only (the stats recorder's: see ``unobot.core.restarts``).


class LiveObserver(Protocol):
    """Follows the games for the site's live view (``unobot.stats.live.LiveWriter``): public
    state and channel lines only; it never changes a table, never raises, never waits."""

    def observe(self, table: Table, update: Update) -> None:
        """Every update the bot publishes, before its lines are sent."""

    def said(self, target: str, text: str) -> None:
        """A PRIVMSG the bot sends to a channel (never a NOTICE, never a line to a nick: a
        hand goes to its player alone, by NOTICE or by PRIVMSG)."""

    def dropped(self, table: Table) -> None:
        """The bot forgets ``table`` (ended, stopped, lost)."""


class TableDirector(Protocol):
    """Runs games at tables for something above them (``unobot.tournament.director``)."""

    tournaments: dict[str, Any]

    def observe(self, table: Table, update: Update) -> None:
        """Every update of a table whose ``config.tournament`` is set."""

    def dropped(self, table: Table, why: str) -> None:
        """Such a table went away before its match ended."""

    def seen(self, incoming: Incoming) -> None:
        """A JOIN, NAMES or NICK record (players coming to their table)."""


class Bot:
    """Holds the tables and turns incoming records into table actions and outgoing lines."""

    def __init__(
        self,
        transport: Transport,
        scheduler: Scheduler,
        settings: SettingsStore | None = None,
        config: BotConfig | None = None,
        *,
        rng: Random | None = None,
        plugins: Iterable[ModuleType] | None = None,
        store: StatsStore | None = None,
        recorder: GameObserver | None = None,
        decider: Decider | None = None,
        journal: Journal | None = None,
        live: LiveObserver | None = None,
    ) -> None:
        """``store``: where finished games are recorded and stats read (None: stats off).
        ``recorder``: told every update the bot publishes and every services account it
        learns, to record finished games (``unobot.stats.recorder.GameRecorder``, made by the
        composition root: the core does not import the recorder, the recorder reads tables).
        ``decider``: where computer players think; default worker processes for ``hard`` when
        the scheduler can be called from another thread (the IRC adapter), else inline.
        ``journal``: where every table is written down as it changes, so that :meth:`restore`
        can rebuild them after a restart (None: games don't survive one). ``live``: told the
        public state and channel lines of every game, for the site's live view (None: off)."""
        self.transport = transport
        self.scheduler = scheduler
        self._config = config or BotConfig()
        self.preferences = Preferences(
            settings if settings is not None else MemorySettings(),
            self._config.language,
            self._config.channel_languages,
        )
        """Languages and how each player wants their cards (``unobot.core.preferences``)."""
        self.rng = rng or Random()
        plugins = load_plugins(self.config.plugins) if plugins is None else list(plugins)
        throttle = CommandThrottle(
            trusted=TrustedHosts(self.config.trusted_hosts),
            trusted_multiplier=self.config.trusted_multiplier,
        )
        self.dispatcher = Dispatcher(self.config.prefix, plugins, throttle)
        self.chatter: list[Callable[[Bot, Incoming], bool]] = [
            hook for module in plugins if callable(hook := getattr(module, "said_uno", None))
        ]
        """Plugins' hooks for channel lines that are not commands (a plain "uno")."""
        self.store = store
        self.recorder = recorder
        self.journal = journal
        self.live = live
        self.tables: dict[str, Table] = {}
        bots = self.config.bots
        if decider is None:
            decider = default_decider(scheduler, bots)
        self.computers = Computers(self, bots, decider)
        self.timers = TableTimers(scheduler, self._fire)
        """The scheduler's timers for the tables' deadlines (``unobot.core.table_timers``)."""
        self.holds = Holds()
        """The games whose channel the bot is out of, their clocks stopped
        (``unobot.core.channels``)."""
        self.members = Members()
        """Who is in each of the bot's channels (so ``.addbot`` can't take a person's nick)."""
        self.admins = Admins(self._config.admins)
        """Who is a bot admin: ``bot.admins``, and who gave this run's code
        (``unobot.core.admins``)."""
        self.stopping: str | None = None
        """Set by :meth:`farewell`: why nothing changes any more (the reply to a move)."""
        self.director: TableDirector | None = None
        """Runs tournaments: set by the tournament plugin's ``setup`` (the director sits
        above the core and seats, deals and follows tables through the methods below)."""
        for module in plugins:
            setup = getattr(module, "setup", None)
            if callable(setup):  # as Sopel's plugins: a hook run once the bot exists
                setup(self)

    # --- input -----------------------------------------------------------------------------

    def handle(self, incoming: Incoming) -> None:
        """Act on one record from the adapter. Never raises: a bug is logged, not fatal."""
        try:
            self._handle(incoming)
        except Exception:
            shown = incoming
            if "unoadmin" in incoming.text.lower():  # the admin code is never logged
                shown = dataclasses.replace(incoming, text="(.unoadmin, not shown)")
            log.exception("failed to handle %r", shown)

    def _handle(self, incoming: Incoming) -> None:
        kind = incoming.kind
        self.members.update(incoming, self.transport.nickname)
        grants = self.admins.grants
        if kind is Kind.NICK and len(grants):
            grants.renamed(incoming.nick, incoming.new_nick)
        if incoming.account and self.recorder is not None:
            self.recorder.saw_account(incoming.nick, incoming.account)
        if self.stopping is not None and kind is not Kind.MESSAGE:
            # After the farewell the tables are frozen: comings and goings are for the next
            # process to see (its NAMES), as if they happened while it was down.
            return
        if kind is Kind.MESSAGE:
            self._message(incoming)
        elif kind is Kind.NICK:
            for table in self.tables.values():
                table.rename(incoming.nick, incoming.new_nick)
        elif kind is Kind.DISCONNECTED:
            self._disconnected(incoming.text)
        elif kind is Kind.RECONNECTED:
            self._reconnected()
        elif kind is Kind.NAMES:
            self._members(incoming.target)
        elif kind is Kind.HELD:
            self._held(incoming)
        elif irc_eq(incoming.nick, self.transport.nickname):
            key = irc_lower(incoming.target)
            if kind is Kind.JOIN:
                self._rejoined(key)
            elif kind is Kind.KICK:
                self._kicked(key, incoming.text)
            elif kind is Kind.PART and key in self.tables:
                self._drop(key, "the bot left the channel")
        elif kind is Kind.JOIN:
            table = self.tables.get(irc_lower(incoming.target))
            if table is not None:
                self.publish(table, table.arrive(incoming.nick))
        elif kind in (Kind.PART, Kind.KICK):
            table = self.tables.get(irc_lower(incoming.target))
            if table is not None:
                self.publish(table, table.depart(incoming.nick, self.scheduler.now()))
        elif kind is Kind.QUIT:
            for table in list(self.tables.values()):
                if table.has(incoming.nick):
                    self.publish(table, table.depart(incoming.nick, self.scheduler.now()))
        director = self.director
        if kind in (Kind.JOIN, Kind.NAMES, Kind.NICK) and director and director.tournaments:
            director.seen(incoming)  # players coming to their tournament table

    def _message(self, incoming: Incoming) -> None:
        found = self.dispatcher.find(incoming.text)
        if found is None:
            if (
                not incoming.private
                and irc_lower(incoming.target) in self.tables
                and self.stopping is None
            ):
                for hook in self.chatter:
                    if hook(self, incoming):
                        break
            return
        handler, args = found
        ctx = Context(self, incoming, handler.name, args)
        if not incoming.private:  # a player who speaks in the channel is back
            table = self.tables.get(irc_lower(incoming.target))
            if table is not None and table.frozen is None:
                back = table.arrive(incoming.nick)
                if back.events:
                    self.publish(table, back)
        with speaking(ctx.channel_language):
            self.dispatcher.run(handler, ctx)

    # --- tables ----------------------------------------------------------------------------

    def table_for(self, channel: str | None, nick: str) -> Table | None:
        if channel is not None:
            return self.tables.get(irc_lower(channel))
        seated = [t for t in self.tables.values() if t.has(nick)]
        return seated[0] if len(seated) == 1 else None

    def open_table(
        self, channel: str, nick: str, ident: str, rules: HouseRules | None = None
    ) -> Table:
        """``rules``: this game's own (``.uno teams``), else the channel's (:meth:`rules_for`)."""
        key = irc_lower(channel)
        if key in self.tables:
            raise ValueError(f"{channel} already has a table")
        if self.stopping is not None:
            raise Frozen(self.stopping)
        seed = self.rng.getrandbits(64)
        config = self.config.table
        rules = rules if rules is not None else self.rules_for(channel)
        if rules is not config.rules:
            config = dataclasses.replace(config, rules=rules)
        now = self.scheduler.now()
        table = table_class(config.rules)(channel, nick, ident, now, config, Random(seed))
        if self.journal is not None:
            self.journal.opened(table, seed, now, ident)
        self.tables[key] = table
        self.publish(table, table.open_update())
        return table

    def rules_for(self, channel: str) -> HouseRules:
        """The rules a new game in ``channel`` gets: those chosen there with ``.unorules``, else
        the configured ones for the channel, else the bot's default.

        Stored rules that no longer parse (a preset or option renamed since) or a settings
        store that can't be read are logged and skipped: a game must still open."""
        key = irc_lower(channel)
        try:
            stored = self.settings.channel_rules(key)
            if stored is not None:
                return rules_from_text(*stored)
        except ValueError as err:
            log.warning("stored rules for %s ignored: %s", channel, err)
        except Exception:
            log.exception("can't read the stored rules for %s", channel)
        configured = self.config.channel_rules.get(key)
        return configured if configured is not None else self.config.table.rules

    def publish(self, table: Table, update: Update) -> None:
        """Send what an update says, then reschedule the table's timers (or drop the table)."""
        if self.live is not None:  # first, so the deal's lines find the game being watched
            self.live.observe(table, update)
        prefs = self.preferences
        spoken = prefs.channel_language(table.channel)
        key = keys_of(table)  # the seats looked up once for the four preferences of a hand
        with speaking(spoken):
            lines = render_update(
                update,
                table.channel,
                prefs.colors_for(table, key),
                channel_colors=self.config.channel_colors,
                prefix=self.config.prefix,
                invite=table.match is not None and not table.config.tournament,
                turn_hands=prefs.turn_hands_for(table, key),
                language_for=prefs.languages_for(table, spoken, key),
                query=prefs.hand_query_for(table, key),
            )
        for line in lines:
            self.send(line)
        # The followers, in order: the stats (before a finished table is dropped), the
        # tournament director (its tables only), the journal (a hand's end synced to disk),
        # the computer seats (they plan their next moves).
        for follower in (self.recorder, self.director, self.journal, self.computers):
            if follower is not None:
                follower.observe(table, update)
        key = irc_lower(table.channel)
        if table.finished:
            if self.tables.get(key) is table:
                self._drop(key, "the game is over")
        else:
            self._sync_timers(key, table)

    @property
    def settings(self) -> SettingsStore:
        """Where people's and channels' choices are kept (read by :attr:`preferences`)."""
        return self.preferences.settings

    @settings.setter
    def settings(self, settings: SettingsStore) -> None:
        self.preferences.settings = settings

    @property
    def config(self) -> BotConfig:
        return self._config

    @config.setter
    def config(self, config: BotConfig) -> None:
        """A new config (tests, a reload) may say other channels' languages."""
        self._config = config
        self.preferences.configure(config.language, config.channel_languages)
        self.admins.entries = tuple(config.admins)

    # --- languages and preferences (``self.preferences``, under the names callers use) ----

    def channel_language(self, channel: str) -> str:
        """What is said in ``channel`` (:meth:`Preferences.channel_language`)."""
        return self.preferences.channel_language(channel)

    def person_language(self, ident: str, channel: str | None = None) -> str:
        """What is sent to one person alone (:meth:`Preferences.person_language`)."""
        return self.preferences.person_language(ident, channel)

    def colors_for(
        self, table: Table, key: Callable[[str], str] | None = None
    ) -> Callable[[str], bool]:
        """Whether a player at ``table`` reads their cards in colour."""
        return self.preferences.colors_for(table, key)

    def turn_hands_for(
        self, table: Table, key: Callable[[str], str] | None = None
    ) -> Callable[[str], bool]:
        """Whether a player at ``table`` wants their hand when their turn comes."""
        return self.preferences.turn_hands_for(table, key)

    def hand_query_for(
        self, table: Table, key: Callable[[str], str] | None = None
    ) -> Callable[[str], bool]:
        """Whether a player at ``table`` wants their hands by private message."""
        return self.preferences.hand_query_for(table, key)

    def _drop(self, key: str, why: str) -> None:
        """Forget the table of ``key`` and its timers, with a log line saying ``why``.

        INFO, not WARNING: the network faults that lead here are the adapter's to warn about
        (a kick, a ban, a lost connection); this line says what became of the game."""
        table = self.tables.pop(key, None)
        self.holds.end(key)
        if table is not None:
            self._journal_done(table)
            if self.live is not None:
                self.live.dropped(table)
            log.info("table in %s dropped: %s", table.channel, why)
            if not table.finished:
                self.computers.forget(table)  # no more moves there
            over = table.match is not None and table.match.over
            if table.config.tournament and not over and self.director is not None:
                self.director.dropped(table, why)  # the game is played again
        self.timers.cancel(key)

    # --- for the tournament director ------------------------------------------------------

    def say(self, channel: str, text: str) -> None:
        """One line of the bot's own in ``channel`` (announcements; never raw user text), in
        the channel's language when ``text`` is a translated message."""
        text = speak(text, self.channel_language(channel))
        self.send(Line("privmsg", channel, text, Tag(channel)))

    def in_channel(self, channel: str) -> bool:
        return irc_lower(self.transport.nickname) in self.members.of(channel)

    def join_channel(self, channel: str) -> None:
        """Join ``channel`` unless in it already (a transport without JOIN: nothing to do)."""
        join = getattr(self.transport, "join", None)
        if join is not None and not self.in_channel(channel):
            join(channel)

    def invite(self, nick: str, channel: str) -> None:
        """Invite ``nick`` to ``channel`` where the transport can (servers may refuse: the
        tournament channel's announcement says where to go anyway)."""
        invite = getattr(self.transport, "invite", None)
        if invite is not None:
            invite(nick, channel)

    def open_directed(
        self,
        channel: str,
        seats: list[tuple[str, str, str]],
        rules: HouseRules,
        tag: str,
        *,
        warning: float = 0.0,
    ) -> Table:
        """A table whose seats a tournament director fills: ``seats`` are (nick, ident,
        computer level or ""), in seat order. Journaled like any table (so a restart restores
        it); nothing is announced (the director says what it is)."""
        key = irc_lower(channel)
        if key in self.tables:
            raise ValueError(f"{channel} already has a table")
        if self.stopping is not None:
            raise Frozen(self.stopping)
        seed = self.rng.getrandbits(64)
        config = dataclasses.replace(
            self.config.table, rules=rules, tournament=tag, time_warning=warning
        )
        now = self.scheduler.now()
        (nick, ident, level), *rest = seats
        table = table_class(rules)(channel, nick, ident, now, config, Random(seed), level)
        if self.journal is not None:
            self.journal.opened(table, seed, now, ident)
        self.tables[key] = table
        for nick, ident, level in rest:
            if level:
                table.add_computer(level, nick, now, self.transport.nickname)
            else:
                table.join(nick, ident, now)
        return table

    def drop_table(self, channel: str, why: str) -> None:
        self._drop(irc_lower(channel), why)

    def hold(self, key: str, why: str) -> None:
        """Stop a table's clocks (a tournament's pause) until :meth:`release`."""
        table = self.tables.get(key)
        if table is not None and self.holds.hold(key, self.scheduler.now(), why):
            self._sync_timers(key, table)

    def release(self, key: str) -> None:
        if self.holds.paused(key):
            self._rejoined(key)

    # --- network faults --------------------------------------------------------------------

    def _disconnected(self, cause: str) -> None:
        """The connection is lost: every game stops its clocks until the bot is back in its
        channel (a kicked game keeps its own hold)."""
        now = self.scheduler.now()
        for key, table in self.tables.items():
            if self.holds.hold(key, now, "disconnect"):
                self._sync_timers(key, table)
        if self.tables:
            log.info(
                "connection lost (%s): %d game(s) wait for the bot to rejoin: %s",
                cause or "no reason given",
                len(self.tables),
                ", ".join(t.channel for t in self.tables.values()),
            )

    def _reconnected(self) -> None:
        """Registered again: each waiting game now has its grace to see the bot rejoin."""
        now = self.scheduler.now()
        for key in self.holds.waiting():
            table = self.tables.get(key)
            if table is not None:
                self.holds.count_from(key, now + table.config.grace)
                self._sync_timers(key, table)
        if self.holds:
            log.info("reconnected; rejoining %d channel(s) with a game", len(self.holds))

    def _kicked(self, key: str, reason: str) -> None:
        table = self.tables.get(key)
        if table is None:
            return
        now = self.scheduler.now()
        grace = table.config.grace
        self.holds.kicked(key, now, grace)
        log.info(
            "kicked from %s (%s): its game is held for %.0f s while the bot rejoins",
            table.channel,
            reason or "no reason given",
            grace,
        )
        self._sync_timers(key, table)

    def _rejoined(self, key: str) -> None:
        """The bot is in a channel again: its game, if it was waiting, goes on from here."""
        off = self.holds.end(key)
        table = self.tables.get(key)
        if off is None or table is None:
            return
        now = self.scheduler.now()
        lost = max(0.0, now - off.since)
        # Nobody loses time to the bot's absence (Table.catch_up, journaled like any change).
        table.catch_up(off.since, now, off.why)
        log.info("back in %s after %.1f s (%s): the game goes on", table.channel, lost, off.why)
        with speaking(self.channel_language(table.channel)):
            text = resumed_text(
                off.why,
                table.status(),
                None if table.dealt else (table.starter, table.names),
                Cards(self.config.channel_colors),
                self.config.prefix,
            )
        self.send(Line("privmsg", table.channel, text, Tag(table.channel)))
        hands = Update()
        # Hands are news to a restarted process, and a dropped connection may have lost the
        # last ones in the server (a flood kill drops every line the server had not read).
        if off.why in ("restart", "disconnect") and table.game is not None:
            hands.hands = {
                p.nick: table.hand_notice(p.nick, again=True)
                for p in table.players
                if not p.computer
            }  # the player to move gets it as the turn brings it, the playable cards marked
        self.publish(table, hands)  # re-arms the timers, and computer seats plan again

    def _held(self, incoming: Incoming) -> None:
        """The server makes a seated player wait for their cards (ircu's 439): the channel is
        told, once per wait, so that nobody thinks the bot forgot them."""
        table = self.tables.get(irc_lower(incoming.target))
        if table is None or not table.has(incoming.nick):
            return
        with speaking(self.channel_language(table.channel)):
            text = held_text(incoming.nick, incoming.text)
        self.send(Line("privmsg", table.channel, text, Tag(table.channel)))

    def _members(self, channel: str) -> None:
        """The channel's members as listed when the bot joined it (``self.members`` has just
        read the NAMES record). After a restart or a
        reconnect, whoever left or came back while the bot was away was not seen to: a
        seated player not listed gets the normal seat grace (as if seen leaving now), a
        held seat whose player is listed is theirs again. A list without the bot in it is
        not trusted (a server that answers oddly must not empty a table)."""
        key = irc_lower(channel)
        table = self.tables.get(key)
        if table is None or key in self.holds or table.finished:
            return
        if table.config.tournament and not table.dealt:
            return  # seated before they came: the director's no-show rule waits for them
        present = self.members.of(channel)
        if irc_lower(self.transport.nickname) not in present:
            return
        now = self.scheduler.now()
        for player in [p for p in table.players if not p.computer]:
            if self.tables.get(key) is not table or table.finished:
                return  # the last departure ended it
            if not table.has(player.nick):
                continue
            if irc_lower(player.nick) in present:
                if player.away_since is not None:
                    self.publish(table, table.arrive(player.nick))
            elif player.away_since is None:
                self.publish(table, table.depart(player.nick, now))

    # --- restarts --------------------------------------------------------------------------

    def restore(self) -> int:
        """Rebuild the journaled tables (at start, before connecting). Each waits, its clocks
        stopped, for the bot to be back in its channel: then the channel is told in one line
        that the game was restored, with whose turn it is, hands are sent again, and the time
        the bot was down is given back (:meth:`_rejoined`). A game that had ended just before
        the stop is finished: the recorder, which saw every replayed update, has recorded it
        (by its journal's id, so exactly once). Returns how many games wait."""
        if self.journal is None:
            return 0
        now = self.scheduler.now()
        waiting = 0
        recorder = self.recorder

        def replayed(table: Table, update: Update) -> None:
            # Everything that followed the live game follows its replay: the recorder (a game
            # that ended just before the stop is recorded, once) and the computer seats' views
            # (without them a restored computer seat could never move again).
            if recorder is not None:
                recorder.observe(table, update)
            self.computers.replayed(table, update)

        for found in self.journal.restore(replayed):
            table = found.table
            key = irc_lower(table.channel)
            if table.finished or key in self.tables:
                self._journal_done(table)
                self.computers.forget(table)
                continue
            self.tables[key] = table
            # Held like a game whose channel the bot lost: dropped only if the bot can't get
            # back in within the grace (counted from now, plus time to connect).
            until = now + table.config.grace + CONNECT_SECONDS
            self.holds.hold(key, found.last, "restart", until)
            self._sync_timers(key, table)
            waiting += 1
            log.info("restored the game in %s (%d moves replayed)", table.channel, found.calls)
        return waiting

    def _journal_done(self, table: Table) -> None:
        """``table`` goes: so does its journal, unless it holds a finished game the stats
        could not write down (:func:`unobot.core.restarts.journal_done`)."""
        journal_done(self.journal, self.recorder, table)

    def farewell(self, text: str | None = None, *, server_stops: bool = False) -> int:
        """Before a deliberate stop: one line to each channel with a game (kept in the journal
        when there is one, so the line says it will be back), and from then on nothing
        changes. Returns the number of lines said (the caller lets them leave before QUIT).

        The journal is closed here, while the process goes on for a moment (the lines must
        leave before QUIT): a move accepted then would be shown to the channel but not
        written down, and the restart would undo it (a winning move announced, recorded, then
        the game back and won again). So every table is frozen (a move is refused with a
        short reply, :attr:`STOPPING`), computer seats stop, timers stop (nobody is timed
        out), no table opens, and joins, parts and nick changes are left for the next
        process to read from the channel's member list. Saying it twice does nothing more.

        ``text``: the line (a translated one is said in each channel's language); None: the
        bot's own, :data:`FAREWELL_RESTART` or :data:`FAREWELL_END`. ``server_stops``: the
        IRC server is the bot's embedded one and stops with it, so everybody on it is cut
        off: each game's line adds :data:`SERVER_STOPS`, and every other channel the bot is
        in gets :data:`FAREWELL_SERVER` (people there lose their connection too)."""
        if self.stopping is not None:
            return 0
        restored = self.journal is not None
        self.stopping = _(self.STOPPING if restored else self.ENDING)
        if text is None:
            text = _(self.FAREWELL_RESTART if restored else self.FAREWELL_END)
        said = 0
        for key, table in self.tables.items():
            table.frozen = self.stopping
            if key not in self.holds:
                lang = self.channel_language(table.channel)
                line = speak(text, lang)
                if server_stops:
                    line = f"{line} {speak(_(self.SERVER_STOPS), lang)}"
                self.send(Line("privmsg", table.channel, line, Tag(table.channel)))
                said += 1
        if server_stops:
            for channel in self.members.channels():
                if channel not in self.tables and self.in_channel(channel):
                    line = speak(_(self.FAREWELL_SERVER), self.channel_language(channel))
                    self.send(Line("privmsg", channel, line, Tag(channel)))
                    said += 1
        self.computers.stop()
        self.timers.stop()
        if self.journal is not None:
            self.journal.close()
        return said

    STOPPING = N_("unobot is restarting: play again in a moment")
    """The reply to a move after the farewell when the games will be restored (translated
    when used: the reply is said in the mover's language)."""
    ENDING = N_("unobot is stopping: this game has ended")
    """The same without a journal (the games end with this process)."""
    FAREWELL_RESTART = N_("unobot is restarting: this game will be restored when it is back.")
    """The farewell line in each channel with a game, when the games will be restored."""
    FAREWELL_END = N_("unobot is stopping: this game ends here.")
    """The same without a journal."""
    SERVER_STOPS = N_("The IRC server stops with it: reconnect in a moment (/reconnect).")
    """Added to the farewell on the embedded server: IRC clients lose their connection, and
    some (irssi) try once, find nothing and then wait for ``/reconnect``."""
    FAREWELL_SERVER = N_(
        "unobot is stopping, and this IRC server with it: reconnect in a moment (/reconnect)."
    )
    """The farewell on the embedded server in a channel without a game."""

    # --- timers ----------------------------------------------------------------------------

    def _sync_timers(self, key: str, table: Table) -> None:
        """Arm the scheduler's timers for ``table``'s deadlines (:meth:`TableTimers.arm`); a
        held game wants only its hold's end."""
        if self.stopping is not None:
            return  # after the farewell: nothing is timed any more
        wanted = self.holds.deadlines(key)
        self.timers.arm(key, table.deadlines() if wanted is None else wanted)

    def _fire(self, key: str, name: str) -> None:
        """The timer ``name`` of the table of ``key`` is due: the end of a hold drops the
        game, any other is the table's (:meth:`Table.on_timer`). A timer that fails (a bug)
        is logged and tried again later (:meth:`TableTimers.retry_later`)."""
        self.timers.fired(key, name)
        table = self.tables.get(key)
        if table is None or self.stopping is not None:
            return
        off = self.holds.get(key)
        if off is not None:
            if name == "offline" and self.holds.expired(key, self.scheduler.now()):
                self._drop(
                    key,
                    f"the bot could not get back in within {table.config.grace:.0f} s "
                    f"(after a {off.why})",
                )
            else:
                self._sync_timers(key, table)
            return
        if name == "offline":
            return  # the bot is back: the table's own timers are armed
        try:
            self.publish(table, table.on_timer(name, self.scheduler.now()))
        except Exception:
            log.exception("timer %s for %s failed", name, key)
            self._sync_timers(key, table)
            self.timers.retry_later(key, name)

    # --- output and identity ---------------------------------------------------------------

    def send(self, line: Line) -> None:
        """Send one line; CR, LF and NUL become spaces so no text can start a new IRC line."""
        text = line.text.replace("\r", " ").replace("\n", " ").replace("\0", " ")
        if line.kind == "notice":
            self.transport.notice(line.target, text, line.tag)
        else:
            self.transport.privmsg(line.target, text, line.tag)
            if self.live is not None and line.target.startswith(CHANNEL_PREFIXES):
                self.live.said(line.target, text)  # a hand by PRIVMSG is never shown

    def commands(self) -> dict[str, str]:
        """Each command by its first name, with the module of the plugin that answers it."""
        return {h.name: h.func.__module__ for h in self.dispatcher.handlers.values() if h.func}

    def ident(self, incoming: Incoming) -> str:
        if incoming.account:
            return "$a:" + irc_lower(incoming.account)
        return irc_lower(incoming.nick)

    def is_admin(self, incoming: Incoming) -> bool:
        """Whether the sender is a bot admin (:meth:`Admins.is_admin`)."""
        return self.admins.is_admin(incoming)

    def claim_admin(self, incoming: Incoming, person: str, code: str) -> Claim:
        """``.unoadmin CODE`` from the sender of ``incoming`` (:meth:`Admins.claim`)."""
        return self.admins.claim(incoming, person, code)

    @property
    def admin_code(self) -> AdminCode | None:
        """This run's one-time admin code (``.unoadmin``), set by ``unobot.main`` when
        ``bot.admin_code`` is on; None: no code is taken."""
        return self.admins.code

    @admin_code.setter
    def admin_code(self, code: AdminCode | None) -> None:
        self.admins.code = code
