"""A table before the deal: who sits down, who may deal when, and the lobby's refusals.

:class:`Lobby` seats people (``.join``) and computer players (``.addbot``/``.removebot``),
lets them go (``.leave``, a part), takes ``.team`` to its :class:`~unobot.core.teams.Teams`,
and at ``.deal`` says every reason a deal can't be made yet, then gives the seat order and the
match's rules. It works on the table's own list of players (the same list object, never
replaced) and is told by the table when it stops being a lobby (:attr:`Lobby.open`); it keeps who
opened the table (:attr:`starter`) and when, and tells the table's clock of activity
(``touch``).
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Callable

from unobot.ai.strategy import LEVELS
from unobot.core.seats import COMPUTER_IDENT, NAME, Player, find_seat, next_starter
from unobot.core.teams import Teams
from unobot.core.updates import Joined, Left, Update
from unobot.engine import errors
from unobot.engine.errors import UnoError
from unobot.engine.rules import HouseRules
from unobot.i18n import domain
from unobot.irc.casemap import irc_eq, irc_lower

_, ngettext = domain("game")

__all__ = ["Lobby"]


class Lobby:
    """Seating before the deal. Its calls change only the lobby (and raise ``UnoError`` with
    the reply to give when refused); the table journals them under their names."""

    def __init__(
        self,
        players: list[Player],
        rules: HouseRules,
        teams: Teams,
        *,
        starter: str,
        opened_at: float,
        lobby_timeout: float,
        tournament: bool,
        touch: Callable[[float], None],
    ) -> None:
        """``tournament``: a director's table (anyone's, computer players alone allowed);
        ``touch(now)``: a change was made."""
        self.players = players
        self.rules = rules
        self.teams = teams
        self.starter = starter
        """Who opened the table and deals first; the first person left when they go."""
        self.opened_at = opened_at
        self._lobby_timeout = lobby_timeout
        self._tournament = tournament
        self._touch = touch
        self.open = True
        """The table is a lobby: not dealt, not ended. The table clears it when it deals (and
        sets it again if the deal fails) or stops; :meth:`leave` when nobody is left."""

    @property
    def humans(self) -> int:
        return sum(1 for p in self.players if not p.computer)

    # --- seats -------------------------------------------------------------------------------

    def join(self, nick: str, key: str, now: float) -> Update:
        if not self.open:
            raise UnoError(_("this game has already been dealt: wait for the next one"))
        if find_seat(self.players, nick) is not None:
            raise UnoError(_("you are already in this game"))
        if find_seat(self.players, nick, computer=True) is not None:
            raise UnoError(_("a computer player here has your nick: .removebot it, or change nick"))
        if len(self.players) >= self.rules.max_players:
            raise UnoError(_("the game is full ({n} players)", n=self.rules.max_players))
        self.players.append(Player(nick, key))
        self._touch(now)
        return Update([Joined(nick, len(self.players))])

    def add_computer(self, level: str, name: str | None, now: float, own_nick: str = "") -> Update:
        """Seat a computer player of ``level`` in the lobby (the caller has checked the right
        to). ``name``: a nick-like name (default ``<Level>Bot<n>``, the first free one);
        ``own_nick``: the IRC bot's own nick, which no computer player may take."""
        if level not in LEVELS:
            raise UnoError(_("the levels are {levels}", levels=", ".join(LEVELS)))
        if not self.open:
            raise UnoError(_("computer players join before the deal"))
        limit = self.rules.max_players
        if len(self.players) >= limit:
            raise UnoError(_("the game is full ({n} players)", n=limit))
        if name is None:
            name = self._free_name(level, own_nick)
        elif not NAME.fullmatch(name):
            raise UnoError(
                _(
                    "a computer player's name is a nick: up to 16 letters, digits or "
                    "{chars}, not starting with a digit or -",
                    chars="[]\\`_^{|}-",
                )
            )
        elif find_seat(self.players, name, computer=None) is not None or irc_eq(name, own_nick):
            raise UnoError(_("{name} is already taken here: choose another name", name=name))
        self.players.append(Player(name, COMPUTER_IDENT + irc_lower(name), level=level))
        self._touch(now)
        return Update([Joined(name, len(self.players), level)])

    def _free_name(self, level: str, own_nick: str) -> str:
        """``<Level>Bot<n>``, the first ``n`` no player here (nor the bot) is called."""
        stem = level.capitalize() + "Bot"
        n = 1
        while find_seat(self.players, f"{stem}{n}", computer=None) is not None or irc_eq(
            f"{stem}{n}", own_nick
        ):
            n += 1
        return f"{stem}{n}"

    def remove_computer(self, name: str | None, now: float) -> Update:
        """Take a computer player out of the lobby: ``name``, or the last one added."""
        if not self.open:
            raise UnoError(_("computer players can only be removed before the deal"))
        if name is None:
            seats = [s for s, p in enumerate(self.players) if p.computer]
            if not seats:
                raise UnoError(_("there is no computer player in this game"))
            seat = seats[-1]
        else:
            found = find_seat(self.players, name, computer=True) if NAME.fullmatch(name) else None
            if found is None:
                raise UnoError(_("no computer player of that name is in this game"))
            seat = found
        player = self.players.pop(seat)
        self.teams.drop(player)
        self._touch(now)
        return Update([Left(player.nick)])

    def leave(self, seat: int) -> Update:
        """The player at ``seat`` leaves the lobby (``.leave``, a part). With no person left
        the update is ``finished``: computer players alone don't keep a lobby open (a
        tournament's table is the director's, whose entrants may all be computers)."""
        player = self.players.pop(seat)
        self.teams.drop(player)
        if not self.humans and not self._tournament:
            self.open = False
            return Update([Left(player.nick)], finished=True)
        new_starter = None
        if irc_eq(player.nick, self.starter):
            self.starter = new_starter = next_starter(self.players)
        return Update([Left(player.nick, new_starter)])

    def team(self, nick: str, other: str, now: float) -> Update:
        """``.team <nick>`` (pairs: ask or agree to be partners) or ``.team a|b|<nick>`` (two
        teams: choose a side): :meth:`Teams.choose`. Only in the lobby of a teams game."""
        if self.teams.kind is None:
            raise UnoError(
                _("this game is not played in teams: open one with .uno pairs or .uno two-teams")
            )
        if not self.open:
            raise UnoError(_("teams are made before the deal"))
        seat = find_seat(self.players, nick)
        if seat is None:
            raise errors.NotAPlayer()
        event = self.teams.choose(self.players[seat], other, self.players)
        self._touch(now)
        return Update([event])

    # --- the deal ----------------------------------------------------------------------------

    def deal(self, nick: str, now: float, time_limit: float | None) -> tuple[HouseRules, float]:
        """``nick`` deals (``.deal [time]``): refused unless they may and the table can be
        dealt; else the players are put in their seats (teams) and the match's rules and time
        limit (seconds, 0: untimed) are returned. The starter may deal any time, anyone once
        the lobby time is up. ``time_limit`` (from ``.deal 60m``) makes the match a timed
        one; without it the rules' ``time_limit_minutes`` applies."""
        if not self.open:
            raise UnoError(_("the cards are already dealt"))
        self._check_dealer(nick, now)
        rules = self.rules
        n = len(self.players)
        need = max(2, rules.min_players)
        if not self.humans and not self._tournament:
            raise UnoError(_("a game needs at least one person"))
        if n < need:
            raise UnoError(_("{n} players are needed to deal: others can .join", n=need))
        self.teams.check_deal(n)
        problem = rules.deal_problem(n)
        if problem:  # rules made before validate() checked this (e.g. stored ones)
            raise UnoError(_("can't deal: {problem}", problem=problem))
        self.players[:] = self.teams.seat(self.players)
        limit = rules.time_limit_minutes * 60.0
        if time_limit is not None:
            if not 10 <= time_limit <= 24 * 3600:
                raise UnoError(_("a time limit is 10s to 24h, e.g. .deal 60m"))
            # The match reads only whether there is a limit (it then deals hand after hand):
            # the table owns the clock, to the second.
            rules = dataclasses.replace(rules, time_limit_minutes=math.ceil(time_limit / 60))
            limit = time_limit
        return rules, limit

    def _check_dealer(self, nick: str, now: float) -> None:
        """Only the starter deals until the lobby time is up (or they have left)."""
        lobby_left = self.opened_at + self._lobby_timeout - now
        if (
            not irc_eq(nick, self.starter)
            and lobby_left > 0
            and find_seat(self.players, self.starter) is not None
        ):
            raise UnoError(
                _(
                    "only {nick} can deal for now; anyone can deal in {seconds}s",
                    nick=self.starter,
                    seconds=int(lobby_left) + 1,
                )
            )
