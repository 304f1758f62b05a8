"""The tournament director: runs each tournament's games at tables on IRC.

Above tables, below plugins. A tournament's logic is pure (``state.Tournament`` around a
format); the director does what its steps ask: it joins the table channels, invites the
players, opens a table with the seats already filled, deals once every seated person is in
the channel (or the no-show grace is over), follows every update of the tables it runs, and
feeds each finished game back as a :class:`~unobot.tournament.model.Result`. Nobody has to type
anything between games and rounds.

Durability: every change is an entry written to the stats database (``log``, through the
database worker, so a stalled database delays the record, never a game; an entry the
database refused is written again later). At start the director reads the unfinished
tournaments back and replays them; a game whose table the journal restored goes on where it
was, a game that has no table any more is played again from its start, and the table says why.

Clocks: the director's times are wall-clock seconds (what entries store), read as the
scheduler's clock plus a fixed offset, so tests that move a manual clock move it too. Every
duration a tournament gives is multiplied by ``scale`` (``BotConfig.tournament_scale``).
"""

from __future__ import annotations

import dataclasses
import logging
import re
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from unobot.core.settings import rules_from_text
from unobot.core.table import COMPUTER_IDENT, State, Table
from unobot.core.updates import EngineEvents, Update
from unobot.engine.events import HandEnded, HandOutcome, MatchEnded
from unobot.i18n import domain, speak
from unobot.irc.casemap import irc_lower
from unobot.irc.transport import Incoming, Kind
from unobot.tournament.model import (
    Announce,
    Done,
    Game,
    Hand,
    Result,
    RoundClock,
    Seat,
    Standing,
    Step,
    TournamentError,
)
from unobot.tournament.state import Entry, Tournament, duration_text, result_to_json
from unobot.tournament.store import Entry as StoredEntry
from unobot.tournament.store import Stored, TournamentLog
from unobot.tournament.words import note_text, stage_text

if TYPE_CHECKING:
    from unobot.core.bot import Bot

__all__ = ["Director"]

log = logging.getLogger(__name__)

_, ngettext = domain("tournament")

TICK = 1.0
"""How late a round's end may still be looked at (seconds)."""

RETRY = 30.0
"""Seconds before entries the database refused are written again."""


@dataclasses.dataclass(slots=True)
class _Live:
    """A game the director has seated and not yet seen end."""

    tournament: str
    game: Game
    channel: str
    hands: list[Hand] = dataclasses.field(default_factory=list)
    table: Table | None = None
    replayed: bool = False
    """The game was seated again after a restart found no table for it."""
    ready: float | None = None
    """When (wall clock) this process first saw its table open with the bot in the channel:
    the no-show grace never ends sooner than a grace after it (after a restart the bot must
    first get back in and hear who is there)."""


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
        self.store = store
        self.submit = submit
        self.scale = scale
        self.offset = wall() - bot.scheduler.now()
        self.tournaments: dict[str, Tournament] = {}
        """By folded name: the unfinished ones (a finished one stays until replaced)."""
        self.live: dict[str, _Live] = {}
        """By folded table channel: the games being run."""
        self._unsent: list[tuple[str, StoredEntry]] = []
        self.taken: set[str] = set()
        """Folded names of the tournaments in the database (a name is never used twice)."""
        self._tick: object | None = None
        self._retry: object | None = None
        self.loaded = store is None

    # --- clock ------------------------------------------------------------------------------

    def now(self) -> float:
        return self.bot.scheduler.now() + self.offset

    def _next_due(self) -> float | None:
        """The next moment a tournament clock needs a look (wall clock), or None: sign-up's
        end, a seated table's no-show grace, a round's end. Between those, only events (a
        JOIN, a result) move a tournament on, so nothing ticks while nothing is due."""
        now = self.now()
        due: list[float] = []
        for tournament in self.tournaments.values():
            if tournament.over or tournament.paused is not None:
                continue
            ends = tournament.signup_ends()
            if ends is not None:
                due.append(ends)
            grace = tournament.seconds(tournament.options.grace_seconds)
            for live in self.live.values():
                table = live.table
                if live.tournament != tournament.name or table is None:
                    continue
                if table.state is State.LOBBY and self.bot.in_channel(live.channel):
                    seated = tournament.seated.get(live.game.key, now)
                    due.append(max(seated, live.ready if live.ready is not None else now) + grace)
            round_ = tournament.round
            if round_ is not None and round_.ends >= now - TICK:
                due.append(round_.ends)
        return min(due) if due else None

    def _arm(self) -> None:
        due = self._next_due()
        if due is None:
            return
        if self._tick is not None:
            armed, handle = self._tick  # type: ignore[misc]
            if armed <= due:
                return
            self.bot.scheduler.cancel(handle)
        delay = max(0.0, due - self.now()) + 0.01
        self._tick = (due, self.bot.scheduler.call_later(delay, self._on_tick))

    def _on_tick(self) -> None:
        self._tick = None
        try:
            for tournament in list(self.tournaments.values()):
                if not tournament.over:
                    self._check_clocks(tournament)
        except Exception:
            log.exception("tournament clock check failed")
        self._arm()

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
        words = [self._clock_time(w) for w in words]
        seed = self.bot.rng.getrandbits(63)
        tournament, entry = Tournament.new(
            name, format_name, channel, words, seed, self.now(), by, self.scale
        )
        self.tournaments[irc_lower(name)] = tournament
        self._write(tournament, entry, create=True)
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
        self._arm()
        return tournament

    def _clock_time(self, word: str) -> str:
        """``signup=15:00`` (000: "Signups close: Saturday 30th October at 15:00"): sign-up
        closes at that time of day, UTC, the next time it comes. Written to the log as the
        duration from now (unscaled by the time scale, which the log's durations are)."""
        key, _sep, value = word.partition("=")
        match = re.fullmatch(r"([01]?\d|2[0-3]):([0-5]\d)", value.strip())
        if key.strip().lower() != "signup" or match is None:
            return word
        now = self.now()
        day = now - now % 86400
        at = day + int(match.group(1)) * 3600 + int(match.group(2)) * 60
        if at <= now:
            at += 86400
        return f"signup={(at - now) / self.scale:.0f}s"

    def change(self, tournament: Tournament, kind: str, **data: Any) -> list[Step]:
        """Apply and record one entry, then act on the steps (TournamentError: nothing done)."""
        entry = Entry(kind, data, self.now())
        steps = tournament.apply(entry)
        self._write(tournament, entry)
        self._act(tournament, steps)
        self._arm()
        return steps

    def join(
        self, tournament: Tournament, nick: str, key: str, level: str = "", reserve: bool = False
    ) -> None:
        self.change(tournament, "join", name=nick, key=key, level=level, reserve=reserve)

    def start(self, tournament: Tournament, by: str) -> None:
        self.change(tournament, "start", by=by)
        self._arm()

    def cancel(self, tournament: Tournament, by: str, reason: str) -> None:
        self.change(tournament, "cancel", by=by, reason=reason)
        for key, live in list(self.live.items()):
            if live.tournament == tournament.name:
                self._close_table(key, live, _("the tournament was cancelled"))
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
        self._leave_tables(tournament, entrant.name)

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
        self._check_clocks(tournament)

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
        self._standings(tournament, final=tournament.status == "done")

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
                self._seat(tournament, step.game)
            elif isinstance(step, Done):
                self._standings(tournament, final=True)
                entry = Entry("done", {}, self.now())
                tournament.apply(entry)
                self._write(tournament, entry)
                top = ", ".join(f"{s.place}. {s.name} ({s.score})" for s in step.standings[:3])
                self.say(
                    tournament,
                    _(
                        "Tournament {name} is over! {top}. Full standings: .tstatus",
                        name=tournament.name,
                        top=top,
                    ),
                )

    def _standings(self, tournament: Tournament, *, final: bool) -> None:
        rows = [[s.place, s.name, s.score, s.note] for s in tournament.standings()]
        entry = Entry("standings", {"rows": rows, "final": final}, self.now())
        tournament.apply(entry)
        self._write(tournament, entry)

    def _seat(self, tournament: Tournament, game: Game, *, again: str = "") -> None:
        channel = tournament.channel_of(game)
        key = irc_lower(channel)
        busy = self.live.get(key)
        if busy is not None and busy.game.key != game.key:
            log.warning("table %s still busy with %s; %s waits", channel, busy.game.key, game.key)
        if game.key not in tournament.seated or again:
            self.change(
                tournament,
                "seat",
                key=game.key,
                table=game.table,
                channel=channel,
                stage=game.stage,
                players=list(game.players),
            )
        self.live[key] = _Live(tournament.name, game, channel, replayed=bool(again))
        people = [p for p in game.players if not self._level(tournament, p)]
        self.say(
            tournament,
            _(
                "{stage}: {players} -> {channel}",
                stage=stage_text(game.stage),
                players=", ".join(game.players),
                channel=channel,
            ),
        )
        self.bot.join_channel(channel)
        for nick in people:
            self.bot.invite(nick, channel)
        self._try_open(key)

    def _level(self, tournament: Tournament, name: str) -> str:
        entrant = tournament.entrant(name)
        return entrant.level if entrant is not None else ""

    def _try_open(self, key: str) -> None:
        """Open the table when the bot is in its channel; deal when everyone is there."""
        live = self.live.get(key)
        if live is None:
            return
        tournament = self.find(live.tournament)
        if tournament is None or tournament.over:
            return
        bot = self.bot
        if live.table is not None and live.ready is None and bot.in_channel(live.channel):
            live.ready = self.now()
        if live.table is None:
            existing = bot.tables.get(key)
            if existing is not None and existing.config.tournament == _tag(tournament, live.game):
                live.table = existing  # restored from the journal
                return
            if existing is not None or not bot.in_channel(live.channel):
                return  # an ordinary game still runs there, or the bot has not joined yet
            live.table = bot.open_directed(
                live.channel,
                [
                    (p, self._key(tournament, p), self._level(tournament, p))
                    for p in live.game.players
                ],
                self._rules(live.game),
                _tag(tournament, live.game),
                warning=tournament.seconds(live.game.warning),
            )
            live.ready = self.now()
            missing = self._missing(live)
            said = {
                "name": tournament.name,
                "stage": stage_text(live.game.stage),
                "players": ", ".join(live.game.players),
                "missing": ", ".join(missing),
            }
            if live.replayed and missing:
                line = _(
                    "Tournament {name} - {stage} (played again from the start: its table was "
                    "lost in a restart): {players}; waiting for {missing}.",
                    **said,
                )
            elif live.replayed:
                line = _(
                    "Tournament {name} - {stage} (played again from the start: its table was "
                    "lost in a restart): {players}.",
                    **said,
                )
            elif missing:
                line = _("Tournament {name} - {stage}: {players}; waiting for {missing}.", **said)
            else:
                line = _("Tournament {name} - {stage}: {players}.", **said)
            bot.say(live.channel, line)
        self._try_deal(key)

    def _key(self, tournament: Tournament, name: str) -> str:
        entrant = tournament.entrant(name)
        if entrant is not None and entrant.level:
            return COMPUTER_IDENT + irc_lower(name)
        return entrant.key if entrant is not None and entrant.key else irc_lower(name)

    def _rules(self, game: Game):
        # Seats are fixed by the director: any table of two or more may be dealt.
        return rules_from_text(game.rules, {**dict(game.options), "min_players": "2"})

    def _missing(self, live: _Live) -> list[str]:
        """Seated people not in the table's channel (computer entrants are always there)."""
        tournament = self.find(live.tournament)
        table = live.table
        present = self.bot.members.of(live.channel)
        names = table.names if table is not None else live.game.players
        return [
            n
            for n in names
            if irc_lower(n) not in present
            and not (tournament is not None and self._level(tournament, n))
        ]

    def _try_deal(self, key: str, *, force: bool = False) -> None:
        live = self.live.get(key)
        if live is None or live.table is None or live.table.state is not State.LOBBY:
            return
        tournament = self.find(live.tournament)
        if tournament is None or tournament.paused is not None:
            return
        table = live.table
        missing = self._missing(live)
        if missing and not force:
            return
        now = self.bot.scheduler.now()
        grace = tournament.seconds(tournament.options.grace_seconds)
        for nick in missing:  # the no-show rule: out of this game and the tournament
            try:
                self.change(tournament, "remove", name=nick, by="director", reason="no-show")
            except TournamentError as err:  # out already (a director's removal meanwhile)
                log.info("tournament %s: %s not removed again: %s", tournament.name, nick, err)
                if table.has(nick):
                    self.bot.publish(table, table.leave(nick, now))
                continue
            self.say(
                tournament,
                _(
                    "{nick} did not come to {channel} within {time}: out (no-show).",
                    nick=nick,
                    channel=live.channel,
                    time=duration_text(grace),
                ),
            )
            if table.has(nick):
                self.bot.publish(table, table.leave(nick, now))
        if len(table.players) < 2:
            self._walkover(key, live)
            return
        limit: float | None = tournament.seconds(live.game.seconds) if live.game.seconds else None
        round_ = tournament.round
        if round_ is not None and live.game.seconds:
            left = round_.ends - self.now()
            if left < 10 or self.now() >= round_.warned:
                self._walkover(key, live, played=False)
                return
            limit = left
        try:
            update = table.deal(table.starter, now, limit)
        except Exception as err:
            log.error(
                "tournament %s: can't deal %s at %s: %s",
                tournament.name,
                live.game.key,
                live.channel,
                err,
            )
            return
        self.bot.publish(table, update)

    def _walkover(self, key: str, live: _Live, *, played: bool = True) -> None:
        """Too few came to play (or the round had no time left): the game ends unplayed."""
        tournament = self.find(live.tournament)
        table = live.table
        names = table.names if table is not None else ()
        gone = tuple(p for p in live.game.players if p not in names)
        result = Result(
            live.game.key,
            tuple((n, 0) for n in names),
            tuple(names),
            (),
            gone,
        )
        if table is not None and not table.finished:
            self.bot.drop_table(live.channel, "a tournament game not played")
        self.live.pop(key, None)
        stage = stage_text(live.game.stage)
        if played:
            line = _("{stage}: not played (too few players came).", stage=stage)
        else:
            line = _("{stage}: not played (no time left in the round).", stage=stage)
        if tournament is not None:
            self.bot.say(live.channel, line)
            self._finish(tournament, result)

    # --- following the tables ---------------------------------------------------------------

    def observe(self, table: Table, update: Update) -> None:
        """Every update the bot publishes (and replays after a restart)."""
        if not table.config.tournament:
            return
        key = irc_lower(table.channel)
        live = self.live.get(key)
        if live is None or live.table is not table:
            return
        for event in update.events:
            if type(event) is not EngineEvents:
                continue
            for inner in event.events:
                if type(inner) is HandEnded:
                    outcome = inner.outcome
                    names = tuple(event.names)
                    live.hands.append(_hand(names, outcome))
                elif type(inner) is MatchEnded:
                    self._match_ended(key, live, table, inner)

    def _match_ended(self, key: str, live: _Live, table: Table, ended: MatchEnded) -> None:
        tournament = self.find(live.tournament)
        outcome = ended.outcome
        names = table.names
        totals = tuple((names[s], t) for s, t in enumerate(outcome.totals))
        winners = tuple(names[s] for s in outcome.winners)
        gone = tuple(p for p in live.game.players if p not in names)
        result = Result(live.game.key, totals, winners, tuple(live.hands), gone)
        self.live.pop(key, None)
        if tournament is None or tournament.over:
            return
        line = ", ".join(f"{n} {t}" for n, t in totals)
        if winners:
            said = ngettext(
                "{stage} ({channel}) over: {totals}; {winners} wins.",
                "{stage} ({channel}) over: {totals}; {winners} win.",
                len(winners),
                stage=stage_text(live.game.stage),
                channel=live.channel,
                totals=line,
                winners=", ".join(winners),
            )
        else:
            said = _(
                "{stage} ({channel}) over: {totals}; nobody wins.",
                stage=stage_text(live.game.stage),
                channel=live.channel,
                totals=line,
            )
        self.say(tournament, said)
        # After this update is published the table is dropped; the next step may seat the
        # same channel again, so it runs once the bot has let go of this table.
        self.bot.scheduler.call_later(0, lambda: self._finish(tournament, result))

    def _finish(self, tournament: Tournament, result: Result) -> None:
        if tournament.over or result.key in tournament.results:
            return
        try:
            self.change(tournament, "result", **result_to_json(result))
        except TournamentError as err:
            log.error("tournament %s: result for %s refused: %s", tournament.name, result.key, err)
            return
        if not tournament.over:
            self._standings(tournament, final=False)
        self._check_clocks(tournament)

    def dropped(self, table: Table, why: str) -> None:
        """A tournament table went away unfinished (the bot was kicked for good, an admin
        stopped it): the game is played again from its start."""
        key = irc_lower(table.channel)
        live = self.live.get(key)
        if live is None or live.table is not table:
            return
        tournament = self.find(live.tournament)
        live.table = None
        live.hands.clear()
        if tournament is None or tournament.over:
            self.live.pop(key, None)
            return
        self.say(
            tournament,
            _(
                "{stage} at {channel} was stopped ({why}); it will be played again.",
                stage=stage_text(live.game.stage),
                channel=live.channel,
                why=_why_text(why),
            ),
        )
        self.bot.scheduler.call_later(1.0, lambda: self._try_open(key))

    def seen(self, incoming: Incoming) -> None:
        """A JOIN or a NAMES list in a table channel (someone came, or the bot itself)."""
        if incoming.kind is Kind.NICK:
            self._renamed(incoming.nick, incoming.new_nick)
            return
        key = irc_lower(incoming.target)
        if key in self.live:
            self._try_open(key)
            self._arm()

    def _renamed(self, old: str, new: str) -> None:
        for tournament in self.tournaments.values():
            if tournament.over:
                continue
            entrant = tournament.entrant(old)
            if entrant is not None and not entrant.level and tournament.entrant(new) is None:
                try:
                    self.change(
                        tournament,
                        "sub",
                        old=entrant.name,
                        new=new,
                        key=entrant.key,
                        by="nick change",
                    )
                except TournamentError:
                    continue
                for live in self.live.values():
                    if live.tournament == tournament.name:
                        live.game = tournament.games.get(live.game.key, live.game)

    def _close_table(self, key: str, live: _Live, why: str) -> None:
        self.live.pop(key, None)
        if live.table is not None and not live.table.finished:
            self.bot.drop_table(live.channel, why)
            self.bot.say(live.channel, _("This table is closed: {why}.", why=why))

    def _leave_tables(self, tournament: Tournament, name: str) -> None:
        for live in self.live.values():
            table = live.table
            if live.tournament == tournament.name and table is not None and table.has(name):
                update = table.leave(name, self.bot.scheduler.now())
                self.bot.publish(table, update)
                return

    # --- clocks -----------------------------------------------------------------------------

    def _check_clocks(self, tournament: Tournament) -> None:
        if tournament.paused is not None or tournament.over:
            return
        now = self.now()
        ends = tournament.signup_ends()
        if ends is not None and now >= ends:
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
        grace = tournament.seconds(tournament.options.grace_seconds)
        for key, live in list(self.live.items()):
            if live.tournament != tournament.name or live.table is None:
                continue
            if live.table.state is State.LOBBY and self.bot.in_channel(live.channel):
                if live.ready is None:
                    live.ready = now
                seated = tournament.seated.get(live.game.key, now)
                self._try_deal(key, force=now >= max(seated, live.ready) + grace)
        round_ = tournament.round
        if (
            round_ is not None
            and tournament.format.name == "rotation"
            and now >= round_.ends
            and not tournament.pending()
            and not any(live.tournament == tournament.name for live in self.live.values())
            and tournament.log[-1].kind != "round_over"
        ):
            self.change(tournament, "round_over")

    # --- output, durability -----------------------------------------------------------------

    def say(self, tournament: Tournament, text: str) -> None:
        self.bot.say(tournament.channel, text)

    def _write(self, tournament: Tournament, entry: Entry, *, create: bool = False) -> None:
        """Queue ``entry`` (just applied: the last of the tournament's log) for the database;
        a result also writes its lines of the seeds' score sheet."""
        if self.store is None:
            return
        name = tournament.name
        seq = len(tournament.log) - 1
        self._unsent.append((name, StoredEntry(seq, entry.kind, entry.data, entry.at)))
        if create:
            fmt, channel, store = tournament.format_name, tournament.channel, self.store
            self._run(lambda: store.create(name, fmt, channel, entry.at), self._not_created(name))
        if entry.kind == "result":
            count = sum(len(hand["players"]) for hand in entry.data["hands"])
            rows = tournament.sheet.lines[len(tournament.sheet.lines) - count :]
            store = self.store
            if rows:
                self._run(lambda: store.add_sheet(name, rows))
        self._flush()

    def _not_created(self, name: str) -> Callable[[str], None]:
        def failed(reason: str) -> None:
            # Another bot on the same database took the name first: this one is dropped.
            log.error("tournament %s not created in the database: %s", name, reason)
            tournament = self.tournaments.pop(irc_lower(name), None)
            self._unsent = [(n, e) for n, e in self._unsent if n != name]
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

        return failed

    def _flush(self) -> None:
        if not self._unsent or self.store is None:
            return
        batch, self._unsent = self._unsent, []
        store = self.store

        def job() -> None:
            for name, entry in batch:
                store.append(name, entry)

        def failed(reason: str) -> None:
            log.warning(
                "tournament log: %d entries not written yet (%s); retrying", len(batch), reason
            )
            self._unsent[:0] = [(n, e) for n, e in batch if irc_lower(n) in self.tournaments]
            if self._retry is None:
                self._retry = self.bot.scheduler.call_later(RETRY, self._retried)

        self._run(job, failed)

    def _retried(self) -> None:
        self._retry = None
        self._flush()

    def _run(self, job: Callable[[], Any], failed: Callable[[str], None] | None = None) -> None:
        if self.submit is None:
            try:
                job()
            except Exception as err:
                log.exception("tournament log write failed")
                if failed is not None:
                    failed(str(err))
            return
        # An answer, even an empty one: DbWorker only marks a job done by delivering one, so
        # a job with no answer but a ``failed`` was always reported as timed out.
        self.submit(job, lambda _done: None, failed, wait=failed is not None)

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
                restored = table is not None and table.config.tournament == _tag(tournament, game)
                self.live[key] = _Live(
                    tournament.name,
                    game,
                    channel,
                    table=table if restored else None,
                    replayed=not restored and game.key in tournament.seated,
                )
                if restored:
                    self._rehands(self.live[key], tournament, game)
                self.bot.join_channel(channel)
        self.loaded = True
        self._arm()

    def _rehands(self, live: _Live, tournament: Tournament, game: Game) -> None:
        """The hands a restored table played before the restart (from its match)."""
        table = live.table
        if table is None or table.match is None:
            return
        names = table.names
        for outcome in table.match.hands:
            live.hands.append(_hand(names, outcome))


def _hand(names: tuple[str, ...], outcome: HandOutcome) -> Hand:
    """The sheet's view of an engine hand; an incomplete one (the game's clock cut it short:
    the table reports it as a hand with no winner) is marked ``clock``."""
    winner = names[outcome.winner] if 0 <= outcome.winner < len(names) else None
    points, scores = tuple(outcome.points), tuple(outcome.scores)
    return Hand(names, points, scores, winner, clock=not outcome.complete)


def _why_text(why: str) -> str:
    """The bot's reason for dropping a table (English, as its log says it) in the language
    spoken, for the reasons the bot gives; anything else as it came."""
    if why == "the game is over":
        return _("the game is over")
    if why == "the bot left the channel":
        return _("the bot left the channel")
    found = re.fullmatch(r"the bot could not get back in within (\d+) s \(after a (\w+)\)", why)
    if found:
        return _(
            "the bot could not get back in within {seconds} s (after a {what})",
            seconds=int(found.group(1)),
            what=found.group(2),
        )
    return why


def _tag(tournament: Tournament, game: Game) -> str:
    return f"{tournament.name}/{game.key}"


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
