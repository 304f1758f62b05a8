"""Computer players at IRC tables: who moves when, what each seat may see, where they think.

The bot calls :meth:`Computers.observe` with every update it publishes (as it does the stats
recorder). For a table with computer seats this

1. feeds each computer seat's :class:`~unobot.ai.Observer` the engine events of the update, in
   order: a fresh observer per seat at every deal, so a strategy only ever knows what a person in
   that seat would (its own hand, the public events, the counts), never another hand;
2. works out which computer seats may act now: the seat to move, and any seat with an
   out-of-turn chance (catching a missed UNO, calling its own late UNO) while the window is open;
3. asks each of them for a decision on an :class:`~unobot.ai.Observation` taken now, and makes
   the move after a short human-looking pause (``[bots] delay``), through the same table methods
   a person's command uses.

A table rebuilt from its journal after a restart is followed the same way while it is replayed
(:meth:`Computers.replayed`, from ``Bot.restore``): its computer seats' observers see every
replayed event, so a restored seat knows exactly what it knew, and moves as soon as the table is
back in its channel.

Decisions are tagged with the table's *version* (bumped by every update that says something
happened). A decision that comes back, or comes due, after the table changed is stale and is
dropped; the update that changed the table has already planned afresh. A stopped table forgets
its decisions at once.

``hard`` searches for ~200 ms of CPU a move. The reactor thread serves every channel and must not
stall that long, so decisions of that level go to a :class:`PoolDecider` (worker processes: a
thread would hold the GIL and slow every other channel's commands); the answer comes back
through the adapter's ``call_soon_threadsafe``. ``easy`` and ``normal`` take microseconds and are
decided inline, as is everything in tests (:class:`InlineDecider`).
"""

from __future__ import annotations

import contextlib
import copyreg
import logging
import multiprocessing
import os
import signal
import threading
import time
import weakref
from collections.abc import Callable, Iterator
from concurrent.futures import Future, ProcessPoolExecutor
from dataclasses import dataclass, field
from random import Random
from typing import TYPE_CHECKING, Protocol

from unobot.ai import LEVELS, Observation, Observer, make_strategy
from unobot.ai.flip import flip_action, with_uno_call
from unobot.ai.flip_hard import FlipHard, FlipMemory, FlipView, determinise
from unobot.ai.normal import swap_target
from unobot.core.seats import Player
from unobot.core.table import Table
from unobot.core.updates import Dealt, EngineEvents, FlipEvents, Update
from unobot.engine.actions import (
    Action,
    CallUno,
    Catch,
    Challenge,
    ChooseColor,
    Draw,
    Pass,
    Play,
    Swap,
)
from unobot.engine.errors import UnoError
from unobot.engine.flip import FlipAction, FlipChoose, FlipPlay
from unobot.i18n import domain
from unobot.irc.casemap import irc_eq, irc_lower

if TYPE_CHECKING:
    from unobot.engine.game import Game
    from unobot.irc.transport import Scheduler

_, ngettext = domain("commands")

__all__ = [
    "ComputerConfig",
    "Computers",
    "Decider",
    "InlineDecider",
    "PoolDecider",
    "computer_name",
    "decide",
    "default_decider",
    "is_service_nick",
    "named_swap",
]

log = logging.getLogger(__name__)


def _picklable_actions() -> None:
    """Let engine actions cross to worker processes and back.

    The compiled (mypyc) action classes pickle their fields as state, and unpickling then sets
    them one by one, which a frozen dataclass refuses (``FrozenInstanceError``). Reducing each
    to its constructor call avoids setting anything. Registered in every process that imports
    this module: the bot, and each worker (it imports :func:`decide` from here).
    """
    copyreg.pickle(Play, lambda a: (Play, (a.card, a.color, a.uno, a.target)))
    copyreg.pickle(Catch, lambda a: (Catch, (a.target,)))
    copyreg.pickle(Swap, lambda a: (Swap, (a.target,)))
    copyreg.pickle(ChooseColor, lambda a: (ChooseColor, (a.color,)))
    for kind in (Draw, Pass, CallUno, Challenge):
        copyreg.pickle(kind, lambda a: (type(a), ()))


_picklable_actions()


@dataclass(frozen=True, slots=True)
class ComputerConfig:
    """``[bots]`` settings."""

    enabled: bool = True
    """Whether ``.addbot`` may seat computer players at all."""
    delay: float = 1.5
    """Seconds a computer player 'thinks' before it moves (±30%); 0 in tests."""
    uno_grace: float = 4.0
    """Seconds a person who laid their next-to-last card without calling UNO has to call it
    (``.uno``, as a person does: a second or two later) before a computer player catches
    them. No computer player moves in that time while the person can still be caught, so a
    computer's turn doesn't close the catch window under them either. Their call, or anyone
    else's move, ends the wait."""
    budget_ms: float = 200.0
    """CPU time a ``hard`` player searches per move."""
    playouts: int | None = None
    """A fixed number of playouts per ``hard`` move instead of a time budget (tests)."""
    workers: int = 1
    """Worker processes for ``hard`` decisions; 0 decides on the reactor thread (not for a
    busy bot: each ``hard`` move then stalls every channel for ``budget_ms``)."""


FALLBACK_LEVEL = "normal"
"""Decides inline when a ``hard`` worker fails: microseconds, and a sound move."""


def decide(
    level: str, seed: int, obs: Observation | FlipView, budget_ms: float, playouts: int | None
) -> Action | FlipAction | None:
    """One decision of a fresh strategy of ``level`` (strategies keep no state but their
    random generator, so a seed per decision is all a worker process needs).

    UNO Flip: ``obs`` is the seat's :class:`FlipView`; ``hard`` searches it
    (:class:`FlipHard`), the other levels (a failed worker's ``normal`` fallback) read it
    through a game dealt consistently with it (they read only their own hand and the piles'
    tops, which it holds exactly)."""
    rng = Random(seed)
    if type(obs) is FlipView:
        if level == "hard":
            return FlipHard(rng, budget_ms=budget_ms, playouts=playouts).act(obs)
        return flip_action(determinise(obs, rng), level, rng)
    assert isinstance(obs, Observation)
    strategy = make_strategy(level, rng, budget_ms=budget_ms, playouts=playouts)
    return named_swap(strategy.act(obs), obs, level, rng)


def named_swap(action: Action | None, obs: Observation, level: str, rng: Random) -> Action | None:
    """Seven-O: a computer player's 7 names whom it swaps hands with in the same move.

    A person who plays a 7 without a nick is asked ``swap with whom? .swap <nick>``: a prompt
    for people, which for a computer player would only cost the channel a line and a second
    move. ``easy`` names anyone still in the hand at random (as it would answer the prompt);
    the others the player holding fewest cards, as ``normal`` answers it (``hard`` searches
    its 7 once per target and names the one it chose: left as it is). A 7 that is the last
    card goes out: no target."""
    if (
        type(action) is not Play
        or action.card.rank != 7
        or action.target >= 0
        or not obs.rules.seven_o
        or len(obs.hand) < 2
    ):
        return action
    if level == "easy":
        others = [s for s in range(obs.players) if s != obs.seat and obs.counts[s]]
        target = rng.choice(others) if others else -1
    else:
        target = swap_target(obs)
    if target < 0:
        return action
    return Play(action.card, action.color, action.uno, target)


class Decider(Protocol):
    """Runs :func:`decide` somewhere and calls ``done`` with the answer on the reactor thread
    (possibly before ``submit`` returns)."""

    def submit(
        self,
        level: str,
        seed: int,
        obs: Observation | FlipView,
        done: Callable[[Action | None], None],
    ) -> None: ...

    def close(self) -> None: ...


@dataclass(slots=True)
class InlineDecider:
    """Decides on the caller's thread: tests, and levels that take microseconds."""

    budget_ms: float = 200.0
    playouts: int | None = None

    def submit(
        self,
        level: str,
        seed: int,
        obs: Observation | FlipView,
        done: Callable[[Action | None], None],
    ) -> None:
        done(decide(level, seed, obs, self.budget_ms, self.playouts))  # type: ignore[arg-type]

    def close(self) -> None:
        pass


STOP_SIGNALS = frozenset(
    {getattr(signal, name) for name in ("SIGINT", "SIGTERM") if hasattr(signal, name)}
)
"""The signals that stop the bot: the bot handles them; its worker processes ignore them."""


@contextlib.contextmanager
def _stop_signals_blocked() -> Iterator[None]:
    """Block the stop signals in this thread while it may start worker processes.

    Why: a terminal's Ctrl-C (and systemd's SIGTERM to the whole unit) reaches every process
    of the group, the workers too, and a worker that got SIGINT died with ``Process
    SpawnProcess-1: Traceback … KeyboardInterrupt`` on the bot's console. A spawned process
    inherits the signal mask of the thread that starts it, so it runs with these signals
    blocked (pending, never acted on) until :func:`worker_started` ignores them, however
    early in its start-up one arrives. The bot's own signals are not lost: blocked in this
    thread only, they reach another thread, or this one when the mask is restored."""
    block = getattr(signal, "pthread_sigmask", None)
    if block is None:  # no POSIX signal masks (Windows)
        yield
        return
    old = block(signal.SIG_BLOCK, STOP_SIGNALS)
    try:
        yield
    finally:
        block(signal.SIG_SETMASK, old)


def worker_started(parent: int) -> None:
    """A worker process's start (``ProcessPoolExecutor``'s initializer): ignore the stop
    signals (the bot stops; it shuts its pool down, and :func:`exit_with_parent` ends a
    worker whose bot is gone), then take the signals blocked by
    :func:`_stop_signals_blocked` off the mask (a pending one is discarded, being ignored)."""
    for signum in STOP_SIGNALS:
        signal.signal(signum, signal.SIG_IGN)
    unblock = getattr(signal, "pthread_sigmask", None)
    if unblock is not None:
        unblock(signal.SIG_UNBLOCK, STOP_SIGNALS)
    exit_with_parent(parent)


CLOSE_WAIT_SECONDS = 3.0
"""How long a stop waits for the hard players' worker pool to wind down (a decision's budget
is a fifth of a second by default)."""


class PoolDecider:
    """``hard`` decisions in worker processes; the others inline.

    ``call_soon_threadsafe`` runs a function on the reactor thread (the IRC adapter's). The pool
    starts on the first ``hard`` decision, with the ``spawn`` method (forking a process that
    runs the reactor and the embedded server threads is unsafe). When a worker fails (or the pool
    breaks) the seat gets a ``normal`` decision made inline instead: a game must not wait for the
    turn timer because of a broken worker. Workers ignore Ctrl-C and SIGTERM (the bot stops
    them: :meth:`close`), and once the pool is closed a decision that fails or is cancelled
    is dropped without a word: a stop prints no worker's traceback.
    """

    def __init__(
        self,
        workers: int,
        call_soon_threadsafe: Callable[[Callable[[], None]], None],
        budget_ms: float = 200.0,
        playouts: int | None = None,
    ) -> None:
        self.workers = max(1, workers)
        self.call_soon_threadsafe = call_soon_threadsafe
        self.inline = InlineDecider(budget_ms, playouts)
        self._pool: ProcessPoolExecutor | None = None
        self.closed = False

    def submit(
        self,
        level: str,
        seed: int,
        obs: Observation | FlipView,
        done: Callable[[Action | None], None],
    ) -> None:
        if level != "hard":
            self.inline.submit(level, seed, obs, done)
            return
        if self.closed:
            return  # the bot is stopping: no more moves
        if self._pool is None:
            self._pool = ProcessPoolExecutor(
                self.workers,
                mp_context=multiprocessing.get_context("spawn"),
                initializer=worker_started,
                initargs=(os.getpid(),),
            )
        args = (level, seed, obs, self.inline.budget_ms, self.inline.playouts)
        try:
            with _stop_signals_blocked():  # submit starts the worker processes it needs
                future = self._pool.submit(decide, *args)
        except Exception:  # a broken pool: start a new one next time
            log.exception("computer players: the worker pool failed; deciding as normal")
            self._pool = None
            self.inline.submit(FALLBACK_LEVEL, seed, obs, done)
            return

        def finished(f: Future[Action | None]) -> None:  # on the pool's thread
            if self.closed or f.cancelled():
                return  # shut down on purpose: nobody waits for this decision
            try:
                action = f.result()
            except Exception:
                if self.closed:
                    return
                log.exception("computer players: a decision failed in a worker; deciding as normal")
                self.call_soon_threadsafe(
                    lambda: self.inline.submit(FALLBACK_LEVEL, seed, obs, done)
                )
                return
            self.call_soon_threadsafe(lambda: done(action))

        future.add_done_callback(finished)

    def close(self, wait: float = CLOSE_WAIT_SECONDS) -> None:
        """Shut the pool down; no decision is made after this.

        Queued decisions are cancelled; one under way ends within its budget, and the close
        waits for that, at most ``wait`` seconds. Why wait at all: a pool shut down without
        waiting is still being torn down by its own thread when the interpreter exits, and
        ``concurrent.futures``' exit hook then wakes that thread through a pipe the thread
        has just closed (``OSError: [Errno 9] Bad file descriptor`` printed after the stop
        line, seen in CI on SIGTERM). The wait runs in a thread of its own so that a worker
        that never answers cannot hold the stop for longer than ``wait``."""
        self.closed = True
        pool, self._pool = self._pool, None
        if pool is None:
            return
        joiner = threading.Thread(
            target=pool.shutdown,
            kwargs={"wait": True, "cancel_futures": True},
            name="unobot-pool-close",
            daemon=True,
        )
        joiner.start()
        joiner.join(wait)


def default_decider(scheduler: object, bots: ComputerConfig) -> Decider:
    """Where computer players think when the bot is given no decider: worker processes for
    ``hard`` when the scheduler can be called from another thread (the IRC adapter's
    ``call_soon_threadsafe``) and ``bots.workers`` allows, else inline."""
    wake = getattr(scheduler, "call_soon_threadsafe", None)
    if wake is not None and bots.workers > 0:
        return PoolDecider(bots.workers, wake, bots.budget_ms, bots.playouts)
    return InlineDecider(bots.budget_ms, bots.playouts)


PARENT_CHECK_SECONDS = 1.0
"""How often a worker process checks that the bot that started it is still alive."""


def exit_with_parent(parent: int, every: float = PARENT_CHECK_SECONDS) -> None:
    """In a worker process: end it once the bot that started it is gone.

    A bot killed with SIGKILL (a crash, ``kill -9``, the OOM killer) never shuts its pool
    down, and a worker does not notice on its own: it waits on a queue whose pipe it holds
    both ends of, so it would wait for ever, an orphan holding its memory, one more after
    every such restart. A daemon thread watches the parent's pid instead (the worker is
    re-parented when the bot dies) and ends the process at once."""

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(every)
        os._exit(0)

    threading.Thread(target=watch, name="unobot-parent-watch", daemon=True).start()


@dataclass(slots=True)
class _Pending:
    """A decision asked for (or made) for one seat at one version of the table."""

    nick: str
    level: str
    version: int
    due: float
    action: Action | None = None
    ready: bool = False


@dataclass(slots=True)
class _TableState:
    rng: Random
    observers: dict[str, Observer] = field(default_factory=dict)
    """Folded name -> the observer of that computer seat for the hand being played."""
    memories: dict[str, FlipMemory] = field(default_factory=dict)
    """UNO Flip: folded name -> what that ``hard`` seat remembers of the hand being played."""
    version: int = 0
    pending: dict[str, _Pending] = field(default_factory=dict)
    exposed: tuple[int, float] | None = None
    """A person who may be caught for a missed UNO call: their seat, and since when."""


class Host(Protocol):
    """What the computer seats need of the bot that owns them (the bot is above this module)."""

    scheduler: Scheduler
    tables: dict[str, Table]

    def publish(self, table: Table, update: Update) -> None:
        """Render and send an update (a computer's move), as for a person's command."""


class Computers:
    """Drives the computer seats of every table of one bot (on the reactor thread)."""

    def __init__(self, bot: Host, config: ComputerConfig, decider: Decider) -> None:
        self.bot = bot
        self.config = config
        self.decider = decider
        self._tables: weakref.WeakKeyDictionary[Table, _TableState] = weakref.WeakKeyDictionary()
        self.stopped = False
        """Set by :meth:`stop`: no computer seat moves any more (the bot is stopping)."""

    # --- following the tables --------------------------------------------------------------

    def observe(self, table: Table, update: Update) -> None:
        """Called with every published update; never raises."""
        try:
            self._observe(table, update)
        except Exception:
            log.exception("computer players: could not follow %s", table.channel)

    def replayed(self, table: Table, update: Update) -> None:
        """Called with every update of a table being rebuilt from its journal after a restart
        (``Bot.restore``), in order; never raises. The computer seats' views follow the replay
        exactly as they followed the live game (the same events, each hand from its deal), so
        a restored seat knows what it knew before the restart, no more (its own hand is read
        from the game when it decides) and no less (the cards played, who drew on which
        colour). Nothing is planned: the table is not back in its channel yet; the update
        that announces it there does that (:meth:`observe`)."""
        try:
            self._follow(table, update)
        except Exception:
            log.exception("computer players: could not follow the replay of %s", table.channel)

    def _observe(self, table: Table, update: Update) -> None:
        if self.stopped:
            return
        state = self._follow(table, update)
        if state is not None:
            self._plan(table, state)

    def _follow(self, table: Table, update: Update) -> _TableState | None:
        """Feed the update's events to the table's computer seats' views; their state, or
        None when the table has no computer seat or is finished."""
        state = self._tables.get(table)
        if state is None:
            if not any(p.computer for p in table.players):
                return None  # the common case: no computer player here, nothing to do
            # Seeded from the table's generator without drawing from it: the table's own
            # draws must be exactly those its journaled calls make (unobot.core.journal),
            # or a restored table would deal other cards. Hashed without the state's last item
            # (None, whose hash is its address on Python 3.11): the same in every process.
            state = _TableState(Random(hash(table.rng.getstate()[1])))
            self._tables[table] = state
        if table.finished:
            del self._tables[table]
            return None
        for event in update.events:
            if type(event) is Dealt:
                self._new_hand(table, state, event)
            elif type(event) is EngineEvents:
                for observer in state.observers.values():
                    observer.see(event.events)
            elif type(event) is FlipEvents and table.game is not None:
                for memory in state.memories.values():
                    memory.see(event.events, table.game)  # type: ignore[arg-type]
        if update.events or update.hands:
            state.version += 1
        return state

    def _new_hand(self, table: Table, state: _TableState, dealt: Dealt) -> None:
        assert table.match is not None
        if table.flip:  # Flip: no observer (unobot.ai.flip); a memory for each hard seat
            state.observers = {}
            state.memories = {
                irc_lower(p.nick): FlipMemory(seat, len(dealt.players))
                for seat, p in enumerate(table.players)
                if p.computer and p.level == "hard"
            }
            return
        state.memories = {}
        rules = table.match.rules
        players = len(dealt.players)
        state.observers = {
            irc_lower(p.nick): Observer(seat, players, rules)
            for seat, p in enumerate(table.players)
            if p.computer
        }

    def _plan(self, table: Table, state: _TableState) -> None:
        """Ask for a decision from every computer seat that may act now (keeping those asked
        for at this version), and forget the rest."""
        game = table.game
        if not table.dealt or game is None or game.over:
            state.pending.clear()
            return
        now = self.bot.scheduler.now()
        if table.flip:
            self._plan_flip(table, state, now)
            return
        hold = self._grace_end(table, state, game, now)
        wanted: dict[str, tuple[int, bool]] = {}
        for seat, player in enumerate(table.players):
            if not player.computer:
                continue
            if seat == game.current:
                wanted[irc_lower(player.nick)] = (seat, True)
            elif (game.exposed >= 0 or game.jump_card(seat) is not None) and game.legal_actions(
                seat
            ):  # an UNO call or catch, or a jump (Jump-In)
                wanted[irc_lower(player.nick)] = (seat, False)
        for key in list(state.pending):
            if key not in wanted or state.pending[key].version != state.version:
                del state.pending[key]
        for key, (seat, turn) in wanted.items():
            if key in state.pending:
                continue
            observer = state.observers.get(key)
            if observer is None or observer.seat != seat:
                log.warning("computer players: no view for %s in %s", key, table.channel)
                continue
            player = table.players[seat]
            pending = self._ask(table, state, player, turn, now, hold)
            obs = observer.observe(game)  # plain values, taken on the reactor thread
            seed = state.rng.getrandbits(64)
            self.decider.submit(
                player.level,
                seed,
                obs,
                lambda action, t=table, k=key, p=pending: self._decided(t, k, p, action),
            )

    def _plan_flip(self, table: Table, state: _TableState, now: float) -> None:
        """UNO Flip: the seat to move acts, and any computer seat catches a person's missed
        UNO call (after ``uno_grace``, as at classic tables: the mover holds back as long).
        ``easy`` and ``normal`` decide inline (:func:`unobot.ai.flip.flip_action`, on a copy
        of the game: they read only the mover's own hand and the public piles); ``hard``
        searches what its seat sees and remembers (:class:`~unobot.ai.flip_hard.FlipView`,
        taken now on the reactor thread) through the decider, in a worker process as the
        classic ``hard``. Every level's play of its next-to-last card calls UNO
        (:func:`~unobot.ai.flip.with_uno_call`, in :meth:`_perform`)."""
        game = table.game
        assert game is not None
        hold = self._grace_end(table, state, game, now)  # type: ignore[arg-type]
        catch = game.exposed
        catchers = {
            irc_lower(p.nick): s
            for s, p in enumerate(table.players)
            if p.computer and catch >= 0 and s != catch
        }
        seat = game.current
        player = table.players[seat]
        key = irc_lower(player.nick)
        for other in list(state.pending):
            wanted = other == key or other in catchers
            if not wanted or state.pending[other].version != state.version:
                del state.pending[other]
        for other, at in catchers.items():
            if other in state.pending:
                continue
            pending = self._ask(table, state, table.players[at], False, now, hold)
            self._decided(table, other, pending, Catch(catch))
        if not player.computer or key in state.pending:
            return
        pending = self._ask(table, state, player, True, now, hold)
        seed = state.rng.getrandbits(64)
        if player.level == "hard":
            memory = state.memories.get(key)
            if memory is not None and memory.seat != seat:
                memory = None  # seats renumbered in a way it didn't follow: what it sees
            view = FlipView.of(game, seat, memory)  # type: ignore[arg-type]
            self.decider.submit(
                player.level,
                seed,
                view,
                lambda action, t=table, k=key, p=pending: self._decided(t, k, p, action),
            )
            return
        action = flip_action(game.copy(), player.level, Random(seed))  # type: ignore[attr-defined]
        self._decided(table, key, pending, action)  # type: ignore[arg-type]

    def _ask(
        self, table: Table, state: _TableState, player: Player, turn: bool, now: float, hold: float
    ) -> _Pending:
        """Record that ``player``'s decision is asked for now, due after a person's pause.

        A turn's pause runs from the start of the turn (a change that doesn't end it, such as
        someone's UNO call, doesn't restart it); a chance out of turn (a catch, a call, a jump)
        is a reaction, a little quicker. Neither comes before ``hold``: a person's missed UNO
        call gets their few seconds first (:meth:`_grace_end`). Classic and Flip tables alike."""
        pause = self.config.delay * state.rng.uniform(0.7, 1.3)
        due = max(now, table.turn_started + pause) if turn else now + pause * 0.6
        pending = _Pending(player.nick, player.level, state.version, max(due, hold))
        state.pending[irc_lower(player.nick)] = pending
        return pending

    def _grace_end(self, table: Table, state: _TableState, game: Game, now: float) -> float:
        """Until when the computer seats hold back (``uno_grace``): a person who may be
        caught for a missed UNO call gets the seconds a person needs to call it late before
        a computer player catches them or, by moving, closes the window. 0: no hold (nobody
        exposed, or a computer player is: they are caught at a computer's pace)."""
        seat = game.exposed
        if seat < 0 or seat >= len(table.players) or table.players[seat].computer:
            state.exposed = None
            return 0.0
        if state.exposed is None or state.exposed[0] != seat:
            state.exposed = (seat, now)  # first seen now: the update that exposed them
        return state.exposed[1] + self.config.uno_grace

    # --- acting ----------------------------------------------------------------------------

    def _current(self, table: Table, key: str, pending: _Pending) -> _TableState | None:
        state = self._tables.get(table)
        if (
            self.stopped
            or state is None
            or state.pending.get(key) is not pending
            or pending.version != state.version
            or self.bot.tables.get(irc_lower(table.channel)) is not table
        ):
            return None
        return state

    def _decided(self, table: Table, key: str, pending: _Pending, action: Action | None) -> None:
        """A decision is back (on the reactor thread): make the move when its pause is over."""
        if self._current(table, key, pending) is None:
            log.debug("computer players: stale decision for %s dropped", pending.nick)
            return
        pending.action = action
        pending.ready = True
        if action is None:
            return  # nothing to do out of turn (or a failed worker: the turn timer plays)
        delay = max(0.0, pending.due - self.bot.scheduler.now())
        self.bot.scheduler.call_later(delay, lambda: self._act(table, key, pending))

    def _act(self, table: Table, key: str, pending: _Pending) -> None:
        state = self._current(table, key, pending)
        if state is None or pending.action is None:
            return
        del state.pending[key]
        try:
            update = self._perform(table, pending.nick, pending.action)
        except UnoError as err:
            # Can't happen with a correct strategy and a current observation.
            log.warning(
                "computer players: %s's %r refused in %s: %s",
                pending.nick, pending.action, table.channel, err,
            )  # fmt: skip
            fallback = self._any_legal_move(table, key, state, pending)
            if fallback is None:
                return
            update = fallback
        self.bot.publish(table, update)

    def _any_legal_move(
        self, table: Table, key: str, state: _TableState, pending: _Pending
    ) -> Update | None:
        """After a refused move (a strategy bug), an ``easy`` move from the engine's own list of
        legal actions, which the table always accepts: the game goes on at once instead of
        waiting for the turn timer, and one refusal can't turn into a loop of them."""
        observer = state.observers.get(key)
        game = table.game
        if observer is None or game is None:
            return None
        obs = observer.observe(game)
        action = decide("easy", state.rng.getrandbits(64), obs, 0.0, None)
        if action is None:
            return None
        try:
            return self._perform(table, pending.nick, action)
        except UnoError:
            log.exception("computer players: %s's fallback move refused too", pending.nick)
            return None

    def _perform(self, table: Table, nick: str, action: Action) -> Update:
        """The move through the table method a person's command would use."""
        now = self.bot.scheduler.now()
        kind = type(action)
        if kind is Play:
            assert isinstance(action, Play)
            # A 7's target (Seven-O, ``named_swap``) goes by nick, as a person's would.
            target = table.players[action.target].nick if action.target >= 0 else None
            return table.play(
                nick, action.card, action.color, now, uno=action.uno, computer=True, target=target
            )
        if kind is Draw:
            return table.draw(nick, now, computer=True)
        if kind is Pass:
            return table.pass_turn(nick, now, computer=True)
        if kind is ChooseColor:
            assert isinstance(action, ChooseColor)
            return table.choose_color(nick, action.color, now, computer=True)
        if kind is Challenge:
            return table.challenge(nick, now, computer=True)
        if kind is CallUno:
            return table.call_uno(nick, now, computer=True)
        if kind is Catch:
            assert isinstance(action, Catch)
            target = table.players[action.target].nick
            return table.catch(nick, target, now, computer=True)
        if kind is Swap:
            assert isinstance(action, Swap)
            return table.swap(nick, table.players[action.target].nick, now, computer=True)
        if kind is FlipPlay:
            game = table.game
            seat = table.seat_of(nick, computer=True)
            assert isinstance(action, FlipPlay) and game is not None and seat is not None
            action = with_uno_call(game, seat, action)  # type: ignore[arg-type]
            return table.play(
                nick,
                action.face,  # type: ignore[union-attr]
                action.color,  # type: ignore[union-attr]
                now,
                uno=action.uno,  # type: ignore[union-attr]
                computer=True,
            )
        if kind is FlipChoose:
            assert isinstance(action, FlipChoose)
            return table.choose_color(nick, action.color, now, computer=True)  # type: ignore[arg-type]
        raise UnoError(f"unknown action {action!r}")

    def stop(self) -> None:
        """No more moves anywhere (the bot said its farewell before stopping: its tables are
        frozen, a move now would be refused). Decisions still out are dropped when they come
        back."""
        self.stopped = True
        for state in self._tables.values():
            state.pending.clear()

    def forget(self, table: Table) -> None:
        """Drop a table's decisions (the bot dropped the table without an update)."""
        self._tables.pop(table, None)

    def close(self) -> None:
        self.decider.close()


SERVICE_NICKS = frozenset(
    {"global", "alis", "q", "x", "nickserv", "chanserv", "operserv", "memoserv", "hostserv",
     "botserv", "helpserv", "statserv", "saslserv", "infoserv", "groupserv", "authserv"}
)  # fmt: skip
"""Nicks that network services use (folded); any other nick ending in ``serv`` counts too."""


def is_service_nick(name: str) -> bool:
    """Whether ``name`` is (or looks like) a network service's nick: a computer player called
    ChanServ would put words in a service's mouth ("ChanServ plays Y7")."""
    low = irc_lower(name)
    return low in SERVICE_NICKS or low.endswith("serv")


def computer_name(
    table: Table, level: str, name: str | None, present: Callable[[str], bool], own_nick: str
) -> str | None:
    """The name a new computer player gets, refusing one that belongs to somebody else.

    ``present(nick)``: whether ``nick`` is in the channel. A name asked for that somebody in
    the channel has, or a service's, is refused (:class:`UnoError`): the channel would read
    "victim plays Y7" of a person who played nothing. Without a name the default
    ``<Level>Bot<n>`` skips those too. A seated player's name and the bot's own nick are left
    to :meth:`Table.add_computer` to refuse ("already taken here"), and an ill-formed name too
    (its error doesn't echo the name). Returns the name to pass on (None: a bad level, for the
    table to refuse).
    """
    if name is None:
        if level not in LEVELS:
            return None
        stem = level.capitalize() + "Bot"
        n = 1
        while (
            present(f"{stem}{n}")
            or irc_eq(f"{stem}{n}", own_nick)
            or table.seat_of(f"{stem}{n}", computer=None) is not None
        ):
            n += 1
        return f"{stem}{n}"
    if irc_eq(name, own_nick) or table.seat_of(name, computer=None) is not None:
        return name
    if is_service_nick(name):
        raise UnoError(_("that name belongs to a network service: choose another name"))
    if present(name):
        raise UnoError(
            _("{name} is in the channel: a computer player can't take a person's nick", name=name)
        )
    return name


def parse_addbot(args: str) -> tuple[str, str | None]:
    """``.addbot [level] [name]`` -> (level, name or None). The level defaults to ``normal``."""
    words = args.split()
    if len(words) > 2:
        raise UnoError(_("usage: .addbot [easy|normal|hard] [name]"))
    level = "normal"
    if words:
        first = words[0].lower()
        if first not in LEVELS:
            raise UnoError(_("the level comes first: .addbot [easy|normal|hard] [name]"))
        level = first
    return level, (words[1] if len(words) == 2 else None)
