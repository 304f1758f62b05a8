"""What language each channel and person hears, and how each player wants their cards.

Read from the settings store (``.unolang``, ``.pce-on``, ``.unohand``), else the bot's
configuration: a channel's language is its ``.unolang``, else ``[bot.channel_languages]``,
else ``[bot] language``; a person's is their ``.unolang me``, else the channel's. A seated
person's preferences are kept under their seat's key (their account when logged in, which
survives nick changes), anyone else's under their folded nick.

:class:`Preferences` is the bot's part for this: given the settings store and the two
configured languages, nothing else (no tables, no transport), so it is tested alone.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING

from unobot.irc.casemap import irc_lower

if TYPE_CHECKING:
    from unobot.core.settings import SettingsStore
    from unobot.core.table import Table

__all__ = ["Preferences", "keys_of"]

log = logging.getLogger("unobot.core.bot")  # the bot's lines, as operators filter them

KEPT_CHANNELS = 10_000
"""At most this many channels' languages are kept (a bound on memory, not a tuning)."""


class Preferences:
    """Languages and per-person choices, read through ``settings``; ``language``: the bot's,
    ``channel_languages``: configured ones by folded channel name."""

    def __init__(
        self, settings: SettingsStore, language: str, channel_languages: Mapping[str, str]
    ) -> None:
        self.settings = settings
        self.language = language
        self.channel_languages = channel_languages
        self._spoken: dict[str, str] = {}
        """Each channel's language as last worked out (:meth:`channel_language`)."""
        listeners = getattr(settings, "language_listeners", None)
        self._keep = listeners is not None
        """The settings say when a language changes: channels' languages can be kept."""
        if listeners is not None:
            listeners.append(self._spoken.clear)

    def configure(self, language: str, channel_languages: Mapping[str, str]) -> None:
        """A new configuration (tests, a reload) may say other channels' languages."""
        self.language = language
        self.channel_languages = channel_languages
        self._spoken.clear()

    def channel_language(self, channel: str) -> str:
        """What is said in ``channel``: its ``.unolang``, else the config's for it, else the
        bot's. A settings store that can't answer leaves the configured language.

        Asked for every command and every update: kept per channel until the settings say a
        language changed (their ``language_listeners``) or the config is replaced."""
        found = self._spoken.get(channel)
        if found is not None:
            return found
        key = irc_lower(channel)
        lang = self._stored_language(key) or self.channel_languages.get(key) or self.language
        if self._keep and len(self._spoken) < KEPT_CHANNELS:
            self._spoken[channel] = lang
        return lang

    def _stored_language(self, key: str) -> str | None:
        """The ``.unolang`` of a channel or a person; None when none (or the store failed:
        logged, and the configured language answers)."""
        try:
            return self.settings.language(key)
        except Exception:
            log.exception("can't read the language of %s", key)
            return None

    def person_language(self, ident: str, channel: str | None = None) -> str:
        """What is sent to one person alone: their ``.unolang me``, else the language of the
        channel it concerns (their table's), else the bot's."""
        chosen = self._stored_language(ident)
        if chosen:
            return chosen
        return self.channel_language(channel) if channel else self.language

    def languages_for(
        self, table: Table, channel: str | None = None, key: Callable[[str], str] | None = None
    ) -> Callable[[str], str]:
        """Each seated nick's language for their hands (by their identity, as colours), else
        the channel's (``channel``: already known, else looked up once)."""
        spoken = channel if channel is not None else self.channel_language(table.channel)
        key = key or keys_of(table)
        stored = self._stored_language
        return lambda nick: stored(key(nick)) or spoken

    def colors_for(
        self, table: Table, key: Callable[[str], str] | None = None
    ) -> Callable[[str], bool]:
        """Whether a player at ``table`` reads their cards in colour (``.pce-on``/``-off``)."""
        key = key or keys_of(table)
        colors = self.settings.colors
        return lambda nick: colors(key(nick))

    def turn_hands_for(
        self, table: Table, key: Callable[[str], str] | None = None
    ) -> Callable[[str], bool]:
        """Whether a player at ``table`` wants their hand when their turn comes
        (``.unohand``)."""
        key = key or keys_of(table)
        wanted = self.settings.turn_hands
        return lambda nick: wanted(key(nick))

    def hand_query_for(
        self, table: Table, key: Callable[[str], str] | None = None
    ) -> Callable[[str], bool]:
        """Whether a player at ``table`` wants their hands by private message rather than by
        NOTICE (``.unohand query``)."""
        key = key or keys_of(table)
        wanted = self.settings.hand_query
        return lambda nick: wanted(key(nick))


def keys_of(table: Table) -> Callable[[str], str]:
    """A nick's identity for preferences: a seated person's key (their account, which survives
    nick changes), else the folded nick. The seats as they are now, read once."""
    keys = {p.nick: p.key for p in table.players if not p.computer}

    def key(nick: str) -> str:
        found = keys.get(nick)
        if found is None:
            player = table.player(nick)  # a nick written otherwise than the table's
            found = player.key if player is not None else irc_lower(nick)
        return found

    return key
