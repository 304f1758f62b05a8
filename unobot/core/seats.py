"""A table's players in seat order: who they are, and finding one by nick.

Every part of a table (:mod:`unobot.core.lobby`, :mod:`unobot.core.teams`,
:mod:`unobot.core.presence`, :mod:`unobot.core.timers` and the table itself) works on the same
list of :class:`Player` values, so the lookup lives here, below them all.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from unobot.irc.casemap import irc_lower

__all__ = ["COMPUTER_IDENT", "NAME", "Player", "find_seat", "next_starter"]


@dataclass(slots=True)
class Player:
    nick: str
    key: str
    """Identity for preferences (account or folded nick); it survives nick changes."""
    timeouts: int = 0
    """Turn timeouts in a row."""
    away_since: float | None = None
    """When the player left the channel; their seat is held until ``away_since + grace``."""
    level: str = ""
    """A computer player's level (``easy``, ``normal``, ``hard``); empty for a person."""

    @property
    def computer(self) -> bool:
        return bool(self.level)


COMPUTER_IDENT = "$bot:"
"""Prefix of a computer player's key (``$bot:hardbot1``). IRC nicks can't contain ``$``, so no
person's key (a folded nick, or ``$a:`` and an account) can ever equal a computer's: their
preferences and stats never mix."""

NAME = re.compile(r"[A-Za-z\[\]\\`_^{|}][A-Za-z0-9\[\]\\`_^{|}-]{0,15}")
"""A name for a computer player: an RFC 2812 nick of at most 16 characters."""


def find_seat(players: Sequence[Player], nick: str, computer: bool | None = False) -> int | None:
    """The seat of the person called ``nick`` (``computer=True``: of the computer player of
    that name; ``None``: of either), or None.

    People's commands, nick changes and departures look up people only: somebody who takes a
    computer player's name on the network can't move for it or make it leave.
    """
    # The nick as the table wrote it (every hand and update names players so) is found
    # without folding; folding is for what people type.
    for seat, player in enumerate(players):
        if player.nick == nick and (computer is None or bool(player.level) == computer):
            return seat
    low = irc_lower(nick)
    for seat, player in enumerate(players):
        if irc_lower(player.nick) == low and (computer is None or player.computer == computer):
            return seat
    return None


def next_starter(players: Sequence[Player]) -> str:
    """Who deals when the starter goes: the first person left, else (a tournament table of
    computer entrants) the first player; empty when nobody is left."""
    people = [p.nick for p in players if not p.computer]
    return people[0] if people else (players[0].nick if players else "")
