"""Hands where a client shows them (issue 37 item 4): ``.unohand query`` sends a player's
hands by private message (PRIVMSG: a query window in irssi, WeeChat, HexChat, mIRC) instead of
by NOTICE (irssi's status window), remembered like ``.pce-off``; every hand follows it (the
deal, a draw, the turn's hand, ``.cards``, a restored game, a tournament's table), with the
same send-queue tags as a NOTICE hand; replies to commands stay NOTICEs."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from tests.core.fakes import Harness, Sent, channel_lines, notices, strip_codes
from tests.core.test_restore import journaled, restarted
from tests.tournament.test_director import Event, knockout_with_ann
from unobot.core.render_irc import render_update
from unobot.core.settings import DatabaseSettings, MemorySettings
from unobot.core.updates import HandNotice, Update
from unobot.engine.cards import Card
from unobot.irc.outbox import Outbox
from unobot.irc.transport import Incoming, Kind, Tag

R1, G2 = Card.parse("R1"), Card.parse("G2")


def pms(sent: list[Sent], nick: str) -> list[str]:
    """Private messages (PRIVMSG) to ``nick``, plain."""
    return [strip_codes(s.text) for s in sent if s.kind == "privmsg" and s.target == nick]


def hands(texts: list[str]) -> list[str]:
    return [t for t in texts if "Your cards (" in t]


# --- rendering and the send queue --------------------------------------------------------------


def test_a_query_hand_is_a_privmsg_with_the_notice_hands_tags() -> None:
    update = Update(
        hands={
            "amy": HandNotice((R1, G2), (G2,)),
            "bob": HandNotice((R1,), playable=(R1,), optional=True),
        }
    )
    plain = render_update(update, "#uno", lambda nick: False)
    query = render_update(update, "#uno", lambda nick: False, query=lambda nick: True)
    assert [(ln.kind, ln.target) for ln in plain] == [("notice", "amy"), ("notice", "bob")]
    assert [(ln.kind, ln.target) for ln in query] == [("privmsg", "amy"), ("privmsg", "bob")]
    assert [ln.text for ln in query] == [ln.text for ln in plain]
    for a, b in zip(plain, query, strict=True):  # the same flow, key, part, optional
        assert (a.tag.channel, a.tag.key, a.tag.part, a.tag.optional, a.tag.reply) == (
            b.tag.channel,
            b.tag.key,
            b.tag.part,
            b.tag.optional,
            b.tag.reply,
        )
    mixed = render_update(update, "#uno", lambda nick: False, query=lambda nick: nick == "bob")
    assert [ln.kind for ln in mixed] == ["notice", "privmsg"]


def test_the_outbox_queues_a_privmsg_hand_as_it_does_a_notice_hand() -> None:
    """Private lane, the game's flow, before the channel's line; a newer hand of the same key
    replaces a queued one; ``via`` names the channel (``CPRIVMSG`` where ircu allows)."""
    for command in ("NOTICE", "PRIVMSG"):
        box = Outbox(burst=1, rate=1.0)
        box.push("PRIVMSG", "#uno", "amy plays R1. bob's turn.", tag=Tag("#uno"))
        box.push(command, "bob", "Your cards (3): old", tag=Tag("#uno", key="hand bob"))
        box.push(command, "bob", "Your cards (2): new", tag=Tag("#uno", key="hand bob"))
        sent = []
        now = 0.0
        while len(sent) < 2:
            sent += box.due(now)
            now += 1.0
        assert [(ln.command, ln.target, ln.text) for ln in sent] == [
            (command, "bob", "Your cards (2): new"),
            ("PRIVMSG", "#uno", "amy plays R1. bob's turn."),
        ], command
        assert sent[0].via == "#uno"


# --- the command -------------------------------------------------------------------------------


def test_unohand_query_and_notice_switch_it_and_on_off_still_work() -> None:
    h = Harness()
    assert h.settings.hand_query("amy") is False  # NOTICE unless chosen
    out = h.say("Amy", ".unohand query")
    (reply,) = pms(out, "Amy")  # the answer comes where the hands will: the query window
    assert reply.startswith("Your hand comes as a private message (a query window) when it")
    assert not notices(out, "Amy")
    assert h.settings.hand_query("amy") is True and h.settings.turn_hands("amy") is True
    (reply,) = pms(h.say("amy", ".unohand off"), "amy")
    assert "only when it changes" in reply and ".unohand notice: by NOTICE" in reply
    assert h.settings.turn_hands("amy") is False and h.settings.hand_query("amy") is True
    (reply,) = notices(h.say("amy", ".unohand notice on"), "amy")
    assert reply.startswith("Your hand comes by NOTICE when it changes and when your turn")
    assert ".unohand query: as a private message" in reply
    assert h.settings.turn_hands("amy") is True and h.settings.hand_query("amy") is False
    (reply,) = pms(h.pm("amy", ".unohand PM off"), "amy")  # aliases; said in private too
    assert "private message" in reply and h.settings.hand_query("amy") is True
    (reply,) = notices(h.say("amy", ".unohand query sideways"), "amy")  # a refusal: a NOTICE
    assert reply.startswith(".unohand on or off (") and "sideways" not in reply
    assert h.settings.turn_hands("amy") is False  # nothing changed by a refused command


# --- every hand follows it ---------------------------------------------------------------------


def _mover(h: Harness) -> str:
    table = h.bot.tables["#uno"]
    assert table.game is not None
    return table.players[table.game.current].nick


def test_every_hand_of_a_game_goes_by_privmsg_to_a_query_player_only() -> None:
    h = Harness(5)
    h.say("amy", ".unohand query")
    out = h.start(["amy", "bob", "cy"])
    assert hands(pms(out, "amy")) and not hands(notices(out, "amy"))  # the deal
    assert hands(notices(out, "bob")) and not pms(out, "bob")
    seen_turn = seen_draw = False
    for _ in range(60):
        if not h.bot.tables:
            break
        table = h.bot.tables["#uno"]
        game = table.game
        assert game is not None
        nick = _mover(h)
        legal = game.legal_actions()
        play = next((a for a in legal if type(a).__name__ == "Play"), None)
        if play is None:
            out = h.say(nick, ".draw")
        else:
            color = f" {play.color.letter.lower()}" if play.color is not None else ""
            out = h.say(nick, f".p {play.card.text.lower()}{color}")
        amy = [s for s in out if s.target == "amy"]
        assert all(s.kind == "privmsg" for s in amy if "Your cards (" in s.text), amy
        seen_turn |= any("Your turn | " in strip_codes(s.text) for s in amy)
        seen_draw |= any(strip_codes(s.text).startswith("You drew ") for s in amy)
        for s in amy:
            if "Your turn | " in strip_codes(s.text):
                assert s.tag.optional and s.tag.key == "hand amy"  # same as a NOTICE's
    assert seen_turn and seen_draw
    # A refusal stays a NOTICE; .cards goes where the hands go.
    if h.bot.tables:
        wrong = "bob" if _mover(h) != "bob" else "cy"
        assert notices(h.say(wrong, ".draw"), wrong)
        out = h.say("amy", ".cards")
        told = pms(out, "amy")
        assert hands(told) and any(t.startswith("Cards: ") for t in told)
        assert not notices(out, "amy")


def test_a_nick_change_keeps_it() -> None:
    h = Harness(5)
    h.say("amy", ".unohand query")
    h.start(["amy", "bob"])
    h.event(Kind.NICK, "amy", new_nick="amelia")
    out = h.say("amelia", ".cards")
    assert hands(pms(out, "amelia"))


def test_a_restored_game_sends_the_hands_again_by_privmsg(tmp_path: Path) -> None:
    first, _store = journaled(tmp_path, seed=4, start=1000.0)
    first.settings.set_hand_query("amy", True)
    first.start(["amy", "bob"])
    second, _ = restarted(tmp_path, died_at=1000.0, later=30.0)
    second.settings = second.bot.settings = first.settings  # the same database
    second.bot.restore()
    out = second.event(Kind.JOIN, "unobot", "#uno")
    assert hands(pms(out, "amy")) and not hands(notices(out, "amy"))
    assert hands(notices(out, "bob"))
    assert any("back" in line.lower() or "restart" in line.lower() for line in channel_lines(out))


def test_a_tournament_table_sends_a_query_players_hands_by_privmsg() -> None:
    event = Event(scale=1 / 60)
    event.say("ann", ".unohand query")
    _cup, at = knockout_with_ann(event, "grace=30m", 3)
    start = len(event.transport.sent)
    event.feed(Incoming(Kind.JOIN, "ann", at))
    assert event.bot.tables[at.lower()].dealt
    sent = event.transport.sent[start:]
    assert hands(pms(sent, "ann")) and not hands(notices(sent, "ann"))


# --- remembered ------------------------------------------------------------------------------


def test_memory_settings_default_to_notice_and_remember() -> None:
    settings = MemorySettings()
    assert settings.hand_query("amy") is False
    settings.set_hand_query("amy", True)
    assert settings.hand_query("amy") is True and settings.turn_hands("amy") is True


def test_an_old_player_setting_table_gains_the_column_and_keeps_its_rows(tmp_path: Path) -> None:
    """A ``player_setting`` from before ``.unohand`` (no ``turn_hand``), and one from before
    ``.unohand query`` (no ``hand_query``): each keeps its rows and gains what it lacks."""
    for columns in ("colors INTEGER", "colors INTEGER, turn_hand INTEGER"):
        path = tmp_path / f"{len(columns)}.db"
        with sqlite3.connect(path) as db:
            db.execute(f"CREATE TABLE player_setting (player VARCHAR(200) PRIMARY KEY, {columns})")
            values = "('bob', 0)" if "turn_hand" not in columns else "('bob', 0, 0)"
            db.execute(f"INSERT INTO player_setting VALUES {values}")
        url = f"sqlite:///{path}"
        settings = DatabaseSettings(url)
        assert settings.colors("bob") is False and settings.hand_query("bob") is False
        settings.set_hand_query("amy", True)
        settings.set_hand_query("bob", True)
        settings.close()
        again = DatabaseSettings(url)
        assert again.hand_query("amy") is True and again.hand_query("bob") is True
        assert again.colors("bob") is False and again.turn_hands("amy") is True
        _colors, _rules, _turn, query, _languages = again.load_all()
        assert query == {"amy": True, "bob": True}
        again.close()


# Written through the database worker and loaded by the next bot: tests/core/test_turn_hand.py
# ::test_background_settings_write_it_and_a_restart_loads_it[hand_query] (one test for each of
# .unohand's preferences).


def test_game_commands_typed_in_the_query_window_reach_the_game() -> None:
    """What a player types in the query window is a private message to the bot: the game
    commands go to the one game they sit at."""
    h = Harness(5)
    h.say("amy", ".unohand query")
    h.start(["amy", "bob"])
    table = h.bot.tables["#uno"]
    assert table.game is not None
    mover = _mover(h)
    play = next((a for a in table.game.legal_actions() if type(a).__name__ == "Play"), None)
    if play is None:
        out = h.pm(mover, ".draw")
    else:
        color = f" {play.color.letter.lower()}" if play.color is not None else ""
        out = h.pm(mover, f".p {play.card.text.lower()}{color}")
    assert any(line.startswith(f"{mover} ") for line in channel_lines(out)), out
    assert _mover(h) != mover or table.game.phase.name == "DRAWN"
    told = pms(h.pm("amy", ".cards"), "amy")
    assert hands(told)
