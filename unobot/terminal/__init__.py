"""``unobot play``: Uno in a terminal against computer players, with no network.

:mod:`~unobot.terminal.game` runs the bot itself on :mod:`~unobot.terminal.transport` (a
terminal transport and an asyncio scheduler); :mod:`~unobot.terminal.ansi` shows mIRC
formatting as ANSI; :mod:`~unobot.terminal.options` parses the command line.
"""
