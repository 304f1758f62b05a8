"""The hand that comes when the turn does (issue 27 item 3): how it is written (playable cards
marked, plain under ``.pce-off``), when the table sends it (and never two copies a turn), and
``.unohand on|off``, remembered like ``.pce-off``."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from tests.core.fakes import Harness, Sent, channel_lines, notices, read_status, strip_codes
from tests.stats.test_worker import Reactor
from unobot.core.bot import BotConfig
from unobot.core.render_irc import Cards, hand_lines, render_update
from unobot.core.settings import BackgroundSettings, DatabaseSettings, MemorySettings
from unobot.core.table import Table, TableConfig
from unobot.core.updates import HandNotice, Update
from unobot.engine.actions import Draw, Play
from unobot.engine.cards import Card
from unobot.engine.game import Game
from unobot.irc.casemap import irc_lower
from unobot.stats.worker import DbWorker

R1, G2, R9, W, WD4 = (Card.parse(t) for t in ("R1", "G2", "R9", "W", "WD4"))


# --- rendering -------------------------------------------------------------------------------


def test_plain_marks_playable_cards_in_brackets_and_has_no_codes() -> None:
    notice = HandNotice((G2, R1, WD4, R9), playable=(R1, R9))
    (line,) = hand_lines(notice, Cards(False))
    assert line == "Your turn | Your cards (4): [R1] [R9] G2 WD4"
    assert line == strip_codes(line)


def test_colours_mark_playable_cards_in_bold_and_only_them() -> None:
    """Bold means playable, and only that (issue 37): a wild is a black card (white on
    black), bold when it may be played like any other card, never for being wild."""
    fmt = Cards(True)
    text = fmt.hand((R1, G2, W, WD4), playable=(R1, W))
    assert text.split(" ") == [
        "\x02\x0301,04R1\x0f",
        "\x0301,03G2\x0f",
        "\x02\x0300,01W\x0f",
        "\x0300,01WD4\x0f",
    ]
    assert fmt.hand((R1, W)) == "\x0301,04R1\x0f \x0300,01W\x0f"  # unmarked: nothing bold
    (line,) = hand_lines(HandNotice((R1, G2), playable=()), fmt)
    assert strip_codes(line) == "Your turn | Your cards (2): R1 G2"  # nothing to play: none


def test_a_hand_that_is_not_a_turns_is_written_as_before() -> None:
    (line,) = hand_lines(HandNotice((R1, G2), (G2,)), Cards(False))
    assert line == "You drew G2 | Your cards (2): R1 G2"


def test_render_sends_optional_hands_last_tagged_and_only_to_who_wants_them() -> None:
    update = Update(
        hands={
            "bob": HandNotice((R1,), playable=(R1,), optional=True),
            "amy": HandNotice((G2,), (G2,)),
        }
    )
    lines = render_update(update, "#uno", lambda nick: False)
    assert [(ln.target, ln.tag.optional) for ln in lines] == [("amy", False), ("bob", True)]
    assert lines[1].text == "Your turn | Your cards (1): [R1]"
    assert lines[1].tag.key == "hand bob"  # a newer hand of bob's replaces it in the queue
    lines = render_update(update, "#uno", lambda nick: False, turn_hands=lambda n: n != "bob")
    assert [ln.target for ln in lines] == ["amy"]


# --- the setting -----------------------------------------------------------------------------


def test_memory_settings_default_on_and_remember() -> None:
    settings = MemorySettings()
    assert settings.turn_hands("alice") is True
    settings.set_turn_hands("alice", False)
    assert settings.turn_hands("alice") is False and settings.colors("alice") is True


def test_database_settings_keep_it_and_gain_its_column(tmp_path: Path) -> None:
    """A ``player_setting`` table made before ``.unohand`` keeps its rows and gains the
    column; the two preferences are stored apart."""
    path = tmp_path / "stats.db"
    with sqlite3.connect(path) as db:
        db.execute("CREATE TABLE player_setting (player VARCHAR(200) PRIMARY KEY, colors INTEGER)")
        db.execute("INSERT INTO player_setting VALUES ('bob', 0)")
    url = f"sqlite:///{path}"
    settings = DatabaseSettings(url)
    assert settings.colors("bob") is False and settings.turn_hands("bob") is True
    settings.set_turn_hands("alice", False)
    settings.set_colors("alice", False)
    settings.close()
    again = DatabaseSettings(url)
    assert again.turn_hands("alice") is False and again.colors("alice") is False
    assert again.turn_hands("bob") is True
    colors, _rules, turn_hands, _query, _languages = again.load_all()
    assert turn_hands == {"alice": False, "bob": True} and colors["bob"] is False
    again.close()


@pytest.mark.parametrize(
    ("preference", "chosen"),
    [("turn_hands", False), ("hand_query", True)],  # .unohand off; .unohand query
)
def test_background_settings_write_it_and_a_restart_loads_it(
    tmp_path: Path, preference: str, chosen: bool
) -> None:
    """Each of ``.unohand``'s two preferences: in memory at once, written by the worker, there
    for the next bot; whoever never chose has the default (the opposite of ``chosen``)."""
    url = f"sqlite:///{tmp_path / 'stats.db'}"
    reactor = Reactor()
    worker = DbWorker(reactor, timeout=1.0)
    settings = BackgroundSettings(lambda: DatabaseSettings(url), worker)
    getattr(settings, f"set_{preference}")("alice", chosen)
    assert getattr(settings, preference)("alice") is chosen  # at once, before the worker wrote it
    reactor.pump(until=lambda: settings.loaded and settings.pending == 0)
    settings.close()
    assert worker.close(2.0)
    worker = DbWorker(reactor, timeout=1.0)
    restarted = BackgroundSettings(lambda: DatabaseSettings(url), worker)
    reactor.pump(until=lambda: restarted.loaded)
    assert getattr(restarted, preference)("alice") is chosen
    assert getattr(restarted, preference)("bob") is (not chosen)
    restarted.close()
    assert worker.close(2.0)


def test_unohand_says_the_state_and_switches_it() -> None:
    h = Harness()
    (reply,) = notices(h.say("Bob", ".unohand"), "Bob")
    assert "when your turn comes" in reply and ".unohand off" in reply
    (reply,) = notices(h.say("Bob", ".unohand OFF"), "Bob")
    assert "only when it changes" in reply and ".cards" in reply
    assert h.settings.turn_hands("bob") is False  # by the folded nick, like .pce-off
    assert "only when it changes" in notices(h.pm("bob", ".unohand"), "bob")[0]
    (reply,) = notices(h.say("bob", ".unohand maybe\r\nQUIT"), "bob")
    assert reply.startswith(".unohand on or off (") and "maybe" not in reply
    assert ".unohand query or notice" in reply and "QUIT" not in reply
    assert h.settings.turn_hands("bob") is False
    h.say("bob", ".unohand on")
    assert h.settings.turn_hands("bob") is True


def test_help_mentions_it() -> None:
    text = " ".join(strip_codes(s.text) for s in Harness().say("zed", ".unohelp"))
    assert ".unohand off" in text and "when your turn comes" in text


# --- when it comes ---------------------------------------------------------------------------


def _table(h: Harness) -> Table:
    return h.bot.tables["#uno"]


def _turn_notices(out: list[Sent], nick: str) -> list[str]:
    return [t for t in notices(out, nick) if "Your turn | " in t]


def _marked(text: str) -> set[Card]:
    """The cards a plain (``.pce-off``) turn notice marks."""
    words = text.split(": ", 1)[1].split()
    return {Card.parse(w[1:-1]) for w in words if w.startswith("[")}


def _to_move(h: Harness) -> tuple[Table, Game, str]:
    """The table, its game (dealt) and the nick of the player to move."""
    table = _table(h)
    game = table.game
    assert game is not None
    return table, game, table.players[game.current].nick


def _plain_pair(seed: int) -> Harness:
    """alice and bob dealt a game, both ``.pce-off`` (brackets mark what they may play)."""
    h = Harness(seed)
    for nick in ("alice", "bob"):
        h.say(nick, ".pce-off")
    h.start(["alice", "bob"])
    return h


def _move(h: Harness) -> list[Sent]:
    """The player to move plays a legal card (the first), else draws."""
    _, game, nick = _to_move(h)
    legal = game.legal_actions()
    play = next((a for a in legal if type(a) is Play), None)
    if play is None:
        assert Draw() in legal
        return h.say(nick, ".draw")
    color = f" {play.color.letter.lower()}" if play.color is not None else ""
    return h.say(nick, f".play {play.card.text.lower()}{color}")


def test_the_player_to_move_gets_their_hand_with_the_playable_cards_marked() -> None:
    nicks = ["alice", "bob", "carol"]
    h = Harness(5)
    for nick in nicks:
        h.say(nick, ".pce-off")
    out = h.start(nicks)
    sent_turns = 0
    for _ in range(40):
        table = _table(h) if h.bot.tables else None
        if table is None or table.game is None or table.game.over:
            break
        game = table.game
        current = table.players[game.current].nick
        turn = _turn_notices(out, current)
        if read_status(channel_lines(out)) is not None and game.phase.name in ("PLAY", "PENDING"):
            # Every turn's player was told, once, with exactly the cards they may play marked.
            assert len(turn) == 1, (current, notices(out, current))
            legal = {a.card for a in game.legal_actions() if type(a) is Play}
            assert _marked(turn[0]) == legal
            assert f"Your cards ({game.hand_size(game.current)})" in turn[0]
            sent_turns += 1
        for nick in nicks:  # nobody else is told it is their turn
            assert nick == current or not _turn_notices(out, nick)
        assert len(notices(out, current)) <= 1  # never two copies of one hand
        out = _move(h)
    assert sent_turns >= 20


def test_at_the_deal_the_first_players_hand_is_marked_not_sent_twice() -> None:
    h = Harness(3)
    out = h.start(["alice", "bob", "carol"])
    game = _table(h).game
    assert game is not None
    first = _table(h).players[game.current].nick
    for nick in ("alice", "bob", "carol"):
        (hand,) = notices(out, nick)
        assert hand.startswith("Your turn | ") == (nick == first)
    optional = [s for s in out if s.tag.optional]
    assert optional == []  # the deal's notice: never dropped


def test_after_a_draw_that_leaves_a_choice_no_second_hand_comes() -> None:
    """The draw's notice (``You drew ...``) is the hand of that turn."""
    h = Harness(1)
    h.start(["alice", "bob"])
    for _ in range(200):
        table, game, nick = _to_move(h)
        if not any(type(a) is Play for a in game.legal_actions()):
            out = h.say(nick, ".draw")
            if game.current == table.seat_of(nick) and game.phase.name == "DRAWN":
                (hand,) = notices(out, nick)
                assert hand.startswith("You drew ") and "Your turn" not in hand
                return
        else:
            _move(h)
    raise AssertionError("no draw that left a choice")


def test_unohand_off_and_turn_hand_false_send_none() -> None:
    h = Harness(5)
    h.say("bob", ".unohand off")
    out = h.start(["alice", "bob", "carol"])
    told = {"alice": 0, "bob": 0, "carol": 0}
    for _ in range(30):
        if not h.bot.tables:
            break
        for nick in told:
            told[nick] += len(_turn_notices(out, nick))
        out = _move(h)
    assert told["bob"] <= 1  # the deal's notice, if bob played first; never after
    assert told["alice"] > 3 and told["carol"] > 3
    h = Harness(5, BotConfig(table=TableConfig(turn_hand=False)))
    out = h.start(["alice", "bob", "carol"])
    for _ in range(30):
        assert not any("Your turn" in strip_codes(s.text) for s in out)
        if not h.bot.tables:
            break
        out = _move(h)


def test_a_nick_change_keeps_the_preference() -> None:
    h = Harness(5)
    h.say("bob", ".unohand off")
    h.start(["alice", "bob"])
    from unobot.irc.transport import Kind

    h.event(Kind.NICK, "bob", new_nick="robert")
    player = _table(h).player("robert")
    assert player is not None and player.key == irc_lower("bob")
    assert h.bot.turn_hands_for(_table(h))("robert") is False


def test_cards_on_your_turn_marks_what_you_may_play_and_off_it_marks_nothing() -> None:
    nicks = ["alice", "bob", "carol"]
    h = Harness(5)
    for nick in nicks:
        h.say(nick, ".pce-off")
    h.start(nicks)
    for _ in range(12):
        _, game, current = _to_move(h)
        for nick in nicks:
            h.advance(3)  # a person's pace: the command throttle lets it through
            (hand, *_rest) = notices(h.say(nick, ".cards"), nick)
            if nick == current and game.phase.name in ("PLAY", "PENDING"):
                legal = {a.card for a in game.legal_actions() if type(a) is Play}
                assert hand.startswith("Your turn | Your cards") and _marked(hand) == legal
            else:
                assert hand.startswith("Your cards") and "[" not in hand
        _move(h)


def test_a_player_back_after_leaving_gets_their_hand_marked_on_their_turn() -> None:
    """A seat held for a player who dropped: what was sent meanwhile never reached them, so
    their return brings their hand (as the turn brings it, when it is theirs)."""
    from unobot.irc.transport import Kind

    h = _plain_pair(5)
    table, _, current = _to_move(h)
    other = "bob" if current == "alice" else "alice"
    for nick, turn in ((current, True), (other, False)):
        h.event(Kind.QUIT, nick, text="Connection reset by peer")
        out = h.event(Kind.JOIN, nick, "#uno")
        assert any(" is back" in line for line in channel_lines(out)), out
        (hand,) = notices(out, nick)
        assert hand.startswith("Your turn | Your cards" if turn else "Your cards"), hand
        assert len(table.hand_of(nick)) == int(hand.split("(")[1].split(")")[0])


def test_cards_on_your_turn_marks_what_the_turns_hand_marks() -> None:
    """Issue 37: one meaning for bold (and brackets) in every hand: ``.cards`` marks the
    playable cards when it is the asker's turn to play, and nothing otherwise."""
    nicks = ["alice", "bob", "carol"]
    h = Harness(5, BotConfig(table=TableConfig(turn_timeout=1000)))
    h.say("carol", ".pce-off")
    h.start(nicks)
    seen = set()
    for _ in range(30):
        h.advance(10)  # a person's pace: the flood guard lets each ask once a move
        table = _table(h)
        game = table.game
        if game is None or game.over:
            break
        current = table.players[game.current].nick
        for nick in nicks:
            sent = h.say(nick, ".cards")
            told = [s.text for s in sent if s.kind == "notice" and s.target == nick]
            assert len(told) == 2, (nick, told)
            hand = told[0]
            playable = table.hand_notice(nick).playable
            if nick != current or game.phase.name not in ("PLAY", "PENDING"):
                assert playable is None and "Your turn" not in hand
                assert "\x02" not in hand and "[" not in hand
                continue
            legal = {a.card for a in game.legal_actions() if type(a) is Play}
            assert set(playable or ()) == legal
            assert strip_codes(hand).startswith("Your turn | ")
            if nick == "carol":
                assert _marked(hand) == legal
            else:
                marked = {Card.parse(strip_codes(w)) for w in hand.split() if w[0] == "\x02"}
                assert marked == legal
            seen.add(nick)
        _move(h)
    assert seen == set(nicks)


def test_after_naming_a_wild_first_cards_colour_the_hand_comes_marked() -> None:
    """A Wild turned first: the first player names its colour, and only then may they play;
    their hand comes then, the cards of that colour marked (the deal's notice could not)."""
    for seed in range(1, 400):
        h = _plain_pair(seed)
        _, game, first = _to_move(h)
        if game.phase.name == "CHOOSE_COLOR":
            break
    else:
        raise AssertionError("no seed turned a Wild first")
    out = h.say(first, ".color g")
    (hand,) = _turn_notices(out, first)
    legal = {a.card for a in game.legal_actions() if type(a) is Play}
    assert _marked(hand) == legal and any(c.color is not None for c in legal)
