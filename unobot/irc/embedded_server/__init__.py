"""The local IRC server of the embedded default (``unobot`` with no settings), in-process.

A small IRC server of our own, in parts: the loop over the sockets (:mod:`.server`:
accepting, reading lines, writing what is queued, disconnecting), the IRC commands it hands
each line to (:mod:`.commands`: NICK, JOIN, PRIVMSG, MODE, KICK…; :mod:`.queries`: NAMES,
WHO, WHOIS, LIST…), and the state they use (:mod:`.state`: clients, nicks, channels).

Why one thread: the ``irc`` package's ``irc.server`` (which this replaced) runs a thread per
client over shared sets and dicts with no lock. Clients that connected, joined or quit within
the same few milliseconds raced each other ("Set changed size during iteration"): one was
dropped, and its nick stayed taken until the bot restarted. A lock around all of that state
would have had to cover every handler of the library's server, which was never written for it.
Here a single thread owns every nick, channel and buffer, and handles one line at a time to
its end: no interleaving of connects, joins, parts, nick changes, quits and disconnects can
exist, so none can drop a client or leak a nick. Sends are appended to the receiver's buffer
and written when its socket is writable.

Why not miniircd in-process: it is GPL-licensed (this project is MIT) and reads its options
from a command line.
"""

from unobot.irc.embedded_server.server import EmbeddedServer, start

__all__ = ["EmbeddedServer", "start"]
