"""The rules in the channel, over real IRC servers with real client connections.

- The real entry point on its embedded server (the quick start): the first person in the
  channel is its operator; ``.unorules list`` invites them to choose a preset and tells anyone
  else who chooses. The operator chooses ``jump-in``; the deal names the preset and, in a line
  of its own, says what Jump-In is; a play out of turn is refused naming the rule.
- ngircd / miniircd: No Mercy's stacking hint names what can stack now (``+6/+10`` after a
  Wild Draw Six), and the player's hand marks the same card playable; a lower draw card is
  refused naming the rule. A ``hard`` computer player's 7 under Seven-O names whom it swaps
  with in the same line, never the prompt meant for people.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from pathlib import Path

from tests.core.fakes import read_status, strip_codes
from tests.e2e.client import Msg, TestClient
from tests.e2e.conftest import unique
from tests.e2e.servers import IrcServer
from tests.e2e.test_embedded_ops import _from_bot, _names, join_first
from tests.e2e.test_entrypoint import BotProcess, free_port
from tests.e2e.test_games import (  # noqa: F401  (fixtures)
    NetGame,
    Player,
    RunningBot,
    make_players,
    players_for,
    run_bot,
    server,
)
from tests.e2e.test_seven_jump_e2e import rig
from unobot.core.computers import ComputerConfig
from unobot.core.table import TableConfig
from unobot.engine import preset
from unobot.irc.casemap import irc_lower

JUMP_IN = "Jump-In: whoever holds the very card on top may play it out of turn."


def _ask(client: TestClient, text: str, what: Callable[[Msg], bool]) -> Msg:
    """``client`` says ``text`` in #uno; the bot's first line after it that ``what`` accepts."""
    mark = len(client.snapshot())
    client.privmsg("#uno", text)
    return client.wait_for(lambda m: _from_bot(m) and what(m), after=mark, timeout=20, what=text)


def test_quick_start_rules_list_deal_line_and_a_named_jump_refusal(tmp_path: Path) -> None:
    bot = BotProcess(tmp_path, free_port())
    clients: list[TestClient] = []
    try:
        alice = TestClient(bot.port, "alice")
        clients.append(alice)
        join_first(alice, bot)  # the first person in: the channel's operator
        bob, cat = TestClient(bot.port, "bob"), TestClient(bot.port, "cat")
        clients += [bob, cat]
        for c in (bob, cat):
            c.join("#uno")
            assert c.nick in _names(c, "#uno")

        # .unorules list: an invitation for the operator, who may choose, for bob only who can.
        listed = _ask(bob, ".unorules list", lambda m: "Presets:" in m.text)
        assert listed.command == "NOTICE" and "jump-in" in listed.text
        assert listed.text.endswith("Channel operators and bot admins choose one."), listed.text
        time.sleep(1.0)  # a person's pace
        listed = _ask(alice, ".unorules list", lambda m: "Presets:" in m.text)
        assert listed.text.endswith("Choose one: .unorules preset <name>"), listed.text
        time.sleep(1.0)
        told = _ask(alice, ".unorules preset jump-in", lambda m: "set the rules" in m.text)
        assert "alice set the rules: jump-in" in told.text

        # .unorules now says what the preset changes, in the same words as the deal will.
        shown = _ask(bob, ".unorules", lambda m: m.text.startswith("Jump-In"))
        assert strip_codes(shown.text) == JUMP_IN

        _ask(alice, ".uno", lambda m: "opens a game" in m.text)
        time.sleep(1.0)
        _ask(bob, ".join", lambda m: "bob joins" in m.text)
        time.sleep(1.0)
        _ask(cat, ".join", lambda m: "cat joins" in m.text)
        time.sleep(1.0)
        mark = len(cat.snapshot())
        alice.privmsg("#uno", ".deal")
        note = cat.wait_for(
            lambda m: _from_bot(m) and m.command == "PRIVMSG" and "Jump-In" in m.text, after=mark
        )
        said = [strip_codes(m.text) for m in cat.snapshot()[mark:] if _from_bot(m)]
        said = [t for t in said if "Your" not in t]  # the hands (cat's own) aside
        deal = next(i for i, t in enumerate(said) if t.startswith("Uno (jump-in)"))
        assert said[deal].startswith("Uno (jump-in) [to 500 points]: alice, bob, cat."), said
        assert said[deal + 1] == strip_codes(note.text) == JUMP_IN, said

        # Whoever is not to move plays a card out of turn: the refusal names the rule.
        status = read_status([said[deal]])
        assert status is not None, said
        turn = irc_lower(status.turn)
        other = next(c for c in (alice, bob, cat) if irc_lower(c.nick) != turn)
        time.sleep(1.0)
        card = ".p g 5" if str(status.top) == "R5" else ".p r 5"  # never the very card on top
        refusal = _ask(other, card, lambda m: m.command == "NOTICE" and "turn" in m.text)
        text = strip_codes(refusal.text)
        assert text.startswith(f"it is {status.turn}'s turn; "), text
        assert "jump" in text, text  # which part of Jump-In it missed:
        if status.top.is_wild:  # a Wild turned first: nobody may jump in on it
            assert "on a wild" in text, text
        else:
            assert "card" in text, text  # only with the very card on top
    finally:
        for client in clients:
            client.close()
        out = bot.stop()
    assert "Traceback" not in out, out


def test_no_mercy_stack_hint_names_what_stacks_and_the_hand_agrees_over_irc(
    run_bot: Callable[..., RunningBot],  # noqa: F811
    players_for: Callable[[RunningBot, int], list[Player]],  # noqa: F811
) -> None:
    bot = run_bot(TableConfig(rules=preset("no-mercy")), seed=4)
    players = players_for(bot, 3)
    game = NetGame(bot, players)
    game.start()
    players[0].client.wait_for(
        lambda m: m.nick == bot.nick and m.text.startswith("No Mercy deck:"), what="the note"
    )
    names = rig(bot, ["WD6 RD4 R1 R2", "RD2 BD4 WD10 G7", "Y1 Y2 Y3"], top="R5")
    by_nick = {irc_lower(p.client.nick): p for p in players}
    a, b, _c = (by_nick[irc_lower(n)] for n in names)
    game.command(b, ".pce-off")  # the playable cards in brackets
    time.sleep(1.0)
    mark = len(b.client.snapshot())
    game.command(a, ".p wd6 g")
    assert f"{names[1]} must draw 6 (.draw or stack a +6/+10)." in game.channel_text()[-1]
    hand = b.client.wait_for(
        lambda m: m.nick == bot.nick and "Your turn" in m.text, after=mark, what="b's turn hand"
    )
    assert set(re.findall(r"\[(\w+)\]", hand.text)) == {"WD10"}, hand.text
    time.sleep(1.0)
    replies = game.command(b, ".p b d4")
    assert "you must draw 6, or stack a draw card of +6 or more" in replies, replies
    time.sleep(1.0)
    game.command(b, ".p wd10 y")
    assert f"{names[2]} must draw 16 (.draw or stack a +10)." in game.channel_text()[-1]


def test_a_hard_computer_players_seven_names_its_swap_in_one_line_over_irc(
    server: IrcServer,  # noqa: F811
) -> None:
    bots = ComputerConfig(delay=0.3, playouts=40, workers=1)
    bot = RunningBot(
        server, "#" + unique("uno"), TableConfig(rules=preset("seven-o")), 9, bots=bots
    )
    (person, other) = make_players(server, 2, bot.channel)
    try:
        game = NetGame(bot, [person, other])
        game.command(person, ".uno")
        game.command(person, ".addbot hard")
        game.command(other, ".join")
        game.command(person, ".deal")
        time.sleep(0.5)
        table = bot.table()
        assert table is not None and [p.nick for p in table.players][1] == "HardBot1"
        # The person is to move; HardBot1 then holds one card it may play: its R7.
        rig(
            bot,
            ["R1 G2 G3 Y4 B5", "R7 Y3 Y5 G8 G9 B2", "B1 B3 Y6 G4"],
            top="R5",
        )
        mark = len(person.client.snapshot())
        game.command(person, ".p r1")
        line = person.client.wait_for(
            lambda m: m.nick == bot.nick and m.command == "PRIVMSG" and "HardBot1 plays" in m.text,
            after=mark,
            timeout=30,
            what="HardBot1's move",
        )
        text = strip_codes(line.text)
        assert re.match(r"HardBot1 plays R7, HardBot1 swaps hands with \S+ \(", text), text
        time.sleep(1.0)  # anything more the bot says has come
        said = " ".join(
            strip_codes(m.text)
            for m in person.client.snapshot()[mark:]
            if m.nick == bot.nick and m.command == "PRIVMSG"
        )
        assert "swap with whom" not in said, said
    finally:
        person.client.close()
        other.client.close()
        bot.bot.computers.close()
        bot.stop()
