"""How a tournament's stored words are *shown*: stages, standings notes, statuses, sheet lines.

A game's stage ("Round 2 game 1", "Final"), a standing's note ("out in round 2") and a score
sheet's label are data: written to the tournament log and the database, exported to CSV and
read back by code and by the site, always in English. Only their display is translated, here,
by reading the English form back into a message with named places (:func:`stage_text`,
:func:`note_text`), so a stored label and a freshly made one read the same in every language.
Anything not recognised is shown as it is (a name is never translated by accident).
"""

from __future__ import annotations

import re

from unobot.i18n import N_, Text, domain
from unobot.tournament.model import SheetRow

_, ngettext = domain("tournament")

__all__ = ["note_text", "ordinal_text", "sheet_text", "stage_text", "status_text"]

_STATUSES = {
    "signup": N_("sign-up"),
    "running": N_("running"),
    "done": N_("over"),
    "cancelled": N_("cancelled"),
}


def status_text(status: str) -> str:
    """A tournament's status (``signup``, ``running``…) as the channel reads it."""
    found = _STATUSES.get(status)
    return _(found) if found is not None else status


def ordinal_text(n: int) -> Text:
    """``2nd`` in the language spoken (``2.``, ``2e``, ``2º``…): the English suffix picks the
    message, each language says it its own way."""
    if 10 <= n % 100 <= 20 or n % 10 not in (1, 2, 3):
        return _("{n}th", n=n)
    if n % 10 == 1:
        return _("{n}st", n=n)
    if n % 10 == 2:
        return _("{n}nd", n=n)
    return _("{n}rd", n=n)


def stage_text(stage: str) -> str:
    """A game's English stage, as made by the formats, in the language spoken."""
    if m := re.fullmatch(r"(.+) sudden death(?: (\d+))?", stage):
        main = stage_text(m.group(1))
        if m.group(2):
            return _("{stage} sudden death {n}", stage=main, n=int(m.group(2)))
        return _("{stage} sudden death", stage=main)
    if stage == "Final":
        return _("Final")
    if stage == "Play-off for the final":
        return _("Play-off for the final")
    if m := re.fullmatch(r"Play-off for (\d+)(?:st|nd|rd|th)", stage):
        return _("Play-off for {place}", place=ordinal_text(int(m.group(1))))
    if m := re.fullmatch(r"Table (\d+)", stage):
        return _("Table {table}", table=int(m.group(1)))
    if m := re.fullmatch(r"Hand (\d+)", stage):
        return _("Hand {n}", n=int(m.group(1)))
    if m := re.fullmatch(r"Round (\d+) table (\d+)", stage):
        return _("Round {round} table {table}", round=int(m.group(1)), table=int(m.group(2)))
    if m := re.fullmatch(r"Round (\d+) game (\d+)", stage):
        return _("Round {round} game {game}", round=int(m.group(1)), game=int(m.group(2)))
    return stage


def note_text(note: str) -> str:
    """A standing's English note ("champion", "out in round 2", "table 3, left") shown."""
    if not note:
        return note
    if note.endswith(", left"):
        return _("{where}, left", where=note_text(note[: -len(", left")]))
    fixed = {
        "champion": N_("champion"),
        "finalist": N_("finalist"),
        "through": N_("through"),
        "still in": N_("still in"),
        "removed": N_("removed"),
    }
    if note in fixed:
        return _(fixed[note])
    patterns = (
        (r"in round (\d+)", lambda g: _("in round {round}", round=int(g[0]))),
        (r"out in round (\d+)", lambda g: _("out in round {round}", round=int(g[0]))),
        (r"table (\d+)", lambda g: _("table {table}", table=int(g[0]))),
        (
            r"round (\d+) table (\d+)",
            lambda g: _("round {round} table {table}", round=int(g[0]), table=int(g[1])),
        ),
        (r"left in hand (\d+)", lambda g: _("left in hand {n}", n=int(g[0]))),
        (r"eliminated at (-?\d+)", lambda g: _("eliminated at {score}", score=int(g[0]))),
    )
    for pattern, make in patterns:
        if m := re.fullmatch(pattern, note):
            return make(m.groups())
    return note


def sheet_text(row: SheetRow) -> str:
    """A score sheet line as shown on IRC (``ann > Final,G1,12``): the seeds' notation (T1, G1)
    stays, the stage label, "Won" and "(clock)" are translated. The stored and exported line is
    :meth:`SheetRow.text`, always English."""
    where = stage_text(row.label) if row.label else f"T{row.table}"
    if row.won:
        return _("{player} > {where},G{game},Won", player=row.player, where=where, game=row.game)
    if row.clock:
        return _(
            "{player} > {where},G{game},{points} (clock)",
            player=row.player,
            where=where,
            game=row.game,
            points=row.points,
        )
    return _(
        "{player} > {where},G{game},{points}",
        player=row.player,
        where=where,
        game=row.game,
        points=row.points,
    )
