"""``unobot play``: colour translation, options, the terminal transport and scheduler, and whole
games in a real subprocess where a scripted human reads the screen and types legal moves."""

from __future__ import annotations

import asyncio
import io
import os
import queue
import re
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path
from random import Random

import pexpect
import pytest

from tests.core.fakes import Agent, read_status
from unobot.core.render_irc import Cards
from unobot.engine.actions import Pass, Play
from unobot.engine.cards import Card
from unobot.irc.casemap import irc_lower
from unobot.irc.transport import Incoming, Kind
from unobot.terminal.ansi import mirc_to_ansi, use_color
from unobot.terminal.game import TerminalGame, run
from unobot.terminal.options import HARD_BUDGET_ENV, PlayOptions, hard_budget, parse_args
from unobot.terminal.transport import LoopScheduler, TerminalTransport, second_person

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(autouse=True)
def _english(monkeypatch: pytest.MonkeyPatch) -> None:
    """These tests read English: the language ``unobot play`` takes from the locale when no
    ``--lang`` is given (and that its subprocesses inherit) must not depend on who runs them."""
    for name in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        monkeypatch.delenv(name, raising=False)


# --- colour translation ----------------------------------------------------------------------


def test_strip_removes_every_code() -> None:
    text = "\x0304R5\x0f, \x02W\x0f, \x0301,08x\x03 \x1dit\x1d \x1fu\x1f \x16r\x16 \x1es\x1e \x11m"
    assert mirc_to_ansi(text, ansi=False) == "R5, W, x it u r s m"


def test_strip_hex_colours() -> None:
    assert mirc_to_ansi("\x04FF0000red\x04 \x0400ff00,000000g", ansi=False) == "red g"


def test_colour_and_reset() -> None:
    assert mirc_to_ansi("\x0304R5\x0f go", ansi=True) == "\x1b[0;91mR5\x1b[0m go"


def test_background_colour() -> None:
    assert mirc_to_ansi("\x0301,08x", ansi=True) == "\x1b[0;30;103mx\x1b[0m"


def test_bold_toggles_and_line_ends_reset() -> None:
    # The second \x02 turns bold off: a plain style is written as a bare reset.
    assert mirc_to_ansi("\x02a\x02b", ansi=True) == "\x1b[0;1ma\x1b[0mb"
    # A line that ends styled is closed, so colour never bleeds into the next line.
    assert mirc_to_ansi("\x02bold", ansi=True) == "\x1b[0;1mbold\x1b[0m"


def test_bare_colour_code_ends_colour_but_not_bold() -> None:
    out = mirc_to_ansi("\x02\x0304a\x03b", ansi=True)
    assert out == "\x1b[0;1m\x1b[0;1;91ma\x1b[0;1mb\x1b[0m"


def test_colour_code_takes_at_most_two_digits() -> None:
    # "\x03041" is colour 04 followed by the text "1" (how mIRC reads it).
    assert mirc_to_ansi("\x03041", ansi=True) == "\x1b[0;91m1\x1b[0m"
    assert mirc_to_ansi("\x03041", ansi=False) == "1"
    # A comma not followed by digits is text.
    assert mirc_to_ansi("\x034,x", ansi=False) == ",x"


def test_hex_colour_is_truecolour() -> None:
    assert mirc_to_ansi("\x04FF8000o", ansi=True) == "\x1b[0;38;2;255;128;0mo\x1b[0m"


def test_default_and_extended_colours_show_as_default() -> None:
    assert mirc_to_ansi("\x0399x", ansi=True) == "x"
    assert mirc_to_ansi("\x0304a\x0399b", ansi=True) == "\x1b[0;91ma\x1b[0mb"


def test_plain_text_is_untouched() -> None:
    assert mirc_to_ansi("Top: R5. bob's turn.", ansi=True) == "Top: R5. bob's turn."


def test_bot_hands_strip_to_the_plain_notation() -> None:
    cards = [Card.parse(t) for t in ("R5", "Y0", "GD2", "BS", "W", "WD4")]
    colored = Cards(True).hand(cards)
    assert "\x03" in colored
    assert mirc_to_ansi(colored, ansi=False) == Cards(False).hand(cards)
    ansi = mirc_to_ansi(colored, ansi=True)
    assert "\x1b[0;30;101mR5\x1b[0m" in ansi and "\x1b[0;97;40mW\x1b[0m" in ansi  # not bold
    assert re.sub(r"\x1b\[[0-9;]*m", "", ansi) == Cards(False).hand(cards)


class _Stream(io.StringIO):
    def __init__(self, tty: bool) -> None:
        super().__init__()
        self._tty = tty

    def isatty(self) -> bool:
        return self._tty


def test_use_color() -> None:
    tty, pipe = _Stream(True), _Stream(False)
    assert use_color("always", pipe, {}) is True
    assert use_color("never", tty, {}) is False
    assert use_color("auto", tty, {"TERM": "xterm"}) is True
    assert use_color("auto", pipe, {"TERM": "xterm"}) is False
    assert use_color("auto", tty, {"NO_COLOR": "1"}) is False
    assert use_color("auto", tty, {"TERM": "dumb"}) is False


# --- options ---------------------------------------------------------------------------------


def test_hard_budget_comes_from_the_environment() -> None:
    assert hard_budget({}) == 200.0
    assert hard_budget({HARD_BUDGET_ENV: "5"}) == 5.0
    assert hard_budget({HARD_BUDGET_ENV: "0"}) == 200.0  # out of range: the default
    assert hard_budget({HARD_BUDGET_ENV: "lots"}) == 200.0


def test_defaults(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("getpass.getuser", lambda: "alice")
    assert parse_args([]) == PlayOptions(nick="alice")
    assert PlayOptions().bots == 3 and PlayOptions().level == "normal"
    assert PlayOptions().database is None  # no stats unless asked


@pytest.mark.parametrize(
    ("login", "nick"), [("bob", "bob"), ("1st user", "you"), ("unobot", "you")]
)
def test_default_nick_is_the_login_name_if_usable(
    monkeypatch: pytest.MonkeyPatch, login: str, nick: str
) -> None:
    monkeypatch.setattr("getpass.getuser", lambda: login)
    assert parse_args([]).nick == nick


def test_every_option() -> None:
    argv = "--bots 2 --level hard --preset official --seed 7 --nick Ann --color always "
    argv += "--delay 0 --database sqlite:///x.db"
    options = parse_args(argv.split())
    assert options == PlayOptions(2, "hard", "official", 7, "Ann", "always", 0.0, "sqlite:///x.db")


def test_a_whole_match_of_two_teams_with_computer_teammates() -> None:
    """``--preset two-teams --bots 5``: seats alternate in join order, so you, NormalBot2 and
    NormalBot4 are team A; hands and the match to 500 are won by a team."""
    proc = _start("--bots 5 --level normal --preset two-teams --seed 6 --delay 0 --color never")
    try:
        screen = play_to_the_end(proc, seed=6, call_uno=True)
        dealt = " ".join(screen.lines)
        assert re.search(
            r"Uno \(two-teams\) \[to 500 points\]: .*two teams, seats alternating: team A \S+, "
            r"NormalBot2, NormalBot4; team B NormalBot1, NormalBot3, NormalBot5",
            dealt,
        ), dealt[:600]
        assert any(re.search(r"Team [AB] wins the match!", line) for line in screen.lines)
        _finish(proc, screen)
    finally:
        proc.kill()


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--bots", "0"], "--bots must be 1 to 9"),
        (["--bots", "10"], "--bots must be 1 to 9"),
        (["--preset", "knockout", "--bots", "4"], "knockout is for 2-4 players: --bots 1 to 3"),
        (["--preset", "bac-tournament", "--bots", "1"], "--bots 3 to 4"),
        (["--preset", "teams", "--bots", "4"], "teams is for 4 or 6 players: --bots 3 or 5"),
        (
            ["--preset", "two-teams", "--bots", "4"],
            "two-teams is for 4, 6, 8 or 10 players: --bots 3, 5, 7 or 9",
        ),
        (["--delay", "61"], "--delay must be 0 to 60"),
        (["--delay", "-1"], "--delay must be 0 to 60"),
        (["--delay", "nan"], "--delay must be 0 to 60"),
        (["--nick", "1abc"], "not a usable IRC nick"),
        (["--nick", "UnoBot"], "not a usable IRC nick"),
        (["--nick", "HardBot2"], "not a usable IRC nick"),
        (["--level", "insane"], "invalid choice"),
        (["--preset", "nope"], "invalid choice"),
        (["--color", "sometimes"], "invalid choice"),
    ],
)
def test_bad_options_are_refused(
    argv: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as exc:
        parse_args(argv)
    assert exc.value.code == 2
    assert message in capsys.readouterr().err


# --- transport, scheduler, session -----------------------------------------------------------


def test_transport_shows_only_what_the_human_would_see() -> None:
    out: list[str] = []
    transport = TerminalTransport(out.append, "you", color=False)
    transport.privmsg("#uno", "\x0304R5\x0f played")
    transport.notice("you", "Your cards (1): \x0303G2\x0f")
    transport.notice("YOU", "case-insensitive, as IRC nicks are")
    transport.notice("NormalBot1", "Your cards (7): R1 R2 R3 R4 R5 R6 R7")  # never shown
    transport.privmsg("bob", "a private line to someone else")
    transport.privmsg("you", "a private line to you")
    assert out == [
        "<unobot> R5 played",
        "-unobot- Your cards (1): G2",
        "-unobot- case-insensitive, as IRC nicks are",
        "*unobot* a private line to you",
    ]


def test_the_humans_turn_is_said_to_them() -> None:
    assert second_person("First card Y3. me's turn.", "me") == "First card Y3. Your turn."
    assert second_person("Top: R5. me's turn. UNO: Bot1.", "me") == "Top: R5. Your turn. UNO: Bot1."
    assert second_person("Top: W. me picks the colour (.color r/y/g/b).", "me").endswith(
        ". You pick the colour (.color r/y/g/b)."
    )
    assert second_person("Top: RD2. me must draw 2 (.draw).", "me") == (
        "Top: RD2. You must draw 2 (.draw)."
    )
    roulette = (
        "Top: WCR. me: name a colour for the roulette (.color r/y/g/b), then draw until it comes."
    )
    assert second_person(roulette, "me") == (
        "Top: WCR. Name a colour for the roulette (.color r/y/g/b), then draw until it comes."
    )
    assert (
        second_person(
            "Top: WCR. me: nenn eine Farbe für das Roulette (.color r/y/g/b) und zieh, bis sie "
            "kommt.",
            "me",
            "de",
        )
        == "Top: WCR. Nenn eine Farbe für das Roulette (.color r/y/g/b) und zieh, bis sie kommt."
    )
    assert second_person("\x02Top:\x0f me's turn.", "me") == "\x02Top:\x0f Your turn."
    # What the human did, and other players' turns (even with a nick that ends in theirs),
    # read as on IRC.
    for same in ("me plays R5. Bot1's turn.", "fame's turn.", "me_'s turn.", "[me]'s turn."):
        assert second_person(same, "me") == same
    assert second_person("a[b]'s turn.", "a[b]") == "Your turn."


def test_transport_says_the_turn_to_the_human_only() -> None:
    out: list[str] = []
    transport = TerminalTransport(out.append, "me", color=False)
    transport.privmsg("#uno", "Top: R5. me's turn.")
    transport.notice("me", "Cards: me 7, Bot1 6. Top: R5. me's turn.")
    assert out == [
        "<unobot> Top: R5. Your turn.",
        "-unobot- Cards: me 7, Bot1 6. Top: R5. Your turn.",
    ]


def test_my_turn_follows_the_game_and_redraws_the_prompt() -> None:
    game, _ = _session(bots=2, seed=2)
    redraws: list[None] = []
    game.on_change = lambda: redraws.append(None)
    assert not game.my_turn()  # no game yet
    game.start()  # the first turn is the human's (seed 2)
    assert game.my_turn() and redraws
    game.line(".unostop")
    assert not game.my_turn()
    game.loop.close()


def test_transport_colours_the_sender_and_cards() -> None:
    out: list[str] = []
    TerminalTransport(out.append, "you", color=True).privmsg("#uno", "\x0304R5\x0f")
    assert out == ["\x1b[1m<unobot>\x1b[0m \x1b[0;91mR5\x1b[0m"]


def test_loop_scheduler_runs_in_order_cancels_and_calls_after() -> None:
    loop = asyncio.new_event_loop()
    fired: list[str] = []
    after: list[int] = []
    scheduler = LoopScheduler(loop, after=lambda: after.append(len(fired)))
    scheduler.call_later(0.02, lambda: fired.append("b"))
    scheduler.call_later(0.0, lambda: fired.append("a"))
    gone = scheduler.call_later(0.01, lambda: fired.append("cancelled"))
    scheduler.cancel(gone)
    scheduler.cancel("not a handle")  # ignored
    start = scheduler.now()
    # From another thread, as a computer player thinking off-thread would.
    worker = threading.Thread(
        target=lambda: scheduler.call_later(0.03, lambda: (fired.append("c"), loop.stop()))
    )
    worker.start()
    worker.join()
    loop.run_forever()
    loop.close()
    assert fired == ["a", "b", "c"]
    assert after == [1, 2, 3]
    assert scheduler.now() - start >= 0.03


def _session(**options: object) -> tuple[TerminalGame, list[str]]:
    out: list[str] = []
    loop = asyncio.new_event_loop()
    opts = PlayOptions(**{"seed": 1, "delay": 0.0, "color": "never", **options})  # type: ignore[arg-type]
    return TerminalGame(opts, loop, out.append, color=False, echo=True), out


def test_session_deals_shows_own_hand_only_and_offers_a_new_game() -> None:
    game, out = _session(bots=1)
    game.say(".uno")
    game.bot.handle(Incoming(Kind.MESSAGE, "bob", "#uno", ".join"))  # a second person
    game.say(".deal")
    assert "<you> .uno" in out and "<you> .deal" in out
    assert any(line.startswith("<unobot> Uno (irc-classic): you, bob") for line in out)
    hands = [line for line in out if "Your cards (" in line]
    assert len(hands) == 1 and hands[0].startswith("-unobot- ")  # bob's hand is never shown
    game.line(".top\n")
    assert out[-2] == "<you> .top" and re.match(r"-unobot- Top: \S+\. ", out[-1])
    game.line("   \n")  # nothing
    game.line("/msg unobot .cards")
    assert out[-1].startswith("*** /msg is not known here: type commands as in the channel")
    game.line(".unostop")
    assert any(line.startswith("<unobot> you stopped the game.") for line in out), out[-4:]
    assert out[-1].startswith("*** Game over. .new deals another")
    assert not game.done.done()
    game.line(".quit")
    assert game.done.done()
    game.loop.close()


_SGR = re.compile(r"\x1b\[([0-9;]*)m")


def bold_words(line: str) -> list[str]:
    """The words a terminal shows in bold (each escape sets the whole style from a reset)."""
    bold, words, pos = False, [], 0
    for m in [*_SGR.finditer(line), None]:
        end = m.start() if m is not None else len(line)
        if bold:
            words += line[pos:end].split()
        if m is None:
            break
        bold, pos = "1" in m.group(1).split(";"), m.end()
    return words


def test_bold_in_the_terminal_marks_the_playable_cards_and_nothing_else() -> None:
    """Issue 37: a wild was bold in every hand and a turn's playable card was bold too. In
    ``unobot play`` with colour, as on IRC: the hand ``.cards`` shows on the human's turn has
    exactly the cards they may play in bold, any other hand nothing bold; a wild is a
    white-on-black card."""
    out: list[str] = []
    loop = asyncio.new_event_loop()
    opts = PlayOptions(seed=3, delay=0.0, color="always", bots=1)
    game = TerminalGame(opts, loop, out.append, color=True, echo=True)
    game.say(".uno")
    game.bot.handle(Incoming(Kind.MESSAGE, "bob", "#uno", ".join"))
    game.say(".deal")
    table = game.bot.tables["#uno"]
    checked = {"turn": 0, "other": 0}
    wild_seen = False
    for _ in range(60):
        g = table.game
        if g is None or g.over or not game.bot.tables:
            break
        mover = table.players[g.current].nick
        if mover == "you":
            before = len(out)
            game.say(".cards")
            (hand,) = [line for line in out[before:] if "Your cards" in line]
            cards = [w for w in _SGR.sub("", hand).split(": ", 1)[1].split()]
            wild_seen |= any(c.startswith("W") for c in cards)
            if g.phase.name in ("PLAY", "PENDING"):
                legal = {a.card.text for a in g.legal_actions() if type(a) is Play}
                assert sorted(bold_words(hand.split(": ", 1)[1])) == sorted(legal), hand
                checked["turn"] += 1
        legal = g.legal_actions()
        action = next((a for a in legal if type(a) is Play), legal[0])
        command = ".draw" if type(action) is not Play else f".play {action.card.text.lower()}"
        if type(action) is Play and action.color is not None:
            command += f" {action.color.letter.lower()}"
        if type(action) is Pass:
            command = ".pass"
        if mover == "you":
            game.say(command)
        else:
            game.bot.handle(Incoming(Kind.MESSAGE, mover, "#uno", command))
    for line in out:
        if "Your cards" in line and "Your turn" not in line:
            assert bold_words(line.split(": ", 1)[-1]) == [], line
            checked["other"] += 1
    assert checked["turn"] >= 5 and checked["other"] >= 1, checked
    if wild_seen:
        assert "\x1b[0;97;40mW" in "".join(out)
    loop.close()


def test_new_refuses_while_a_game_is_on() -> None:
    game, out = _session()
    game.say(".uno")
    game.line(".new")
    assert out[-1] == "*** A game is on: .unostop ends it, then .new starts another."
    game.loop.close()


# --- whole games in a subprocess -------------------------------------------------------------

_TURN_TIMEOUT = 60.0
"""Seconds the scripted human waits for any one answer (a loaded CI machine is slow)."""


class Screen:
    """The program's output, read line by line on a thread (so a read can time out)."""

    def __init__(self, proc: subprocess.Popen[str]) -> None:
        self.proc = proc
        self.lines: list[str] = []
        self._queue: queue.Queue[str | None] = queue.Queue()
        threading.Thread(target=self._pump, daemon=True).start()

    def _pump(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            self._queue.put(line.rstrip("\n"))
        self._queue.put(None)

    def next(self, timeout: float = _TURN_TIMEOUT) -> str | None:
        """The next line; None at the end of the output. Fails after ``timeout`` seconds."""
        try:
            line = self._queue.get(timeout=timeout)
        except queue.Empty:
            tail = "\n".join(self.lines[-15:])
            pytest.fail(f"no output for {timeout}s; last lines:\n{tail}")
        if line is not None:
            self.lines.append(line)
        return line


def _start(
    args: str, env_extra: dict[str, str] | None = None, cwd: Path = ROOT
) -> subprocess.Popen[str]:
    """``python unobot.py play ARGS`` with pipes for stdin, stdout and stderr."""
    env = {**os.environ, "PYTHONUNBUFFERED": "1", **(env_extra or {})}
    env.pop("NO_COLOR", None)
    return subprocess.Popen(
        [sys.executable, str(ROOT / "unobot.py"), "play", *args.split()],
        cwd=cwd,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
    )


def _type(proc: subprocess.Popen[str], text: str) -> None:
    assert proc.stdin is not None
    proc.stdin.write(text + "\n")
    proc.stdin.flush()


_HINT = re.compile(r"You drew [^|]+\| (?:You may play|You must play|Play) ")
_YOU = {
    "Your turn.": "'s turn.",
    "You pick the colour": " picks the colour",
    "You must draw": " must draw",
}


def third_person(text: str, nick: str) -> str:
    """The status as the channel says it (``me's turn.``), from the terminal's ``Your turn.``,
    for the agent that reads statuses the IRC way."""
    return re.sub("|".join(map(re.escape, _YOU)), lambda m: nick + _YOU[m.group(0)], text)


def play_to_the_end(
    proc: subprocess.Popen[str], seed: int = 1, *, call_uno: bool = False
) -> Screen:
    """A scripted human: reads only the screen (the channel and their own NOTICEs), types only
    legal moves, until the game (a single hand or a whole match) is won and the program offers
    a new game. ``call_uno``: add ``uno`` to the next-to-last card (manual UNO calls).

    To act on a fresh hand it asks ``.cards`` when its turn comes and decides on the answer
    (the reply follows the echo of its own line, so no timing guesses are involved)."""
    screen = Screen(proc)
    nick = ""
    agent = Agent(nick, Random(seed), call_uno=call_uno, follow_hints=True)
    channel: list[str] = []
    drew = False
    asked = False  # .cards sent for this turn, answer not yet read
    moves = 0
    winner = None
    while True:
        line = screen.next()
        assert line is not None, "the program ended before the game did"
        assert "Traceback" not in line
        if line.startswith("<unobot> "):
            assert not nick or f"{nick}'s turn" not in line, "the human's turn is said to them"
            channel.append(third_person(line[9:], nick))
            if re.search(r"\bwins the (hand|match)\b", line):
                winner = line
        elif line.startswith("-unobot- "):
            text = line[9:]
            assert "Your cards" in text or text.startswith("Cards: "), f"refused: {line}"
            agent.read_notice(text)
            if text.startswith("Cards: "):
                channel.append(
                    third_person(text[7:], nick)
                )  # the status it ends with is the freshest
                asked = False
            elif drew and not asked and _HINT.match(text):
                # The drawn card may be played: the turn is still ours, and the channel says
                # nothing until we act (one line per turn). Ask for the table to decide.
                _type(proc, ".cards")
                asked = True
                continue
            else:
                continue  # the status line (".cards" answer) follows the hand
        elif line.startswith("*** Game over"):
            assert winner is not None, "game over without a winner line"
            return screen
        else:
            if m := re.match(r"\*\*\* Uno in #uno: you are (\S+),", line):
                nick = agent.nick = m.group(1)
            continue
        # A long line is split between words: the status may begin on the line before.
        text = " ".join(channel[-2:])
        start = max(text.rfind("Top: "), text.rfind("First card "))  # the deal says the latter
        seen = read_status([text[start:]]) if start >= 0 else None
        if seen is None or seen.turn != nick:
            if seen is not None:
                drew = False
            continue
        if asked:
            continue
        if not line.startswith("-unobot- Cards: "):
            _type(proc, ".cards")
            asked = True
            continue
        if seen.phase == "picks":
            command = ".color r"
        elif seen.phase == "must":
            command = ".draw"
        else:
            command = agent.choose(seen.top, seen.color, drew)
        drew = command == ".draw"
        _type(proc, command)
        if command.startswith((".p ", ".play ")):
            agent.played(command)
        moves += 1
        assert moves < 2000, "the game should have ended"


def _finish(proc: subprocess.Popen[str], screen: Screen) -> None:
    """EOF on stdin ends the program cleanly: status 0, no traceback."""
    assert proc.stdin is not None
    proc.stdin.close()
    assert proc.wait(timeout=30) == 0
    while screen.next(timeout=10) is not None:
        pass
    assert proc.stderr is not None
    assert proc.stderr.read() == ""


def test_a_whole_game_against_easy_computers() -> None:
    proc = _start("--bots 3 --level easy --seed 1 --delay 0 --color never")
    try:
        screen = play_to_the_end(proc)
        dealt = next(line for line in screen.lines if line.startswith("<unobot> Uno ("))
        assert dealt.count(",") == 3  # you and three computer players
        assert not any("\x1b" in line or "\x03" in line for line in screen.lines)
        _type(proc, ".new")  # the same players again
        while not (line := screen.next() or "").startswith("<unobot> Uno ("):
            pass
        assert line.count(",") == 3
        _finish(proc, screen)
    finally:
        proc.kill()


def test_a_whole_game_against_hard_computers() -> None:
    proc = _start(
        "--bots 3 --level hard --seed 2 --delay 0 --color never",
        env_extra={HARD_BUDGET_ENV: "5"},
    )
    try:
        started = time.monotonic()
        screen = play_to_the_end(proc, seed=2)
        assert time.monotonic() - started < 120
        _finish(proc, screen)
    finally:
        proc.kill()


def test_a_whole_match_with_manual_uno_calls() -> None:
    """``official``: hands follow each other to 500 points, UNO is called by hand (computer
    players catch a missed call), a Wild Draw Four may be challenged (the script draws)."""
    proc = _start("--bots 2 --level normal --preset official --seed 4 --delay 0 --color never")
    try:
        screen = play_to_the_end(proc, seed=4, call_uno=True)
        assert any("hand 2: " in line for line in screen.lines)
        assert any(re.search(r"wins the match! Totals: ", line) for line in screen.lines)
        _finish(proc, screen)
    finally:
        proc.kill()


def test_a_whole_teams_match_with_a_computer_partner() -> None:
    """``--preset teams`` (the old name of ``pairs``): you and the first computer player are
    partners (join order), sat opposite; hands are won for the team and the match to 500 by a
    team."""
    proc = _start("--bots 3 --level normal --preset teams --seed 6 --delay 0 --color never")
    try:
        screen = play_to_the_end(proc, seed=6, call_uno=True)
        dealt = next(line for line in screen.lines if line.startswith("<unobot> Uno (pairs)"))
        assert re.search(
            r"teams \(partners opposite\): \S+ \+ NormalBot1; NormalBot2 \+ NormalBot3", dealt
        )
        assert any(re.search(r"Team \S+ \+ \S+ wins the match!", line) for line in screen.lines)
        _finish(proc, screen)
    finally:
        proc.kill()


def test_colour_always_writes_ansi_and_quit_ends() -> None:
    proc = _start("--bots 1 --seed 3 --delay 0 --color always")
    try:
        screen = Screen(proc)
        while True:
            line = screen.next()
            assert line is not None
            if "Your cards" in line:
                break
        assert "\x1b[" in line and "\x03" not in line
        _type(proc, ".quit")
        assert proc.wait(timeout=30) == 0
        assert proc.stderr is not None and proc.stderr.read() == ""
    finally:
        proc.kill()


def test_end_of_input_mid_game_leaves_at_once() -> None:
    """Ctrl-D with computer players' moves still to come: no waiting for them, no traceback."""
    proc = _start("--bots 2 --seed 5 --delay 30 --color never")
    try:
        screen = Screen(proc)
        while "Your cards" not in (screen.next() or "Your cards"):
            pass
        started = time.monotonic()
        _finish(proc, screen)
        assert time.monotonic() - started < 10
    finally:
        proc.kill()


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")
def test_ctrl_c_leaves_without_a_traceback() -> None:
    proc = _start("--bots 1 --seed 6 --delay 30 --color never")
    try:
        screen = Screen(proc)
        while "Your cards" not in (screen.next() or "Your cards"):
            pass
        proc.send_signal(signal.SIGINT)
        assert proc.wait(timeout=30) == 0
        assert proc.stderr is not None and proc.stderr.read() == ""
    finally:
        proc.kill()


def test_a_wrong_database_url_is_one_line_and_status_2(capsys: pytest.CaptureFixture[str]) -> None:
    assert run(PlayOptions(database="foo://bar"), io.StringIO(""), io.StringIO()) == 2
    err = capsys.readouterr().err
    assert err.startswith("unobot play: can't open --database foo://bar: ")
    assert err.count("\n") == 1


def test_games_are_recorded_only_with_a_database(tmp_path: Path) -> None:
    """With ``--database`` the finished game is in the stats; without it nothing is written
    (the program runs in an empty directory, which stays empty)."""
    url = f"sqlite:///{tmp_path / 'stats.db'}"
    proc = _start(f"--bots 2 --level easy --seed 5 --delay 0 --color never --database {url}")
    try:
        screen = play_to_the_end(proc, seed=5)
        _type(proc, ".unostats")
        while not (line := screen.next() or "").startswith("<unobot> "):
            pass
        assert re.search(r": 1 game, [01] wins? ", line), line
        _finish(proc, screen)
    finally:
        proc.kill()
    assert (tmp_path / "stats.db").exists()

    empty = tmp_path / "empty"
    empty.mkdir()
    proc = _start("--bots 1 --level easy --seed 5 --delay 0 --color never", cwd=empty)
    try:
        screen = play_to_the_end(proc, seed=5)
        _type(proc, ".unostats")
        while not (line := screen.next() or "").startswith("-unobot- "):
            pass
        _finish(proc, screen)
    finally:
        proc.kill()
    assert list(empty.iterdir()) == []


# --- a real terminal: line editing, history, the turn cue ------------------------------------

_PTY_TIMEOUT = 20.0
"""Seconds to wait for any one thing on the pseudo-terminal (a loaded CI machine is slow)."""
_ROWS, _COLS = 200, 240
_TURN_HAND = re.compile(r"-unobot- Your turn \| Your cards \(\d+\): ([^\r\n]*)")
_DREW = re.compile(r"You drew \S+ \| (?:You must play|You may play|Play) (\S+)")
_PICK = re.compile(r"You pick the colour")
_OVER = re.compile(r"\*\*\* Game over")


class _Emulator:
    """What the terminal shows: pexpect's read log fed to pyte, a VT100 emulator."""

    def __init__(self, rows: int = _ROWS, cols: int = _COLS) -> None:
        import pyte

        self.screen = pyte.Screen(cols, rows)
        self._stream = pyte.Stream(self.screen)

    def write(self, text: str) -> None:
        self._stream.feed(text)

    def flush(self) -> None:
        pass

    def rows(self) -> list[str]:
        return [row.rstrip() for row in self.screen.display if row.strip()]


def _spawn(args: str) -> tuple[pexpect.spawn, _Emulator]:
    """``unobot play ARGS`` on a new pseudo-terminal, as a person at a terminal runs it."""
    env = {**os.environ, "TERM": "xterm", HARD_BUDGET_ENV: "5"}
    env.pop("NO_COLOR", None)
    # pexpect answers no cursor position request (a terminal does): without this,
    # prompt_toolkit waits for the answer, then prints a warning.
    env["PROMPT_TOOLKIT_NO_CPR"] = "1"
    child = pexpect.spawn(
        sys.executable,
        [str(ROOT / "unobot.py"), "play", "--nick", "me", "--color", "never", *args.split()],
        cwd=str(ROOT),
        env=env,
        encoding="utf-8",
        timeout=_PTY_TIMEOUT,
        dimensions=(_ROWS, _COLS),
    )
    emulator = _Emulator()
    child.logfile_read = emulator
    return child, emulator


def _enter(child: pexpect.spawn, text: str) -> None:
    child.send(text + "\r")  # Enter is a carriage return on a terminal in raw mode


def _card_command(card: str) -> str:
    card = card.lower()
    return f".p {card} r" if card.startswith("w") else f".p {card}"


def _take_turn(child: pexpect.spawn) -> int:
    """Wait for the next thing to act on and act: the turn's hand (play its first playable
    card, else draw), a drawn card that may be played (play it, or pass), a colour to pick,
    or the end of the game. Returns which (the index into the patterns)."""
    seen = child.expect([_TURN_HAND, _DREW, _PICK, _OVER])
    if seen == 0:
        playable = re.findall(r"\[(\w+)\]", child.match.group(1))
        _enter(child, _card_command(playable[0]) if playable else ".d")
    elif seen == 1:
        card = child.match.group(1)
        _enter(child, ".pa" if card == "any" else _card_command(card))
    elif seen == 2:
        _enter(child, ".color r")
    return seen


def _leave(child: pexpect.spawn, key: str = "\x04") -> None:
    """Ctrl-D on an empty line (or Ctrl-C) leaves with status 0 and no traceback."""
    child.send(key)
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    assert "Traceback" not in (child.before or "")


def test_a_move_arriving_mid_line_leaves_the_line_whole_and_up_recalls_it() -> None:
    """The issue's broken line (``.car<unobot> NormalBot2 plays RD2, …`` then ``ds``): half a
    command typed, a computer's move printed, the rest typed: the move goes above the
    prompt, the command runs whole, and the screen shows it on one line."""
    child, emulator = _spawn("--bots 2 --level easy --seed 2 --delay 1")
    try:
        # Seed 2: the human leads with a playable card; then the computers take a second each.
        child.expect(r"First card \S+\. Your turn\.")
        assert _take_turn(child) == 0
        child.expect(r"<unobot> me plays [^\r\n]*EasyBot1's turn\.")
        child.send(".car")
        child.expect(r"<unobot> EasyBot1 (plays|draws)")  # printed while ".car" is typed
        child.send("ds\r")
        child.expect(r"-unobot- Cards: me 6, ")  # .cards ran as one word
        child.expect(r"-unobot- Your turn \| Your cards")  # the computers are done
        rows = emulator.rows()
        moved = next(i for i, row in enumerate(rows) if row.startswith("<unobot> EasyBot1 "))
        typed = next(i for i, row in enumerate(rows) if row.endswith("> .cards"))
        assert typed > moved, "the move is printed above the line being typed"
        assert re.fullmatch(r"(your turn)?> \.cards", rows[typed])
        assert not any(".car<" in row or row == "ds" for row in rows), rows

        # History: Up (the terminal's escape sequence) recalls .cards, Enter runs it again.
        child.send("\x1b[A")
        child.send("\r")
        child.expect(r"-unobot- Cards: me 6, ")
        child.expect(r"your turn>")  # the cue: the game waits for the human
        assert sum(row.endswith("> .cards") for row in emulator.rows()) == 2
        child.send(".to")
        _leave(child, "\x03")  # Ctrl-C, mid-line and mid-game
    finally:
        child.close(force=True)


def test_a_whole_game_in_a_terminal_with_the_turn_cue() -> None:
    child, emulator = _spawn("--bots 2 --level easy --seed 5 --delay 0")
    try:
        moves = 0
        while _take_turn(child) != 3:
            moves += 1
            assert moves < 300, "the game should have ended"
        child.expect(r"\.quit leaves\.")
        # The prompt, drawn again after the last line: no longer the turn cue.
        child.expect(r"\x1b\[J\x1b\[0m(your turn)?>")
        assert child.match.group(1) is None
        rows = emulator.rows()
        assert any(re.search(r"\bwins the (hand|match)\b", row) for row in rows)
        assert rows[-2].startswith("*** Game over. .new deals another")
        # The turn is said to the human, and the prompt says when it is theirs.
        assert any(row.endswith("Your turn.") for row in rows)
        assert not any("me's turn" in row for row in rows)
        assert any(row.startswith("your turn> ") for row in rows)
        assert rows[-1] == ">"  # the game is over: nobody's turn
        _leave(child)
    finally:
        child.close(force=True)


def _rigged_session(
    preset: str, top: str, hands: dict[str, str], mover: int = 0
) -> tuple[TerminalGame, list[str], tuple[str, ...]]:
    """A game of ann (the human), bob and carol whose dealt hand is replaced by an exact
    position (the seats as dealt; ``mover`` seats after ann is to move); returns the nicks in
    seat order too."""
    from unobot.engine.notation import parse_position

    game, out = _session(preset=preset, nick="ann")
    game.say(".uno")
    for nick in ("bob", "carol"):  # two more people in the pseudo-channel
        game.bot.handle(Incoming(Kind.MESSAGE, nick, "#uno", ".join"))
    game.say(".deal")
    table = game.bot.tables[irc_lower("#uno")]
    assert table.match is not None
    names = table.names
    first = names[(names.index("ann") + mover) % len(names)]
    seats = " | ".join(f"{n}{'*' if n == first else ''}: {hands[n]}" for n in names)
    position = f"top={top} | {seats} | pile=" + "B9 " * 12
    dealt, seated = parse_position(position, table.config.rules, Random(1))
    assert tuple(seated) == names
    table.match.game = dealt
    table._new_turn(game.scheduler.now())
    return game, out, table.names


def test_seven_o_swap_prompt_and_swap_in_the_terminal() -> None:
    hands = {"ann": "R7 R0 G1 G2", "bob": "G3 G4", "carol": "Y1 Y2 Y3"}
    game, out, _names = _rigged_session("seven-o", "R5", hands)
    game.say(".p r7")
    said = "<unobot> ann plays R7. Swap with whom? .swap <nick>. Top: R7. Your turn."
    assert said in out, out[-4:]
    assert game.my_turn()  # the prompt stays on the human: the swap is theirs to name
    mark = len(out)
    game.say(".swap carol")
    new = out[mark:]
    assert any("ann swaps hands with carol" in line for line in new), new
    assert "-unobot- Your cards (3): Y1 Y2 Y3" in new, new
    assert not any("G1 G2" in line for line in new)  # carol's new hand is not shown here
    game.loop.close()


def test_jump_in_out_of_turn_in_the_terminal() -> None:
    hands = {"ann": "R5 Y3 Y4", "bob": "R5 G1 G2", "carol": "R5 G3 G4"}
    # The seat after ann plays R5; then it is the third's turn, and ann jumps in.
    game, out, names = _rigged_session("jump-in", "R9", hands, mover=1)
    after = names[(names.index("ann") + 1) % 3]  # play goes on from the jumper: to them
    game.bot.handle(Incoming(Kind.MESSAGE, after, "#uno", ".p r5"))
    assert not game.my_turn()
    game.say(".p r5")  # out of turn: a jump
    line = next(t for t in out[-3:] if t.startswith("<unobot> "))
    assert "ann jumps in with R5" in line and f"Top: R5. {after}'s turn." in line, line
    game.loop.close()


def test_play_preset_no_mercy_deals_the_168_card_deck() -> None:
    game, out = _session(bots=2, preset="no-mercy")
    game.start()  # .uno, .addbot per computer, .deal: as the program does
    assert any(line.startswith("<unobot> Uno (no-mercy): you, ") for line in out), out[-6:]
    table = next(iter(game.bot.tables.values()))
    dealt = table.game
    assert dealt is not None and dealt.rules.mercy_limit == 25
    assert sum(dealt.counts()) + len(dealt.draw_pile) + len(dealt.discard) == 168
    game.line(".unostop")
    game.line(".quit")
    game.loop.close()
