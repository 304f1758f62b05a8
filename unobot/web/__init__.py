"""The read-only stats site (``unobot web``): leaderboards, player pages with charts, game
pages with a step-through replay, and the same data as JSON under ``/api``.

A separate process from the bot, on the same database (SQLite in WAL mode or PostgreSQL), so a
slow page never touches the bot's reactor. Layers: :mod:`~unobot.web.queries` (SQL, read
only), :mod:`~unobot.web.pages` (what each page says, as data), :mod:`~unobot.web.charts`
(pygal SVG), :mod:`~unobot.web.cards` (how a card is drawn), :mod:`~unobot.web.app` (routes,
errors, the Server-Timing header), :mod:`~unobot.web.cli` (the command).
"""
