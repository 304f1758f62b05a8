"""The terminal edge: the bot's transport (printing what the human would see) and its
scheduler (an asyncio loop), in place of the IRC adapter."""

from __future__ import annotations

import asyncio
import functools
import logging
import re
import threading
from collections.abc import Callable

from unobot.i18n import DEFAULT, N_, domain, speaking
from unobot.irc.casemap import irc_eq
from unobot.irc.transport import UNTAGGED, Tag
from unobot.terminal.ansi import mirc_to_ansi
from unobot.terminal.options import BOT_NICK, CHANNEL

__all__ = ["LoopScheduler", "TerminalTransport", "second_person"]

_, ngettext = domain("terminal")
log = logging.getLogger(__name__)


_NICK_CHAR = r"[A-Za-z0-9\[\]\\`_^{|}-]"
N_YOUR_TURN = N_("Your turn.")
"""The turn said to the human, in place of the channel's ``NICK's turn.`` (not English)."""
N_YOU_PICK = N_("You pick the colour (.color r/y/g/b).")
"""In place of ``NICK picks the colour (.color r/y/g/b).`` (not English)."""
N_YOU_ROULETTE = N_("Name a colour for the roulette (.color r/y/g/b), then draw until it comes.")
"""No Mercy: in place of ``NICK: name a colour for the roulette (...), then draw until it
comes.`` (not English)."""
_AFTER_NICK = {
    "'s turn": "your turn",
    " picks the colour": "you pick the colour",
    ": swap with whom?": "swap with whom?",  # Seven-O: the 7 just played
    ": name a colour for the roulette": "name a colour for the roulette",  # No Mercy
}


def second_person(text: str, nick: str, lang: str = DEFAULT) -> str:
    """``text`` with the status of ``nick``'s turn said to them: ``Top: R5. Your turn.``.

    In a channel the bot must name whose turn it is; in a terminal there is one person, who
    reads ``me's turn.`` (their login name) as a puzzle rather than a cue. Only the status
    phrases change (``NICK's turn``, ``NICK picks the colour``, ``NICK must draw``, Seven-O's
    ``NICK: swap with whom?``), so what the computers did and the rest of the line read as on
    IRC. Pure, for unit tests.

    In another language the game's status sentences are the game's translations, which this
    module can't know by heart: :func:`_status_sentences` asks the game's own renderer how it
    says "NICK's turn." and "NICK picks the colour (...)." in ``lang`` and puts the whole
    sentence in the second person (``Max ist dran.`` → ``Du bist dran.``). Sentences it has no
    second-person form for stay as the channel says them."""
    if lang != DEFAULT:
        return _second_person_in(text, nick, lang)
    phrases = (
        "'s turn| picks the colour| must draw|: swap with whom\\?|: name a colour for the roulette"
    )
    pattern = re.compile(rf"(?<!{_NICK_CHAR}){re.escape(nick)}({phrases})(?!{_NICK_CHAR})")

    def say(m: re.Match[str]) -> str:
        phrase = _AFTER_NICK.get(m.group(1), "you" + m.group(1))
        before = text[: m.start()].rstrip(" \x02\x0f")
        if not before or before.endswith((".", "!", "?", ":", "|")):
            phrase = phrase[0].upper() + phrase[1:]
        return phrase

    return pattern.sub(say, text)


_SENTINEL = "\x00nick\x00"
"""Stands for the nick in the sentences rendered to learn their shape (no nick contains it)."""


@functools.cache
def _status_sentences(lang: str) -> tuple[tuple[str, str, str], ...]:
    """``(before, after, second person)`` for each status sentence the terminal says to the
    human in ``lang``: the game's sentence is ``before + NICK + after``.

    Rendered once per language with the game's own :func:`~unobot.core.render_irc.status_text`
    (whatever its catalogue says), so the two stay in step. Should the renderer refuse (its
    signature changed), the sentences are left as the channel says them: a cue in the third
    person, never a crash."""
    from unobot.core.render_irc import Cards, status_text
    from unobot.core.updates import Status
    from unobot.engine import Phase
    from unobot.engine.cards import Card, Color

    shapes = (
        (Phase.PLAY, N_YOUR_TURN),
        (Phase.CHOOSE_COLOR, N_YOU_PICK),
        (Phase.ROULETTE, N_YOU_ROULETTE),
    )
    found: list[tuple[str, str, str]] = []
    with speaking(lang):
        for phase, mine in shapes:
            try:
                status = Status(Card.parse("R5"), Color.RED, _SENTINEL, phase, 0, ())
                sentence = str(status_text(status, Cards(False), ".", top=False))
            except Exception:
                log.exception("can't learn the %s status sentence in %s", phase, lang)
                continue
            before, sep, after = sentence.strip().partition(_SENTINEL)
            if sep and _SENTINEL not in after:
                found.append((before, after, str(_(mine))))
    return tuple(found)


def _second_person_in(text: str, nick: str, lang: str) -> str:
    for before, after, mine in _status_sentences(lang):
        # A nick at either end of the sentence must not be the tail or head of a longer one.
        head = "" if before else rf"(?<!{_NICK_CHAR})"
        tail = "" if after else rf"(?!{_NICK_CHAR})"
        pattern = re.compile(head + re.escape(before + nick + after) + tail)
        text = pattern.sub(lambda _m, said=mine: said, text)
    return text


class TerminalTransport:
    """Prints what the bot sends that the human would see, as an IRC client shows it.

    ``write`` receives whole lines; the game passes a function that also stops the program
    when the output has gone away (a closed pipe)."""

    def __init__(
        self,
        write: Callable[[str], None],
        human: str,
        *,
        color: bool,
        channel: str = CHANNEL,
        nickname: str = BOT_NICK,
        lang: str = DEFAULT,
    ) -> None:
        """``lang``: the session's language, in which the human's turn is said to them."""
        self.nickname = nickname
        self.language: Callable[[str], str] = lambda _target: lang
        """The language of what is sent to a target (the channel, the human): the status in
        it is said in that language. The game points it at the bot's own choice, which
        ``.unolang`` may change during the session."""
        self.human = human
        self.channel = channel
        self.color = color
        self._write = write

    def privmsg(self, target: str, text: str, tag: Tag = UNTAGGED) -> None:
        if irc_eq(target, self.channel):
            self._show("<", ">", text, target)
        elif irc_eq(target, self.human):
            self._show("*", "*", text, target)  # a private message, as irssi shows a query line

    def notice(self, target: str, text: str, tag: Tag = UNTAGGED) -> None:
        if irc_eq(target, self.human) or irc_eq(target, self.channel):
            self._show("-", "-", text, target)

    def _show(self, left: str, right: str, text: str, target: str) -> None:
        said = second_person(text, self.human, self.language(target))
        body = mirc_to_ansi(said, ansi=self.color)
        who = f"{left}{self.nickname}{right}"
        if self.color:
            who = f"\x1b[1m{who}\x1b[0m"
        self._write(f"{who} {body}")


class _Timer:
    """A cancellable handle that may be armed later (when created from another thread)."""

    __slots__ = ("callback", "cancelled", "handle")

    def __init__(self, callback: Callable[[], None]) -> None:
        self.callback = callback
        self.handle: asyncio.TimerHandle | None = None
        self.cancelled = False


class LoopScheduler:
    """:class:`~unobot.irc.transport.Scheduler` on an asyncio loop, plus an ``after`` hook.

    ``after`` runs once each timer callback has finished: the game uses it to notice that a
    computer player's move ended the game. ``call_later`` and ``cancel`` may be called from
    another thread (a computer player thinking off-thread): the handle is returned at once
    and armed on the loop, since asyncio's own ``call_later`` is not thread-safe.
    """

    def __init__(
        self, loop: asyncio.AbstractEventLoop, after: Callable[[], None] | None = None
    ) -> None:
        self.loop = loop
        self.after = after
        self._thread = threading.get_ident()

    def call_later(self, delay: float, callback: Callable[[], None]) -> object:
        timer = _Timer(callback)
        if threading.get_ident() == self._thread:
            self._arm(timer, delay)
        else:
            self.loop.call_soon_threadsafe(self._arm, timer, delay)
        return timer

    def cancel(self, handle: object) -> None:
        if not isinstance(handle, _Timer):
            return
        handle.cancelled = True
        if handle.handle is not None:
            if threading.get_ident() == self._thread:
                handle.handle.cancel()
            else:
                self.loop.call_soon_threadsafe(handle.handle.cancel)

    def now(self) -> float:
        return self.loop.time()

    def call_soon_threadsafe(self, callback: Callable[[], None]) -> None:
        """The door in from other threads, as :class:`~unobot.irc.adapter.IrcAdapter` has."""
        self.loop.call_soon_threadsafe(self._run, _Timer(callback))

    def _arm(self, timer: _Timer, delay: float) -> None:
        if not timer.cancelled:
            timer.handle = self.loop.call_later(max(0.0, delay), self._run, timer)

    def _run(self, timer: _Timer) -> None:
        if timer.cancelled:
            return
        timer.cancelled = True  # fired: a later cancel is a no-op
        try:
            timer.callback()
        finally:
            if self.after is not None:
                self.after()
