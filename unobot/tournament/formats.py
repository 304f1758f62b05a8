"""The tournament formats by name (``.tournament new <format> …``).

Each format's module is imported when first asked for: the bot starts without reading the
formats it never runs."""

from __future__ import annotations

import importlib

from unobot.i18n import domain
from unobot.tournament.model import Format, TournamentError

_, ngettext = domain("tournament")

__all__ = ["FORMATS", "format_class"]

FORMATS: dict[str, str] = {
    "ocuk": "unobot.tournament.ocuk:Ocuk",
    "knockout": "unobot.tournament.knockout:Knockout",
    "rotation": "unobot.tournament.rotation:Rotation",
}
"""Name -> ``module:class`` (000, 001 and 002 of the source documents)."""


def format_class(name: str) -> type[Format]:
    """The format called ``name``; TournamentError naming the choices for anything else."""
    where = FORMATS.get(name.strip().lower())
    if where is None:
        raise TournamentError(
            _("no format '{name}'; formats: {formats}", name=name[:20], formats=", ".join(FORMATS))
        )
    module, _sep, cls = where.partition(":")
    return getattr(importlib.import_module(module), cls)  # type: ignore[no-any-return]
