"""``.unorules``: showing, listing and choosing a channel's rules, who may, when, and that the
choice outlives the bot (DatabaseSettings) and reaches the next game dealt."""

from __future__ import annotations

import dataclasses
import logging
from pathlib import Path
from random import Random

import pytest

from tests.core.fakes import FakeScheduler, FakeTransport, Harness, channel_lines, strip_codes
from unobot.core.bot import Bot, BotConfig
from unobot.core.render_irc import LIMIT
from unobot.core.settings import (
    DatabaseSettings,
    MemorySettings,
    SettingsStore,
    rules_as_text,
    rules_from_text,
)
from unobot.core.table import Table, TableConfig
from unobot.engine.rules import PRESETS, FirstPlayer, HouseRules, Stacking, StartCard, preset
from unobot.irc.casemap import irc_lower

OP = {"is_op": True}


def only_notice(out: list, nick: str) -> str:
    assert [(s.kind, s.target) for s in out] == [("notice", nick)], out
    return strip_codes(out[0].text)


def table(h: Harness, channel: str = "#uno") -> Table:
    return h.bot.tables[irc_lower(channel)]


def rules_of_next_game(h: Harness, channel: str = "#uno") -> HouseRules:
    """Open and deal a game in ``channel`` with enough players for any preset; its rules."""
    nicks = ["p1", "p2", "p3", "p4"]
    h.start(nicks, channel)
    t = table(h, channel)
    assert t.match is not None, "the game was not dealt"
    assert t.match.rules == t.config.rules
    return t.config.rules


# --- showing and listing ---------------------------------------------------------------------


def test_show_names_the_preset_and_what_differs() -> None:
    h = Harness()
    assert (
        only_notice(h.say("bob", ".unorules"), "bob")
        == "Rules in #uno: irc-classic (as the preset)."
    )
    h.say("op", ".unorules preset ocuk-tournament", **OP)
    h.say("op", ".unorules set stacking none", **OP)
    h.say("op", ".unorules set uno-penalty 2", **OP)
    h.advance(10)
    out = h.say("bob", ".UNORULES")
    assert [strip_codes(s.text) for s in out if s.target == "bob"] == [
        "Rules in #uno: ocuk-tournament; changed: stacking: none, uno_penalty: 2.",
        "Nothing to play: draw until you can, then play it.",  # what the rules change
    ]
    # another channel is untouched; in private: the default
    assert "#other: irc-classic (as" in only_notice(h.say("bob", ".unorules", "#other"), "bob")
    assert "by default: irc-classic" in only_notice(h.pm("bob", ".unorules"), "bob")


def test_show_uses_the_configured_channel_rules_and_the_open_game() -> None:
    config = BotConfig(channel_rules={"#uno": preset("knockout")})
    h = Harness(config=config)
    assert "Rules in #uno: knockout" in only_notice(h.say("bob", ".unorules"), "bob")
    h.start(["alice", "bob"])
    out = h.say("zed", ".unorules")
    assert only_notice(out, "zed") == "Rules of the game in #uno: knockout (as the preset)."
    # in private, a player sees the rules of the game they sit at
    assert "game in #uno: knockout" in only_notice(h.pm("alice", ".unorules"), "alice")


def test_show_fits_two_lines_however_much_changed() -> None:
    h = Harness()
    rules = dataclasses.replace(
        preset("official"),
        first_player=FirstPlayer.RANDOM,
        start_card=StartCard.REDRAW_SPECIALS,
        voluntary_draw=False,
        stacking=Stacking.ANY,
        challenge_guilty_draw=5,
        challenge_innocent_extra=3,
        uno_penalty=5,
        false_uno_penalty=2,
        illegal_play_penalty=2,
        target_score=1000,
        time_limit_minutes=30,
        min_players=3,
        max_players=9,
        hand_size=8,
        double_deck_above=6,
    )
    h.bot.settings.set_channel_rules("#uno", *rules_as_text(rules))
    out = h.say("bob", ".unorules")
    # the rules in at most two lines, then the line of what they change from the classic game
    assert 2 <= len(out) <= 3 and all(s.kind == "notice" for s in out)
    assert all(len(s.text.encode()) <= LIMIT for s in out)
    assert strip_codes(out[-1].text) == "Stacking: any draw card on another."
    text = " ".join(strip_codes(s.text) for s in out[:-1])
    assert "voluntary_draw: off" in text and "stacking: any" in text
    assert h.bot.rules_for("#uno") == rules


def test_list_names_every_preset_in_one_line() -> None:
    h = Harness()
    text = only_notice(h.say("bob", ".unorules list"), "bob")
    assert len(text.encode()) <= LIMIT
    for name in PRESETS:
        assert name in text
    assert "ocuk-tournament (+2/+4 stacking" in text
    # anyone may read the list; only those who may choose are invited to
    assert text.endswith(". Channel operators and bot admins choose one.")
    op = only_notice(h.say("op", ".unorules list", **OP), "op")
    assert op.endswith("Choose one: .unorules preset <name>")
    assert op.split(". ")[0] == text.split(". ")[0]  # the same presets


def test_list_invites_a_bot_admin_in_private_but_not_an_operator_there() -> None:
    h = Harness(config=BotConfig(admins=frozenset({"root!*"})))
    admin = only_notice(h.pm("root", ".unorules list"), "root")
    assert admin.endswith("Choose one: .unorules preset <name>")
    # channel operator status means nothing in a private message
    other = only_notice(h.pm("op", ".unorules list"), "op")
    assert other.endswith("Channel operators and bot admins choose one.")


def test_show_says_what_a_variant_changes_as_the_deal_does() -> None:
    h = Harness()
    h.say("op", ".unorules preset house", **OP)
    out = h.say("bob", ".unorules")
    assert [strip_codes(s.text) for s in out] == [
        "Rules in #uno: house (as the preset).",
        "Seven-O: a 7 swaps hands with whom you name, a 0 passes every hand on. "
        "Jump-In: whoever holds the very card on top may play it out of turn. "
        "Stacking: +2 on +2, +4 on +4.",
    ]
    h.say("op", ".unorules set jump_in off", **OP)  # a channel's own combination
    note = strip_codes(h.say("bob", ".unorules")[-1].text)
    assert "Jump-In" not in note and note.startswith("Seven-O:")


# --- changing --------------------------------------------------------------------------------


def test_an_operator_chooses_a_preset_and_the_channel_is_told() -> None:
    h = Harness()
    out = h.say("alice", ".unorules preset OCUK-Tournament", **OP)
    assert [(s.kind, s.target) for s in out] == [("privmsg", "#uno")]
    assert channel_lines(out) == ["alice set the rules: ocuk-tournament"]
    assert h.settings.channel_rules("#uno") == ("ocuk-tournament", {})
    # a preset replaces earlier option changes
    h.say("alice", ".unorules set stacking none", **OP)
    h.say("alice", ".unorules preset ocuk-tournament", **OP)
    assert h.settings.channel_rules("#uno") == ("ocuk-tournament", {})


def test_set_changes_one_option_on_top_of_the_channels_rules() -> None:
    h = Harness(config=BotConfig(channel_rules={"#uno": preset("official")}))
    out = h.say("alice", ".unorules set stacking same", **OP)
    assert channel_lines(out) == ["alice set the rules: official, stacking same"]
    out = h.say("alice", ".unorules set target_score 251", **OP)
    assert channel_lines(out) == ["alice set the rules: official, stacking same, target_score 251"]
    assert h.settings.channel_rules("#uno") == (
        "official",
        {"stacking": "same", "target_score": "251"},
    )
    # back to the preset's value: no longer a difference
    out = h.say("alice", ".unorules set stacking none", **OP)
    assert channel_lines(out) == ["alice set the rules: official, target_score 251"]
    # booleans are stored as a player types them
    h.say("alice", ".unorules set wd4_challenge off", **OP)
    assert h.settings.channel_rules("#uno")[1]["wd4_challenge"] == "off"  # type: ignore[index]


def test_a_bot_admin_may_change_the_rules() -> None:
    h = Harness(config=BotConfig(admins=frozenset({"boss!*@admin.example"})))
    out = h.say("boss", ".unorules preset knockout", userhost="b@admin.example")
    assert channel_lines(out) == ["boss set the rules: knockout"]
    out = h.say("boss", ".unorules set hand_size 5", userhost="b@admin.example")
    assert channel_lines(out) == ["boss set the rules: knockout, hand_size 5"]


def test_others_are_refused_and_nothing_changes() -> None:
    h = Harness(config=BotConfig(admins=frozenset({"boss!*@admin.example"})))
    for text in (".unorules preset knockout", ".unorules set stacking same"):
        reply = only_notice(h.say("bob", text), "bob")
        assert reply == "only a channel operator or a bot admin can change the rules"
        # an admin's nick from another host is not an admin
        reply = only_notice(h.say("boss", text, userhost="b@elsewhere"), "boss")
        assert "only a channel operator" in reply
    # an operator's status counts only in the channel, not in private
    reply = only_notice(h.pm("alice", ".unorules preset knockout"), "alice")
    assert "say that in the channel" in reply
    assert h.settings.channel_rules("#uno") is None


def test_no_change_while_a_game_is_open_or_dealt() -> None:
    h = Harness()
    h.say("alice", ".uno")
    refusal = "the rules can't change during a game: wait until it ends"
    assert only_notice(h.say("op", ".unorules preset knockout", **OP), "op") == refusal
    h.say("bob", ".join")
    h.say("alice", ".deal")
    assert table(h).dealt
    assert only_notice(h.say("op", ".unorules set stacking same", **OP), "op") == refusal
    assert h.settings.channel_rules("#uno") is None
    assert table(h).config.rules == preset("irc-classic")
    # a game in another channel doesn't stop this one's rules from changing
    out = h.say("op", ".unorules preset official", "#other", **OP)
    assert channel_lines(out, "#other") == ["op set the rules: official"]
    # and after the game is stopped, the change goes through
    h.say("alice", ".unostop")
    assert not h.bot.tables.get("#uno")
    out = h.say("op", ".unorules preset knockout", **OP)
    assert channel_lines(out) == ["op set the rules: knockout"]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (".unorules preset nope", "no preset 'nope'; presets: official, irc-classic"),
        (".unorules preset", "which preset?"),
        (".unorules preset a b", "which preset?"),
        (".unorules set", "set what?"),
        (".unorules set stacking", "set what?"),
        (".unorules set bogus 1", "no rule option 'bogus'; options: first_player"),
        (".unorules set name mine", "no rule option 'name'"),
        (".unorules set late_uno on", "no rule option 'late_uno' (did you mean late_uno_call?)"),
        (".unorules set stacking weird", "stacking is one of: none, same, any"),
        (".unorules set voluntary_draw maybe", "voluntary_draw is on or off"),
        (".unorules set uno_penalty lots", "uno_penalty is a whole number"),
        (".unorules set uno_penalty 11", "uno_penalty is 0 to 10"),
        (".unorules set min_players 11", "players per table must satisfy"),
        (".unorules frobnicate", ".unorules shows the rules; .unorules list"),
    ],
)
def test_bad_input_gets_the_rules_message_and_changes_nothing(text: str, expected: str) -> None:
    h = Harness()
    reply = only_notice(h.say("op", text, **OP), "op")
    assert reply.startswith(expected), reply
    assert h.settings.channel_rules("#uno") is None


# --- effect on games -------------------------------------------------------------------------


def test_a_game_dealt_after_a_change_plays_by_the_new_rules() -> None:
    h = Harness()
    h.say("op", ".unorules preset ocuk-tournament", **OP)
    h.say("op", ".unorules set stacking any", **OP)
    h.say("op", ".unorules set uno_penalty 3", **OP)
    rules = rules_of_next_game(h)
    expected = dataclasses.replace(preset("ocuk-tournament"), stacking=Stacking.ANY, uno_penalty=3)
    assert rules == expected
    assert "Uno (ocuk-tournament)" in " ".join(channel_lines(h.sent))
    # a channel without a choice keeps the default
    assert rules_of_next_game(h, "#other") == preset("irc-classic")


def test_stored_rules_come_before_configured_ones_before_the_default() -> None:
    config = BotConfig(
        table=TableConfig(rules=preset("official")),
        channel_rules={"#conf": preset("knockout"), "#both": preset("knockout")},
    )
    h = Harness(config=config)
    h.settings.set_channel_rules("#both", "bac-tournament", {"max_players": "6"})
    assert h.bot.rules_for("#BOTH") == dataclasses.replace(preset("bac-tournament"), max_players=6)
    assert h.bot.rules_for("#conf") == preset("knockout")
    assert h.bot.rules_for("#none") == preset("official")


def test_unreadable_stored_rules_fall_back_with_a_warning(caplog: pytest.LogCaptureFixture) -> None:
    h = Harness(config=BotConfig(channel_rules={"#uno": preset("knockout")}))
    h.settings.set_channel_rules("#uno", "gone-preset", {})
    h.settings.set_channel_rules("#two", "official", {"renamed_option": "1"})
    with caplog.at_level(logging.WARNING):
        assert h.bot.rules_for("#uno") == preset("knockout")
        assert h.bot.rules_for("#two") == preset("irc-classic")
    assert "stored rules for #uno ignored" in caplog.text


def test_stored_options_apply_together_whatever_their_order() -> None:
    # bac-tournament is 4-5 players: max 8 then min 6 is valid, min 6 alone is not
    h = Harness()
    h.say("op", ".unorules preset bac-tournament", **OP)
    h.say("op", ".unorules set max_players 8", **OP)
    h.say("op", ".unorules set min_players 6", **OP)
    stored = h.settings.channel_rules("#uno")
    assert stored == ("bac-tournament", {"min_players": "6", "max_players": "8"})
    assert rules_from_text(*stored).min_players == 6
    assert rules_from_text("bac-tournament", {"max_players": "8", "min_players": "6"}) == (
        rules_from_text(*stored)
    )


def test_a_later_change_of_a_presets_defaults_reaches_the_channel(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    h = Harness()
    h.say("op", ".unorules preset ocuk-tournament", **OP)
    h.say("op", ".unorules set stacking none", **OP)
    newer = dataclasses.replace(PRESETS["ocuk-tournament"], target_score=300, stacking=Stacking.ANY)
    monkeypatch.setitem(PRESETS, "ocuk-tournament", newer)
    rules = h.bot.rules_for("#uno")
    assert rules.target_score == 300  # the preset's new default
    assert rules.stacking is Stacking.NONE  # the channel's own choice


# --- persistence -----------------------------------------------------------------------------


def new_bot(settings: SettingsStore) -> Bot:
    """A bot as after a restart: nothing in common with the old one but its settings."""
    return Bot(FakeTransport(), FakeScheduler(), settings, rng=Random(3))


def test_memory_settings_hand_out_copies() -> None:
    store = MemorySettings()
    options = {"stacking": "same"}
    store.set_channel_rules("#uno", "official", options)
    options["stacking"] = "any"
    got = store.channel_rules("#uno")
    assert got == ("official", {"stacking": "same"})
    got[1].clear()  # type: ignore[index]
    assert store.channel_rules("#uno") == ("official", {"stacking": "same"})


def test_rules_survive_a_restart_with_database_settings(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'stats.db'}"
    first = DatabaseSettings(url)
    h = Harness()
    h.bot.settings = first
    h.say("op", ".unorules preset ocuk-tournament", **OP)
    h.say("op", ".unorules set stacking none", **OP)
    h.say("op", ".unorules preset knockout", "#Two[]", **OP)
    first.close()

    again = DatabaseSettings(url)
    bot = new_bot(again)
    assert again.channel_rules("#uno") == ("ocuk-tournament", {"stacking": "none"})
    # channel names are folded with IRC case rules: #two{} is #Two[]
    assert bot.rules_for("#TWO{}") == preset("knockout")
    t = bot.open_table("#Uno", "alice", "alice")
    assert t.config.rules == dataclasses.replace(preset("ocuk-tournament"), stacking=Stacking.NONE)
    # a later change replaces the row, and is what the next start sees
    again.set_channel_rules("#uno", "official", {})
    again.close()
    third = DatabaseSettings(url)
    assert third.channel_rules("#uno") == ("official", {})
    assert third.channel_rules("#nowhere") is None
    third.close()


def test_database_settings_share_the_stats_database(tmp_path: Path) -> None:
    from unobot.stats.sql import SqlStatsStore

    url = f"sqlite:///{tmp_path / 'stats.db'}"
    stats = SqlStatsStore(url)  # an existing stats database, made before channel rules existed
    stats.close()
    settings = DatabaseSettings(url)
    settings.set_colors("alice", False)
    settings.set_channel_rules("#uno", "knockout", {"hand_size": "5"})
    settings.close()
    stats = SqlStatsStore(url)  # and the stats store still opens it
    stats.close()
    settings = DatabaseSettings(url)
    assert settings.colors("alice") is False
    assert settings.channel_rules("#uno") == ("knockout", {"hand_size": "5"})
    settings.close()
