"""The tournament director: what the ``.tournament`` commands do, and the steps they lead to.

Above tables, below plugins. A tournament's logic is pure (``state.Tournament`` around a
format); :class:`Director` applies each change (a command, a clock running out, a result) as
an entry of the tournament's log, has it written, and does what the resulting steps ask:
announcements, round clocks, seating a game (handed to :class:`~.tables.Tables`), the final
standings. Nobody has to type anything between games and rounds.

Its parts: :mod:`.clock` (the time, what is due when), :mod:`.tables` (the games at their
tables), :mod:`.writer` (every entry to the stats database). At start the director reads the
unfinished tournaments back and replays them; a game whose table the journal restored goes on
where it was, a game that has no table any more is played again from its start, and the table
says why. Every duration a tournament gives is multiplied by ``scale``
(``BotConfig.tournament_scale``).
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from unobot.core.table import Table
from unobot.core.updates import Update
from unobot.i18n import domain, speak
from unobot.irc.casemap import irc_lower
from unobot.irc.transport import Incoming
from unobot.tournament.director import clock
from unobot.tournament.director.clock import Clock
from unobot.tournament.director.live import Live, tag
from unobot.tournament.director.tables import Tables
from unobot.tournament.director.writer import RETRY, LogWriter
from unobot.tournament.model import (
    Announce,
    Done,
    RoundClock,
    Seat,
    Standing,
    Step,
    TournamentError,
)
from unobot.tournament.state import Entry, Tournament, duration_text
from unobot.tournament.store import Stored, TournamentLog
from unobot.tournament.words import note_text

if TYPE_CHECKING:
    from unobot.core.bot import Bot

__all__ = ["Director", "standings_lines"]

log = logging.getLogger(__name__)

_, ngettext = domain("tournament")


class Director:
    """Every tournament the bot runs. One reactor thread, like the bot."""

    def __init__(
        self,
        bot: Bot,
        store: TournamentLog | None = None,
        submit: Callable[..., Any] | None = None,
        *,
        scale: float = 1.0,
        wall: Callable[[], float] = time.time,
    ) -> None:
        """``store``: where entries are kept (None: only in memory, lost at a restart);
        ``submit``: how a database job is run off the reactor (``DbWorker.submit``; None:
        inline)."""
        self.bot = bot
        self.scale = scale
        self.tournaments: dict[str, Tournament] = {}
        """By folded name: the unfinished ones (a finished one stays until replaced)."""
        self.clock = Clock(bot.scheduler, wall(), scale, self._next_due, self._on_time)
        self.tables = Tables(self)
        self.live: dict[str, Live] = self.tables.live
        """By folded table channel: the games being run (the tables' own)."""
        self.writer = LogWriter(bot.scheduler, store, submit, self._kept, self._lost)
        self.taken: set[str] = set()
        """Folded names of the tournaments in the database (a name is never used twice)."""
        self.loaded = store is None

    @property
    def store(self) -> TournamentLog | None:
        return self.writer.store

    @store.setter
    def store(self, store: TournamentLog | None) -> None:
        self.writer.store = store

    @property
    def submit(self) -> Callable[..., Any] | None:
        return self.writer.submit

    @submit.setter
    def submit(self, submit: Callable[..., Any] | None) -> None:
        self.writer.submit = submit

    # --- clock ------------------------------------------------------------------------------

    def now(self) -> float:
        return self.clock.now()

    def arm(self) -> None:
        self.clock.arm()

    def _next_due(self) -> float | None:
        in_channel = self.bot.in_channel
        return clock.next_due(self.tournaments.values(), self.live, in_channel, self.now())

    def _on_time(self) -> None:
        for tournament in list(self.tournaments.values()):
            if not tournament.over:
                self.check_clocks(tournament)

    def check_clocks(self, tournament: Tournament) -> None:
        """Act on what is due now (see :mod:`.clock`): sign-up's end starts the tournament
        (or cancels it when it can't start), a table whose players are all there or whose
        no-show grace is over is dealt, a rotation round whose time is up is over."""
        if tournament.paused is not None or tournament.over:
            return
        now = self.now()
        if clock.signup_over(tournament, now):
            try:
                self.change(tournament, "start", by="the sign-up deadline")
            except TournamentError as err:
                # the log keeps English (data); the channel hears its own language
                reason = speak(err.args[0], "en") if err.args else ""
                self.change(tournament, "cancel", by="director", reason=reason)
                self.say(
                    tournament,
                    _(
                        "Tournament {name} can't start: {error}; cancelled.",
                        name=tournament.name,
                        error=err.args[0] if err.args else "",
                    ),
                )
            return
        for key, over in clock.graces(tournament, self.live, self.bot.in_channel, now):
            self.tables.try_deal(key, force=over)
        if clock.round_over(tournament, self.live, now):
            self.change(tournament, "round_over")

    # --- reading ----------------------------------------------------------------------------

    def for_channel(self, channel: str | None, *, ended: bool = False) -> Tournament | None:
        """The unfinished tournament run from ``channel`` or played at a table there (with
        ``ended``, else the last one that ended there while the bot ran)."""
        if channel is None:
            return None
        key = irc_lower(channel)
        live = self.live.get(key)
        if live is not None:
            return self.tournaments.get(irc_lower(live.tournament))
        here = [t for t in self.tournaments.values() if irc_lower(t.channel) == key]
        found = [t for t in here if not t.over] or (here if ended else [])
        return found[-1] if found else None

    def find(self, name: str) -> Tournament | None:
        return self.tournaments.get(irc_lower(name))

    # --- changes ----------------------------------------------------------------------------

    def open(
        self, name: str, format_name: str, channel: str, words: list[str], by: str
    ) -> Tournament:
        if not self.loaded:
            raise TournamentError(_("tournaments are still being read from the database"))
        if not _NAME_OK(name):
            raise TournamentError(_("a tournament's name is 1-24 letters, digits, - or _"))
        if self.for_channel(channel) is not None:
            raise TournamentError(
                _("{channel} already runs a tournament (.tstatus)", channel=channel)
            )
        old = self.find(name)
        if old is not None or irc_lower(name) in self.taken:
            raise TournamentError(_("there is already a tournament called {name}", name=name))
        words = [self.clock.signup_at(w) for w in words]
        seed = self.bot.rng.getrandbits(63)
        tournament, entry = Tournament.new(
            name, format_name, channel, words, seed, self.now(), by, self.scale
        )
        self.tournaments[irc_lower(name)] = tournament
        self.writer.write(tournament, entry, create=True)
        ends = tournament.signup_ends()
        fmt = tournament.format.name
        if ends:
            line = _(
                "Tournament {name} ({format}) is open: .tjoin to enter, .tleave to withdraw; "
                "sign-up closes in {time}.",
                name=name,
                format=fmt,
                time=duration_text(ends - self.now()),
            )
        else:
            line = _(
                "Tournament {name} ({format}) is open: .tjoin to enter, .tleave to withdraw; "
                "an admin starts it with .tournament start.",
                name=name,
                format=fmt,
            )
        self.say(tournament, line)
        self.arm()
        return tournament

    def change(self, tournament: Tournament, kind: str, **data: Any) -> list[Step]:
        """Apply and record one entry, then act on the steps (TournamentError: nothing done)."""
        entry = Entry(kind, data, self.now())
        steps = tournament.apply(entry)
        self.writer.write(tournament, entry)
        self._act(tournament, steps)
        self.arm()
        return steps

    def join(
        self, tournament: Tournament, nick: str, key: str, level: str = "", reserve: bool = False
    ) -> None:
        self.change(tournament, "join", name=nick, key=key, level=level, reserve=reserve)

    def start(self, tournament: Tournament, by: str) -> None:
        self.change(tournament, "start", by=by)
        self.arm()

    def cancel(self, tournament: Tournament, by: str, reason: str) -> None:
        self.change(tournament, "cancel", by=by, reason=reason)
        for key, live in list(self.live.items()):
            if live.tournament == tournament.name:
                self.tables.close_table(key, live, _("the tournament was cancelled"))
        if reason:
            line = _(
                "Tournament {name} is cancelled ({reason}).", name=tournament.name, reason=reason
            )
        else:
            line = _("Tournament {name} is cancelled (no reason given).", name=tournament.name)
        self.say(tournament, line)

    def remove(self, tournament: Tournament, name: str, by: str, reason: str) -> None:
        entrant = tournament.entrant(name)
        if entrant is None:
            raise TournamentError(_("{name} is not in the tournament", name=name))
        self.change(tournament, "remove", name=entrant.name, by=by, reason=reason)
        if reason == f"removed by {by}":  # the command's default reason (kept as data)
            shown = _(
                "{name} is out of the tournament (removed by {by}).", name=entrant.name, by=by
            )
        else:
            shown = _(
                "{name} is out of the tournament ({reason}).", name=entrant.name, reason=reason
            )
        self.say(tournament, shown)
        self.tables.leave_tables(tournament, entrant.name)

    def substitute(self, tournament: Tournament, old: str, new: str, key: str, by: str) -> None:
        entrant = tournament.entrant(old)
        if entrant is None:
            raise TournamentError(_("{name} is not in the tournament", name=old))
        self.change(tournament, "sub", old=entrant.name, new=new, key=key, by=by)
        self.say(tournament, _("{new} takes {old}'s place.", new=new, old=entrant.name))
        for live in self.live.values():
            if live.tournament == tournament.name and entrant.name in live.game.players:
                live.game = tournament.games.get(live.game.key, live.game)
                if live.table is not None:
                    live.table.rename(entrant.name, new)

    def pause(self, tournament: Tournament, by: str) -> None:
        self.change(tournament, "pause", by=by)
        for key, live in self.live.items():
            if live.tournament == tournament.name and live.table is not None:
                self.bot.hold(key, "pause")
        self.say(tournament, _("Tournament {name}: the clock is paused.", name=tournament.name))

    def resume(self, tournament: Tournament, by: str) -> None:
        self.change(tournament, "resume", by=by)
        for key, live in self.live.items():
            if live.tournament == tournament.name and live.table is not None:
                self.bot.release(key)
        self.say(tournament, _("Tournament {name}: the clock runs again.", name=tournament.name))
        self.check_clocks(tournament)

    def correct(
        self, tournament: Tournament, name: str, key: str, delta: int, by: str, reason: str
    ) -> None:
        entrant = tournament.entrant(name)
        if entrant is None:
            raise TournamentError(_("{name} is not in the tournament", name=name))
        if key not in tournament.games:
            if tournament.games:
                raise TournamentError(
                    _(
                        "no game {key} (games: {games})",
                        key=key[:20],
                        games=", ".join(tournament.games),
                    )
                )
            raise TournamentError(_("no game {key} (games: none yet)", key=key[:20]))
        self.change(
            tournament, "correct", name=entrant.name, key=key, delta=delta, by=by, reason=reason
        )
        log.info(
            "tournament %s: %s corrected %s in %s by %+d (%s)",
            tournament.name,
            by,
            entrant.name,
            key,
            delta,
            reason,
        )
        self.say(
            tournament,
            _(
                "Correction: {name} {delta} in {key} ({reason}).",
                name=entrant.name,
                delta=f"{delta:+d}",
                key=key,
                reason=reason,
            ),
        )
        self.standings(tournament, final=tournament.status == "done")

    def penalty(self, tournament: Tournament, name: str, cards: int, by: str) -> None:
        """001: "a player who makes any suggestions to others regarding which cards to play
        must draw two"."""
        for _key, live in self.live.items():
            table = live.table
            if live.tournament != tournament.name or table is None or not table.has(name):
                continue
            if table.game is None:
                raise TournamentError(_("{name}'s game has not been dealt yet", name=name))
            update = table.penalize(name, cards, self.bot.scheduler.now())
            self.bot.publish(table, update)
            self.change(tournament, "penalty", name=name, cards=cards, by=by, channel=table.channel)
            return
        raise TournamentError(_("{name} is not playing at a table now", name=name))

    # --- steps ------------------------------------------------------------------------------

    def _act(self, tournament: Tournament, steps: list[Step]) -> None:
        # The seating line says who plays where: a format's own "Table 1: a, b, c" is not
        # said a second time (compared in English, the language the stages are kept in).
        seated = {
            f"{s.game.stage}: {', '.join(s.game.players)}" for s in steps if isinstance(s, Seat)
        }
        for step in steps:
            if isinstance(step, Announce):
                if speak(step.text, "en") not in seated:
                    self.say(tournament, step.text)
            elif isinstance(step, RoundClock):
                self.change(
                    tournament,
                    "round",
                    number=step.number,
                    seconds=step.seconds,
                    warning=step.warning,
                )
                self.say(
                    tournament,
                    _(
                        "Round {round} starts: {time}; no new game in the last {warning}.",
                        round=step.number,
                        time=duration_text(tournament.seconds(step.seconds)),
                        warning=duration_text(tournament.seconds(step.warning)),
                    ),
                )
            elif isinstance(step, Seat):
                self.tables.seat(tournament, step.game)
            elif isinstance(step, Done):
                self.standings(tournament, final=True)
                entry = Entry("done", {}, self.now())
                tournament.apply(entry)
                self.writer.write(tournament, entry)
                top = ", ".join(f"{s.place}. {s.name} ({s.score})" for s in step.standings[:3])
                self.say(
                    tournament,
                    _(
                        "Tournament {name} is over! {top}. Full standings: .tstatus",
                        name=tournament.name,
                        top=top,
                    ),
                )

    def standings(self, tournament: Tournament, *, final: bool) -> None:
        rows = [[s.place, s.name, s.score, s.note] for s in tournament.standings()]
        entry = Entry("standings", {"rows": rows, "final": final}, self.now())
        tournament.apply(entry)
        self.writer.write(tournament, entry)

    # --- output, the database's refusals ----------------------------------------------------

    def say(self, tournament: Tournament, text: str) -> None:
        self.bot.say(tournament.channel, text)

    def _kept(self, name: str) -> bool:
        return irc_lower(name) in self.tournaments

    def _lost(self, name: str, reason: str) -> None:
        """The database would not create tournament ``name`` (another bot on the same
        database took the name first): this one is dropped."""
        tournament = self.tournaments.pop(irc_lower(name), None)
        if tournament is not None:
            self.say(
                tournament,
                _(
                    "Tournament {name} can't be kept ({reason}): it is closed.",
                    name=name,
                    reason=(
                        _("there is already a tournament called {name}", name=name)
                        if reason == f"there is already a tournament called {name}"
                        else reason  # the database's own words
                    ),
                ),
            )

    # --- the tables' news (the bot calls these) ---------------------------------------------

    def observe(self, table: Table, update: Update) -> None:
        """Every update the bot publishes (and replays after a restart)."""
        self.tables.observe(table, update)

    def dropped(self, table: Table, why: str) -> None:
        """A tournament table went away unfinished: the game is played again."""
        self.tables.dropped(table, why)

    def seen(self, incoming: Incoming) -> None:
        """A JOIN, a NAMES list or a nick change (someone came to a table, or the bot)."""
        self.tables.seen(incoming)

    # --- restart ----------------------------------------------------------------------------

    def load(self) -> None:
        """Read the unfinished tournaments back (on the database worker); each picks up where
        it was once read."""
        if self.store is None:
            return
        store = self.store

        def failed(reason: str) -> None:
            log.warning("tournaments not read yet (%s); trying again in %.0f s", reason, RETRY)
            self.bot.scheduler.call_later(RETRY, self.load)

        if self.submit is None:
            try:
                self._loaded((store.active(), store.names(100_000)))
            except Exception as err:
                failed(str(err))
            return
        self.submit(lambda: (store.active(), store.names(100_000)), self._loaded, failed)

    def _loaded(self, found: tuple[list[Stored], list[str]]) -> None:
        stored, names = found
        self.taken.update(irc_lower(n) for n in names)
        self.loaded_from(stored)

    def loaded_from(self, stored: list[Stored]) -> None:
        for one in stored:
            entries = [Entry(e.kind, e.data, e.at) for e in one.entries]
            try:
                tournament = Tournament.replay(entries, self.scale)
            except Exception:
                log.exception("tournament %s can't be rebuilt from its log", one.name)
                continue
            if tournament.over:
                continue
            self.tournaments[irc_lower(tournament.name)] = tournament
            log.info(
                "tournament %s restored (%s, %d entries)",
                tournament.name,
                tournament.status,
                len(entries),
            )
            for game in tournament.pending():
                channel = tournament.channel_of(game)
                key = irc_lower(channel)
                table = self.bot.tables.get(key)
                restored = table is not None and table.config.tournament == tag(tournament, game)
                self.live[key] = Live(
                    tournament.name,
                    game,
                    channel,
                    table=table if restored else None,
                    replayed=not restored and game.key in tournament.seated,
                )
                if restored:
                    self.tables.rehands(self.live[key], tournament, game)
                self.bot.join_channel(channel)
        self.loaded = True
        self.arm()


def _NAME_OK(name: str) -> bool:
    return 1 <= len(name) <= 24 and all(c.isascii() and (c.isalnum() or c in "-_") for c in name)


def standings_lines(standings: list[Standing], width: int = 380) -> list[str]:
    """Standings as lines of at most ``width`` bytes: ``1. ann 12 (champion)``, in the
    language spoken (the notes are translated; build them under ``speaking``)."""
    lines: list[str] = []
    current = ""
    for s in standings:
        item = f"{s.place}. {s.name} {s.score}" + (f" ({note_text(s.note)})" if s.note else "")
        if current and len((current + "; " + item).encode()) > width:
            lines.append(current)
            current = item
        else:
            current = f"{current}; {item}" if current else item
    if current:
        lines.append(current)
    return lines
