"""Who of a table's players is in the channel: seats held for those who left, nick changes.

A player who leaves the channel mid-game (a part, a quit, a kick, a dropped connection) keeps
their seat for the table's grace; they have it back when they return or speak, and lose it to
the ``away:<key>`` timer when the grace runs out (the table then removes them as from a
``.leave``). :class:`Presence` keeps those times on the players (:attr:`Player.away_since`,
which survives the seats' renumbering) and follows nick changes; what a departure or a return
does to the game (the lobby's seat, the hand sent again) is the table's.
"""

from __future__ import annotations

import math

from unobot.core.seats import Player, find_seat
from unobot.core.updates import Away, Back
from unobot.irc.casemap import irc_lower

__all__ = ["Presence"]


class Presence:
    """The table's players' comings and goings; ``grace``: how long a seat is held."""

    def __init__(self, players: list[Player], grace: float) -> None:
        self.players = players
        self.grace = grace

    def away(self, player: Player, now: float) -> Away:
        """``player`` left the channel at ``now`` (their first departure counts)."""
        if player.away_since is None:
            player.away_since = now
        return Away(player.nick, int(self.grace))

    @staticmethod
    def back(player: Player) -> Back:
        """``player``, held away, is back (they returned, or moved)."""
        player.away_since = None
        return Back(player.nick)

    def deadlines(self, out: dict[str, float]) -> None:
        """Add each held seat's end to ``out`` as ``away:<key>`` (two seats may share a key,
        one account: the earlier end)."""
        for player in self.players:
            if player.away_since is not None:
                name = "away:" + irc_lower(player.key)
                out[name] = min(out.get(name, math.inf), player.away_since + self.grace)

    def expired(self, name: str, now: float) -> int | None:
        """The seat whose hold the timer ``name`` (``away:<key>``) ends at ``now``, or None
        (a stale timer: they came back, or another seat of the key)."""
        for seat, player in enumerate(self.players):
            away = player.away_since  # of this seat, not another one of the same key
            if (
                name == "away:" + irc_lower(player.key)
                and away is not None
                and away + self.grace <= now + 1e-6
            ):
                return seat
        return None

    def catch_up(self, since: float, lost: float) -> None:
        """The bot was away from ``since`` for ``lost`` seconds: seats held before then are
        held that much longer (nobody saw them return)."""
        for player in self.players:
            if player.away_since is not None and player.away_since <= since:
                player.away_since += lost

    def rename(self, old: str, new: str) -> list[tuple[str, str]] | None:
        """Follow a nick change: the nicks renamed (``(was, now)``, in order), or None when
        ``old`` is not seated here.

        A server gives out only a nick nobody holds, so a person seated here as ``new`` has
        left the network (their seat is held). That seat is renamed ``new`` + ``(gone)``,
        which no one can hold: else one nick would name two seats, and the renamer would get
        that seat's hand and play its cards.
        """
        seat = find_seat(self.players, old)
        if seat is None:
            return None
        renamed = []
        other = find_seat(self.players, new)
        if other is not None and other != seat:
            gone = self.players[other]
            renamed.append((gone.nick, gone.nick + "(gone)"))
            gone.nick += "(gone)"
        self.players[seat].nick = new
        renamed.append((old, new))
        return renamed
