"""No English left in a translated game: whole games of every variant, with the commands
players use around them (and their mistakes), played through the bot's core in a channel
whose language is not English.

Two checks. A *pseudo-language* whose every translation is the English message in brackets
(``⟦{nick} plays {card}⟧``) shows any text the bot says without asking the catalogues: once the
bracketed parts are taken out, what is left of a line may only be nicks, card codes, numbers
and punctuation. Then the same games in each real language: no English message id (of three
words or more) appears in any line, and every line fits IRC's limit with long nicks.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterator
from random import Random

import pytest

import unobot.i18n as i18n
from tests.core.fakes import Sent
from tests.core.test_computers import FAST
from tests.core.test_stats_recording import StatsHarness
from tests.pseudo import PSEUDO, speak_pseudo, unbracketed
from unobot.bench.soak import command_for
from unobot.core.bot import BotConfig
from unobot.core.render_irc import strip_codes
from unobot.engine.cards import Card
from unobot.i18n import LANGUAGES
from unobot.i18n import catalogs as cats
from unobot.irc.casemap import irc_lower
from unobot.irc.transport import Kind

LONG = "Zbigniew_Brzeczyszczykiewicz30"  # 30 characters, a common NICKLEN
NICKS = ["ann", "Bob", "carol[m]", LONG]
PRESETS = [
    "irc-classic",
    "official",
    "seven-o",
    "jump-in",
    "no-mercy",
    "house",
    "teams",
    "two-teams",
]
AROUND = [
    ".cards", ".top", ".unohelp", ".unorules", ".unorules list", ".unolang", ".unostats",
    ".unotop10", ".unorecords", ".p zz", ".p r 5", ".draw", ".catch ann", ".swap nobody",
    ".unohand", ".pce-off", ".pce-on", ".unogame", ".unorating", ".tstatus", ".team",
]  # fmt: skip
"""Commands said during each game, by someone whose turn it may not be."""


@pytest.fixture
def pseudo(monkeypatch: pytest.MonkeyPatch) -> None:
    speak_pseudo(monkeypatch)


def play(lang: str, preset: str, seed: int) -> list[Sent]:
    """One game of ``preset`` in ``#uno`` speaking ``lang``: opened, joined by people and a
    computer, dealt, played to its end by legal moves typed as commands, with :data:`AROUND`
    said along the way; one player asks for English privately... no: for the channel's own."""
    h = StatsHarness(seed, BotConfig(network="testnet", bots=FAST))
    h.settings.set_language("#uno", lang)
    rng = Random(seed)
    nicks = NICKS[:3] if preset not in ("teams", "two-teams") else NICKS
    h.say(nicks[0], f".uno {preset}")
    for nick in nicks[1:]:
        h.say(nick, ".join")
    h.say(nicks[0], ".addbot easy")
    if preset == "teams":
        h.say(nicks[0], f".team {nicks[1]}")
        h.say(nicks[1], f".team {nicks[0]}")
        h.say(nicks[0], ".addbot easy")
    if preset == "two-teams":  # a team by letter, another player's team, and six seats
        h.say(nicks[0], ".team b")
        h.say(nicks[1], f".team {nicks[0]}")
        h.say(nicks[2], ".team")
        h.say(nicks[0], ".addbot easy")
    h.say(nicks[0], ".deal")
    key = irc_lower("#uno")
    for step in range(3000):
        table = h.bot.tables.get(key)
        if table is None:
            break
        if step % 7 == 0:
            h.say(rng.choice(nicks), AROUND[(step // 7) % len(AROUND)])
        if step == 40:
            h.advance(table.config.turn_timeout + 1)  # someone's turn runs out
            continue
        game = table.game
        seat = None if game is None else table.player(table.names[game.current])
        if seat is None or seat.computer:
            h.advance(1.0)
            continue
        nick, text = command_for(table, rng)
        h.say(nick, text)
    else:
        pytest.fail(f"{preset} in {lang} did not end")
    for command in (".unostats", ".unotop10", ".unogame", f".unostats {nicks[0]}"):
        h.say(nicks[2], command)
    h.clock.advance(60)
    h.event(Kind.PART, nicks[1], "#uno")
    return h.sent


@functools.cache
def _games(lang: str) -> list[Sent]:
    return [line for i, preset in enumerate(PRESETS) for line in play(lang, preset, 10 + i)]


_ALLOWED = re.compile(r"[\s\d.,:;!?()\[\]|/+\-–—…*#'\"<>=%@&~_^]*")


def _leftover(text: str, nicks: set[str]) -> str:
    """What of a pseudo-language line no catalogue said: brackets out, then nicks, cards."""
    text = unbracketed(strip_codes(text))
    # A long line is split between words (fit): a message may run on into the next line.
    text = text.split("⟦", 1)[0] if "⟦" in text else text
    text = text.rsplit("⟧", 1)[1] if "⟧" in text else text
    words = []
    for word in text.split():
        bare = word.strip(".,:;!?()|")
        if not bare or irc_lower(bare) in nicks or _is_card(bare.strip("[]")):
            continue
        words.append(word)
    rest = " ".join(words)
    return "" if _ALLOWED.fullmatch(rest) else rest


def _is_card(word: str) -> bool:
    try:
        Card.parse(word)
    except Exception:
        return False
    return True


def test_every_line_of_every_game_asks_the_catalogues(pseudo: None) -> None:
    nicks = {irc_lower(n) for n in NICKS} | {"easybot1", "easybot2", "#uno", "unobot"}
    leaks: dict[str, str] = {}
    for line in _games.__wrapped__(PSEUDO):
        rest = _leftover(line.text, nicks)
        if rest:
            leaks.setdefault(rest, line.text)
    assert not leaks, "\n".join(f"{rest!r} in {text!r}" for rest, text in list(leaks.items())[:40])


@functools.cache
def _english_pieces() -> frozenset[str]:
    """Every piece between the placeholders of every message id of every domain with two
    English words or more (``wins the hand and``)."""
    found: set[str] = set()
    for name in i18n.DOMAINS:
        for message in cats.extract(name):
            for msgid in message.id if isinstance(message.id, tuple) else (message.id,):
                for piece in re.split(r"\{\w*\}", msgid):
                    piece = piece.strip(" .,:;!?()")
                    if len(re.findall(r"[A-Za-z]{3,}", piece)) >= 2:
                        found.add(piece)
    return frozenset(found)


def _translated(lang: str) -> str:
    """Everything the language's catalogues say (what it keeps as in English is not English
    leaking: command lists such as ``.unorecords [week|month]``)."""
    from babel.messages.pofile import read_po

    said = []
    for name in i18n.DOMAINS:
        with open(f"{i18n.LOCALE_DIR}/{lang}/LC_MESSAGES/{name}.po", "rb") as f:
            for message in read_po(f):
                strings = message.string if isinstance(message.string, tuple) else (message.string,)
                said.extend(s for s in strings if s)
    return "\n".join(said)


@pytest.mark.parametrize("lang", LANGUAGES[1:])
def test_a_game_in_each_language_has_no_english_and_fits_irc(lang: str) -> None:
    kept = _translated(lang)
    english = {piece for piece in _english_pieces() if piece not in kept}
    sent = _games(lang)
    assert sent
    for line in sent:
        assert len(line.text.encode()) <= 400, line
        plain = strip_codes(line.text)
        leaked = [e for e in english if e in plain]
        assert not leaked, (lang, leaked, plain)


def lines_of(sent: list[Sent], kind: str) -> Iterator[str]:
    return (strip_codes(s.text) for s in sent if s.kind == kind)
