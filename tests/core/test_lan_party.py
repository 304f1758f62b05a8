"""Issue 27: a LAN party. Ten players and an onlooker behind one address share one command
budget; the onlooker spends it. Every move of the players is still acted on, nobody playing is
told to slow down, and the onlooker is (once)."""

from __future__ import annotations

from typing import Any

from tests.core.fakes import Harness, Sent, channel_lines, notices, strip_codes
from tests.core.test_games import Driver
from unobot.core.bot import BotConfig
from unobot.core.table import TableConfig
from unobot.engine import preset
from unobot.engine.cards import Card
from unobot.engine.game import Game

NICKS = [f"lan{i}" for i in range(10)]


class Lan(Harness):
    """Everyone speaks from the same host, as at a LAN party; every player's command is
    recorded with what the bot answered."""

    def __init__(self, seed: int, config: BotConfig | None = None) -> None:
        super().__init__(seed, config)
        self.moves: list[tuple[str, str, list[Sent]]] = []

    def say(self, nick: str, text: str, channel: str = "#uno", **extra: Any) -> list[Sent]:
        extra.setdefault("userhost", f"{nick}@192.168.1.20")
        out = super().say(nick, text, channel, **extra)
        if nick in NICKS:
            self.moves.append((nick, text, out))
        return out


class Flooded(Driver):
    """Before every move, the onlooker asks for the top card five times and for stats."""

    def step(self) -> None:
        for _ in range(5):
            self.h.say("zed", ".top")
        self.h.say("zed", ".unostats")
        super().step()


def test_ten_players_behind_one_address_and_a_flooding_onlooker() -> None:
    for seed in range(3):
        h = Lan(seed)
        played = Flooded(h, NICKS, seed=seed).finish()
        assert "wins the hand" in played.winner_line
        dealt = h.moves.index(next(m for m in h.moves if m[1] == ".deal"))
        moves = h.moves[dealt + 1 :]
        assert len(moves) > 20
        for nick, text, out in moves:  # each answered: a channel line, a hand or a reason
            assert out, (nick, text)
            assert not any("Slow down" in s.text for s in out), (nick, text)
        told = [strip_codes(t) for t in notices(h.sent, "zed")]
        assert [t for t in told if t.startswith("Slow down")] == [
            "Slow down: commands from you are ignored for a few seconds."
        ]
        assert not any("timed out" in line.lower() for line in channel_lines(h.sent))


def test_out_of_turn_calls_and_catches_go_through_a_spent_budget() -> None:
    """Official rules (manual UNO calls): with the budget of the address spent by the
    onlooker, lan1's catch when no window is open is ignored (with one "Slow down"), but
    lan0's play down to one card, lan1's catch of her missed call and lan2's late UNO call in
    its own window are all acted on."""
    h = Lan(4, BotConfig(table=TableConfig(rules=preset("official"))))
    h.start(["lan0", "lan1", "lan2"])
    table = h.bot.tables["#uno"]
    assert table.match is not None
    r5, r7, b1, g2 = (Card.parse(c) for c in ("R5", "R7", "B1", "G2"))
    rules = table.config.rules
    hands = [[r5, b1], [r7, b1, g2], [g2, r7]]
    pile = [Card.parse("Y3")] * 20
    table.match.game = Game.from_position(rules, hands, r7, draw_pile=pile)
    for _ in range(30):
        h.say("zed", ".top")
    assert "Slow down" in only(h.say("lan1", ".catch lan0"), "lan1")  # no window yet
    assert h.say("lan1", ".catch lan0") == []
    assert "lan0 plays" in " ".join(channel_lines(h.say("lan0", ".p r 5")))
    caught = " ".join(channel_lines(h.say("lan1", ".catch lan0")))
    assert "lan0" in caught and "2" in caught, caught
    assert len(table.hand_of("lan0")) == 3
    assert "lan1 plays" in " ".join(channel_lines(h.say("lan1", ".p r 7")))
    # lan2 plays down to one card without calling, then calls late, before anyone catches
    assert "lan2 plays" in " ".join(channel_lines(h.say("lan2", ".p r 7")))
    late = h.say("lan2", ".uno")
    assert "lan2" in " ".join(channel_lines(late)) and not notices(late, "lan2"), late


def only(out: list[Sent], nick: str) -> str:
    assert [(s.kind, s.target) for s in out] == [("notice", nick)], out
    return out[0].text
