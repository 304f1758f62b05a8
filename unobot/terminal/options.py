"""``unobot play``'s options and their defaults: the command line, the player's nick, the
language (``--lang``, else the environment's locale as gettext reads it)."""

from __future__ import annotations

import argparse
import getpass
import os
import re
from collections.abc import Mapping
from dataclasses import dataclass

from unobot.engine import PRESET_ALIASES, PRESETS, TeamGame, preset
from unobot.i18n import DEFAULT, LANGUAGES, domain, normalize, speaking
from unobot.irc.casemap import irc_eq

_, ngettext = domain("terminal")

__all__ = [
    "HARD_BUDGET_ENV",
    "LEVELS",
    "PlayOptions",
    "build_parser",
    "default_nick",
    "hard_budget",
    "language_from_env",
    "parse_args",
    "usable_nick",
]


LEVELS = ("easy", "normal", "hard")
CHANNEL = "#uno"
BOT_NICK = "unobot"
TURN_TIMEOUT = 24 * 3600.0
"""The human is the only one who can stall a terminal game, and stalling only delays themself:
a turn timer would just be a nuisance, so it is set beyond any sitting (the table needs one)."""
DEFAULT_DELAY = 1.0
"""Seconds a computer player waits before it acts: long enough to follow the game as it goes,
short enough not to bore (``--delay 0`` for tests and the impatient)."""
DEFAULT_HARD_BUDGET = 200.0
HARD_BUDGET_ENV = "UNOBOT_HARD_BUDGET_MS"
"""Environment variable overriding the ``hard`` level's search budget per move (milliseconds):
tests play whole games against ``hard`` in a fraction of the default 200 ms a move."""
QUIT_WORDS = frozenset({".quit", ".exit", "/quit", "/exit", "/q"})


@dataclass(frozen=True, slots=True)
class PlayOptions:
    bots: int = 3
    level: str = "normal"
    preset: str = "irc-classic"
    seed: int | None = None
    nick: str = "you"
    color: str = "auto"
    """``always``, ``never`` or ``auto`` (colour when stdout is a terminal and NO_COLOR unset)."""
    delay: float = DEFAULT_DELAY
    database: str | None = None
    lang: str = DEFAULT
    """The language of everything shown (the program's own lines and the bot's game lines)."""


_LOCALE_VARIABLES = ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG")
"""Where gettext looks for the user's language, in its order (:func:`gettext.find`)."""


def language_from_env(environ: Mapping[str, str] | None = None) -> str:
    """The shipped language the environment asks for, as gettext reads it: the first of
    ``LANGUAGE``, ``LC_ALL``, ``LC_MESSAGES``, ``LANG`` that is set decides; ``LANGUAGE`` may
    list several (``fr:de``), the first shipped one wins. ``de_DE.UTF-8`` and ``de_AT@euro``
    are German; ``C``, ``POSIX`` and anything unshipped are English (the program still runs:
    a locale is a preference, not a requirement)."""
    env = os.environ if environ is None else environ
    for name in _LOCALE_VARIABLES:
        value = env.get(name, "")
        if not value:
            continue
        for entry in value.split(":"):
            code = entry.split(".", 1)[0].split("@", 1)[0]  # de_DE.UTF-8@euro -> de_DE
            if code in ("C", "POSIX"):
                return DEFAULT
            chosen = normalize(code)
            if chosen is not None:
                return chosen
        return DEFAULT
    return DEFAULT


def _language_arg(value: str) -> str:
    chosen = normalize(value)
    if chosen is None:
        raise argparse.ArgumentTypeError(
            _(
                "unknown language {lang}; known: {known}",
                lang=repr(value),
                known=" ".join(LANGUAGES),
            )
        )
    return chosen


def _chosen_language(argv: list[str], environ: Mapping[str, str] | None = None) -> str:
    """``--lang`` if given and known, else the environment's: read before the real parser is
    built, so that its help and errors are in that language (a wrong ``--lang`` is refused
    by the real parser, in the environment's language)."""
    pre = argparse.ArgumentParser(add_help=False)
    pre.add_argument("--lang", default=None)
    known, _rest = pre.parse_known_args(argv)
    return normalize(known.lang) or language_from_env(environ)


def build_parser() -> argparse.ArgumentParser:
    """The command line, its help in the language being spoken (argparse's own few words,
    ``usage:`` and ``options:``, come from Python and stay as Python says them)."""
    parser = argparse.ArgumentParser(
        prog="unobot play",
        description=_(
            "Play Uno in this terminal against computer players, with the IRC bot's "
            "commands (.p r5, .p w g, .d, .pa, .cards, .top, .unohelp) and no network. "
            "Ctrl-D or .quit leaves."
        ),
    )
    parser.add_argument(
        "--bots",
        type=int,
        default=3,
        metavar="N",
        help=_("computer players, 1-9 (default 3)"),
    )
    parser.add_argument(
        "--level", default="normal", choices=LEVELS, help=_("computer level (default normal)")
    )
    parser.add_argument(
        "--preset",
        default="irc-classic",
        choices=sorted([*PRESETS, *PRESET_ALIASES]),  # teams, partners: the old names of pairs
        metavar="NAME",
        help=_("rules: {presets} (default irc-classic)", presets=", ".join(sorted(PRESETS))),
    )
    parser.add_argument("--seed", type=int, default=None, help=_("seed for reproducible deals"))
    parser.add_argument(
        "--nick", default=None, help=_("your nick (default: your login name, else 'you')")
    )
    parser.add_argument(
        "--color",
        default="auto",
        choices=("auto", "always", "never"),
        help=_("colours: auto (when output is a terminal and NO_COLOR is unset), always, never"),
    )
    parser.add_argument(
        "--delay",
        type=float,
        default=DEFAULT_DELAY,
        metavar="SECONDS",
        # argparse formats help with %: a literal percent sign is written %%.
        help=_(
            "computer players' pause before acting, ±30%% (default {delay}; 0-60)",
            delay=f"{DEFAULT_DELAY:g}",
        ),
    )
    parser.add_argument(
        "--database",
        metavar="URL",
        default=None,
        help=_(
            "record games in this stats database (sqlite:///stats.db, postgresql://...) so "
            ".unostats counts them; default: no stats, nothing written"
        ),
    )
    parser.add_argument(
        "--lang",
        default=None,
        type=_language_arg,
        metavar="LANG",
        help=_(
            "language: {languages} (default: from LANGUAGE, LC_ALL, LC_MESSAGES or LANG, else en)",
            languages=" ".join(LANGUAGES),
        ),
    )
    return parser


_NICK = re.compile(r"[A-Za-z\[\]\\`_^{|}][A-Za-z0-9\[\]\\`_^{|}-]{0,29}")


def usable_nick(nick: str) -> bool:
    """An RFC 2812 nick, other than the bot's and other than a computer player's default name
    (``EasyBot1``...: the table would refuse the computer player a human already holds)."""
    return bool(
        _NICK.fullmatch(nick)
        and not irc_eq(nick, BOT_NICK)
        and not re.fullmatch(r"(easy|normal|hard)bot\d*", nick, re.IGNORECASE)
    )


def default_nick() -> str:
    """The login name, as IRC clients default to: the channel's lines are in the third person
    (``alice plays R5``), which reads better with a name than with ``you``."""
    try:
        name = getpass.getuser()
    except Exception:  # no login name in this environment (getuser raises OSError/KeyError)
        return "you"
    return name if usable_nick(name) else "you"


def parse_args(argv: list[str], environ: Mapping[str, str] | None = None) -> PlayOptions:
    """Parse and check ``unobot play`` arguments; exits with a usage message when wrong, in
    the language chosen (``--lang``, else the environment's)."""
    lang = _chosen_language(argv, environ)
    with speaking(lang):
        return _parse(argv, lang)


def _parse(argv: list[str], lang: str) -> PlayOptions:
    parser = build_parser()
    args = parser.parse_args(argv)
    if not 1 <= args.bots <= 9:
        parser.error(_("--bots must be 1 to 9"))
    rules = preset(args.preset)
    if not rules.min_players <= args.bots + 1 <= rules.max_players:
        parser.error(
            _(
                "{preset} is for {low}-{high} players: --bots {fewest} to {most}",
                preset=args.preset,
                low=rules.min_players,
                high=rules.max_players,
                fewest=rules.min_players - 1,
                most=min(9, rules.max_players - 1),
            )
        )
    if rules.team_problem(args.bots + 1):
        # Pairs: you and the first computer player are partners (join order). Two teams:
        # seats alternate in join order, so the second, fourth ... computer players are yours.
        if rules.team_game is TeamGame.TWO_TEAMS:
            parser.error(
                _("{preset} is for 4, 6, 8 or 10 players: --bots 3, 5, 7 or 9", preset=args.preset)
            )
        parser.error(_("{preset} is for 4 or 6 players: --bots 3 or 5", preset=args.preset))
    if not args.delay >= 0 or args.delay > 60:  # `not >=` also refuses nan
        parser.error(_("--delay must be 0 to 60 seconds"))
    if args.nick is None:
        args.nick = default_nick()
    elif not usable_nick(args.nick):
        parser.error(_("--nick {nick} is not a usable IRC nick", nick=repr(args.nick)))
    return PlayOptions(
        bots=args.bots,
        level=args.level,
        preset=args.preset,
        seed=args.seed,
        nick=args.nick,
        color=args.color,
        delay=args.delay,
        database=args.database,
        lang=args.lang or lang,
    )


def hard_budget(environ: Mapping[str, str] | None = None) -> float:
    """The ``hard`` level's search time per move in milliseconds: 200, or ``$UNOBOT_HARD_BUDGET_MS``
    (1 to 10000; tests play whole games against ``hard`` with a few ms a move). Not an option:
    players choose a level, not a budget."""
    env = os.environ if environ is None else environ
    try:
        value = float(env.get(HARD_BUDGET_ENV, ""))
    except ValueError:
        return DEFAULT_HARD_BUDGET
    return value if 1 <= value <= 10_000 else DEFAULT_HARD_BUDGET
