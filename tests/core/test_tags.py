"""The core tags every line for the fair send queue (unobot.irc.outbox): a game's lines and
hands with its channel, hands keyed per player, a one-line update with its status (so a
waiting one folds in the next), and answers to one user's command as replies."""

from __future__ import annotations

from random import Random

from tests.core.fakes import Harness, Sent, strip_codes
from unobot.bench.soak import command_for


def test_game_lines_hands_and_replies_are_tagged() -> None:
    h = Harness(3)
    dealt = h.start(["alice", "bob"])
    hands = [s for s in dealt if s.kind == "notice" and "Your cards" in s.text]
    assert hands and all(
        s.tag.channel == "#uno" and s.tag.key == f"hand {s.target}" and not s.tag.reply
        for s in hands
    )
    table = h.bot.tables["#uno"]
    rng = Random(1)
    moved: list[Sent] = []
    while not moved:
        nick, text = command_for(table, rng)
        moved = [s for s in h.say(nick, text) if s.kind == "privmsg"]
    assert all(s.tag.channel == "#uno" and not s.tag.reply for s in moved)
    one = moved[-1]
    assert one.tag.key == "status" and one.text.endswith(one.tag.status)
    assert "turn" in strip_codes(one.tag.status)
    top = h.say("carol", ".top")
    assert top and all(s.tag.reply and s.tag.channel == "#uno" for s in top)
    private = h.pm("carol", ".unohelp")
    assert private and all(s.tag.reply and s.tag.channel == "" for s in private)
