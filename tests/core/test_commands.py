"""Commands one by one: lobby, refusals answered privately, rights, preferences, help."""

from __future__ import annotations

import pytest

from tests.core.fakes import Harness, channel_lines, notices, read_status, strip_codes
from unobot.core.bot import BotConfig
from unobot.core.dispatch import APOLOGY, parse_command
from unobot.core.render_irc import Cards, HandNotice, fit, hand_lines
from unobot.core.table import Table, TableConfig
from unobot.engine import DrawReason
from unobot.engine.cards import Card
from unobot.engine.errors import card_name
from unobot.irc.casemap import irc_lower


def table(h: Harness, channel: str = "#uno") -> Table:
    return h.bot.tables[irc_lower(channel)]


def only_notice_to(out: list, nick: str) -> str:
    assert [s.kind for s in out] == ["notice"], out
    assert out[0].target == nick
    return strip_codes(out[0].text)


def test_lobby_open_join_deal() -> None:
    h = Harness()
    out = h.say("alice", ".UNO")
    assert "alice opens a game" in channel_lines(out)[0]
    assert "already in" in only_notice_to(h.say("alice", ".join"), "alice")
    assert "players are needed" in only_notice_to(h.say("alice", ".deal"), "alice")
    h.say("bob", ".ujoin")
    out = h.say("carol", ".Join")
    assert channel_lines(out) == ["carol joins (3 players)."]
    # only the starter deals until the lobby timer runs out
    assert "only alice can deal for now" in only_notice_to(h.say("bob", ".deal"), "bob")
    h.advance(61)
    out = h.say("bob", ".deal")
    assert "Uno (irc-classic): alice, bob, carol" in channel_lines(out)[0]
    for nick in ("alice", "bob", "carol"):
        (hand,) = notices(out, nick)
        assert hand.removeprefix("Your turn | ").startswith("Your cards (7): ")
    assert "is being played here" in only_notice_to(h.say("dave", ".uno"), "dave")
    assert "already been dealt" in only_notice_to(h.say("dave", ".join"), "dave")


def test_lobby_leave_passes_the_deal_and_closes_when_empty() -> None:
    h = Harness()
    h.say("alice", ".uno")
    h.say("bob", ".join")
    out = h.say("alice", ".leave")
    assert channel_lines(out) == ["alice leaves; bob now deals."]
    h.say("bob", ".leave")
    assert not h.bot.tables


def test_commands_outside_a_game_are_answered_privately() -> None:
    h = Harness()
    for text in (".play r 5", ".p b9", ".draw", ".pass", ".cards", ".top"):
        reply = only_notice_to(h.say("zed", text), "zed")
        assert "no Uno game" in reply
    h.advance(10)  # refused commands count against zed's allowance (see the flood test)
    assert "no Uno game here" in only_notice_to(h.say("zed", ".deal"), "zed")
    assert "no Uno game here" in only_notice_to(h.say("zed", ".unostop"), "zed")
    assert "in the game's channel" in only_notice_to(h.pm("zed", ".uno"), "zed")
    assert h.say("zed", "hello .uno") == [] and h.say("zed", ". uno") == []
    assert h.say("zed", ".unknowncommand") == []


def dealt(seed: int = 5, players: int = 3) -> tuple[Harness, Table]:
    h = Harness(seed)
    h.start(["alice", "bob", "carol", "dave"][:players])
    return h, table(h)


def snapshot(t: Table) -> tuple:
    game = t.game
    assert game is not None
    return (game.current, game.phase, game.top, game.color, tuple(map(tuple, game.hands)))


def test_mistakes_get_a_private_reply_and_change_nothing() -> None:
    h, t = dealt()
    game = t.game
    assert game is not None
    current = t.players[game.current].nick
    other = t.players[(game.current + 1) % 3].nick
    hand = t.hand_of(current)
    missing = next(c for c in map(Card.parse, ["R7", "Y7", "G7", "B7", "R1"]) if c not in hand)
    unplayable = [c for c in hand if not c.is_wild and not game.is_playable(c, game.current)]
    before = snapshot(t)
    cases = [
        (other, ".p r 5", f"it is {current}'s turn"),
        (current, f".p {missing.text}", f"you have no {card_name(missing)}"),
        (current, ".p x 5", "'x 5' is not a card"),
        (current, ".p", "which card?"),
        (current, ".pass", "you can't pass"),
        ("zed", ".p r 5", "you are not playing"),
    ]
    if unplayable:
        cases.append((current, f".play {unplayable[0].text}", "does not match"))
    for nick, text, expected in cases:
        reply = only_notice_to(h.say(nick, text), nick)
        assert expected in reply, (text, reply)
        assert snapshot(t) == before


def test_wild_needs_a_colour_and_accepts_the_usual_forms() -> None:
    h, t = dealt()
    game = t.game
    assert game is not None
    seat = game.current
    nick = t.players[seat].nick
    wild = Card.parse("W")
    game._give(seat, [wild])  # test setup: deal the player a wild
    assert "name a colour" in only_notice_to(h.say(nick, ".play w"), nick)
    out = h.say(nick, ".PLAY W G")
    assert "plays W and picks green" in channel_lines(out)[0]
    assert read_status(channel_lines(out)).color.name == "GREEN"  # type: ignore[union-attr]


def test_unexpected_errors_are_logged_and_answered_with_an_apology(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    h, t = dealt()

    def boom(*args: object) -> None:
        raise RuntimeError("secret internals")

    monkeypatch.setattr(Table, "draw", boom)
    nick = t.players[t.game.current].nick  # type: ignore[union-attr]
    reply = only_notice_to(h.say(nick, ".draw"), nick)
    assert reply == APOLOGY
    assert "secret internals" in caplog.text
    assert all("Traceback" not in s.text for s in h.sent)


def test_cards_and_top_are_private() -> None:
    h, _ = dealt()
    out = h.say("bob", ".cards")
    assert len(out) == 2 and all(s.kind == "notice" and s.target == "bob" for s in out)
    hand, counts = (strip_codes(s.text) for s in out)
    assert hand.startswith("Your cards (7): ") and "|" not in hand
    assert counts.startswith("Cards: alice 7, bob 7, carol 7.") and "Top: " in counts
    out = h.pm("carol", ".top")
    assert out[0].kind == "notice" and strip_codes(out[0].text).startswith("Top: ")
    # a spectator gets the counts but no hand
    assert "Your cards" not in only_notice_to(h.say("zed", ".cards"), "zed")


def test_unostop_rights() -> None:
    h, _ = dealt()
    assert "only alice" in only_notice_to(h.say("bob", ".unostop"), "bob")
    out = h.say("bob", ".unostop", is_op=True)
    assert channel_lines(out) == ["bob stopped the game. .uno for another game."]
    assert not h.bot.tables

    h, _ = dealt()
    h.say("zed", ".unostop", userhost="z@admin.example")
    assert h.bot.tables  # not an admin
    h.bot.config = BotConfig(admins=frozenset({"zed!*@admin.example"}))
    h.say("zed", ".unostop", userhost="z@admin.example")
    assert not h.bot.tables

    h = Harness(config=BotConfig(table=TableConfig(turn_timeout=1000)))
    h.start(["alice", "bob"])
    h.advance(5)  # anyone may stop once nobody has moved for 300 s
    refused = only_notice_to(h.say("zed", ".unostop"), "zed")
    assert refused == (
        "only alice, an operator or a bot admin can stop this game now; "
        "if nobody moves, anyone can in about 5 minutes"
    )
    h.advance(294)
    assert only_notice_to(h.say("zed", ".unostop"), "zed").endswith("anyone can in 1 second")
    h.advance(1)
    h.say("zed", ".unostop")
    assert not h.bot.tables

    h, _t = dealt()
    said = channel_lines(h.say("alice", ".unostop"))
    assert said == ["alice stopped the game. .uno for another game."]


def test_colour_preference_per_player_and_plain_hands() -> None:
    h = Harness()
    assert "plain letters" in only_notice_to(h.pm("bob", ".pce-off"), "bob")
    out = h.start(["alice", "bob"])
    (alice,) = [s.text for s in out if s.target == "alice"]
    (bob,) = [s.text for s in out if s.target == "bob"]
    assert "\x03" in alice
    assert "\x03" not in bob and "\x02" not in bob and "\x0f" not in bob
    h.say("Bob", ".pce-on")
    out = h.say("bob", ".cards")
    assert "\x03" in out[0].text


def test_help_is_private_and_short() -> None:
    h = Harness()
    for text in (".uno-help", ".unohelp", ".UNOHELP"):
        out = h.say("zed", text)
        assert 1 <= len(out) <= 3
        assert all(s.kind == "notice" and s.target == "zed" for s in out)
        assert all(len(s.text.encode()) <= 400 for s in out)
        assert ".p b 9" in out[1].text and ".draw" in out[1].text


def test_prefix_is_configurable_and_parsing_is_case_insensitive() -> None:
    assert parse_command(".P  b 9 ", ".") == ("p", "b 9")
    assert parse_command("!play r s", "!") == ("play", "r s")
    assert parse_command(".", ".") is None and parse_command(". p", ".") is None
    h = Harness(config=BotConfig(prefix="!"))
    assert h.say("alice", ".uno") == []
    assert "opens a game" in channel_lines(h.say("alice", "!uno"))[0]


def test_no_line_injection_from_user_text() -> None:
    h, t = dealt()
    nick = t.players[t.game.current].nick  # type: ignore[union-attr]
    out = h.say(nick, ".p r\r\nPRIVMSG #uno :pwned\x00")
    assert len(out) == 1 and out[0].kind == "notice"
    assert "\r" not in out[0].text and "\n" not in out[0].text and "\x00" not in out[0].text


def test_lines_are_split_at_card_boundaries() -> None:
    many = [Card.parse(t) for t in ["R1", "R2", "Y3", "G4", "BS", "BR", "BD2", "W", "WD4"]] * 12
    for colors in (True, False):
        lines = hand_lines(HandNotice(tuple(many), tuple(many[:20])), Cards(colors))
        assert len(lines) > 1
        for line in lines:
            assert len(line.encode()) <= 400
        words = " ".join(strip_codes(x) for x in lines).split()
        cards = [w for w in words if w in {"R1", "R2", "Y3", "G4", "BS", "BR", "BD2", "W", "WD4"}]
        assert len(cards) == len(many) + 20
    assert fit("x" * 900) == ["x" * 400, "x" * 400, "x" * 100]


def test_big_hands_and_end_of_game_lines_stay_under_400_bytes() -> None:
    h, t = dealt(players=4)
    game = t.game
    assert game is not None
    nick = t.players[game.current].nick
    game.penalize(game.current, 50, DrawReason.DRAW)
    out = h.say(nick, ".cards")
    assert len(out) >= 2
    assert all(len(s.text.encode()) <= 400 for s in out)
    out = h.say(nick, ".leave")
    out += h.say("alice" if nick != "alice" else "bob", ".unostop")
    assert all(len(s.text.encode()) <= 400 for s in out)


def test_dot_uno_calls_uno_in_a_game_with_manual_calls() -> None:
    from unobot.engine import preset

    h = Harness(2, BotConfig(table=TableConfig(rules=preset("official"))))
    h.start(["alice", "bob"])
    reply = only_notice_to(h.say("bob", ".uno"), "bob")
    assert "more than one card" in reply


def test_a_command_flood_is_ignored_after_one_warning() -> None:
    h, _ = dealt()
    replies = [h.say("zed", ".top") for _ in range(30)]  # 30 at once: only 10 answered
    answered = [r for r in replies if r]
    assert len(answered) == 11
    assert "Slow down" in only_notice_to(answered[-1], "zed")
    assert h.say("zed", ".top") == []  # still ignored, and not told again
    h.advance(3)
    assert "Top: " in strip_codes(only_notice_to(h.say("zed", ".top"), "zed"))
    # accepted moves are paced by the game and never count: a whole game at one instant
    from tests.core.test_games import play_game

    h = Harness(3)
    played = play_game(h, ["alice", "bob", "carol"])
    assert played.winner_line
    assert "Slow down" not in " ".join(s.text for s in h.sent)


def test_the_budget_follows_the_person_not_the_nick() -> None:
    """A new nick on the same host, clones on one host and one account on many hosts share
    one budget; another host has its own."""
    h, _ = dealt()
    host = {"userhost": "u@clone.example"}
    answered = [h.say(f"clone{i % 3}", ".top", **host) for i in range(20)]
    # ten, then one "slow down" to each nick (several people may share a host)
    assert len([r for r in answered if r]) == 13
    assert [r[0].target for r in answered if r and "Slow down" in r[0].text] == [
        "clone1", "clone2", "clone0"
    ]  # fmt: skip
    told = h.say("newnick", ".top", **host)  # a nick change buys nothing
    assert "Slow down" in only_notice_to(told, "newnick")
    assert h.say("newnick", ".top", **host) == []
    assert h.say("other", ".top", userhost="o@elsewhere.example")  # somebody else: answered
    h.advance(20)  # every budget full again (the channel's too)
    acct = [
        h.say(f"roam{i}", ".top", userhost=f"r@{i}.example", account="roamer") for i in range(12)
    ]
    assert len([r for r in acct if r]) == 12  # ten, then "slow down" to each further nick
    assert all("Slow down" in r[0].text for r in acct[10:])


def test_a_channel_flooded_by_many_hosts_still_plays() -> None:
    """Forty hosts asking for help over and over use up the channel's budget for
    informational commands: they wait; someone who had not asked is still answered and never
    told to slow down; the game's moves still go."""
    from tests.core.test_games import play_game

    h = Harness(3)
    for _ in range(3):
        for i in range(40):
            h.say(f"flood{i}", ".top", userhost=f"f@flood{i}.example")
    again = [h.say(f"flood{i}", ".top", userhost=f"f@flood{i}.example") for i in range(40)]
    assert all(not r or "Slow down" in r[0].text for r in again)
    asked = [h.say(f"late{i}", ".top", userhost=f"l@late{i}.example") for i in range(3)]
    assert all(r and "no Uno game" in r[0].text for r in asked)  # answered, not refused
    played = play_game(h, ["alice", "bob", "carol"])
    assert played.winner_line


def test_clones_on_five_hosts_never_get_an_innocent_user_told_to_slow_down() -> None:
    """Five hosts each within their own budget (a command every 2 s) spend the channel's;
    carol, who asks now and then, is answered every time."""
    h, _ = dealt()
    for second in range(60):
        for i in range(5):
            h.say(f"clone{i}", ".unohelp", userhost=f"c@{i}.example")
        if second % 10 == 5:
            out = h.say("carol", ".top", userhost="carol@home.example")
            assert out and "Slow down" not in out[0].text, second
            assert "Top: " in strip_codes(only_notice_to(out, "carol"))
        h.advance(2)


def test_a_flood_by_many_hosts_never_stops_a_person_seating_computer_players() -> None:
    """``.addbot`` and ``.removebot`` are lobby moves like ``.join`` and ``.leave``: accepted,
    they need only the person's own budget (the table paces them: the player limit, before
    the deal only), so others emptying the channel's and everyone's budgets can't keep a
    person from a game against computer players; nor can a person's own quick re-deals."""
    h = Harness(3)
    for i in range(40):
        h.say(f"flood{i}", ".top", userhost=f"f@{i}.example")
    for channel in ("#uno", "#a", "#b", "#c"):  # four games, each with three computers
        said = channel_lines(h.say("alice", ".uno", channel), channel)
        assert "opens a game" in said[0], said
        for _ in range(3):
            said = channel_lines(h.say("alice", ".addbot", channel), channel)
            assert said and "joins" in said[0], said
        said = channel_lines(h.say("alice", ".removebot", channel), channel)
        assert said and "leaves" in said[0], said
        assert channel_lines(h.say("alice", ".addbot", channel), channel)
        assert "Uno (" in channel_lines(h.say("alice", ".deal", channel), channel)[0]
