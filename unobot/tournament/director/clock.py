"""The director's clocks: what time it is, when a tournament next needs a look, what is due.

Times are wall-clock seconds (what the log's entries store), read as the scheduler's clock
plus a fixed offset, so tests that move a manual clock move these too. Nothing ticks while
nothing is due: :class:`Clock` arms one timer for the earliest of sign-up's end, a seated
table's no-show grace and a round's end (:func:`next_due`), and on it the director asks what
is due (:func:`signup_over`, :func:`graces`, :func:`round_over`) and acts. A paused tournament
has no clock. What is done when a clock runs out is the director's (``commands``).
"""

from __future__ import annotations

import logging
import re
from collections.abc import Callable, Iterable, Iterator

from unobot.core.table import State
from unobot.irc.transport import Scheduler
from unobot.tournament.director.live import Live
from unobot.tournament.state import Tournament

__all__ = ["TICK", "Clock", "graces", "next_due", "round_over", "signup_over"]

log = logging.getLogger(__name__)

TICK = 1.0
"""How late a round's end may still be looked at (seconds)."""


class Clock:
    """One timer on the bot's scheduler for every tournament: armed for ``due()`` (the next
    moment anything needs a look, or None), it calls ``on_time`` then arms itself again."""

    def __init__(
        self,
        scheduler: Scheduler,
        wall: float,
        scale: float,
        due: Callable[[], float | None],
        on_time: Callable[[], None],
    ) -> None:
        """``wall``: the wall clock now; ``scale``: the tournaments' time scale."""
        self.scheduler = scheduler
        self.offset = wall - scheduler.now()
        self.scale = scale
        self._due = due
        self._on_time = on_time
        self._tick: tuple[float, object] | None = None

    def now(self) -> float:
        return self.scheduler.now() + self.offset

    def arm(self) -> None:
        """Make sure the timer fires by the next due moment (an earlier one stays)."""
        due = self._due()
        if due is None:
            return
        if self._tick is not None:
            armed, handle = self._tick
            if armed <= due:
                return
            self.scheduler.cancel(handle)
        delay = max(0.0, due - self.now()) + 0.01
        self._tick = (due, self.scheduler.call_later(delay, self._fired))

    def _fired(self) -> None:
        self._tick = None
        try:
            self._on_time()
        except Exception:
            log.exception("tournament clock check failed")
        self.arm()

    def signup_at(self, word: str) -> str:
        """``signup=15:00`` (000: "Signups close: Saturday 30th October at 15:00"): sign-up
        closes at that time of day, UTC, the next time it comes. Written to the log as the
        duration from now (unscaled by the time scale, which the log's durations are); any
        other word as it came."""
        key, _sep, value = word.partition("=")
        match = re.fullmatch(r"([01]?\d|2[0-3]):([0-5]\d)", value.strip())
        if key.strip().lower() != "signup" or match is None:
            return word
        now = self.now()
        day = now - now % 86400
        at = day + int(match.group(1)) * 3600 + int(match.group(2)) * 60
        if at <= now:
            at += 86400
        return f"signup={(at - now) / self.scale:.0f}s"


def next_due(
    tournaments: Iterable[Tournament],
    live: dict[str, Live],
    in_channel: Callable[[str], bool],
    now: float,
) -> float | None:
    """The next moment a tournament clock needs a look (wall clock), or None: sign-up's
    end, a seated table's no-show grace, a round's end. Between those, only events (a
    JOIN, a result) move a tournament on, so nothing ticks while nothing is due."""
    due: list[float] = []
    for tournament in tournaments:
        if tournament.over or tournament.paused is not None:
            continue
        ends = tournament.signup_ends()
        if ends is not None:
            due.append(ends)
        grace = tournament.seconds(tournament.options.grace_seconds)
        for game in live.values():
            table = game.table
            if game.tournament != tournament.name or table is None:
                continue
            if table.state is State.LOBBY and in_channel(game.channel):
                seated = tournament.seated.get(game.game.key, now)
                due.append(max(seated, game.ready if game.ready is not None else now) + grace)
        round_ = tournament.round
        if round_ is not None and round_.ends >= now - TICK:
            due.append(round_.ends)
    return min(due) if due else None


def signup_over(tournament: Tournament, now: float) -> bool:
    ends = tournament.signup_ends()
    return ends is not None and now >= ends


def graces(
    tournament: Tournament, live: dict[str, Live], in_channel: Callable[[str], bool], now: float
) -> Iterator[tuple[str, bool]]:
    """``(table key, grace over)`` for each of the tournament's tables waiting in the lobby
    with the bot in its channel, one at a time (the director deals each before the next is
    looked at). A table's no-show grace starts when it was seated, and never sooner than
    when this process first saw it ready (``Live.ready``, set here)."""
    grace = tournament.seconds(tournament.options.grace_seconds)
    for key, game in list(live.items()):
        if game.tournament != tournament.name or game.table is None:
            continue
        if game.table.state is State.LOBBY and in_channel(game.channel):
            if game.ready is None:
                game.ready = now
            seated = tournament.seated.get(game.game.key, now)
            yield key, now >= max(seated, game.ready) + grace


def round_over(tournament: Tournament, live: dict[str, Live], now: float) -> bool:
    """A rotation round whose time is up, with no game left to play or being played, and
    not yet said to be over."""
    round_ = tournament.round
    return (
        round_ is not None
        and tournament.format.name == "rotation"
        and now >= round_.ends
        and not tournament.pending()
        and not any(game.tournament == tournament.name for game in live.values())
        and tournament.log[-1].kind != "round_over"
    )
