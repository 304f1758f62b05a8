"""A complete game of every preset over real IRC servers, by players who read only what the bot
tells them (their NOTICEs, the channel).

The agents follow the bot's hints after a draw ("You must play G5"), call UNO with the play where
calls are manual, challenge some Wild Draw Fours and answer a pending total with ``.draw``; a
multi-hand match runs hand after hand to its target, a knockout game until its time is up.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from random import Random

import pytest

from tests.core.fakes import Seen, read_status
from tests.e2e.conftest import module_server, unique
from tests.e2e.servers import IrcServer
from tests.e2e.test_games import GAME_SERVERS, NetGame, Player, RunningBot, make_players
from unobot.core.table import TableConfig
from unobot.engine import preset
from unobot.engine.rules import UnoCall

server = module_server(*GAME_SERVERS)


@pytest.fixture
def cleanup() -> Iterator[tuple[list[RunningBot], list[Player]]]:
    made: tuple[list[RunningBot], list[Player]] = ([], [])
    yield made
    for p in made[1]:
        p.client.close()
    for bot in made[0]:
        bot.stop()


def last_status(lines: list[str]) -> Seen | None:
    """The status at the end of the channel's last update, which a long update (a hand's end
    and the next deal) splits over two lines: ``... Top: RD2.`` / ``bob's turn.``."""
    for k in (1, 2, 3):
        seen = read_status([" ".join(lines[-k:])])
        if seen is not None:
            return seen
    return read_status(lines)


class PresetGame(NetGame):
    """A NetGame that plays to the end of the match (the table closes), not of a hand."""

    def __init__(self, bot: RunningBot, players: list[Player], seed: int) -> None:
        super().__init__(bot, players)
        self.rng = Random(seed)
        self.challenges = 0
        manual = bot.bot.config.table.rules.uno_call is UnoCall.MANUAL
        for p in players:
            p.agent.follow_hints = True
            p.agent.call_uno = manual

    def over(self) -> bool:
        return self.bot.table() is None

    def check_hands(self) -> None:
        table = self.bot.table()
        if table is None or table.game is None:
            return
        # Hand notices leave after the channel line: a new deal's may still be on the way.
        deadline = time.monotonic() + 5
        for p in self.order:
            while True:
                p.catch_up(self.bot.nick)
                told = sorted(p.agent.hand, key=lambda c: c.code)
                real = list(table.hand_of(p.client.nick)) if not self.over() else told
                if told == real or time.monotonic() > deadline:
                    break
                time.sleep(0.01)
            assert told == real, (p.client.nick, told, real, self.channel_text()[-3:])

    def status(self, lines: list[str]) -> Seen | None:
        return last_status(lines)

    def answer_pending(self, lines: list[str]) -> str:
        can_challenge = ".challenge)" in " ".join(lines[-2:])
        command = ".challenge" if can_challenge and self.rng.random() < 0.5 else ".draw"
        self.challenges += command == ".challenge"
        return command

    def refusal_expected(self) -> bool:
        return self.over()  # the time ran out just before this command

    def hand_goes_on(self, new_lines: str) -> bool:
        return "wins the hand" not in new_lines  # a new hand's notice has already replaced it

    def play_match(self, max_steps: int = 6000) -> str:
        for _ in range(max_steps):
            if self.over():
                # The table is gone once its last update is sent; wait until it has arrived
                # (the channel quiet for a moment after a winner line: an earlier hand's
                # "wins the hand" may still be among the last lines when time runs out).
                deadline = time.monotonic() + 10
                seen, quiet_since = -1, time.monotonic()
                while True:
                    lines = self.channel_text()
                    if len(lines) != seen:
                        seen, quiet_since = len(lines), time.monotonic()
                    elif any(" wins" in t for t in lines[-3:]) and (
                        time.monotonic() - quiet_since > 0.5
                    ):
                        return " ".join(lines)
                    assert time.monotonic() < deadline, lines[-3:]
                    time.sleep(0.02)
            self.step()
        pytest.fail("match did not end")


@pytest.mark.parametrize(
    ("name", "players", "deal"),
    [
        ("official", 3, ".deal"),
        ("irc-classic", 3, ".deal"),
        ("ocuk-tournament", 3, ".deal"),
        ("bac-tournament", 4, ".deal"),
        ("knockout", 3, ".deal 10s"),
    ],
)
def test_preset_plays_to_the_end_over_irc(
    server: IrcServer,
    cleanup: tuple[list[RunningBot], list[Player]],
    name: str,
    players: int,
    deal: str,
) -> None:
    rules = preset(name)
    bot = RunningBot(server, "#" + unique("uno"), TableConfig(rules=rules), seed=21)
    cleanup[0].append(bot)
    seated = make_players(server, players, bot.channel)
    cleanup[1].extend(seated)
    game = PresetGame(bot, seated, seed=5)
    first, *rest = seated
    game.command(first, ".uno")
    for p in rest:
        game.command(p, ".join")
    game.command(first, deal)
    started = time.monotonic()
    text = game.play_match()
    assert f"Uno ({name})" in text and " wins" in text
    if rules.uno_call is UnoCall.MANUAL and "wins the hand" in text:
        assert "(UNO!)" in text  # called with the play: nobody could catch it
        assert "without UNO" not in text
    if rules.target_score:
        assert f"[to {rules.target_score} points]" in text and "wins the match! Totals:" in text
        if text.count("wins the hand") > 1:
            assert "Totals: " in text and "hand 2: " in text
    if name == "ocuk-tournament":
        assert "draw for first player:" in text
    if name == "knockout":
        assert "[10 seconds time limit]" in text
        assert "Time is up: the unfinished hand counts." in text and "the match!" in text
        assert time.monotonic() - started >= 9
    for line in game.channel_text():
        assert "Your cards" not in line and "You drew" not in line
