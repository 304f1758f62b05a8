"""Hostile input, fuzzed: the real bot core driven by a hypothesis state machine (issue 16).

The machine is a real :class:`~unobot.core.bot.Bot` with the built-in plugins, a memory stats
store and its recorder, inline computer players, a recording transport and a manual clock (the
pieces of :class:`tests.core.fakes.Harness`). Its steps are what a network can throw at a bot:
every command the plugins define with card names, garbage, unicode, control codes and 10 KB
arguments; nicks of every kind (unicode, control codes, over-long, case variants under the IRC
casemapping, services accounts, operators and a bot admin); joins, parts, quits, kicks and nick
changes, the bot's own among them, seated people taking each other's nicks, and channel member
lists (``NAMES``, trusted or not); two or three channels; computer players; and the clock moved
by any amount, past warnings, turn timeouts, grace periods and time limits. A step that plays a
legal move for whoever may move keeps games going to their hands' and matches' ends.

Checked while the bot sends (the tables are then exactly as the line describes them) and after
every step:

1. nothing is logged at ERROR or above (``Bot.handle``, the dispatcher and the timers catch
   and log exceptions: a logged exception is a crash swallowed), nor a computer player's
   warning (a strategy's refused move), nor a stats recorder's (a finished game's result
   lost);
2. a hand (``Your cards (N): ...``) goes only by NOTICE, only to a person seated at a table, and
   lists exactly that person's cards at that moment; no line shows the cards of a hand in play
   to anyone else, in the channel or privately;
3. no text the bot hands the transport holds CR, LF or NUL, nor any target unless the input
   gave the bot that very name (the transport cleans targets); every target is a name the input
   gave or a seated person's nick; channel lines and hand notices fit
   :data:`~unobot.core.render_irc.LIMIT` bytes (other replies may quote long input: the
   adapter splits them);
4. cards are conserved in every running hand: hands, draw pile and discards are whole decks
   (one or two), the same all hand long; and one person never holds two seats of a table;
5. at the end, with nobody moving (the bot reconnected if it was not), every dealt game ends
   within a bounded number of clock steps (a lobby waits for a deal: it is not a game);
6. restarts (the bot journals every table): killed (SIGKILL) or stopped (SIGTERM: the
   farewell, then a moment in which moves are refused) between any two steps, and a new bot
   started on the journal and the same stats store, every table comes back exactly as it was
   (hands, piles, turn, seats, the generator) and the games play on, computer seats included
   (a computer seat without its view of the hand logs a warning, caught by 1); after the
   farewell nothing changes; no game is recorded twice; a computer seat never runs out of
   time (it moves after its pause, restored or not).

The network is modelled as far as a server guarantees things: nobody takes a nick in use, the
bot's own lines never come back to it, and nothing arrives while it is disconnected.

Above the machine, plain regression tests for the bugs it found.
"""

from __future__ import annotations

import logging
import re
import shutil
import sys
import tempfile
from collections import Counter
from pathlib import Path
from random import Random

import pytest
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import (
    Bundle,
    RuleBasedStateMachine,
    initialize,
    invariant,
    multiple,
    rule,
)

from tests.core.fakes import FakeScheduler, Harness, channel_lines, notices, strip_codes
from unobot.core.bot import Bot, BotConfig
from unobot.core.bot_config import DEFAULT_PLUGINS
from unobot.core.computers import ComputerConfig
from unobot.core.dispatch import Dispatcher
from unobot.core.journal import Journal
from unobot.core.plugin import load_plugins
from unobot.core.render_irc import LIMIT
from unobot.core.settings import MemorySettings
from unobot.core.table import Player, Table, TableConfig
from unobot.engine import preset
from unobot.engine.actions import CallUno, Catch, Challenge, ChooseColor, Draw, Pass, Play, Swap
from unobot.engine.cards import Card, CardParseError, full_deck, no_mercy_deck
from unobot.engine.flip import FLIP_DECK, Face, FlipChoose, FlipPlay
from unobot.engine.game import Game
from unobot.engine.rules import PRESETS, Deck
from unobot.irc.casemap import irc_lower
from unobot.irc.transport import Incoming, Kind
from unobot.plugins.uno_stats import list_lines, stats_line
from unobot.stats import GameRecord, PlayerStats, Ranking
from unobot.stats.memory import MemoryStatsStore
from unobot.stats.recorder import GameRecorder

BOT_NICK = "unobot"
CHANNELS = ["#uno", "#Side[1]", "&third"]
CHANNEL_SPELLINGS = [*CHANNELS, "#UNO", "#side{1}", "&THIRD", "#elsewhere"]
"""The channels, other spellings of them under the casemapping, and one without a table."""
COMMANDS = sorted(Dispatcher(".", load_plugins(DEFAULT_PLUGINS)).handlers)
"""Every command name (and alias) the built-in plugins register."""
ADMIN_MASK = "root!*@admin.example"

# --- strategies ------------------------------------------------------------------------------

_CONTROL = st.sampled_from(["\r", "\n", "\r\n", "\x00", "\x01", "\x02", "\x03", "\x034,5", "\x0f"])
_WEIRD_TEXT = st.lists(
    st.characters(codec="utf-8", exclude_categories=["Cs"]) | _CONTROL, max_size=30
).map("".join)
_LONG = st.builds(
    lambda unit, n: (unit * n)[:10_240],
    st.sampled_from(["x", "é", "🂡", "r 5 ", "\x0304R5\x0f ", "a\r\nb", "\x00"]),
    st.integers(100, 10_240),
)
CARD_WORDS = [
    "r 5", "R5", "r5", "y 0", "g s", "b r", "y d2", "bd2", "rd2 uno", "r 5 uno", "b 9 UNO!",
    "w g", "W B", "wd4 g", "WD4 y", "wd4", "w", "w purple", "x 7", "r 10", "g skip",
    "r", "uno", "",
]  # fmt: skip
_ARGS = st.one_of(
    st.just(""),
    st.sampled_from(CARD_WORDS),
    st.sampled_from(["60m", "1h", "90s", "10s", "9s", "25h", "0", "1", "1h30m", "m", "easy"]),
    st.sampled_from(["hard", "normal Zed", "easy a b", "hard 9lives", "HardBot1", "alice"]),
    st.sampled_from(["list", "preset official", "preset knockout", "preset nope", "set"]),
    st.sampled_from(["set stacking same", "set uno_call manual", "set hand_size 30", "pw 10"]),
    st.sampled_from(["ppg alice week here", "pw", "month", "100000000000", "-1"]),
    _WEIRD_TEXT,
    _LONG,
)
SENSIBLE = [
    ".uno", ".join", ".deal", ".deal 90s", ".leave", ".cards", ".top", ".unostop", ".unohelp",
    ".pce-off", ".pce-on", ".addbot", ".addbot hard", ".addbot easy Zed", ".removebot",
    ".removebot Zed", ".unorules", ".unorules list", ".unorules preset official",
    ".unorules preset ocuk-tournament", ".unorules preset knockout", ".unorules preset irc-classic",
    ".unorules set stacking any", ".unorules set uno_call manual", ".unorules set hand_size 20",
    ".unorules set decks 2", ".unostats", ".unostats alice", ".unostats pw 10", ".unostats ppg",
    ".unostats pw 10 week here", ".unotop10", ".unotop10 month here", ".catch alice", ".uno",
    ".challenge", ".draw", ".pass", ".color r", ".unocall",
    ".tournament new ocuk cup grace=10s", ".tournament new knockout ko game=1m grace=10s",
    ".tournament new rotation r round=1m warning=10s", ".tjoin", ".tleave", ".tstatus",
    ".tournament addbot easy", ".tournament start", ".tournament pause", ".tournament resume",
    ".tournament penalty alice", ".tournament remove bob", ".tournament sub carol dave",
    ".tournament correct alice t1 -5 oops", ".tournament cancel", ".tournament list",
]  # fmt: skip
_PLAIN_NICKS = ["alice", "Bob", "carol", "dave", "ALICE", "bob", "nick[1]", "NICK{1}", "root"]
_NICK = st.one_of(
    st.sampled_from(_PLAIN_NICKS),
    st.sampled_from(["Zed", "NormalBot1", "EasyBot1", "HardBot1", BOT_NICK, "UNOBOT"]),
    st.text(st.characters(codec="utf-8", exclude_categories=["Cs"]), min_size=1, max_size=12),
    st.builds(lambda a, c, b: a + c + b, st.sampled_from(_PLAIN_NICKS), _CONTROL, st.text()),
    _LONG,
).filter(lambda n: not n.startswith(("#", "&", "+", "!")))
"""Nicks. None starts with a channel prefix: no IRC server allows that, and a notice to such a
"nick" would go to a channel."""
_ACCOUNT = st.one_of(st.none(), st.none(), st.sampled_from(["acct", "Acct", "other"]), _LONG)
_LOBBY_ACCOUNT = st.sampled_from([None, None, "acct", "Acct", "other"])
"""A lobby's accounts: from a few, so that two seats often share one."""
_SECONDS = st.one_of(
    st.sampled_from([0.0, 0.5, 1.0, 1.5, 2.0, 5.0, 29.0, 30.0, 59.0, 60.0, 61.0, 89.0, 90.0]),
    st.sampled_from([119.0, 120.0, 121.0, 240.0, 300.0, 301.0, 600.0, 3600.0, 86_400.0]),
    st.floats(0, 400, allow_nan=False),
)

_HAND = re.compile(r"Your cards \((\d+)\): ?(.*)$")
_MARKED = re.compile(r"\[([RYGBW][0-9A-Z]{0,3})\]")
"""A card marked playable in a turn's hand, ``[R5]``: from one letter (``[W]``) to No Mercy's
four (``[WRD4]``, ``[WD10]``). Only what the engine's parser takes as a card is unmarked
(:func:`_unmark`)."""


def _card_text(word: str) -> str:
    """``word`` as a card's text, if the engine reads it as one (a classic card, or a face of
    UNO Flip); CardParseError if not."""
    try:
        return Card.parse(word).text
    except CardParseError:
        return Face.parse(word).text


def _unmark(m: re.Match[str]) -> str:
    """``[R5]`` -> ``R5`` when the engine reads the word as a card; anything else stays."""
    try:
        _card_text(m.group(1))
    except CardParseError:
        return m.group(0)
    return m.group(1)


class BoundedScheduler(FakeScheduler):
    """The fake clock, refusing to run more than ``budget`` timers in one ``advance`` (a timer
    that re-arms itself at once for ever would otherwise hang the test)."""

    budget = 20_000

    def __init__(self) -> None:
        super().__init__()
        self.runaway = False

    def advance(self, seconds: float, limit: int | None = None) -> bool:
        ran_all = super().advance(seconds, self.budget if limit is None else limit)
        self.runaway = self.runaway or not ran_all
        return ran_all


class CheckingTransport:
    """Records every line, and checks it against the tables at the moment it is sent."""

    nickname = BOT_NICK

    def __init__(self) -> None:
        self.bot: Bot | None = None
        self.sent: list[tuple[str, str, str]] = []
        self.names: set[str] = set()
        """Every nick and channel the input gave the bot (the only targets it may use)."""
        self.problems: list[str] = []
        self._open: tuple[str, Counter[Card], int, list[Counter[Card]]] | None = None
        """A hand notice being sent in several lines: target, cards so far, count announced,
        the hands it may be."""

    # ``tag`` (what a line is, for the adapter's fair queue) says nothing these checks need;
    # typed ``object`` so this fits the transport protocol with or without it.
    def privmsg(self, target: str, text: str, tag: object = None) -> None:
        self._line("privmsg", target, text)

    def notice(self, target: str, text: str, tag: object = None) -> None:
        self._line("notice", target, text)

    def _problem(self, what: str, kind: str, target: str, text: str) -> None:
        self.problems.append(f"{what}: {kind} to {target[:60]!r}: {text[:300]!r}")

    def _line(self, kind: str, target: str, text: str) -> None:
        self.sent.append((kind, target, text))
        if len(self.sent) > 20_000:
            del self.sent[:10_000]
        if kind == "privmsg" and text.endswith(" ran out of time") and self.bot is not None:
            table = self.bot.tables.get(irc_lower(target))
            seat = table.seat_of(text.split(" ")[0], computer=True) if table else None
            if table is not None and seat is not None:
                self._problem("a computer seat ran out of time", kind, target, text)
        named = target in self.names
        if not named and target not in self._seated():
            self._problem("a target neither the input nor a seat named", kind, target, text)
        for bad in ("\r", "\n", "\0"):
            if bad in text:
                self._problem(f"{bad!r} in the text", kind, target, text)
            if bad in target and not named:
                self._problem(f"{bad!r} in the target", kind, target, text)
        if not text:
            self._problem("an empty line", kind, target, text)
        plain = _MARKED.sub(_unmark, strip_codes(text))  # [R5]: playable, in a turn's hand
        channel = target.startswith(("#", "&", "+", "!"))
        if kind == "privmsg" and channel and len(text.encode()) > LIMIT:
            self._problem(f"a channel line over {LIMIT} bytes", kind, target, text)
        self._hand_line(kind, target, text, plain)
        hand = self._open is not None and kind == "notice" and self._open[0] == target
        if hand and len(text.encode()) > LIMIT:
            self._problem(f"a hand notice line over {LIMIT} bytes", kind, target, text)
        if not hand:
            # (A hand notice is checked card for card above: another hand's cards may well be
            # a run of the holder's own.)
            self._no_hand_shown(kind, target, text, plain)

    # --- hands -----------------------------------------------------------------------------

    def close_hand(self) -> None:
        """The hand notice being sent is complete: it must have listed every card."""
        if self._open is None:
            return
        target, cards, count, _ = self._open
        self._open = None
        if sum(cards.values()) != count:
            self.problems.append(
                f"hand notice to {target[:60]!r} listed {sum(cards.values())} of {count} cards"
            )

    def _hand_line(self, kind: str, target: str, text: str, plain: str) -> None:
        if self._open is not None:
            if kind == "notice" and target == self._open[0] and self._continues(plain):
                return
            self.close_hand()
        m = _HAND.search(plain)
        if m is None:
            return
        if kind != "notice":
            self._problem("a hand listing outside a hand notice", kind, target, text)
            return
        count = int(m.group(1))
        hands = [Counter(hand) for hand in self._hands_of(target) if len(hand) == count]
        if not hands:
            self._problem("a hand notice to someone with no such hand", kind, target, text)
            return
        self._open = (target, Counter(), count, hands)
        if not self._continues(m.group(2)):
            self._problem("a hand notice with something else than cards", kind, target, text)

    def _continues(self, plain: str) -> bool:
        """Add the cards of ``plain`` (a line of the open notice); False if it isn't one."""
        assert self._open is not None
        target, cards, count, hands = self._open
        try:
            more = Counter(_card_text(word) for word in plain.split())
        except CardParseError:
            return False
        total = cards + more
        fitting = [h for h in hands if not total - h]
        if not fitting:
            self.problems.append(f"hand notice to {target[:60]!r} lists cards not in their hand")
            return True
        self._open = (target, total, count, fitting)
        return True

    def _no_hand_shown(self, kind: str, target: str, text: str, plain: str) -> None:
        """No line shows the cards of a hand in play (three or more, in the order hands are
        written) to anyone but their holder: hands end their life in the channel only once
        their hand is over, and a table that just dealt the next hand holds new cards."""
        assert self.bot is not None
        for table in self.bot.tables.values():
            game = table.game
            if game is None or game.over or not table.dealt:
                continue
            for seat, player in enumerate(table.players):
                if seat >= game.n or game.hand_size(seat) < 3:
                    continue
                cards = " ".join(card.text for card in game.hand(seat))
                own = kind == "notice" and irc_lower(target) == irc_lower(player.nick)
                if cards in plain and not own:
                    self._problem(f"{player.nick[:30]}'s hand ({cards})", kind, target, text)

    def _seated(self) -> set[str]:
        """The nicks of the people seated now (a seat renamed ``nick(gone)`` among them)."""
        assert self.bot is not None
        return {p.nick for t in self.bot.tables.values() for p in t.players if not p.computer}

    def _hands_of(self, nick: str) -> list[tuple[Card, ...]]:
        """The hands of the person called ``nick`` at every table they sit at."""
        assert self.bot is not None
        out = []
        for table in self.bot.tables.values():
            seat = table.seat_of(nick)
            game = table.game
            if seat is not None and game is not None and seat < game.n:
                out.append(tuple(card.text for card in game.hand(seat)))
        return out


_WARNING_IS_A_BUG = frozenset({"unobot.core.computers", "unobot.stats.recorder"})
"""Loggers whose warnings are bugs (:class:`ErrorLog`)."""


class ErrorLog(logging.Handler):
    """Every record at ERROR or above, and the warnings that mean a bug: those of the
    computer players (a strategy's move refused, a seat it has no view of) and of the stats
    recorder (a finished game's result lost: it once dropped one when two seats ended a game
    with one stats ident; a seat with no ident of its own is now left out at INFO, by design).
    """

    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        if record.levelno >= logging.ERROR or record.name in _WARNING_IS_A_BUG:
            self.records.append(record)


def command_text(action: object, names: tuple[str, ...], rng: Random) -> str:
    """What a person types for an engine action (several of the accepted spellings)."""
    if isinstance(action, Play):
        card = action.card.text.lower()
        if action.card.is_wild and action.color is not None:
            text = f".play {card} {action.color.letter.lower()}"
        elif action.card.is_wild:  # No Mercy's Roulette: the next player names the colour
            text = f".play {card}"
        elif len(card) == 2 and rng.random() < 0.5:
            text = f".p {card[0]} {card[1]}"
        else:
            text = f".p {card}"
        if action.target >= 0:  # Seven-O: the 7 names whom it swaps with
            text += f" {names[action.target]}"
        return text + (rng.choice([" uno", " UNO!"]) if action.uno else "")
    if isinstance(action, Draw):
        return rng.choice([".draw", ".d"])
    if isinstance(action, Pass):
        return rng.choice([".pass", ".pa"])
    if isinstance(action, ChooseColor):
        return f".{rng.choice(['color', 'colour', 'co'])} {action.color.letter.lower()}"
    if isinstance(action, Challenge):
        return rng.choice([".challenge", ".ch"])
    if isinstance(action, CallUno):
        return rng.choice([".unocall", ".uno", "uno", "UNO!"])
    if isinstance(action, Catch):
        return f"{rng.choice(['.catch', '.halt'])} {names[action.target]}"
    if isinstance(action, Swap):
        return f".swap {names[action.target]}"
    if isinstance(action, FlipPlay):  # UNO Flip: a face of the side in play
        card = action.face.text.lower()
        if action.color is not None:
            return f".play {card} {action.color.letter.lower()}"
        return f".p {card[0]} {card[1:]}" if rng.random() < 0.5 else f".p {card}"
    if isinstance(action, FlipChoose):
        return f".color {action.color.letter.lower()}"
    raise AssertionError(action)


# --- regressions: bugs the machine found ----------------------------------------------------


def test_a_nick_given_up_by_a_seated_player_who_quit_names_one_seat_only() -> None:
    """bob quits mid-game (his seat is held), carol takes the nick bob: she keeps her own seat
    and hand, and never sees or plays bob's (before: two seats were called bob, and carol's
    commands and bob's hand notices went to bob's seat and to her)."""
    h = Harness(seed=3)
    h.start(["alice", "bob", "carol"])
    table = h.bot.tables["#uno"]
    game = table.game
    assert game is not None
    bobs, carols = list(game.hand(1)), list(game.hand(2))
    h.event(Kind.QUIT, "bob")
    h.event(Kind.NICK, "carol", new_nick="bob")
    assert table.names == ("alice", "bob(gone)", "bob")
    shown = notices(h.pm("bob", ".cards"), "bob")[0]
    assert shown == "Your cards (7): " + " ".join(c.text for c in carols)
    assert bobs != carols
    out = h.advance(61.0)  # the held seat's grace ends
    assert "bob(gone) is out (gone for 60s)" in " ".join(channel_lines(out))
    assert table.names == ("alice", "bob") and list(game.hand(1)) == carols
    assert not [s for s in out if s.kind == "notice"]


def test_a_renamed_starter_who_quit_hands_no_rights_to_the_nicks_next_holder() -> None:
    h = Harness(seed=3)
    h.start(["alice", "bob", "carol"])
    table = h.bot.tables["#uno"]
    h.event(Kind.QUIT, "alice")
    h.event(Kind.NICK, "carol", new_nick="alice")
    assert table.starter == "alice(gone)"
    assert "only alice(gone)" in notices(h.say("alice", ".unostop"), "alice")[0]


def test_a_hard_computer_player_moves_in_a_hand_gone_below_the_rules_minimum(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """bac-tournament deals to 4-5 players; when one leaves mid-hand the hand goes on with 3.
    A hard computer player then built its imagined worlds with ``Game.from_position``, which
    refused 3 players for those rules: every decision failed (logged) and the computer player
    only ever timed out."""
    config = BotConfig(
        table=TableConfig(rules=preset("bac-tournament")),
        bots=ComputerConfig(delay=0.0, playouts=8, workers=0),
    )
    h = Harness(seed=1, config=config)
    h.say("alice", ".uno")
    h.say("bob", ".join")
    h.say("carol", ".join")
    h.say("alice", ".addbot hard")
    h.say("alice", ".deal")
    h.event(Kind.QUIT, "carol")
    h.advance(61.0)  # carol's seat goes: three players left
    table = h.bot.tables["#uno"]
    assert table.names == ("alice", "bob", "HardBot1")
    with caplog.at_level(logging.WARNING):
        said = " ".join(channel_lines(h.advance(240.0)))  # alice and bob time out
    assert "HardBot1 plays" in said or "HardBot1 draws" in said, said
    assert "HardBot1 ran out of time" not in said
    assert not [r for r in caplog.records if r.levelno >= logging.WARNING]


def test_a_hand_below_the_rules_minimum_can_be_set_up_and_copied() -> None:
    """``Game.from_position`` and ``Game.copy`` (the computer players' imagined worlds) take
    any hand of 2 to 10 players: one in play may have fewer than its rules deal to."""
    rules = preset("bac-tournament")
    assert rules.min_players == 4
    game, _ = Game.deal(4, rules, Random(2))
    game.remove_seat(3)
    assert game.n == 3
    copy = game.copy()
    assert copy.hands == game.hands
    top = Card.parse("R5")
    made = Game.from_position(rules, [game.hand(s) for s in range(3)], top)
    assert made.n == 3 and made.hand(0) == game.hand(0)
    with pytest.raises(ValueError, match="is for 4 to 5 players"):
        Game.deal(3, rules, Random(2))  # a new hand is still dealt as the rules say


def test_the_line_after_a_rejoin_fits_one_irc_line() -> None:
    """The bot kicked from a channel with a lobby of long nicks, then back: the one line that
    says the game goes on (with every seat's nick) was sent whole, over the line limit."""
    h = Harness()
    nicks = [f"{c}{'x' * 60}" for c in "abcdefg"]
    h.say(nicks[0], ".uno")
    for nick in nicks[1:]:
        h.say(nick, ".join")
    h.event(Kind.KICK, BOT_NICK, "#uno")
    out = h.event(Kind.JOIN, BOT_NICK, "#uno")
    [line] = channel_lines(out)
    assert line.startswith("Back after a kick: the game goes on. axxx")
    assert line.endswith(" …") and len(out[0].text.encode()) <= LIMIT


def test_a_seat_sharing_its_account_with_one_that_left_keeps_its_place() -> None:
    """bob and bobphone sit with one services account; bobphone leaves the channel. When the
    grace ends bobphone is out, not bob (the held-seat timer was named by account, and the first
    seat of that account was removed, away or not)."""
    h = Harness(seed=3)
    h.say("alice", ".uno")
    h.say("bob", ".join", account="acct")
    h.say("bobphone", ".join", account="acct")
    h.say("alice", ".deal")
    h.event(Kind.PART, "bobphone", "#uno")
    said = channel_lines(h.advance(61.0))
    assert said[0].startswith("bobphone is out (gone for 60s)"), said
    assert h.bot.tables["#uno"].names == ("alice", "bob")


def test_two_seats_of_one_account_away_each_keep_their_own_grace() -> None:
    h = Harness(seed=3)
    h.say("alice", ".uno")
    for nick in ("bob", "bobphone", "carol"):
        h.say(nick, ".join", account="acct" if nick.startswith("bob") else None)
    h.say("alice", ".deal")
    h.event(Kind.PART, "bobphone", "#uno")
    h.advance(30.0)
    h.event(Kind.PART, "bob", "#uno")
    said = " ".join(channel_lines(h.advance(31.0)))
    assert "bobphone is out" in said and "bob is out" not in said
    said = " ".join(channel_lines(h.advance(30.0)))
    assert "bob is out (gone for 60s)" in said


def test_stats_lines_fit_one_irc_line_whatever_the_nicks() -> None:
    """A leaderboard entry was never split, so one with a nick longer than a line made a line
    over LIMIT; and a full line then got its trailing comma, one byte over. A player's line
    had the same problem with a long nick."""
    for length in (1, 3, 7, 13, 29, 60, 61, 389, 5000):
        for count in (1, 10, 18, 25):
            board = [
                PlayerStats("n" * (length + i % 3), 10 + i, 5, 100 * i, 60, rank=i + 1)
                for i in range(count)
            ]
            for ranking in Ranking:
                lines = list_lines(board, ranking, count, "this month in #uno")
                assert all(len(line.encode()) <= LIMIT for line in lines), (length, count)
                text = " ".join(lines)
                assert all(f"{i}. n" in text for i in range(1, count + 1))  # none lost
        line = stats_line(board[0], Ranking.PERCENT_WINS, 5, "this month in #uno")
        assert len(line.encode()) <= LIMIT
        assert ("…" in line) == (length > 60)


@pytest.mark.parametrize(
    ("line", "answer"),
    [
        (".deal ²", "'²' is not a time limit"),
        (".unostats ²", "No Uno games recorded for ²"),
        (".unotop10 ²", ".unotop10 takes only"),
        (".unorules set hand_size ²", "hand_size is a whole number"),
        (".deal ٣m", ""),  # digits int() reads are numbers: a 3 minute game
    ],
)
def test_digits_int_cannot_read_are_refused_not_crashed_on(
    line: str, answer: str, caplog: pytest.LogCaptureFixture
) -> None:
    """``str.isdigit`` is true of "²", which ``int`` refuses: the command failed with a
    logged traceback and an apology (``.unorules``: with Python's own message)."""
    h = Harness(config=BotConfig(table=TableConfig(rules=preset("irc-classic"))))
    h.bot.store = MemoryStatsStore(network="")
    h.say("alice", ".uno", "#uno")
    h.say("bob", ".join", "#uno")
    with caplog.at_level(logging.ERROR):
        out = h.say("alice", line, "#side" if "unorules" in line else "#uno", is_op=True)
    replies = notices(out, "alice")
    assert not caplog.records
    if answer:
        assert len(replies) == 1 and replies[0].startswith(answer), replies
    else:
        assert "3 minutes time limit" in channel_lines(out)[0]


# --- the machine -----------------------------------------------------------------------------


class CountingStore(MemoryStatsStore):
    """The stats store (it outlives each bot process, as a database does), counting how often
    each game was handed to it: once, by design, even across restarts."""

    def __init__(self) -> None:
        super().__init__(network="")
        self.handed: Counter[str] = Counter()

    def record_game(self, game: GameRecord) -> None:
        self.handed[game.game_id] += 1
        super().record_game(game)


def table_state(table: Table) -> tuple[object, ...]:
    """What a restored table must have exactly as it was."""
    game = table.game
    players = [(p.nick, p.key, p.level, p.away_since, p.timeouts) for p in table.players]
    base = (table.state, table.starter, players, table.rng.getstate(), table.hand_number)
    if game is None:
        return base
    return (
        *base,
        [list(game.hand(i)) for i in range(game.n)],
        list(game.draw_pile),
        list(game.discard),
        game.current,
        game.direction,
        game.phase,
        getattr(game, "exposed", None),  # (UNO Flip calls UNO by itself: none)
        list(table.match.totals) if table.match is not None else None,
    )


FAREWELL = "unobot is restarting: this game will be restored when it is back."
WALL = 1_700_000_000.0


class BotMachine(RuleBasedStateMachine):
    """The bot on a modelled network: who is online (a server never gives out a nick in use,
    never relays the bot's own messages back to it, and sends nothing while disconnected)."""

    nicks = Bundle("nicks")

    def __init__(self) -> None:
        super().__init__()
        self.errors = ErrorLog()
        logging.getLogger().addHandler(self.errors)
        self.transport = CheckingTransport()
        self.transport.names.update(CHANNEL_SPELLINGS)
        self.clock = BoundedScheduler()
        self.bot: Bot | None = None
        self.rng = Random(0)
        self.online: set[str] = {irc_lower(BOT_NICK)}
        """Folded nicks in use on the network."""
        self.connected = True
        self.seen_games: dict[int, tuple[object, int]] = {}
        """id of a running hand -> the hand (kept, so the id is never reused) and the decks
        it was dealt from."""
        self.folder = Path(tempfile.mkdtemp(prefix="unobot-fuzz-"))
        """The journal's folder: what a restarted bot finds."""
        self.config: BotConfig | None = None
        self.store = CountingStore()

    @initialize(
        target=nicks,
        rules=st.sampled_from(sorted(PRESETS)),
        seed=st.integers(0, 2**32 - 1),
        hand_after_play=st.booleans(),
        warning=st.sampled_from([0.0, 30.0]),
        delay=st.sampled_from([0.0, 1.5]),
        min_games=st.sampled_from([1, 5]),
    )
    def start(
        self,
        rules: str,
        seed: int,
        hand_after_play: bool,
        warning: float,
        delay: float,
        min_games: int,
    ) -> object:
        config = BotConfig(
            table=TableConfig(
                rules=preset(rules), hand_after_play=hand_after_play, turn_warning=warning
            ),
            admins=frozenset({ADMIN_MASK}),
            bots=ComputerConfig(delay=delay, playouts=8, budget_ms=5.0, workers=0),
            channel_rules={irc_lower("&third"): preset("official")},
            stats_min_games=min_games,
        )
        self.config = config
        self.settings = MemorySettings()
        self.rng = Random(seed)
        self.start_bot(seed)
        return multiple(*_PLAIN_NICKS[:5])

    def start_bot(self, seed: int) -> None:
        """A bot process: its own recorder and journal (on the same folder), the network's
        stats store and settings (a database outlives the process)."""
        recorder = GameRecorder(self.store, "", GameRecorder.utc_from(self.clock))
        journal = Journal(self.folder, self.clock.now, wall=lambda: WALL + self.clock.time)
        self.bot = Bot(
            self.transport,
            self.clock,
            self.settings,
            self.config,
            rng=Random(seed),
            store=self.store,
            recorder=recorder,
            journal=journal,
        )
        self.transport.bot = self.bot

    def teardown(self) -> None:
        try:
            if sys.exc_info()[0] is None and self.bot is not None:  # the run itself passed
                self.everyone_stops()
        finally:
            logging.getLogger().removeHandler(self.errors)
            if self.bot is not None and self.bot.journal is not None:
                self.bot.journal.close()
            shutil.rmtree(self.folder, ignore_errors=True)

    # --- helpers ---------------------------------------------------------------------------

    def feed(self, incoming: Incoming) -> None:
        """Hand the bot one record, if the network could deliver it now."""
        assert self.bot is not None
        kind, nick = incoming.kind, irc_lower(incoming.nick)
        if not self.connected and kind is not Kind.RECONNECTED:
            return
        if kind is Kind.MESSAGE and nick == irc_lower(BOT_NICK):
            return  # the server never echoes the bot's own lines
        if kind is Kind.NICK:
            new = irc_lower(incoming.new_nick)
            if not incoming.new_nick or (new in self.online and new != nick):
                return  # the server refuses a nick in use
            self.online.discard(nick)
            self.online.add(new)
        elif kind is Kind.QUIT:
            if nick == irc_lower(BOT_NICK):
                return  # the bot's own quit is a DISCONNECTED record
            self.online.discard(nick)
        elif kind is Kind.DISCONNECTED:
            self.connected = False
        elif kind is Kind.RECONNECTED:
            self.connected = True
        elif kind is Kind.NAMES:
            self.transport.names.update(incoming.text.split())
        else:
            self.online.add(nick)
        for name in (incoming.nick, incoming.target, incoming.new_nick):
            self.transport.names.add(name)
        self.bot.handle(incoming)

    def say(self, nick: str, text: str, target: str, **extra: object) -> None:
        self.feed(Incoming(Kind.MESSAGE, nick, target, text, **extra))  # type: ignore[arg-type]

    def table_at(self, index: int) -> Table | None:
        assert self.bot is not None
        return self.bot.tables.get(irc_lower(CHANNELS[index % len(CHANNELS)]))

    def people_at(self, index: int) -> list[Player]:
        """The people (not computer players) seated in channel ``index``; none: no table."""
        table = self.table_at(index)
        return [] if table is None else [p for p in table.players if not p.computer]

    # --- rules: input ----------------------------------------------------------------------

    @rule(target=nicks, nick=_NICK)
    def new_nick(self, nick: str) -> str:
        return nick

    @rule(
        nick=nicks,
        channel=st.sampled_from(CHANNEL_SPELLINGS),
        private=st.booleans(),
        name=st.sampled_from([*COMMANDS, "UNO", "Play", "nosuch", "", " uno", ".uno"]),
        sep=st.sampled_from([" ", " ", "  ", "\t", ""]),
        args=_ARGS,
        is_op=st.booleans(),
        account=_ACCOUNT,
        admin=st.booleans(),
    )
    def command(
        self,
        nick: str,
        channel: str,
        private: bool,
        name: str,
        sep: str,
        args: str,
        is_op: bool,
        account: str | None,
        admin: bool,
    ) -> None:
        text = f".{name}{sep}{args}" if args else f".{name}"
        target = BOT_NICK if private else channel
        userhost = "root@admin.example" if admin else "user@host"
        self.say(nick, text, target, is_op=is_op, account=account, userhost=userhost)

    @rule(
        nick=nicks,
        line=st.sampled_from(SENSIBLE),
        channel=st.sampled_from(CHANNEL_SPELLINGS),
        private=st.booleans(),
        is_op=st.booleans(),
    )
    def sensible_command(
        self, nick: str, line: str, channel: str, private: bool, is_op: bool
    ) -> None:
        """A command as players type them (arguments that mean something)."""
        self.say(nick, line, BOT_NICK if private else channel, is_op=is_op)

    @rule(
        nick=nicks,
        channel=st.sampled_from(CHANNEL_SPELLINGS),
        text=st.one_of(st.sampled_from(["uno", "UNO!", " uno ", "uno uno", "."]), _WEIRD_TEXT),
    )
    def chatter(self, nick: str, channel: str, text: str) -> None:
        self.say(nick, text, channel)

    @rule(
        starter=nicks,
        others=st.lists(nicks, min_size=1, max_size=4),
        channel=st.sampled_from(CHANNELS),
        computers=st.lists(st.sampled_from(["", "easy", "normal", "hard", "easy Zed"]), max_size=2),
        limit=st.sampled_from(["", "", "", "90s", "10m", "60m"]),
        accounts=st.lists(_LOBBY_ACCOUNT, max_size=5),
        handover=st.none() | st.tuples(st.integers(0, 9), _LOBBY_ACCOUNT),
    )
    def open_and_deal(
        self,
        starter: str,
        others: list[str],
        channel: str,
        computers: list[str],
        limit: str,
        accounts: list[str | None],
        handover: tuple[int, str | None] | None,
    ) -> None:
        """A whole lobby at once: a game to play out (the commands fail where they must).
        ``accounts``: the services accounts of the first people, from a few (one account on
        two seats is one person playing two hands, which the stats must not count twice);
        ``handover``: before the deal, a seat's nick is taken by a newcomer
        (:meth:`nick_handed_over`), so two seats joined with one nick."""
        for i, nick in enumerate([starter, *others]):
            account = accounts[i] if i < len(accounts) else None
            self.say(nick, ".join" if i else ".uno", channel, account=account)
        if handover is not None:
            seat, account = handover
            self.nick_handed_over(CHANNELS.index(channel), seat, None, account)
        for level in computers:
            self.say(starter, f".addbot {level}".strip(), channel)
        self.say(starter, f".deal {limit}".strip(), channel)

    @rule(
        channel=st.integers(0, 2),
        count=st.integers(1, 4) | st.integers(1, 150),
        seed=st.integers(0, 2**32 - 1),
        private=st.booleans(),
        out_of_turn=st.booleans(),
    )
    def legal_moves(
        self, channel: int, count: int, seed: int, private: bool, out_of_turn: bool
    ) -> None:
        """Seated people make moves the engine allows, one after another (the player to move,
        or a catch or UNO call out of turn), the computer players theirs in between."""
        rng = Random(seed)
        for _ in range(count):
            table = self.table_at(channel)
            game = table.game if table is not None else None
            if table is None or not table.dealt or game is None or game.over:
                return
            seats = [s for s in range(game.n) if game.legal_actions(s)]
            seat = game.current
            if out_of_turn and len(seats) > 1 and rng.random() < 0.3:
                seat = rng.choice(seats)
            player = table.players[seat]
            actions = game.legal_actions(seat)
            if player.computer or not actions:
                self.clock.advance(2.0)  # the computer players' pause (at most 1.5 s + 30%)
                continue
            text = command_text(rng.choice(actions), table.names, rng)
            bare = text in ("uno", "UNO!")
            target = BOT_NICK if private and not bare else table.channel
            self.say(player.nick, text, target)

    @rule(
        kind=st.sampled_from([Kind.JOIN, Kind.PART, Kind.KICK, Kind.QUIT]),
        nick=nicks,
        channel=st.sampled_from(CHANNEL_SPELLINGS),
        account=_ACCOUNT,
    )
    def membership(self, kind: Kind, nick: str, channel: str, account: str | None) -> None:
        target = "" if kind is Kind.QUIT else channel
        self.feed(Incoming(kind, nick, target, "bye", account=account))

    @rule(
        kind=st.sampled_from([Kind.PART, Kind.KICK, Kind.QUIT, Kind.JOIN, Kind.NICK]),
        channel=st.integers(0, 2),
        seat=st.integers(0, 9),
        new=nicks,
    )
    def seated_leaves(self, kind: Kind, channel: int, seat: int, new: str) -> None:
        """A seated player parts, is kicked, quits, comes back or changes nick."""
        people = self.people_at(channel)
        if not people:
            return
        nick = people[seat % len(people)].nick
        if kind is Kind.NICK:
            self.feed(Incoming(Kind.NICK, nick, new_nick=new))
        else:
            where = "" if kind is Kind.QUIT else CHANNELS[channel % len(CHANNELS)]
            self.feed(Incoming(kind, nick, where))

    @rule(old=nicks, new=nicks)
    def nick_change(self, old: str, new: str) -> None:
        self.feed(Incoming(Kind.NICK, old, new_nick=new))

    @rule(
        kind=st.sampled_from(
            [Kind.PART, Kind.KICK, Kind.JOIN, Kind.JOIN, Kind.DISCONNECTED, Kind.RECONNECTED]
        ),
        channel=st.integers(0, 2),
        nick=st.sampled_from([BOT_NICK, "UnoBot"]),
    )
    def bot_itself(self, kind: Kind, channel: int, nick: str) -> None:
        """The bot leaves, is kicked from or rejoins a channel, or loses its connection."""
        target = "" if kind in (Kind.DISCONNECTED, Kind.RECONNECTED) else CHANNELS[channel]
        if kind is Kind.RECONNECTED and self.connected:
            return  # only after a DISCONNECTED
        self.feed(Incoming(kind, nick, target, "fuzz"))

    @rule(
        channel=st.integers(0, 2),
        seat=st.integers(0, 9),
        other=st.integers(0, 9),
        joined_with=st.booleans(),
    )
    def seat_takes_anothers_nick(
        self, channel: int, seat: int, other: int, joined_with: bool
    ) -> None:
        """A seated person takes the nick another seat joined with (the ident of a player
        without an account) or has now (refused unless that player left the network: their
        held seat becomes ``nick(gone)``): the renames that once made two seats of a game
        claim one stats ident."""
        people = self.people_at(channel)
        if len(people) < 2:
            return
        mover = people[seat % len(people)]
        taken = people[other % len(people)]
        if taken is mover:
            return
        new = taken.key if joined_with and not taken.key.startswith("$") else taken.nick
        self.feed(Incoming(Kind.NICK, mover.nick, new_nick=new))

    @rule(
        channel=st.integers(0, 2),
        seat=st.integers(0, 9),
        new=st.none() | nicks,
        account=_ACCOUNT,
    )
    def nick_handed_over(
        self, channel: int, seat: int, new: str | None, account: str | None
    ) -> None:
        """A seated person changes nick (to ``new``, else their nick and ``_``, free almost
        always), and somebody else takes the nick they gave up and asks to join (in a lobby:
        two seats joined with one nick; in a game: a stranger has a seated person's old nick)."""
        people = self.people_at(channel)
        if not people:
            return
        old = people[seat % len(people)].nick
        self.feed(Incoming(Kind.NICK, old, new_nick=old + "_" if new is None else new))
        if irc_lower(old) not in self.online:  # the nick is free now
            self.say(old, ".join", CHANNELS[channel % len(CHANNELS)], account=account)

    @rule(
        channel=st.sampled_from(CHANNEL_SPELLINGS),
        mask=st.integers(0, 2**12 - 1),
        extra=st.lists(nicks, max_size=3),
        own=st.sampled_from(["", BOT_NICK, "UNOBOT"]),
        rejoin=st.booleans(),
    )
    def names(self, channel: str, mask: int, extra: list[str], own: str, rejoin: bool) -> None:
        """The channel's member list (:attr:`Kind.NAMES`), as the adapter delivers it after
        the bot's own JOIN (``rejoin``: that JOIN first): some of the people seated there, and
        other nicks, all online (a server lists only members); with the bot's own nick in
        some spelling, or without it (a list the core must not trust)."""
        if rejoin:
            self.feed(Incoming(Kind.JOIN, BOT_NICK, channel))
        table = self.bot.tables.get(irc_lower(channel)) if self.bot is not None else None
        seated = [p.nick for p in table.players if not p.computer] if table is not None else []
        listed = [n for i, n in enumerate(seated) if mask >> i & 1]
        listed += extra
        if own:
            listed.append(own)
        listed = [n for n in listed if irc_lower(n) in self.online or n == own]
        Random(mask).shuffle(listed)  # servers list members in no particular order
        self.feed(Incoming(Kind.NAMES, "", channel, " ".join(listed)))

    @rule(seconds=_SECONDS)
    def wait(self, seconds: float) -> None:
        self.clock.advance(seconds)

    @rule(
        how=st.sampled_from(["kill", "term"]),
        downtime=st.sampled_from([0.0, 5.0, 90.0, 3600.0]),
        moves=st.integers(0, 3),
        seed=st.integers(0, 2**32 - 1),
    )
    def restart(self, how: str, downtime: float, moves: int, seed: int) -> None:
        """The bot process ends and a new one starts on its journal: SIGKILL (nothing more
        from the old one) or SIGTERM (the farewell; then, in the moment before it exits, the
        players to move try ``moves`` moves, which must change nothing). The new process
        restores every table exactly as it was, connects and joins its channels."""
        old = self.bot
        assert old is not None and old.journal is not None
        before = {key: table_state(t) for key, t in old.tables.items()}
        if how == "term":
            old.farewell(FAREWELL)
            rng = Random(seed)
            for _ in range(moves):
                for table in list(old.tables.values()):
                    game = table.game
                    if game is None or not table.dealt or game.over:
                        continue
                    player = table.players[game.current]
                    actions = game.legal_actions(game.current)
                    if player.computer or not actions:
                        continue
                    text = command_text(rng.choice(actions), table.names, rng)
                    self.say(player.nick, text, table.channel)
            self.clock.advance(1.5)  # the farewell's lines leave; nothing else happens
            after = {key: table_state(t) for key, t in old.tables.items()}
            assert after == before, "a table changed after the farewell"
        self.clock.kill()  # the old process's timers die with it
        old.journal.close()  # and the kernel closes its files (what it wrote is there)
        self.clock.time += downtime
        self.start_bot(seed)
        assert self.bot is not None
        self.bot.restore()
        restored = {key: table_state(t) for key, t in self.bot.tables.items()}
        assert restored == before, "a restored table differs from the one the old bot had"
        self.connected = True  # a new connection; the bot joins its channels
        for channel in CHANNELS:
            self.feed(Incoming(Kind.JOIN, BOT_NICK, channel))

    # --- invariants ------------------------------------------------------------------------

    @invariant()
    def nothing_logged(self) -> None:
        if self.errors.records:
            record = self.errors.records[0]
            trace = ""
            if record.exc_info:
                trace = "\n" + logging.Formatter().formatException(record.exc_info)
            raise AssertionError(
                f"the bot logged {record.levelname} {record.name}: {record.getMessage()[:500]}"
                + trace
            )

    @invariant()
    def lines_are_sound(self) -> None:
        self.transport.close_hand()
        assert not self.clock.runaway, "timers ran away (more than the budget in one advance)"
        assert not self.transport.problems, self.transport.problems[:5]

    @invariant()
    def recorded_once(self) -> None:
        twice = [game_id for game_id, n in self.store.handed.items() if n > 1]
        assert not twice, f"games recorded more than once: {twice}"

    @invariant()
    def cards_are_conserved(self) -> None:
        if self.bot is None:
            return
        for table in self.bot.tables.values():
            game = table.game
            if game is None or game.over or not table.dealt:
                continue
            held = Counter(game.draw_pile) + Counter(game.discard)
            for hand in game.hands:
                held += Counter(hand)
            total = sum(held.values())
            if table.flip:  # UNO Flip: the 112 double-sided cards, each once
                assert held == Counter(FLIP_DECK), f"not the Flip deck in {table.channel}"
                assert len(table.players) == game.n, "seats and hands out of step"
                continue
            if game.rules.deck is Deck.NO_MERCY:  # one 168-card deck, eliminated hands in it
                decks = 1
                assert held == Counter(no_mercy_deck()), f"not the No Mercy deck in {table.channel}"
            else:
                decks = total // 108
                assert decks in (1, 2) and total % 108 == 0, f"{total} cards in {table.channel}"
                assert held == Counter(full_deck(decks)), f"not whole decks in {table.channel}"
            assert self.seen_games.setdefault(id(game), (game, decks))[1] == decks, "deck changed"
            assert len(table.players) == game.n, "seats and hands out of step"
            people = [irc_lower(p.nick) for p in table.players if not p.computer]
            assert len(set(people)) == len(people), f"one nick, two seats: {table.names}"

    # --- the end ---------------------------------------------------------------------------

    def everyone_stops(self) -> None:
        """Nobody moves any more: within a bounded number of turn timeouts and grace periods,
        every dealt game ends (a lobby is not a game: it waits for a deal)."""
        assert self.bot is not None
        if not self.connected:
            self.feed(Incoming(Kind.RECONNECTED, BOT_NICK))
        for _ in range(40):
            if not any(t.dealt for t in self.bot.tables.values()):
                break
            self.clock.advance(600.0)
            self.lines_are_sound()
            self.nothing_logged()
            self.cards_are_conserved()
        still = [t.channel for t in self.bot.tables.values() if t.dealt]
        assert not still, f"games still running after 40 x 600 s: {still}"
        assert all(not t.finished for t in self.bot.tables.values()), "finished table kept"


BotMachine.TestCase.settings = settings(
    # ~30 s on a two-core machine; the same examples every run (a failure replays as is).
    # For a longer hunt: BotMachine.TestCase.settings = settings(..., derandomize=False,
    # max_examples=5000) in a scratch test (random runs of 6,000 x 80-150 steps pass).
    max_examples=400,
    stateful_step_count=100,
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)
TestBotMachine = BotMachine.TestCase
TestBotMachine.pytestmark = [pytest.mark.slow]  # type: ignore[attr-defined]
