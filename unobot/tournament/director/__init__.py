"""The tournament director: runs each tournament's games at tables on IRC.

:mod:`.commands` (:class:`Director`: what the commands and the steps do), :mod:`.clock` (the
director's time and what is due when), :mod:`.tables` (seating, opening, dealing and following
the tables), :mod:`.writer` (every entry to the stats database), :mod:`.live` (a seated game).
"""

from unobot.tournament.director.commands import Director, standings_lines

__all__ = ["Director", "standings_lines"]
