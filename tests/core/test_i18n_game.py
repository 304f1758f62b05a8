"""The table's lines in every shipped language (domain ``game``): whole games played through
the bot core with fakes in a channel set to each language, every table event rendered, hands
in their owner's language, plural forms, and the byte limit for the longest nicks."""

from __future__ import annotations

import re
import time
from random import Random

import pytest
from babel.messages.pofile import read_po

from tests.core.fakes import Harness, Sent, channel_lines, notices
from unobot.core.render_irc import (
    LIMIT,
    Cards,
    channel_text,
    hand_lines,
    held_text,
    invite_text,
    resumed_text,
    status_text,
    wait_text,
)
from unobot.core.table import Table
from unobot.core.updates import (
    Away,
    Back,
    Dealt,
    EngineEvents,
    HandNotice,
    Joined,
    Left,
    Opened,
    Penalized,
    Removed,
    RoundOver,
    Status,
    Stopped,
    TeamAsked,
    TeamJoined,
    TeamMade,
    TimedOut,
    TimeUp,
    TimeWarning,
    Totals,
    Update,
    Warned,
)
from unobot.engine import Phase, TeamGame
from unobot.engine import events as ev
from unobot.engine.actions import (
    CallUno,
    Catch,
    Challenge,
    ChooseColor,
    Draw,
    Pass,
    Play,
    Swap,
)
from unobot.engine.cards import Card, Color
from unobot.i18n import LOCALE_DIR, speaking
from unobot.irc.casemap import irc_lower
from unobot.irc.outbox import strip_codes

LANGS = ("de", "fr", "es", "pt_BR", "it", "pl")
PRESETS = ("official", "irc-classic", "teams", "two-teams", "seven-o", "jump-in", "no-mercy")
LONG = [  # 30 characters each: the longest nicks common networks allow
    "Alexandria_von_Hohenzollern_X1",
    "Bartholomew_Featherstonehaugh2",
    "Cunegonde_Przybyszewska_Wolf_3",
    "Demetrios_Papadopoulos_Kanel_4",
]


def _english_chunks() -> list[str]:
    """The words of every game message id between its placeholders, where a run of at least
    three words is long enough to be a real leak (``wins the hand and``), not a shared word."""
    with open(f"{LOCALE_DIR}/game.pot", "rb") as f:
        catalog = read_po(f)
    chunks: set[str] = set()
    for message in catalog:
        if not message.id:
            continue
        ids = message.id if isinstance(message.id, tuple) else (message.id,)
        for text in ids:
            for chunk in re.split(r"\{[^}]*\}", text):
                chunk = chunk.strip(" .,:;!?()[]")
                if len(chunk.split()) >= 3 and len(chunk) >= 12:
                    chunks.add(chunk)
            label = re.match(r"([A-Z][a-z]+(?: [a-z]+)*:) \{", text)  # "Left: {hands}"
            if label:
                chunks.add(label.group(1))
    return sorted(chunks)


ENGLISH = _english_chunks()


def assert_translated(lines: list[str], where: str = "") -> None:
    assert lines, "nothing was said"
    for line in lines:
        assert len(line.encode()) <= LIMIT, (where, line)
        plain = strip_codes(line)
        leaks = [chunk for chunk in ENGLISH if chunk in plain]
        assert not leaks, (where, leaks, plain)
        assert not re.search(r"\{[a-z_]+\}", plain), (where, plain)  # a placeholder unfilled


def test_the_check_knows_the_english() -> None:
    """The leak check would see English: it finds it in an English game's lines."""
    assert len(ENGLISH) > 50
    assert any(chunk in "alice wins the hand and 30 points!" for chunk in ENGLISH)


# --- whole games through the bot core ---------------------------------------------------------


def _perform(table: Table, nick: str, action: object, now: float) -> Update:
    """A player's move through the table method their command would use."""
    if isinstance(action, Play):
        return table.play(nick, action.card, action.color, now, uno=action.uno)
    if isinstance(action, Draw):
        return table.draw(nick, now)
    if isinstance(action, Pass):
        return table.pass_turn(nick, now)
    if isinstance(action, ChooseColor):
        return table.choose_color(nick, action.color, now)
    if isinstance(action, Challenge):
        return table.challenge(nick, now)
    if isinstance(action, CallUno):
        return table.call_uno(nick, now)
    if isinstance(action, Catch):
        return table.catch(nick, table.players[action.target].nick, now)
    if isinstance(action, Swap):
        return table.swap(nick, table.players[action.target].nick, now)
    raise AssertionError(action)


def play_through(h: Harness, channel: str, seed: int, limit: int = 4000) -> list[Sent]:
    """Play the channel's table to its end: each move a legal one of the player to move
    (mostly a card), through the table and the bot's publish as a command's would be."""
    rng = Random(seed)
    start = len(h.sent)
    key = irc_lower(channel)
    for _ in range(limit):
        table = h.bot.tables.get(key)
        if table is None:
            return h.sent[start:]
        game = table.game
        assert game is not None
        seat = game.current
        player = table.players[seat]
        if player.computer:  # hard thinks in a worker process, in real time: wait for it
            deadline = time.monotonic() + 60
            while h.bot.tables.get(key) is table and table.game is game and game.current == seat:
                assert time.monotonic() < deadline, f"{player.nick} did not move in 60 s"
                h.advance(0.01)
                time.sleep(0.001)
            continue
        actions = game.legal_actions(seat)
        plays = [a for a in actions if isinstance(a, Play)]
        action = rng.choice(plays) if plays and rng.random() < 0.85 else rng.choice(actions)
        with speaking(h.bot.channel_language(channel)):  # as Bot._message does for a command
            update = _perform(table, player.nick, action, h.clock.now())
        h.bot.publish(table, update)
    pytest.fail("the game did not end")


def open_game(h: Harness, nicks: list[str], preset: str, channel: str = "#uno") -> list[Sent]:
    start = len(h.sent)
    h.say(nicks[0], f".uno {preset}", channel)
    for nick in nicks[1:]:
        h.say(nick, ".join", channel)
    h.say(nicks[0], ".deal", channel)
    assert irc_lower(channel) in h.bot.tables and h.bot.tables[irc_lower(channel)].dealt, (
        preset,
        [s.text for s in h.sent[start:]],
    )
    return h.sent[start:]


@pytest.mark.parametrize("preset", PRESETS)
@pytest.mark.parametrize("lang", LANGS)
def test_whole_games_in_the_channels_language(lang: str, preset: str) -> None:
    nicks = ["anna", "Bob", "carol[m]", "dave"]
    for seed in range(2):
        h = Harness(seed)
        h.bot.settings.set_language("#uno", lang)
        sent = open_game(h, nicks, preset) + play_through(h, "#uno", seed)
        said = channel_lines(sent)
        assert_translated(said, f"{lang} {preset} channel")
        for nick in nicks:
            assert_translated(notices(sent, nick), f"{lang} {preset} {nick}'s hand")


@pytest.mark.parametrize("lang", LANGS)
def test_longest_nicks_stay_within_the_limit(lang: str) -> None:
    h = Harness(3)
    h.bot.settings.set_language("#uno", lang)
    sent = open_game(h, LONG, "no-mercy") + play_through(h, "#uno", 3)
    assert_translated([s.text for s in sent], lang)
    assert all(len(s.text.encode()) <= LIMIT for s in sent)


def test_hands_in_the_players_own_language_while_the_channel_is_german() -> None:
    h = Harness(5)
    h.bot.settings.set_language("#uno", "de")
    h.bot.settings.set_language("bob", "fr")  # Bob's identity: his folded nick (no account)
    sent = open_game(h, ["anna", "Bob", "carol"], "official") + play_through(h, "#uno", 5)
    said = " ".join(channel_lines(sent))
    assert "ist dran" in said and "Oben:" in said
    bobs = notices(sent, "Bob")
    assert bobs and all("Tes cartes (" in t for t in bobs), bobs[:3]
    assert not any("Deine Karten" in t for t in bobs)
    assert_translated(bobs, "Bob's hands")
    # A hint the table made during a German command reads in French in Bob's hand.
    assert any("Joue " in t or "Tu dois jouer" in t or "Tu peux jouer" in t for t in bobs), bobs
    annas = notices(sent, "anna")
    assert annas and all("Deine Karten (" in t for t in annas)


def test_english_stays_the_default() -> None:
    h = Harness(1)
    sent = open_game(h, ["anna", "Bob"], "official") + play_through(h, "#uno", 1)
    said = " ".join(channel_lines(sent))
    assert "'s turn." in said and "wins the hand" in said
    assert all("Your cards (" in t for t in notices(sent, "anna"))


def test_a_computer_player_and_the_lobby_in_polish() -> None:
    h = Harness(2)
    h.bot.settings.set_language("#uno", "pl")
    start = len(h.sent)
    h.say("anna", ".uno", "#uno")
    h.say("bob", ".join", "#uno")
    h.say("anna", ".addbot hard", "#uno")
    h.say("bob", ".leave", "#uno")
    h.say("bob", ".join", "#uno")
    h.say("anna", ".deal", "#uno")
    sent = h.sent[start:] + play_through(h, "#uno", 2)
    said = channel_lines(sent)
    assert_translated(said, "pl lobby")
    assert any("komputer" in line for line in said), said[:4]


# --- every table event, plural forms ----------------------------------------------------------


def _card(code: str) -> Card:
    return Card.parse(code)


def table_events() -> list[object]:
    return [
        Opened("anna", 120),
        Joined("bob", 2),
        Joined("HardBot1", 3, "hard"),
        Left("anna", "bob"),
        Left("carol"),
        Dealt(("anna", "bob"), "official", 1, 3600, 500, ()),
        Dealt(
            ("anna", "bob", "carol", "dave"), "teams", 1, 0, 0, (("anna", "carol"), ("bob", "dave"))
        ),
        Dealt(("anna", "bob"), "official", 2, 0, 0, ()),
        Dealt(
            ("anna", "bob", "carol", "dave", "eve", "fay"),
            "two-teams",
            1,
            target=500,
            teams=(("anna", "carol", "eve"), ("bob", "dave", "fay")),
            two_teams=True,
        ),
        TeamAsked("anna", "bob"),
        TeamMade("anna", "bob"),
        TeamJoined(("anna",), "A", ("carol", "anna")),
        TeamJoined(("anna", "bob"), "B", ("anna", "bob")),
        Totals((("A", 30), ("B", 0)), 500, False, True),
        Totals((("anna", 30), ("bob", 0)), 500, False),
        Totals((("anna", 30), ("bob", 0)), 500, True),
        Totals((("anna", 30), ("bob", 0)), 0, True),
        Totals((("anna", 30), ("bob", 0)), 0, False),
        TimeWarning(300, False),
        TimeWarning(300, True),
        RoundOver(),
        TimeUp(True),
        TimeUp(False),
        Warned("bob", 15),
        TimedOut("bob", 1),
        Away("bob", 60),
        Back("bob"),
        Penalized("bob", 2),
        Stopped("anna"),
    ]


@pytest.mark.parametrize("lang", LANGS)
def test_every_table_event_is_translated(lang: str) -> None:
    fmt = Cards(False)
    with speaking(lang):
        lines = []
        for event in table_events():
            lines.append(channel_text(Update([event]), fmt))  # type: ignore[list-item]
        from unobot.i18n import domain

        _ = domain("game")[0]
        for why in (_("left the game"), _("gone for {seconds}s", seconds=60)):
            lines.append(channel_text(Update([Removed("bob", why)]), fmt))
            lines.append(channel_text(Update([Removed("bob", why, held=False)]), fmt))
        lines.append(channel_text(Update([Stopped("", _("no person is left in the game"))]), fmt))
        lines.append(invite_text())
        lines.append(wait_text(30))
        lines.append(wait_text(300))
        lines.append(wait_text(7200))
        lines.append(held_text("bob", "20"))
        lines.append(held_text("bob", "?"))
        for why in ("disconnect", "kick", "restart", "pause", "other"):
            lines.append(resumed_text(why, None, ("anna", ["anna", "bob"]), fmt))
    assert_translated(lines, lang)


def _batch(events: list[ev.Event], names: tuple[str, ...] = ("anna", "bob", "carol")) -> Update:
    return Update([EngineEvents(tuple(events), names)])


def _engine_updates() -> list[Update]:
    r5, wd4, w, bs = _card("R5"), _card("WD4"), _card("W"), _card("BS")
    two = (r5, r5)
    D = ev.DrawReason
    return [
        _batch([ev.CardsDrawn(0, (r5,), D.DRAW), ev.CardPlayed(0, r5, Color.RED, 4)]),
        _batch([ev.CardsDrawn(0, two, D.DRAW), ev.CardPlayed(0, wd4, Color.GREEN, 2)]),
        _batch([ev.CardsDrawn(0, (r5,), D.DRAW), ev.TurnPassed(0)]),
        _batch([ev.CardPlayed(0, r5, Color.RED, 1), ev.UnoCalled(0, False)]),
        _batch([ev.UnoCalled(1, False)]),
        _batch([ev.CardsDrawn(1, two, D.PENALTY_CARD), ev.Skipped(1)]),
        _batch([ev.CardsDrawn(1, two, D.FALSE_UNO)]),
        _batch([ev.CardsDrawn(1, two * 2, D.CHALLENGE)]),
        _batch([ev.CardsDrawn(1, two, D.ILLEGAL_PLAY)]),
        _batch([ev.Reversed(-1), ev.ColorChosen(1, Color.BLUE)]),
        _batch([ev.DrawPending(1, 4)]),
        _batch([ev.UnoCaught(0, 1, 2)]),
        _batch([ev.ChallengeResolved(0, 1, True)]),
        _batch([ev.ChallengeResolved(0, 1, False)]),
        _batch([ev.StartCardTurned(bs), ev.Skipped(0)]),
        _batch([ev.StartCardReplaced(wd4)]),
        _batch([ev.FirstPlayerDraw((0, 1), (r5, w))]),
        _batch([ev.JumpedIn(1, 0), ev.CardPlayed(1, w, Color.YELLOW, 5)]),
        _batch([ev.SwapPending(0)]),
        _batch([ev.HandsSwapped(0, 1, 1, 5)]),
        _batch([ev.HandsRotated(1, (3, 4, 5))]),
        _batch([ev.EveryoneSkipped(0)]),
        _batch([ev.CardsDiscarded(0, two, 22)]),
        _batch([ev.Eliminated(1, 25)]),
        _batch([ev.SeatRemoved(1, 5)]),
        _batch([ev.Reshuffled(30)]),
        *_two_team_batches(),
    ]


def _two_team_batches() -> list[Update]:
    """A hand and a match won by a team of two teams (``team A``, by letter)."""
    names = ("anna", "bob", "carol", "dave")
    won = ev.HandOutcome(1, ((), (), (_card("R5"),), ()), (0, 0, 5, 0), (0, 5, 0, 5))
    ended = ev.MatchOutcome((520, 310, 520, 310), (0, 2), 6)
    return [
        Update([EngineEvents((ev.HandEnded(won),), names, TeamGame.TWO_TEAMS)]),
        Update([EngineEvents((ev.MatchEnded(ended),), names, TeamGame.TWO_TEAMS)]),
    ]


@pytest.mark.parametrize("lang", LANGS)
def test_every_engine_clause_is_translated(lang: str) -> None:
    fmt = Cards(True)
    with speaking(lang):
        lines = []
        for update in _engine_updates():
            text = channel_text(update, fmt)
            assert text, update
            lines.append(text)
    assert_translated(lines, lang)


def test_the_joined_draw_and_play_stays_one_clause_in_every_language() -> None:
    """``bob draws a card and plays R5`` is built from the clauses, not from English words."""
    fmt = Cards(False)
    update = _engine_updates()[0]
    assert channel_text(update, fmt) == "anna draws a card and plays R5."
    with speaking("de"):
        assert channel_text(update, fmt) == "anna zieht eine Karte und legt R5."
    update = _engine_updates()[1]
    assert channel_text(update, fmt) == (
        "anna draws 2 cards, plays WD4 and picks green (2 cards left)."
    )
    with speaking("fr"):
        text = channel_text(update, fmt)
    assert "vert" in text and "WD4" in text and "2 cartes" in text


def test_hands_and_status_lines() -> None:
    fmt = Cards(False)
    notice = HandNotice((_card("R5"), _card("WD4")), new=(_card("R5"),), playable=(_card("R5"),))
    status = Status(_card("W"), Color.BLUE, "bob", Phase.PLAY, 0, (("anna", 1), ("bob", 5)))
    pending = Status(_card("WD4"), Color.BLUE, "bob", Phase.PENDING, 4, (("anna", 2),), "+4", True)
    for lang in LANGS:
        with speaking(lang):
            lines = [*hand_lines(notice, fmt), status_text(status, fmt), status_text(pending, fmt)]
        assert_translated(lines, lang)
    with speaking("de"):
        assert status_text(status, fmt) == "Oben: W (Blau). bob ist dran. UNO: anna."


# "draws N cards" per language at 0/1/2/5/22 (Polish: 1 karta, 2-4 karty, 5+ kart, 22 karty)
PLURALS = {
    "en": ("draws a card", "draws 2 cards", "draws 5 cards", "draws 22 cards"),
    "de": ("zieht eine Karte", "zieht 2 Karten", "zieht 5 Karten", "zieht 22 Karten"),
    "fr": ("pioche une carte", "pioche 2 cartes", "pioche 5 cartes", "pioche 22 cartes"),
    "es": ("roba una carta", "roba 2 cartas", "roba 5 cartas", "roba 22 cartas"),
    "pt_BR": ("compra uma carta", "compra 2 cartas", "compra 5 cartas", "compra 22 cartas"),
    "it": ("pesca una carta", "pesca 2 carte", "pesca 5 carte", "pesca 22 carte"),
    "pl": ("dobiera kartę", "dobiera 2 karty", "dobiera 5 kart", "dobiera 22 karty"),
}


@pytest.mark.parametrize("lang", ["en", *LANGS])
def test_plural_forms(lang: str) -> None:
    fmt = Cards(False)
    r5 = _card("R5")
    with speaking(lang):
        drawn = [
            channel_text(_batch([ev.CardsDrawn(0, (r5,) * n, ev.DrawReason.DRAW)]), fmt)
            for n in (1, 2, 5, 22)
        ]
        hands = {n: hand_lines(HandNotice((r5,) * n), fmt)[0] for n in (0, 1, 2, 5, 22)}
        left = {
            n: channel_text(_batch([ev.CardsDiscarded(0, (r5,), n)]), fmt) for n in (0, 1, 2, 5, 22)
        }
    for text, want in zip(drawn, PLURALS[lang], strict=True):
        assert want in text, (lang, text)
    for n, text in hands.items():
        assert f"({n})" in text
    expected = {
        "en": {0: "0 cards", 1: "1 card", 2: "2 cards", 5: "5 cards", 22: "22 cards"},
        "de": {0: "0 Karten", 1: "1 Karte", 2: "2 Karten", 5: "5 Karten", 22: "22 Karten"},
        "fr": {0: "0 carte", 1: "1 carte", 2: "2 cartes", 5: "5 cartes", 22: "22 cartes"},
        "es": {0: "0 cartas", 1: "1 carta", 2: "2 cartas", 5: "5 cartas", 22: "22 cartas"},
        "pt_BR": {0: "0 carta", 1: "1 carta", 2: "2 cartas", 5: "5 cartas", 22: "22 cartas"},
        "it": {0: "0 carte", 1: "1 carta", 2: "2 carte", 5: "5 carte", 22: "22 carte"},
        "pl": {0: "0 kart", 1: "1 karta", 2: "2 karty", 5: "5 kart", 22: "22 karty"},
    }[lang]
    for n, want in expected.items():
        assert re.search(rf"\b{re.escape(want)}\b", left[n]), (lang, n, left[n])


# --- timers, leaving, the bot's own lines -----------------------------------------------------


@pytest.mark.parametrize("lang", LANGS)
def test_timers_and_leaving_in_the_channels_language(lang: str) -> None:
    """The turn warning, a timeout, removal after repeated timeouts, a seat held for a player
    who left the channel, and the timed match's warning: said by timers, in the language."""
    from unobot.core.bot import BotConfig
    from unobot.core.table import TableConfig
    from unobot.irc.transport import Kind

    config = BotConfig(table=TableConfig(turn_timeout=20, turn_warning=5, max_timeouts=2))
    h = Harness(4, config)
    h.bot.settings.set_language("#uno", lang)
    sent = open_game(h, ["anna", "Bob", "carol"], "official")
    for _ in range(6):  # warnings and timeouts until someone is out
        sent += h.advance(16) + h.advance(5)
    sent += h.event(Kind.PART, "carol", "#uno") + h.advance(61)
    said = channel_lines(sent)
    assert_translated(said, lang)
    assert len(said) > 8
    for nick in ("anna", "Bob", "carol"):
        assert_translated(notices(sent, nick) or ["-"], f"{lang} {nick}")


def test_farewell_and_frozen_replies_in_each_ones_language() -> None:
    h = Harness(6)
    h.bot.settings.set_language("#de", "de")
    h.bot.settings.set_language("bob", "fr")
    open_game(h, ["anna", "Bob"], "official", "#de")
    open_game(h, ["carol", "dave"], "official", "#en")
    start = len(h.sent)
    h.bot.farewell()
    said = {s.target: s.text for s in h.sent[start:]}
    assert said == {
        "#de": "unobot wird beendet: Dieses Spiel endet hier.",
        "#en": "unobot is stopping: this game ends here.",
    }
    refused = h.say("Bob", ".draw", "#de")
    assert [s.text for s in refused] == ["unobot s'arrête: cette partie est terminée"], refused
    refused = h.say("anna", ".draw", "#de")
    assert [strip_codes(s.text) for s in refused][-1].endswith(
        "unobot wird beendet: dieses Spiel ist zu Ende"
    ), refused


def test_the_resumed_and_held_lines_through_the_bot() -> None:
    from unobot.irc.transport import Incoming, Kind

    h = Harness(7)
    h.bot.settings.set_language("#uno", "it")
    open_game(h, ["anna", "Bob"], "official")
    start = len(h.sent)
    h.bot.handle(Incoming(Kind.HELD, "Bob", "#uno", "20"))
    said = channel_lines(h.sent[start:])
    assert said and "il server mi fa aspettare 20 s" in said[0], said


def test_the_plain_event_lines_in_every_language() -> None:
    """The demo's lines (the channel's renderer, plain letters) in every language."""
    from unobot.core.render_irc import Cards, channel_text
    from unobot.core.updates import EngineEvents, Update

    names = ("anna", "bob")
    events: list[ev.Event] = [
        ev.CardPlayed(0, _card("W"), Color.GREEN, 3),
        ev.ColorChosen(1, Color.RED),
        ev.Reversed(1),
        ev.UnoCaught(0, 1, 2),
        ev.StartCardReplaced(_card("WD4")),
    ]

    def lines() -> list[str]:
        return [
            channel_text(Update(events=[EngineEvents((e,), names)]), Cards(False)) for e in events
        ]

    english = lines()
    assert english[0] == "anna plays W and picks green." and all(english)
    for lang in LANGS:
        with speaking(lang):
            translated = lines()
        assert_translated(translated, lang)
        assert not set(translated) & set(english)
