"""Issue 39's rewritten refusal on a real server: someone other than the starter says ``.deal``
too early and is told, in a whole sentence in their channel's language, who can deal now and
when anyone can ("{nick} deals; anyone may in {seconds}s" had lost its verb in every language).
An English, a German and a Polish channel on one bot, real clients at a person's pace.
"""

from __future__ import annotations

import dataclasses
import re
import time
from collections.abc import Iterator

import pytest

from tests.core.fakes import strip_codes
from tests.e2e.client import TestClient
from tests.e2e.conftest import module_server, unique
from tests.e2e.servers import IrcServer
from tests.e2e.test_games import RunningBot
from unobot.core.table import TableConfig
from unobot.irc.casemap import irc_lower

server = module_server("ngircd")

SAID = {
    "en": r"only {starter} can deal for now; anyone can deal in \d+s",
    "de": r"nur {starter} kann jetzt geben; in \d+s darf jeder geben",
    "pl": r"na razie rozdać może tylko {starter}; za \d+s może to zrobić każdy",
}
"""The refusal each channel's language gives, whole (the seconds left vary)."""


@pytest.fixture
def three_channel_bot(server: IrcServer) -> Iterator[RunningBot]:
    channels = {lang: "#" + unique(lang) for lang in SAID}
    bot = RunningBot(
        server,
        channels["en"],
        TableConfig(),
        seed=3,
        more_channels=(channels["de"], channels["pl"]),
    )
    languages = {irc_lower(channels[lang]): lang for lang in ("de", "pl")}
    bot.bot.config = dataclasses.replace(bot.bot.config, channel_languages=languages)
    bot.channels = channels  # type: ignore[attr-defined]
    yield bot
    bot.stop()


def test_an_early_deal_is_refused_in_a_whole_sentence_in_each_language(
    server: IrcServer, three_channel_bot: RunningBot
) -> None:
    bot = three_channel_bot
    clients: list[TestClient] = []
    try:
        for lang, channel in bot.channels.items():  # type: ignore[attr-defined]
            starter, other = (
                TestClient(server.port, unique("st")),
                TestClient(server.port, unique("ot")),
            )
            clients += [starter, other]
            starter.join(channel)
            other.join(channel)
            starter.privmsg(channel, ".uno")
            time.sleep(1.0)
            other.privmsg(channel, ".join")
            time.sleep(1.0)
            mark = len(other.snapshot())
            other.privmsg(channel, ".deal")
            wanted = re.compile(SAID[lang].format(starter=re.escape(starter.nick)))
            reply = other.wait_for(
                lambda m, who=starter.nick: m.nick == bot.nick and who in m.text,
                after=mark,
                what=f"the {lang} refusal",
            )
            assert wanted.fullmatch(strip_codes(reply.text).strip()), reply.text
    finally:
        for c in clients:
            c.close()
