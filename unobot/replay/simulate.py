"""Recorded games made up on the spot: real games, journaled and recorded as the bot does it.

For seeded stats databases (the web site's tests, its benchmark, screenshots) and for the replay
tests. Nothing here imitates the bot: a real :class:`~unobot.core.bot.Bot` with its plugins runs
on a manual clock (:class:`Clock`) and a transport that drops what it is given; the
players type the commands a person would (``.uno``, ``.join``, ``.deal``, ``.p g5``, ...), so
the tables journal every call into a real :class:`~unobot.core.journal.Journal` and the real
:class:`~unobot.stats.recorder.GameRecorder` builds each :class:`GameRecord` from the updates the
bot publishes. Each record's ``moves`` is that game's journal text, which
:func:`unobot.core.journal.replay_text` (and :func:`unobot.replay.steps.steps`) replay.

The players differ in skill so that ratings come out spread: each person plays like the
computer level ``normal`` or ``easy``, or picks a random legal move (``random``), by their place
in ``players`` (the first ones play better), and the first ones also play more often. Now and
then a player lets the turn timer run out (the journal then holds timer calls too).

Deterministic per seed: the bot's generator, the clock, the wall clock and the game ids all
come from it (the journal's own file names are random, so a record's ``game_id`` is replaced
by one drawn from the seed; a journal text does not contain its id).
"""

from __future__ import annotations

import dataclasses
import logging
import tempfile
from collections.abc import Callable, Sequence
from datetime import UTC, datetime
from pathlib import Path
from random import Random

from unobot.ai import Observer, Strategy, make_strategy
from unobot.core.bot import Bot, BotConfig
from unobot.core.clock import ManualClock
from unobot.core.computers import ComputerConfig
from unobot.core.journal import Journal
from unobot.core.settings import MemorySettings
from unobot.core.table import Table, TableConfig
from unobot.core.updates import Dealt, EngineEvents, Update
from unobot.engine import preset
from unobot.engine.actions import (
    Action,
    CallUno,
    Catch,
    Challenge,
    ChooseColor,
    Draw,
    Pass,
    Play,
)
from unobot.irc.casemap import irc_lower
from unobot.irc.transport import Incoming, Kind
from unobot.stats.model import GameRecord
from unobot.stats.recorder import GameRecorder

__all__ = ["DEFAULT_PLAYERS", "DEFAULT_START", "recorded_games", "skill_of"]

DEFAULT_PLAYERS = (
    "alice", "bob", "carol", "dave", "erin", "frank", "grace", "heidi", "ivan", "judy",
)  # fmt: skip
DEFAULT_START = datetime(2025, 1, 6, 18, 0, tzinfo=UTC)
"""A Monday evening: weeks and months of games fall into whole calendar buckets."""

SKILLS = ("normal", "easy", "random")
"""How the players play, by their place in ``players`` (three in turn, then all ``random``)."""

TIMEOUT_RATE = 0.004
"""Chance that a player lets their turn time run out instead of moving."""

MOVE_LIMIT = 3000
"""Calls after which a game that will not end is stopped (never seen: a safety net)."""

_EPOCH = 1000.0
"""The manual clock's start (``Clock`` default)."""


def skill_of(index: int) -> str:
    """How the player at ``index`` of ``players`` plays: ``normal``, ``easy`` or ``random``."""
    return SKILLS[index] if index < len(SKILLS) else SKILLS[-1 - index % 2]


def recorded_games(
    count: int,
    seed: int,
    *,
    players: Sequence[str] = DEFAULT_PLAYERS,
    network: str = "",
    channel: str = "#uno",
    start: datetime = DEFAULT_START,
    presets: Sequence[str] = ("irc-classic",),
    gap: float = 6 * 3600.0,
    computers: bool = False,
) -> list[GameRecord]:
    """``count`` finished games in ``channel``, as the bot would record them, in the order
    played (each with its move list).

    ``players``: the people (2 to 6 of them sit at each game, the first ones more often);
    ``start``: when the first game opens (aware or naive UTC), the next ones follow about
    ``gap`` seconds apart (random); ``presets``: rules chosen from at random per game;
    ``computers``: a quarter of the games also seat a computer player (``.addbot``)."""
    if count < 0:
        raise ValueError("count is 0 or more")
    if len(players) < 2:
        raise ValueError("at least two players are needed")
    if len({irc_lower(p) for p in players}) != len(players):
        raise ValueError("players must be distinct nicks")
    for name in presets:
        preset(name)  # ValueError for an unknown preset, before anything runs
    if start.tzinfo is None:
        start = start.replace(tzinfo=UTC)
    quiet = logging.getLogger("unobot")
    level = quiet.level
    quiet.setLevel(logging.ERROR)
    try:
        with tempfile.TemporaryDirectory(prefix="unobot-simulate-") as tmp:
            sim = _Simulation(Path(tmp), seed, network, channel, start, computers)
            records: list[GameRecord] = []
            attempts = 0
            while len(records) < count and attempts < count * 2 + 10:
                attempts += 1
                chosen = preset(sim.rng.choice(list(presets)))
                record = sim.play_game(list(players), chosen.name)
                if record is not None:
                    records.append(record)
                sim.clock.advance(sim.rng.expovariate(1.0 / gap) if gap > 0 else 0.0)
            sim.close()
            return records
    finally:
        quiet.setLevel(level)


class Clock(ManualClock):
    """The bot's scheduler here, starting at the replay's epoch."""

    def __init__(self, start: float = _EPOCH) -> None:
        super().__init__(start)


class _Sink:
    """The transport: what the bot sends goes nowhere (the replay tests read it elsewhere)."""

    nickname = "unobot"

    def privmsg(self, target: str, text: str, tag: object = None) -> None:
        pass

    def notice(self, target: str, text: str, tag: object = None) -> None:
        pass


class _Collect:
    """The stats store the recorder writes to: keeps the records in order."""

    def __init__(self) -> None:
        self.records: list[GameRecord] = []

    def record_game(self, game: GameRecord) -> None:
        self.records.append(game)


@dataclasses.dataclass(slots=True)
class _Seats:
    """What each seat of the game in play may know (an :class:`Observer` per seat, fed every
    published update, new at each deal), as ``unobot.core.computers`` keeps for computer
    seats; the simulated people decide from it."""

    observers: list[Observer] = dataclasses.field(default_factory=list)
    updates: int = 0
    """Updates published so far (a move that published nothing was refused)."""

    def see(self, table: Table, update: Update) -> None:
        self.updates += 1
        for event in update.events:
            if type(event) is Dealt and table.match is not None:
                rules = table.match.rules
                n = len(event.players)
                self.observers = [Observer(seat, n, rules) for seat in range(n)]
            elif type(event) is EngineEvents:
                for observer in self.observers:
                    observer.see(event.events)


class _Tee:
    """The bot's game observer: the real recorder, then the seats' views. A recorded game
    (its ``moves`` the journal text, as the recorder gives it) gets an id from the seed."""

    def __init__(
        self,
        recorder: GameRecorder,
        store: _Collect,
        seats: _Seats,
        new_id: Callable[[], str],
    ) -> None:
        self.recorder = recorder
        self.store = store
        self.seats = seats
        self.new_id = new_id

    def observe(self, table: Table, update: Update) -> None:
        before = len(self.store.records)
        self.recorder.observe(table, update)
        if len(self.store.records) > before:
            record = self.store.records[-1]
            self.store.records[-1] = dataclasses.replace(record, game_id=self.new_id())
        self.seats.see(table, update)

    def saw_account(self, nick: str, account: str) -> None:
        self.recorder.saw_account(nick, account)


class _Simulation:
    """One bot, its clock and journal, playing game after game in one channel."""

    def __init__(
        self,
        folder: Path,
        seed: int,
        network: str,
        channel: str,
        start: datetime,
        computers: bool,
    ) -> None:
        self.rng = Random(seed)
        self.channel = channel
        self.computers = computers
        self.clock = Clock(_EPOCH)
        origin = start.timestamp()
        clock = self.clock

        def wall() -> float:
            return origin + clock.now() - _EPOCH

        self.store = _Collect()
        self.seats = _Seats()
        self.journal = Journal(folder, clock.now, wall=wall)
        ids = Random(self.rng.getrandbits(64))
        recorder = GameRecorder(
            self.store,  # type: ignore[arg-type]
            network,
            lambda: datetime.fromtimestamp(wall(), UTC),
        )

        def new_id() -> str:
            return f"{ids.getrandbits(128):032x}"

        tee = _Tee(recorder, self.store, self.seats, new_id)
        self.config = BotConfig(
            stats_cooldown=0.0,
            network=network,
            bots=ComputerConfig(delay=1.5, workers=0),
        )
        self.bot = Bot(
            _Sink(),  # type: ignore[arg-type]
            clock,  # type: ignore[arg-type]
            MemorySettings(),
            self.config,
            rng=Random(self.rng.getrandbits(64)),
            recorder=tee,
            journal=self.journal,
        )

    def close(self) -> None:
        self.journal.close()

    def say(self, nick: str, text: str) -> None:
        self.bot.handle(Incoming(Kind.MESSAGE, nick, self.channel, text))

    def play_game(self, pool: list[str], rules: str) -> GameRecord | None:
        """One game from ``.uno`` to its end; its record (None if it was not recorded)."""
        rng = self.rng
        self.bot.config = dataclasses.replace(self.config, table=TableConfig(rules=preset(rules)))
        size = rng.randint(2, min(6, len(pool)))
        # Weighted sampling without replacement: the first players come more often.
        order = sorted(range(len(pool)), key=lambda i: rng.random() ** (1.0 + i * 0.25))
        seated = order[-size:][::-1]
        nicks = [pool[i] for i in seated]
        strategies: dict[str, Strategy | None] = {}
        for i in seated:
            skill = skill_of(i)
            mind = None if skill == "random" else make_strategy(skill, Random(rng.random()))
            strategies[irc_lower(pool[i])] = mind
        before = len(self.store.records)
        self.say(nicks[0], ".uno")
        for nick in nicks[1:]:
            self.clock.advance(rng.uniform(1, 20))
            self.say(nick, ".join")
        if self.computers and rng.random() < 0.25 and size < 6:
            self.say(nicks[0], f".addbot {rng.choice(('easy', 'normal'))}")
        self.clock.advance(rng.uniform(1, 10))
        self.say(nicks[0], ".deal")
        key = irc_lower(self.channel)
        table = self.bot.tables.get(key)
        moves = 0
        while table is not None and self.bot.tables.get(key) is table and moves < MOVE_LIMIT:
            moves += 1
            self._step(table, strategies)
        if self.bot.tables.get(key) is not None:  # the safety net: stopped, not recorded
            self.bot.drop_table(self.channel, "simulation move limit")
        return self.store.records[-1] if len(self.store.records) > before else None

    def _step(self, table: Table, strategies: dict[str, Strategy | None]) -> None:
        """One move of whoever may move (a computer seat moves by itself on the clock)."""
        rng = self.rng
        game = table.game
        if game is None or game.over:
            self.clock.advance(1.0)
            return
        seat = game.current
        player = table.players[seat]
        if player.computer:
            self.clock.advance(2.0)
            return
        if game.exposed >= 0 and self._catch(table, strategies):
            return
        if rng.random() < TIMEOUT_RATE and player.timeouts == 0:
            self.clock.advance(table.config.turn_timeout + 1.0)  # the turn timer fires
            return
        self.clock.advance(rng.uniform(2, 15))
        if self.bot.tables.get(irc_lower(self.channel)) is not table or table.game is not game:
            return
        action = self._decide(table, seat, strategies.get(irc_lower(player.nick)))
        published = self.seats.updates
        self.say(player.nick, _command(action, table.names))
        if self.seats.updates == published:  # refused (a strategy's mistake): any legal move
            legal = game.legal_actions(seat)
            self.say(player.nick, _command(legal[int(rng.random() * len(legal))], table.names))

    def _catch(self, table: Table, strategies: dict[str, Strategy | None]) -> bool:
        """Someone out of turn catches a missed UNO, if their strategy sees it (True: done)."""
        game = table.game
        assert game is not None
        for seat, player in enumerate(table.players):
            strategy = strategies.get(irc_lower(player.nick))
            if seat == game.current or player.computer or strategy is None:
                continue
            if seat >= len(self.seats.observers) or not game.legal_actions(seat):
                continue
            action = strategy.act(self.seats.observers[seat].observe(game))
            if action is not None:
                self.clock.advance(self.rng.uniform(1, 4))
                self.say(player.nick, _command(action, table.names))
                return True
        return False

    def _decide(self, table: Table, seat: int, strategy: Strategy | None) -> Action:
        game = table.game
        assert game is not None
        if strategy is not None and seat < len(self.seats.observers):
            action = strategy.act(self.seats.observers[seat].observe(game))
            if action is not None:
                return action
        legal = game.legal_actions(seat)
        # Random players still prefer a card to a draw: games of pure chance drag on.
        plays = [a for a in legal if type(a) is Play]
        if plays and self.rng.random() < 0.8:
            return plays[int(self.rng.random() * len(plays))]
        return legal[int(self.rng.random() * len(legal))]


def _command(action: Action, names: Sequence[str]) -> str:
    """The command a person types for ``action``."""
    kind = type(action)
    if kind is Play:
        assert isinstance(action, Play)
        text = f".p {action.card.text.lower()}"
        if action.card.is_wild and action.color is not None:
            text += f" {action.color.letter.lower()}"
        return text + (" uno" if action.uno else "")
    if kind is Draw:
        return ".draw"
    if kind is Pass:
        return ".pass"
    if kind is ChooseColor:
        assert isinstance(action, ChooseColor)
        return f".color {action.color.letter.lower()}"
    if kind is Challenge:
        return ".challenge"
    if kind is CallUno:
        return ".unocall"
    assert isinstance(action, Catch)
    return f".catch {names[action.target]}"


def main(argv: list[str] | None = None) -> int:
    """``python -m unobot.replay.simulate URL [--games N] [--seed S] ...``: fill a stats
    database with simulated games (a demo site, screenshots, trying ``unobot replay``)."""
    import argparse
    import time

    parser = argparse.ArgumentParser(
        prog="python -m unobot.replay.simulate",
        description="Record simulated games (real bot games, made-up players) into a stats "
        "database.",
    )
    parser.add_argument("database", help="e.g. sqlite:///demo.db (created if missing)")
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--network", default="")
    parser.add_argument("--channel", action="append", help="repeat for several (default #uno)")
    parser.add_argument("--preset", action="append", help="rules to choose from (irc-classic)")
    parser.add_argument("--computers", action="store_true", help="seat computer players too")
    args = parser.parse_args(argv)
    if args.games < 0:
        parser.error("--games is 0 or more")
    from unobot.replay.figures import move_figures
    from unobot.stats.sql import SqlStatsStore

    channels = args.channel or ["#uno"]
    started = time.perf_counter()
    records: list[GameRecord] = []
    try:
        for n, channel in enumerate(channels):
            share = args.games // len(channels) + (n < args.games % len(channels))
            records += recorded_games(
                share,
                args.seed + n,
                network=args.network,
                channel=channel,
                presets=args.preset or ("irc-classic",),
                computers=args.computers,
            )
    except ValueError as err:
        parser.error(str(err))
    played = time.perf_counter() - started
    store = SqlStatsStore(args.database, analyse=move_figures)
    try:
        for record in sorted(records, key=lambda r: r.ended):
            store.record_game(record)
        store.flush_pending()
    finally:
        store.close()
    print(
        f"{len(records)} games recorded into {args.database} "
        f"(played in {played:.1f} s, {played / max(1, len(records)) * 1000:.0f} ms a game)"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
