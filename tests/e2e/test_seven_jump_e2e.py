"""Seven-O and Jump-In over a real IRC server with real client connections.

Seven-O: a whole game in which every 7 is played with a target (``.p r7 <nick>``); at the first
swap, the two players whose hands changed owners get their new hand by NOTICE and the third
player gets no notice that shows either hand. Jump-In: two clients holding the card on top send
the same jump at the same moment (a barrier between two threads); the bot accepts exactly one,
tells the other ``too late: <nick> jumped first``, and play goes on from the jumper.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from random import Random

from tests.core.fakes import Agent, read_status, strip_codes
from tests.e2e.test_games import (  # noqa: F401  (fixtures)
    NetGame,
    Player,
    RunningBot,
    players_for,
    rig,
    run_bot,
    server,
)
from unobot.core.table import TableConfig
from unobot.engine import preset
from unobot.engine.cards import Card, Rank, parse_play
from unobot.irc.casemap import irc_lower


class SevenAgent(Agent):
    """An agent that names a swap target with every 7 it plays (not with its last card)."""

    others: list[str]

    def choose(self, top: Card, color, drawn: bool) -> str:  # type: ignore[no-untyped-def]
        command = super().choose(top, color, drawn)
        if command.startswith((".p ", ".play ")) and len(self.hand) > 1:
            card, _ = parse_play(command.split(" ", 1)[1])
            if card.rank is Rank.SEVEN:
                command += " " + self.rng.choice(self.others)
        return command

    def played(self, command: str) -> None:
        words = command.split()
        if words[-1] in self.others:  # the target is no card
            command = " ".join(words[:-1])
        super().played(command)


def hand_notices(player: Player, bot: str, after: int) -> list[list[Card]]:
    """The hands ``player`` was told by NOTICE after their first ``after`` lines (one notice
    may be split over lines: the continuation lines are joined to their head)."""
    hands: list[list[Card]] = []
    for m in player.client.snapshot()[after:]:
        if m.nick != bot or m.command != "NOTICE":
            continue
        text = strip_codes(m.text)
        if "Your cards (" in text:
            words = text.split("Your cards (", 1)[1].split(": ", 1)[1].split()
            hands.append([Card.parse(w.strip("[]")) for w in words])
        elif hands:
            hands[-1] += [Card.parse(w.strip("[]")) for w in text.split()]
    return hands


class SevenOGame(NetGame):
    """A NetGame of Seven-O that checks who is told the hands at the first swap."""

    def __init__(self, bot: RunningBot, players: list[Player]) -> None:
        super().__init__(bot, players)
        self.swaps_checked = 0
        for i, p in enumerate(players):
            agent = SevenAgent(p.client.nick, Random(i))
            agent.others = [q.client.nick for q in players if q is not p]
            p.agent = agent

    def hand_goes_on(self, new_lines: str) -> bool:
        # A swap or rotation: the new hand's notice has already replaced the old one.
        return "swaps hands with" not in new_lines and "every hand passes" not in new_lines

    def command(self, player: Player, text: str, timeout: float = 30.0) -> list[str]:
        words = text.split()
        target = self.players.get(irc_lower(words[-1])) if words else None
        if target is None or self.swaps_checked:
            return super().command(player, text, timeout)
        marks = {id(p): len(p.client.snapshot()) for p in self.order}
        replies = super().command(player, text, timeout)
        if "swaps hands with" in " ".join(self.channel_text()[-2:]):
            self.check_swap(player, target, marks)
        return replies

    def check_swap(self, mover: Player, target: Player, marks: dict[int, int]) -> None:
        table = self.bot.table()
        assert table is not None
        pair = (mover, target)
        wanted = {id(p): list(table.hand_of(p.client.nick)) for p in pair}
        deadline = time.monotonic() + 10
        for p in pair:  # each gets their new hand, sorted as the table holds it
            while wanted[id(p)] not in hand_notices(p, self.bot.nick, marks[id(p)]):
                assert time.monotonic() < deadline, f"{p.client.nick} was not told the new hand"
                time.sleep(0.01)
        time.sleep(0.3)  # anything more the bot would send has had time to arrive
        (third,) = (p for p in self.order if p not in pair)
        own = list(table.hand_of(third.client.nick))
        for seen in hand_notices(third, self.bot.nick, marks[id(third)]):
            assert seen == own, (seen, wanted)  # only ever their own hand
            assert seen not in wanted.values()
        self.swaps_checked += 1


def test_seven_o_game_swaps_are_told_only_to_the_two_over_irc(
    run_bot: Callable[..., RunningBot],  # noqa: F811
    players_for: Callable[[RunningBot, int], list[Player]],  # noqa: F811
) -> None:
    bot = run_bot(TableConfig(rules=preset("seven-o")), seed=3)
    players = players_for(bot, 3)
    game = SevenOGame(bot, players)
    game.start()
    for _ in range(3000):  # the first hand of the match, to its end
        if game.over():
            break
        game.step()
    assert game.over()
    assert game.swaps_checked == 1, "no 7 was played with a target"
    said = " ".join(game.channel_text())
    assert "swaps hands with" in said and "Your cards" not in said


def test_two_clients_jump_in_at_once_over_irc(
    run_bot: Callable[..., RunningBot],  # noqa: F811
    players_for: Callable[[RunningBot, int], list[Player]],  # noqa: F811
) -> None:
    bot = run_bot(TableConfig(rules=preset("jump-in")), seed=5)
    players = players_for(bot, 5)
    game = NetGame(bot, players)
    game.start()
    # Seat 0 is to move on R1 and holds R5; seats 2 and 4 hold R5 too. Neither racer sits
    # right after the other: the jump of the one must not make the other's line a play in
    # turn (docs/rules.md: "their .p r5 is simply their turn's play").
    hands = ["R5 G1 G2", "G3 G4 Y1", "R5 Y3 Y4", "G6 G7 G8", "R5 B1 B2"]
    names = rig(bot, hands, top="R1")
    by_nick = {irc_lower(p.client.nick): p for p in players}
    seat = [by_nick[irc_lower(n)] for n in names]
    game.command(seat[0], ".p r5")
    assert "plays R5" in game.channel_text()[-1]
    racers = [seat[2], seat[4]]
    before = {id(p): len(p.client.snapshot()) for p in racers}
    lines = len(game.channel_text())
    barrier = threading.Barrier(2)

    def jump(p: Player) -> None:
        barrier.wait()
        p.client.privmsg(bot.channel, ".p r5")

    threads = [threading.Thread(target=jump, args=(p,)) for p in racers]
    for t in threads:
        t.start()
    for t in threads:
        t.join(5)
    # Exactly one jump reaches the channel; the other jumper is told who was first.
    watcher = seat[1].client
    watcher.wait_for(lambda m: m.nick == bot.nick and "jumps in with R5" in strip_codes(m.text))
    late = None
    deadline = time.monotonic() + 10
    while late is None:
        for p in racers:
            for m in p.client.snapshot()[before[id(p)] :]:
                if m.nick == bot.nick and m.command == "NOTICE" and "too late" in m.text:
                    late = (p, strip_codes(m.text))
        assert time.monotonic() < deadline, [
            (p.client.nick, [m.raw for m in p.client.snapshot()[before[id(p)] :]]) for p in racers
        ]
        time.sleep(0.01)
    loser, text = late
    (winner,) = (p for p in racers if p is not loser)
    assert text == f"too late: {winner.client.nick} jumped first", text
    time.sleep(0.3)
    game.sync(len(seat[0].bot_lines(bot.nick, bot.channel)))
    new = game.channel_text()[lines:]
    assert sum("jumps in" in t for t in new) == 1, new
    assert f"{winner.client.nick} jumps in with R5" in new[0]
    table = bot.table()
    assert table is not None
    assert "R5" not in [str(c) for c in table.hand_of(winner.client.nick)]
    assert "R5" in [str(c) for c in table.hand_of(loser.client.nick)]
    # Play goes on from the jumper: the next seat after them moves (skipping whoever was
    # between), and its move is accepted.
    after = seat[(names.index(winner.client.nick) + 1) % 5]
    status = read_status(new)
    assert status is not None and irc_lower(status.turn) == irc_lower(after.client.nick), new
    replies = game.command(after, ".draw")
    assert not [r for r in replies if "Your cards" not in r and "You drew" not in r], replies
    moved = read_status(game.channel_text())
    assert moved is not None and irc_lower(moved.turn) != irc_lower(after.client.nick)
