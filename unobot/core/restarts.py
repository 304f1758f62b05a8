"""What becomes of a table's journal when the bot lets the table go.

A table's journal (``unobot.core.journal``) lets a restarted bot rebuild its game; when the
table goes (its game over, or dropped), the journal goes with it, with one exception: a
finished game that the stats could keep in memory only (a read-only or full disk took the
database and its spool). Then the journal is kept, so that the next start records the game
(by its id: once), and the operator is told, loudly, what to do: a finished game is never
lost in silence. :func:`journal_done` decides, given the journal and the stats recorder
alone (no bot), so it is tested alone; ``Bot.restore`` and ``Bot.farewell`` are the bot's
side of a restart.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from unobot.core.journal import Journal
    from unobot.core.table import Table

__all__ = ["CONNECT_SECONDS", "journal_done", "unsaved"]

log = logging.getLogger("unobot.core.bot")  # the bot's lines, as operators filter them

CONNECT_SECONDS = 60.0
"""Time a restarted bot is given to connect, on top of the seat grace, before a restored game
whose channel it has not got back into is dropped."""


def unsaved(recorder: object, table: Table) -> bool:
    """Whether the game ``table`` finished is in memory only: the recorder's ``unsaved``
    (optional; a recorder without it, or none, keeps nothing in memory only)."""
    answer = getattr(recorder, "unsaved", None)
    return bool(answer is not None and answer(table))


def journal_done(journal: Journal | None, recorder: object, table: Table) -> None:
    """``table`` goes: its journal goes with it, unless the table finished a game that the
    stats could keep in memory only; then the journal is kept and the operator told (ERROR),
    or told that the game is lost when there is no journal (or no whole one) to keep."""
    if journal is None:
        if table.finished and unsaved(recorder, table):
            log.error(
                "the game %s in %s is in memory only (the stats database and its spool "
                "refused it: see above) and no journal is kept (bot.journal is off): it "
                "is lost if the bot stops before the database takes it",
                table.game_id or "(no id)", table.channel,
            )  # fmt: skip
        return
    if not (table.finished and unsaved(recorder, table)):
        journal.closed(table)
        return
    kept = journal.keep(table)
    if kept is None:
        log.error(
            "the game %s in %s is in memory only (the stats database and its spool refused "
            "it: see above) and its journal is incomplete: it is lost if the bot stops "
            "before the database takes it; fix the stats database or its folder now",
            table.game_id or "(no id)", table.channel,
        )  # fmt: skip
        return
    log.error(
        "the game %s in %s is not safe on disk (the stats spool refused it, and the "
        "database may too: see above); its journal %s is kept and the next start records "
        "it (once). Make the stats database and its folder writable (or free disk "
        "space), then restart the bot",
        table.game_id, table.channel, kept,
    )  # fmt: skip
