"""The IRC edge: the transport contract the core talks to, and what implements it.

:mod:`~unobot.irc.transport` (records in, lines out, a scheduler) and
:mod:`~unobot.irc.casemap` (RFC 1459 case folding) are what the core imports;
:mod:`~unobot.irc.adapter` is the only module that imports the ``irc`` library, with its
outbound token bucket in :mod:`~unobot.irc.outbox` and its parts that need no library
(:mod:`~unobot.irc.services`, :mod:`~unobot.irc.lag`, :mod:`~unobot.irc.names`,
:mod:`~unobot.irc.joins`);
:mod:`~unobot.irc.embedded_server` is the local server of the embedded default. Nothing here
knows Uno.
"""
