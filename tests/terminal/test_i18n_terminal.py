"""``unobot play`` in every language: the choice of language (``--lang``, the locale), the
program's own lines (domain ``terminal``) in it, the bot it runs speaking it, and whole games
in a real pseudo-terminal in each language.

The game's own lines (domain ``game``) are translated on another branch: these tests assert on
this domain's text, and drive the game by what does not depend on any language (card codes,
the ``|`` between the parts of a hand notice, the playable cards' ``[marks]``), so they hold
before and after the game's translations arrive."""

from __future__ import annotations

import asyncio
import os
import re
import sys
from pathlib import Path

import pexpect
import pytest

from tests.terminal.test_terminal import _Emulator
from unobot.core.render_irc import Cards, status_text
from unobot.core.updates import Status
from unobot.engine import Phase
from unobot.engine.cards import Card, Color
from unobot.i18n import LANGUAGES, domain, speaking
from unobot.i18n.catalogs import PLACEHOLDER, _read, check, extract
from unobot.terminal.game import TerminalGame
from unobot.terminal.options import (
    HARD_BUDGET_ENV,
    PlayOptions,
    language_from_env,
    parse_args,
)
from unobot.terminal.prompt import TURN_PROMPT
from unobot.terminal.transport import N_YOU_PICK, N_YOUR_TURN, second_person

ROOT = Path(__file__).resolve().parents[2]
TRANSLATED = tuple(lang for lang in LANGUAGES if lang != "en")
LOCALE_VARIABLES = ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG")

_, ngettext = domain("terminal")

GAME_OVER = (
    "Game over. .new deals another with the same players (or .uno, .addbot "
    "[easy|normal|hard], .deal to set one up yourself); .quit leaves."
)
TYPE_AS_ON_IRC = (
    "Type as on IRC: .p r5 / .p w g (wild, green) / .d (draw) / .pa (pass) / "
    ".cards / .top / .unohelp; .quit or Ctrl-D leaves."
)


@pytest.fixture(autouse=True)
def _no_locale(monkeypatch: pytest.MonkeyPatch) -> None:
    """Each test says which language it wants; the runner's own locale plays no part."""
    for name in LOCALE_VARIABLES:
        monkeypatch.delenv(name, raising=False)


def english_fragments(lang: str) -> list[str]:
    """The English of every ``terminal`` message, cut at its placeholders, that may not be
    seen in ``lang``: pieces of a few words that no translation in ``lang`` contains (command
    lists such as ``.p r5 / .p w g`` are the same in every language and don't count)."""
    catalog = _read(str(ROOT / f"unobot/locale/{lang}/LC_MESSAGES/terminal.po"), lang, "terminal")
    translated = " ".join(
        " ".join(m.string) if isinstance(m.string, tuple) else m.string for m in catalog if m.id
    )
    pieces: list[str] = []
    for message in extract("terminal"):
        for text in message.id if isinstance(message.id, tuple) else (message.id,):
            for piece in PLACEHOLDER.split(text):
                piece = piece.strip()  # "Your turn." whole: the hand says "Your turn |"
                if len(piece) >= 8 and re.search("[a-z]{3}", piece) and piece not in translated:
                    pieces.append(piece)
    return pieces


# --- the language: --lang, else the environment ------------------------------------------------


@pytest.mark.parametrize(
    ("environ", "lang"),
    [
        ({}, "en"),
        ({"LANG": "de_DE.UTF-8"}, "de"),
        ({"LANG": "pl_PL.UTF-8"}, "pl"),
        ({"LANG": "pt_BR.UTF-8"}, "pt_BR"),
        ({"LANG": "fr_CA"}, "fr"),
        ({"LANG": "de_AT@euro"}, "de"),
        ({"LANG": "it_IT.ISO-8859-1"}, "it"),
        ({"LANG": "es"}, "es"),
        # gettext's order: LANGUAGE, then LC_ALL, then LC_MESSAGES, then LANG; the first set wins.
        ({"LC_ALL": "fr_FR.UTF-8", "LANG": "de_DE.UTF-8"}, "fr"),
        ({"LC_MESSAGES": "es_ES.UTF-8", "LANG": "de_DE.UTF-8"}, "es"),
        ({"LC_ALL": "it_IT.UTF-8", "LC_MESSAGES": "es_ES.UTF-8"}, "it"),
        ({"LANGUAGE": "pl", "LC_ALL": "de_DE.UTF-8"}, "pl"),
        ({"LANGUAGE": "", "LANG": "pl_PL.UTF-8"}, "pl"),  # set but empty: not a choice
        # LANGUAGE lists preferences: the first shipped one.
        ({"LANGUAGE": "sv:nb:fr:de"}, "fr"),
        ({"LANGUAGE": "pt_BR:pt"}, "pt_BR"),
        # English on purpose, and unknown languages: English.
        ({"LANG": "C.UTF-8"}, "en"),
        ({"LANG": "POSIX"}, "en"),
        ({"LC_ALL": "C", "LANG": "de_DE.UTF-8"}, "en"),
        ({"LANG": "en_GB.UTF-8"}, "en"),
        ({"LANG": "ja_JP.UTF-8"}, "en"),
        ({"LANG": "sv_SE.UTF-8", "LC_MESSAGES": ""}, "en"),
        ({"LANG": "garbage!"}, "en"),
    ],
)
def test_language_from_the_environment(environ: dict[str, str], lang: str) -> None:
    assert language_from_env(environ) == lang


def test_lang_option_beats_the_environment() -> None:
    assert parse_args(["--nick", "ann"], {}).lang == "en"
    assert parse_args(["--nick", "ann"], {"LANG": "de_DE.UTF-8"}).lang == "de"
    assert parse_args(["--lang", "fr"], {"LANG": "de_DE.UTF-8"}).lang == "fr"
    assert parse_args(["--lang=pt-br"], {}).lang == "pt_BR"
    assert parse_args(["--lang", "Polski"], {}).lang == "pl"
    assert parse_args(["--lang", "en"], {"LANG": "de_DE.UTF-8"}).lang == "en"
    options = parse_args(["--lang", "it", "--bots", "2", "--nick", "ann"], {})
    assert options == PlayOptions(bots=2, nick="ann", lang="it")


def test_lang_from_os_environ(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LANG", "es_ES.UTF-8")
    assert parse_args(["--nick", "ann"]).lang == "es"


def test_an_unknown_lang_is_refused_with_the_known_ones(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exc:
        parse_args(["--lang", "klingon"], {"LANG": "de_DE.UTF-8"})
    assert exc.value.code == 2
    err = capsys.readouterr().err
    # In the environment's language, with every shipped code.
    assert "unbekannte Sprache 'klingon'; bekannt: en de fr es pt_BR it pl" in err


@pytest.mark.parametrize("lang", TRANSLATED)
def test_option_errors_in_every_language(lang: str, capsys: pytest.CaptureFixture[str]) -> None:
    cases = [
        (["--bots", "0"], "--bots must be 1 to 9", {}),
        (
            ["--preset", "knockout", "--bots", "4"],
            "{preset} is for {low}-{high} players: --bots {fewest} to {most}",
            {"preset": "knockout", "low": 2, "high": 4, "fewest": 1, "most": 3},
        ),
        (
            ["--preset", "teams", "--bots", "4"],
            "{preset} is for 4 or 6 players: --bots 3 or 5",
            {"preset": "teams"},
        ),
        (["--delay", "nan"], "--delay must be 0 to 60 seconds", {}),
        (["--nick", "1abc"], "--nick {nick} is not a usable IRC nick", {"nick": "'1abc'"}),
    ]
    for argv, message, params in cases:
        with pytest.raises(SystemExit) as exc:
            parse_args([*argv, "--lang", lang], {})
        assert exc.value.code == 2
        err = capsys.readouterr().err
        with speaking(lang):
            said = _(message, **params)
        assert said != message.format(**params), "translated"
        error = err.strip().splitlines()[-1]
        assert error == f"unobot play: error: {said}"


@pytest.mark.parametrize("lang", TRANSLATED)
def test_help_in_every_language(lang: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exc:
        parse_args(["--help", "--lang", lang], {})
    assert exc.value.code == 0
    shown = " ".join(capsys.readouterr().out.split())  # argparse wraps lines
    assert "--lang LANG" in shown and "en de fr es pt_BR it pl" in shown
    assert "±30%" in shown and "%%" not in shown  # argparse's %-formatting took the %%
    for piece in english_fragments(lang):
        assert piece not in shown, piece


# --- the session: the program's lines, the bot's language ----------------------------------------


def _session(lang: str, **options: object) -> tuple[TerminalGame, list[str]]:
    out: list[str] = []
    loop = asyncio.new_event_loop()
    chosen: dict[str, object] = {"seed": 2, "delay": 0.0, "color": "never", "nick": "me"}
    opts = PlayOptions(**{**chosen, "lang": lang, **options})  # type: ignore[arg-type]
    return TerminalGame(opts, loop, out.append, color=False, echo=True), out


def _welcome(lang: str, level: str) -> str:
    """The welcome line of a session of ``me`` against two computer players of ``level``."""
    with speaking(lang):
        return ngettext(
            "Uno in {channel}: you are {nick}, against {n} computer player ({level}); "
            "rules {preset}.",
            "Uno in {channel}: you are {nick}, against {n} computer players ({level}); "
            "rules {preset}.",
            2,
            channel="#uno",
            nick="me",
            level=level,
            preset="irc-classic",
        )


@pytest.mark.parametrize("lang", TRANSLATED)
def test_a_session_speaks_its_language(lang: str) -> None:
    game, out = _session(lang, bots=2)
    try:
        assert game.bot.config.language == lang
        assert game.bot.channel_language("#uno") == lang
        assert game.bot.person_language("me", "#uno") == lang
        game.welcome()
        game.start()  # seed 2: the human moves first
        assert game.my_turn()
        game.line(".new")
        game.line("/join #elsewhere")
        game.line(".unostop")
        with speaking(lang):
            expected = [
                _welcome(lang, "normal"),
                _(TYPE_AS_ON_IRC),
                _("A game is on: .unostop ends it, then .new starts another."),
                _(
                    "{command} is not known here: type commands as in the channel "
                    "(.p r5, .cards, .unohelp); .quit leaves.",
                    command="/join",
                ),
                _(GAME_OVER),
            ]
            yours = _(N_YOUR_TURN)
        own = [line[4:] for line in out if line.startswith("*** ")]
        assert own == expected
        # The deal's status is said to the human, in the session's language.
        dealt = next(line for line in out if line.startswith("<unobot> Uno ("))
        assert dealt.endswith(" " + yours), dealt
        assert "me's turn" not in dealt
        shown = "\n".join(out)
        for piece in english_fragments(lang):
            assert piece not in shown, piece
        assert "{" not in shown
    finally:
        game.loop.close()


def test_unolang_during_a_session_switches_the_programs_lines_too() -> None:
    """As on IRC: ``.unolang me fr`` is the human's language (their hand, replies, and here the
    program's own lines and the cue); ``.unolang it`` the pseudo-channel's (its lines)."""
    from unobot.terminal.prompt import _message

    game, out = _session("de", bots=2)
    try:
        game.start()  # seed 2: the human's turn
        assert "".join(text for _style, text in _message(game)) == "du bist dran> "
        game.line(".unolang me fr")
        assert game.lang == "fr"
        assert "".join(text for _style, text in _message(game)) == "à toi> "
        game.line(".new")
        assert (
            out[-1]
            == "*** Une partie est en cours: .unostop la termine, puis .new en lance une autre."
        )
        with speaking("fr"):
            yours = str(_(N_YOUR_TURN))
        game.line(".cards")  # a private reply: in French, the turn said in French
        assert out[-1].startswith("-unobot- ") and out[-1].endswith(yours), out[-1]
        game.line(".unolang it")  # the channel's language; the human's stays French
        assert game.bot.channel_language("#uno") == "it" and game.lang == "fr"
        game.line(".unostop")
        assert out[-1].startswith("*** Partie terminée.")
    finally:
        game.loop.close()


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("bots", [0, 1, 2, 5, 22])
def test_the_welcome_counts_the_computer_players(lang: str, bots: int) -> None:
    game, out = _session(lang, bots=bots)
    try:
        game.welcome()
    finally:
        game.loop.close()
    line = out[0]
    assert f" {bots} " in line and "{" not in line
    polish = {
        1: "grasz z 1 graczem komputerowym (normal)",
        2: "grasz z 2 graczami komputerowymi (normal)",
        5: "grasz z 5 graczami komputerowymi (normal)",
        22: "grasz z 22 graczami komputerowymi (normal)",
        0: "grasz z 0 graczami komputerowymi (normal)",
    }
    one = bots == 1
    zero_or_one = bots <= 1  # French and Brazilian Portuguese: 0 is singular (0 joueur)
    expected = {
        "en": f"against {bots} computer player{'' if one else 's'} (normal)",
        "de": f"gegen {bots} Computerspieler (normal)",
        "fr": f"contre {bots} joueur{'' if zero_or_one else 's'} ordinateur (normal)",
        "es": f"contra {bots} jugador{'' if one else 'es'} del ordenador (normal)",
        "pt_BR": f"contra {bots} jogador{'' if zero_or_one else 'es'} do computador (normal)",
        "it": f"contro {bots} giocator{'e' if one else 'i'} computer (normal)",
        "pl": polish[bots],
    }
    assert expected[lang] in line, line


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_turn_is_said_to_the_human_as_the_game_says_it(lang: str) -> None:
    """Whatever the game's translation of "NICK's turn." (learnt from its own renderer), the
    human reads the second person; other nicks, even ones ending in the human's, stay."""

    def status(nick: str, phase: Phase) -> str:
        with speaking(lang):
            seen = Status(Card.parse("R5"), Color.RED, nick, phase, 0, (("me", 3), ("Bob", 1)))
            return str(status_text(seen, Cards(False), "."))

    with speaking(lang):
        yours, pick = str(_(N_YOUR_TURN)), str(_(N_YOU_PICK))
    turn = status("me", Phase.PLAY)
    said = second_person(turn, "me", lang)
    assert yours in said and said != turn
    if lang == "en":
        assert said == "Top: R5. Your turn. UNO: Bob."
    assert second_person(status("me", Phase.CHOOSE_COLOR), "me", lang).count(pick) == 1
    for other in ("Bob", "fame", "me_"):
        line = status(other, Phase.PLAY)
        assert second_person(line, "me", lang) == line


# --- whole games in a real terminal ------------------------------------------------------------

_PTY_TIMEOUT = 30.0
_ROWS, _COLS = 300, 240
_CARD = re.compile(r"^(?:[RGBY](?:\d|S|R|D2)|WD4|W)$")
_HAND = re.compile(r"-unobot- ((?:[^\r\n|]+ \| )+[^\r\n|]*\(\d+\): [^\r\n]*)\r?\n")
"""A hand notice with something before the hand (the turn, a card drawn, a hint), whatever the
language: the parts are joined by `` | `` and the hand ends ``(N): cards``."""


def _spawn(args: str, env_extra: dict[str, str]) -> tuple[pexpect.spawn, _Emulator]:
    env = {**os.environ, "TERM": "xterm", HARD_BUDGET_ENV: "5", "PROMPT_TOOLKIT_NO_CPR": "1"}
    for name in (*LOCALE_VARIABLES, "NO_COLOR"):
        env.pop(name, None)
    env.update(env_extra)
    child = pexpect.spawn(
        sys.executable,
        [str(ROOT / "unobot.py"), "play", "--nick", "me", "--color", "never", *args.split()],
        cwd=str(ROOT),
        env=env,
        encoding="utf-8",
        timeout=_PTY_TIMEOUT,
        dimensions=(_ROWS, _COLS),
    )
    emulator = _Emulator(_ROWS, _COLS)
    child.logfile_read = emulator
    return child, emulator


def _command(card: str) -> str:
    card = card.lower()
    return f".p {card} r" if card.startswith("w") else f".p {card}"


def _play_to_the_end(child: pexpect.spawn, over: str, pick: str) -> int:
    """Act on every hand notice that asks for a move, by its card codes and marks only: a
    fresh turn (no card drawn in the parts before the hand): the first playable card, else
    draw; after drawing (a drawn card and a hint): the first playable card, else pass. A
    notice of cards drawn with nothing more (a penalty) asks for nothing. Returns the moves."""
    moves = 0
    while True:
        seen = child.expect([_HAND, re.escape(over), re.escape(pick)], timeout=_PTY_TIMEOUT)
        if seen == 1:
            return moves
        if seen == 2:
            child.send(".color r\r")
            continue
        *parts, hand = child.match.group(1).split(" | ")
        drew = any(_CARD.match(word.strip(".,")) for part in parts for word in part.split())
        if drew and len(parts) == 1:
            continue  # cards drawn as a penalty: not a move of ours
        playable = re.findall(r"\[(\w+)\]", hand)
        if playable:
            child.send(_command(playable[0]) + "\r")
        else:
            child.send((".pa" if drew else ".d") + "\r")
        moves += 1
        assert moves < 500, "the game should have ended"


@pytest.mark.parametrize(
    ("args", "env"),
    [(f"--lang {lang}", {"LANG": "en_US.UTF-8"}) for lang in TRANSLATED]
    + [("", {"LANG": "pl_PL.UTF-8"})],
    ids=[*TRANSLATED, "LANG=pl_PL.UTF-8"],
)
def test_a_whole_game_in_a_terminal_in_every_language(args: str, env: dict[str, str]) -> None:
    lang = args.split()[1] if args else "pl"
    welcome = _welcome(lang, "easy")
    with speaking(lang):
        over, cue = str(_(GAME_OVER)), str(_(TURN_PROMPT))
        yours, pick = str(_(N_YOUR_TURN)), str(_(N_YOU_PICK))
    child, emulator = _spawn(f"--bots 2 --level easy --seed 5 --delay 0 {args}", env)
    try:
        child.expect(re.escape(welcome))
        moves = _play_to_the_end(child, over, pick)
        assert moves > 3
        child.expect(r"\x1b\[J\x1b\[0m")  # the prompt, drawn again after the last line
        rows = emulator.rows()
        assert f"*** {welcome}" in rows
        assert any(row.startswith("*** " + over) for row in rows)
        assert any(row.startswith(cue) for row in rows), "the cue was in the language"
        assert any(row.endswith(yours) for row in rows), "the turn said to the human"
        assert not any("me's turn" in row for row in rows)
        shown = "\n".join(rows)
        for piece in english_fragments(lang):
            assert piece not in shown, piece
        assert "Traceback" not in shown and "{" not in shown
        child.send("\x04")  # Ctrl-D leaves
        child.expect(pexpect.EOF)
        child.close()
        assert child.exitstatus == 0
    finally:
        child.close(force=True)


def test_the_terminal_catalogues_are_complete() -> None:
    assert not check(("terminal",)), check(("terminal",)).report()
