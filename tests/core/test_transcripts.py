"""A whole game in each language, written down: the issue's proof that the bot speaks every
language from the deal to the win (issue 39).

One seeded game of the classic rules per language, three people and a computer player, played
through the bot's core with the fake transport (legal moves typed as commands, the same game in
every language). Each run writes what was said to ``$UNOBOT_ARTIFACTS/transcripts/<lang>.txt``
(default ``tests/artifacts/transcripts/``, which git ignores): the channel's lines and every
notice or private line a player was sent, in order, IRC formatting taken out, where a reviewer
reads them. The test asserts the game ended with a winner, the lines fit IRC, and (other than
English) no English message leaked.
"""

from __future__ import annotations

import os
from pathlib import Path
from random import Random

import pytest

from tests.core.fakes import Sent
from tests.core.test_computers import FAST
from tests.core.test_i18n_games import _english_pieces, _translated
from tests.core.test_stats_recording import StatsHarness
from unobot.bench.soak import command_for
from unobot.core.bot import BotConfig
from unobot.core.render_irc import strip_codes
from unobot.i18n import LANGUAGES
from unobot.irc.casemap import irc_lower

NICKS = ["ann", "Bob", "carol"]
ARTIFACTS = Path(__file__).resolve().parents[1] / "artifacts"


def transcripts_dir() -> Path:
    """``$UNOBOT_ARTIFACTS/transcripts``, by default ``tests/artifacts/transcripts``."""
    return Path(os.environ.get("UNOBOT_ARTIFACTS") or str(ARTIFACTS)) / "transcripts"


def whole_game(lang: str, seed: int = 7) -> tuple[list[Sent], bool]:
    """One classic game in ``#uno`` speaking ``lang``: what was sent, and whether it ended."""
    h = StatsHarness(seed, BotConfig(network="testnet", bots=FAST))
    h.settings.set_language("#uno", lang)
    rng = Random(seed)
    h.say(NICKS[0], ".uno")
    for nick in NICKS[1:]:
        h.say(nick, ".join")
    h.say(NICKS[0], ".addbot easy")
    h.say(NICKS[0], ".deal")
    key = irc_lower("#uno")
    for _step in range(3000):
        table = h.bot.tables.get(key)
        if table is None:
            break
        game = table.game
        seat = None if game is None else table.player(table.names[game.current])
        if seat is None or seat.computer:
            h.advance(1.0)  # the computer player thinks
            continue
        nick, text = command_for(table, rng)
        h.say(nick, text)
    ended = key not in h.bot.tables
    h.say(NICKS[1], ".unotop10")
    return h.sent, ended


def transcript(sent: list[Sent]) -> str:
    """The lines as a reader follows them: ``<#uno> ...`` for the channel, ``-> nick: ...``
    for what one player alone was sent (a NOTICE, or a PRIVMSG to a nick)."""
    out = []
    for line in sent:
        text = strip_codes(line.text)
        if line.target.startswith("#"):
            out.append(f"<{line.target}> {text}")
        else:
            out.append(f"-> {line.target} ({line.kind}): {text}")
    return "\n".join(out) + "\n"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_whole_game_in_each_language_is_written_down(lang: str) -> None:
    sent, ended = whole_game(lang)
    assert ended, f"the game in {lang} did not end"
    text = transcript(sent)
    folder = transcripts_dir()
    folder.mkdir(parents=True, exist_ok=True)
    (folder / f"{lang}.txt").write_text(text, encoding="utf-8")
    channel = [s for s in sent if s.target == "#uno"]
    hands = [s for s in sent if s.target in NICKS and s.kind == "notice"]
    assert len(channel) > 20 and hands, "a whole game says more than this"
    for line in sent:
        assert len(line.text.encode()) <= 400, line
    if lang != "en":
        kept = _translated(lang)
        english = {piece for piece in _english_pieces() if piece not in kept}
        leaked = {e for line in sent for e in english if e in strip_codes(line.text)}
        assert not leaked, (lang, sorted(leaked)[:10])
