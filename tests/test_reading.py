"""The benchmarks' simulated players read the bot's lines in every language: their patterns,
built from the catalogues, find the status, hands, joins and ends of real games' lines."""

from __future__ import annotations

import pytest

from tests.core.test_i18n_games import play
from unobot.bench.reading import Reader
from unobot.core.render_irc import strip_codes
from unobot.i18n import LANGUAGES


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_reader_follows_a_whole_game_in_each_language(lang: str) -> None:
    sent = play(lang, "official", 4)
    reader = Reader(lang)
    channel = [strip_codes(s.text) for s in sent if s.kind == "privmsg"]
    notices = [strip_codes(s.text) for s in sent if s.kind == "notice"]
    statuses = [st for line in channel if (st := reader.status(line)) is not None]
    assert len(statuses) > 20
    assert {st.nick for st in statuses} <= {"ann", "Bob", "carol[m]", "EasyBot1"}
    assert all(st.top is not None for st in statuses if st.phase == "turn")
    wild = [st for st in statuses if st.top is not None and st.top.is_wild and st.phase == "turn"]
    assert all(st.color is not None for st in wild)
    assert sum(reader.opens(line) for line in channel) == 1
    assert [n for line in channel if (n := reader.joins(line))] == [2, 3]
    assert sum(reader.ended(line) for line in channel) >= 1
    hands = [h for line in notices if (h := reader.hand(line)) is not None]
    assert hands and all(n >= 0 for n, _cards in hands)
    assert any(reader.turn_hand(line) for line in notices)
    assert any(reader.drew(line) for line in notices)
