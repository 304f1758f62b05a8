"""``.unorules`` and ``.unolang``: a channel's rules and language, and a player's language;
``.unoadmin CODE``: the admin code from the bot's console makes you a bot admin.

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

from unobot.core.admins import Claim
from unobot.core.plugin import command, example
from unobot.core.render_irc import LIMIT, Line, fit, rules_note
from unobot.core.settings import option_text, rules_as_text, rules_from_text
from unobot.engine.errors import RuleError, UnoError
from unobot.engine.rules import PRESETS, HouseRules, preset, preset_name
from unobot.i18n import LANGUAGE_NAMES, LANGUAGES, N_, domain, normalize, speaking
from unobot.irc.casemap import irc_lower

if TYPE_CHECKING:
    from unobot.core.plugin import Context

__all__ = ["describe", "preset_list", "unoadmin", "unolang"]

_, ngettext = domain("commands")

BLURBS: dict[str, str] = {
    "official": N_("draw one, challenge, 500"),
    "irc-classic": N_("the original bot"),
    "ocuk-tournament": N_("+2/+4 stacking, 251 points"),
    "bac-tournament": N_("low wins"),
    "knockout": N_("60 minutes"),
    "pairs": N_("4 or 6"),  # players: the name says the rest
    "two-teams": N_("4-10"),
    "seven-o": N_("7 swaps, 0 passes"),
    "jump-in": N_("same card out of turn"),
    "house": N_("Seven-O, Jump-In, stacking"),
    "no-mercy": N_("168 cards, out at 25"),
    "flip": N_("double-sided cards"),
}
"""A few words per preset for ``.unorules list`` (English ids, said with ``_()``); a preset
missing here is listed by name."""


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


_WHERE = {
    # (where the rules are, whether options changed): the whole sentence
    ("game", True): N_("Rules of the game in {channel}: {preset}; changed: {changed}."),
    ("game", False): N_("Rules of the game in {channel}: {preset} (as the preset)."),
    ("channel", True): N_("Rules in {channel}: {preset}; changed: {changed}."),
    ("channel", False): N_("Rules in {channel}: {preset} (as the preset)."),
    ("default", True): N_("Rules by default: {preset}; changed: {changed}."),
    ("default", False): N_("Rules by default: {preset} (as the preset)."),
}


def describe(rules: HouseRules, where: str, channel: str = "") -> str:
    """``Rules in #uno: ocuk-tournament; changed: stacking: none, uno_penalty: 2``.
    ``where``: ``game`` (of the game in ``channel``), ``channel`` or ``default``."""
    changed = changes_text(rules)
    return _(_WHERE[where, bool(changed)], channel=channel, preset=rules.name, changed=changed)


def preset_list(prefix: str, may_change: bool = True) -> str:
    """Every preset, with a few words each as far as the line allows: the first presets keep
    theirs and the last ones are named alone when all of them would not fit one line.

    ``may_change``: whether the asker may choose one here (a channel operator or bot admin):
    they are invited to; anyone else is told who can, not invited to a command that would
    only refuse them."""
    if may_change:
        message = N_("Presets: {presets}. Choose one: {prefix}unorules preset <name>")
    else:
        message = N_("Presets: {presets}. Channel operators and bot admins choose one.")
    names = list(PRESETS)
    for kept in range(len(names), -1, -1):
        shown = ", ".join(
            f"{n} ({_(BLURBS[n])})" if n in BLURBS and i < kept else n for i, n in enumerate(names)
        )
        text = _(message, presets=shown, prefix=prefix)
        if len(text.encode()) <= LIMIT:
            return text
    return text


def _may_change(ctx: Context) -> str:
    """The channel whose rules ``ctx`` may change now; UnoError saying why not otherwise."""
    channel = ctx.channel
    if channel is None:
        raise UnoError(_("say that in the channel whose rules you want to change"))
    if not (ctx.incoming.is_op or ctx.is_admin):
        raise UnoError(_("only a channel operator or a bot admin can change the rules"))
    if ctx.find_table() is not None:
        raise UnoError(_("the rules can't change during a game: wait until it ends"))
    return channel


def _store(ctx: Context, channel: str, rules: HouseRules) -> None:
    """Remember ``rules`` for ``channel`` and announce them there in one line."""
    name, options = rules_as_text(rules)
    try:
        if rules_from_text(name, options) != rules:
            raise ValueError("not a preset")
    except ValueError:  # only with a hand-built default that is no preset
        raise UnoError(
            _(
                "these rules can't be stored: choose a preset first ({prefix}unorules list)",
                prefix=ctx.prefix,
            )
        ) from None
    ctx.bot.settings.set_channel_rules(irc_lower(channel), name, options)
    changed = changes_text(rules, " ")
    with speaking(ctx.bot.channel_language(channel)):
        if changed:
            text = _(
                "{nick} set the rules: {preset}, {changed}",
                nick=ctx.nick,
                preset=name,
                changed=changed,
            )
        else:
            text = _("{nick} set the rules: {preset}", nick=ctx.nick, preset=name)
        line = _clip(text, 1)[0]
    ctx.bot.send(Line("privmsg", channel, line, ctx.reply_tag(channel)))


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
        with speaking(ctx.language):  # clipped into lines: made in the sender's language
            if table is not None:
                rules = table.config.rules
                text = describe(rules, "game", table.channel)
            elif ctx.channel is not None:
                rules = ctx.bot.rules_for(ctx.channel)
                text = describe(rules, "channel", ctx.channel)
            else:
                rules = ctx.bot.config.table.rules
                text = describe(rules, "default")
            for line in _clip(text, 2):
                ctx.reply(line)
            note = rules_note(rules)  # what the variant changes, as the deal says it
            if note:
                ctx.reply(_clip(note, 1)[0])
    elif sub in ("list", "presets"):
        may = ctx.is_admin or (ctx.channel is not None and ctx.incoming.is_op)
        with speaking(ctx.language):
            ctx.reply(_clip(preset_list(p, may), 1)[0])
    elif sub == "preset":
        if len(words) != 2:
            raise UnoError(
                _(
                    "which preset? e.g. {prefix}unorules preset official ({prefix}unorules list)",
                    prefix=p,
                )
            )
        channel = _may_change(ctx)
        try:
            rules = preset(words[1])
        except RuleError as err:
            raise UnoError(err.message_id, **err.params) from None
        _store(ctx, channel, rules)
    elif sub == "set":
        if len(words) < 3:
            raise UnoError(_("set what? e.g. {prefix}unorules set stacking same", prefix=p))
        channel = _may_change(ctx)
        try:
            rules = ctx.bot.rules_for(channel).with_option(words[1], " ".join(words[2:]))
        except RuleError as err:
            raise UnoError(err.message_id, **err.params) from None
        _store(ctx, channel, rules)
    elif preset_name(sub) is not None:
        # ``.unorules flip``: what a preset plays, as its deal would say it.
        name = preset_name(sub)
        assert name is not None
        rules = PRESETS[name]
        with speaking(ctx.language):
            note = rules_note(rules) or (_(BLURBS[name]) if name in BLURBS else "")
            text = _("Preset {preset}: {note}", preset=name, note=note) if note else name
            for line in _clip(text, 2):
                ctx.reply(line)
    else:
        raise UnoError(
            _(
                "{prefix}unorules shows the rules; {prefix}unorules list, {prefix}unorules "
                "preset <name>, {prefix}unorules set <option> <value>",
                prefix=p,
            )
        )


# --- languages ---------------------------------------------------------------------------------


def shown(text: str, most: int = 20) -> str:
    """User text safe to quote back: printable characters only (no colour codes, no CTCP
    marker), one line, short."""
    clean = "".join(ch if ch.isprintable() else "?" for ch in text.strip())
    return clean if len(clean) <= most else clean[: most - 1] + "…"


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
                language=shown(word),
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


@command("unoadmin")
@example(".unoadmin k3m9-x7pq-r2tw")
def unoadmin(ctx: Context) -> None:
    """The admin code shown on the bot's console (``unobot.core.admins``) makes the sender a
    bot admin until the bot stops, whatever the order of joining. Every answer is a private
    NOTICE: the code is never said back, and a wrong one gets one short line."""
    p = ctx.prefix
    bot_nick = ctx.bot.transport.nickname
    code = ctx.args.strip()
    if not code:
        raise UnoError(
            _(
                "{prefix}unoadmin <code>: the admin code the bot showed on its console; say "
                "it to the bot alone: /msg {bot} {prefix}unoadmin <code>",
                prefix=p,
                bot=bot_nick,
            )
        )
    claim = ctx.bot.claim_admin(ctx.incoming, ctx.person, code)
    if claim is Claim.ALREADY:
        ctx.reply(_("You are a bot admin already."))
    elif claim is Claim.GRANTED:
        ctx.reply(
            _(
                "You are a bot admin until the bot stops: you may change the rules "
                "({prefix}unorules) and the language ({prefix}unolang) of any channel, stop "
                "any game ({prefix}unostop) and run tournaments ({prefix}tournament).",
                prefix=p,
            )
        )
        if ctx.channel is not None:
            ctx.reply(
                _(
                    "That code was seen in the channel, but it worked only once. Next time "
                    "say it to the bot alone: /msg {bot} {prefix}unoadmin <code>",
                    bot=bot_nick,
                    prefix=p,
                )
            )
    elif claim is Claim.WRONG:
        raise UnoError(_("that is not the admin code"))
    elif claim is Claim.LOCKED:
        raise UnoError(_("too many wrong codes: the bot takes none from you until it restarts"))
    else:
        raise UnoError(_("the bot takes no admin code now: ask whoever runs it"))
