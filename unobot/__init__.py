"""unobot: Uno for IRC channels.

Importing the package first decides whether the compiled engine modules or their sources run
(:mod:`unobot.build_mode`): that must happen before any of them is imported.
"""

from unobot import build_mode as _build_mode

_build_mode.select()
