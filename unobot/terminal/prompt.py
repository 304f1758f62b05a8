"""The line editor of an interactive ``unobot play`` (stdin and stdout both a terminal).

Why prompt_toolkit rather than readline: the computer players' moves are printed *while the
human types*. readline (GNU or libedit) owns the line only inside a blocking ``input()``, and
Python's ``readline`` module gives another thread no supported way to print above that line and
redraw it, so a move arriving mid-line broke the line in two (``.car<unobot> ... plays RD2``,
then ``ds``). prompt_toolkit's :func:`~prompt_toolkit.patch_stdout.patch_stdout` sends every
write through the running prompt, which erases the input line, prints, and redraws the line
with the text and cursor as they were. It also runs on the asyncio loop the game already uses
(:meth:`~prompt_toolkit.PromptSession.prompt_async`: no input thread), gives Emacs and vi
editing keys and history (Up/Down, Ctrl-R search), and works where readline is missing
(Windows). It is pure Python, a well-kept library with one dependency (wcwidth).

History is kept for the session (Up recalls the previous command); nothing is written to disk.
Piped or redirected input keeps the plain line reader of :mod:`~unobot.terminal.game`.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable
from typing import Protocol

from prompt_toolkit import PromptSession
from prompt_toolkit.formatted_text import FormattedText
from prompt_toolkit.history import InMemoryHistory
from prompt_toolkit.styles import Style

from unobot.i18n import N_, domain, speaking

_, ngettext = domain("terminal")

__all__ = ["TURN_PROMPT", "WAIT_PROMPT", "Game", "read_lines", "stop"]

TURN_PROMPT = N_("your turn> ")
"""The prompt while the game waits for the human: the cue that it is their move (in the
session's language: ``du bist dran> ``)."""
WAIT_PROMPT = "> "
"""The prompt at any other time (a computer to move, no game): commands work all the same."""


class Game(Protocol):
    """What the prompt needs of :class:`~unobot.terminal.game.TerminalGame` (a protocol, so
    this module does not import the game that imports it)."""

    color: bool
    done: asyncio.Future[None]
    on_change: Callable[[], None]

    @property
    def lang(self) -> str: ...

    def my_turn(self) -> bool: ...

    def line(self, raw: str) -> None: ...

    def finish(self) -> None: ...


_STYLE = Style.from_dict({"turn": "bold ansigreen"})


def _message(game: Game) -> FormattedText:
    if game.my_turn():
        with speaking(game.lang):  # drawn from prompt_toolkit's own callbacks: say it here
            cue = _(TURN_PROMPT)
        return FormattedText([("class:turn" if game.color else "", cue)])
    return FormattedText([("", WAIT_PROMPT)])


async def read_lines(game: Game) -> None:
    """Prompt for lines and hand each to ``game`` until it is done, Ctrl-D or Ctrl-C.

    Must run inside :func:`~prompt_toolkit.patch_stdout.patch_stdout`, so the game's output
    goes above the prompt instead of through it."""
    session: PromptSession[str] = PromptSession(
        history=InMemoryHistory(), style=_STYLE, include_default_pygments_style=False
    )
    # The cue follows the game: every input and timer ends in game.on_change, which redraws
    # the prompt (a no-op while no prompt is showing).
    game.on_change = session.app.invalidate
    while not game.done.done():
        try:
            text = await session.prompt_async(lambda: _message(game))
        except (EOFError, KeyboardInterrupt):  # Ctrl-D, Ctrl-C: leave as .quit does
            game.finish()
            return
        for line in text.splitlines():  # a pasted block: each line as if typed
            game.line(line)


def stop(task: asyncio.Task[None], loop: asyncio.AbstractEventLoop) -> None:
    """End the prompt (the game is done): the terminal leaves raw mode before the program
    exits, so the shell gets its line editing back."""
    if not task.done():
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError, Exception):
            loop.run_until_complete(task)
