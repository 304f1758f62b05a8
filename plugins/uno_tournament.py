"""Tournament commands: ``.tournament …`` for admins, ``.tjoin .tleave .tstatus`` for players.

Thin, like the game commands: each handler reads its words, asks the director
(``unobot.tournament.director``) and answers. Admins are bot admins and the operators of the
tournament's channel. Mistakes raise ``UnoError`` and are answered privately.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from unobot.ai.strategy import LEVELS
from unobot.core.plugin import command, example, in_channel
from unobot.engine.errors import UnoError
from unobot.i18n import N_, domain, speaking
from unobot.tournament.director import Director, standings_lines
from unobot.tournament.formats import FORMATS
from unobot.tournament.model import TournamentError
from unobot.tournament.words import sheet_text, stage_text, status_text

if TYPE_CHECKING:
    from unobot.core.bot import Bot
    from unobot.core.plugin import Context
    from unobot.tournament.state import Tournament

_, ngettext = domain("tournament")

USAGE = N_(
    "usage: .tournament new <format> <name> [key=value ...] | start | cancel [reason] | "
    "pause | resume | addbot [level] [name|count] | reserve <nick> | remove <nick> [reason] | "
    "sub <old> <new> | correct <nick> <game> <+/-points> <reason> | penalty <nick> [cards] | "
    "list. Formats: {formats}"
)


def _usage() -> str:
    return _(USAGE, formats=", ".join(FORMATS))


def _refused(err: TournamentError) -> UnoError:
    """The director's refusal as the command's answer, its message kept translatable."""
    return UnoError(err.args[0] if err.args else "")


def setup(bot: Bot) -> None:
    """Give the bot its tournament director (the composition root then gives the director
    the database: ``unobot.main``)."""
    bot.director = Director(bot, scale=bot.config.tournament_scale)


def _director(ctx: Context) -> Director:
    director = getattr(ctx.bot, "director", None)
    if not isinstance(director, Director):
        raise UnoError(_("tournaments are not set up on this bot"))
    return director


def _here(ctx: Context) -> Tournament:
    found = _director(ctx).for_channel(ctx.channel)
    if found is None:
        raise UnoError(_("no tournament runs here: an admin opens one with .tournament new"))
    return found


def _admin(ctx: Context) -> None:
    if not (ctx.is_admin or ctx.incoming.is_op):
        raise UnoError(_("only a bot admin or a channel operator runs the tournament"))


def _nick(word: str) -> str:
    if not word or len(word) > 30 or not all(c.isprintable() and c not in " ,:*?!@#" for c in word):
        raise UnoError(_("that is not a nick"))
    return word


@command("tournament", "tourney")
@in_channel
@example(".tournament new ocuk cup signup=30m")
@example(".tournament new knockout ko game=60m")
@example(".tournament new rotation bac rounds=3 round=20m warning=5m")
def tournament(ctx: Context) -> None:
    """Run a tournament from this channel (admins); ``.tstatus`` shows it."""
    words = ctx.args.split()
    if not words:
        raise UnoError(_usage())
    sub, rest = words[0].lower(), words[1:]
    director = _director(ctx)
    try:
        if sub == "list":
            _list(ctx, director)
            return
        _admin(ctx)
        if sub == "new":
            if len(rest) < 2:
                raise UnoError(
                    _(
                        "usage: .tournament new <format> <name> [key=value ...]; "
                        "formats: {formats}",
                        formats=", ".join(FORMATS),
                    )
                )
            director.open(rest[1], rest[0], ctx.channel or "", rest[2:], ctx.nick)
            return
        here = _here(ctx)
        if sub == "start":
            director.start(here, ctx.nick)
        elif sub == "cancel":
            director.cancel(here, ctx.nick, " ".join(rest)[:100])
        elif sub == "pause":
            director.pause(here, ctx.nick)
        elif sub == "resume":
            director.resume(here, ctx.nick)
        elif sub == "addbot":
            _addbot(ctx, director, here, rest)
        elif sub == "reserve" and rest:
            nick = _nick(rest[0])
            director.join(here, nick, nick.lower(), reserve=True)
            ctx.say(_("{nick} is a reserve in {name}.", nick=nick, name=here.name))
        elif sub == "remove" and rest:
            director.remove(
                here, _nick(rest[0]), ctx.nick, " ".join(rest[1:])[:100] or f"removed by {ctx.nick}"
            )
        elif sub == "sub" and len(rest) == 2:
            new = _nick(rest[1])
            director.substitute(here, _nick(rest[0]), new, new.lower(), ctx.nick)
        elif sub == "correct" and len(rest) >= 4:
            try:
                delta = int(rest[2])
            except ValueError:
                raise UnoError(
                    _("the correction is a whole number of points, e.g. +20 or -15")
                ) from None
            director.correct(
                here, _nick(rest[0]), rest[1], delta, ctx.nick, " ".join(rest[3:])[:100]
            )
        elif sub == "penalty" and rest:
            cards = int(rest[1]) if len(rest) > 1 and rest[1].isdigit() else 2
            director.penalty(here, _nick(rest[0]), cards, ctx.nick)
        else:
            raise UnoError(_usage())
    except TournamentError as err:
        raise _refused(err) from None


ADDBOT_MOST = 64
"""The most computer entrants one ``.tournament addbot`` adds (a knockout's seed draw)."""


def _addbot(ctx: Context, director: Director, here: Tournament, rest: list[str]) -> None:
    """``addbot [level] [name]`` or ``addbot [level] <count>``: one command for a field of
    computer entrants (one command per entrant ran into the command throttle)."""
    words = list(rest[:3])
    count = 1
    if words and words[-1].lstrip("+-").isdigit():
        count = _count(words.pop())
    level = words[0].lower() if words else here.options.level
    if level not in LEVELS:
        raise UnoError(_("the levels are {levels}", levels=", ".join(LEVELS)))
    if len(words) > 1 and count > 1:
        raise UnoError(_("a name is for one computer player; a count names them itself"))
    room = getattr(here.format.options, "max_entrants", None)
    if isinstance(room, int):
        taken = sum(not e.reserve for e in here.entrants)
        if taken + count > room:
            left = max(0, room - taken)
            raise UnoError(
                _(
                    "{name} takes {room} entrants (max_entrants): room for {left} more",
                    name=here.name,
                    room=room,
                    left=left,
                )
            )
    names: list[str] = []
    for _k in range(count):
        name = words[1] if len(words) > 1 else _bot_name(here, level)
        if not (
            1 <= len(name) <= 16
            and name[0].isalpha()
            and name.replace("_", "").replace("-", "").isalnum()
        ):
            raise UnoError(_("a computer player's name is up to 16 letters, digits, - or _"))
        try:
            director.join(here, name, "", level=level)
        except TournamentError as err:
            if not names:
                raise
            ctx.say(
                _(
                    "{added} Not the rest: {error}.",
                    added=_added(names, level, here),
                    error=err.args[0] if err.args else "",
                )
            )
            return
        names.append(name)
    ctx.say(_added(names, level, here))


def _count(word: str) -> int:
    count = int(word)
    if not 1 <= count <= ADDBOT_MOST:
        raise UnoError(_("add 1 to {most} computer players at a time", most=ADDBOT_MOST))
    return count


def _bot_name(here: Tournament, level: str) -> str:
    stem = level.capitalize() + "Bot"
    n = 1
    while here.entrant(f"{stem}{n}") is not None:
        n += 1
    return f"{stem}{n}"


def _added(names: list[str], level: str, here: Tournament) -> str:
    if len(names) == 1:
        return _(
            "{name} (computer, {level}) is in {tournament} ({entrants}).",
            name=names[0],
            level=level,
            tournament=here.name,
            entrants=_entrants(here),
        )
    if len(names) <= 8:
        shown = ", ".join(names)
    else:
        shown = _("{first} to {last}", first=names[0], last=names[-1])
    return ngettext(
        "{n} computer player ({level}) is in {tournament}: {names} ({entrants}).",
        "{n} computer players ({level}) are in {tournament}: {names} ({entrants}).",
        len(names),
        level=level,
        tournament=here.name,
        names=shown,
        entrants=_entrants(here),
    )


def _entrants(here: Tournament) -> str:
    count = sum(not e.reserve for e in here.entrants)
    return ngettext("{n} entrant", "{n} entrants", count)


def _list(ctx: Context, director: Director) -> None:
    with speaking(ctx.language):  # a private answer, in the asker's own language
        shown = [
            _(
                "{name} ({format}, {status}, {channel})",
                name=t.name,
                format=t.format.name,
                status=status_text(t.status),
                channel=t.channel,
            )
            for t in director.tournaments.values()
        ]
        if shown:
            ctx.reply(_("Tournaments: {list}", list="; ".join(shown)))
        else:
            ctx.reply(_("Tournaments: none running"))


@command("tjoin")
@in_channel
def tjoin(ctx: Context) -> None:
    """Sign up for the tournament run from this channel."""
    here = _here(ctx)
    try:
        _director(ctx).join(here, ctx.nick, ctx.ident)
    except TournamentError as err:
        raise _refused(err) from None
    ctx.say(
        _(
            "{nick} is in {name} ({entrants}).",
            nick=ctx.nick,
            name=here.name,
            entrants=_entrants(here),
        )
    )


@command("tleave")
@in_channel
def tleave(ctx: Context) -> None:
    """Withdraw during sign-up (later, an admin removes a player)."""
    here = _here(ctx)
    try:
        _director(ctx).change(here, "leave", name=ctx.nick)
    except TournamentError as err:
        raise _refused(err) from None
    ctx.say(_("{nick} has left {name}.", nick=ctx.nick, name=here.name))


@command("tstatus")
@example(".tstatus")
@example(".tstatus cup")
def tstatus(ctx: Context) -> None:
    """The tournament: a short line in the channel, the standings and tables privately."""
    director = _director(ctx)
    words = ctx.args.split()
    here = director.find(words[0]) if words else director.for_channel(ctx.channel, ended=True)
    if here is None:
        raise UnoError(_("no tournament here (.tournament list)"))
    if here.status == "signup":
        names = ", ".join(e.name for e in here.entrants)
        if names:
            ctx.say(
                _(
                    "{name} ({format}) sign-up: {names}.",
                    name=here.name,
                    format=here.format.name,
                    names=names,
                )
            )
        else:
            ctx.say(
                _("{name} ({format}) sign-up: nobody yet.", name=here.name, format=here.format.name)
            )
        return
    standings = here.standings()
    # The channel's line is built in the language spoken (the channel's, or in private the
    # asker's); the standings and sheet go to the asker alone, in their own language.
    games = here.pending()
    where = "; ".join(
        _("{stage} at {channel}", stage=stage_text(g.stage), channel=here.channel_of(g))
        for g in games[:4]
    )
    top = ", ".join(f"{s.place}. {s.name} {s.score}" for s in standings[:3])
    status = (
        _("{status} (paused)", status=status_text(here.status))
        if here.paused is not None
        else status_text(here.status)
    )
    said = {"name": here.name, "format": here.format.name, "status": status, "top": top}
    if where:
        ctx.say(_("{name} ({format}, {status}): {top}. Playing: {where}.", where=where, **said))
    else:
        ctx.say(_("{name} ({format}, {status}): {top}.", **said))
    with speaking(ctx.language):
        for line in standings_lines(standings):
            ctx.reply(line)
        for row in here.sheet.lines[-10:]:
            ctx.reply(sheet_text(row))
