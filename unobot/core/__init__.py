"""The bot core: everything between the rules engine and the network.

One :class:`~unobot.core.table.Table` per channel (lobby, seats, timers as deadlines; no I/O),
the :class:`~unobot.core.bot.Bot` that owns the tables and turns incoming records into table
actions, the plugin API (:mod:`unobot.core.plugin`) and the dispatcher that calls plugins,
rendering of table updates as IRC lines, computer seats, and the settings store. It knows the
network only through the transport contract (:mod:`unobot.irc.transport`) and imports no plugin:
the composition root (:mod:`unobot.main`) chooses them.
"""
