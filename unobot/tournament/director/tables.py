"""The director at the tables: seating a game, opening its table, dealing, following it.

For each game a tournament's steps seat, :class:`Tables` joins the table channel, invites the
players, opens a table with the seats already filled, deals once every seated person is in
the channel (or the no-show grace is over: the clock, :mod:`.clock`, says when), follows every
update of the table, and hands each finished game back to the director as a
:class:`~unobot.tournament.model.Result`. A game whose table went away unfinished is played
again from its start.
"""

from __future__ import annotations

import logging
import re
from typing import TYPE_CHECKING, Any, Protocol

from unobot.core.settings import rules_from_text
from unobot.core.table import COMPUTER_IDENT, State, Table
from unobot.core.updates import EngineEvents, Update
from unobot.engine.events import HandEnded, MatchEnded
from unobot.i18n import domain
from unobot.irc.casemap import irc_lower
from unobot.irc.transport import Incoming, Kind
from unobot.tournament.director.live import Live, hand_of, tag
from unobot.tournament.model import Game, Result, Step, TournamentError
from unobot.tournament.state import Tournament, duration_text, result_to_json
from unobot.tournament.words import stage_text

if TYPE_CHECKING:
    from unobot.core.bot import Bot

__all__ = ["Desk", "Tables"]

log = logging.getLogger(__name__)

_, ngettext = domain("tournament")


class Desk(Protocol):
    """What the tables ask of the director (``commands.Director``)."""

    bot: Bot
    tournaments: dict[str, Tournament]

    def now(self) -> float: ...
    def arm(self) -> None: ...
    def find(self, name: str) -> Tournament | None: ...
    def change(self, tournament: Tournament, kind: str, **data: Any) -> list[Step]: ...
    def say(self, tournament: Tournament, text: str) -> None: ...
    def standings(self, tournament: Tournament, *, final: bool) -> None: ...
    def check_clocks(self, tournament: Tournament) -> None: ...


class Tables:
    """The games being run, by folded table channel (``live``)."""

    def __init__(self, desk: Desk) -> None:
        self.desk = desk
        self.bot = desk.bot
        self.live: dict[str, Live] = {}
        """By folded table channel: the games being run."""

    def seat(self, tournament: Tournament, game: Game, *, again: str = "") -> None:
        """Seat ``game`` at its channel (recorded once; again with ``again``), invite its
        people and open the table as soon as the bot is in."""
        channel = tournament.channel_of(game)
        key = irc_lower(channel)
        busy = self.live.get(key)
        if busy is not None and busy.game.key != game.key:
            log.warning("table %s still busy with %s; %s waits", channel, busy.game.key, game.key)
        if game.key not in tournament.seated or again:
            self.desk.change(
                tournament,
                "seat",
                key=game.key,
                table=game.table,
                channel=channel,
                stage=game.stage,
                players=list(game.players),
            )
        self.live[key] = Live(tournament.name, game, channel, replayed=bool(again))
        people = [p for p in game.players if not self.level(tournament, p)]
        self.desk.say(
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

    def level(self, tournament: Tournament, name: str) -> str:
        """A computer entrant's level; "" for a person."""
        entrant = tournament.entrant(name)
        return entrant.level if entrant is not None else ""

    def _try_open(self, key: str) -> None:
        """Open the table when the bot is in its channel; deal when everyone is there."""
        live = self.live.get(key)
        if live is None:
            return
        tournament = self.desk.find(live.tournament)
        if tournament is None or tournament.over:
            return
        bot = self.bot
        if live.table is not None and live.ready is None and bot.in_channel(live.channel):
            live.ready = self.desk.now()
        if live.table is None:
            existing = bot.tables.get(key)
            if existing is not None and existing.config.tournament == tag(tournament, live.game):
                live.table = existing  # restored from the journal
                return
            if existing is not None or not bot.in_channel(live.channel):
                return  # an ordinary game still runs there, or the bot has not joined yet
            live.table = bot.open_directed(
                live.channel,
                [
                    (p, self._key(tournament, p), self.level(tournament, p))
                    for p in live.game.players
                ],
                self._rules(live.game),
                tag(tournament, live.game),
                warning=tournament.seconds(live.game.warning),
            )
            live.ready = self.desk.now()
            bot.say(live.channel, _opened(tournament, live, self._missing(live)))
        self.try_deal(key)

    def _key(self, tournament: Tournament, name: str) -> str:
        entrant = tournament.entrant(name)
        if entrant is not None and entrant.level:
            return COMPUTER_IDENT + irc_lower(name)
        return entrant.key if entrant is not None and entrant.key else irc_lower(name)

    def _rules(self, game: Game):
        # Seats are fixed by the director: any table of two or more may be dealt.
        return rules_from_text(game.rules, {**dict(game.options), "min_players": "2"})

    def _missing(self, live: Live) -> list[str]:
        """Seated people not in the table's channel (computer entrants are always there)."""
        tournament = self.desk.find(live.tournament)
        table = live.table
        present = self.bot.members.of(live.channel)
        names = table.names if table is not None else live.game.players
        return [
            n
            for n in names
            if irc_lower(n) not in present
            and not (tournament is not None and self.level(tournament, n))
        ]

    def try_deal(self, key: str, *, force: bool = False) -> None:
        """Deal ``key``'s table once everyone seated is in its channel; with ``force`` (the
        no-show grace is over) without those who are not. Too few left: a walkover."""
        live = self.live.get(key)
        if live is None or live.table is None or live.table.state is not State.LOBBY:
            return
        tournament = self.desk.find(live.tournament)
        if tournament is None or tournament.paused is not None:
            return
        table = live.table
        missing = self._missing(live)
        if missing and not force:
            return
        now = self.bot.scheduler.now()
        self._no_shows(tournament, live, table, missing, now)
        if len(table.players) < 2:
            self._walkover(key, live)
            return
        limit: float | None = tournament.seconds(live.game.seconds) if live.game.seconds else None
        round_ = tournament.round
        if round_ is not None and live.game.seconds:
            left = round_.ends - self.desk.now()
            if left < 10 or self.desk.now() >= round_.warned:
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

    def _no_shows(
        self, tournament: Tournament, live: Live, table: Table, missing: list[str], now: float
    ) -> None:
        """The no-show rule: each of ``missing`` is out of this game and the tournament."""
        grace = tournament.seconds(tournament.options.grace_seconds)
        for nick in missing:
            try:
                self.desk.change(tournament, "remove", name=nick, by="director", reason="no-show")
            except TournamentError as err:  # out already (a director's removal meanwhile)
                log.info("tournament %s: %s not removed again: %s", tournament.name, nick, err)
                if table.has(nick):
                    self.bot.publish(table, table.leave(nick, now))
                continue
            self.desk.say(
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

    def _walkover(self, key: str, live: Live, *, played: bool = True) -> None:
        """Too few came to play (or the round had no time left): the game ends unplayed."""
        tournament = self.desk.find(live.tournament)
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
            self.finish(tournament, result)

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
                    live.hands.append(hand_of(names, outcome))
                elif type(inner) is MatchEnded:
                    self._match_ended(key, live, table, inner)

    def _match_ended(self, key: str, live: Live, table: Table, ended: MatchEnded) -> None:
        tournament = self.desk.find(live.tournament)
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
        self.desk.say(tournament, said)
        # After this update is published the table is dropped; the next step may seat the
        # same channel again, so it runs once the bot has let go of this table.
        self.bot.scheduler.call_later(0, lambda: self.finish(tournament, result))

    def finish(self, tournament: Tournament, result: Result) -> None:
        """Hand a finished (or unplayed) game's result to the tournament, once."""
        if tournament.over or result.key in tournament.results:
            return
        try:
            self.desk.change(tournament, "result", **result_to_json(result))
        except TournamentError as err:
            log.error("tournament %s: result for %s refused: %s", tournament.name, result.key, err)
            return
        if not tournament.over:
            self.desk.standings(tournament, final=False)
        self.desk.check_clocks(tournament)

    def dropped(self, table: Table, why: str) -> None:
        """A tournament table went away unfinished (the bot was kicked for good, an admin
        stopped it): the game is played again from its start."""
        key = irc_lower(table.channel)
        live = self.live.get(key)
        if live is None or live.table is not table:
            return
        tournament = self.desk.find(live.tournament)
        live.table = None
        live.hands.clear()
        if tournament is None or tournament.over:
            self.live.pop(key, None)
            return
        self.desk.say(
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
            self.desk.arm()

    def _renamed(self, old: str, new: str) -> None:
        for tournament in self.desk.tournaments.values():
            if tournament.over:
                continue
            entrant = tournament.entrant(old)
            if entrant is not None and not entrant.level and tournament.entrant(new) is None:
                try:
                    self.desk.change(
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

    def close_table(self, key: str, live: Live, why: str) -> None:
        """Stop running ``live`` and drop its table unfinished, saying ``why``."""
        self.live.pop(key, None)
        if live.table is not None and not live.table.finished:
            self.bot.drop_table(live.channel, why)
            self.bot.say(live.channel, _("This table is closed: {why}.", why=why))

    def leave_tables(self, tournament: Tournament, name: str) -> None:
        """``name`` (out of the tournament) leaves the table it plays at."""
        for live in self.live.values():
            table = live.table
            if live.tournament == tournament.name and table is not None and table.has(name):
                update = table.leave(name, self.bot.scheduler.now())
                self.bot.publish(table, update)
                return

    def rehands(self, live: Live, tournament: Tournament, game: Game) -> None:
        """The hands a restored table played before the restart (from its match)."""
        table = live.table
        if table is None or table.match is None:
            return
        names = table.names
        for outcome in table.match.hands:
            live.hands.append(hand_of(names, outcome))


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


def _opened(tournament: Tournament, live: Live, missing: list[str]) -> str:
    """What a table says when it opens: the game, its players, who it waits for."""
    said = {
        "name": tournament.name,
        "stage": stage_text(live.game.stage),
        "players": ", ".join(live.game.players),
        "missing": ", ".join(missing),
    }
    if live.replayed and missing:
        return _(
            "Tournament {name} - {stage} (played again from the start: its table was "
            "lost in a restart): {players}; waiting for {missing}.",
            **said,
        )
    if live.replayed:
        return _(
            "Tournament {name} - {stage} (played again from the start: its table was "
            "lost in a restart): {players}.",
            **said,
        )
    if missing:
        return _("Tournament {name} - {stage}: {players}; waiting for {missing}.", **said)
    return _("Tournament {name} - {stage}: {players}.", **said)
