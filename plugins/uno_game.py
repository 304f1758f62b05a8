"""The game commands: ``.uno .join .deal .leave .play .draw .pass .cards .top .unostop``, the
colour preference and help.

Handlers are thin: they read the arguments, call one table method and publish its update. Rules
live in the engine, seats and timers in the table, wording in ``render_irc``; mistakes raise
``UnoError`` and the dispatcher answers them privately.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from unobot.core.computers import computer_name, parse_addbot
from unobot.core.plugin import action, command, example, in_channel, in_game, in_table, move
from unobot.core.refusals import refusal
from unobot.core.render_irc import (
    Cards,
    Line,
    fit,
    hand_lines,
    status_text,
    wait_text,
)
from unobot.engine.actions import CallUno, Catch, Challenge, ChooseColor, Draw, Pass, Play, Swap
from unobot.engine.cards import parse_color, parse_play
from unobot.engine.errors import CardParseError, UnoError
from unobot.engine.flip import Side, parse_flip_color, parse_flip_play
from unobot.engine.rules import PRESETS, HouseRules, TeamGame, UnoCall, preset_name
from unobot.i18n import N_, domain, speaking
from unobot.irc.casemap import irc_eq, irc_lower
from unobot.irc.transport import Tag

if TYPE_CHECKING:
    from unobot.core.plugin import BotApi, Context
    from unobot.core.table import Table
    from unobot.irc.transport import Incoming

_, ngettext = domain("commands")

_DIRECTED = N_("this is a tournament table: the director seats the players and deals")


def _not_directed(table: Table) -> None:
    """Tournament tables (``TableConfig.tournament``) are seated and dealt by the director."""
    if table.config.tournament:
        raise UnoError(_(_DIRECTED))


_DURATION = re.compile(r"(?:(\d{1,3})h)?(?:(\d{1,4})m(?:in)?)?(?:(\d{1,5})s)?")
_UNO_WORDS = frozenset({"uno", "uno!"})


def parse_duration(text: str) -> float:
    """Seconds in ``60m``, ``60``, ``1h``, ``1h30m``, ``90s`` (a bare number is minutes)."""
    raw = text.strip().lower().replace(" ", "")
    if raw.isdecimal() and len(raw) <= 4:  # isdigit() is also true of "²", which int() refuses
        return int(raw) * 60.0
    m = _DURATION.fullmatch(raw)
    if not raw or m is None or not any(m.groups()):
        raise UnoError(
            _(
                "'{text}' is not a time limit: e.g. .deal 60m, .deal 1h, .deal 90s",
                text="".join(ch if ch.isprintable() else "?" for ch in text[:20]),
            )
        )
    hours, minutes, seconds = (int(g) if g else 0 for g in m.groups())
    return hours * 3600.0 + minutes * 60.0 + seconds


def split_uno(args: str) -> tuple[str, bool]:
    """``"r 5 uno"`` -> ``("r 5", True)``: UNO called together with the play."""
    words = args.split()
    if len(words) > 1 and words[-1].lower() in _UNO_WORDS:
        return " ".join(words[:-1]), True
    return args, False


def said_uno(bot: BotApi, incoming: Incoming) -> bool:
    """A plain channel message ``uno`` / ``UNO!`` from a seated player calls UNO.

    For the bot's non-command path (``Bot._message`` hands over a message that isn't a
    command): True when the message was such a call and was handled. Only where calls are
    manual, and a mistaken call is answered privately like ``.unocall``.
    """
    if incoming.private or incoming.text.strip().lower() not in _UNO_WORDS:
        return False
    table = bot.table_for(incoming.target, incoming.nick)
    if (
        table is None
        or not table.dealt
        or not table.has(incoming.nick)
        or table.config.rules.uno_call is not UnoCall.MANUAL
    ):
        return False
    try:
        bot.publish(table, table.call_uno(incoming.nick, bot.scheduler.now()))
    except UnoError as err:
        with speaking(bot.person_language(bot.ident(incoming), table.channel)):
            text = refusal(err)
        bot.send(Line("notice", incoming.nick, text, Tag(table.channel, reply=True)))
    return True


def _call(ctx: Context, table: Table) -> None:
    ctx.publish(table, table.call_uno(ctx.nick, ctx.now))


@command("uno")
@action(CallUno)
@in_channel
def uno(ctx: Context) -> None:
    """Open a game here (``.uno <preset>``: in that preset, this game only); during a game
    with manual UNO calls, call UNO."""
    table = ctx.find_table()
    if table is None:
        assert ctx.channel is not None
        word = ctx.args.split()[0].lower() if ctx.args.split() else ""
        name = preset_name(word) if word else None
        if word == "teams" or (name is not None and PRESETS[name].teams):
            rules = teams_of(ctx.bot.rules_for(ctx.channel), word)
            ctx.bot.open_table(ctx.channel, ctx.nick, ctx.ident, rules)
            return
        if name is not None:  # ``.uno no-mercy``, ``.uno two-teams``: this game only, a preset
            ctx.bot.open_table(ctx.channel, ctx.nick, ctx.ident, PRESETS[name])
            return
        ctx.bot.open_table(ctx.channel, ctx.nick, ctx.ident)
        return
    if table.dealt and table.has(ctx.nick) and table.config.rules.uno_call is UnoCall.MANUAL:
        _call(ctx, table)
        return
    if table.dealt:
        raise UnoError(_("a game is being played here: wait for the next one"))
    raise UnoError(_("a game is open here: {prefix}join to play", prefix=ctx.prefix))


@command("join", "ujoin")
@move
@in_channel
@in_table
def join(ctx: Context) -> None:
    _not_directed(ctx.table)
    ctx.publish(ctx.table, ctx.table.join(ctx.nick, ctx.ident, ctx.now))


@command("deal")
@move
@in_channel
@in_table
@example(".deal 60m")
def deal(ctx: Context) -> None:
    """Deal; ``.deal 60m`` (``1h``, ``90s``) makes it a timed match of hands."""
    _not_directed(ctx.table)
    limit = parse_duration(ctx.args) if ctx.args else None
    ctx.publish(ctx.table, ctx.table.deal(ctx.nick, ctx.now, limit))


def _may_seat_computers(ctx: Context, table: Table) -> None:
    """Who may add and remove computer players: anyone seated in the lobby (they are about to
    play with them, and the starter still decides when to deal), a channel operator or a bot
    admin. Onlookers can't fill or empty someone else's game."""
    if not ctx.bot.config.bots.enabled:
        raise UnoError(_("computer players are turned off on this bot"))
    if not (table.has(ctx.nick) or ctx.is_admin or (ctx.incoming.is_op and ctx.channel)):
        raise UnoError(
            _(
                "only players in this game (or an operator) can do that: {prefix}join",
                prefix=ctx.prefix,
            )
        )


@command("addbot")
@move
@in_channel
@in_table
@example(".addbot")
@example(".addbot hard")
@example(".addbot easy Rookie")
def addbot(ctx: Context) -> None:
    """Seat a computer player before the deal: level easy, normal (default) or hard, and a
    name (default HardBot1, NormalBot2 ...).

    A lobby move, like ``.join``: accepted, it needs only the person's own command budget
    (the table paces it: before the deal, up to the player limit; a refusal is charged), so
    others flooding the channel can't keep a person from a game against computer players."""
    _not_directed(ctx.table)
    table = ctx.table
    _may_seat_computers(ctx, table)
    level, name = parse_addbot(ctx.args)
    own = ctx.bot.transport.nickname
    # Not the nick of anyone in the channel, nor a service's. The bot's member list; a bot
    # object without one (a plugin test's stand-in) knows of nobody.
    members = getattr(ctx.bot, "members", None)

    def present(nick: str) -> bool:
        return members is not None and bool(members.present(table.channel, nick))

    name = computer_name(table, level, name, present, own)
    update = table.add_computer(level, name, ctx.now, own)
    ctx.publish(table, update)


@command("removebot", "delbot")
@move
@in_channel
@in_table
@example(".removebot")
@example(".removebot HardBot1")
def removebot(ctx: Context) -> None:
    """Take a computer player out of the lobby: the one named, else the last one added."""
    _not_directed(ctx.table)
    table = ctx.table
    _may_seat_computers(ctx, table)
    words = ctx.args.split()
    ctx.publish(table, table.remove_computer(words[0] if words else None, ctx.now))


def teams_of(rules: HouseRules, word: str = "teams") -> HouseRules:
    """The rules of ``.uno teams``: the channel's when they are a team game of either kind
    (chosen with ``.unorules``), else the ``pairs`` preset (``teams`` was its name: the
    official game in pairs, a match to 500). ``.uno pairs`` (``partners``) and ``.uno
    two-teams``: the channel's when they are a team game of that kind (a channel's own target
    score, say), else that preset."""
    if word == "teams":
        return rules if rules.teams else PRESETS["pairs"]
    wanted = PRESETS[preset_name(word) or "pairs"]
    return rules if rules.teams and rules.team_game is wanted.team_game else wanted


@command("team")
@move
@in_channel
@in_table
@example(".team bob")
@example(".team a")
def team(ctx: Context) -> None:
    """In the lobby of a game in pairs (``.uno pairs``), ask a player to be your partner; when
    they ``.team`` you back (a computer player at once), you are a team. With two teams
    (``.uno two-teams``), ``.team a`` / ``.team b`` joins a team, ``.team <nick>`` that
    player's. Without a word: the teams so far. Players left without a team at the deal are
    paired (dealt to the smaller team) in join order."""
    _not_directed(ctx.table)
    table = ctx.table
    words = ctx.args.split()
    if not words:
        rules = table.config.rules
        if not rules.teams:
            raise UnoError(
                _(
                    "this game is not played in teams: {prefix}uno pairs or {prefix}uno "
                    "two-teams opens one",
                    prefix=ctx.prefix,
                )
            )
        if rules.team_game is TeamGame.TWO_TEAMS:
            ctx.reply(_two_teams_text(table.team_names(), ctx.prefix, table.dealt))
            return
        teams = "; ".join(" + ".join(t) for t in table.team_names())
        if teams:
            text = _(
                "Teams: {teams}. {prefix}team <nick> to pair up; the rest are paired in join "
                "order at the deal.",
                teams=teams,
                prefix=ctx.prefix,
            )
        else:
            text = _(
                "Teams: none yet. {prefix}team <nick> to pair up; the rest are paired in join "
                "order at the deal.",
                prefix=ctx.prefix,
            )
        ctx.reply(text)
        return
    ctx.publish(table, table.team(ctx.nick, words[0], ctx.now))


def _two_teams_text(teams: tuple[tuple[str, ...], ...], prefix: str, dealt: bool) -> str:
    """``.team`` in a game of two teams: who plays for A and B (before the deal, those who
    chose), and how to choose."""
    a, b = (", ".join(t) or _("nobody yet") for t in teams)
    if dealt:
        return _("Team A: {a}. Team B: {b}.", a=a, b=b)
    return _(
        "Team A: {a}. Team B: {b}. {prefix}team a or {prefix}team b (or {prefix}team <nick>) "
        "to choose; at the deal the others join the smaller team, in join order.",
        a=a,
        b=b,
        prefix=prefix,
    )


@command("leave")
@move
@in_table
def leave(ctx: Context) -> None:
    ctx.publish(ctx.table, ctx.table.leave(ctx.nick, ctx.now))


@command("play", "p")
@action(Play)
@example(".p b 9")
@example(".p r s")
@example(".play w g")
@example(".play wd4 b")
@example(".p r 5 uno")
@example(".p r7 bob")
@in_game
def play(ctx: Context) -> None:
    """Play a card; a trailing ``uno`` calls UNO with it (manual UNO calls)."""
    text, uno = split_uno(ctx.args)
    table = ctx.table
    if table.flip:
        _flip_play(ctx, table, text, uno)
        return
    text, target = split_target(text, table)
    card, color = parse_play(text)
    if target is not None:
        ctx.publish(table, table.play(ctx.nick, card, color, ctx.now, uno=uno, target=target))
    else:
        ctx.publish(table, table.play(ctx.nick, card, color, ctx.now, uno=uno))


def _flip_side(table: Table) -> Side:
    game = table.game
    if game is None or not table.dealt:
        raise UnoError(_("no hand is being played"))
    return game.side  # type: ignore[union-attr,no-any-return]


def _other_side_refusal(side: Side) -> UnoError:
    """A card or colour of the side not in play: say which side is up."""
    if side is Side.DARK:
        return UnoError(
            _("that is a light-side card or colour: the dark side is up (colours p, t, o, u)")
        )
    return UnoError(
        _("that is a dark-side card or colour: the light side is up (colours r, y, g, b)")
    )


def _flip_play(ctx: Context, table: Table, text: str, uno: bool) -> None:
    """``.play`` at a table of UNO Flip: a face of the side in play (``p 5``, ``w t``), with
    ``uno``: the call with it."""
    side = _flip_side(table)
    try:
        face, color = parse_flip_play(text, side)
    except CardParseError:
        try:
            parse_flip_play(text, Side(1 - side))
        except CardParseError:
            raise
        raise _other_side_refusal(side) from None
    ctx.publish(table, table.play(ctx.nick, face, color, ctx.now, uno=uno))


def split_target(text: str, table: Table) -> tuple[str, str | None]:
    """Seven-O: ``"r7 bob"`` -> ``("r7", "bob")`` when the last word is a seated player's
    nick and the rest reads as a 7 (``.p r7 bob``, ``.play r 7 bob``); else unchanged."""
    words = text.split()
    if len(words) < 2 or not table.config.rules.seven_o:
        return text, None
    if table.seat_of(words[-1], computer=None) is None:
        return text, None
    rest = " ".join(words[:-1])
    try:
        card, _color = parse_play(rest)
    except ValueError:  # CardParseError: not a card, so not a 7 with a target
        return text, None
    if card.rank != 7:
        return text, None
    return rest, words[-1]


@command("swap")
@action(Swap)
@example(".swap bob")
@in_game
def swap(ctx: Context) -> None:
    """Seven-O: name whom the 7 you just played swaps hands with."""
    if not ctx.args:
        raise UnoError(_("swap with whom? e.g. {prefix}swap nick", prefix=ctx.prefix))
    ctx.publish(ctx.table, ctx.table.swap(ctx.nick, ctx.args.split()[0], ctx.now))


@command("unocall")
@action(CallUno)
@in_game
def unocall(ctx: Context) -> None:
    """Call UNO (also ``.uno`` during a game): before or right after the next-to-last card."""
    table = ctx.table
    if table.config.rules.uno_call is not UnoCall.MANUAL:
        raise UnoError(_("UNO is called automatically in this game"))
    _call(ctx, table)


@command("draw", "d")
@action(Draw)
@in_game
def draw(ctx: Context) -> None:
    ctx.publish(ctx.table, ctx.table.draw(ctx.nick, ctx.now))


@command("pass", "pa")
@action(Pass)
@in_game
def pass_(ctx: Context) -> None:
    ctx.publish(ctx.table, ctx.table.pass_turn(ctx.nick, ctx.now))


@command("color", "colour", "co")
@action(ChooseColor)
@example(".color g")
@in_game
def color(ctx: Context) -> None:
    """Name the colour when the first card turned up is a Wild, or (No Mercy) when a Wild
    Colour Roulette is played on you."""
    table = ctx.table
    if table.flip:
        side = _flip_side(table)
        try:
            chosen = parse_flip_color(ctx.args, side)
        except CardParseError:
            try:
                parse_flip_color(ctx.args, Side(1 - side))
            except CardParseError:
                raise
            raise _other_side_refusal(side) from None
        ctx.publish(table, table.choose_color(ctx.nick, chosen, ctx.now))
        return
    ctx.publish(table, table.choose_color(ctx.nick, parse_color(ctx.args), ctx.now))


@command("challenge", "ch")
@action(Challenge)
@in_game
def challenge(ctx: Context) -> None:
    ctx.publish(ctx.table, ctx.table.challenge(ctx.nick, ctx.now))


@command("catch", "halt")
@action(Catch)
@example(".catch bob")
@example(".halt bob")
@in_game
def catch(ctx: Context) -> None:
    if not ctx.args:
        raise UnoError(_("catch whom? e.g. {prefix}catch nick", prefix=ctx.prefix))
    ctx.publish(ctx.table, ctx.table.catch(ctx.nick, ctx.args.split()[0], ctx.now))


@command("cards")
@in_game
def cards(ctx: Context) -> None:
    """Your hand (if you play) and everyone's card count, privately; at UNO Flip ``.cards
    <nick>`` shows the side of that player's hand that faces the table."""
    table = ctx.table
    status = table.status()
    if status is None:
        raise UnoError(_("no hand is being played"))
    if table.flip and ctx.args.strip():
        _public_hand(ctx, table, ctx.args.split()[0])
        return
    fmt = Cards(ctx.bot.colors_for(table)(ctx.nick))
    out = {irc_lower(nick) for nick in status.out}
    # Lines made of several messages can't be said again in another language: made in the
    # sender's own from the start.
    with speaking(ctx.language):
        counts = ", ".join(
            _("{nick} out", nick=nick) if irc_lower(nick) in out else f"{nick} {n}"
            for nick, n in status.counts
        )
        public = _(
            "Cards: {counts}. {status}", counts=counts, status=status_text(status, fmt, ctx.prefix)
        )
        # The hand in lines of its own (split only between cards), then the table's counts.
        # On your turn the cards you may play are marked, as in the turn's own notice.
        lines: list[str] = (
            hand_lines(table.hand_notice(ctx.nick), fmt) if table.has(ctx.nick) else []
        )
        if irc_lower(ctx.nick) in out:
            lines = [_("You are out of this hand (mercy rule).")]
        query = ctx.bot.hand_query_for(table)(ctx.nick)  # where their hands go (.unohand)
        for line in [*lines, *fit(public)]:
            ctx.reply(line, query=query)


def _public_hand(ctx: Context, table: Table, nick: str) -> None:
    """UNO Flip: the backs of ``nick``'s cards, which everyone at the table sees (the side
    not in play), privately to the asker."""
    if table.seat_of(nick, computer=None) is None:
        raise UnoError(_("no player of that name is in this hand"))
    faces = table.public_hand_of(nick)  # type: ignore[attr-defined]
    seat = table.seat_of(nick, computer=None)
    assert seat is not None
    who = table.players[seat].nick
    fmt = Cards(ctx.bot.colors_for(table)(ctx.nick))
    with speaking(ctx.language):
        cards = fmt.hand(faces)
        if _flip_side(table) is Side.DARK:  # the backs are the light faces
            text = _("{nick}'s cards facing the table, light side: {cards}", nick=who, cards=cards)
        else:
            text = _("{nick}'s cards facing the table, dark side: {cards}", nick=who, cards=cards)
        query = ctx.bot.hand_query_for(table)(ctx.nick)
        for line in fit(text):
            ctx.reply(line, query=query)


@command("top")
@in_game
def top(ctx: Context) -> None:
    status = ctx.table.status()
    if status is None:
        raise UnoError(_("no hand is being played"))
    fmt = Cards(ctx.bot.colors_for(ctx.table)(ctx.nick))
    with speaking(ctx.language):
        ctx.reply(status_text(status, fmt, ctx.prefix))


@command("unostop")
@in_table
def unostop(ctx: Context) -> None:
    """The starter, a bot admin or a channel operator may stop; anyone once the game is idle."""
    table = ctx.table
    if table.config.tournament and not (ctx.is_admin or ctx.incoming.is_op):
        raise UnoError(
            _(
                "a tournament game is stopped by a tournament admin ({prefix}tournament)",
                prefix=ctx.prefix,
            )
        )
    idle = table.idle_for(ctx.now)
    allowed = (
        irc_eq(ctx.nick, table.starter)
        or ctx.is_admin
        or (ctx.incoming.is_op and ctx.channel is not None)
        or idle >= table.config.idle_stop
    )
    if not allowed:
        with speaking(ctx.language):
            wait = wait_text(table.config.idle_stop - idle)
            raise UnoError(
                _(
                    "only {nick}, an operator or a bot admin can stop this game now; if nobody "
                    "moves, anyone can {wait}",
                    nick=table.starter,
                    wait=wait,
                )
            )
    ctx.publish(table, table.stop(ctx.nick))


@command("pce-on")
def colors_on(ctx: Context) -> None:
    ctx.bot.settings.set_colors(ctx.ident, True)
    ctx.reply(_("Your cards will be shown in colour."))


@command("pce-off")
def colors_off(ctx: Context) -> None:
    ctx.bot.settings.set_colors(ctx.ident, False)
    ctx.reply(_("Your cards will be shown as plain letters."))


_TURN_WORDS = {"on": True, "off": False}
_QUERY_WORDS = {"query": True, "msg": True, "privmsg": True, "pm": True, "notice": False}


@command("unohand")
@example(".unohand query")
@example(".unohand off")
def turn_hand(ctx: Context) -> None:
    """``.unohand on|off``: your hand also when your turn comes, or only when it changes;
    ``.unohand query|notice``: your hands by private message (a query window of their own in
    irssi, WeeChat, HexChat, mIRC) or by NOTICE. Both remembered like ``.pce-off``;
    ``.unohand`` alone says which. The answer goes where the hands will."""
    settings = ctx.bot.settings
    words = ctx.args.lower().split()
    if any(w not in _TURN_WORDS and w not in _QUERY_WORDS for w in words):
        raise UnoError(
            _(
                "{prefix}unohand on or off (your hand when your turn comes too, or not), "
                "{prefix}unohand query or notice (by private message or by NOTICE)",
                prefix=ctx.prefix,
            )
        )
    for word in words:
        if word in _TURN_WORDS:
            settings.set_turn_hands(ctx.ident, _TURN_WORDS[word])
        else:
            settings.set_hand_query(ctx.ident, _QUERY_WORDS[word])
    turn, query = settings.turn_hands(ctx.ident), settings.hand_query(ctx.ident)
    p = ctx.prefix
    if turn and not query:
        text = _(
            "Your hand comes by NOTICE when it changes and when your turn comes, playable "
            "cards marked ({p}unohand off: not at your turn; {p}unohand query: as a private "
            "message, in a window of its own).",
            p=p,
        )
    elif turn:
        text = _(
            "Your hand comes as a private message (a query window) when it changes and when "
            "your turn comes, playable cards marked ({p}unohand off: not at your turn; "
            "{p}unohand notice: by NOTICE).",
            p=p,
        )
    elif not query:
        text = _(
            "Your hand comes by NOTICE only when it changes; {p}cards shows it ({p}unohand on: "
            "also when your turn comes; {p}unohand query: as a private message, in a window "
            "of its own).",
            p=p,
        )
    else:
        text = _(
            "Your hand comes as a private message (a query window) only when it changes; "
            "{p}cards shows it ({p}unohand on: also when your turn comes; {p}unohand notice: "
            "by NOTICE).",
            p=p,
        )
    ctx.reply(text, query=query)


def rating_explained(min_games: int) -> str:
    """``unobot.stats.ratings.EXPLAINED`` as the help says it, in the language being spoken (a
    test keeps the English the same as the stats' own)."""
    return ngettext(
        "Rating: a cautious estimate of skill from your places in every game and whom you "
        "played; it starts at 1000, grows as your results make it surer, and is provisional "
        "until you have played {n} game.",
        "Rating: a cautious estimate of skill from your places in every game and whom you "
        "played; it starts at 1000, grows as your results make it surer, and is provisional "
        "until you have played {n} games.",
        min_games,
    )


def help_lines(prefix: str = ".", min_games: int = 5) -> list[str]:
    """``.unohelp``: every command of the bot's own plugins in three lines of at most
    ``LIMIT`` bytes (each has room left for a command or two more),
    ending with the one sentence about ratings (``min_games``: when one stops being
    provisional)."""
    p = prefix
    return [
        _(
            "Uno: {p}uno [teams] opens a game, {p}join, {p}team nick, {p}deal [60m], {p}leave, "
            "{p}unostop; {p}addbot [easy|normal|hard] [name], {p}removebot [name]: computer "
            "players; {p}unorules: the rules here; {p}pce-on/{p}pce-off: cards in colour or "
            "plain. Your hand comes by NOTICE when it changes and when your turn comes "
            "({p}unohand off: not then; {p}unohand query: as a private message).",
            p=p,
        ),
        _(
            "Play: {p}p b 9, {p}p r s, {p}p g r, {p}p y d2, {p}p w g, {p}p wd4 b (add 'uno' to "
            "call it); {p}draw, {p}pass, {p}color, {p}challenge, {p}unocall, {p}catch/{p}halt "
            "nick; {p}swap nick (Seven-O); {p}cards (your hand, counts), {p}top; "
            "{p}unolang [me] de: language. Tournaments: {p}tjoin, {p}tleave, {p}tstatus "
            "(admins: {p}tournament). Records: {p}unorecords [week|month] [everywhere] "
            "[streak|cards|...].",
            p=p,
        ),
        _(
            "Stats: {p}unostats [nick], {p}unostats pw|ppg N [week|month] [here], "
            "{p}unotop10 [rating], {p}unorating [nick], {p}unogame [id] (a recorded game). "
            "{rating}",
            p=p,
            rating=rating_explained(min_games),
        ),
    ]


@command("uno-help", "unohelp")
def help_(ctx: Context) -> None:
    """Every command in three lines (what a newcomer needs, nothing they must look up)."""
    p = ctx.prefix
    for line in help_lines(p, ctx.bot.config.stats_min_games):
        ctx.reply(line)
    others = sorted(n for n, m in ctx.bot.commands().items() if not m.startswith(__package__))
    if others:  # commands of the operator's own plugins
        ctx.reply(_("Also here: {commands}.", commands=", ".join(p + name for name in others)))
