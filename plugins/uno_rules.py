"""``.unorules`` and ``.unolang``: a channel's rules and language, and a player's language.

A channel's choice is stored by the bot's settings store as a preset's name plus the options
changed from it (see ``unobot.core.settings``), and ``Bot.rules_for`` turns it back into rules when
the next game opens. Changing rules is for channel operators and bot admins, and never while a
game is open or dealt in the channel: a table keeps the rules it opened with, so a change in
the middle would not apply anyway and would only mislead the players. Showing and listing are
informational and answered privately, like ``.cards``; a change is announced in the channel,
because it concerns everyone who plays there.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from unobot.core.plugin import command, example
from unobot.core.render_irc import LIMIT, Line, fit
from unobot.core.settings import option_text, rules_as_text, rules_from_text
from unobot.engine.errors import UnoError
from unobot.engine.rules import PRESETS, HouseRules, preset
from unobot.i18n import LANGUAGE_NAMES, LANGUAGES, domain, normalize, speaking
from unobot.irc.casemap import irc_lower

if TYPE_CHECKING:
    from unobot.core.plugin import Context

__all__ = ["describe", "preset_list", "unolang"]

_, ngettext = domain("commands")

BLURBS: dict[str, str] = {
    "official": "draw one, challenge, 500",
    "irc-classic": "the original bot",
    "ocuk-tournament": "+2/+4 stacking, 251 points",
    "bac-tournament": "low wins",
    "knockout": "60 minutes",
    "teams": "pairs, 500 by team",
    "seven-o": "7 swaps, 0 passes",
    "jump-in": "same card out of turn",
    "house": "Seven-O, Jump-In, stacking",
    "no-mercy": "168 cards, out at 25",
}
"""A few words per preset for ``.unorules list``; a preset missing here is listed by name."""


def _clip(text: str, lines: int) -> list[str]:
    """``text`` in at most ``lines`` IRC lines, the last one marked when something was cut."""
    parts = fit(text)
    if len(parts) <= lines:
        return parts
    kept = parts[:lines]
    kept[-1] = fit(kept[-1], LIMIT - 4)[0] + " …"
    return kept


def changes_text(rules: HouseRules, sep: str = ": ") -> str:
    """The options that differ from ``rules``' preset, as a player would type them."""
    return ", ".join(f"{k}{sep}{option_text(v)}" for k, v in rules.differences().items())


def describe(rules: HouseRules, where: str) -> str:
    """``Rules in #uno: ocuk-tournament; changed: stacking: none, uno_penalty: 2``."""
    changed = changes_text(rules)
    tail = f"; changed: {changed}" if changed else " (as the preset)"
    return f"Rules {where}: {rules.name}{tail}."


def preset_list(prefix: str) -> str:
    """Every preset with a few words each, or only the names if that would not fit a line."""
    choose = f" Choose one: {prefix}unorules preset <name>"
    long = ", ".join(f"{n} ({BLURBS[n]})" if n in BLURBS else n for n in PRESETS)
    text = f"Presets: {long}.{choose}"
    if len(text.encode()) <= LIMIT:
        return text
    return f"Presets: {', '.join(PRESETS)}.{choose}"


def _may_change(ctx: Context) -> str:
    """The channel whose rules ``ctx`` may change now; UnoError saying why not otherwise."""
    channel = ctx.channel
    if channel is None:
        raise UnoError("say that in the channel whose rules you want to change")
    if not (ctx.incoming.is_op or ctx.is_admin):
        raise UnoError("only a channel operator or a bot admin can change the rules")
    if ctx.find_table() is not None:
        raise UnoError("the rules can't change during a game: wait until it ends")
    return channel


def _store(ctx: Context, channel: str, rules: HouseRules) -> None:
    """Remember ``rules`` for ``channel`` and announce them there in one line."""
    name, options = rules_as_text(rules)
    try:
        if rules_from_text(name, options) != rules:
            raise ValueError("not a preset")
    except ValueError:  # only with a hand-built default that is no preset
        raise UnoError(
            f"these rules can't be stored: choose a preset first ({ctx.prefix}unorules list)"
        ) from None
    ctx.bot.settings.set_channel_rules(irc_lower(channel), name, options)
    changed = changes_text(rules, " ")
    text = f"{ctx.nick} set the rules: {name}" + (f", {changed}" if changed else "")
    ctx.bot.send(Line("privmsg", channel, _clip(text, 1)[0], ctx.reply_tag(channel)))


@command("unorules")
@example(".unorules")
@example(".unorules list")
@example(".unorules preset ocuk-tournament")
@example(".unorules set stacking same")
def unorules(ctx: Context) -> None:
    """Show the rules here, list the presets, or (operators, admins) choose them."""
    p = ctx.prefix
    words = ctx.args.split()
    sub = words[0].lower() if words else ""
    if not sub:
        table = ctx.find_table()
        if table is not None:
            text = describe(table.config.rules, f"of the game in {table.channel}")
        elif ctx.channel is not None:
            text = describe(ctx.bot.rules_for(ctx.channel), f"in {ctx.channel}")
        else:
            text = describe(ctx.bot.config.table.rules, "by default")
        for line in _clip(text, 2):
            ctx.reply(line)
    elif sub in ("list", "presets"):
        ctx.reply(_clip(preset_list(p), 1)[0])
    elif sub == "preset":
        if len(words) != 2:
            raise UnoError(f"which preset? e.g. {p}unorules preset official ({p}unorules list)")
        channel = _may_change(ctx)
        try:
            rules = preset(words[1])
        except ValueError as err:
            raise UnoError(str(err)) from None
        _store(ctx, channel, rules)
    elif sub == "set":
        if len(words) < 3:
            raise UnoError(f"set what? e.g. {p}unorules set stacking same")
        channel = _may_change(ctx)
        try:
            rules = ctx.bot.rules_for(channel).with_option(words[1], " ".join(words[2:]))
        except ValueError as err:
            raise UnoError(str(err)) from None
        _store(ctx, channel, rules)
    else:
        raise UnoError(
            f"{p}unorules shows the rules; {p}unorules list, {p}unorules preset <name>, "
            f"{p}unorules set <option> <value>"
        )


# --- languages ---------------------------------------------------------------------------------

_FORGET = ("default", "reset", "off", "none")


def _language_list() -> str:
    return ", ".join(f"{code} ({LANGUAGE_NAMES[code]})" for code in LANGUAGES)


def _chosen(ctx: Context, word: str) -> str:
    """The shipped language ``word`` names; UnoError listing them otherwise."""
    lang = normalize(word)
    if lang is None:
        raise UnoError(
            _(
                "I don't speak {language}. Languages: {languages}",
                language=word[:20],
                languages=_language_list(),
            )
        )
    return lang


@command("unolang")
@example(".unolang")
@example(".unolang de")
@example(".unolang me fr")
def unolang(ctx: Context) -> None:
    """The channel's language (operators, admins: ``.unolang de``; ``.unolang default``
    forgets it) and your own for what is sent to you alone (``.unolang me fr``,
    ``.unolang me default``). What players type stays the same in every language."""
    words = ctx.args.split()
    p = ctx.prefix
    settings = ctx.bot.settings
    if not words:
        here = ctx.channel_language
        mine = settings.language(ctx.ident)
        text = _(
            "Language here: {language}. Yours: {yours}. Languages: {languages}. "
            "{prefix}unolang <code> (channel operators), {prefix}unolang me <code> (you).",
            language=LANGUAGE_NAMES[here],
            yours=LANGUAGE_NAMES[mine] if mine else _("as the channel"),
            languages=", ".join(LANGUAGES),
            prefix=p,
        )
        ctx.reply(text)
        return
    if words[0].lower() == "me":
        if len(words) < 2:
            raise UnoError(
                _(
                    "{prefix}unolang me <code>: one of {languages}",
                    prefix=p,
                    languages=_language_list(),
                )
            )
        if words[1].lower() in _FORGET:
            settings.set_language(ctx.ident, None)
            ctx.reply(_("What is sent to you alone now follows the channel's language."))
            return
        lang = _chosen(ctx, words[1])
        settings.set_language(ctx.ident, lang)
        ctx.reply(
            _("What is sent to you alone is now in {language}.", language=LANGUAGE_NAMES[lang])
        )
        return
    channel = ctx.channel
    if channel is None:
        raise UnoError(
            _(
                "say that in the channel whose language you want to change, or "
                "{prefix}unolang me <code> for your own",
                prefix=p,
            )
        )
    if not (ctx.incoming.is_op or ctx.is_admin):
        raise UnoError(
            _(
                "only a channel operator or a bot admin can change the channel's "
                "language; {prefix}unolang me <code> changes yours",
                prefix=p,
            )
        )
    key = irc_lower(channel)
    if words[0].lower() in _FORGET:
        settings.set_language(key, None)
    else:
        settings.set_language(key, _chosen(ctx, words[0]))
    lang = ctx.bot.channel_language(channel)
    with speaking(lang):
        text = _(
            "{nick} set the language here: {language}.",
            nick=ctx.nick,
            language=LANGUAGE_NAMES[lang],
        )
    ctx.bot.send(Line("privmsg", channel, text, ctx.reply_tag(channel)))
